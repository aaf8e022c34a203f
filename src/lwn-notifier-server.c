/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notifier's conversation with the notification server, never waiting for it: which server has
 * the name (watched here, on the main thread), what it takes (asked once per server that answers),
 * whether it still answers, and showing and closing notifications. What libnotify does for these
 * runs on the notification thread (lwn-notifier-thread.c), whose answers come back here as copies.
 * This file calls only the notification thread and lwn-text.c; it reports to the notifier through
 * the callback that the notifier gave it. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-notifier-server.h"
#include "lwn-text.h"

/* https://specifications.freedesktop.org/notification-spec/latest/ */
#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
/* How long quitting waits for the notification thread to close what it was asked to: a server
 * that does not answer is not waited for longer. */
#define STOP_WAIT_MS 1000
/* How long a server that has the name and did not answer is left alone: it may still be starting,
 * or be busy, and each call to it holds the notification thread until the call times out. */
#define RETRY_INTERVAL (60 * G_TIME_SPAN_SECOND)
/* A server that has the name and answered with an error, as one still starting may, is asked again
 * this long after, then twice as long after each further error, up to the retry interval. */
#define FIRST_CAPS_RETRY G_TIME_SPAN_SECOND
/* How long lwn_notify_server_sync() waits for the notification thread. */
#define SYNC_WAIT_SECONDS 10

struct _LwnNotifyServer
{
  GDBusConnection *bus;
  guint watch_id;
  LwnNotifyThread *thread; /* every libnotify call is made there */
  LwnNotifyServerFunc func;
  gpointer user_data;
  guint n_pongs;

  /* The server's unique name once seen. Capabilities and notification ids are one server's: the
   * generation changes with the server. */
  char *owner;
  guint generation;
  gboolean caps_asked; /* of this generation's server, not answered yet */
  gboolean caps_known;
  gint64 caps_failed_at;   /* monotonic time when this server did not say what it takes, or 0 */
  gint64 caps_retry_delay; /* how long after that it is asked again */
  guint caps_retry_id;     /* asks it then, if anything waits */
  gboolean body_markup;
  gboolean actions;
  gboolean told_no_server;
  /* The current server left a Notify call unanswered, at this monotonic time: until it answers
   * again, it gets one notification at a time, and only once the retry interval has passed. */
  gint64 unanswered_at;
  gint64 retry_interval;
};

static void
report (LwnNotifyServer *self,
        LwnNotifyServerEvent event,
        const LwnNotifyResult *result)
{
  self->func (event, result, self->user_data);
}

/* Whether the call went unanswered: no server had the name, the server left before it answered,
 * or it did not answer in time. The server may still be there, but it did not refuse the call. */
static gboolean
call_went_unanswered (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return TRUE;
  if (error->domain != G_DBUS_ERROR)
    return FALSE;

  switch (error->code)
    {
      case G_DBUS_ERROR_SERVICE_UNKNOWN:
      case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
      /* The bus's answer when the server leaves without answering, or when its own timeout ends. */
      case G_DBUS_ERROR_NO_REPLY:
      case G_DBUS_ERROR_TIMEOUT:
      case G_DBUS_ERROR_TIMED_OUT:
        return TRUE;
      default:
        return FALSE;
    }
}

/* The notification thread showed a notification, or could not: the notifier hears which of the
 * outcomes it was. A server that answered with an id showed it, even one that has gone since. */
