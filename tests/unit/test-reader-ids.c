/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of what the reading model remembers at scale, against a local HTTP server: feeds of 1,200 items,
 * with short ids and with ids of 4 KiB, and ids over 4 KiB, across refreshes and restarts (ids over 256 bytes
 * the store keeps as their digests), announced or left for a notification server to show. */

#include "config.h"

#include <string.h>

#include "reader-fixture.h"

static gboolean
has_two_announcements (Fixture *fixture)
{
  return fixture->announced->len >= 2;
}

/* @first, @first - 1, … down to @first - @n + 1: a feed's numbers, newest first. */
static guint *
count_down (guint first,
            guint n)
{
  guint *numbers = g_new (guint, n);

  for (guint i = 0; i < n; i++)
    numbers[i] = first - i;
  return numbers;
}

static void
test_large_feed (Fixture *fixture,
                 gconstpointer data)
{
  gsize id_length = GPOINTER_TO_SIZE (data);
  g_autofree guint *first = count_down (1200, 1200);
  g_autofree guint *second = count_down (1201, 1200);
  g_autofree guint *third = count_down (1202, 1200);
  g_autofree char *id_1201 = item_id (1201, id_length);
  g_autofree char *id_1202 = item_id (1202, id_length);

  g_test_summary ("With a feed of 1,200 items all marked read, one new item comes in as the only unread one "
                  "and the only one announced, also after a restart");

  serve_full (fixture, first, 1200, id_length, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");
  lwn_reader_mark_all_read (fixture->reader);
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 0);

  serve_full (fixture, second, 1200, id_length, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new item's announcement");
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 1);
  g_assert_true (lwn_headline_get_unread (headline_at (fixture, 0)));
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1)));
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1199)));
  g_assert_cmpuint (announced (fixture, 1)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 1), 0), ==, id_1201);

  /* The same again after a restart: what is on disk is as good. */
  lwn_reader_mark_all_read (fixture->reader);
  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  serve_full (fixture, third, 1200, id_length, NULL);
  open_reader (fixture);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the announcement after the restart");
  wait_until (fixture, not_refreshing, "the end of the refresh");
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 1);
  g_assert_true (lwn_headline_get_unread (headline_at (fixture, 0)));
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 0), 0), ==, id_1202);
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 1);
}

static void
test_large_feed_no_server (Fixture *fixture,
                           gconstpointer data)
{
  gsize id_length = GPOINTER_TO_SIZE (data);
  g_autofree guint *feed = count_down (1200, 1200);
  GPtrArray *ids;

  g_test_summary ("A first run of 1,200 items that no notification server showed is announced again at the next "
                  "start, every item in one group, and once shown never again");

  fixture->no_server = TRUE;
  serve_full (fixture, feed, 1200, id_length, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 1200);

  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  g_array_set_size (fixture->max_single, 0);
  fixture->no_server = FALSE;
  open_reader (fixture);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the announcement after the restart");
  wait_until (fixture, not_refreshing, "the end of the refresh");
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 1);
  ids = announced (fixture, 0);
  g_assert_cmpuint (ids->len, ==, 1200);
  g_assert_cmpuint (g_array_index (fixture->max_single, guint, 0), ==, 1);
  for (guint i = 0; i < ids->len; i++)
    {
      g_autofree char *id = item_id (feed[i], id_length);

      g_assert_cmpstr (g_ptr_array_index (ids, i), ==, id);
    }

  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  open_reader (fixture);
  start_and_load (fixture);
  wait_until (fixture, not_refreshing, "the end of the refresh");
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);
}

/* An RSS 2.0 feed of items without guids whose relative links, resolved,
 * are longer than any id the store keeps as it is. */
static char *
make_long_link_feed (const guint *numbers,
                     guint n)
{
  GString *feed = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>"
                                "<title>Test feed</title><link>https://example.com/</link>\n");

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *padding = g_strnfill (4080, 'q');

      g_string_append_printf (feed, "<item><title>Headline %u</title><link>/a/%u?%s</link></item>\n",
                              numbers[i], numbers[i], padding);
    }
  g_string_append (feed, "</channel></rss>\n");
  return g_string_free (feed, FALSE);
}

static void
serve_long_links (Fixture *fixture,
                  const guint *numbers,
                  guint n)
{
  g_autofree char *body = make_long_link_feed (numbers, n);
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = body };

  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
}

static void
test_long_id (Fixture *fixture,
              gconstpointer data)
{
  const guint first[] = { 2, 1 };
  const guint second[] = { 3, 2, 1 };
  g_autofree char *id_1 = NULL;
  g_autofree char *url = NULL;

  g_test_summary ("A headline whose id is too long to keep as it is stays read once opened, across refreshes "
                  "and restarts, and is announced once");

  serve_long_links (fixture, first, 2);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");
  id_1 = g_strdup (lwn_headline_get_id (headline_at (fixture, 1)));
  g_assert_cmpuint (strlen (id_1), >, 4096);

  url = lwn_reader_open (fixture->reader, id_1);
  g_assert_nonnull (url);
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1)));

  /* The same feed again: the mark holds. */
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the second poll");
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 2);
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1)));
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 1);

  /* A new one is announced, once. */
  serve_long_links (fixture, second, 3);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new item's announcement");
  g_assert_cmpuint (announced (fixture, 1)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 1), 0), ==, lwn_headline_get_id (headline_at (fixture, 0)));
  settle ();

  /* A restart knows both. */
  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  open_reader (fixture);
  start_and_load (fixture);
  fixture->want_requests = 4;
  wait_until (fixture, has_wanted_requests, "the poll after the restart");
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);
  g_assert_cmpstr (lwn_headline_get_id (headline_at (fixture, 2)), ==, id_1);
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 2)));
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 2);
}

int
main (int argc,
      char *argv[])
{
  /* Every folder the reader uses is the fixture's own, so the XDG folders
   * need no isolating; isolating them would need ASan's slow unwinder to
   * match GLib's deliberate leak, too slow for feeds of 1,200 items. */
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/reader/large-feed/short-ids", Fixture, GSIZE_TO_POINTER (0), fixture_set_up, test_large_feed, fixture_tear_down);
  g_test_add ("/reader/large-feed/4k-ids", Fixture, GSIZE_TO_POINTER (4096), fixture_set_up, test_large_feed, fixture_tear_down);
  g_test_add ("/reader/long-id", Fixture, NULL, fixture_set_up, test_long_id, fixture_tear_down);
  g_test_add ("/reader/large-feed/no-server/short-ids", Fixture, GSIZE_TO_POINTER (0), fixture_set_up,
              test_large_feed_no_server, fixture_tear_down);
  g_test_add ("/reader/large-feed/no-server/4k-ids", Fixture, GSIZE_TO_POINTER (4096), fixture_set_up,
              test_large_feed_no_server, fixture_tear_down);

  return g_test_run ();
}
