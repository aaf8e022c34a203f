/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for lwn-opml: lists as Liferea, newsboat and RSS Guard write them, bad lists, hostile lists, round trips,
 * the limits on size and on feeds per import, and the parse in a worker. */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <libxml/parser.h>

#include "lwn-opml.h"
#include "lwn-reader-settings.h"
#include "lwn-url.h"

typedef struct
{
  const char *url;
  const char *title;
  const char *site_url;
} ExpectedFeed;

static GPtrArray *
parse_file (const char *name,
            guint *n_skipped,
            GError **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "opml", name, NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GBytes) bytes = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  return lwn_opml_parse (bytes, n_skipped, error);
}

static void
assert_feeds (GPtrArray *feeds,
              const ExpectedFeed *expected,
              guint n_expected)
{
  g_assert_nonnull (feeds);
  g_assert_cmpuint (feeds->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);

      g_assert_cmpstr (feed->url, ==, expected[i].url);
      g_assert_cmpstr (feed->title, ==, expected[i].title);
      g_assert_cmpstr (feed->site_url, ==, expected[i].site_url);
    }
}

/* Liferea nests folders and writes title, text and description alike; its
 * search folders (vfolder) name no feed. */
static void
test_liferea (void)
{
  static const ExpectedFeed expected[] = {
    { "https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net" },
    { "https://www.debian.org/News/news", "Debian News", "https://www.debian.org/News/" },
    { "https://www.kernel.org/feeds/kdist.xml", "kernel.org releases", "https://www.kernel.org/" },
    { "https://planet.gnome.org/atom.xml", "Planet GNOME & friends", "https://planet.gnome.org/" },
  };
  g_autoptr (GError) error = NULL;
  guint skipped = 99;
  g_autoptr (GPtrArray) feeds = parse_file ("liferea.opml", &skipped, &error);

  g_test_summary ("Liferea's nested folders are flattened in order, with titles and site addresses");

  g_assert_no_error (error);
  assert_feeds (feeds, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (skipped, ==, 0);
}

/* newsboat writes one flat list with title only; its exec: and query: feeds
 * cannot be followed here, and are counted as skipped. */
static void
test_newsboat (void)
{
  static const ExpectedFeed expected[] = {
    { "https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net" },
    { "https://blog.example.org/feed.json", "A colleague's blog", "https://blog.example.org/" },
    { "https://example.com/no-title.xml", NULL, NULL },
  };
  g_autoptr (GError) error = NULL;
  guint skipped = 0;
  g_autoptr (GPtrArray) feeds = parse_file ("newsboat.opml", &skipped, &error);

  g_test_summary ("newsboat's flat list is read; its exec: and query: feeds are counted as skipped");

  g_assert_no_error (error);
  assert_feeds (feeds, expected, G_N_ELEMENTS (expected));
  g_assert_cmpuint (skipped, ==, 2);
}

/* RSS Guard writes OPML 2.0 with attributes in its own namespace, text
 * without title, and the feed: scheme as given to it; a feed listed twice
 * is kept once. */
static void
test_rssguard (void)
{
  static const ExpectedFeed expected[] = {
    { "https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net" },
    { "http://micronews.debian.org/feeds/atom.xml", "Debian micronews", NULL },
    { "https://fedoramagazine.org/feed/", "Fedora Magazine", NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) feeds = parse_file ("rssguard.opml", NULL, &error);

  g_test_summary ("RSS Guard's namespaced attributes and feed: addresses are read; a feed listed twice is kept once");

  g_assert_no_error (error);
  assert_feeds (feeds, expected, G_N_ELEMENTS (expected));
}

typedef struct
{
  const char *file;
  LwnOpmlError code;
  const char *message_part;
} BadCase;

static void
test_bad (gconstpointer data)
{
  const BadCase *bad = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) feeds = parse_file (bad->file, NULL, &error);

  g_test_summary ("A list that cannot be read is refused with an error saying why");

  g_assert_null (feeds);
  g_assert_error (error, LWN_OPML_ERROR, (int) bad->code);
  g_test_message ("%s: %s", bad->file, error->message);
  g_assert_nonnull (strstr (error->message, bad->message_part));
}

static const BadCase bad_cases[] = {
  { "bad-truncated.opml", LWN_OPML_ERROR_MALFORMED, "line" },
  { "bad-not-opml.opml", LWN_OPML_ERROR_NOT_OPML, "not an OPML" },
  { "bad-no-feeds.opml", LWN_OPML_ERROR_NO_FEEDS, "names no feed" },
  { "bad-only-local.opml", LWN_OPML_ERROR_NO_FEEDS, "2 feeds, but none" },
  { "bad-entities.opml", LWN_OPML_ERROR_MALFORMED, "entit" },
};

static void
test_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = g_bytes_new_static ("", 0);
  g_autoptr (GPtrArray) feeds = lwn_opml_parse (bytes, NULL, &error);

  g_test_summary ("An empty file is refused as malformed");

  g_assert_null (feeds);
  g_assert_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_MALFORMED);
}

