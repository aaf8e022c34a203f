/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for the feeds followed: three local feeds that do not hold each other up, the migration of a
 * single-feed state and settings, feeds added, moved and removed while they load, an OPML import, and the
 * turns many feeds' requests take: a few at once, one at a time to a server. */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <glib/gstdio.h>

#include "lwn-cli.h"
#include "lwn-feed-find.h"
#include "lwn-feed-parser.h"
#include "lwn-feed-set-private.h"
#include "lwn-headline.h"
#include "lwn-opml.h"
#include "lwn-reader-private.h"
#include "lwn-reader-settings.h"
#include "lwn-scheduler-private.h"
#include "reader-fixture.h"

#define SET_WAIT_SECONDS 60

typedef struct
{
  LwnTestServer *server;
  char *root;
  char *state_dir;
  char *cache_dir;
  LwnFeedSet *set;
  guint n_items_changed;
} SetFixture;

static void
set_fixture_set_up (SetFixture *fixture,
                    gconstpointer data)
{
  fixture->server = lwn_test_server_new ();
  fixture->root = g_dir_make_tmp ("lwn-feed-set-XXXXXX", NULL);
  fixture->state_dir = g_build_filename (fixture->root, "state", NULL);
  fixture->cache_dir = g_build_filename (fixture->root, "cache", NULL);
}

static void
set_fixture_tear_down (SetFixture *fixture,
                       gconstpointer data)
{
  if (fixture->set != NULL)
    lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  g_clear_pointer (&fixture->server, lwn_test_server_free);
  g_free (fixture->root);
  g_free (fixture->state_dir);
  g_free (fixture->cache_dir);
}

static void
items_changed_cb (GListModel *model,
                  guint position,
                  guint removed,
                  guint added,
                  SetFixture *fixture)
{
  fixture->n_items_changed++;
}

static void
make_set (SetFixture *fixture,
          const char *first_feed_url)
{
  fixture->set = lwn_feed_set_new (fixture->state_dir, fixture->cache_dir, first_feed_url);
  lwn_feed_set_set_spread (fixture->set, 1);
  /* Nothing announces here: no notification server to wait for. */
  lwn_feed_set_set_notify (fixture->set, FALSE);
  g_signal_connect (fixture->set, "items-changed", G_CALLBACK (items_changed_cb), fixture);
}

static void
serve_items (SetFixture *fixture,
             const char *path,
             guint first,
             guint n,
             guint delay_ms)
{
  g_autofree guint *numbers = g_new (guint, n);
  g_autofree char *body = NULL;
  LwnTestRoute route = { .content_type = "application/rss+xml", .delay_ms = delay_ms };

  for (guint i = 0; i < n; i++)
    numbers[i] = first + n - i;
  body = make_feed (numbers, n);
  route.body = body;
  lwn_test_server_add_route (fixture->server, path, &route);
}

static gboolean
reader_done (LwnReader *reader)
{
  return reader != NULL && lwn_reader_get_state (reader) != LWN_READER_STATE_LOADING && !lwn_reader_get_loading (reader);
}

static void
wait_for_reader (LwnReader *reader,
                 const char *what)
{
  gint64 deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;

  while (!reader_done (reader))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %s", what);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The fixture's server, answering on @n_hosts hosts (127.0.0.1 and on); FALSE, the test skipped, when it cannot. */
static gboolean
serve_on_hosts (SetFixture *fixture,
                guint n_hosts)
{
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&fixture->server, lwn_test_server_free);
  fixture->server = lwn_test_server_new_hosts (n_hosts, &error);
  if (fixture->server == NULL)
    {
      g_autofree char *why = g_strdup_printf ("Cannot listen on 127.0.0.2 and on: %s", error->message);

      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

/* One feed answers at once with a thousand items, one fails, one is slow,
 * each on a server of its own: each gets its answer on its own and the
 * first never waits for the slow one; at the next start, each first polls
 * a spread after the one before it. */
static void
test_three_feeds (SetFixture *fixture,
                  gconstpointer data)
{
  g_autofree char *big = NULL;
  g_autofree char *dead = NULL;
  g_autofree char *slow = NULL;
  LwnFeedSpec specs[] = {
    { .name = "Big", .notify = TRUE },
    { .notify = TRUE },
    { .name = "Slow", .notify = FALSE },
  };
  const char *const paths[] = { "/big", "/dead", "/slow" };
  LwnTestRoute dead_route = { .status = 503, .content_type = "text/plain", .body = "down" };
  gint64 first_request[3] = { 0 };
  guint n_before[3] = { 0 };
  LwnReader *readers[3];
  gint64 deadline;

  /* On one server, the slow feed's request would hold up the others' (one request at a time to a server). */
  if (!serve_on_hosts (fixture, 3))
    return;
  specs[0].url = big = lwn_test_server_dup_host_url (fixture->server, 0, "/big");
  specs[1].url = dead = lwn_test_server_dup_host_url (fixture->server, 1, "/dead");
  specs[2].url = slow = lwn_test_server_dup_host_url (fixture->server, 2, "/slow");
  serve_items (fixture, "/big", 0, 1000, 0);
  lwn_test_server_add_route (fixture->server, "/dead", &dead_route);
  serve_items (fixture, "/slow", 5000, 5, 6000);
  make_set (fixture, big);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->set)), ==, 3);
  for (guint i = 0; i < 3; i++)
    readers[i] = lwn_feed_set_get_reader (fixture->set, i);
  lwn_feed_set_start (fixture->set);

  /* The thousand items come while the slow feed's answer is still on its way. */
  wait_for_reader (readers[0], "the big feed");
  g_assert_cmpint (lwn_reader_get_state (readers[0]), ==, LWN_READER_STATE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (readers[0])), ==, 1000);
  g_assert_null (lwn_reader_get_error (readers[0]));
  g_assert_false (reader_done (readers[2]));

  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (!reader_done (readers[1]) || !reader_done (readers[2]))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  g_assert_cmpint (lwn_reader_get_state (readers[1]), ==, LWN_READER_STATE_FAILED);
  g_assert_nonnull (lwn_reader_get_error (readers[1]));
  g_assert_cmpint (lwn_reader_get_state (readers[2]), ==, LWN_READER_STATE_READY);
  g_assert_null (lwn_reader_get_error (readers[2]));
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (readers[2])), ==, 5);
  /* The failure stayed with its feed. */
  g_assert_cmpint (lwn_reader_get_state (readers[0]), ==, LWN_READER_STATE_READY);
  g_assert_null (lwn_reader_get_error (readers[0]));
  g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 1005);

  /* Names: the person's, else the feed's own title. */
  {
    g_autofree char *big_name = lwn_reader_dup_name (readers[0]);
    g_autofree char *dead_name = lwn_reader_dup_name (readers[1]);
    g_autofree char *slow_name = lwn_reader_dup_name (readers[2]);

    g_assert_cmpstr (big_name, ==, "Big");
    g_assert_cmpstr (dead_name, ==, "127.0.0.2");
    g_assert_cmpstr (slow_name, ==, "Slow");
  }

  /* The next start shows every saved copy at once, and the feeds that have
   * one poll a spread apart (a second each here): counted in spreads, since a
   * request's wall time also holds however long the machine took to send it
   * (the scheduler's own test checks that its timer never fires early). */
  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  make_set (fixture, big);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  for (guint i = 0; i < 3; i++)
    {
      readers[i] = lwn_feed_set_get_reader (fixture->set, i);
      n_before[i] = lwn_test_server_count_requests (fixture->server, paths[i]);
    }
  lwn_feed_set_start (fixture->set);
  wait_for_reader (readers[0], "the big feed's saved copy");
  wait_for_reader (readers[2], "the slow feed's saved copy");
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (first_request[0] == 0 || first_request[1] == 0 || first_request[2] == 0)
    {
      for (guint i = 0; i < 3; i++)
        if (first_request[i] == 0 && lwn_test_server_count_requests (fixture->server, paths[i]) > n_before[i])
          first_request[i] = g_get_monotonic_time ();
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  /* The big feed polls first, then the slow one, two spreads after it. The
   * dead one has nothing saved to show, so it asks at once. */
  g_assert_cmpuint (lwn_scheduler_get_first_delay (readers[0]->scheduler), ==, 0);
  g_assert_cmpuint (lwn_scheduler_get_first_delay (readers[1]->scheduler), ==, 0);
  g_assert_cmpuint (lwn_scheduler_get_first_delay (readers[2]->scheduler), ==, 2);
  g_assert_cmpint (first_request[0], <, first_request[2]);

  /* An item is found, opened and read in the feed that has it. */
  {
    g_autofree char *id = item_id (5003, 0);
    g_autofree char *url = NULL;

    url = lwn_feed_set_open (fixture->set, slow, id);
    g_assert_cmpstr (url, ==, "https://lwn.net/Articles/5003/");
    g_assert_cmpuint (lwn_reader_get_n_unread (readers[2]), ==, 4);
    g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 1004);
    g_assert_null (lwn_feed_set_open (fixture->set, slow, "no such item"));
    /* An id means something only in its own feed. */
    g_assert_null (lwn_feed_set_open (fixture->set, big, id));
  }
}

