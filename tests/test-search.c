/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Folding and queries of lwn-search: case and accents aside in any language, every word found. */

#include "config.h"

#include <string.h>

#include <pango/pango.h>

#include "lwn-search.h"

static gboolean
matches (const char *query_text,
         const char *text)
{
  g_autoptr (LwnSearchQuery) query = lwn_search_query_new (query_text);
  g_autofree char *folded = lwn_search_fold (text);

  return lwn_search_query_matches (query, folded);
}

static void
test_fold (void)
{
  static const struct
  {
    const char *text;
    const char *folded;
  } cases[] = {
    { "", "" },
    { "Linux Kernel", "linux kernel" },
    { "Éric Cañón", "eric canon" },
    { "Straße", "strasse" },
    { "STRASSE", "strasse" },
    { "ΣΊΣΥΦΟΣ σίσυφος", "σισυφοσ σισυφοσ" }, /* final sigma too */
    { "İstanbul", "istanbul" },
    { "ﬁle", "file" },      /* compatibility ligature */
    { "Ｗｉｄｅ", "wide" }, /* full-width forms */
    { "Łódź", "łodz" },     /* ł has no decomposition: kept, lower-case */
    { "日本語のカーネル", "日本語のカーネル" },
    { "Ünïcödé\tTabs", "unicode\ttabs" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *folded = lwn_search_fold (cases[i].text);

      g_assert_cmpstr (folded, ==, cases[i].folded);
    }
}

static void
test_matches (void)
{
  const char *title = "[$] Rust for Linux: the Ünïcode of Straße (Jonathan Corbet)";

  g_assert_true (matches ("rust", title));
  g_assert_true (matches ("RUST linux", title));
  g_assert_true (matches ("linux rust", title)); /* any order */
  g_assert_true (matches ("unicode", title));
  g_assert_true (matches ("ÜNICODE", title));
  g_assert_true (matches ("strasse", title));
  g_assert_true (matches ("STRAẞE", title)); /* capital sharp s */
  g_assert_true (matches ("corb", title));   /* any part of a word */
  g_assert_true (matches ("[$]", title));
  g_assert_false (matches ("rust python", title)); /* every word must match */
  g_assert_false (matches ("pythonic", title));
  g_assert_true (matches ("ιστορία", "Η ΙΣΤΟΡΊΑ του πυρήνα"));
  g_assert_true (matches ("カーネル", "日本語のカーネル"));
  g_assert_false (matches ("カーネルX", "日本語のカーネル"));
  g_assert_true (matches ("istanbul", "İstanbul"));
  g_assert_true (matches ("ıstanbul", "ıstanbul")); /* dotless i matches itself */

  /* A query longer than the text. */
  g_assert_false (matches ("a much longer query than the text", "short"));
}

static void
test_empty_query (void)
{
  const char *queries[] = { "", " ", "\t\n ", "\u0301" /* a lone accent folds to nothing */ };

  for (gsize i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr (LwnSearchQuery) query = lwn_search_query_new (queries[i]);

      g_assert_true (lwn_search_query_is_empty (query));
      g_assert_true (lwn_search_query_matches (query, ""));
      g_assert_true (lwn_search_query_matches (query, "anything"));
    }
  {
    g_autoptr (LwnSearchQuery) query = lwn_search_query_new ("x");

    g_assert_false (lwn_search_query_is_empty (query));
  }
}

static void
test_highlight (void)
{
  static const struct
  {
    const char *query;
    const char *text;
    const char *markup;
  } cases[] = {
    { "", "A <b> & c", "A &lt;b&gt; &amp; c" },
    { "rust", "Rust & rusty", "<H>Rust</H> &amp; <H>rust</H>y" },
    { "strasse", "Die Straße", "Die <H>Straße</H>" },
    { "eric", "Éric", "<H>Éric</H>" },
    { "ss", "Straße", "Stra<H>ß</H>e" }, /* part of what one character folds to */
    { "a b", "ab", "<H>ab</H>" },        /* overlapping words */
    { "lt", "<lt>", "&lt;<H>lt</H>&gt;" },
    { "カー", "日本語のカーネル", "日本語の<H>カー</H>ネル" },
    { "none", "Nothing here", "Nothing here" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LwnSearchQuery) query = lwn_search_query_new (cases[i].query);
      g_autofree char *markup = lwn_search_query_highlight (query, cases[i].text);
      g_autoptr (GString) expected = g_string_new (cases[i].markup);

      g_string_replace (expected, "<H>", "<span weight=\"bold\" background=\"#f8e45c\" foreground=\"#000000\">", 0);
      g_string_replace (expected, "</H>", "</span>", 0);
      g_assert_cmpstr (markup, ==, expected->str);
      g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
    }
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/search/fold", test_fold);
  g_test_add_func ("/search/matches", test_matches);
  g_test_add_func ("/search/empty-query", test_empty_query);
  g_test_add_func ("/search/highlight", test_highlight);

  return g_test_run ();
}