static void
shown (LwnNotifyServer *self,
       const LwnNotifyResult *result)
{
  gboolean same_server = result->generation == self->generation;
  const GError *error = result->error;

  if (error == NULL && !same_server)
    {
      report (self, LWN_NOTIFY_SERVER_SHOWN_BY_GONE, result);
      return;
    }
  if (error == NULL)
    {
      if (self->unanswered_at != 0)
        g_message ("The notification server answers again");
      self->unanswered_at = 0;
      report (self, LWN_NOTIFY_SERVER_SHOWN, result);
      return;
    }
  if (same_server && !call_went_unanswered (error))
    {
      g_warning ("Could not show a notification: %s", error->message);
      report (self, LWN_NOTIFY_SERVER_REFUSED, result);
      return;
    }

  g_debug ("A notification waits for a server that answers: %s", error->message);
  /* A server that holds its name and no longer answers would hold the notification thread for
   * every notification sent to it. The retry interval counts from its latest silence, so that a
   * retry it leaves unanswered too is not followed by another at once. */
  if (same_server)
    {
      if (self->unanswered_at == 0)
        g_message ("The notification server did not answer, so new headlines wait until it does: %s", error->message);
      self->unanswered_at = g_get_monotonic_time ();
    }
  report (self, LWN_NOTIFY_SERVER_NOT_SHOWN, result);
}

static gboolean
caps_retry_cb (gpointer user_data)
{
  LwnNotifyServer *self = user_data;

  self->caps_retry_id = 0;
  report (self, LWN_NOTIFY_SERVER_RETRY, NULL);
  return G_SOURCE_REMOVE;
}

/* The server that has the name did not say what it takes. One that answered with an error is up
 * and quick to answer, and may only be starting (a server may take its name before it takes
 * calls): it is asked again a second later, then less and less often. One that did not answer at
 * all would hold the notification thread again: it is left alone for the retry interval. Whatever
 * waits then goes, without waiting for another announcement. */
static void
caps_failed (LwnNotifyServer *self,
             const GError *error)
{
  gint64 delay = self->caps_retry_delay == 0 ? FIRST_CAPS_RETRY : self->caps_retry_delay * 2;

  if (call_went_unanswered (error) || delay > self->retry_interval)
    delay = MAX (self->retry_interval, G_TIME_SPAN_MILLISECOND);
  self->caps_failed_at = g_get_monotonic_time ();
  self->caps_retry_delay = delay;
  g_clear_handle_id (&self->caps_retry_id, g_source_remove);
  self->caps_retry_id = g_timeout_add ((guint) MIN (delay / G_TIME_SPAN_MILLISECOND, G_MAXUINT), caps_retry_cb, self);
  g_source_set_name_by_id (self->caps_retry_id, "[lwn-tray] notification server retry");
}

/* The capabilities of the server of @result's generation, or its silence. */
static void
capabilities_known (LwnNotifyServer *self,
                    const LwnNotifyResult *result)
{
  /* Another server has the name since: its own answer is on its way. */
  if (result->generation != self->generation)
    return;

  self->caps_asked = FALSE;
  if (result->error != NULL)
    {
      /* Without a server, the next announcement may start one. */
      if (self->owner != NULL)
        caps_failed (self, result->error);
      if (!self->told_no_server)
        g_message ("No notification server answers, so new headlines wait for one: %s", result->error->message);
      self->told_no_server = TRUE;
      return;
    }

  self->caps_known = TRUE;
  self->caps_retry_delay = 0;
  self->told_no_server = FALSE;
  self->body_markup = result->body_markup;
  self->actions = result->actions;
  report (self, LWN_NOTIFY_SERVER_READY, NULL);
}

/* Once per server that answers: asked again when another has the name, or a while after this one
 * did not answer. */
static void
request_capabilities (LwnNotifyServer *self)
{
  if (self->caps_known || self->caps_asked
      || (self->caps_failed_at != 0
          && g_get_monotonic_time () < self->caps_failed_at + MIN (self->caps_retry_delay, self->retry_interval)))
    return;

  /* May start an activatable server: the notification thread waits for it, the applet does not. */
  self->caps_asked = TRUE;
  lwn_notify_thread_request_caps (self->thread, self->generation);
}

