/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnReader, the reading model, against a local HTTP server: new items across restarts,
 * read marks, moved feeds, 304/410/429, save failures, manual refreshes and the status line. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lwn-reader-private.h"
#include "lwn-test-server.h"

#define FEED_PATH "/feed"
#define WAIT_SECONDS 10

typedef struct
{
  LwnTestServer *server;
  char *url;
  char *state_dir;
  char *cache_dir;
  LwnStore *store;
  LwnReader *reader;
  GPtrArray *announced; /* GPtrArray* of item ids, one per "announce" */
  GArray *max_single;
  GPtrArray *alerts;
  guint n_changed;
  guint want_requests; /* for has_wanted_requests() */
} Fixture;

/* The guid of item @number: its article URL, padded with a query to
 * @length bytes when that is longer. */
static char *
item_id (guint number,
         gsize length)
{
  GString *id = g_string_new (NULL);

  g_string_printf (id, "https://lwn.net/Articles/%u/", number);
  if (length > id->len)
    {
      g_string_append_c (id, '?');
      while (id->len < length)
        g_string_append_c (id, (char) ('a' + id->len % 26));
    }
  return g_string_free (id, FALSE);
}

/* An RSS 2.0 feed whose items have the given numbers, newest first, and
 * guids of @id_length bytes (0: as short as they come). */
static char *
make_feed_full (const guint *numbers,
                guint n,
                gsize id_length)
{
  GString *feed = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>"
                                "<title>Test feed</title><link>https://example.com/</link>"
                                "<description>Tests</description>\n");

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = item_id (numbers[i], id_length);

      g_string_append_printf (feed, "<item><title>Headline %u</title>"
                                    "<link>https://lwn.net/Articles/%u/rss</link>"
                                    "<guid>%s</guid>"
                                    "<description>&lt;p&gt;Summary of %u&lt;/p&gt;</description></item>\n",
                              numbers[i], numbers[i], id, numbers[i]);
    }
  g_string_append (feed, "</channel></rss>\n");
  return g_string_free (feed, FALSE);
}

static char *
make_feed (const guint *numbers,
           guint n)
{
  return make_feed_full (numbers, n, 0);
}

static void
serve_full (Fixture *fixture,
            const guint *numbers,
            guint n,
            gsize id_length,
            const char *etag)
{
  g_autofree char *body = make_feed_full (numbers, n, id_length);
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = body, .etag = etag };

  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
}

static void
serve (Fixture *fixture,
       const guint *numbers,
       guint n,
       const char *etag)
{
  serve_full (fixture, numbers, n, 0, etag);
}

static void
serve_status (Fixture *fixture,
              const char *path,
              guint status,
              const char *const *headers)
{
  LwnTestRoute route = { .status = status, .content_type = "text/plain", .body = "no", .headers = headers };

  lwn_test_server_add_route (fixture->server, path, &route);
}

static void
announce_cb (LwnReader *reader,
             GPtrArray *items,
             guint max_single,
             Fixture *fixture)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (ids, g_strdup (lwn_feed_item_get_id (g_ptr_array_index (items, i))));
  g_ptr_array_add (fixture->announced, ids);
  g_array_append_val (fixture->max_single, max_single);
}

static void
alert_cb (LwnReader *reader,
          const char *summary,
          const char *body,
          Fixture *fixture)
{
  g_ptr_array_add (fixture->alerts, g_strdup (body));
}

static void
changed_cb (LwnReader *reader,
            Fixture *fixture)
{
  fixture->n_changed++;
}

static void
open_reader (Fixture *fixture)
{
  g_autoptr (GError) error = NULL;

  g_clear_object (&fixture->reader);
  g_clear_object (&fixture->store);
  fixture->store = lwn_store_new (fixture->state_dir, fixture->cache_dir);
  lwn_store_load (fixture->store, &error);
  g_assert_no_error (error);
  fixture->reader = lwn_reader_new (fixture->store, fixture->url);
  g_signal_connect (fixture->reader, "announce", G_CALLBACK (announce_cb), fixture);
  g_signal_connect (fixture->reader, "alert", G_CALLBACK (alert_cb), fixture);
  g_signal_connect (fixture->reader, "changed", G_CALLBACK (changed_cb), fixture);
}

