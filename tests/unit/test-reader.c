/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnReader, the reading model, against a local HTTP server: new items across restarts,
 * read marks, moved feeds, 304/410/429, save failures, manual refreshes, the status line,
 * announcements that no notification server showed before a restart, and waiting for a turn to send. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lwn-scheduler-private.h"
#include "reader-fixture.h"

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

static void
test_repeated_id (Fixture *fixture,
                  gconstpointer data)
{
  const guint numbers[] = { 3, 2, 3, 1 };
  g_autofree char *url = NULL;
  GListModel *headlines;

  g_test_summary ("A feed that repeats an id shows that headline once, and opening it leaves nothing of it unread");

  serve (fixture, numbers, G_N_ELEMENTS (numbers), NULL);
  start_and_load (fixture);

  headlines = lwn_reader_get_headlines (fixture->reader);
  g_assert_cmpuint (g_list_model_get_n_items (headlines), ==, 3);
  g_assert_cmpstr (lwn_headline_get_id (headline_at (fixture, 0)), ==, "https://lwn.net/Articles/3/");
  g_assert_cmpstr (lwn_headline_get_id (headline_at (fixture, 1)), ==, "https://lwn.net/Articles/2/");
  g_assert_cmpstr (lwn_headline_get_id (headline_at (fixture, 2)), ==, "https://lwn.net/Articles/1/");
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 3);

  url = lwn_reader_open (fixture->reader, "https://lwn.net/Articles/3/");
  g_assert_cmpstr (url, ==, "https://lwn.net/Articles/3/");
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 2);
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

typedef struct
{
  guint n_signals;
  guint position;
  guint removed;
  guint added;
} ItemsChanged;

static void
items_changed_cb (GListModel *model,
                  guint position,
                  guint removed,
                  guint added,
                  ItemsChanged *changed)
{
  changed->n_signals++;
  changed->position = position;
  changed->removed = removed;
  changed->added = added;
}

static void
serve_body (Fixture *fixture,
            const char *body,
            const char *etag)
{
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = body, .etag = etag };

  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
}

static void
test_refresh_changes_only_what_changed (Fixture *fixture,
                                        gconstpointer data)
{
  const guint before[] = { 3, 2, 1 };
  const guint after[] = { 4, 3, 2, 1 };
  GListModel *headlines;
  g_autoptr (GPtrArray) shown = g_ptr_array_new_with_free_func (g_object_unref);
  GString *text;
  g_autofree char *edited = NULL;
  ItemsChanged changed = { 0 };
  gulong handler;

  g_test_summary ("A refresh keeps the headlines of unchanged items, with their rows, and replaces only "
                  "the items that are new or edited");

  serve (fixture, before, G_N_ELEMENTS (before), "\"1\"");
  start_and_load (fixture);
  headlines = lwn_reader_get_headlines (fixture->reader);
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (shown, g_object_ref (headline_at (fixture, i)));
  /* Read before the refresh: the kept headline keeps the mark. */
  g_free (lwn_reader_open (fixture->reader, "https://lwn.net/Articles/2/"));
  handler = g_signal_connect (headlines, "items-changed", G_CALLBACK (items_changed_cb), &changed);

  /* One new item on top: one headline added, nothing else touched. */
  serve (fixture, after, G_N_ELEMENTS (after), "\"2\"");
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the refresh with a new item");
  g_assert_cmpuint (g_list_model_get_n_items (headlines), ==, 4);
  g_assert_cmpuint (changed.n_signals, ==, 1);
  g_assert_cmpuint (changed.position, ==, 0);
  g_assert_cmpuint (changed.removed, ==, 0);
  g_assert_cmpuint (changed.added, ==, 1);
  for (guint i = 0; i < 3; i++)
    g_assert_true (headline_at (fixture, i + 1) == g_ptr_array_index (shown, i));
  g_assert_false (lwn_headline_get_unread (headline_at (fixture, 2)));
  g_assert_cmpuint (lwn_reader_get_n_unread (fixture->reader), ==, 3);

  /* The same items again, one of them edited: only that one is new. */
  edited = make_feed (after, G_N_ELEMENTS (after));
  text = g_string_new (edited);
  g_clear_pointer (&edited, g_free);
  g_assert_cmpuint (g_string_replace (text, "Summary of 3", "Corrected summary of 3", 1), ==, 1);
  edited = g_string_free (text, FALSE);
  serve_body (fixture, edited, "\"3\"");
  changed = (ItemsChanged){ 0 };
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the refresh with an edited item");
  g_assert_cmpuint (changed.n_signals, ==, 1);
  g_assert_cmpuint (changed.position, ==, 1);
  g_assert_cmpuint (changed.removed, ==, 1);
  g_assert_cmpuint (changed.added, ==, 1);
  g_assert_true (headline_at (fixture, 1) != g_ptr_array_index (shown, 0));
  g_assert_cmpstr (lwn_feed_item_get_summary (lwn_headline_get_item (headline_at (fixture, 1))), ==,
                   "Corrected summary of 3");
  g_assert_true (headline_at (fixture, 2) == g_ptr_array_index (shown, 1));
  g_assert_true (headline_at (fixture, 3) == g_ptr_array_index (shown, 2));

  /* Nothing changed at all: no signal. */
  serve_body (fixture, edited, "\"4\"");
  changed = (ItemsChanged){ 0 };
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the refresh with the same items");
  g_assert_cmpuint (changed.n_signals, ==, 0);
  g_signal_handler_disconnect (headlines, handler);
}

