/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The desktop's search: headlines found across feeds in a worker, and the provider's D-Bus answers,
 * a caller's replaced search, and searches that outlive the provider that started them. */

#include "config.h"

#include <sys/socket.h>

#include <gio/gio.h>

#include "lwn-feed-set.h"
#include "lwn-headline-search.h"
#include "lwn-headline.h"
#include "lwn-search-provider.h"
#include "reader-fixture.h"

#define BIG_ITEMS 5000
/* Parsing 5,000 items takes seconds under the sanitizers. */
#define LOAD_WAIT_SECONDS 120
#define SHELL_PATH "/io/github/lwntray/LwnTray/SearchProvider"
#define KRUNNER_PATH "/io/github/lwntray/LwnTray/KRunner"
#define SHELL_IFACE "org.gnome.Shell.SearchProvider2"

typedef struct
{
  LwnTestServer *server;
  char *root;
  char *big_url;
  char *small_url;
  LwnFeedSet *set;
} SearchFixture;

static void
serve_numbers (SearchFixture *fixture,
               const char *path,
               guint first,
               guint n)
{
  g_autofree guint *numbers = g_new (guint, n);
  g_autofree char *body = NULL;
  LwnTestRoute route = { .content_type = "application/rss+xml" };

  for (guint i = 0; i < n; i++)
    numbers[i] = first + i;
  body = make_feed (numbers, n);
  route.body = body;
  lwn_test_server_add_route (fixture->server, path, &route);
}

static gboolean
loaded (LwnFeedSet *set)
{
  for (guint i = 0; i < lwn_feed_set_get_n_feeds (set); i++)
    if (lwn_reader_get_feed (lwn_feed_set_get_reader (set, i)) == NULL)
      return FALSE;
  return TRUE;
}