/* A new server (or none) has other capabilities and knows none of the old one's ids. */
static void
server_changed (LwnNotifyServer *self)
{
  self->generation++;
  self->caps_asked = FALSE;
  self->caps_known = FALSE;
  self->caps_failed_at = 0;
  self->caps_retry_delay = 0;
  g_clear_handle_id (&self->caps_retry_id, g_source_remove);
  self->unanswered_at = 0;
  report (self, LWN_NOTIFY_SERVER_CHANGED, NULL);
}

static void
name_appeared_cb (GDBusConnection *connection,
                  const char *name,
                  const char *owner,
                  gpointer user_data)
{
  LwnNotifyServer *self = user_data;

  g_debug ("Notification server %s appeared", owner);
  if (self->owner != NULL)
    server_changed (self);
  g_free (self->owner);
  self->owner = g_strdup (owner);
  /* A request under way, made while no server was known, is this one's: the bus hands it to the
   * server it starts, or to the first to come. */
  report (self, LWN_NOTIFY_SERVER_APPEARED, NULL);
}

static void
name_vanished_cb (GDBusConnection *connection,
                  const char *name,
                  gpointer user_data)
{
  LwnNotifyServer *self = user_data;

  /* Told at the start when no server runs: one started on demand may still answer. */
  if (self->owner == NULL)
    return;

  g_debug ("Notification server %s left", self->owner);
  g_clear_pointer (&self->owner, g_free);
  server_changed (self);
}

static void
thread_result_cb (const LwnNotifyResult *result,
                  gpointer user_data)
{
  LwnNotifyServer *self = user_data;

  switch (result->event)
    {
      case LWN_NOTIFY_CAPS:
        capabilities_known (self, result);
        break;
      case LWN_NOTIFY_SHOWN:
        shown (self, result);
        break;
      case LWN_NOTIFY_ACTION:
        report (self, LWN_NOTIFY_SERVER_ACTION, result);
        break;
      case LWN_NOTIFY_CLOSED:
        report (self, LWN_NOTIFY_SERVER_CLOSED, result);
        break;
      case LWN_NOTIFY_PONG:
        self->n_pongs++;
        break;
      default:
        g_assert_not_reached ();
    }
}

/**
 * lwn_notify_server_new:
 * @bus: the session bus, the one libnotify talks on
 * @func: told what the server did, in the caller's thread-default main context
 * @user_data: for @func
 *
 * Starts the notification thread and watches the server's name.
 *
 * Returns: (transfer full): the conversation; free it with lwn_notify_server_free()
 */
LwnNotifyServer *
lwn_notify_server_new (GDBusConnection *bus,
                       LwnNotifyServerFunc func,
                       gpointer user_data)
{
  LwnNotifyServer *self = g_new0 (LwnNotifyServer, 1);

  self->bus = g_object_ref (bus);
  self->func = func;
  self->user_data = user_data;
  self->retry_interval = RETRY_INTERVAL;
  self->thread = lwn_notify_thread_new (g_get_application_name (), APP_ID, thread_result_cb, self);
  self->watch_id = g_bus_watch_name_on_connection (bus, NOTIFICATIONS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   name_appeared_cb, name_vanished_cb, self, NULL);
  return self;
}

/**
 * lwn_notify_server_free:
 * @self: (transfer full): the conversation
 *
 * Nothing is reported any more. The notification thread closes what it was asked to close, leaves
 * libnotify and ends, or is left to do so on its own if a server holds it.
 */
void
lwn_notify_server_free (LwnNotifyServer *self)
{
  g_clear_handle_id (&self->watch_id, g_bus_unwatch_name);
  g_clear_handle_id (&self->caps_retry_id, g_source_remove);
  if (!lwn_notify_thread_stop (g_steal_pointer (&self->thread), STOP_WAIT_MS))
    g_message ("The notification server did not answer; not waiting for it");
  g_clear_object (&self->bus);
  g_free (self->owner);
  g_free (self);
}