/* A feed that sends the ids of LWN's first three items, with titles and links of its own; its first
 * item links to LWN's very article. */
static void
serve_impostor (SetFixture *fixture,
                const char *path)
{
  GString *feed = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Impostor</title>"
                                "<link>https://lwn.example.net/</link>\n");
  LwnTestRoute route = { .content_type = "application/rss+xml" };
  g_autofree char *body = NULL;

  for (guint number = 3; number >= 1; number--)
    {
      g_autofree char *id = item_id (number, 0);

      if (number == 1)
        g_string_append_printf (feed, "<item><title>The same article</title><link>https://lwn.net/Articles/1/</link>"
                                      "<guid>%s</guid></item>\n",
                                id);
      else
        g_string_append_printf (feed, "<item><title>Renew your subscription %u</title>"
                                      "<link>https://lwn.example.net/renew/%u</link><guid>%s</guid></item>\n",
                                number, number, id);
    }
  g_string_append (feed, "</channel></rss>\n");
  body = g_string_free (feed, FALSE);
  route.body = body;
  lwn_test_server_add_route (fixture->server, path, &route);
}

static LwnHeadline *
find_headline (LwnReader *reader,
               const char *item_id)
{
  GListModel *headlines = lwn_reader_get_headlines (reader);

  for (guint i = 0; i < g_list_model_get_n_items (headlines); i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);

      if (g_str_equal (lwn_headline_get_id (headline), item_id))
        return headline;
    }
  return NULL;
}

static void
test_shared_ids (SetFixture *fixture,
                 gconstpointer data)
{
  gboolean impostor_first = GPOINTER_TO_INT (data);
  g_autofree char *lwn = lwn_test_server_dup_url (fixture->server, "/lwn");
  g_autofree char *impostor = lwn_test_server_dup_url (fixture->server, "/impostor");
  const LwnFeedSpec lwn_spec = { .url = lwn, .name = "LWN.net", .notify = TRUE };
  const LwnFeedSpec impostor_spec = { .url = impostor, .name = "Impostor", .notify = TRUE };
  LwnFeedSpec specs[2];
  LwnReader *lwn_reader;
  LwnReader *impostor_reader;
  g_autofree char *id1 = item_id (1, 0);
  g_autofree char *id2 = item_id (2, 0);
  g_autofree char *id3 = item_id (3, 0);
  g_autofree char *opened = NULL;

  g_test_summary ("A feed that sends LWN's ids shows its items under its own name only, listed before LWN or "
                  "after: LWN's headlines keep their titles and links, a click opens the feed's own item and "
                  "reads it in that feed alone, but for an article both link to, which is read in both");

  serve_items (fixture, "/lwn", 0, 3, 0);
  serve_impostor (fixture, "/impostor");
  specs[0] = impostor_first ? impostor_spec : lwn_spec;
  specs[1] = impostor_first ? lwn_spec : impostor_spec;
  make_set (fixture, lwn);
  lwn_feed_set_set_feeds (fixture->set, specs, 2);
  lwn_feed_set_start (fixture->set);
  lwn_reader = lwn_feed_set_find_url (fixture->set, lwn);
  impostor_reader = lwn_feed_set_find_url (fixture->set, impostor);
  wait_for_reader (lwn_reader, "LWN's feed");
  wait_for_reader (impostor_reader, "the other feed");

  /* Each shows its own three items, with its own words. */
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (lwn_reader)), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (impostor_reader)), ==, 3);
  g_assert_cmpstr (lwn_headline_get_title (find_headline (lwn_reader, id2)), ==, "Headline 2");
  g_assert_cmpstr (lwn_headline_get_url (find_headline (lwn_reader, id2)), ==, "https://lwn.net/Articles/2/");
  g_assert_cmpstr (lwn_headline_get_title (find_headline (impostor_reader, id2)), ==, "Renew your subscription 2");
  g_assert_cmpstr (lwn_headline_get_feed (find_headline (impostor_reader, id2)), ==, impostor);

  /* LWN's item 3 opens LWN's article, and is read in LWN's feed only. */
  opened = lwn_feed_set_open (fixture->set, lwn, id3);
  g_assert_cmpstr (opened, ==, "https://lwn.net/Articles/3/");
  g_assert_false (lwn_headline_get_unread (find_headline (lwn_reader, id3)));
  g_assert_true (lwn_headline_get_unread (find_headline (impostor_reader, id3)));
  g_clear_pointer (&opened, g_free);

  /* The other feed's item 2 opens its own link and reads nothing of LWN's. */
  opened = lwn_feed_set_open (fixture->set, impostor, id2);
  g_assert_cmpstr (opened, ==, "https://lwn.example.net/renew/2");
  g_assert_false (lwn_headline_get_unread (find_headline (impostor_reader, id2)));
  g_assert_true (lwn_headline_get_unread (find_headline (lwn_reader, id2)));
  g_clear_pointer (&opened, g_free);

  /* An article both link to is read in both, whichever feed it was opened from. */
  opened = lwn_feed_set_open (fixture->set, lwn, id1);
  g_assert_cmpstr (opened, ==, "https://lwn.net/Articles/1/");
  g_assert_false (lwn_headline_get_unread (find_headline (lwn_reader, id1)));
  g_assert_false (lwn_headline_get_unread (find_headline (impostor_reader, id1)));
  g_assert_cmpuint (lwn_reader_get_n_unread (lwn_reader), ==, 1);
  g_assert_cmpuint (lwn_reader_get_n_unread (impostor_reader), ==, 1);
}

static void
drained_cb (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  int *drained = user_data;
  g_autoptr (GError) error = NULL;

  *drained = lwn_feed_set_drain_finish (LWN_FEED_SET (source), result, &error) ? 1 : -1;
  g_assert_no_error (error);
}

