/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notification thread: libnotify's synchronous calls (init, capabilities, show, close, uninit)
 * all run here, and its proxy, made here, delivers what the server says (ActionInvoked,
 * NotificationClosed, ActivationToken) to this thread's main context. Requests come in and results go
 * out as copies through g_main_context_invoke_full(); a server that never answers holds this thread,
 * never the main loop, and stopping waits for it only so long. */

#include "config.h"

#include <glib/gi18n.h>
#include <libnotify/notify.h>

#include "lwn-notifier-thread.h"
#include "lwn-str-hash.h"

struct _LwnNotifyThread
{
  gint ref_count;
  GMainContext *main_context;
  GMainContext *thread_context;
  GMutex lock;
  GCond cond;
  gboolean finished; /* under lock */

  /* The main thread's */
  GThread *thread;
  LwnNotifyResultFunc func;
  gpointer user_data;

  /* The notification thread's, once started */
  char *app_name;
  char *icon_name;
  GMainLoop *loop;
  GHashTable *notifications; /* "kind:item id" → NotifyNotification* */
};

typedef enum
{
  REQUEST_CAPS,
  REQUEST_SHOW,
  REQUEST_CLOSE,
  REQUEST_FORGET,
  REQUEST_PING,
  REQUEST_QUIT,
} RequestType;

typedef struct
{
  LwnNotifyThread *self;
  RequestType type;
  guint kind;
  char *item_id;
  guint generation;
  guint32 replaces_id;
  char *summary;
  char *body;
  char *action_label;
  char *action_key; /* a button of its own besides the default action, or NULL */
  char *desktop_entry;
  char *category;
} Request;

/* What a notification's signal handlers need to name it. */
typedef struct
{
  LwnNotifyThread *self; /* not a reference: the notification goes before the thread's data */
  guint kind;
  char *item_id;
} NoteName;

static LwnNotifyThread *
thread_ref (LwnNotifyThread *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

static void
thread_unref (LwnNotifyThread *self)
{
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  g_hash_table_unref (self->notifications);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->thread_context);
  g_main_context_unref (self->main_context);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self->app_name);
  g_free (self->icon_name);
  g_free (self);
}

static void
note_name_free (gpointer data)
{
  NoteName *name = data;

  g_free (name->item_id);
  g_free (name);
}

static void
note_name_closure_free (gpointer data,
                        GClosure *closure)
{
  note_name_free (data);
}

static NoteName *
note_name_new (LwnNotifyThread *self,
               guint kind,
               const char *item_id)
{
  NoteName *name = g_new0 (NoteName, 1);

  name->self = self;
  name->kind = kind;
  name->item_id = g_strdup (item_id);
  return name;
}

static char *
note_key (guint kind,
          const char *item_id)
{
  return g_strdup_printf ("%u:%s", kind, item_id != NULL ? item_id : "");
}

/* Results, to the main context */

typedef struct
{
  LwnNotifyThread *self;
  LwnNotifyResult result;
} Posted;

static void
posted_free (gpointer data)
{
  Posted *posted = data;

  g_free (posted->result.item_id);
  g_clear_error (&posted->result.error);
  g_free (posted->result.activation_token);
  thread_unref (posted->self);
  g_free (posted);
}

/* On the main thread: a notifier that has stopped the thread hears nothing more. */
static gboolean
deliver_cb (gpointer data)
{
  Posted *posted = data;

  if (posted->self->func != NULL)
    posted->self->func (&posted->result, posted->self->user_data);
  return G_SOURCE_REMOVE;
}

static Posted *
posted_new (LwnNotifyThread *self,
            LwnNotifyEvent event,
            guint kind,
            const char *item_id)
{
  Posted *posted = g_new0 (Posted, 1);

  posted->self = thread_ref (self);
  posted->result.event = event;
  posted->result.kind = kind;
  posted->result.item_id = g_strdup (item_id);
  return posted;
}

static void
post (Posted *posted)
{
  g_main_context_invoke_full (posted->self->main_context, G_PRIORITY_DEFAULT, deliver_cb, posted, posted_free);
}

