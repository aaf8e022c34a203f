/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden-table tests for lwn-text: HTML to plain text, ellipsizing, control stripping and escaping. */

#include "config.h"

#include <string.h>

#include "lwn-text.h"

typedef char *(*TextFunc) (const char *text);

typedef struct
{
  const char *name;
  const char *input;
  gsize max_chars;
  const char *expected;
} TextCase;

/* The first item of tests/data/lwn-headlines-2023-07.rdf as its <description>
 * reads once the XML layer has turned &lt; and &quot; back into markup. */
#define LWN_GOING_ROGUE                                                                 \
  "\n      After an initial foray into the ways that open-source software has failed\n" \
  "to live up to its early hype,\n"                                                     \
  "<a href=\"https://www.filfre.net/2023/07/going-rogue/\">this Digital\n"              \
  "Antiquarian article</a> covers the history of rogue-like games in great\n"           \
  "detail.\n"                                                                           \
  "<p>\n"                                                                               \
  "<blockquote class=\"bq\">\n"                                                         \
  "\tThis brings us back around to a statement I made at the outset:\n"                 \
  "\tthat roguelikes are the exception that proves the rule of\n"                       \
  "\topen-source game development \xe2\x80\x94 and just possibly of open-source\n"      \
  "\tsoftware development in general.\n"                                                \
  "</blockquote>\n"                                                                     \
  "      \n      "

#define LWN_GOING_ROGUE_TEXT                                                                                                                             \
  "After an initial foray into the ways that open-source software has failed to live up to its early hype, this Digital Antiquarian article covers the " \
  "history of rogue-like games in great detail.\n"                                                                                                       \
  "This brings us back around to a statement I made at the outset: that roguelikes are the exception that proves the rule of open-source game "          \
  "development \xe2\x80\x94 and just possibly of open-source software development in general."