static gboolean
path_exists (const char *path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static guint
count_files (const char *dir_path)
{
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  guint n_files = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  return n_files;
}

static void
test_removed_forgotten (SetFixture *fixture,
                        gconstpointer data)
{
  g_autofree char *lwn = lwn_test_server_dup_url (fixture->server, "/lwn");
  g_autofree char *beta = lwn_test_server_dup_url (fixture->server, "/beta");
  const LwnFeedSpec both[] = {
    { .url = lwn, .name = "LWN.net", .notify = TRUE },
    { .url = beta, .name = "Beta", .notify = TRUE },
  };
  g_autofree char *beta_state = NULL;
  g_autofree char *id = item_id (5, 0);
  LwnReader *beta_reader;
  int drained = 0;
  gint64 deadline;

  g_test_summary ("A feed removed and added back within the undo time finds what was read of it; once that time "
                  "has passed its state and saved copy go; and quitting waits for a removed feed's last save "
                  "before its files go with the undo");

  serve_items (fixture, "/lwn", 0, 3, 0);
  serve_items (fixture, "/beta", 0, 5, 0);
  make_set (fixture, lwn);
  lwn_feed_set_set_forget (fixture->set, 1);
  lwn_feed_set_set_feeds (fixture->set, both, 2);
  lwn_feed_set_start (fixture->set);
  beta_reader = lwn_feed_set_find_url (fixture->set, beta);
  wait_for_reader (beta_reader, "the second feed");
  wait_for_reader (lwn_feed_set_find_url (fixture->set, lwn), "LWN's feed");
  beta_state = lwn_feed_set_dup_state_dir (fixture->set, beta);

  /* Removed and added back at once: the read mark is there. */
  lwn_reader_mark_read (beta_reader, id);
  lwn_feed_set_set_feeds (fixture->set, both, 1);
  lwn_feed_set_set_feeds (fixture->set, both, 2);
  beta_reader = lwn_feed_set_find_url (fixture->set, beta);
  wait_for_reader (beta_reader, "the second feed, back");
  g_assert_cmpuint (lwn_reader_get_n_unread (beta_reader), ==, 4);

  /* Removed for good: its folder and its saved copy go once the undo time has passed. They go one after the
   * other in a worker thread, so both are waited for: LWN's saved copy is then the only file left. */
  lwn_feed_set_set_feeds (fixture->set, both, 1);
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (path_exists (beta_state) || count_files (fixture->cache_dir) != 1)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
  g_assert_cmpuint (count_files (fixture->cache_dir), ==, 1);

  /* Added again, read, removed, and the program quits at once: the drain waits for the last save, and
   * the files then go with the undo. */
  lwn_feed_set_set_feeds (fixture->set, both, 2);
  beta_reader = lwn_feed_set_find_url (fixture->set, beta);
  wait_for_reader (beta_reader, "the second feed, added again");
  g_assert_cmpuint (lwn_reader_get_n_unread (beta_reader), ==, 5);
  lwn_reader_mark_read (beta_reader, id);
  lwn_feed_set_set_forget (fixture->set, 3600);
  lwn_feed_set_set_feeds (fixture->set, both, 1);
  lwn_feed_set_shutdown (fixture->set);
  lwn_feed_set_drain_async (fixture->set, 30000, NULL, drained_cb, &drained);
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (drained == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpint (drained, ==, 1);
  g_assert_false (path_exists (beta_state));
}

static void
mark_first_read (LwnReader *reader)
{
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (lwn_reader_get_headlines (reader), 0);

  lwn_reader_mark_read (reader, lwn_headline_get_id (headline));
}

/* A state file of a single-feed run: with that feed among several, its
 * read marks are all there, and the new feed's state goes in a folder of
 * its own. */
static void
test_migration_keeps_marks (SetFixture *fixture,
                            gconstpointer data)
{
  g_autofree char *old_url = lwn_test_server_dup_url (fixture->server, "/lwn");
  g_autofree char *new_url = lwn_test_server_dup_url (fixture->server, "/other");
  g_autofree char *state_file = g_build_filename (fixture->state_dir, "state.ini", NULL);
  g_autofree char *new_state_dir = NULL;
  g_autofree char *new_state_file = NULL;
  g_autoptr (GError) error = NULL;
  const LwnFeedSpec specs[] = {
    { .url = old_url, .notify = TRUE },
    { .url = new_url, .notify = TRUE },
  };
  LwnReader *old_reader;

  serve_items (fixture, "/lwn", 100, 3, 0);
  serve_items (fixture, "/other", 200, 2, 0);

  /* The run of before: one reader, one store in the state folder itself. */
  {
    g_autoptr (LwnStore) store = lwn_store_new (fixture->state_dir, fixture->cache_dir);
    g_autoptr (LwnReader) reader = NULL;

    g_assert_true (lwn_store_load (store, &error));
    reader = lwn_reader_new (store, old_url);
    lwn_reader_set_notify (reader, FALSE);
    lwn_reader_start (reader);
    wait_for_reader (reader, "the single feed");
    mark_first_read (reader);
    g_assert_cmpuint (lwn_reader_get_n_unread (reader), ==, 2);
    lwn_reader_shutdown (reader);
  }
  g_assert_true (g_file_test (state_file, G_FILE_TEST_IS_REGULAR));

  make_set (fixture, old_url);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  lwn_feed_set_start (fixture->set);
  old_reader = lwn_feed_set_get_reader (fixture->set, 0);
  /* Shown from its saved copy, with its mark, before any request. */
  wait_for_reader (old_reader, "the feed of before");
  g_assert_cmpuint (lwn_reader_get_n_unread (old_reader), ==, 2);
  wait_for_reader (lwn_feed_set_get_reader (fixture->set, 1), "the new feed");
  g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 4);

  mark_first_read (lwn_feed_set_get_reader (fixture->set, 1));
  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);

  new_state_dir = g_build_filename (fixture->state_dir, "feeds", NULL);
  g_assert_true (g_file_test (new_state_dir, G_FILE_TEST_IS_DIR));
  {
    g_autoptr (LwnFeedSet) again = lwn_feed_set_new (fixture->state_dir, fixture->cache_dir, old_url);
    g_autofree char *dir = lwn_feed_set_dup_state_dir (again, new_url);

    new_state_file = g_build_filename (dir, "state.ini", NULL);
    g_assert_true (g_file_test (new_state_file, G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_str_has_prefix (dir, new_state_dir));

    /* The next start: both feeds' marks, from their own files. */
    lwn_feed_set_set_notify (again, FALSE);
    lwn_feed_set_set_feeds (again, specs, G_N_ELEMENTS (specs));
    lwn_feed_set_start (again);
    wait_for_reader (lwn_feed_set_get_reader (again, 0), "the feed of before, again");
    wait_for_reader (lwn_feed_set_get_reader (again, 1), "the new feed, again");
    g_assert_cmpuint (lwn_reader_get_n_unread (lwn_feed_set_get_reader (again, 0)), ==, 2);
    g_assert_cmpuint (lwn_reader_get_n_unread (lwn_feed_set_get_reader (again, 1)), ==, 1);
    lwn_feed_set_shutdown (again);
  }
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

/* The settings: a feed set in feed-url becomes the list, once; a list set
 * already, or feed-url never changed, is left alone. */
static void
test_settings_migration (void)
{
  g_autoptr (GSettings) settings = memory_settings ();
  g_autoptr (GVariant) feeds = NULL;
  g_autofree LwnFeedSpec *specs = NULL;
  guint n = 0;

  g_assert_false (lwn_reader_settings_migrate (settings));
  g_assert_null (g_settings_get_user_value (settings, "feeds"));

  g_settings_set_string (settings, "feed-url", "https://example.org/feed.xml");
  g_assert_true (lwn_reader_settings_migrate (settings));
  feeds = g_settings_get_value (settings, "feeds");
  specs = lwn_reader_settings_parse_feeds (feeds, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (specs[0].url, ==, "https://example.org/feed.xml");
  g_assert_null (specs[0].name);
  g_assert_true (specs[0].notify);

  /* Once only: the list is the person's from now on. */
  g_settings_set_string (settings, "feed-url", "https://example.org/other.xml");
  g_assert_false (lwn_reader_settings_migrate (settings));
  g_clear_pointer (&feeds, g_variant_unref);
  feeds = g_settings_get_value (settings, "feeds");
  g_assert_cmpuint (g_variant_n_children (feeds), ==, 1);
}

static void
test_settings_default (void)
{
  g_autoptr (GSettings) settings = memory_settings ();
  g_autoptr (GVariant) feeds = g_settings_get_value (settings, "feeds");
  g_autofree LwnFeedSpec *specs = NULL;
  guint n = 0;

  specs = lwn_reader_settings_parse_feeds (feeds, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (specs[0].url, ==, "https://lwn.net/headlines/rss");
  g_assert_cmpstr (specs[0].name, ==, "LWN.net");
}

static void
feeds_changed_cb (GSettings *settings,
                  const char *key,
                  guint *n_changed)
{
  (*n_changed)++;
}

/* An OPML list of 200 feeds imported into the settings of a running set. */
static void
test_settings_import (SetFixture *fixture,
                      gconstpointer data)
{
  g_autoptr (GSettings) settings = memory_settings ();
  g_autoptr (LwnReaderSettings) mapping = NULL;
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autofree char *first = lwn_test_server_dup_url (fixture->server, "/first");
  LwnOpmlImport import = { 0 };
  guint n_changed = 0;
  gint64 deadline;

  g_test_summary ("An import of 200 feeds is one write of the feeds key, and the new feeds first poll a second "
                  "apart in the list's order, the first at once");

  serve_items (fixture, "/first", 1, 2, 0);
  g_settings_set_value (settings, "feeds", g_variant_new_parsed ("[(%s, 'First', true)]", first));
  make_set (fixture, first);
  mapping = lwn_reader_settings_new (settings, fixture->set, first);
  lwn_reader_settings_follow (mapping);
  lwn_feed_set_start (fixture->set);
  wait_for_reader (lwn_feed_set_get_reader (fixture->set, 0), "the first feed");

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("/imported-%u", i);
      g_autofree char *url = lwn_test_server_dup_url (fixture->server, path);
      g_autofree char *title = g_strdup_printf ("Imported %u", i);

      g_ptr_array_add (feeds, lwn_opml_feed_new (url, title, NULL));
    }
  g_signal_connect (settings, "changed::feeds", G_CALLBACK (feeds_changed_cb), &n_changed);
  g_assert_true (lwn_reader_settings_import_feeds (settings, feeds, &import));
  g_assert_cmpuint (import.added, ==, 200);

  /* Every new feed has started its first poll's timer. */
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (TRUE)
    {
      guint n_polling = 0;

      for (guint i = 1; i < lwn_feed_set_get_n_feeds (fixture->set); i++)
        n_polling += lwn_feed_set_get_reader (fixture->set, i)->polling ? 1 : 0;
      if (n_polling == 200)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_cmpuint (lwn_feed_set_get_n_feeds (fixture->set), ==, 201);
  for (guint i = 0; i < 200; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (fixture->set, 1 + i);
      g_autofree char *name = lwn_reader_dup_name (reader);
      g_autofree char *title = g_strdup_printf ("Imported %u", i);

      g_assert_cmpstr (name, ==, title);
      g_assert_cmpuint (lwn_scheduler_get_first_delay (reader->scheduler), ==, i * LWN_FEED_SET_ADD_SPREAD_SECONDS);
    }
}

/* Feeds added, moved and removed: those that stay keep their reading
 * model; a new one loads; one removed stops and saves what was read. */
static void
test_add_move_remove (SetFixture *fixture,
                      gconstpointer data)
{
  g_autofree char *a = lwn_test_server_dup_url (fixture->server, "/a");
  g_autofree char *b = lwn_test_server_dup_url (fixture->server, "/b");
  const LwnFeedSpec only_a[] = { { .url = a, .notify = TRUE } };
  const LwnFeedSpec a_b[] = { { .url = a, .notify = TRUE }, { .url = b, .name = "B", .notify = TRUE }, { .url = a } };
  const LwnFeedSpec b_a[] = { { .url = b, .name = "Bee", .notify = FALSE }, { .url = a, .notify = TRUE } };
  const LwnFeedSpec only_b[] = { { .url = b, .notify = TRUE } };
  g_autofree char *a_state = NULL;
  g_autofree char *a_file = NULL;
  LwnReader *reader_a;
  LwnReader *reader_b;

  serve_items (fixture, "/a", 10, 2, 0);
  serve_items (fixture, "/b", 20, 3, 0);
  make_set (fixture, "https://lwn.net/headlines/rss");
  lwn_feed_set_set_feeds (fixture->set, only_a, 1);
  lwn_feed_set_start (fixture->set);
  reader_a = lwn_feed_set_get_reader (fixture->set, 0);
  wait_for_reader (reader_a, "feed a");
  mark_first_read (reader_a);

  fixture->n_items_changed = 0;
  lwn_feed_set_set_feeds (fixture->set, a_b, G_N_ELEMENTS (a_b));
  g_assert_cmpuint (fixture->n_items_changed, ==, 1);
  g_assert_cmpuint (lwn_feed_set_get_n_feeds (fixture->set), ==, 2);
  g_assert_true (lwn_feed_set_get_reader (fixture->set, 0) == reader_a);
  reader_b = lwn_feed_set_get_reader (fixture->set, 1);
  wait_for_reader (reader_b, "feed b, added");
  g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 4);

  /* The same list again changes nothing. */
  fixture->n_items_changed = 0;
  lwn_feed_set_set_feeds (fixture->set, a_b, G_N_ELEMENTS (a_b));
  g_assert_cmpuint (fixture->n_items_changed, ==, 0);

  lwn_feed_set_set_feeds (fixture->set, b_a, G_N_ELEMENTS (b_a));
  g_assert_cmpuint (fixture->n_items_changed, ==, 1);
  g_assert_true (lwn_feed_set_get_reader (fixture->set, 0) == reader_b);
  g_assert_true (lwn_feed_set_get_reader (fixture->set, 1) == reader_a);
  g_assert_false (lwn_feed_set_get_feed_notify (fixture->set, reader_b));
  {
    g_autofree char *name = lwn_reader_dup_name (reader_b);

    g_assert_cmpstr (name, ==, "Bee");
  }

  /* Removed and added back at once, while its last write may still be
   * under way: what was read of it is still read. */
  {
    /* Held, so that its address cannot be the new reader's. */
    g_autoptr (LwnReader) removed = g_object_ref (reader_a);

    lwn_feed_set_set_feeds (fixture->set, only_b, 1);
    lwn_feed_set_set_feeds (fixture->set, b_a, G_N_ELEMENTS (b_a));
    g_assert_true (lwn_feed_set_get_reader (fixture->set, 1) != removed);
  }
  reader_a = lwn_feed_set_get_reader (fixture->set, 1);
  wait_for_reader (reader_a, "feed a, back");
  g_assert_cmpuint (lwn_reader_get_n_unread (reader_a), ==, 1);

  a_state = lwn_feed_set_dup_state_dir (fixture->set, a);
  a_file = g_build_filename (a_state, "state.ini", NULL);
  g_remove (a_file);
  lwn_feed_set_set_feeds (fixture->set, only_b, 1);
  g_assert_cmpuint (lwn_feed_set_get_n_feeds (fixture->set), ==, 1);
  g_assert_true (lwn_feed_set_get_reader (fixture->set, 0) == reader_b);
  /* Removed, it writes its marks as it goes, off the main thread. */
  {
    gint64 deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;

    while (!g_file_test (a_file, G_FILE_TEST_IS_REGULAR))
      {
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        g_main_context_iteration (NULL, FALSE);
        g_usleep (1000);
      }
  }
  g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 3);
}

typedef struct
{
  LwnFeedSet *set;
  GPtrArray *urls;
  gboolean still_there; /* a feed told as removed was still in the set */
} Removed;

static void
feed_removed_cb (LwnFeedSet *set,
                 const char *url,
                 Removed *removed)
{
  g_ptr_array_add (removed->urls, g_strdup (url));
  if (lwn_feed_set_find_url (set, url) != NULL)
    removed->still_there = TRUE;
}

/* Each feed that leaves the list is told, once it has left, and no feed
 * that stays; the set going tells nothing. */
static void
test_feed_removed (SetFixture *fixture,
                   gconstpointer data)
{
  g_autofree char *a = lwn_test_server_dup_url (fixture->server, "/a");
  g_autofree char *b = lwn_test_server_dup_url (fixture->server, "/b");
  g_autofree char *c = lwn_test_server_dup_url (fixture->server, "/c");
  const LwnFeedSpec a_b_c[] = { { .url = a, .notify = TRUE }, { .url = b, .notify = TRUE }, { .url = c, .notify = TRUE } };
  const LwnFeedSpec c_a[] = { { .url = c, .notify = TRUE }, { .url = a, .name = "A", .notify = FALSE } };
  const LwnFeedSpec only_a[] = { { .url = a, .notify = TRUE } };
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  Removed removed = { .urls = urls };

  serve_items (fixture, "/a", 10, 2, 0);
  serve_items (fixture, "/b", 20, 2, 0);
  serve_items (fixture, "/c", 30, 2, 0);
  make_set (fixture, a);
  g_signal_connect (fixture->set, "feed-removed", G_CALLBACK (feed_removed_cb), &removed);
  lwn_feed_set_set_feeds (fixture->set, a_b_c, G_N_ELEMENTS (a_b_c));
  lwn_feed_set_start (fixture->set);
  g_assert_cmpuint (urls->len, ==, 0);

  /* Moved, renamed or given another notification choice, a feed stays. */
  lwn_feed_set_set_feeds (fixture->set, c_a, G_N_ELEMENTS (c_a));
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (urls, 0), ==, b);
  lwn_feed_set_set_feeds (fixture->set, c_a, G_N_ELEMENTS (c_a));
  g_assert_cmpuint (urls->len, ==, 1);

  lwn_feed_set_set_feeds (fixture->set, only_a, G_N_ELEMENTS (only_a));
  g_assert_cmpuint (urls->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (urls, 1), ==, c);
  g_assert_false (removed.still_there);

  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  g_assert_cmpuint (urls->len, ==, 2);
}

/* Feeds added together while the set runs, none with anything to show,
 * poll one after another in the list's order, the first at once: an
 * imported list does not send all its requests together. */
static void
test_added_in_turn (SetFixture *fixture,
                    gconstpointer data)
{
  g_autofree char *first = lwn_test_server_dup_url (fixture->server, "/first");
  const char *const paths[] = { "/a", "/b", "/c" };
  LwnFeedSpec specs[1 + G_N_ELEMENTS (paths)] = { { .url = first, .notify = TRUE } };
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  gint64 requested[G_N_ELEMENTS (paths)] = { 0 };
  gint64 deadline;
  gboolean all = FALSE;

  serve_items (fixture, "/first", 1, 2, 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      serve_items (fixture, paths[i], 10 * (i + 1), 2, 0);
      g_ptr_array_add (urls, lwn_test_server_dup_url (fixture->server, paths[i]));
      specs[1 + i] = (LwnFeedSpec){ .url = g_ptr_array_index (urls, i), .notify = TRUE };
    }
  make_set (fixture, first);
  lwn_feed_set_set_feeds (fixture->set, specs, 1);
  lwn_feed_set_start (fixture->set);
  wait_for_reader (lwn_feed_set_get_reader (fixture->set, 0), "the first feed");

  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (!all)
    {
      all = TRUE;
      for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
        {
          requested[i] = lwn_test_server_get_first_request_time (fixture->server, paths[i]);
          all = all && requested[i] != 0;
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  /* A second apart, by the server's clock. GLib's whole-second timers may
   * fire a quarter of a second early, so half a second is what is sure;
   * how late they fire is for the machine to say. */
  for (guint i = 1; i < G_N_ELEMENTS (paths); i++)
    {
      g_test_message ("%s requested %" G_GINT64_FORMAT " ms after %s", paths[i],
                      (requested[i] - requested[i - 1]) / G_TIME_SPAN_MILLISECOND, paths[i - 1]);
      g_assert_cmpint (requested[i] - requested[i - 1], >=, LWN_FEED_SET_ADD_SPREAD_SECONDS * G_USEC_PER_SEC / 2);
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    wait_for_reader (lwn_feed_set_get_reader (fixture->set, 1 + i), paths[i]);
}

/* The set goes while its feeds still load, one of them slowly: the loads
 * that end afterwards find nothing of it. */
static void
test_gone_while_loading (SetFixture *fixture,
                         gconstpointer data)
{
  g_autofree char *slow = lwn_test_server_dup_url (fixture->server, "/slow");
  g_autofree char *quick = lwn_test_server_dup_url (fixture->server, "/quick");
  const LwnFeedSpec specs[] = { { .url = quick, .notify = TRUE }, { .url = slow, .notify = TRUE } };
  gint64 until;

  serve_items (fixture, "/quick", 1, 2, 0);
  serve_items (fixture, "/slow", 50, 2, 800);
  make_set (fixture, quick);
  lwn_feed_set_set_spread (fixture->set, 0);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  lwn_feed_set_start (fixture->set);
  while (lwn_test_server_count_requests (fixture->server, "/slow") == 0)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  until = g_get_monotonic_time () + 1500 * 1000;
  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* Feeds each served after @delay_ms, on @n_hosts hosts of the server, @n_per_host on each. */
static LwnFeedSpec *
serve_many (SetFixture *fixture,
            guint n_hosts,
            guint n_per_host,
            guint delay_ms,
            GPtrArray *urls)
{
  LwnFeedSpec *specs = g_new0 (LwnFeedSpec, n_hosts * n_per_host);

  for (guint i = 0; i < n_per_host; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);

      serve_items (fixture, path, 10 * i, 2, delay_ms);
      for (guint host = 0; host < n_hosts; host++)
        {
          char *url = lwn_test_server_dup_host_url (fixture->server, host, path);

          g_ptr_array_add (urls, url);
          /* Host after host, as a list sorted by title would mix them. */
          specs[i * n_hosts + host] = (LwnFeedSpec){ .url = url, .notify = TRUE };
        }
    }
  return specs;
}

static void
wait_for_all (SetFixture *fixture)
{
  for (guint i = 0; i < lwn_feed_set_get_n_feeds (fixture->set); i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (fixture->set, i);

      wait_for_reader (reader, lwn_reader_get_feed_url (reader));
      g_assert_cmpint (lwn_reader_get_state (reader), ==, LWN_READER_STATE_READY);
    }
}

/* A fresh start of many feeds of one server: never two requests to it at once. */
static void
test_polite_one_host (SetFixture *fixture,
                      gconstpointer data)
{
  guint n_feeds = 40;
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree LwnFeedSpec *specs = NULL;

  g_test_summary ("A fresh start of 40 feeds on one server, each answered after 50 ms: the server never has two "
                  "of their requests at once, and every feed loads");

  specs = serve_many (fixture, 1, n_feeds, 50, urls);
  make_set (fixture, specs[0].url);
  lwn_feed_set_set_feeds (fixture->set, specs, n_feeds);
  lwn_feed_set_start (fixture->set);
  wait_for_all (fixture);

  g_test_message ("At most %u requests at once", lwn_test_server_get_max_at_once (fixture->server));
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, 1);
  for (guint i = 0; i < n_feeds; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);

      g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, path), ==, 1);
    }
}