static void
fixture_set_up (Fixture *fixture,
                gconstpointer data)
{
  g_autofree char *root = g_dir_make_tmp ("lwn-reader-XXXXXX", NULL);

  fixture->server = lwn_test_server_new ();
  fixture->url = lwn_test_server_dup_url (fixture->server, FEED_PATH);
  fixture->state_dir = g_build_filename (root, "state", NULL);
  fixture->cache_dir = g_build_filename (root, "cache", NULL);
  fixture->announced = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  fixture->max_single = g_array_new (FALSE, FALSE, sizeof (guint));
  fixture->alerts = g_ptr_array_new_with_free_func (g_free);
  open_reader (fixture);
}

static void
fixture_tear_down (Fixture *fixture,
                   gconstpointer data)
{
  if (fixture->reader != NULL)
    lwn_reader_shutdown (fixture->reader);
  g_clear_object (&fixture->reader);
  g_clear_object (&fixture->store);
  g_clear_pointer (&fixture->server, lwn_test_server_free);
  g_free (fixture->url);
  g_free (fixture->state_dir);
  g_free (fixture->cache_dir);
  g_ptr_array_unref (fixture->announced);
  g_array_unref (fixture->max_single);
  g_ptr_array_unref (fixture->alerts);
}

typedef gboolean (*Predicate) (Fixture *fixture);

static void
wait_until (Fixture *fixture,
            Predicate predicate,
            const char *what)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (!predicate (fixture))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %s", what);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* Lets every pending idle, worker and save finish. */
static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 300 * 1000;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
is_ready (Fixture *fixture)
{
  return lwn_reader_get_state (fixture->reader) == LWN_READER_STATE_READY && !lwn_reader_get_refreshing (fixture->reader);
}

static gboolean
is_failed (Fixture *fixture)
{
  return lwn_reader_get_error (fixture->reader) != NULL && !lwn_reader_get_refreshing (fixture->reader);
}

static gboolean
has_announced (Fixture *fixture)
{
  return fixture->announced->len > 0;
}

static gboolean
has_alert (Fixture *fixture)
{
  return fixture->alerts->len > 0;
}

static gboolean
not_refreshing (Fixture *fixture)
{
  return !lwn_reader_get_refreshing (fixture->reader);
}

static void
start_and_load (Fixture *fixture)
{
  lwn_reader_start (fixture->reader);
  wait_until (fixture, is_ready, "the first feed");
}

static GPtrArray *
announced (Fixture *fixture,
           guint index)
{
  g_assert_cmpuint (index, <, fixture->announced->len);
  return g_ptr_array_index (fixture->announced, index);
}

static LwnHeadline *
headline_at (Fixture *fixture,
             guint index)
{
  GListModel *headlines = lwn_reader_get_headlines (fixture->reader);
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, index);

  /* The model keeps its own reference. */
  return headline;
}

static void
test_first_run (Fixture *fixture,
                gconstpointer data)
{
  const guint numbers[] = { 3, 2, 1 };
  GListModel *headlines;

  g_test_summary ("The first feed shows every item in order, unread, and is announced as one group, after it was saved");

  serve (fixture, numbers, 3, NULL);
  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_LOADING);
  start_and_load (fixture);

  headlines = lwn_reader_get_headlines (fixture->reader);
  g_assert_cmpuint (g_list_model_get_n_items (headlines), ==, 3);
  g_assert_cmpstr (lwn_headline_get_title (headline_at (fixture, 0)), ==, "Headline 3");
  g_assert_cmpstr (lwn_headline_get_title (headline_at (fixture, 2)), ==, "Headline 1");
  g_assert_true (lwn_headline_get_unread (headline_at (fixture, 1)));
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 3);
  g_assert_cmpstr (lwn_feed_item_get_summary (lwn_headline_get_item (headline_at (fixture, 0))), ==, "Summary of 3");

  wait_until (fixture, has_announced, "the announcement");
  g_assert_cmpuint (fixture->announced->len, ==, 1);
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 3);
  g_assert_cmpuint (g_array_index (fixture->max_single, guint, 0), ==, 1);
  /* Announced only once it is on disk. */
  g_assert_true (g_file_test (lwn_store_get_state_path (fixture->store), G_FILE_TEST_EXISTS));
}