static void
count_notify_cb (GObject *object,
                 GParamSpec *pspec,
                 guint *n_notified)
{
  (*n_notified)++;
}

static gboolean
refresh_shows (Fixture *fixture)
{
  return lwn_reader_get_refreshing (fixture->reader);
}

static void
serve_slowly (Fixture *fixture,
              const guint *numbers,
              guint n,
              const char *etag,
              guint delay_ms)
{
  g_autofree char *body = make_feed (numbers, n);
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = body, .etag = etag, .delay_ms = delay_ms };

  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
}

static void
test_refresh_shown (Fixture *fixture,
                    gconstpointer data)
{
  const guint numbers[] = { 1 };
  guint n_notified = 0;
  gulong handler;

  g_test_summary ("A poll the timer starts shows as refreshing only once it has taken a second; one the person "
                  "asks for shows at once, and so does a poll under way that the person then asks for");

  serve (fixture, numbers, 1, "\"same\"");
  start_and_load (fixture);
  settle ();
  handler = g_signal_connect (fixture->reader, "notify::refreshing", G_CALLBACK (count_notify_cb), &n_notified);

  /* A quick poll: loading, never shown. */
  lwn_reader_refresh_due (fixture->reader);
  g_assert_true (lwn_reader_get_loading (fixture->reader));
  g_assert_false (lwn_reader_get_refreshing (fixture->reader));
  wait_until (fixture, not_refreshing, "the quick poll");
  g_assert_cmpuint (n_notified, ==, 0);

  /* A slow poll: shown after a second, until it ends. */
  serve_slowly (fixture, numbers, 1, "\"same\"", 2500);
  lwn_reader_refresh_due (fixture->reader);
  g_assert_false (lwn_reader_get_refreshing (fixture->reader));
  wait_until (fixture, refresh_shows, "the slow poll to show");
  wait_until (fixture, not_refreshing, "the slow poll");
  g_assert_false (lwn_reader_get_refreshing (fixture->reader));
  g_assert_cmpuint (n_notified, ==, 2);

  /* A click during a poll not shown yet shows it at once. */
  lwn_reader_refresh_due (fixture->reader);
  g_assert_false (lwn_reader_get_refreshing (fixture->reader));
  lwn_reader_refresh (fixture->reader);
  g_assert_true (lwn_reader_get_refreshing (fixture->reader));
  wait_until (fixture, not_refreshing, "the poll asked for");
  g_signal_handler_disconnect (fixture->reader, handler);
}

static gboolean
has_two_feed_requests (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) == 2 && !lwn_reader_get_loading (fixture->reader);
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
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) == 2 && !lwn_reader_get_loading (fixture->reader);
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
  wait_until (fixture, is_saved, "the first load's saves to end");

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

static gboolean
has_two_announcements (Fixture *fixture)
{
  return fixture->announced->len >= 2;
}

static gboolean
has_three_announcements (Fixture *fixture)
{
  return fixture->announced->len >= 3;
}

/* Shuts the reader down, as quitting does, and starts a new one on the same
 * state and cache, with nothing announced yet. */
