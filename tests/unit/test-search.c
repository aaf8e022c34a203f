/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Folding and queries of lwn-search: case and accents aside in any language, every word found. */

#include "config.h"

#include <string.h>

#include <pango/pango.h>

#include "lwn-feed.h"
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

/* An item's searchable text: its title, author and summary (not the
 * description's markup), made on first use, not by preparing the display. */
static void
test_item_search_text (void)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (LwnSearchQuery) by_author = lwn_search_query_new ("corbet");
  g_autoptr (LwnSearchQuery) by_summary = lwn_search_query_new ("ECOLE workqueues");
  g_autoptr (LwnSearchQuery) by_markup = lwn_search_query_new ("href");
  LwnFeedItem *item;
  const char *text;

  g_ptr_array_add (items, lwn_feed_item_new ("1", "Kernel Über-news", "https://lwn.net/Articles/1/", "https://lwn.net/Articles/1/",
                                             "Jonathan Corbet",
                                             "<p>On <a href=\"https://lwn.net/x\">workqueues</a> at the École.</p>", NULL,
                                             FALSE));
  g_ptr_array_add (items, lwn_feed_item_new ("2", "No author", NULL, NULL, NULL, NULL, NULL, FALSE));
  feed = lwn_feed_new ("Feed", NULL, 0, g_steal_pointer (&items));
  lwn_feed_prepare_display (feed, NULL);

  item = lwn_feed_get_item (feed, 0);
  g_assert_false (lwn_feed_item_has_search_text (item));
  text = lwn_feed_item_get_search_text (item);
  g_assert_true (lwn_feed_item_has_search_text (item));
  g_assert_nonnull (strstr (text, "kernel uber-news"));
  g_assert_true (lwn_search_query_matches (by_author, text));
  g_assert_true (lwn_search_query_matches (by_summary, text));
  g_assert_false (lwn_search_query_matches (by_markup, text));
  /* Made once: the same string at every call. */
  g_assert_true (lwn_feed_item_get_search_text (item) == text);

  text = lwn_feed_item_get_search_text (lwn_feed_get_item (feed, 1));
  g_assert_nonnull (strstr (text, "no author"));
  g_assert_false (lwn_search_query_matches (by_author, text));
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
  g_test_add_func ("/search/item-search-text", test_item_search_text);

  return g_test_run ();
}