static void
test_new_items_across_restarts (Fixture *fixture,
                                gconstpointer data)
{
  const guint first[] = { 2, 1 };
  const guint second[] = { 4, 3, 2, 1 };

  g_test_summary ("After a restart only the items never seen before are announced, one by one");

  serve (fixture, first, 2, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first announcement");
  lwn_reader_shutdown (fixture->reader);

  g_ptr_array_set_size (fixture->announced, 0);
  g_array_set_size (fixture->max_single, 0);
  serve (fixture, second, 4, NULL);
  open_reader (fixture);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the second announcement");

  g_assert_cmpuint (fixture->announced->len, ==, 1);
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 0), 0), ==, "https://lwn.net/Articles/4/");
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 0), 1), ==, "https://lwn.net/Articles/3/");
  g_assert_cmpuint (g_array_index (fixture->max_single, guint, 0), ==, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  /* And nothing twice: a third start with the same feed announces nothing. */
  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  open_reader (fixture);
  start_and_load (fixture);
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);
}

static void
test_read_marks (Fixture *fixture,
                 gconstpointer data)
{
  const guint numbers[] = { 2, 1 };
  g_autofree char *url = NULL;
  g_autofree char *unknown = NULL;

  g_test_summary ("Opening an item by id gives its full-article URL, marks it read and keeps that across restarts");

  serve (fixture, numbers, 2, NULL);
  start_and_load (fixture);

  url = lwn_reader_open (fixture->reader, "https://lwn.net/Articles/1/");
  g_assert_cmpstr (url, ==, "https://lwn.net/Articles/1/");
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1)));
  g_assert_true (lwn_headline_get_unread (headline_at (fixture, 0)));
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 1);

  unknown = lwn_reader_open (fixture->reader, "https://lwn.net/Articles/999/");
  g_assert_null (unknown);

  settle ();
  open_reader (fixture);
  start_and_load (fixture);
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 1)));
  g_assert_true (lwn_headline_get_unread (headline_at (fixture, 0)));

  lwn_reader_mark_all_read (fixture->reader);
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 0);
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 0)));
}

static gboolean
cache_shown (Fixture *fixture)
{
  return lwn_reader_get_state (fixture->reader) == LWN_READER_STATE_READY;
}

static void
test_moved (Fixture *fixture,
            gconstpointer data)
{
  const guint numbers[] = { 1 };
  g_autofree char *new_url = lwn_test_server_dup_url (fixture->server, "/new");
  g_autofree char *body = make_feed (numbers, 1);
  LwnTestRoute moved = { .status = 301, .location = "/new" };
  LwnTestRoute feed = { .content_type = "application/rss+xml", .body = body, .etag = "\"v1\"" };
  g_autofree char *if_none_match = NULL;

  g_test_summary ("After a 301 the validators and the cached feed belong to the new address: the next poll is "
                  "conditional and the next start shows the cache at once");

  lwn_test_server_add_route (fixture->server, FEED_PATH, &moved);
  lwn_test_server_add_route (fixture->server, "/new", &feed);
  start_and_load (fixture);
  g_assert_cmpstr (lwn_store_get_moved_url (fixture->store, fixture->url), ==, new_url);
  settle ();

  /* The next poll goes straight to the new address, with its validator. */
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the second poll");
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, "/new"), ==, 2);
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 1);
  if_none_match = lwn_test_server_dup_request_header (fixture->server, "/new", "If-None-Match");
  g_assert_cmpstr (if_none_match, ==, "\"v1\"");
  settle ();

  /* A restart with the server gone shows the cached copy. */
  lwn_reader_shutdown (fixture->reader);
  g_clear_pointer (&fixture->server, lwn_test_server_free);
  open_reader (fixture);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, cache_shown, "the cached feed");
  g_assert_cmpstr (lwn_headline_get_title (headline_at (fixture, 0)), ==, "Headline 1");
}