/* A fresh start of many feeds on six hosts: four requests at once at most, one per host. */
static void
test_polite_hosts (SetFixture *fixture,
                   gconstpointer data)
{
  guint n_hosts = 6;
  guint n_per_host = 10;
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree LwnFeedSpec *specs = NULL;

  g_test_summary ("A fresh start of 60 feeds on six hosts (127.0.0.1 to 127.0.0.6), each answered after 100 ms: "
                  "at most four requests at once, never two to one host, and every feed loads");

  if (!serve_on_hosts (fixture, n_hosts))
    return;

  specs = serve_many (fixture, n_hosts, n_per_host, 100, urls);
  make_set (fixture, specs[0].url);
  lwn_feed_set_set_feeds (fixture->set, specs, n_hosts * n_per_host);
  lwn_feed_set_start (fixture->set);
  wait_for_all (fixture);

  g_test_message ("At most %u requests at once", lwn_test_server_get_max_at_once (fixture->server));
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, LWN_FETCH_QUEUE_MAX_REQUESTS);
  for (guint host = 0; host < n_hosts; host++)
    {
      g_test_message ("At most %u at once on 127.0.0.%u", lwn_test_server_get_host_max_at_once (fixture->server, host),
                      host + 1);
      g_assert_cmpuint (lwn_test_server_get_host_max_at_once (fixture->server, host), ==, 1);
    }
  for (guint i = 0; i < n_per_host; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);

      g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, path), ==, n_hosts);
    }
}