/* What lwn_opml_write() writes reads back the same, with characters that
 * need escaping, a feed without a title (named by its address in the file,
 * and without a title again once read) and a thousand feeds; and each
 * reader's sample survives a round trip. */
static void
test_round_trip (void)
{
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autoptr (GDateTime) created = g_date_time_new_utc (2026, 12, 5, 9, 30, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("A written list reads back the same, a thousand feeds and escaped characters included");

  g_ptr_array_add (feeds, lwn_opml_feed_new ("https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net/"));
  g_ptr_array_add (feeds, lwn_opml_feed_new ("https://example.org/a?b=1&c=\"2\"", "<Tom & Jerry's> “news”", NULL));
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://feeds.example/%u.xml", i);
      g_autofree char *title = g_strdup_printf ("Feed %u", i);

      g_ptr_array_add (feeds, lwn_opml_feed_new (url, i % 2 == 0 ? title : NULL, NULL));
    }

  text = lwn_opml_write (feeds, created);
  g_assert_nonnull (strstr (text, "<opml version=\"2.0\">"));
  g_assert_nonnull (strstr (text, "<dateCreated>Sat, 05 Dec 2026 09:30:00 GMT</dateCreated>"));

  bytes = g_bytes_new (text, strlen (text));
  again = lwn_opml_parse (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->len, ==, feeds->len);
  for (guint i = 0; i < feeds->len; i++)
    {
      const LwnOpmlFeed *a = g_ptr_array_index (feeds, i);
      const LwnOpmlFeed *b = g_ptr_array_index (again, i);

      g_assert_cmpstr (b->url, ==, a->url);
      g_assert_cmpstr (b->title, ==, a->title);
      g_assert_cmpstr (b->site_url, ==, a->site_url);
    }
  g_assert_nonnull (strstr (text, "text=\"https://feeds.example/1.xml\""));
}

static void
test_samples_round_trip (void)
{
  static const char *const files[] = { "liferea.opml", "newsboat.opml", "rssguard.opml" };

  g_test_summary ("Each reader's sample reads back the same once written");

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) feeds = parse_file (files[f], NULL, &error);
      g_autofree char *text = lwn_opml_write (feeds, NULL);
      g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));
      g_autoptr (GPtrArray) again = lwn_opml_parse (bytes, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (again->len, ==, feeds->len);
      for (guint i = 0; i < feeds->len; i++)
        {
          const LwnOpmlFeed *a = g_ptr_array_index (feeds, i);
          const LwnOpmlFeed *b = g_ptr_array_index (again, i);

          g_assert_cmpstr (b->url, ==, a->url);
          g_assert_cmpstr (b->title, ==, a->title);
          g_assert_cmpstr (b->site_url, ==, a->site_url);
        }
    }
}

