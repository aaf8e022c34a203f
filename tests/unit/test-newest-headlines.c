/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines a short list across many feeds shows. */

#include "config.h"

#include "lwn-headline.h"
#include "lwn-newest-headlines.h"

/* A feed of @n headlines, its newest first: headline k is @newest_hour - k
 * hours old on a fixed day, unread when @unread says so (NULL: all). */
static GListModel *
make_feed (const char *feed,
           guint n,
           int newest_hour,
           gboolean (*unread) (guint position))
{
  GListStore *store = g_list_store_new (LWN_TYPE_HEADLINE);

  for (guint k = 0; k < n; k++)
    {
      g_autofree char *id = g_strdup_printf ("%s-%u", feed, k);
      g_autoptr (GDateTime) date = g_date_time_new_utc (2026, 12, 1, 0, 0, 0);
      g_autoptr (GDateTime) when = g_date_time_add_hours (date, newest_hour - (int) k);
      LwnFeedItem *item = lwn_feed_item_new (id, id, "https://example.org/", NULL, NULL, NULL, when, FALSE);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, feed, unread == NULL || unread (k));

      lwn_feed_item_unref (item);
      g_list_store_append (store, headline);
    }
  return G_LIST_MODEL (store);
}

static char *
join_ids (GPtrArray *headlines)
{
  g_autoptr (GString) ids = g_string_new (NULL);

  for (guint i = 0; i < headlines->len; i++)
    g_string_append_printf (ids, "%s%s", i > 0 ? " " : "", lwn_headline_get_id (g_ptr_array_index (headlines, i)));
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static gboolean
all_read (guint position)
{
  return FALSE;
}

static gboolean
old_ones_unread (guint position)
{
  return position >= 5;
}

static gboolean
unread_far_down (guint position)
{
  return position == LWN_NEWEST_HEADLINES_SCAN + 10;
}

static void
free_feeds (GListModel **feeds,
            guint n)
{
  for (guint i = 0; i < n; i++)
    g_object_unref (feeds[i]);
}

static void
test_newest_first (void)
{
  GListModel *feeds[2];
  g_autoptr (GPtrArray) picked = NULL;
  g_autofree char *ids = NULL;

  g_test_summary ("Two feeds, all unread: their headlines interleaved by date, newest first, as many as there is room for");

  feeds[0] = make_feed ("a", 10, 10, NULL);
  feeds[1] = make_feed ("b", 10, 9, NULL);
  picked = lwn_newest_headlines_pick (feeds, 2, 6);
  ids = join_ids (picked);
  /* Hours 10, 9, 9, 8, 8, 7: "a" first among equals. */
  g_assert_cmpstr (ids, ==, "a-0 a-1 b-0 a-2 b-1 a-3");
  free_feeds (feeds, 2);
}

static void
test_unread_before_read (void)
{
  GListModel *feeds[2];
  g_autoptr (GPtrArray) picked = NULL;
  g_autofree char *ids = NULL;

  g_test_summary ("Older unread headlines are picked before newer read ones, read ones fill the rows left, and all "
                  "show newest first");

  feeds[0] = make_feed ("new", 10, 100, all_read);
  feeds[1] = make_feed ("old", 10, 0, old_ones_unread);
  picked = lwn_newest_headlines_pick (feeds, 2, 8);
  ids = join_ids (picked);
  /* Five unread of "old" (a third of 8 is 3, but nothing else is unread), then the
   * newest read: "new" gives three, then the rest come from whichever is newer. */
  g_assert_cmpstr (ids, ==, "new-0 new-1 new-2 old-5 old-6 old-7 old-8 old-9");
  free_feeds (feeds, 2);
}

static void
test_busy_feed_capped (void)
{
  GListModel *feeds[4];
  g_autoptr (GPtrArray) picked = NULL;
  g_autoptr (GHashTable) per_feed = g_hash_table_new (g_str_hash, g_str_equal);

  g_test_summary ("A feed with fifty newer headlines takes a third of the rows, the other feeds' newest the rest");

  feeds[0] = make_feed ("busy", 50, 100, NULL);
  feeds[1] = make_feed ("x", 3, 10, NULL);
  feeds[2] = make_feed ("y", 3, 9, NULL);
  feeds[3] = make_feed ("z", 3, 8, NULL);
  picked = lwn_newest_headlines_pick (feeds, 4, 9);
  g_assert_cmpuint (picked->len, ==, 9);
  for (guint i = 0; i < picked->len; i++)
    {
      const char *feed = lwn_headline_get_feed (g_ptr_array_index (picked, i));

      g_hash_table_insert (per_feed, (gpointer) feed,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_feed, feed)) + 1));
    }
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (per_feed, "busy")), ==, 3);
  /* Then by date: x's three (10, 9, 8 h), y's two (9, 8 h), z's newest (8 h). */
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (per_feed, "x")), ==, 3);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (per_feed, "y")), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (per_feed, "z")), ==, 1);
  free_feeds (feeds, 4);
}