static void
fixture_up (SearchFixture *fixture,
            gconstpointer data)
{
  g_autofree char *state = NULL;
  g_autofree char *cache = NULL;
  gint64 deadline = g_get_monotonic_time () + LOAD_WAIT_SECONDS * G_USEC_PER_SEC;
  LwnFeedSpec specs[2] = { 0 };

  fixture->server = lwn_test_server_new ();
  fixture->root = g_dir_make_tmp ("lwn-search-XXXXXX", NULL);
  state = g_build_filename (fixture->root, "state", NULL);
  cache = g_build_filename (fixture->root, "cache", NULL);
  serve_numbers (fixture, "/big", 1, BIG_ITEMS);
  serve_numbers (fixture, "/small", 900001, 3);
  fixture->big_url = lwn_test_server_dup_url (fixture->server, "/big");
  fixture->small_url = lwn_test_server_dup_url (fixture->server, "/small");

  fixture->set = lwn_feed_set_new (state, cache, fixture->big_url);
  lwn_feed_set_set_spread (fixture->set, 1);
  lwn_feed_set_set_notify (fixture->set, FALSE);
  specs[0] = (LwnFeedSpec){ .url = fixture->big_url, .name = "Big", .notify = TRUE };
  specs[1] = (LwnFeedSpec){ .url = fixture->small_url, .name = "Small", .notify = TRUE };
  lwn_feed_set_set_feeds (fixture->set, specs, G_N_ELEMENTS (specs));
  lwn_feed_set_start (fixture->set);
  while (!loaded (fixture->set))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out loading the feeds");
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
fixture_down (SearchFixture *fixture,
              gconstpointer data)
{
  lwn_feed_set_shutdown (fixture->set);
  /* The last saves are written in workers, which the test must not end before. */
  settle ();
  g_clear_object (&fixture->set);
  g_clear_pointer (&fixture->server, lwn_test_server_free);
  g_free (fixture->big_url);
  g_free (fixture->small_url);
  g_free (fixture->root);
}

static void
got_result_cb (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* The key of the item at @position of the feed at @url, as the parser named it. */
static char *
key_of (SearchFixture *fixture,
        const char *url,
        guint position)
{
  LwnFeed *feed = lwn_reader_get_feed (lwn_feed_set_find_url (fixture->set, url));

  return lwn_headline_key_new (url, lwn_feed_item_get_id (lwn_feed_get_item (feed, position)));
}

static char **
search (SearchFixture *fixture,
        const char *const *terms,
        const char *const *within,
        GCancellable *cancellable,
        GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  lwn_headline_search_async (fixture->set, terms, within, LWN_HEADLINE_SEARCH_MAX, cancellable, got_result_cb, &result);
  return lwn_headline_search_finish (wait_result (&result), error);
}

static void
test_across_feeds (SearchFixture *fixture,
                   gconstpointer data)
{
  const char *const small_only[] = { "HEADLINE", "900002", NULL };
  const char *const every[] = { "headline", NULL };
  const char *const none[] = { NULL };
  g_autofree char *expected = key_of (fixture, fixture->small_url, 1);
  g_autofree char *first_big = key_of (fixture, fixture->big_url, 0);
  g_auto (GStrv) found = NULL;
  g_auto (GStrv) all = NULL;
  g_auto (GStrv) nothing = NULL;

  g_test_summary ("Words are found in the second feed too, case set aside; a search that matches 5,003 headlines "
                  "gives a few, and one without words none");

  found = search (fixture, small_only, NULL, NULL, NULL);
  g_assert_cmpstrv (found, ((const char *const[]){ expected, NULL }));

  all = search (fixture, every, NULL, NULL, NULL);
  g_assert_cmpuint (g_strv_length (all), ==, LWN_HEADLINE_SEARCH_MAX);
  /* Undated: the feeds' order, then each feed's own. */
  g_assert_cmpstr (all[0], ==, first_big);

  nothing = search (fixture, none, NULL, NULL, NULL);
  g_assert_cmpuint (g_strv_length (nothing), ==, 0);
}

static void
test_within (SearchFixture *fixture,
             gconstpointer data)
{
  const char *const words[] = { "summary", NULL };
  g_autofree char *a = key_of (fixture, fixture->big_url, 4998);
  g_autofree char *b = key_of (fixture, fixture->small_url, 2);
  g_autofree char *gone = lwn_headline_key_new (fixture->small_url, "no such id");
  const char *const within[] = { gone, b, a, NULL };
  g_auto (GStrv) found = NULL;

  g_test_summary ("A refined search keeps only the earlier results that match, in the feeds' order");

  found = search (fixture, words, within, NULL, NULL);
  g_assert_cmpstrv (found, ((const char *const[]){ a, b, NULL }));
}

static void
test_cancelled (SearchFixture *fixture,
                gconstpointer data)
{
  const char *const words[] = { "headline", NULL };
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) found = NULL;

  g_test_summary ("A search cancelled gives no results but the error that says so");

  g_cancellable_cancel (cancellable);
  found = search (fixture, words, NULL, cancellable, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_outlives_set (SearchFixture *fixture,
                   gconstpointer data)
{
  const char *const words[] = { "headline", NULL };
  g_autoptr (GAsyncResult) result = NULL;
  g_auto (GStrv) found = NULL;

  g_test_summary ("A search still running when the feeds are shut down and let go ends with its results");

  lwn_headline_search_async (fixture->set, words, NULL, 3, NULL, got_result_cb, &result);
  lwn_feed_set_shutdown (fixture->set);
  g_clear_object (&fixture->set);
  found = lwn_headline_search_finish (wait_result (&result), NULL);
  g_assert_cmpuint (g_strv_length (found), ==, 3);
  fixture->set = lwn_feed_set_new (NULL, NULL, fixture->big_url);
}

static void
call_done_cb (GObject *source,
              GAsyncResult *result,
              gpointer user_data)
{
  GVariant **slot = user_data;
  g_autoptr (GError) error = NULL;

  *slot = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  g_assert_no_error (error);
}

static void
call_async (GDBusConnection *connection,
            const char *path,
            const char *interface,
            const char *method,
            GVariant *args,
            const char *reply_type,
            GVariant **slot)
{
  g_dbus_connection_call (connection, NULL, path, interface, method, args, G_VARIANT_TYPE (reply_type),
                          G_DBUS_CALL_FLAGS_NONE, 10000, NULL, call_done_cb, slot);
}

static void
server_made_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(GDBusConnection **) user_data = g_dbus_connection_new_finish (result, &error);
  g_assert_no_error (error);
}

static GIOStream *
socket_stream (int fd)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocket) socket = g_socket_new_from_fd (fd, &error);

  g_assert_no_error (error);
  return G_IO_STREAM (g_socket_connection_factory_create_connection (socket));
}