/* Folders nested deeper than any recursion would like are still walked. */
static void
test_deep_nesting (void)
{
  g_autoptr (GString) text = g_string_new ("<opml version=\"2.0\"><head/><body>");
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GError) error = NULL;
  const guint depth = 200;

  g_test_summary ("Folders nested 200 deep are walked without recursion");

  for (guint i = 0; i < depth; i++)
    g_string_append (text, "<outline text=\"folder\">");
  g_string_append (text, "<outline text=\"Deep\" xmlUrl=\"https://deep.example/feed\"/>");
  for (guint i = 0; i < depth; i++)
    g_string_append (text, "</outline>");
  g_string_append (text, "<outline text=\"Shallow\" xmlUrl=\"https://shallow.example/feed\"/></body></opml>");

  bytes = g_bytes_new (text->str, text->len);
  feeds = lwn_opml_parse (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (feeds->len, ==, 2);
  g_assert_cmpstr (((LwnOpmlFeed *) g_ptr_array_index (feeds, 0))->title, ==, "Deep");
  g_assert_cmpstr (((LwnOpmlFeed *) g_ptr_array_index (feeds, 1))->title, ==, "Shallow");
}

static GPtrArray *
parse_text (const char *text,
            guint *n_skipped,
            GError **error)
{
  g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));

  return lwn_opml_parse (bytes, n_skipped, error);
}

/* One address check for every way in: the feeds editor's. A host with a
 * space or an escape byte, written as such or percent-encoded (GUri
 * decodes a host), is refused and counted as skipped, as are an address
 * longer than the check allows and one that is not http or https. */
static void
test_address_check (void)
{
  static const char *const refused[] = {
    "https://exa mple.com/feed",
    "https://exa%20mple.com/feed",
    "https://exa%1Bmple.com/feed",
    "https://exa%1b[31mple.com/feed",
    "feed://exa%20mple.com/feed",
    "https://example.com%0A.evil/feed",
    "javascript:alert(1)",
    "https:///no-host",
    /* GUri's relaxed parse reads the host "blog" and the path ";x`y/",
     * which GLib 2.74 refuses to print with a critical. */
    "https://blog;x`y.org/",
  };
  g_autoptr (GString) text = g_string_new ("<opml version=\"2.0\"><head/><body>");
  g_autoptr (GString) long_url = g_string_new ("https://long.example/");
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GError) error = NULL;
  guint skipped = 0;

  g_test_summary ("Every outline's address gets the feeds editor's check: hosts with a space or an escape byte are skipped");

  g_string_append (text, "<outline text=\"Good\" xmlUrl=\"https://good.example/feed\" htmlUrl=\"https://si%20te.example/\"/>");
  g_string_append (text, "<outline text=\"Path\" xmlUrl=\"https://good.example/a b\u00A0c\"/>");
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *escaped = g_markup_escape_text (refused[i], -1);

      g_string_append_printf (text, "<outline text=\"Bad %u\" xmlUrl=\"%s\"/>", i, escaped);
    }
  while (long_url->len <= LWN_URL_MAX_FEED_BYTES)
    g_string_append (long_url, "a");
  g_string_append_printf (text, "<outline text=\"Long\" xmlUrl=\"%s\"/>", long_url->str);
  g_string_append (text, "</body></opml>");

  feeds = parse_text (text->str, &skipped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (feeds->len, ==, 2);
  g_assert_cmpstr (((LwnOpmlFeed *) g_ptr_array_index (feeds, 0))->url, ==, "https://good.example/feed");
  /* White space in a path, unlike in a host, has a meaning: it is encoded. */
  g_assert_cmpstr (((LwnOpmlFeed *) g_ptr_array_index (feeds, 1))->url, ==, "https://good.example/a%20b%C2%A0c");
  /* A site address gets the same check, and is dropped alone. */
  g_assert_null (((LwnOpmlFeed *) g_ptr_array_index (feeds, 0))->site_url);
  g_assert_cmpuint (skipped, ==, G_N_ELEMENTS (refused) + 1);

  /* The feeds editor makes the same check. */
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    g_assert_nonnull (lwn_url_feed_problem (refused[i]));
  g_assert_nonnull (lwn_url_feed_problem (long_url->str));
  /* White space beyond ASCII, which a person cannot tell from a space,
   * and what XML 1.0 cannot hold, which could never be exported. */
  g_assert_nonnull (lwn_url_feed_problem ("https://a.example/no\u00A0break"));
  g_assert_nonnull (lwn_url_feed_problem ("https://a.example/\xEF\xBF\xBF"));
  g_assert_null (lwn_url_feed_problem ("https://good.example/feed"));
  g_assert_null (lwn_url_feed_problem ("http://[::1]:8080/feed?a=1&b=<2>#top"));
}

