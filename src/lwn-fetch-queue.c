/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gives the feeds' requests their turns: at most a few under way at once, and one at a time to each server, so
 * that a list of two hundred feeds neither floods the network at a start nor sends one site ten requests
 * together. Waiters go in the order they came, except that one whose server is busy lets the next go first.
 * Calls nothing of the project's but its hash; main thread only (the thread-default context it was made in). */

#include "config.h"

#include <string.h>

#include "lwn-fetch-queue.h"
#include "lwn-str-hash.h"

struct _LwnFetchQueue
{
  GObject parent_instance;

  guint max_requests;
  guint max_per_host;
  guint n_running;
  GHashTable *running; /* host key → the number of its turns under way */
  GQueue waiting;      /* GTask*, owned, the oldest first */
  GMainContext *context;
  GSource *dispatch; /* grants the next turns */
};

G_DEFINE_FINAL_TYPE (LwnFetchQueue, lwn_fetch_queue, G_TYPE_OBJECT)

struct _LwnFetchSlot
{
  LwnFetchQueue *queue; /* owned: a turn may end after the queue's owner has gone */
  char *host;           /* NULL for a URL without a server */
};

/* A request waiting for its turn: the task data of its acquire task, which
 * holds the queue as its source object. */
typedef struct
{
  char *host;
  GCancellable *cancellable;
  gulong cancelled_id;
  GList *link; /* in the queue's waiting list; NULL once it has left it */
} Waiter;

/* The address of this variable tags the acquire tasks. */
static char acquire_source_tag;

static void
waiter_free (Waiter *waiter)
{
  /* The task goes long after its cancelled handler ran, if it did: GTask
   * holds a cancelled task until its callback has run from the main loop,
   * so this never disconnects from inside the handler. */
  if (waiter->cancellable != NULL)
    g_cancellable_disconnect (waiter->cancellable, waiter->cancelled_id);
  g_clear_object (&waiter->cancellable);
  g_free (waiter->host);
  g_free (waiter);
}

static guint
count_running (LwnFetchQueue *self,
               const char *host)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->running, host));
}

static gboolean dispatch_cb (gpointer user_data);

/* The next turns are granted from the main loop, never from inside the
 * call that freed a slot or queued a request: a caller's callback then
 * never runs inside another caller's code. */
static void
schedule_dispatch (LwnFetchQueue *self)
{
  if (self->dispatch != NULL || self->waiting.length == 0)
    return;

  self->dispatch = g_idle_source_new ();
  g_source_set_priority (self->dispatch, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->dispatch, dispatch_cb, self, NULL);
  g_source_set_static_name (self->dispatch, "[lwn-tray] fetch queue");
  g_source_attach (self->dispatch, self->context);
}

static LwnFetchSlot *
slot_new (LwnFetchQueue *self,
          const char *host)
{
  LwnFetchSlot *slot = g_new0 (LwnFetchSlot, 1);

  slot->queue = g_object_ref (self);
  slot->host = g_strdup (host);
  self->n_running++;
  if (host != NULL)
    g_hash_table_replace (self->running, g_strdup (host), GUINT_TO_POINTER (count_running (self, host) + 1));
  return slot;
}

/**
 * lwn_fetch_slot_free:
 * @slot: (transfer full) (nullable): a turn lwn_fetch_queue_acquire_finish()
 *   granted
 *
 * Ends the turn: the request it allowed has ended, or will not be sent.
 * The next waiter goes soon after, from the main loop. The queue lives on
 * until its last turn ends, so a turn may end after the queue's owner has
 * dropped it.
 */
void
lwn_fetch_slot_free (LwnFetchSlot *slot)
{
  LwnFetchQueue *self;

  if (slot == NULL)
    return;

  self = slot->queue;
  self->n_running--;
  if (slot->host != NULL)
    {
      guint n = count_running (self, slot->host);

      if (n > 1)
        g_hash_table_replace (self->running, g_strdup (slot->host), GUINT_TO_POINTER (n - 1));
      else
        g_hash_table_remove (self->running, slot->host);
    }
  schedule_dispatch (self);
  g_free (slot->host);
  g_object_unref (self);
  g_free (slot);
}

static gboolean
has_room (LwnFetchQueue *self,
          const char *host)
{
  return self->n_running < self->max_requests && (host == NULL || count_running (self, host) < self->max_per_host);
}