/* Two ends of a private D-Bus conversation, without a bus: the provider's and
 * its caller's. */
static void
make_pair (GDBusConnection **server,
           GDBusConnection **client)
{
  int fds[2];
  g_autofree char *guid = g_dbus_generate_guid ();
  g_autoptr (GIOStream) server_stream = NULL;
  g_autoptr (GIOStream) client_stream = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), ==, 0);
  server_stream = socket_stream (fds[0]);
  client_stream = socket_stream (fds[1]);
  *server = NULL;
  g_dbus_connection_new (server_stream, guid, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_SERVER, NULL, NULL,
                         server_made_cb, server);
  *client = g_dbus_connection_new_sync (client_stream, NULL, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT, NULL, NULL,
                                        &error);
  g_assert_no_error (error);
  while (*server == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
wait_replies (GVariant **replies,
              guint n)
{
  for (guint i = 0; i < n; i++)
    while (replies[i] == NULL)
      g_main_context_iteration (NULL, TRUE);
}

static guint
n_results (GVariant *reply)
{
  g_autoptr (GVariant) results = g_variant_get_child_value (reply, 0);

  return (guint) g_variant_n_children (results);
}

static void
test_provider_replaced_and_gone (SearchFixture *fixture,
                                 gconstpointer data)
{
  g_autoptr (GDBusConnection) server = NULL;
  g_autoptr (GDBusConnection) connection = NULL;
  g_autoptr (LwnSearchProvider) provider = lwn_search_provider_new ();
  g_autoptr (GError) error = NULL;
  GVariant *replies[2] = { NULL };
  GVariant *after[1] = { NULL };

  g_test_summary ("Over a private D-Bus connection: a caller's second search replaces its first, which is answered with nothing; a "
                  "search under way when the provider goes is answered with nothing, and its worker ends after it");

  make_pair (&server, &connection);
  lwn_search_provider_set_feeds (provider, fixture->set);
  g_assert_true (lwn_search_provider_register (provider, server, SHELL_PATH, KRUNNER_PATH, &error));
  g_assert_no_error (error);

  /* Two searches back to back, as typing sends them. */
  call_async (connection, SHELL_PATH, SHELL_IFACE, "GetInitialResultSet", g_variant_new_parsed ("(['headline'],)"),
              "(as)", &replies[0]);
  call_async (connection, SHELL_PATH, SHELL_IFACE, "GetInitialResultSet",
              g_variant_new_parsed ("(['headline', '900001'],)"), "(as)", &replies[1]);
  /* Both reach the provider's side before its loop turns: it takes them in
   * one turn, before the first search's worker can answer. */
  g_usleep (G_USEC_PER_SEC / 2);
  wait_replies (replies, 2);
  g_assert_cmpuint (n_results (replies[0]), ==, 0);
  g_assert_cmpuint (n_results (replies[1]), ==, 1);

  /* A search under way, then the provider goes before the worker is done:
   * the worker's answer is queued for a later turn of the loop than the one
   * that started it. */
  call_async (connection, SHELL_PATH, SHELL_IFACE, "GetInitialResultSet", g_variant_new_parsed ("(['summary'],)"),
              "(as)", &after[0]);
  while (lwn_search_provider_get_n_searching (provider) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_clear_object (&provider);
  wait_replies (after, 1);
  g_assert_cmpuint (n_results (after[0]), ==, 0);
  /* The worker's end, with no provider to answer for. */
  for (guint i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }

  g_variant_unref (replies[0]);
  g_variant_unref (replies[1]);
  g_variant_unref (after[0]);
  g_dbus_connection_close_sync (connection, NULL, NULL);
  g_dbus_connection_close_sync (server, NULL, NULL);
}

static void
test_provider_waits_for_first_load (SearchFixture *fixture,
                                    gconstpointer data)
{
  g_autoptr (GDBusConnection) server = NULL;
  g_autoptr (GDBusConnection) connection = NULL;
  g_autoptr (LwnSearchProvider) provider = lwn_search_provider_new ();
  g_autoptr (LwnFeedSet) set = NULL;
  g_autofree char *slow_url = lwn_test_server_dup_url (fixture->server, "/slow");
  g_autofree char *state = g_build_filename (fixture->root, "slow-state", NULL);
  g_autofree char *cache = g_build_filename (fixture->root, "slow-cache", NULL);
  g_autofree char *body = NULL;
  const guint numbers[] = { 777001, 777002 };
  LwnTestRoute route = { .content_type = "application/rss+xml", .delay_ms = 500 };
  g_autoptr (GError) error = NULL;
  GVariant *reply = NULL;

  g_test_summary ("A search that comes while the feeds load, as when the search itself started the applet, "
                  "waits for their first headlines and finds them");

  body = make_feed (numbers, G_N_ELEMENTS (numbers));
  route.body = body;
  lwn_test_server_add_route (fixture->server, "/slow", &route);
  set = lwn_feed_set_new (state, cache, slow_url);
  lwn_feed_set_set_notify (set, FALSE);
  lwn_feed_set_set_feeds (set, &(LwnFeedSpec){ .url = slow_url, .name = "Slow", .notify = TRUE }, 1);
  lwn_feed_set_start (set);

  make_pair (&server, &connection);
  lwn_search_provider_set_feeds (provider, set);
  g_assert_true (lwn_search_provider_register (provider, server, SHELL_PATH, KRUNNER_PATH, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lwn_reader_get_state (lwn_feed_set_get_reader (set, 0)), ==, LWN_READER_STATE_LOADING);
  call_async (connection, SHELL_PATH, SHELL_IFACE, "GetInitialResultSet", g_variant_new_parsed ("(['777002'],)"),
              "(as)", &reply);
  wait_replies (&reply, 1);
  g_assert_cmpuint (n_results (reply), ==, 1);
  g_variant_unref (reply);

  lwn_search_provider_unregister (provider);
  g_dbus_connection_close_sync (connection, NULL, NULL);
  g_dbus_connection_close_sync (server, NULL, NULL);
  lwn_feed_set_shutdown (set);
  settle ();
}

int
main (int argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* Idle workers stay: one that ended while the process ends could not be
   * stopped for the leak checker, which would take its thread-local data for leaks. */
  g_thread_pool_set_max_unused_threads (-1);
  g_thread_pool_set_max_idle_time (0);

  g_test_add ("/headline-search/across-feeds", SearchFixture, NULL, fixture_up, test_across_feeds, fixture_down);
  g_test_add ("/headline-search/within", SearchFixture, NULL, fixture_up, test_within, fixture_down);
  g_test_add ("/headline-search/cancelled", SearchFixture, NULL, fixture_up, test_cancelled, fixture_down);
  g_test_add ("/headline-search/outlives-set", SearchFixture, NULL, fixture_up, test_outlives_set, fixture_down);
  g_test_add ("/search-provider/replaced-and-gone", SearchFixture, NULL, fixture_up, test_provider_replaced_and_gone,
              fixture_down);
  g_test_add ("/search-provider/waits-for-first-load", SearchFixture, NULL, fixture_up,
              test_provider_waits_for_first_load, fixture_down);
  status = g_test_run ();
  return status;
}