typedef struct
{
  const char *attribute; /* as written in the file */
  const char *expected;  /* the title read, or NULL */
} TitleCase;

/* Titles lose C1 controls and DEL (which XML 1.0 allows), fold tabs,
 * newlines and other white space into one space, and stop at 200
 * characters; a title that is only its feed's address is no title. */
static void
test_titles (void)
{
  static const TitleCase cases[] = {
    { "LWN&#x9B;31m.net&#x7F;", "LWN31m.net" },
    { "  Tabs&#9;and&#10;&#13;newlines\u2028and\u00A0spaces  ", "Tabs and newlines and spaces" },
    { "&#x85;&#x80; &#x9F;", NULL },
    { "Ends in a control &#x9B; ", "Ends in a control" },
    { "https://t.example/4", NULL },
    { "&lt;>&amp;&lt;&quot;]]&gt;\xF0\x9F\x98\x80", "<>&<\"]]>\xF0\x9F\x98\x80" },
  };
  g_autoptr (GString) text = g_string_new ("<opml version=\"2.0\"><head/><body>");
  g_autoptr (GString) long_title = g_string_new (NULL);
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GError) error = NULL;
  const LwnOpmlFeed *last;

  g_test_summary ("Titles lose control characters, fold white space, stop at 200 characters, and a title "
                  "that is only the feed's address is none");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_string_append_printf (text, "<outline %s=\"%s\" xmlUrl=\"https://t.example/%u\"/>", i % 2 == 0 ? "title" : "text",
                            cases[i].attribute, i);
  for (guint i = 0; i < 4096; i++)
    g_string_append (long_title, i % 8 == 7 ? " " : "w");
  g_string_append_printf (text, "<outline text=\"%s\" xmlUrl=\"https://t.example/long\"/></body></opml>", long_title->str);

  feeds = parse_text (text->str, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (feeds->len, ==, G_N_ELEMENTS (cases) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);

      g_test_message ("%u: %s", i, feed->title);
      g_assert_cmpstr (feed->title, ==, cases[i].expected);
    }

  last = g_ptr_array_index (feeds, feeds->len - 1);
  g_assert_cmpstr (last->url, ==, "https://t.example/long");
  g_assert_cmpuint (g_utf8_strlen (last->title, -1), <=, LWN_OPML_MAX_TITLE_CHARS);
  g_assert_cmpuint (g_utf8_strlen (last->title, -1), >, LWN_OPML_MAX_TITLE_CHARS / 2);
  g_assert_true (g_str_has_suffix (last->title, "\u2026"));
}

/* What the list holds once read: the title cleaned, the site address kept
 * only when it passes the feeds' check. */
static void
assert_same_list (GPtrArray *read,
                  GPtrArray *expected)
{
  g_assert_cmpuint (read->len, ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      const LwnOpmlFeed *a = g_ptr_array_index (expected, i);
      const LwnOpmlFeed *b = g_ptr_array_index (read, i);

      g_assert_cmpstr (b->url, ==, a->url);
      g_assert_cmpstr (b->title, ==, a->title);
      g_assert_cmpstr (b->site_url, ==, a->site_url);
    }
}

/* Well-formed XML 1.0, as a strict parser sees it, with no control byte
 * but the newlines of the layout. */
static void
assert_well_formed (const char *text)
{
  xmlDoc *doc = xmlReadMemory (text, (int) strlen (text), NULL, "UTF-8",
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);

  g_assert_nonnull (doc);
  xmlFreeDoc (doc);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    g_assert_true (*p >= 0x20 || *p == '\n');
}

/* An export is well-formed and reads back as the same list whatever the
 * settings hold: titles with markup, CDATA ends, quotes, control bytes,
 * invalid UTF-8, characters beyond the BMP or 4 KiB of text; addresses
 * with characters XML escapes. Addresses that fail the feeds' check (the
 * settings take anything gsettings writes) are left out. */