/* Grants every turn there is room for: the oldest waiter first, skipping
 * those whose server is busy. The grants are all counted before any is
 * returned, because a caller's callback may cancel or add waiters. */
static void
grant_turns (LwnFetchQueue *self)
{
  g_autoptr (GPtrArray) tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) slots = g_ptr_array_new ();
  GList *next;

  for (GList *link = self->waiting.head; link != NULL && self->n_running < self->max_requests; link = next)
    {
      GTask *task = link->data;
      Waiter *waiter = g_task_get_task_data (task);
      gboolean cancelled = g_cancellable_is_cancelled (waiter->cancellable);

      next = link->next;
      if (!cancelled && !has_room (self, waiter->host))
        continue;
      g_queue_delete_link (&self->waiting, link);
      waiter->link = NULL;
      g_ptr_array_add (tasks, task);
      g_ptr_array_add (slots, cancelled ? NULL : slot_new (self, waiter->host));
    }

  /* A task cancelled from here on frees its slot itself, unclaimed. */
  for (guint i = 0; i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);
      LwnFetchSlot *slot = g_ptr_array_index (slots, i);

      if (slot == NULL)
        g_task_return_error_if_cancelled (task);
      else
        g_task_return_pointer (task, slot, (GDestroyNotify) lwn_fetch_slot_free);
    }
}

static gboolean
dispatch_cb (gpointer user_data)
{
  LwnFetchQueue *self = user_data;

  g_clear_pointer (&self->dispatch, g_source_unref);
  grant_turns (self);
  return G_SOURCE_REMOVE;
}

/* A waiter cancelled leaves the queue at once; its callback runs from the
 * main loop, as GTask returns a cancelled task. */
static void
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer user_data)
{
  GTask *task = user_data;
  Waiter *waiter = g_task_get_task_data (task);
  LwnFetchQueue *self;

  /* Granted already: its callback sees the cancellation. */
  if (waiter->link == NULL)
    return;

  self = g_task_get_source_object (task);
  g_queue_delete_link (&self->waiting, waiter->link);
  waiter->link = NULL;
  g_task_return_error_if_cancelled (task);
  g_object_unref (task);
}

static void
lwn_fetch_queue_finalize (GObject *object)
{
  LwnFetchQueue *self = LWN_FETCH_QUEUE (object);

  /* Each waiter's task and each turn holds the queue: none is left. */
  if (self->dispatch != NULL)
    {
      g_source_destroy (self->dispatch);
      g_source_unref (self->dispatch);
    }
  g_hash_table_unref (self->running);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (lwn_fetch_queue_parent_class)->finalize (object);
}

static void
lwn_fetch_queue_class_init (LwnFetchQueueClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lwn_fetch_queue_finalize;
}

static void
lwn_fetch_queue_init (LwnFetchQueue *self)
{
  self->running = lwn_str_hash_table_new (g_free, NULL);
  g_queue_init (&self->waiting);
  self->context = g_main_context_ref_thread_default ();
}

/**
 * lwn_fetch_queue_new:
 * @max_requests: the most turns under way at once, at least 1
 *   (%LWN_FETCH_QUEUE_MAX_REQUESTS for the feeds)
 * @max_per_host: the most of them to one server, at least 1
 *   (%LWN_FETCH_QUEUE_MAX_PER_HOST)
 *
 * Makes a queue for the thread-default main context, whose main loop
 * grants the turns.
 *
 * Returns: (transfer full): an empty queue
 */
LwnFetchQueue *
lwn_fetch_queue_new (guint max_requests,
                     guint max_per_host)
{
  LwnFetchQueue *self;

  g_return_val_if_fail (max_requests > 0, NULL);
  g_return_val_if_fail (max_per_host > 0, NULL);

  self = g_object_new (LWN_TYPE_FETCH_QUEUE, NULL);
  self->max_requests = max_requests;
  self->max_per_host = max_per_host;
  return self;
}

/**
 * lwn_fetch_queue_dup_host_key:
 * @url: a URL
 *
 * The server a request to @url goes to, as the queue counts them: the
 * scheme, the host in lower case and the port, the scheme's own when @url
 * names none. A `file:` URL, or one that names no host, goes to no server.
 *
 * Returns: (transfer full) (nullable): the key, e.g. "https://lwn.net:443",
 *   or %NULL for no server
 */
