/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file does one refresh's worth of work off the main thread: it downloads the feed, checks the status and parses the body. */

#include "config.h"

#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include "lwn-feed-load.h"
#include "lwn-feed-parser.h"
#include "lwn-store.h"

/* Loading documents of this size in all (one large feed, or the first
 * loads of many feeds) leaves freed memory between the items they made,
 * which the allocator keeps unless asked. Asking costs some ten
 * milliseconds, and as much again when the next load touches those pages
 * anew, so it is done only once that much was parsed since the last time
 * (LWN's headlines are some 20 KB: once in six polls), once loads have
 * stopped for a few seconds. */
#define GIVE_BACK_AFTER_BYTES (128 * 1024)
#define GIVE_BACK_QUIET_SECONDS 3

typedef struct
{
  char *url;
  char *etag;
  char *last_modified;
  LwnFetchLimits limits;
  gboolean has_limits;
  char *cache_path;  /* where a new body is kept for offline starts; NULL keeps it nowhere */
  LwnFeed *previous; /* the feed shown now, whose unchanged items the new one takes over */
  /* Written by the worker before the task returns; read by _finish. */
  LwnFetchResponse *response;
} LoadData;

/* The source tag is the address of this variable rather than of the function,
 * because ISO C has no conversion from a function pointer to an object pointer. */
static char load_source_tag;

static void
load_data_free (LoadData *data)
{
  g_free (data->url);
  g_free (data->etag);
  g_free (data->last_modified);
  g_free (data->cache_path);
  g_clear_pointer (&data->previous, lwn_feed_unref);
  g_clear_pointer (&data->response, lwn_fetch_response_unref);
  g_free (data);
}

/**
 * lwn_feed_load_sync:
 * @request: what to fetch
 * @out_feed: (out) (optional) (transfer full) (nullable): the parsed feed;
 *   %NULL when the server answered 304 Not Modified
 * @out_response: (out) (optional) (transfer full) (nullable): the server's
 *   response whenever one arrived, also when this function fails (so the
 *   caller can honour Retry-After or a permanent redirect)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Fetches @request and parses the body. Blocks: call it from a worker thread,
 * or use lwn_feed_load_async().
 *
 * Returns: %TRUE on 200 with a feed or on 304; %FALSE with @error set in the
 *   %LWN_FETCH_ERROR, %LWN_PARSE_ERROR or %G_IO_ERROR (cancelled) domains
 */