static LwnFetchQueue *
set_queue (SetFixture *fixture)
{
  return lwn_feed_set_get_reader (fixture->set, 0)->fetch_queue;
}

/* Waits until one request is under way, on the server too, and the other
 * feeds all wait for their turn. */
static void
wait_for_one_under_way (SetFixture *fixture,
                        guint n_feeds)
{
  LwnFetchQueue *queue = set_queue (fixture);
  gint64 deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;

  while (lwn_fetch_queue_get_n_waiting (queue) != n_feeds - 1 || lwn_fetch_queue_get_n_running (queue) != 1
         || lwn_test_server_get_max_at_once (fixture->server) == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The feed whose request the server has. */
static guint
find_requested (SetFixture *fixture,
                guint n_feeds)
{
  for (guint i = 0; i < n_feeds; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);

      if (lwn_test_server_count_requests (fixture->server, path) > 0)
        return i;
    }
  g_assert_not_reached ();
}

/* Feeds removed while they wait for their turn behind a slow request. */
static void
test_polite_removed (SetFixture *fixture,
                     gconstpointer data)
{
  guint n_feeds = 6;
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree LwnFeedSpec *specs = NULL;
  LwnFeedSpec kept[2];
  guint under_way;

  g_test_summary ("Four of six feeds of one slow server are removed while they wait for their turn: they leave "
                  "the queue at once and send nothing, and the feed kept waiting goes next");

  specs = serve_many (fixture, 1, n_feeds, 1500, urls);
  make_set (fixture, specs[0].url);
  lwn_feed_set_set_feeds (fixture->set, specs, n_feeds);
  lwn_feed_set_start (fixture->set);
  wait_for_one_under_way (fixture, n_feeds);
  under_way = find_requested (fixture, n_feeds);
  kept[0] = specs[under_way];
  kept[1] = specs[(under_way + 1) % n_feeds];

  lwn_feed_set_set_feeds (fixture->set, kept, G_N_ELEMENTS (kept));
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (set_queue (fixture)), ==, 1);
  wait_for_all (fixture);
  for (guint i = 0; i < n_feeds; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);
      gboolean is_kept = i == under_way || i == (under_way + 1) % n_feeds;

      g_assert_cmpuint (lwn_test_server_count_requests (fixture->server, path), ==, is_kept ? 1 : 0);
    }
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, 1);
}