char *
lwn_fetch_queue_dup_host_key (const char *url)
{
  g_autoptr (GUri) uri = NULL;
  g_autofree char *host = NULL;
  const char *scheme;
  int port;

  g_return_val_if_fail (url != NULL, NULL);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return NULL;
  /* GUri gives the scheme in lower case. */
  scheme = g_uri_get_scheme (uri);
  if (g_str_equal (scheme, "file"))
    return NULL;

  host = g_utf8_validate (g_uri_get_host (uri), -1, NULL) ? g_utf8_strdown (g_uri_get_host (uri), -1)
                                                          : g_ascii_strdown (g_uri_get_host (uri), -1);
  port = g_uri_get_port (uri);
  if (port == -1 && g_str_equal (scheme, "http"))
    port = 80;
  else if (port == -1 && g_str_equal (scheme, "https"))
    port = 443;
  /* An IPv6 address in brackets, as in the URL, keeps its colons apart from the port's. */
  return strchr (host, ':') != NULL ? g_strdup_printf ("%s://[%s]:%d", scheme, host, port)
                                    : g_strdup_printf ("%s://%s:%d", scheme, host, port);
}

/**
 * lwn_fetch_queue_acquire_async:
 * @self: a #LwnFetchQueue
 * @url: the URL the request goes to (lwn_fetch_queue_dup_host_key())
 * @cancellable: (nullable): when cancelled, the wait leaves the queue at
 *   once and the callback gets %G_IO_ERROR_CANCELLED; cancel it from the
 *   queue's thread
 * @callback: called on the queue's main context when the turn comes
 * @user_data: data for @callback
 *
 * Waits for a turn to send a request to @url: until fewer than the
 * queue's most requests are under way, and fewer than its most per server
 * to @url's server. Waiters get their turns in the order they asked,
 * except that a waiter whose server is busy lets later ones to other
 * servers go first. A turn comes from the main loop, never inside this
 * call.
 */
void
lwn_fetch_queue_acquire_async (LwnFetchQueue *self,
                               const char *url,
                               GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Waiter *waiter;

  g_return_if_fail (LWN_IS_FETCH_QUEUE (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &acquire_source_tag);
  if (g_task_return_error_if_cancelled (task))
    return;

  waiter = g_new0 (Waiter, 1);
  waiter->host = lwn_fetch_queue_dup_host_key (url);
  g_task_set_task_data (task, waiter, (GDestroyNotify) waiter_free);
  g_queue_push_tail (&self->waiting, g_object_ref (task));
  waiter->link = self->waiting.tail;
  if (cancellable != NULL)
    {
      waiter->cancellable = g_object_ref (cancellable);
      /* Not cancelled (checked above), so the handler does not run in this call. */
      waiter->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (waiter_cancelled_cb), task, NULL);
    }
  schedule_dispatch (self);
}

/**
 * lwn_fetch_queue_acquire_finish:
 * @self: a #LwnFetchQueue
 * @result: the result
 * @error: return location for a #GError: only %G_IO_ERROR_CANCELLED
 *
 * Returns: (transfer full) (nullable): the turn, to free with
 *   lwn_fetch_slot_free() once the request has ended; %NULL when the wait
 *   was cancelled
 */
LwnFetchSlot *
lwn_fetch_queue_acquire_finish (LwnFetchQueue *self,
                                GAsyncResult *result,
                                GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &acquire_source_tag, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * lwn_fetch_queue_get_n_running:
 * @self: a #LwnFetchQueue
 *
 * Returns: how many turns are under way: granted and not ended yet
 */
guint
lwn_fetch_queue_get_n_running (LwnFetchQueue *self)
{
  g_return_val_if_fail (LWN_IS_FETCH_QUEUE (self), 0);

  return self->n_running;
}

/**
 * lwn_fetch_queue_get_n_waiting:
 * @self: a #LwnFetchQueue
 *
 * Returns: how many requests wait for their turn
 */
guint
lwn_fetch_queue_get_n_waiting (LwnFetchQueue *self)
{
  g_return_val_if_fail (LWN_IS_FETCH_QUEUE (self), 0);

  return self->waiting.length;
}