static void
test_round_trip_hostile (void)
{
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autoptr (GPtrArray) expected = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autoptr (GDateTime) created = g_date_time_new_utc (2026, 1, 2, 3, 4, 5);
  g_autoptr (GString) big = g_string_new (NULL);
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_again = NULL;
  g_autofree char *expected_big = NULL;
  g_autofree char *cut = NULL;

  g_test_summary ("An export is well-formed XML and reads back as the same list whatever titles and addresses the settings hold");

  for (guint i = 0; i < 1024; i++)
    g_string_append (big, "\xF0\x9F\x98\x80<&>");
  g_assert_cmpuint (big->len, ==, 7 * 1024);

#define FEED(list, url, title, site) g_ptr_array_add (list, lwn_opml_feed_new (url, title, site))
  FEED (feeds, "https://a.example/feed?x=1&y=<2>&z=\"3\"&w='4'", "<b>Bold</b> & \"quoted\" 'too' ]]> <![CDATA[", "https://a.example/?q=]]>&r=<s>");
  FEED (expected, "https://a.example/feed?x=1&y=<2>&z=\"3\"&w='4'", "<b>Bold</b> & \"quoted\" 'too' ]]> <![CDATA[", "https://a.example/?q=]]>&r=<s>");
  FEED (feeds, "https://b.example/feed", "Esc\x1b[31m red\x01\x02\x7f and C1 \xC2\x9B done\t\n", "https://si te.example/");
  FEED (expected, "https://b.example/feed", "Esc[31m red and C1 done", NULL);
  FEED (feeds, "https://c.example/feed", "Bad UTF-8 \xFF\xFE here", NULL);
  FEED (expected, "https://c.example/feed", "Bad UTF-8 \xEF\xBF\xBD\xEF\xBF\xBD here", NULL);
  FEED (feeds, "https://d.example/feed", "\xF0\x9F\x98\x80 \xF0\x90\x8D\x88 beyond the BMP \xEF\xBF\xBF\xEF\xBF\xBE", NULL);
  FEED (expected, "https://d.example/feed", "\xF0\x9F\x98\x80 \xF0\x90\x8D\x88 beyond the BMP", NULL);
  /* No space to cut at: the cut falls between characters, before "…". */
  cut = g_utf8_substring (big->str, 0, LWN_OPML_MAX_TITLE_CHARS - 1);
  expected_big = g_strconcat (cut, "\u2026", NULL);
  FEED (feeds, "http://[2001:db8::1]:8080/e%20f/feed.xml#frag", big->str, NULL);
  FEED (expected, "http://[2001:db8::1]:8080/e%20f/feed.xml#frag", expected_big, NULL);
  FEED (feeds, "https://f.example/feed", "\x1b\x01  \t", NULL);
  FEED (expected, "https://f.example/feed", NULL, NULL);
  /* Settings can hold what no check would take: these are left out. */
  FEED (feeds, "https://exa mple.com/feed", "Space in the host", NULL);
  FEED (feeds, "https://exa\x1bmple.com/feed", "Escape in the host", NULL);
  FEED (feeds, "https://exa%1Bmple.com/feed", "Encoded escape in the host", NULL);
  FEED (feeds, "https://\xFF.example/feed", "Not UTF-8", NULL);
  FEED (feeds, "javascript:alert(1)", "Not http", NULL);
  FEED (feeds, "", "Empty", NULL);
  /* A feed listed twice is written once. */
  FEED (feeds, "https://a.example/feed?x=1&y=<2>&z=\"3\"&w='4'", "Twice", NULL);
#undef FEED

  g_test_expect_message ("lwn-tray", G_LOG_LEVEL_MESSAGE, "*left out of the OPML list*: 6");
  text = lwn_opml_write (feeds, created);
  g_test_assert_expected_messages ();
  g_test_message ("%s", text);
  assert_well_formed (text);

  again = parse_text (text, NULL, &error);
  g_assert_no_error (error);
  assert_same_list (again, expected);

  /* Writing what was read changes nothing, to the byte. */
  text_again = lwn_opml_write (again, created);
  g_assert_cmpstr (text_again, ==, text);
}

/* A list over the fetcher's cap is refused before it is parsed, with a
 * message that names its size and the cap; one at the cap is read. */
