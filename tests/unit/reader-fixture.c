/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the reading model's tests share: a reader on a local HTTP server, feeds to serve, and waiting. */

#include "config.h"

#include <string.h>

#include "reader-fixture.h"

/* The guid of item @number: its article URL, padded with a query to
 * @length bytes when that is longer. */
char *
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
char *
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

char *
make_feed (const guint *numbers,
           guint n)
{
  return make_feed_full (numbers, n, 0);
}

void
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

void
serve (Fixture *fixture,
       const guint *numbers,
       guint n,
       const char *etag)
{
  serve_full (fixture, numbers, n, 0, etag);
}

void
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

  /* As a notification server would, once it showed them. */
  if (!fixture->no_server)
    {
      g_autofree const char **shown = g_new0 (const char *, ids->len + 1);

      memcpy (shown, ids->pdata, ids->len * sizeof (char *));
      lwn_reader_mark_shown (reader, shown);
    }
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

void
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

void
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

void
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

void
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
void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 300 * 1000;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

gboolean
is_ready (Fixture *fixture)
{
  return lwn_reader_get_state (fixture->reader) == LWN_READER_STATE_READY && !lwn_reader_get_loading (fixture->reader);
}

gboolean
is_failed (Fixture *fixture)
{
  return lwn_reader_get_error (fixture->reader) != NULL && !lwn_reader_get_loading (fixture->reader);
}

gboolean
is_saved (Fixture *fixture)
{
  return lwn_reader_saver_is_idle (fixture->reader->saver);
}

/* Lets every pending idle and worker finish, then waits for the saves to end:
 * under a loaded machine or the sanitizers a write can take longer than settle(). */
void
settle_saves (Fixture *fixture)
{
  settle ();
  wait_until (fixture, is_saved, "the saves to end");
}

gboolean
has_announced (Fixture *fixture)
{
  return fixture->announced->len > 0;
}

gboolean
has_alert (Fixture *fixture)
{
  return fixture->alerts->len > 0;
}

gboolean
not_refreshing (Fixture *fixture)
{
  return !lwn_reader_get_loading (fixture->reader);
}

void
start_and_load (Fixture *fixture)
{
  lwn_reader_start (fixture->reader);
  wait_until (fixture, is_ready, "the first feed");
}

GPtrArray *
announced (Fixture *fixture,
           guint index)
{
  g_assert_cmpuint (index, <, fixture->announced->len);
  return g_ptr_array_index (fixture->announced, index);
}

LwnHeadline *
headline_at (Fixture *fixture,
             guint index)
{
  GListModel *headlines = lwn_reader_get_headlines (fixture->reader);
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, index);

  /* The model keeps its own reference. */
  return headline;
}

gboolean
has_wanted_requests (Fixture *fixture)
{
  return lwn_test_server_count_requests (fixture->server, FEED_PATH) >= fixture->want_requests
         && !lwn_reader_get_loading (fixture->reader);
}