static const TextCase from_html_cases[] = {
  { "entity/amp", "Tom &amp; Jerry", 0, "Tom & Jerry" },
  { "entity/lt-gt", "&lt;b&gt; is bold", 0, "<b> is bold" },
  { "entity/decimal", "before &#8212; after", 0, "before \xe2\x80\x94 after" },
  { "entity/hex", "x&#x2026;", 0, "x\xe2\x80\xa6" },
  { "entity/nbsp", "Fedora&nbsp;40&nbsp;&nbsp; change", 0, "Fedora 40 change" },
  { "entity/quot-apos", "&quot;quoted&quot; &#39;single&#39;", 0, "\"quoted\" 'single'" },
  { "entity/unknown", "AT&T &bogus; R&D", 0, "AT&T &bogus; R&D" },
  { "entity/control", "a&#27;[31mb&#155;c", 0, "a[31mbc" },
  { "drop/script", "<script>alert(1)</script>Hello <script type=\"text/javascript\">x()</script>world", 0, "Hello world" },
  { "drop/style", "<style>p { color: red }</style><p>Styled</p>", 0, "Styled" },
  { "drop/head", "<html><head><title>Page title</title><style>p{}</style></head><body><p>Body</p></body></html>", 0, "Body" },
  { "drop/noscript-template", "a<noscript>enable JS</noscript> b<template><p>t</p></template> c", 0, "a b c" },
  { "drop/comment", "one<!-- hidden -->two", 0, "onetwo" },
  { "break/br", "one<br>two<br/>three", 0, "one\ntwo\nthree" },
  { "break/p", "<p>one</p><p>two</p>", 0, "one\ntwo" },
  { "break/blank-lines", "<p>one</p><p></p><br><br><div><p>two</p></div><hr>", 0, "one\ntwo" },
  { "break/list", "Items:<ul><li>first</li><li>second</li></ul>done", 0, "Items:\nfirst\nsecond\ndone" },
  { "break/heading", "<h2>Title</h2>Text", 0, "Title\nText" },
  { "break/table", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", 0, "a b\nc" },
  { "break/pre", "<pre>line 1\n   line  2</pre>after", 0, "line 1\nline 2\nafter" },
  { "space/collapse", "  lots \t of\n\n   space  ", 0, "lots of space" },
  { "space/inline", "a<b>b</b> <i>c</i>", 0, "ab c" },
  { "space/inside-block", "<p>\n  padded  \n</p>", 0, "padded" },
  { "lwn/going-rogue", LWN_GOING_ROGUE, 0, LWN_GOING_ROGUE_TEXT },
  { "lwn/security-updates",
    "Security updates have been issued by <b>Debian</b> (libusrsctp, nsis), <b>Fedora</b> (firefox), and <b>SUSE</b> (bind).\n\n      \n      ",
    0, "Security updates have been issued by Debian (libusrsctp, nsis), Fedora (firefox), and SUSE (bind)." },
  { "lwn/nbsp-link", "The Fedora project is considering <a\nhref=\"https://lwn.net/ml/fedora-devel/x@y/\">a\nFedora&nbsp;40 change proposal</a> to add telemetry.",
    0, "The Fedora project is considering a Fedora 40 change proposal to add telemetry." },
  { "lwn/ellipsized", LWN_GOING_ROGUE, 60, "After an initial foray into the ways that open-source\xe2\x80\xa6" },
  { "plain/no-tags", "Plain text, with no tags at all.", 0, "Plain text, with no tags at all." },
  { "plain/newlines", "first line\nsecond line\r\nthird", 0, "first line second line third" },
  { "malformed/stray-lt-amp", "a < b & c <p", 0, "a < b & c" },
  { "malformed/unclosed", "<p>open <b>bold <i>both", 0, "open bold both" },
  { "malformed/lone-lt", "1 <2 and 3<", 0, "1 <2 and 3<" },
  { "controls/esc", "a\x1b[31mred\x1b[0m", 0, "a[31mred[0m" },
  { "controls/c1", "x\xc2\x9by\xc2\x85z", 0, "xyz" },
  { "controls/nul-entity", "a&#0;b", 0, "ab" },
  { "utf8/invalid", "caf\xc3 ok\xff", 0, "caf\xef\xbf\xbd ok\xef\xbf\xbd" },
  { "utf8/meta-charset-ignored", "<meta charset=\"iso-8859-1\">caf\xc3\xa9", 0, "caf\xc3\xa9" },
  { "empty/string", "", 0, "" },
  { "empty/white-space", "  \n\t ", 0, "" },
  { "empty/tags-only", "<p></p><br><div> </div>", 0, "" },
  { "empty/script-only", "<script>x()</script>", 20, "" },
  { "limit/fits", "<p>short</p>", 10, "short" },
  { "limit/word", "<p>The quick brown fox</p>", 12, "The quick\xe2\x80\xa6" },
};

static const TextCase collapse_cases[] = {
  { "ascii", "  a \t b\n\nc  ", 0, "a b c" },
  { "nbsp", "a\xc2\xa0\xc2\xa0"
            "b",
    0, "a b" },
  { "unicode-spaces", "a\xe2\x80\x83"
                      "b\xe2\x80\xa8"
                      "c\xe3\x80\x80"
                      "d",
    0, "a b c d" },
  { "unchanged", "one two", 0, "one two" },
  { "multibyte", " caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac ", 0, "caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac" },
  { "invalid", "a\xff  b", 0, "a\xef\xbf\xbd b" },
  { "empty", "", 0, "" },
  { "only-space", " \n\t\xc2\xa0", 0, "" },
};

static const TextCase strip_cases[] = {
  { "esc", "\x1b[31mred\x1b[0m", 0, "[31mred[0m" },
  { "c1-csi", "a\xc2\x9b"
              "31mb",
    0, "a31mb" },
  { "c1-range", "\xc2\x80x\xc2\x9f", 0, "x" },
  { "tab-newline", "tab\there\nnew\rline", 0, "tabherenewline" },
  { "del", "del\x7f", 0, "del" },
  { "c0-all", "\x01\x02\x07\x08\x0b\x0c\x1f", 0, "" },
  { "printable-kept", "ok \xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5 \xc2\xa0!", 0, "ok \xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5 \xc2\xa0!" },
  { "invalid", "a\xff"
               "b\xc3",
    0, "a\xef\xbf\xbd"
       "b\xef\xbf\xbd" },
  { "overlong-esc", "x\xc0\x9b"
                    "y",
    0, "x\xef\xbf\xbd\xef\xbf\xbdy" },
  { "empty", "", 0, "" },
};

static const TextCase ellipsize_cases[] = {
  { "fits", "short", 10, "short" },
  { "exact", "exactly10!", 10, "exactly10!" },
  { "no-limit", "The quick brown fox jumps over the lazy dog", 0, "The quick brown fox jumps over the lazy dog" },
  { "word-boundary", "The quick brown fox jumps", 12, "The quick\xe2\x80\xa6" },
  { "boundary-at-cut", "abcd efgh", 6, "abcd\xe2\x80\xa6" },
  { "trailing-punctuation", "Hello, world and more", 8, "Hello\xe2\x80\xa6" },
  { "trailing-colon", "Note: something long here", 7, "Note\xe2\x80\xa6" },
  { "long-word", "Supercalifragilistic", 10, "Supercali\xe2\x80\xa6" },
  { "far-boundary", "a bcdefghijklmnop", 10, "a bcdefgh\xe2\x80\xa6" },
  { "one-char", "abc", 1, "\xe2\x80\xa6" },
  { "two-chars", "abc", 2, "a\xe2\x80\xa6" },
  { "utf8/e-acute", "caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9"
                    "e",
    9, "caf\xc3\xa9 cr\xc3\xa8\xe2\x80\xa6" },
  { "utf8/e-acute-at-cut", "caf\xc3\xa9\xc3\xa9\xc3\xa9", 5, "caf\xc3\xa9\xe2\x80\xa6" },
  { "utf8/em-dash", "a\xe2\x80\x94"
                    "b\xe2\x80\x94"
                    "c\xe2\x80\x94"
                    "d",
    6, "a\xe2\x80\x94"
       "b\xe2\x80\x94"
       "c\xe2\x80\xa6" },
  { "utf8/em-dash-trailing", "a\xe2\x80\x94"
                             "b\xe2\x80\x94"
                             "c\xe2\x80\x94"
                             "d",
    5, "a\xe2\x80\x94"
       "b\xe2\x80\xa6" },
  { "utf8/cjk", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88", 5,
    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe2\x80\xa6" },
  { "utf8/emoji", "ok \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 5, "ok \xf0\x9f\x98\x80\xe2\x80\xa6" },
  { "utf8/zwj-sequence", "x\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 family", 4, "x\xe2\x80\xa6" },
  { "utf8/combining", "e\xcc\x81"
                      "e\xcc\x81"
                      "e\xcc\x81",
    4, "e\xcc\x81\xe2\x80\xa6" },
  { "utf8/invalid", "ab\xff"
                    "cd",
    10, "ab\xef\xbf\xbd"
        "cd" },
  { "empty", "", 5, "" },
};

static const TextCase markup_cases[] = {
  { "all-specials", "<b>&'\"", 0, "&lt;b&gt;&amp;&apos;&quot;" },
  { "sentence", "Tom & Jerry <3", 0, "Tom &amp; Jerry &lt;3" },
  { "already-escaped", "&amp;", 0, "&amp;amp;" },
  { "plain", "caf\xc3\xa9 \xe2\x80\x94 ok", 0, "caf\xc3\xa9 \xe2\x80\x94 ok" },
  { "invalid", "a\xff", 0, "a\xef\xbf\xbd" },
  { "empty", "", 0, "" },
};

static const TextCase mnemonic_cases[] = {
  { "single", "_foo_bar", 0, "__foo__bar" },
  { "double", "a__b", 0, "a____b" },
  { "none", "no underscores", 0, "no underscores" },
  { "multibyte", "\xc3\xa9_\xe6\x97\xa5", 0, "\xc3\xa9__\xe6\x97\xa5" },
  { "invalid", "_\xff", 0, "__\xef\xbf\xbd" },
  { "empty", "", 0, "" },
};

static void
assert_plain_utf8 (const char *text,
                   gsize max_chars)
{
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  if (max_chars > 0)
    g_assert_cmpint (g_utf8_strlen (text, -1), <=, (glong) max_chars);
}

static void
test_from_html (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_from_html (test->input, test->max_chars);

  g_test_summary ("Feed HTML renders to the expected plain text.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, test->max_chars);
}

static void
test_ellipsize (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_ellipsize (test->input, test->max_chars);

  g_test_summary ("Ellipsizing counts characters and never splits a character or a word needlessly.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, test->max_chars);
}

static void
test_collapse (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_collapse_whitespace (test->input);

  g_test_summary ("Every run of Unicode white space becomes one ASCII space.");

  g_assert_cmpstr (text, ==, test->expected);
}

static void
test_strip (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_strip_controls (test->input);

  g_test_summary ("Control characters are removed and invalid UTF-8 is replaced.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, 0);
}

static void
markup_text_cb (GMarkupParseContext *context,
                const char *text,
                gsize text_len,
                gpointer user_data,
                GError **error)
{
  g_string_append_len (user_data, text, text_len);
}

static void
test_markup (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_escape_markup (test->input);
  g_autofree char *document = g_strconcat ("<body>", text, "</body>", NULL);
  g_autofree char *valid_input = g_utf8_make_valid (test->input, -1);
  g_autoptr (GString) round_trip = g_string_new (NULL);
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  const GMarkupParser parser = { .text = markup_text_cb };

  g_test_summary ("Escaped text is markup that parses back to the original text.");

  g_assert_cmpstr (text, ==, test->expected);

  context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, round_trip, NULL);
  g_assert_true (g_markup_parse_context_parse (context, document, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (round_trip->str, ==, valid_input);
}

static void
test_mnemonic (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_escape_mnemonic (test->input);

  g_test_summary ("Underscores are doubled so that menus show them literally.");

  g_assert_cmpstr (text, ==, test->expected);
}

static void
test_null_input (void)
{
  g_autofree char *from_html = lwn_text_from_html (NULL, 10);
  g_autofree char *collapsed = lwn_text_collapse_whitespace (NULL);
  g_autofree char *stripped = lwn_text_strip_controls (NULL);
  g_autofree char *ellipsized = lwn_text_ellipsize (NULL, 10);
  g_autofree char *markup = lwn_text_escape_markup (NULL);
  g_autofree char *mnemonic = lwn_text_escape_mnemonic (NULL);

  g_test_summary ("Every function returns \"\" rather than NULL for NULL input.");

  g_assert_cmpstr (from_html, ==, "");
  g_assert_cmpstr (collapsed, ==, "");
  g_assert_cmpstr (stripped, ==, "");
  g_assert_cmpstr (ellipsized, ==, "");
  g_assert_cmpstr (markup, ==, "");
  g_assert_cmpstr (mnemonic, ==, "");
}

static const char *const ellipsize_samples[] = {
  "The quick brown fox jumps over the lazy dog",
  "caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9"
  "e \xe2\x80\x94 d\xc3\xa9j\xc3\xa0 vu",
  "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88 \xe3\x81\xa7\xe3\x81\x99",
  "emoji \xf0\x9f\x98\x80\xf0\x9f\x90\xa7 penguin \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 family",
  "e\xcc\x81t\xc3\xa9, \xc3\xa0 l'h\xc3\xb4tel; fin: ok.",
};

static void
test_ellipsize_every_length (gconstpointer data)
{
  const char *sample = data;
  glong n_chars = g_utf8_strlen (sample, -1);

  for (gsize max = 1; max <= (gsize) n_chars + 2; max++)
    {
      g_autofree char *text = lwn_text_ellipsize (sample, max);

      assert_plain_utf8 (text, max);
      if ((gsize) n_chars <= max)
        g_assert_cmpstr (text, ==, sample);
      else
        {
          gsize prefix_len = strlen (text) - strlen ("\xe2\x80\xa6");

          g_assert_true (g_str_has_suffix (text, "\xe2\x80\xa6"));
          g_assert_cmpint (strncmp (text, sample, prefix_len), ==, 0);
        }
    }
}

static char *
repeat (const char *unit,
        gsize min_bytes)
{
  GString *out = g_string_sized_new (min_bytes + strlen (unit));

  while (out->len < min_bytes)
    g_string_append (out, unit);

  return g_string_free (out, FALSE);
}

static void
test_from_html_large (void)
{
  g_autofree char *html = repeat ("<p>Some <b>words</b> &amp; more words.</p>\n", 1024 * 1024);
  g_autofree char *plain = repeat ("word ", 1024 * 1024);
  g_autofree char *shown = NULL;
  g_autofree char *unlimited = NULL;
  g_autofree char *unlimited_plain = NULL;
  double elapsed;

  g_test_summary ("A 1 MB description is rendered quickly and the result stays bounded, with or without a limit.");

  g_test_timer_start ();
  shown = lwn_text_from_html (html, 200);
  unlimited = lwn_text_from_html (html, 0);
  unlimited_plain = lwn_text_from_html (plain, 0);
  elapsed = g_test_timer_elapsed ();

  assert_plain_utf8 (shown, 200);
  g_assert_true (g_str_has_prefix (shown, "Some words & more words.\nSome words"));
  g_assert_true (g_str_has_suffix (shown, "\xe2\x80\xa6"));

  assert_plain_utf8 (unlimited, 64 * 1024);
  g_assert_true (g_str_has_suffix (unlimited, "\xe2\x80\xa6"));
  assert_plain_utf8 (unlimited_plain, 64 * 1024);
  g_assert_true (g_str_has_prefix (unlimited_plain, "word word "));
  g_assert_true (g_str_has_suffix (unlimited_plain, "word\xe2\x80\xa6"));

  /* Parsing everything would still finish, but in far more than this
   * (and far more under valgrind): only the start is looked at. */
  g_assert_cmpfloat (elapsed, <, 5.0);
}

static char *
nested_html (guint depth)
{
  GString *html = g_string_new ("before ");

  for (guint i = 0; i < depth; i++)
    g_string_append (html, "<span>");
  g_string_append (html, "deep");
  for (guint i = 0; i < depth; i++)
    g_string_append (html, "</span>");
  g_string_append (html, " tail");

  return g_string_free (html, FALSE);
}

static void
test_from_html_deep (void)
{
  g_autofree char *html = nested_html (200);
  g_autofree char *hostile_html = nested_html (20000);
  g_autofree char *text = lwn_text_from_html (html, 0);
  g_autofree char *hostile_text = lwn_text_from_html (hostile_html, 0);

  g_test_summary ("Deep nesting keeps its text; absurd nesting, which libxml2 refuses "
                  "past its depth limit, costs no crash and keeps the text before it.");

  g_assert_cmpstr (text, ==, "before deep tail");
  assert_plain_utf8 (hostile_text, 0);
  g_assert_true (g_str_has_prefix (hostile_text, "before"));
}

static void
add_table (const char *prefix,
           const TextCase *cases,
           gsize n_cases,
           GTestDataFunc func)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/%s/%s", prefix, cases[i].name);
      g_test_add_data_func (path, &cases[i], func);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  add_table ("from-html", from_html_cases, G_N_ELEMENTS (from_html_cases), test_from_html);
  add_table ("collapse-whitespace", collapse_cases, G_N_ELEMENTS (collapse_cases), test_collapse);
  add_table ("strip-controls", strip_cases, G_N_ELEMENTS (strip_cases), test_strip);
  add_table ("ellipsize", ellipsize_cases, G_N_ELEMENTS (ellipsize_cases), test_ellipsize);
  add_table ("escape-markup", markup_cases, G_N_ELEMENTS (markup_cases), test_markup);
  add_table ("escape-mnemonic", mnemonic_cases, G_N_ELEMENTS (mnemonic_cases), test_mnemonic);

  for (gsize i = 0; i < G_N_ELEMENTS (ellipsize_samples); i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/ellipsize/every-length/%" G_GSIZE_FORMAT, i);
      g_test_add_data_func (path, ellipsize_samples[i], test_ellipsize_every_length);
    }

  g_test_add_func ("/text/null-input", test_null_input);
  g_test_add_func ("/text/from-html/large", test_from_html_large);
  g_test_add_func ("/text/from-html/deep", test_from_html_deep);

  return g_test_run ();
}
