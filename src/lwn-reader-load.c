/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's loading: a refresh through the feed loader and what its answer means (a new feed,
 * 304, a move, 410, 429, a failure), and the saved copy shown at start-up. */

#include "config.h"

#include "lwn-feed-load.h"
#include "lwn-feed-parser.h"
#include "lwn-reader-private.h"

static void
apply_success (LwnReader *self,
               LwnFeed *feed,
               LwnFetchResponse *response)
{
  const char *url = lwn_reader_get_current_url (self);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  guint delay;

  self->stopped = FALSE;
  lwn_reader_set_error (self, NULL);
  lwn_store_set_last_success (self->store, now);

  if (feed != NULL)
    {
      lwn_store_set_validators (self->store, url, lwn_fetch_response_get_etag (response),
                                lwn_fetch_response_get_last_modified (response));
      lwn_reader_show_feed (self, feed);
      lwn_reader_save_take_new_items (self, feed);
      lwn_reader_save_schedule (self);
    }
  else if (self->feed == NULL)
    /* 304 to a request without validators: a confused server; forget them
     * anyway, so that the next poll cannot be conditional. */
    lwn_store_set_validators (self->store, url, NULL, NULL);
  else if (self->save_error != NULL || self->unannounced->len > 0)
    /* A 304 changes only the time of success, not worth a write at every
     * poll; but a save that failed is retried at each chance. */
    lwn_reader_save_schedule (self);

  delay = lwn_scheduler_record_success (self->scheduler,
                                        self->feed != NULL ? lwn_feed_get_refresh_seconds (self->feed) : 0,
                                        lwn_fetch_response_get_max_age (response));
  g_debug ("Refreshed %s; next in %u s", feed != NULL ? "with a new feed" : "(not modified)", delay);
}

static void
apply_failure (LwnReader *self,
               const GError *error,
               LwnFetchResponse *response)
{
  guint status = response != NULL ? lwn_fetch_response_get_status (response) : 0;
  LwnReaderState old_state = lwn_reader_get_state (self);

  g_message ("Could not load %s: %s", lwn_reader_get_current_url (self), error->message);
  lwn_reader_set_error (self, error->message);

  if (status == 410)
    {
      self->stopped = TRUE;
      lwn_scheduler_stop_polling (self->scheduler);
    }
  else
    {
      gint64 retry_after = (status == 429 || status == 503) ? lwn_fetch_response_get_retry_after (response) : -1;
      guint delay = lwn_scheduler_record_failure (self->scheduler, retry_after);

      g_debug ("Next attempt in %u s", delay);
    }

  if (self->save_error != NULL)
    lwn_reader_save_schedule (self);
  if (lwn_reader_get_state (self) != old_state)
    lwn_reader_notify_state (self);
}

static void
load_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  LwnReader *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  ok = lwn_feed_load_finish (result, &feed, &response, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  lwn_reader_set_refreshing (self, FALSE);
  self->last_request_us = g_get_monotonic_time ();
  self->manual_unchanged = self->manual && ok && feed == NULL;
  self->manual = FALSE;

  /* Before anything is stored: validators and the cache belong to the new address. */
  if (response != NULL && lwn_fetch_response_get_moved_to_url (response) != NULL)
    {
      g_message ("The feed moved permanently to %s", lwn_fetch_response_get_moved_to_url (response));
      lwn_store_set_moved_url (self->store, self->feed_url, lwn_fetch_response_get_moved_to_url (response));
      lwn_reader_save_schedule (self);
    }

  if (ok)
    apply_success (self, feed, response);
  else
    apply_failure (self, error, response);
  /* What an earlier run left to announce goes out with the save of the first
   * answer, whatever it is, as what a refresh brings does. */
  if (self->retell->len > 0)
    lwn_reader_save_schedule (self);
  /* Any answer, or none, is a moment to look at the clock. */
  lwn_reader_reminders_check (self);
  lwn_reader_update (self);
}

void
lwn_reader_load_refresh (LwnReader *self)
{
  const char *url = lwn_reader_get_current_url (self);
  g_autofree char *cache_path = lwn_store_dup_feed_cache_path (self->store, url);
  LwnFetchRequest request = {
    .url = url,
    .etag = lwn_store_get_etag (self->store, url),
    .last_modified = lwn_store_get_last_modified (self->store, url),
  };

  /* Never two at once: a timer or click during a refresh is already served. */
  if (self->refreshing)
    return;

  /* Without something to show, a 304 would leave the views empty. */
  if (self->feed == NULL)
    request.etag = request.last_modified = NULL;

  g_clear_handle_id (&self->manual_id, g_source_remove);
  lwn_reader_set_refreshing (self, TRUE);
  g_debug ("Refreshing %s", url);
  lwn_feed_load_async (&request, cache_path, self->cancellable, load_cb, self);
  lwn_reader_emit_changed (self);
}

/* The first poll waits for the saved copy: with it shown, the request can be
 * conditional, and an unchanged feed costs a 304. */
static void
start_polling (LwnReader *self)
{
  if (self->polling)
    return;

  self->polling = TRUE;
  lwn_scheduler_start (self->scheduler, 0);
}

static void
cache_parsed_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  LwnReader *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;

  feed = lwn_feed_parse_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  if (feed == NULL)
    g_warning ("Ignoring the saved copy of the feed: %s", error->message);
  else if (self->feed == NULL)
    {
      g_debug ("Showing %u saved headlines", lwn_feed_get_n_items (feed));
      lwn_reader_show_feed (self, feed);
      lwn_reader_update (self);
    }
  start_polling (self);
}

static void
cache_read_cb (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  LwnReader *self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) body = NULL;
  g_autofree char *content_type = NULL;

  body = lwn_store_load_feed_body_finish (LWN_STORE (source), result, &content_type, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  if (body == NULL)
    {
      if (error != NULL)
        g_warning ("Could not read the saved copy of the feed: %s", error->message);
      start_polling (self);
      return;
    }

  /* A network answer that came first is newer. */
  if (self->feed == NULL)
    lwn_feed_parse_async (body, content_type, lwn_reader_get_current_url (self), self->cancellable, cache_parsed_cb, self);
  else
    start_polling (self);
}

void
lwn_reader_load_cache (LwnReader *self)
{
  lwn_store_load_feed_body_async (self->store, lwn_reader_get_current_url (self), self->cancellable, cache_read_cb, self);
}