gboolean
lwn_feed_load_sync (const LwnFetchRequest *request,
                    LwnFeed **out_feed,
                    LwnFetchResponse **out_response,
                    GCancellable *cancellable,
                    GError **error)
{
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (request != NULL && request->url != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  response = lwn_fetch_sync (request, cancellable, error);
  if (response == NULL)
    goto out;

  if (!lwn_fetch_response_check (response, error))
    goto out;

  if (!lwn_fetch_response_is_not_modified (response))
    {
      feed = lwn_feed_parse (lwn_fetch_response_get_body (response),
                             lwn_fetch_response_get_content_type (response),
                             lwn_fetch_response_get_effective_url (response),
                             error);
      if (feed == NULL)
        goto out;
    }

  ok = TRUE;

out:
  if (out_feed != NULL)
    *out_feed = g_steal_pointer (&feed);
  if (out_response != NULL)
    *out_response = g_steal_pointer (&response);
  return ok;
}

static void
load_thread (GTask *task,
             gpointer source_object,
             gpointer task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  LwnFetchRequest request = {
    .url = data->url,
    .etag = data->etag,
    .last_modified = data->last_modified,
    .limits = data->has_limits ? &data->limits : NULL,
  };
  LwnFeed *feed = NULL;
  GError *error = NULL;

  gboolean ok = lwn_feed_load_sync (&request, &feed, &data->response, cancellable, &error);
  GBytes *body = data->response != NULL ? lwn_fetch_response_get_body (data->response) : NULL;

  if (ok && feed != NULL)
    {
      g_autoptr (GError) cache_error = NULL;

      lwn_feed_prepare_display (feed, data->previous);
      /* This thread already holds the body, so the cache is written here and the
       * main thread never writes it. */
      if (data->cache_path != NULL
          && !lwn_store_write_feed_cache (data->cache_path, body,
                                          lwn_fetch_response_get_content_type (data->response), &cache_error))
        g_warning ("Could not keep a copy of the feed for offline starts: %s", cache_error->message);
    }

  if (ok)
    g_task_return_pointer (task, feed, (GDestroyNotify) lwn_feed_unref);
  else
    g_task_return_error (task, error);
}

/**
 * lwn_feed_load_async:
 * @request: what to fetch; copied, so it may go away after the call
 * @cache_path: (nullable): a file to keep a new feed's body in (see
 *   lwn_store_write_feed_cache()), written by the worker after the body
 *   parsed; a failure to write it is logged, not returned
 * @previous: (nullable): the feed shown now: the items a new feed repeats
 *   unchanged are taken from it, with the text made from them so far
 * @cancellable: (nullable): cancels the transfer promptly
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Runs lwn_feed_load_sync() in a worker thread, which also takes from
 * @previous the items that did not change (lwn_feed_prepare_display()).
 */
void
lwn_feed_load_async (const LwnFetchRequest *request,
                     const char *cache_path,
                     LwnFeed *previous,
                     GCancellable *cancellable,
                     GAsyncReadyCallback callback,
                     gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (request != NULL && request->url != NULL);

  data = g_new0 (LoadData, 1);
  data->url = g_strdup (request->url);
  data->etag = g_strdup (request->etag);
  data->last_modified = g_strdup (request->last_modified);
  data->cache_path = g_strdup (cache_path);
  data->previous = previous != NULL ? lwn_feed_ref (previous) : NULL;
  if (request->limits != NULL)
    {
      data->limits = *request->limits;
      data->has_limits = TRUE;
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &load_source_tag);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * lwn_feed_load_finish:
 * @result: the #GAsyncResult passed to the callback
 * @out_feed: (out) (optional) (transfer full) (nullable): as for lwn_feed_load_sync()
 * @out_response: (out) (optional) (transfer full) (nullable): as for lwn_feed_load_sync()
 * @error: return location for a #GError
 *
 * Returns: as lwn_feed_load_sync()
 */
#ifdef HAVE_MALLOC_TRIM
static void
give_back_thread (GTask *task,
                  gpointer source_object,
                  gpointer task_data,
                  GCancellable *cancellable)
{
  malloc_trim (0);
  g_task_return_boolean (task, TRUE);
}

/* The allocator is the whole process's: so are this timer and this count. */
static guint give_back_id;
static gsize parsed_since_give_back; /* bytes of documents parsed since the last give-back */

/* Runs long after the load's callback dropped the old feed and the body. */
static gboolean
give_back_memory_cb (gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, NULL, NULL, NULL);

  give_back_id = 0;
  parsed_since_give_back = 0;
  g_task_run_in_thread (task, give_back_thread);
  return G_SOURCE_REMOVE;
}
#endif

gboolean
lwn_feed_load_finish (GAsyncResult *result,
                      LwnFeed **out_feed,
                      LwnFetchResponse **out_response,
                      GError **error)
{
  GTask *task = G_TASK (result);
  LoadData *data;
  LwnFeed *feed;
  GError *local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (task) == &load_source_tag, FALSE);

  data = g_task_get_task_data (task);
  feed = g_task_propagate_pointer (task, &local_error);
#ifdef HAVE_MALLOC_TRIM
  if (feed != NULL && data->response != NULL)
    parsed_since_give_back += g_bytes_get_size (lwn_fetch_response_get_body (data->response));
  if (parsed_since_give_back >= GIVE_BACK_AFTER_BYTES)
    {
      g_clear_handle_id (&give_back_id, g_source_remove);
      give_back_id = g_timeout_add_seconds_full (G_PRIORITY_LOW, GIVE_BACK_QUIET_SECONDS, give_back_memory_cb, NULL, NULL);
    }
#endif

  if (out_response != NULL)
    *out_response = g_steal_pointer (&data->response);

  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  if (out_feed != NULL)
    *out_feed = feed;
  else if (feed != NULL)
    lwn_feed_unref (feed);
  return TRUE;
}