/* The program quits while feeds wait for their turn behind a slow request. */
static void
test_polite_quit (SetFixture *fixture,
                  gconstpointer data)
{
  guint n_feeds = 4;
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree LwnFeedSpec *specs = NULL;
  LwnFetchQueue *queue;
  gint64 deadline;

  g_test_summary ("The set shut down and dropped while one request is under way and three feeds wait: the waits "
                  "leave the queue at once, the request ends, and the queue goes with its last turn");

  specs = serve_many (fixture, 1, n_feeds, 1500, urls);
  make_set (fixture, specs[0].url);
  lwn_feed_set_set_feeds (fixture->set, specs, n_feeds);
  lwn_feed_set_start (fixture->set);
  wait_for_one_under_way (fixture, n_feeds);
  queue = set_queue (fixture);
  g_object_add_weak_pointer (G_OBJECT (queue), (gpointer *) &queue);

  lwn_feed_set_shutdown (fixture->set);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  g_clear_object (&fixture->set);
  /* The cancelled request's turn ends once its worker has stopped. */
  deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  while (queue != NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpuint (lwn_test_server_get_max_at_once (fixture->server), ==, 1);
}

/* --print of several feeds of one server, in a subprocess that owns stdout. */
static void
test_polite_print (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (LwnTestServer) server = lwn_test_server_new ();
      g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < 8; i++)
        {
          g_autofree char *path = g_strdup_printf ("/feed-%u", i);
          guint numbers[] = { i + 1 };
          g_autofree char *body = make_feed (numbers, 1);
          LwnTestRoute route = { .content_type = "application/rss+xml", .body = body, .delay_ms = 50 };

          lwn_test_server_add_route (server, path, &route);
          g_ptr_array_add (urls, lwn_test_server_dup_url (server, path));
        }
      g_ptr_array_add (urls, NULL);
      g_assert_cmpint (lwn_cli_run (LWN_CLI_FORMAT_TEXT, (const char *const *) urls->pdata), ==, 0);
      g_assert_cmpuint (lwn_test_server_get_max_at_once (server), ==, 1);
      return;
    }

  g_test_summary ("--print of eight feeds of one server, each answered after 50 ms: one request to it at a "
                  "time, and every feed printed in the order given");

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("# Test feed (http://127.0.0.1:*/feed-0)\n*"
                             "# Test feed (http://127.0.0.1:*/feed-7)\nHeadline 8\t*");
}

typedef struct
{
  const char *name;
  const char *html;
  const char *expected;
} HtmlCase;

static const HtmlCase html_cases[] = {
  { "rss", "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head></html>",
    "https://example.org/feed.xml" },
  { "first-of-several",
    "<head><link rel=stylesheet href=a.css><link rel=\"alternate\" type=\"application/atom+xml\" href=\"atom.xml\">"
    "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"rss.xml\"></head>",
    "https://example.org/blog/atom.xml" },
  { "rel-tokens-and-case", "<LINK REL=\"Feed Alternate\" TYPE=\"Application/RSS+XML; charset=utf-8\" HREF=\" x.rss \">",
    "https://example.org/blog/x.rss" },
  { "json-feed", "<link rel=alternate type=application/feed+json href=https://other.example/feed.json>",
    "https://other.example/feed.json" },
  { "base-href", "<head><base href=\"https://cdn.example/sub/\"><link rel=alternate type=application/rss+xml href=f></head>",
    "https://cdn.example/sub/f" },
  { "in-the-body", "<p>text<link rel=alternate type=application/rss+xml href=/late.xml></p>", "https://example.org/late.xml" },
  { "not-a-feed-type", "<link rel=alternate type=text/html href=/fr/ hreflang=fr>", NULL },
  { "not-alternate", "<link rel=stylesheet type=application/rss+xml href=/x>", NULL },
  { "not-http", "<link rel=alternate type=application/rss+xml href=\"javascript:alert(1)\">", NULL },
  { "nothing", "<html><body>Hello</body></html>", NULL },
  { "broken", "<html><head><link rel=alternate type=application/rss+xml href=/ok.xml", "https://example.org/ok.xml" },
};

static void
test_find_in_html (gconstpointer data)
{
  const HtmlCase *html_case = data;
  g_autoptr (GBytes) html = g_bytes_new_static (html_case->html, strlen (html_case->html));
  g_autofree char *found = lwn_feed_find_in_html (html, "https://example.org/blog/post.html");

  g_assert_cmpstr (found, ==, html_case->expected);
}

typedef struct
{
  gboolean done;
  gboolean ok;
  char *feed_url;
  char *title;
  GError *error;
} FindResult;

static void
find_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  FindResult *find = user_data;

  find->ok = lwn_feed_find_finish (result, &find->feed_url, &find->title, &find->error);
  find->done = TRUE;
}