static void
test_not_modified (Fixture *fixture,
                   gconstpointer data)
{
  const guint numbers[] = { 1 };

  g_test_summary ("A 304 keeps what is shown and reports the time of the check");

  serve (fixture, numbers, 1, "\"same\"");
  start_and_load (fixture);
  settle ();

  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the conditional poll");
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 2);
  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (fixture->reader)), ==, 1);
  g_assert_true (g_str_has_prefix (lwn_reader_get_status (fixture->reader), "Updated "));
  g_assert_null (lwn_reader_get_error (fixture->reader));
}

static gboolean
has_two_feed_requests (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) == 2 && !lwn_reader_get_refreshing (fixture->reader);
}

static void
test_restart_conditional (Fixture *fixture,
                          gconstpointer data)
{
  const guint numbers[] = { 1 };
  g_autofree char *if_none_match = NULL;

  g_test_summary ("A restart shows the saved copy first, so that its first request is conditional");

  serve (fixture, numbers, 1, "\"same\"");
  start_and_load (fixture);
  settle ();
  lwn_reader_shutdown (fixture->reader);

  open_reader (fixture);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, has_two_feed_requests, "the request after the restart");
  if_none_match = lwn_test_server_dup_request_header (fixture->server, FEED_PATH, "If-None-Match");
  g_assert_cmpstr (if_none_match, ==, "\"same\"");
  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_READY);
}

static void
test_gone (Fixture *fixture,
           gconstpointer data)
{
  g_test_summary ("A 410 without anything to show fails the reader and says that updates stopped");

  serve_status (fixture, FEED_PATH, 410, NULL);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, is_failed, "the failure");

  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_FAILED);
  g_assert_cmpstr (lwn_reader_get_status (fixture->reader), ==, "The feed is gone (HTTP 410); updates stopped");
}

static void
test_too_many_requests (Fixture *fixture,
                        gconstpointer data)
{
  const guint numbers[] = { 1 };
  const char *const headers[] = { "Retry-After: 120", NULL };

  g_test_summary ("A 429 after a good feed keeps the headlines, and the status says why the update failed");

  serve (fixture, numbers, 1, NULL);
  start_and_load (fixture);
  settle ();

  serve_status (fixture, FEED_PATH, 429, headers);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, is_failed, "the failure");

  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_READY);
  g_assert_true (g_str_has_prefix (lwn_reader_get_status (fixture->reader), "Last update failed: "));
  g_assert_nonnull (strstr (lwn_reader_get_status (fixture->reader), "429"));
}

static gboolean
has_two_requests (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) == 2 && !lwn_reader_get_refreshing (fixture->reader);
}

static void
test_manual_refresh (Fixture *fixture,
                     gconstpointer data)
{
  const guint numbers[] = { 1 };
  g_autofree char *if_none_match = NULL;
  gint64 loaded;

  g_test_summary ("Refresh right after a check is not dropped: it shows as running, asks the server once the "
                  "gap is over, and says when nothing changed");

  serve (fixture, numbers, 1, "\"same\"");
  start_and_load (fixture);
  loaded = g_get_monotonic_time ();
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 1);

  lwn_reader_refresh (fixture->reader);
  lwn_reader_refresh (fixture->reader);
  g_assert_true (lwn_reader_get_refreshing (fixture->reader));
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 1);

  wait_until (fixture, has_two_requests, "the deferred request");
  g_assert_cmpint (g_get_monotonic_time () - loaded, >=, (LWN_READER_MANUAL_REFRESH_GAP_SECONDS - 1) * G_USEC_PER_SEC);
  if_none_match = lwn_test_server_dup_request_header (fixture->server, FEED_PATH, "If-None-Match");
  g_assert_cmpstr (if_none_match, ==, "\"same\"");
  g_assert_true (g_str_has_prefix (lwn_reader_get_status (fixture->reader), "Up to date — checked "));
  settle ();
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 2);
}

