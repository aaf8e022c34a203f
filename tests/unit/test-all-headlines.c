/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnAllHeadlines, the window's "All feeds": every feed's headlines, feed after feed, at the right
 * positions and with the right feed's name, across feeds that have none and feeds that change. */

#include "config.h"

#include <glib/gstdio.h>

#include "lwn-all-headlines.h"
#include "lwn-headline.h"
#include "reader-fixture.h"

#define ALL_WAIT_SECONDS 60

typedef struct
{
  LwnTestServer *server;
  char *root;
  LwnFeedSet *set;
} AllFixture;

static void
all_fixture_set_up (AllFixture *fixture,
                    gconstpointer data)
{
  g_autofree char *state_dir = NULL;
  g_autofree char *cache_dir = NULL;
  g_autofree char *first = NULL;

  fixture->server = lwn_test_server_new ();
  fixture->root = g_dir_make_tmp ("lwn-all-headlines-XXXXXX", NULL);
  state_dir = g_build_filename (fixture->root, "state", NULL);
  cache_dir = g_build_filename (fixture->root, "cache", NULL);
  first = lwn_test_server_dup_url (fixture->server, "/one");
  fixture->set = lwn_feed_set_new (state_dir, cache_dir, first);
  lwn_feed_set_set_spread (fixture->set, 1);
  lwn_feed_set_set_notify (fixture->set, FALSE);
}

static void
all_fixture_tear_down (AllFixture *fixture,
                       gconstpointer data)
{
  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  g_clear_pointer (&fixture->server, lwn_test_server_free);
  g_free (fixture->root);
}

/* Serves items first + n … first + 1 at @path, newest first. */
static void
serve_items (AllFixture *fixture,
             const char *path,
             guint first,
             guint n)
{
  g_autofree guint *numbers = g_new (guint, MAX (n, 1));
  g_autofree char *body = NULL;
  LwnTestRoute route = { .content_type = "application/rss+xml" };

  for (guint i = 0; i < n; i++)
    numbers[i] = first + n - i;
  body = make_feed (numbers, n);
  route.body = body;
  lwn_test_server_add_route (fixture->server, path, &route);
}

static gboolean
has_items (LwnReader *reader,
           guint n)
{
  return lwn_reader_get_state (reader) != LWN_READER_STATE_LOADING && !lwn_reader_get_loading (reader)
         && g_list_model_get_n_items (lwn_reader_get_headlines (reader)) == n;
}

static void
wait_for_items (LwnReader *reader,
                guint n)
{
  gint64 deadline = g_get_monotonic_time () + ALL_WAIT_SECONDS * G_USEC_PER_SEC;

  while (!has_items (reader, n))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %u headlines of %s", n, lwn_reader_get_feed_url (reader));
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The headlines at every position, as "feed name: title", and checks that
 * there is none past the end. */
static char *
describe (LwnAllHeadlines *all)
{
  GString *text = g_string_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (all));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (all), i);
      g_autofree char *name = lwn_all_headlines_dup_feed_name (all, i);

      g_string_append_printf (text, "%s%s: %s", i > 0 ? ", " : "", name, lwn_headline_get_title (headline));
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (all), n));
  g_assert_null (lwn_all_headlines_dup_feed_name (all, n));
  return g_string_free (text, FALSE);
}

static void
items_changed_cb (GListModel *model,
                  guint position,
                  guint removed,
                  guint added,
                  GString *changes)
{
  g_string_append_printf (changes, "%s%u-%u+%u", changes->len > 0 ? " " : "", position, removed, added);
}

/* Three feeds, the middle one empty, then the first one longer and the last
 * one shorter: each headline at its place, named after its feed, and each
 * change told where it happened. */
static void
test_feed_after_feed (AllFixture *fixture,
                      gconstpointer data)
{
  g_autofree char *one = lwn_test_server_dup_url (fixture->server, "/one");
  g_autofree char *none = lwn_test_server_dup_url (fixture->server, "/none");
  g_autofree char *two = lwn_test_server_dup_url (fixture->server, "/two");
  const LwnFeedSpec specs[] = {
    { .url = one, .name = "One", .notify = TRUE },
    { .url = none, .name = "None", .notify = TRUE },
    { .url = two, .name = "Two", .notify = TRUE },
  };
  g_autoptr (LwnAllHeadlines) all = NULL;
  g_autoptr (GString) changes = g_string_new (NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_test_summary ("All feeds lists the first feed's headlines, then the next feed's: a feed without "
                  "headlines takes no place, each position names its own feed, and a feed that changes "
                  "moves the feeds after it and says where");

  serve_items (fixture, "/one", 100, 2);
  serve_items (fixture, "/none", 0, 0);
  serve_items (fixture, "/two", 200, 3);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  lwn_feed_set_start (fixture->set);
  wait_for_items (lwn_feed_set_find_url (fixture->set, one), 2);
  wait_for_items (lwn_feed_set_find_url (fixture->set, none), 0);
  wait_for_items (lwn_feed_set_find_url (fixture->set, two), 3);

  all = lwn_all_headlines_new (fixture->set);
  g_signal_connect (all, "items-changed", G_CALLBACK (items_changed_cb), changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (all)), ==, 5);
  before = describe (all);
  g_assert_cmpstr (before, ==, "One: Headline 102, One: Headline 101, Two: Headline 203, Two: Headline 202, Two: Headline 201");

  /* The first feed gains a headline at its top: the second feed's move down. */
  serve_items (fixture, "/one", 100, 3);
  lwn_feed_set_refresh (fixture->set);
  wait_for_items (lwn_feed_set_find_url (fixture->set, one), 3);
  wait_for_items (lwn_feed_set_find_url (fixture->set, two), 3);
  after = describe (all);
  g_assert_cmpstr (after, ==, "One: Headline 103, One: Headline 102, One: Headline 101, Two: Headline 203, Two: Headline 202, "
                              "Two: Headline 201");
  g_assert_true (g_str_has_prefix (changes->str, "0-0+1"));
  g_clear_pointer (&after, g_free);

  /* The last feed loses its oldest headlines: the list ends sooner. */
  g_string_truncate (changes, 0);
  serve_items (fixture, "/two", 202, 1);
  lwn_feed_set_refresh (fixture->set);
  wait_for_items (lwn_feed_set_find_url (fixture->set, two), 1);
  after = describe (all);
  g_assert_cmpstr (after, ==, "One: Headline 103, One: Headline 102, One: Headline 101, Two: Headline 203");
  g_assert_true (g_str_has_suffix (changes->str, "4-2+0") || g_str_has_suffix (changes->str, "3-3+1"));
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/all-headlines/feed-after-feed", AllFixture, NULL, all_fixture_set_up, test_feed_after_feed,
              all_fixture_tear_down);
  return g_test_run ();
}