static void
test_too_large (void)
{
  static const char head[] = "<opml version=\"2.0\"><head/><body><outline text=\"A\" xmlUrl=\"https://a.example/feed\"/>";
  static const char tail[] = "</body></opml>";
  gsize size = LWN_OPML_MAX_BYTES;
  g_autofree char *data = g_malloc (size + 1);
  g_autoptr (GBytes) at_cap = NULL;
  g_autoptr (GBytes) over_cap = NULL;
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GError) error = NULL;

  g_test_summary ("A list over the fetcher's size cap is refused with a message naming both sizes");

  memset (data, ' ', size + 1);
  memcpy (data, head, strlen (head));
  memcpy (data + size - strlen (tail), tail, strlen (tail));
  at_cap = g_bytes_new_static (data, size);
  feeds = lwn_opml_parse (at_cap, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (feeds->len, ==, 1);
  g_clear_pointer (&feeds, g_ptr_array_unref);

  memset (data + size - strlen (tail), ' ', strlen (tail));
  memcpy (data + size + 1 - strlen (tail), tail, strlen (tail));
  over_cap = g_bytes_new_static (data, size + 1);
  feeds = lwn_opml_parse (over_cap, NULL, &error);
  g_assert_null (feeds);
  g_assert_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "8388609 bytes"));
  g_assert_nonnull (strstr (error->message, "8388608 bytes"));
  g_clear_error (&error);

  g_assert_true (lwn_opml_check_size (LWN_OPML_MAX_BYTES, NULL));
  g_assert_false (lwn_opml_check_size (G_MAXUINT64, &error));
  g_assert_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_TOO_LARGE);
}

static GSettings *
memory_settings (void)
{
  g_autoptr (GSettingsBackend) backend = g_memory_settings_backend_new ();
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

  g_assert_nonnull (schema);
  return g_settings_new_full (schema, backend, NULL);
}

static guint
n_followed (GSettings *settings)
{
  g_autoptr (GVariant) value = g_settings_get_value (settings, "feeds");

  return (guint) g_variant_n_children (value);
}

/* One import adds at most 500 feeds and says so; importing the same list
 * again adds the next ones, and the last part says nothing of the limit. */
static void
test_import_limit (void)
{
  g_autoptr (GSettings) settings = memory_settings ();
  g_autoptr (GString) text = g_string_new ("<opml version=\"2.0\"><head/><body>");
  g_autoptr (GPtrArray) listed = NULL;
  g_autoptr (GError) error = NULL;
  LwnOpmlImport import = { 0 };
  guint skipped = 0;
  const guint n_listed = 1234;

  g_test_summary ("One import adds at most 500 feeds and says so; importing again adds the rest");

  for (guint i = 0; i < n_listed; i++)
    g_string_append_printf (text, "<outline text=\"Feed %u\" xmlUrl=\"https://feeds.example/%u.xml\"/>", i, i);
  g_string_append (text, "<outline text=\"Local\" xmlUrl=\"file:///tmp/feed.xml\"/></body></opml>");
  listed = parse_text (text->str, &skipped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, n_listed);
  g_assert_cmpuint (skipped, ==, 1);

  import.skipped = skipped;
  g_assert_true (lwn_reader_settings_import_feeds (settings, listed, &import));
  g_assert_cmpuint (import.added, ==, LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.already, ==, 0);
  g_assert_cmpuint (import.over_limit, ==, n_listed - LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.skipped, ==, 1);
  /* LWN's headlines, followed when the list is empty, stay. */
  g_assert_cmpuint (n_followed (settings), ==, 1 + LWN_OPML_MAX_IMPORT);
  {
    g_autofree char *said = lwn_opml_describe_import (&import);

    g_test_message ("%s", said);
    g_assert_cmpstr (said, ==, "Added 500 feeds; 1 left out: not a usable http or https address; "
                               "the list names 1234 feeds, and one import adds at most 500: import it again to add the rest");
  }

  g_assert_true (lwn_reader_settings_import_feeds (settings, listed, &import));
  g_assert_cmpuint (import.added, ==, LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.already, ==, LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.over_limit, ==, n_listed - 2 * LWN_OPML_MAX_IMPORT);

  g_assert_true (lwn_reader_settings_import_feeds (settings, listed, &import));
  g_assert_cmpuint (import.added, ==, n_listed - 2 * LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.already, ==, 2 * LWN_OPML_MAX_IMPORT);
  g_assert_cmpuint (import.over_limit, ==, 0);
  g_assert_cmpuint (n_followed (settings), ==, 1 + n_listed);
  {
    g_autofree char *said = lwn_opml_describe_import (&import);

    g_assert_cmpstr (said, ==, "Added 234 feeds; 1000 were followed already; 1 left out: not a usable http or https address");
  }
}