/* On the notification thread */

static guint32
get_id (NotifyNotification *notification)
{
  gint id = 0;

  g_object_get (notification, "id", &id, NULL);
  return (guint32) id;
}

static void
action_cb (NotifyNotification *notification,
           char *action,
           gpointer user_data)
{
  NoteName *name = user_data;
  Posted *posted = posted_new (name->self, LWN_NOTIFY_ACTION, name->kind, name->item_id);

  /* The token came just before the action, and libnotify forgets it after this call. */
  posted->result.id = get_id (notification);
  posted->result.activation_token = g_strdup (notify_notification_get_activation_token (notification));
  post (posted);
}

static void
closed_cb (NotifyNotification *notification,
           gpointer user_data)
{
  NoteName *name = user_data;
  Posted *posted = posted_new (name->self, LWN_NOTIFY_CLOSED, name->kind, name->item_id);

  posted->result.id = get_id (notification);
  post (posted);
}

static void
do_caps (LwnNotifyThread *self,
         Request *request)
{
  Posted *posted = posted_new (self, LWN_NOTIFY_CAPS, 0, NULL);
  g_autofree char *name = NULL;
  GList *caps = NULL;

  posted->result.generation = request->generation;
  /* libnotify connects to the server here, quietly: asking for the capabilities without a server
   * would warn. Its answer is what tells that a server answers: the spec lets the list of
   * capabilities be empty, and libnotify gives NULL for that as for a failed call, so a server that
   * answers this but not GetCapabilities gets plain text without actions. */
  if (notify_get_server_info (&name, NULL, NULL, NULL))
    {
      g_debug ("Notification server: %s", name);
      caps = notify_get_server_caps ();
    }
  else
    g_set_error_literal (&posted->result.error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                         _ ("no notification server said what it can show"));
  for (GList *l = caps; l != NULL; l = l->next)
    {
      if (g_str_equal (l->data, "body-markup"))
        posted->result.body_markup = TRUE;
      else if (g_str_equal (l->data, "actions"))
        posted->result.actions = TRUE;
    }
  g_list_free_full (caps, g_free);
  post (posted);
}

static void
do_show (LwnNotifyThread *self,
         Request *request)
{
  g_autofree char *key = note_key (request->kind, request->item_id);
  NotifyNotification *notification = g_hash_table_lookup (self->notifications, key);
  /* libnotify refuses an empty summary. */
  const char *summary = request->summary != NULL && *request->summary != '\0' ? request->summary : self->app_name;
  Posted *posted = posted_new (self, LWN_NOTIFY_SHOWN, request->kind, request->item_id);

  if (notification == NULL)
    {
      notification = notify_notification_new (summary, NULL, NULL);
      g_signal_connect_data (notification, "closed", G_CALLBACK (closed_cb),
                             note_name_new (self, request->kind, request->item_id), note_name_closure_free, 0);
      g_hash_table_insert (self->notifications, g_steal_pointer (&key), notification);
    }

  notify_notification_clear_hints (notification);
  notify_notification_clear_actions (notification);
#if NOTIFY_CHECK_VERSION(0, 8, 4)
  /* From libnotify 0.8.4 (Debian 13) on, the icon given to update() goes out
   * as the "image-path" hint, a picture of the notification's own, and the
   * application's icon has a call of its own. Before, the icon given to
   * update() was the application's icon. */
  notify_notification_set_app_icon (notification, self->icon_name);
  notify_notification_update (notification, summary, request->body, NULL);
#else
  notify_notification_update (notification, summary, request->body, self->icon_name);
#endif
  /* Set here, libnotify does not look for the application's id on the main thread's objects. */
  notify_notification_set_hint_string (notification, "desktop-entry", request->desktop_entry);
  if (request->category != NULL)
    notify_notification_set_category (notification, request->category);
  if (request->action_label != NULL)
    notify_notification_add_action (notification, "default", request->action_label, action_cb,
                                    note_name_new (self, request->kind, request->item_id), note_name_free);
  /* GNOME Shell shows no button for the default action, only for others. */
  if (request->action_label != NULL && request->action_key != NULL)
    notify_notification_add_action (notification, request->action_key, request->action_label, action_cb,
                                    note_name_new (self, request->kind, request->item_id), note_name_free);
  /* The notifier knows which server's id this is: 0 for a new server makes a new notification. */
  g_object_set (notification, "id", request->replaces_id <= G_MAXINT32 ? (gint) request->replaces_id : 0, NULL);

  posted->result.generation = request->generation;
  if (notify_notification_show (notification, &posted->result.error))
    posted->result.id = get_id (notification);
  post (posted);
}