/* Whether the server said what it takes and answers: what waits for it goes at once. */
gboolean
lwn_notify_server_is_ready (LwnNotifyServer *self)
{
  return self->caps_known && self->unanswered_at == 0;
}

/**
 * lwn_notify_server_count_sendable:
 * @self: the conversation
 * @sending: whether a notification is being sent, its answer not in yet
 *
 * Asks the server what it takes when that is not known yet and may be asked.
 *
 * Returns: how many notifications may be sent now: none until the server said what it takes, one
 *   at a time to a server that left a call unanswered and only once the retry interval has passed,
 *   and any number otherwise
 */
guint
lwn_notify_server_count_sendable (LwnNotifyServer *self,
                                  gboolean sending)
{
  if (!self->caps_known)
    {
      request_capabilities (self);
      return 0;
    }
  if (self->unanswered_at == 0)
    return G_MAXUINT;
  if (sending || g_get_monotonic_time () < self->unanswered_at + self->retry_interval)
    return 0;
  return 1;
}

/**
 * lwn_notify_server_show:
 * @self: the conversation, whose server said what it takes
 * @kind: what the notification is, as the caller names it
 * @item_id: (nullable): which of that kind
 * @replaces_id: the current server's id of the notification shown, 0 for a new one
 * @summary: plain text, by the spec
 * @plain_body: plain text, escaped here if the server takes markup
 * @action_label: (nullable): the default action's label, or %NULL for none
 * @action_key: (nullable): a button of its own besides the default action
 * @category: (nullable): the notification's category
 *
 * Sends the notification through the notification thread; its outcome is reported later.
 */
void
lwn_notify_server_show (LwnNotifyServer *self,
                        guint kind,
                        const char *item_id,
                        guint32 replaces_id,
                        const char *summary,
                        const char *plain_body,
                        const char *action_label,
                        const char *action_key,
                        const char *category)
{
  g_autofree char *body = NULL;

  /* Without body-markup a server shows text as it is: escaping would show "&amp;". */
  body = self->body_markup ? lwn_text_escape_markup (plain_body) : g_strdup (plain_body);
  lwn_notify_thread_show (self->thread, kind, item_id, self->generation, replaces_id, summary, body,
                          self->actions ? action_label : NULL, action_key, APP_ID, category);
}

/* Closes the notification of that kind and item if the server shows it. */
void
lwn_notify_server_close (LwnNotifyServer *self,
                         guint kind,
                         const char *item_id)
{
  lwn_notify_thread_close (self->thread, kind, item_id);
}

/* The notification thread lets go of the notification of that kind and item: it is not shown any
 * more, or it was shown by a server that has gone. */
void
lwn_notify_server_forget (LwnNotifyServer *self,
                          guint kind,
                          const char *item_id)
{
  lwn_notify_thread_forget (self->thread, kind, item_id);
}

/* For tests: how long (in microseconds) a server that did not answer is left alone. */
void
lwn_notify_server_set_retry_interval (LwnNotifyServer *self,
                                      gint64 interval)
{
  self->retry_interval = interval;
}

static gboolean
sync_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Tests need to know when what a server said has reached the notifier, which goes through two
 * threads, without sleeping and hoping: the notification thread answers a ping only once it has
 * handled what the bus brought it before, and its answer comes here as any result does. */
gboolean
lwn_notify_server_sync (LwnNotifyServer *self)
{
  g_autoptr (GMainContext) context = g_main_context_ref_thread_default ();
  g_autoptr (GSource) timeout = NULL;
  guint pongs = self->n_pongs;
  gboolean timed_out = FALSE;

  lwn_notify_thread_ping (self->thread);
  timeout = g_timeout_source_new_seconds (SYNC_WAIT_SECONDS);
  g_source_set_callback (timeout, sync_timeout_cb, &timed_out, NULL);
  g_source_attach (timeout, context);
  /* The answer wakes the context. */
  while (self->n_pongs == pongs && !timed_out)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  return self->n_pongs != pongs;
}