static void
test_save_failure (Fixture *fixture,
                   gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 2, 1 };
  g_autofree char *moved = g_strconcat (fixture->state_dir, ".away", NULL);

  g_test_summary ("When the state cannot be saved nothing is announced, the status and one alert say why, "
                  "and the pending items are announced once a save works");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first announcement");
  g_ptr_array_set_size (fixture->announced, 0);

  /* A file where the state folder should be: every write fails (even as
   * root, which a read-only folder would not stop). */
  g_assert_cmpint (g_rename (fixture->state_dir, moved), ==, 0);
  g_assert_true (g_file_set_contents (fixture->state_dir, "not a folder", -1, NULL));

  serve (fixture, second, 2, NULL);
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, "Could not save what was read and announced: *");
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_alert, "the alert");
  g_test_assert_expected_messages ();
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);
  g_assert_cmpuint (fixture->alerts->len, ==, 1);
  g_assert_true (g_str_has_prefix (lwn_reader_get_status (fixture->reader), "Notifications paused: "));

  /* Still failing: no second alert. */
  lwn_reader_mark_read (fixture->reader, "https://lwn.net/Articles/1/");
  settle ();
  g_assert_cmpuint (fixture->alerts->len, ==, 1);

  /* The disk is back: the next change saves, and the item is announced. */
  g_assert_cmpint (g_unlink (fixture->state_dir), ==, 0);
  g_assert_cmpint (g_rename (moved, fixture->state_dir), ==, 0);
  lwn_reader_mark_read (fixture->reader, "https://lwn.net/Articles/2/");
  wait_until (fixture, has_announced, "the late announcement");
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 0), 0), ==, "https://lwn.net/Articles/2/");
  g_assert_true (g_str_has_prefix (lwn_reader_get_status (fixture->reader), "Updated "));
}

static void
test_security_lists (Fixture *fixture,
                     gconstpointer data)
{
  const char *feed = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>LWN.net</title>"
                     "<item><title>Security updates for Monday</title><link>https://lwn.net/Articles/10/</link></item>"
                     "<item><title>An article</title><link>https://lwn.net/Articles/11/</link></item>"
                     "</channel></rss>";
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = feed };

  g_test_summary ("With security lists filtered, they are not announced but stay among the headlines");

  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
  lwn_reader_set_notify_security_lists (fixture->reader, FALSE);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the announcement");

  g_assert_cmpuint (announced (fixture, 0)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (announced (fixture, 0), 0), ==, "https://lwn.net/Articles/11/");
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (fixture->reader)), ==, 2);
}

static void
test_no_notify (Fixture *fixture,
                gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 2, 1 };

  g_test_summary ("With notifications off nothing is announced, and turning them on brings no flood");

  lwn_reader_set_notify (fixture->reader, FALSE);
  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);

  lwn_reader_set_notify (fixture->reader, TRUE);
  serve (fixture, second, 2, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_announced, "the announcement");
  g_assert_cmpuint (announced (fixture, 0)->len, ==, 1);
}

static void
test_site (Fixture *fixture,
           gconstpointer data)
{
  const guint numbers[] = { 1 };
  g_autofree char *name = NULL;
  g_autofree char *url = NULL;
  g_autofree char *loaded_name = NULL;
  g_autofree char *loaded_url = NULL;

  g_test_summary ("The site is the feed's server until a feed names one, then the feed's title and link");

  name = lwn_reader_dup_site_name (fixture->reader);
  url = lwn_reader_dup_site_url (fixture->reader);
  g_assert_cmpstr (name, ==, "127.0.0.1");
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));

  serve (fixture, numbers, 1, NULL);
  start_and_load (fixture);
  loaded_name = lwn_reader_dup_site_name (fixture->reader);
  loaded_url = lwn_reader_dup_site_url (fixture->reader);
  g_assert_cmpstr (loaded_name, ==, "Test feed");
  g_assert_cmpstr (loaded_url, ==, "https://example.com/");
}