static void
do_close (LwnNotifyThread *self,
          Request *request)
{
  g_autofree char *key = note_key (request->kind, request->item_id);
  NotifyNotification *notification = g_hash_table_lookup (self->notifications, key);
  g_autoptr (GError) error = NULL;

  if (notification == NULL)
    return;
  if (get_id (notification) != 0 && !notify_notification_close (notification, &error))
    g_debug ("Could not close a notification: %s", error->message);
  g_hash_table_remove (self->notifications, key);
}

/* For tests (see lwn_notifier_sync()): what the bus delivered to this thread before is handled when
 * the answer goes out. The bus sends in order, so once it has answered a call on libnotify's
 * connection (the session bus's shared one), every signal it sent there before is queued in this
 * thread's context. */
static void
do_ping (LwnNotifyThread *self)
{
  g_autoptr (GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr (GVariant) reply = NULL;

  if (bus != NULL)
    reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "GetId", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  while (g_main_context_iteration (self->thread_context, FALSE))
    ;
  post (posted_new (self, LWN_NOTIFY_PONG, 0, NULL));
}

static gboolean
handle_request_cb (gpointer data)
{
  Request *request = data;
  LwnNotifyThread *self = request->self;

  switch (request->type)
    {
      case REQUEST_CAPS:
        do_caps (self, request);
        break;
      case REQUEST_SHOW:
        do_show (self, request);
        break;
      case REQUEST_CLOSE:
        do_close (self, request);
        break;
      case REQUEST_FORGET:
        {
          g_autofree char *key = note_key (request->kind, request->item_id);

          g_hash_table_remove (self->notifications, key);
        }
        break;
      case REQUEST_PING:
        do_ping (self);
        break;
      case REQUEST_QUIT:
        g_main_loop_quit (self->loop);
        break;
      default:
        g_assert_not_reached ();
    }
  return G_SOURCE_REMOVE;
}

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->item_id);
  g_free (request->summary);
  g_free (request->body);
  g_free (request->action_label);
  g_free (request->action_key);
  g_free (request->desktop_entry);
  g_free (request->category);
  thread_unref (request->self);
  g_free (request);
}

static gpointer
thread_main (gpointer data)
{
  LwnNotifyThread *self = data;

  /* Before the first libnotify call: its proxy, made by that call, signals to this context. */
  g_main_context_push_thread_default (self->thread_context);
  notify_init (self->app_name);
  g_main_loop_run (self->loop);

  g_hash_table_remove_all (self->notifications);
  notify_uninit ();
  /* What the proxy left to finish in this context (its signal subscriptions' ends). */
  while (g_main_context_iteration (self->thread_context, FALSE))
    ;
  g_main_context_pop_thread_default (self->thread_context);

  g_mutex_lock (&self->lock);
  self->finished = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  thread_unref (self);
  return NULL;
}

/* On the main thread */

static Request *
request_new (LwnNotifyThread *self,
             RequestType type)
{
  Request *request = g_new0 (Request, 1);

  request->self = thread_ref (self);
  request->type = type;
  return request;
}

static void
send_request (Request *request)
{
  g_main_context_invoke_full (request->self->thread_context, G_PRIORITY_DEFAULT, handle_request_cb, request,
                              request_free);
}

/**
 * lwn_notify_thread_new:
 * @app_name: the application name libnotify gives the server
 * @icon_name: the icon of every notification
 * @func: called in the caller's thread-default main context with each result
 * @user_data: for @func
 *
 * Returns: (transfer full): the running notification thread; stop it with lwn_notify_thread_stop()
 */