static void
restart (Fixture *fixture)
{
  lwn_reader_shutdown (fixture->reader);
  g_ptr_array_set_size (fixture->announced, 0);
  g_array_set_size (fixture->max_single, 0);
  open_reader (fixture);
}

/* Starts the reader, waits for the feed and the refresh that follows the
 * saved copy, and returns how many announcements were made. */
static guint
start_and_settle (Fixture *fixture)
{
  start_and_load (fixture);
  wait_until (fixture, not_refreshing, "the end of the refresh");
  settle_saves (fixture);
  return fixture->announced->len;
}

static void
assert_announced (Fixture *fixture,
                  guint index,
                  const guint *numbers,
                  guint n,
                  guint max_single)
{
  GPtrArray *ids = announced (fixture, index);

  g_assert_cmpuint (ids->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = item_id (numbers[i], 0);

      g_assert_cmpstr (g_ptr_array_index (ids, i), ==, id);
    }
  g_assert_cmpuint (g_array_index (fixture->max_single, guint, index), ==, max_single);
}

static void
test_no_server_first_run (Fixture *fixture,
                          gconstpointer data)
{
  const guint first[] = { 3, 2, 1 };
  const guint second[] = { 5, 4, 3, 2, 1 };

  g_test_summary ("A first run's announcement, and those after it, that no notification server showed are made "
                  "again at the next start, as one group like a first run's, and once shown never again");

  fixture->no_server = TRUE;
  serve (fixture, first, 3, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");
  assert_announced (fixture, 0, first, 3, 1);
  serve (fixture, second, 5, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the second announcement");
  assert_announced (fixture, 1, second, 2, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  /* A server is there at the next start: the whole feed, as one. */
  restart (fixture);
  fixture->no_server = FALSE;
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, second, 5, 1);

  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
}

static void
test_shown_not_again (Fixture *fixture,
                      gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 4, 3, 2, 1 };
  const guint left[] = { 3 };
  g_autofree char *id_4 = item_id (4, 0);
  g_autofree char *id_2 = item_id (2, 0);
  const char *shown[] = { id_4, id_2, NULL };

  g_test_summary ("Of new headlines announced at once, those a server showed are not announced again after a "
                  "restart, and the one it did not show is, on its own");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");

  fixture->no_server = TRUE;
  serve (fixture, second, 4, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new headlines' announcement");
  assert_announced (fixture, 1, second, 3, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
  lwn_reader_mark_shown (fixture->reader, shown);

  restart (fixture);
  fixture->no_server = FALSE;
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, left, 1, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
}

static void
test_read_before_shown (Fixture *fixture,
                        gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 5, 4, 3, 2, 1 };
  const guint third[] = { 7, 6, 5, 4, 3, 2, 1 };
  const guint unread[] = { 5, 3 };
  g_autofree char *id_4 = item_id (4, 0);
  g_autofree char *id_2 = item_id (2, 0);

  g_test_summary ("A headline read before any server showed its announcement is not announced after a restart, "
                  "whether it was read on its own or with Mark all as read");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");

  fixture->no_server = TRUE;
  serve (fixture, second, 5, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new headlines' announcement");
  assert_announced (fixture, 1, second, 4, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
  lwn_reader_mark_read (fixture->reader, id_4);
  lwn_reader_mark_read (fixture->reader, id_2);

  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, unread, 2, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  /* Not shown again, and all read. */
  serve (fixture, third, 7, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the newest headlines' announcement");
  assert_announced (fixture, 1, third, 2, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
  lwn_reader_mark_all_read (fixture->reader);

  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
}

static void
test_pending_gone (Fixture *fixture,
                   gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 3, 2, 1 };
  const guint third[] = { 4, 3 };
  const guint left[] = { 4, 3 };

  g_test_summary ("An announcement no server showed is not made again once its headline has left the feed");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");

  fixture->no_server = TRUE;
  serve (fixture, second, 3, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new headlines' announcement");
  serve (fixture, third, 2, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_three_announcements, "the newest headline's announcement");

  restart (fixture);
  fixture->no_server = FALSE;
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, left, 2, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
}

static void
test_pending_settings (Fixture *fixture,
                       gconstpointer data)
{
  const char *feed = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>LWN.net</title>"
                     "<item><title>Security updates for Monday</title><link>https://lwn.net/Articles/10/</link></item>"
                     "<item><title>An article</title><link>https://lwn.net/Articles/11/</link></item>"
                     "<item><title>Headline 1</title><link>https://lwn.net/Articles/1/</link></item>"
                     "</channel></rss>";
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = feed };
  const guint first[] = { 1 };
  const guint fourth[] = { 12, 11, 10, 1 };
  const guint article[] = { 11 };

  g_test_summary ("An announcement no server showed is made again at the next start only as the settings want "
                  "it then: a security list not with those lists turned off, nothing with notifications off, "
                  "and what was left out then never again");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");

  fixture->no_server = TRUE;
  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new headlines' announcement");
  g_assert_cmpuint (announced (fixture, 1)->len, ==, 2);

  restart (fixture);
  lwn_reader_set_notify_security_lists (fixture->reader, FALSE);
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, article, 1, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  /* The security list was left out: turning the lists on again does not bring it back. */
  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 1);
  assert_announced (fixture, 0, article, 1, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
  lwn_reader_mark_shown (fixture->reader, (const char *const[]){ "https://lwn.net/Articles/11/", NULL });

  /* A new one that no server shows, then a start with notifications off, then one with them on. */
  serve (fixture, fourth, 4, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the newest headline's announcement");
  restart (fixture);
  lwn_reader_set_notify (fixture->reader, FALSE);
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
  restart (fixture);
  fixture->no_server = FALSE;
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
}

static void
test_pending_save_failure (Fixture *fixture,
                           gconstpointer data)
{
  const guint first[] = { 1 };
  const guint second[] = { 2, 1 };
  g_autofree char *moved = g_strconcat (fixture->state_dir, ".away", NULL);

  g_test_summary ("What an earlier run left pending is announced again only once a save works: while the state "
                  "cannot be written, what a server shows could not be recorded");

  serve (fixture, first, 1, NULL);
  start_and_load (fixture);
  wait_until (fixture, has_announced, "the first run's announcement");
  fixture->no_server = TRUE;
  serve (fixture, second, 2, NULL);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_two_announcements, "the new headline's announcement");

  /* Loaded, then the folder becomes unwritable. */
  restart (fixture);
  fixture->no_server = FALSE;
  g_assert_cmpint (g_rename (fixture->state_dir, moved), ==, 0);
  g_assert_true (g_file_set_contents (fixture->state_dir, "not a folder", -1, NULL));
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, "Could not save what was read and announced: *");
  start_and_load (fixture);
  wait_until (fixture, has_alert, "the alert");
  g_test_assert_expected_messages ();
  wait_until (fixture, not_refreshing, "the end of the refresh");
  settle ();
  g_assert_cmpuint (fixture->announced->len, ==, 0);

  g_assert_cmpint (g_unlink (fixture->state_dir), ==, 0);
  g_assert_cmpint (g_rename (moved, fixture->state_dir), ==, 0);
  lwn_reader_mark_read (fixture->reader, "https://lwn.net/Articles/1/");
  wait_until (fixture, has_announced, "the late announcement");
  assert_announced (fixture, 0, second, 1, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);

  restart (fixture);
  g_assert_cmpuint (start_and_settle (fixture), ==, 0);
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

typedef struct
{
  guint n_done;
  gboolean failed;
  guint n_announced;
  gboolean first_run;
  guint n_reminded;
} SaverDone;

static void
saver_done_cb (const GError *error,
               GPtrArray *announced,
               gboolean first_run,
               GPtrArray *reminded,
               gpointer user_data)
{
  SaverDone *done = user_data;

  done->n_done++;
  done->failed = error != NULL;
  done->n_announced = announced->len;
  done->first_run = first_run;
  done->n_reminded = reminded->len;
}

static void
wait_for_saves (SaverDone *done,
                guint n_done)
{
  while (done->n_done < n_done)
    g_main_context_iteration (NULL, TRUE);
  settle ();
  g_assert_cmpuint (done->n_done, ==, n_done);
}

static void
test_saver (Fixture *fixture,
            gconstpointer data)
{
  g_autoptr (LwnReaderSaver) saver = NULL;
  g_autoptr (LwnFeedItem) first = lwn_feed_item_new ("https://lwn.net/Articles/1/", "One", NULL, NULL, NULL, NULL, NULL, FALSE);
  g_autoptr (LwnFeedItem) second = lwn_feed_item_new ("https://lwn.net/Articles/2/", "Two", NULL, NULL, NULL, NULL, NULL, FALSE);
  g_autoptr (GDateTime) free_on = g_date_time_new_utc (2020, 1, 1, 0, 0, 0);
  g_autoptr (GDateTime) now = g_date_time_new_utc (2021, 1, 1, 0, 0, 0);
  g_autoptr (LwnReminder) reminder = lwn_reminder_new ("https://lwn.net/Articles/3/", "Three", "https://lwn.net/Articles/3/", free_on);
  g_autoptr (LwnReminder) evicted = NULL;
  g_autoptr (GPtrArray) due = NULL;
  g_autofree char *moved = g_strconcat (fixture->state_dir, ".away", NULL);
  SaverDone done = { 0 };

  g_test_summary ("The saver makes one write of the changes of one main-loop iteration, hands back what it kept "
                  "once a write has recorded it, and keeps it through a write that failed");

  saver = lwn_reader_saver_new (fixture->store, saver_done_cb, &done);
  lwn_reader_saver_add_item (saver, first);
  lwn_reader_saver_set_first_run (saver);
  g_assert_true (lwn_reader_saver_has_items (saver));
  lwn_reader_saver_schedule (saver);
  lwn_reader_saver_schedule (saver);
  wait_for_saves (&done, 1);
  g_assert_false (done.failed);
  g_assert_cmpuint (done.n_announced, ==, 1);
  g_assert_true (done.first_run);
  g_assert_false (lwn_reader_saver_has_items (saver));
  g_assert_true (g_file_test (lwn_store_get_state_path (fixture->store), G_FILE_TEST_EXISTS));

  /* A reminder that is due leaves the store's set, and comes back once a write recorded that. */
  g_assert_true (lwn_reminders_add (lwn_store_get_reminders (fixture->store), reminder, &evicted));
  due = lwn_reader_saver_take_due_reminders (saver, now);
  g_assert_cmpuint (due->len, ==, 1);
  g_assert_null (lwn_reminders_lookup (lwn_store_get_reminders (fixture->store), "https://lwn.net/Articles/3/"));
  wait_for_saves (&done, 2);
  g_assert_false (done.failed);
  g_assert_cmpuint (done.n_announced, ==, 0);
  g_assert_cmpuint (done.n_reminded, ==, 1);

  /* A file where the state folder should be: the write fails, and the item waits for the next. */
  g_assert_cmpint (g_rename (fixture->state_dir, moved), ==, 0);
  g_assert_true (g_file_set_contents (fixture->state_dir, "not a folder", -1, NULL));
  lwn_reader_saver_add_item (saver, second);
  lwn_reader_saver_schedule (saver);
  wait_for_saves (&done, 3);
  g_assert_true (done.failed);
  g_assert_cmpuint (done.n_announced, ==, 0);
  g_assert_true (lwn_reader_saver_has_items (saver));

  g_assert_cmpint (g_unlink (fixture->state_dir), ==, 0);
  g_assert_cmpint (g_rename (moved, fixture->state_dir), ==, 0);
  lwn_reader_saver_schedule (saver);
  wait_for_saves (&done, 4);
  g_assert_false (done.failed);
  g_assert_cmpuint (done.n_announced, ==, 1);
  g_assert_false (done.first_run);
}

static gboolean
slow_requested (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, "/slow") >= fixture->want_requests;
}

static gboolean
waits_for_turn (Fixture *fixture)
{
  return lwn_fetch_queue_get_n_waiting (fixture->reader->fetch_queue) == 1;
}

static void
wait_for_slow (Fixture *fixture,
               guint n_requests)
{
  fixture->want_requests = n_requests;
  wait_until (fixture, slow_requested, "the slow feed's request");
}

/* Two feeds of one server share a queue, the other one answered slowly. */
static void
test_fetch_queue (Fixture *fixture,
                  gconstpointer data)
{
  const guint numbers[] = { 2, 1 };
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (LWN_FETCH_QUEUE_MAX_REQUESTS, LWN_FETCH_QUEUE_MAX_PER_HOST);
  g_autofree char *slow_url = lwn_test_server_dup_url (fixture->server, "/slow");
  g_autofree char *other_url = lwn_test_server_dup_url (fixture->server, "/other");
  g_autofree char *slow_state = g_build_filename (fixture->state_dir, "slow", NULL);
  g_autofree char *body = make_feed (numbers, G_N_ELEMENTS (numbers));
  LwnTestRoute route = { .content_type = "application/rss+xml", .body = body, .delay_ms = 500 };
  g_autoptr (LwnStore) slow_store = NULL;
  g_autoptr (LwnReader) slow = NULL;
  g_autoptr (GError) error = NULL;
  guint n_feed;

  g_test_summary ("A feed whose server is busy with another feed's request waits for its turn and counts as "
                  "refreshing meanwhile, shown at once when the person asks; switched to another address while "
                  "it waits, it waits again for that one; dropped while it waits, it leaves the queue at once and "
                  "sends nothing");

  serve (fixture, numbers, G_N_ELEMENTS (numbers), NULL);
  lwn_test_server_add_route (fixture->server, "/slow", &route);
  lwn_test_server_add_route (fixture->server, "/other", &route);
  slow_store = lwn_store_new (slow_state, fixture->cache_dir);
  g_assert_true (lwn_store_load (slow_store, &error));
  slow = lwn_reader_new (slow_store, slow_url);
  lwn_reader_set_notify (slow, FALSE);
  lwn_reader_set_fetch_queue (slow, queue);
  lwn_reader_set_fetch_queue (fixture->reader, queue);

  lwn_reader_start (slow);
  wait_for_slow (fixture, 1);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, waits_for_turn, "the feed to wait for its turn");
  g_assert_true (lwn_reader_get_loading (fixture->reader));
  lwn_reader_refresh (fixture->reader);
  g_assert_true (lwn_reader_get_refreshing (fixture->reader));
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 0);
  wait_until (fixture, is_ready, "the feed, after the slow one");
  g_assert_cmpint (lwn_reader_get_state (slow), ==, LWN_READER_STATE_READY);
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, 1);

  /* Another address while it waits: the old wait goes, and the new address waits in its place. */
  lwn_reader_refresh_due (slow);
  wait_for_slow (fixture, 2);
  lwn_reader_refresh_due (fixture->reader);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 1);
  lwn_reader_set_feed_url (fixture->reader, other_url);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 1);
  wait_until (fixture, is_ready, "the other address");
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, FEED_PATH), ==, 1);
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, "/other"), ==, 1);

  /* Dropped while it waits. */
  lwn_reader_refresh_due (slow);
  wait_for_slow (fixture, 3);
  lwn_reader_refresh_due (fixture->reader);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 1);
  n_feed = lwn_test_server_count_requests (fixture->server, "/other");
  g_clear_object (&fixture->reader);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  {
    gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

    while (lwn_reader_get_loading (slow))
      {
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        g_main_context_iteration (NULL, FALSE);
        g_usleep (1000);
      }
  }
  settle ();
  g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, "/other"), ==, n_feed);
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 0);
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, 1);
  lwn_reader_shutdown (slow);
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
  ADD ("/reader/repeated-id", test_repeated_id);
  ADD ("/reader/moved", test_moved);
  ADD ("/reader/not-modified", test_not_modified);
  ADD ("/reader/refresh-shown", test_refresh_shown);
  ADD ("/reader/refresh-changes-only-what-changed", test_refresh_changes_only_what_changed);
  ADD ("/reader/restart-conditional", test_restart_conditional);
  ADD ("/reader/gone", test_gone);
  ADD ("/reader/too-many-requests", test_too_many_requests);
  ADD ("/reader/manual-refresh", test_manual_refresh);
  ADD ("/reader/save-failure", test_save_failure);
  ADD ("/reader/security-lists", test_security_lists);
  ADD ("/reader/no-notify", test_no_notify);
  ADD ("/reader/no-server/first-run", test_no_server_first_run);
  ADD ("/reader/no-server/shown-not-again", test_shown_not_again);
  ADD ("/reader/no-server/read-before-shown", test_read_before_shown);
  ADD ("/reader/no-server/gone", test_pending_gone);
  ADD ("/reader/no-server/settings", test_pending_settings);
  ADD ("/reader/no-server/save-failure", test_pending_save_failure);
  ADD ("/reader/site", test_site);
  ADD ("/reader/switch-feed", test_switch_feed);
  ADD ("/reader/switch-feed/back-off", test_switch_feed_back_off);
  ADD ("/reader/saver", test_saver);
  ADD ("/reader/fetch-queue", test_fetch_queue);
#undef ADD

  return g_test_run ();
}