static void
test_switch_feed (Fixture *fixture,
                  gconstpointer data)
{
  const guint numbers[] = { 1 };
  g_autofree char *other = lwn_test_server_dup_url (fixture->server, "/other");

  g_test_summary ("Switching feeds drops what belongs to the old one and loads the new one");

  serve (fixture, numbers, 1, NULL);
  start_and_load (fixture);
  serve_status (fixture, "/other", 404, NULL);
  lwn_reader_set_feed_url (fixture->reader, other);
  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_LOADING);
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (fixture->reader)), ==, 0);
  wait_until (fixture, is_failed, "the failure");
  g_assert_cmpint (lwn_reader_get_state (fixture->reader), ==, LWN_READER_STATE_FAILED);
}

static gboolean
has_two_announcements (Fixture *fixture)
{
  return fixture->announced->len >= 2;
}

static gboolean
has_wanted_requests (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) >= fixture->want_requests
         && !lwn_reader_get_refreshing (fixture->reader);
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

static gboolean
has_failed_other (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, "/other") > 0 && is_failed (fixture);
}

static void
test_switch_feed_back_off (Fixture *fixture,
                           gconstpointer data)
{
  g_autofree char *other = lwn_test_server_dup_url (fixture->server, "/other");
  LwnScheduler *scheduler = fixture->reader->scheduler;

  g_test_summary ("A feed chosen after another failed is polled at once, and its first failure is retried "
                  "after one interval: nothing of the old feed's back-off is left");

  serve_status (fixture, FEED_PATH, 500, NULL);
  serve_status (fixture, "/other", 500, NULL);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, is_failed, "the first failure");
  for (fixture->want_requests = 2; fixture->want_requests <= 3; fixture->want_requests++)
    {
      lwn_reader_refresh_due (fixture->reader);
      wait_until (fixture, has_wanted_requests, "another failure");
    }
  g_assert_cmpuint (lwn_scheduler_get_consecutive_failures (scheduler), ==, 3);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), >, LWN_DEFAULT_INTERVAL);

  lwn_reader_set_feed_url (fixture->reader, other);
  wait_until (fixture, has_failed_other, "the new feed's failure");
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, "/other"), ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_consecutive_failures (scheduler), ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, LWN_DEFAULT_INTERVAL);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/reader/first-run", test_first_run);
  ADD ("/reader/new-items-across-restarts", test_new_items_across_restarts);
  ADD ("/reader/read-marks", test_read_marks);
  ADD ("/reader/moved", test_moved);
  ADD ("/reader/not-modified", test_not_modified);
  ADD ("/reader/restart-conditional", test_restart_conditional);
  ADD ("/reader/gone", test_gone);
  ADD ("/reader/too-many-requests", test_too_many_requests);
  ADD ("/reader/manual-refresh", test_manual_refresh);
  ADD ("/reader/save-failure", test_save_failure);
  ADD ("/reader/security-lists", test_security_lists);
  ADD ("/reader/no-notify", test_no_notify);
  ADD ("/reader/site", test_site);
  ADD ("/reader/switch-feed", test_switch_feed);
  ADD ("/reader/switch-feed/back-off", test_switch_feed_back_off);
  ADD ("/reader/long-id", test_long_id);
  g_test_add ("/reader/large-feed/short-ids", Fixture, GSIZE_TO_POINTER (0), fixture_set_up, test_large_feed, fixture_tear_down);
  g_test_add ("/reader/large-feed/4k-ids", Fixture, GSIZE_TO_POINTER (4096), fixture_set_up, test_large_feed, fixture_tear_down);
#undef ADD

  return g_test_run ();
}