LwnNotifyThread *
lwn_notify_thread_new (const char *app_name,
                       const char *icon_name,
                       LwnNotifyResultFunc func,
                       gpointer user_data)
{
  LwnNotifyThread *self = g_new0 (LwnNotifyThread, 1);

  self->ref_count = 1;
  self->main_context = g_main_context_ref_thread_default ();
  self->thread_context = g_main_context_new ();
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->func = func;
  self->user_data = user_data;
  self->app_name = g_strdup (app_name);
  self->icon_name = g_strdup (icon_name);
  self->loop = g_main_loop_new (self->thread_context, FALSE);
  self->notifications = lwn_str_hash_table_new (g_free, g_object_unref);
  self->thread = g_thread_new ("lwn-notify", thread_main, thread_ref (self));
  return self;
}

void
lwn_notify_thread_request_caps (LwnNotifyThread *self,
                                guint generation)
{
  Request *request = request_new (self, REQUEST_CAPS);

  request->generation = generation;
  send_request (request);
}

/* Shows a notification, or updates the one of that kind and item; @replaces_id is the server's id
 * of the one shown, 0 for a new one. */
void
lwn_notify_thread_show (LwnNotifyThread *self,
                        guint kind,
                        const char *item_id,
                        guint generation,
                        guint32 replaces_id,
                        const char *summary,
                        const char *body,
                        const char *action_label,
                        const char *action_key,
                        const char *desktop_entry,
                        const char *category)
{
  Request *request = request_new (self, REQUEST_SHOW);

  request->kind = kind;
  request->item_id = g_strdup (item_id);
  request->generation = generation;
  request->replaces_id = replaces_id;
  request->summary = g_strdup (summary);
  request->body = g_strdup (body);
  request->action_label = g_strdup (action_label);
  request->action_key = g_strdup (action_key);
  request->desktop_entry = g_strdup (desktop_entry);
  request->category = g_strdup (category);
  send_request (request);
}

/* Closes the notification of that kind and item if a server shows it, and forgets it. */
void
lwn_notify_thread_close (LwnNotifyThread *self,
                         guint kind,
                         const char *item_id)
{
  Request *request = request_new (self, REQUEST_CLOSE);

  request->kind = kind;
  request->item_id = g_strdup (item_id);
  send_request (request);
}

/* Forgets the notification of that kind and item without closing it. */
void
lwn_notify_thread_forget (LwnNotifyThread *self,
                          guint kind,
                          const char *item_id)
{
  Request *request = request_new (self, REQUEST_FORGET);

  request->kind = kind;
  request->item_id = g_strdup (item_id);
  send_request (request);
}

/* For tests: a LWN_NOTIFY_PONG result follows the results of what the bus delivered before. */
void
lwn_notify_thread_ping (LwnNotifyThread *self)
{
  send_request (request_new (self, REQUEST_PING));
}

/**
 * lwn_notify_thread_stop:
 * @self: (transfer full): the thread
 * @wait_ms: how long to wait for the thread to finish what it was asked
 *
 * No result reaches the caller any more. The thread finishes what it was asked before, leaves
 * libnotify and ends; a thread held by a server that does not answer is left to end on its own.
 *
 * Returns: whether the thread ended within @wait_ms
 */
gboolean
lwn_notify_thread_stop (LwnNotifyThread *self,
                        guint wait_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) wait_ms * G_TIME_SPAN_MILLISECOND;
  gboolean finished;

  self->func = NULL;
  send_request (request_new (self, REQUEST_QUIT));

  g_mutex_lock (&self->lock);
  while (!self->finished)
    if (!g_cond_wait_until (&self->cond, &self->lock, deadline))
      break;
  finished = self->finished;
  g_mutex_unlock (&self->lock);

  if (finished)
    g_thread_join (self->thread);
  else
    g_thread_unref (self->thread);
  self->thread = NULL;
  thread_unref (self);
  return finished;
}