static void
find (SetFixture *fixture,
      const char *path,
      FindResult *result)
{
  g_autofree char *url = lwn_test_server_dup_url (fixture->server, path);
  gint64 deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;

  lwn_feed_find_async (url, NULL, find_cb, result);
  while (!result->done)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
find_result_clear (FindResult *result)
{
  g_free (result->feed_url);
  g_free (result->title);
  g_clear_error (&result->error);
  memset (result, 0, sizeof *result);
}

/* An address typed in the preferences: a feed is itself; a page leads to
 * the feed it names; a page that names none, or a dead one, says why. */
static void
test_find (SetFixture *fixture,
           gconstpointer data)
{
  LwnTestRoute page = { .content_type = "text/html; charset=utf-8",
                        .body = "<!DOCTYPE html><html><head><title>A blog</title>"
                                "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed\"></head>"
                                "<body><p>Posts</p></body></html>" };
  LwnTestRoute plain = { .content_type = "text/html", .body = "<html><body>No feed here</body></html>" };
  LwnTestRoute broken_link = { .content_type = "text/html",
                               .body = "<link rel=alternate type=application/rss+xml href=/missing>" };
  LwnTestRoute missing = { .status = 404, .content_type = "text/plain", .body = "gone" };
  g_autofree char *feed_url = lwn_test_server_dup_url (fixture->server, "/feed");
  FindResult result = { 0 };

  serve_items (fixture, "/feed", 1, 2, 0);
  lwn_test_server_add_route (fixture->server, "/page", &page);
  lwn_test_server_add_route (fixture->server, "/plain", &plain);
  lwn_test_server_add_route (fixture->server, "/broken", &broken_link);
  lwn_test_server_add_route (fixture->server, "/missing", &missing);

  find (fixture, "/feed", &result);
  g_assert_no_error (result.error);
  g_assert_cmpstr (result.feed_url, ==, feed_url);
  g_assert_cmpstr (result.title, ==, "Test feed");
  find_result_clear (&result);

  find (fixture, "/page", &result);
  g_assert_no_error (result.error);
  g_assert_cmpstr (result.feed_url, ==, feed_url);
  g_assert_cmpstr (result.title, ==, "Test feed");
  find_result_clear (&result);

  find (fixture, "/plain", &result);
  g_assert_false (result.ok);
  g_assert_error (result.error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED);
  find_result_clear (&result);

  find (fixture, "/broken", &result);
  g_assert_false (result.ok);
  g_assert_nonnull (strstr (result.error->message, "/missing"));
  find_result_clear (&result);

  find (fixture, "/missing", &result);
  g_assert_false (result.ok);
  g_assert_nonnull (strstr (result.error->message, "404"));
  find_result_clear (&result);
}

/* Thirty feeds, four of which link to one article: the set knows those four by the article's address,
 * opening it reads it in them and in no other, and the index follows the feeds as one leaves the
 * article behind and another leaves the list. */
static void
test_link_index (SetFixture *fixture,
                 gconstpointer data)
{
  const guint sharing[] = { 0, 5, 12, 20 };
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  LwnFeedSpec specs[30];
  g_autofree char *shared_id = item_id (2, 0);
  g_autofree char *opened = NULL;
  const char *shared = "https://lwn.net/Articles/2/";

  g_test_summary ("An article opened is read in the feeds that link to it, found by its address, "
                  "which the set keeps up to date as feeds change");

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", i);
      /* Feed 0 has articles 1 and 2, the other sharing ones 2 and 3, the rest two of their own. */
      guint first = 100 * i;

      for (guint j = 1; j < G_N_ELEMENTS (sharing); j++)
        if (sharing[j] == i)
          first = 1;
      serve_items (fixture, path, first, 2, 0);
      g_ptr_array_add (urls, lwn_test_server_dup_url (fixture->server, path));
      specs[i] = (LwnFeedSpec){ .url = g_ptr_array_index (urls, i), .notify = TRUE };
    }
  make_set (fixture, specs[0].url);
  lwn_feed_set_set_spread (fixture->set, 0);
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  lwn_feed_set_start (fixture->set);
  wait_for_all (fixture);

  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, shared), ==, 4);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/1/"), ==, 1);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/3/"), ==, 3);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/701/"), ==, 1);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/9/"), ==, 0);

  opened = lwn_feed_set_open (fixture->set, specs[0].url, shared_id);
  g_assert_cmpstr (opened, ==, shared);
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      gboolean shares = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (sharing); j++)
        shares |= sharing[j] == i;
      g_assert_cmpuint (lwn_reader_get_n_unread (lwn_feed_set_get_reader (fixture->set, i)), ==, shares ? 1 : 2);
    }
  g_assert_cmpuint (lwn_feed_set_get_n_unread (fixture->set), ==, 2 * G_N_ELEMENTS (specs) - 4);

  /* Feed 12's next answer no longer has the article; feed 20 leaves the list. */
  serve_items (fixture, "/feed-12", 3, 2, 0);
  lwn_reader_refresh_due (lwn_feed_set_get_reader (fixture->set, 12));
  wait_for_reader (lwn_feed_set_get_reader (fixture->set, 12), "feed 12's new answer");
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, shared), ==, 3);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/3/"), ==, 2);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/5/"), ==, 1);
  lwn_feed_set_set_feeds (fixture->set, specs, 20);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, shared), ==, 2);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/3/"), ==, 1);
  g_assert_cmpuint (lwn_feed_set_count_link_feeds (fixture->set, "https://lwn.net/Articles/2101/"), ==, 0);
}

/* What the set announced: one record per #LwnFeedSet::announce. */
typedef struct
{
  char *feed;
  guint n_items;
  guint max_single;
} Announced;

static void
announced_free (Announced *announced)
{
  g_free (announced->feed);
  g_free (announced);
}

static void
announce_cb (LwnFeedSet *set,
             LwnReader *reader,
             GPtrArray *items,
             guint max_single,
             GPtrArray *log)
{
  Announced *announced = g_new0 (Announced, 1);

  announced->feed = g_strdup (lwn_reader_get_feed_url (reader));
  announced->n_items = items->len;
  announced->max_single = max_single;
  g_ptr_array_add (log, announced);
}

/* A set as make_set() makes it, but with notifications on, its announcements in @log. */
static void
make_announcing_set (SetFixture *fixture,
                     const char *first_feed_url,
                     GPtrArray *log)
{
  make_set (fixture, first_feed_url);
  lwn_feed_set_set_spread (fixture->set, 0);
  lwn_feed_set_set_notify (fixture->set, TRUE);
  g_signal_connect (fixture->set, "announce", G_CALLBACK (announce_cb), log);
}

