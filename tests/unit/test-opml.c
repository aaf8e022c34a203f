/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for lwn-opml: lists as Liferea, newsboat and RSS Guard write them, bad lists, and round trips. */

#include "config.h"

#include <string.h>

#include "lwn-opml.h"

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

  g_assert_null (feeds);
  g_assert_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_MALFORMED);
}

/* What lwn_opml_write() writes reads back the same, with characters that
 * need escaping, a feed without a title (named by its address) and a
 * thousand feeds; and each reader's sample survives a round trip. */
static void
test_round_trip (void)
{
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autoptr (GDateTime) created = g_date_time_new_utc (2026, 12, 5, 9, 30, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *text = NULL;

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
      g_assert_cmpstr (b->title, ==, a->title != NULL ? a->title : a->url);
      g_assert_cmpstr (b->site_url, ==, a->site_url);
    }
}

static void
test_samples_round_trip (void)
{
  static const char *const files[] = { "liferea.opml", "newsboat.opml", "rssguard.opml" };

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
          g_assert_cmpstr (b->title, ==, a->title != NULL ? a->title : a->url);
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

  return g_test_run ();
}