typedef struct
{
  GMainLoop *loop;
  GAsyncResult *result;
} AsyncWait;

static void
parsed_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  AsyncWait *wait = user_data;

  g_assert_null (source);
  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

/* Runs lwn_opml_parse_async() to its end; @cancel is cancelled before it
 * starts (1) or just after (2), or not at all (0). */
static GPtrArray *
parse_async (GBytes *bytes,
             int cancel,
             guint *n_skipped,
             GError **error)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  AsyncWait wait = { loop, NULL };
  GPtrArray *feeds;

  if (cancel == 1)
    g_cancellable_cancel (cancellable);
  lwn_opml_parse_async (bytes, cancellable, parsed_cb, &wait);
  if (cancel == 2)
    g_cancellable_cancel (cancellable);
  g_main_loop_run (loop);
  feeds = lwn_opml_parse_finish (wait.result, n_skipped, error);
  g_object_unref (wait.result);
  return feeds;
}

/* The parse in a worker gives what the parse in place gives, errors
 * included, and a cancelled one ends in G_IO_ERROR_CANCELLED. */
static void
test_async (void)
{
  static const char *const files[] = { "liferea.opml", "newsboat.opml", "rssguard.opml", "bad-only-local.opml", "bad-truncated.opml" };

  g_test_summary ("The parse in a worker gives what the parse in place gives, and honours cancellation");

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "opml", files[f], NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) sync_error = NULL;
      g_autoptr (GError) async_error = NULL;
      g_autoptr (GPtrArray) sync_feeds = NULL;
      g_autoptr (GPtrArray) async_feeds = NULL;
      guint sync_skipped = 77;
      guint async_skipped = 99;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
      sync_feeds = lwn_opml_parse (bytes, &sync_skipped, &sync_error);
      async_feeds = parse_async (bytes, 0, &async_skipped, &async_error);
      if (sync_feeds == NULL)
        {
          g_assert_null (async_feeds);
          g_assert_error (async_error, sync_error->domain, sync_error->code);
          g_assert_cmpstr (async_error->message, ==, sync_error->message);
          continue;
        }
      g_assert_no_error (async_error);
      g_assert_cmpuint (async_skipped, ==, sync_skipped);
      assert_same_list (async_feeds, sync_feeds);
    }

  for (int cancel = 1; cancel <= 2; cancel++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "opml", "liferea.opml", NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) feeds = NULL;
      guint skipped = 99;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
      feeds = parse_async (bytes, cancel, &skipped, &error);
      g_assert_null (feeds);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (skipped, ==, 99);
    }
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/opml/liferea", test_liferea);
  g_test_add_func ("/opml/newsboat", test_newsboat);
  g_test_add_func ("/opml/rssguard", test_rssguard);
  g_test_add_func ("/opml/empty", test_empty);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/opml/bad/%s", bad_cases[i].file);

      g_test_add_data_func (path, &bad_cases[i], test_bad);
    }
  g_test_add_func ("/opml/round-trip", test_round_trip);
  g_test_add_func ("/opml/samples-round-trip", test_samples_round_trip);
  g_test_add_func ("/opml/deep-nesting", test_deep_nesting);
  g_test_add_func ("/opml/address-check", test_address_check);
  g_test_add_func ("/opml/titles", test_titles);
  g_test_add_func ("/opml/round-trip/hostile", test_round_trip_hostile);
  g_test_add_func ("/opml/too-large", test_too_large);
  g_test_add_func ("/opml/import-limit", test_import_limit);
  g_test_add_func ("/opml/async", test_async);

  return g_test_run ();
}