static void
test_alone_fills (void)
{
  GListModel *feeds[3];
  g_autoptr (GPtrArray) picked = NULL;
  g_autofree char *ids = NULL;

  g_test_summary ("The cap gives way when no other feed has headlines: one feed's may fill the list");

  feeds[0] = make_feed ("empty", 0, 0, NULL);
  feeds[1] = make_feed ("only", 20, 5, NULL);
  feeds[2] = make_feed ("none", 0, 0, NULL);
  picked = lwn_newest_headlines_pick (feeds, 3, 5);
  ids = join_ids (picked);
  g_assert_cmpstr (ids, ==, "only-0 only-1 only-2 only-3 only-4");
  free_feeds (feeds, 3);
}

static void
test_bounded_scan (void)
{
  GListModel *feeds[1];
  g_autoptr (GPtrArray) picked = NULL;
  g_autofree char *ids = NULL;

  g_test_summary ("An unread headline further down a feed than the pick looks is the window's, not the menu's: "
                  "the work does not grow with a feed's length");

  feeds[0] = make_feed ("long", 5000, 0, unread_far_down);
  picked = lwn_newest_headlines_pick (feeds, 1, 3);
  ids = join_ids (picked);
  g_assert_cmpstr (ids, ==, "long-0 long-1 long-2");
  free_feeds (feeds, 1);
}

static void
test_many_feeds (void)
{
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) picked = NULL;

  g_test_summary ("200 feeds of 20, no room to spare: as many rows as asked, each once, newest first");

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("feed%u", i);

      g_ptr_array_add (feeds, make_feed (name, 20, (int) (i % 37), NULL));
    }
  picked = lwn_newest_headlines_pick ((GListModel *const *) feeds->pdata, feeds->len, 12);
  g_assert_cmpuint (picked->len, ==, 12);
  for (guint i = 1; i < picked->len; i++)
    {
      GDateTime *before = lwn_feed_item_get_date (lwn_headline_get_item (g_ptr_array_index (picked, i - 1)));
      GDateTime *after = lwn_feed_item_get_date (lwn_headline_get_item (g_ptr_array_index (picked, i)));

      g_assert_cmpint (g_date_time_compare (before, after), >=, 0);
      g_assert_false (g_ptr_array_index (picked, i) == g_ptr_array_index (picked, i - 1));
    }
  g_clear_pointer (&picked, g_ptr_array_unref);
  picked = lwn_newest_headlines_pick (NULL, 0, 5);
  g_assert_cmpuint (picked->len, ==, 0);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/newest-headlines/newest-first", test_newest_first);
  g_test_add_func ("/newest-headlines/unread-before-read", test_unread_before_read);
  g_test_add_func ("/newest-headlines/busy-feed-capped", test_busy_feed_capped);
  g_test_add_func ("/newest-headlines/alone-fills", test_alone_fills);
  g_test_add_func ("/newest-headlines/bounded-scan", test_bounded_scan);
  g_test_add_func ("/newest-headlines/many-feeds", test_many_feeds);
  return g_test_run ();
}