/* Every feed has its answer and has saved it: what the saves were to announce has been. */
static void
wait_for_saved (SetFixture *fixture)
{
  gint64 deadline = g_get_monotonic_time () + SET_WAIT_SECONDS * G_USEC_PER_SEC;
  gboolean all = FALSE;

  while (!all)
    {
      all = TRUE;
      for (guint i = 0; i < lwn_feed_set_get_n_feeds (fixture->set); i++)
        {
          LwnReader *reader = lwn_feed_set_get_reader (fixture->set, i);

          all = all && reader_done (reader) && lwn_reader_saver_is_idle (reader->saver);
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static guint
count_announced (GPtrArray *log,
                 const char *feed)
{
  guint n = 0;

  for (guint i = 0; i < log->len; i++)
    if (g_str_equal (((Announced *) g_ptr_array_index (log, i))->feed, feed))
      n++;
  return n;
}

/* Feeds served from /feed-N, N from @first on, two items each, the feed's own; their specs in @specs. */
static void
serve_numbered (SetFixture *fixture,
                guint first,
                guint n,
                GPtrArray *urls,
                LwnFeedSpec *specs)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-%u", first + i);

      serve_items (fixture, path, 100 * (first + i), 2, 0);
      g_ptr_array_add (urls, lwn_test_server_dup_url (fixture->server, path));
      specs[first + i] = (LwnFeedSpec){ .url = g_ptr_array_index (urls, urls->len - 1), .notify = TRUE };
    }
}

/* One feed added, three added at once, or three found without history at a start, announce
 * their first runs, one group each; four added in one change, or found at a start, take theirs
 * quietly: unread, and announced neither then nor at the next start. What comes after a quiet
 * first run is announced as any feed's news. */
static void
test_quiet_first_runs (SetFixture *fixture,
                       gconstpointer data)
{
  gboolean at_start = GPOINTER_TO_INT (data);
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) log = g_ptr_array_new_with_free_func ((GDestroyNotify) announced_free);
  LwnFeedSpec specs[10];
  /* The feeds followed before the four that come together, which follow them in the list. */
  guint n_before = at_start ? 3 : 5;
  guint n_quiet = LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS + 1;
  g_autofree char *quiet_path = g_strdup_printf ("/feed-%u", n_before);
  LwnReader *quiet;
  Announced *last;

  g_test_summary (at_start ? "Past three feeds without history at a start, their first runs raise no notification"
                           : "Past three feeds added in one change, their first runs raise no notification");

  serve_numbered (fixture, 0, G_N_ELEMENTS (specs), urls, specs);
  make_announcing_set (fixture, specs[0].url, log);
  if (at_start)
    {
      /* Three feeds without history: each first run is announced as a group. */
      lwn_feed_set_set_feeds (fixture->set, specs, 3);
      lwn_feed_set_start (fixture->set);
      wait_for_saved (fixture);
      g_assert_cmpuint (log->len, ==, 3);
      for (guint i = 0; i < 3; i++)
        {
          g_assert_cmpuint (count_announced (log, specs[i].url), ==, 1);
          g_assert_cmpuint (((Announced *) g_ptr_array_index (log, i))->max_single, ==, 1);
        }

      /* The next start brings four more. Nothing showed the first three's announcements,
       * which come again; the four new ones announce nothing. */
      lwn_feed_set_shutdown (fixture->set);
      g_clear_object (&fixture->set);
      g_ptr_array_set_size (log, 0);
      make_announcing_set (fixture, specs[0].url, log);
      lwn_feed_set_set_feeds (fixture->set, specs, n_before + n_quiet);
      lwn_feed_set_start (fixture->set);
    }
  else
    {
      /* One feed, then one added to it: a group each. */
      lwn_feed_set_set_feeds (fixture->set, specs, 1);
      lwn_feed_set_start (fixture->set);
      wait_for_saved (fixture);
      g_assert_cmpuint (log->len, ==, 1);
      lwn_feed_set_set_feeds (fixture->set, specs, 2);
      wait_for_saved (fixture);
      g_assert_cmpuint (log->len, ==, 2);
      last = g_ptr_array_index (log, 1);
      g_assert_cmpstr (last->feed, ==, specs[1].url);
      g_assert_cmpuint (last->n_items, ==, 2);
      g_assert_cmpuint (last->max_single, ==, 1);
      g_ptr_array_set_size (log, 0);

      /* Then three at once: still a group each. */
      lwn_feed_set_set_feeds (fixture->set, specs, n_before);
      wait_for_saved (fixture);
      g_assert_cmpuint (log->len, ==, 3);
      for (guint i = 2; i < n_before; i++)
        g_assert_cmpuint (count_announced (log, specs[i].url), ==, 1);
      g_ptr_array_set_size (log, 0);

      /* Then four at once, as an import brings them. */
      lwn_feed_set_set_feeds (fixture->set, specs, n_before + n_quiet);
    }
  wait_for_saved (fixture);
  for (guint i = n_before; i < n_before + n_quiet; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (fixture->set, i);

      g_assert_cmpuint (count_announced (log, specs[i].url), ==, 0);
      g_assert_cmpuint (lwn_reader_get_n_unread (reader), ==, 2);
      g_assert_cmpint (lwn_reader_get_state (reader), ==, LWN_READER_STATE_READY);
    }
  g_assert_cmpuint (log->len, ==, at_start ? 3 : 0);
  g_ptr_array_set_size (log, 0);

  /* A quiet feed's next headline is announced on its own, as any feed's. */
  quiet = lwn_feed_set_get_reader (fixture->set, n_before);
  serve_items (fixture, quiet_path, 100 * n_before, 3, 0);
  lwn_reader_refresh_due (quiet);
  wait_for_saved (fixture);
  g_assert_cmpuint (log->len, ==, 1);
  last = g_ptr_array_index (log, 0);
  g_assert_cmpstr (last->feed, ==, specs[n_before].url);
  g_assert_cmpuint (last->n_items, ==, 1);
  g_assert_cmpuint (last->max_single, ==, LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
  g_assert_cmpuint (lwn_reader_get_n_unread (quiet), ==, 3);

  /* The next start: the quiet feeds left nothing of their first runs to announce again (no
   * server showed the later headline, which comes again alone), and one more feed without
   * history, alone, announces its first run. */
  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  g_ptr_array_set_size (log, 0);
  make_announcing_set (fixture, specs[0].url, log);
  lwn_feed_set_set_feeds (fixture->set, specs, n_before + n_quiet + 1);
  lwn_feed_set_start (fixture->set);
  wait_for_saved (fixture);
  for (guint i = n_before + 1; i < n_before + n_quiet; i++)
    g_assert_cmpuint (count_announced (log, specs[i].url), ==, 0);
  g_assert_cmpuint (count_announced (log, specs[n_before].url), ==, 1);
  g_assert_cmpuint (count_announced (log, specs[n_before + n_quiet].url), ==, 1);
  for (guint i = 0; i < log->len; i++)
    {
      last = g_ptr_array_index (log, i);
      if (g_str_equal (last->feed, specs[n_before].url))
        g_assert_cmpuint (last->n_items, ==, 1);
    }
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/feed-set/three-feeds", SetFixture, NULL, set_fixture_set_up, test_three_feeds, set_fixture_tear_down);
  g_test_add ("/feed-set/migration-keeps-marks", SetFixture, NULL, set_fixture_set_up, test_migration_keeps_marks,
              set_fixture_tear_down);
  g_test_add ("/feed-set/add-move-remove", SetFixture, NULL, set_fixture_set_up, test_add_move_remove,
              set_fixture_tear_down);
  g_test_add ("/feed-set/feed-removed", SetFixture, NULL, set_fixture_set_up, test_feed_removed, set_fixture_tear_down);
  g_test_add ("/feed-set/shared-ids/impostor-after", SetFixture, GINT_TO_POINTER (FALSE), set_fixture_set_up,
              test_shared_ids, set_fixture_tear_down);
  g_test_add ("/feed-set/shared-ids/impostor-first", SetFixture, GINT_TO_POINTER (TRUE), set_fixture_set_up,
              test_shared_ids, set_fixture_tear_down);
  g_test_add ("/feed-set/removed-forgotten", SetFixture, NULL, set_fixture_set_up, test_removed_forgotten,
              set_fixture_tear_down);
  g_test_add ("/feed-set/added-in-turn", SetFixture, NULL, set_fixture_set_up, test_added_in_turn,
              set_fixture_tear_down);
  g_test_add ("/feed-set/gone-while-loading", SetFixture, NULL, set_fixture_set_up, test_gone_while_loading,
              set_fixture_tear_down);
  g_test_add ("/feed-set/polite/one-host", SetFixture, NULL, set_fixture_set_up, test_polite_one_host,
              set_fixture_tear_down);
  g_test_add ("/feed-set/polite/hosts", SetFixture, NULL, set_fixture_set_up, test_polite_hosts, set_fixture_tear_down);
  g_test_add ("/feed-set/polite/removed-while-waiting", SetFixture, NULL, set_fixture_set_up, test_polite_removed,
              set_fixture_tear_down);
  g_test_add_func ("/feed-set/polite/print", test_polite_print);
  g_test_add ("/feed-set/polite/quit-while-waiting", SetFixture, NULL, set_fixture_set_up, test_polite_quit,
              set_fixture_tear_down);
  g_test_add_func ("/feed-set/settings/migration", test_settings_migration);
  g_test_add_func ("/feed-set/settings/default", test_settings_default);
  g_test_add ("/feed-set/settings/import", SetFixture, NULL, set_fixture_set_up, test_settings_import,
              set_fixture_tear_down);
  g_test_add ("/feed-set/find", SetFixture, NULL, set_fixture_set_up, test_find, set_fixture_tear_down);
  g_test_add ("/feed-set/link-index", SetFixture, NULL, set_fixture_set_up, test_link_index, set_fixture_tear_down);
  g_test_add ("/feed-set/quiet-first-runs/added", SetFixture, GINT_TO_POINTER (FALSE), set_fixture_set_up,
              test_quiet_first_runs, set_fixture_tear_down);
  g_test_add ("/feed-set/quiet-first-runs/start", SetFixture, GINT_TO_POINTER (TRUE), set_fixture_set_up,
              test_quiet_first_runs, set_fixture_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (html_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-set/find-in-html/%s", html_cases[i].name);

      g_test_add_data_func (path, &html_cases[i], test_find_in_html);
    }

  return g_test_run ();
}
