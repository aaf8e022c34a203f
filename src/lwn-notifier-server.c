/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notifier's conversation with the notification server, never waiting for it: which server has
 * the name (watched here, on the main thread), what it takes (asked once per server that answers),
 * showing and closing notifications, and what the server says back. What libnotify does for these
 * runs on the notification thread (lwn-notifier-thread.c); what it answers comes back here as
 * copies. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-notifier-private.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* https://specifications.freedesktop.org/notification-spec/latest/ */
#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
/* How long quitting waits for the notification thread to close what it was asked to: a server
 * that does not answer is not waited for longer. */
#define STOP_WAIT_MS 1000
/* How long a server that has the name and did not say what it takes is left alone: it may still be
 * starting, and asking at every announcement would hold the notification thread for it. */
#define CAPS_RETRY_INTERVAL (60 * G_TIME_SPAN_SECOND)
/* How long lwn_notifier_sync() waits for the notification thread. */
#define SYNC_WAIT_SECONDS 10

void
lwn_notifier_close_notification (LwnNotifier *self,
                                 LwnNote *note)
{
  if (self->thread != NULL)
    lwn_notify_thread_close (self->thread, note->kind, note->item_id);
}

/* The notification thread lets go of the note's notification: it is not shown any more, or by a
 * server that has gone. */
void
lwn_notifier_forget_notification (LwnNotifier *self,
                                  LwnNote *note)
{
  if (self->thread != NULL)
    lwn_notify_thread_forget (self->thread, note->kind, note->item_id);
}

/* What tells that a call never reached a server that could show it. */
static gboolean
is_server_gone (const GError *error)
{
  if (error->domain != G_DBUS_ERROR)
    return FALSE;

  switch (error->code)
    {
      case G_DBUS_ERROR_SERVICE_UNKNOWN:
      case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
      /* The bus's answer when the server leaves without answering. */
      case G_DBUS_ERROR_NO_REPLY:
        return TRUE;
      default:
        return FALSE;
    }
}

/* Settles a note the notification thread showed, or could not show. */
static void
settle_shown (LwnNotifier *self,
              LwnNote *note,
              const LwnNotifyResult *result)
{
  gboolean same_server = result->generation == self->generation;
  const GError *error = result->error;

  if (error != NULL && same_server && !is_server_gone (error))
    {
      g_warning ("Could not show a notification: %s", error->message);
      lwn_notifier_drop_note (self, note);
      return;
    }
  if (error != NULL)
    g_debug ("A notification waits for the next server: %s", error->message);

  if (error != NULL || !same_server)
    {
      /* What a server that has gone showed went with it; what it never
       * showed, or what changed since, is for the next one, as new. */
      note->id = 0;
      if (note->withdrawn || (error == NULL && !note->queued))
        {
          lwn_notifier_drop_note (self, note);
          return;
        }
      note->queued = TRUE;
      /* The server that failed may still be the one the watcher knows:
       * its departure, once told, brings the next attempt. */
      if (!same_server)
        lwn_notifier_deliver_queued (self);
      return;
    }

  note->id = result->id;
  if (note->withdrawn)
    {
      lwn_notifier_close_notification (self, note);
      lwn_notifier_drop_note (self, note);
    }
  else if (note->queued)
    lwn_notifier_deliver_queued (self);
}

/* The notification thread showed a note, or could not. A server that answered with an id showed
 * what the note carried, even one that has gone since. */
static void
shown (LwnNotifier *self,
       const LwnNotifyResult *result)
{
  LwnNote *note = lwn_notifier_find_note (self, result->kind, result->item_id);
  g_autoptr (GPtrArray) carried = NULL;

  g_return_if_fail (note != NULL && note->sending);

  note->sending = FALSE;
  carried = g_steal_pointer (&note->showing);
  note->showing = g_ptr_array_new_with_free_func (g_free);
  /* Not shown: what it carried goes again with it, if it goes again. */
  if (result->error != NULL)
    g_ptr_array_extend_and_steal (note->unshown, g_steal_pointer (&carried));

  settle_shown (self, note, result);

  /* Told last: the notifier's books are in order for whatever the handlers do. */
  if (carried != NULL && carried->len > 0)
    {
      g_ptr_array_add (carried, NULL);
      g_signal_emit_by_name (self, "shown", carried->pdata);
    }
}

/* What the note's action says, NULL for none. Headlines and reminders open
 * their article; the notice opens the headlines window. */
static const char *
action_label (LwnNotifier *self,
              const LwnNote *note)
{
  if (!self->actions)
    return NULL;
  if (note->kind == LWN_NOTE_NOTICE)
    /* Translators: a button on the notice that there is no tray; it opens the headlines window. */
    return _ ("Show Headlines");
  return lwn_url_is_launchable (note->url) ? _ ("Open") : NULL;
}

/* Needs the server's capabilities, and no call under way for the note. */
static void
send_notification (LwnNotifier *self,
                   LwnNote *note)
{
  g_autofree char *group_summary = NULL;
  g_autofree char *group_body = NULL;
  const char *summary = note->summary;
  const char *plain_body = note->body;
  g_autofree char *body = NULL;

  if (note->kind == LWN_NOTE_GROUP)
    {
      lwn_notifier_dup_group_text (self, &group_summary, &group_body);
      summary = group_summary;
      plain_body = group_body;
    }

  /* Without body-markup a server shows text as it is: escaping would show "&amp;". */
  body = self->body_markup ? lwn_text_escape_markup (plain_body) : g_strdup (plain_body);

  note->queued = FALSE;
  note->sending = TRUE;
  g_ptr_array_extend_and_steal (note->showing, g_steal_pointer (&note->unshown));
  note->unshown = g_ptr_array_new_with_free_func (g_free);
  /* The summary is plain text by the spec; the note's id updates a shown one in place. */
  lwn_notify_thread_show (self->thread, note->kind, note->item_id, self->generation, note->id, summary, body,
                          action_label (self, note), note->kind == LWN_NOTE_NOTICE ? "show-headlines" : NULL,
                          APP_ID, note->category);
}

/* The capabilities of the server of @result's generation, or its silence. */
static void
capabilities_known (LwnNotifier *self,
                    const LwnNotifyResult *result)
{
  /* Another server has the name since: its own answer is on its way. */
  if (result->generation != self->generation)
    return;

  self->caps_asked = FALSE;
  if (result->error != NULL)
    {
      /* A server that has the name and does not answer is asked again at an announcement a while
       * later; without one, the next announcement may start one. */
      if (self->owner != NULL)
        self->caps_retry_at = g_get_monotonic_time () + CAPS_RETRY_INTERVAL;
      if (!self->told_no_server)
        g_message ("No notification server answers, so new headlines wait for one: %s", result->error->message);
      self->told_no_server = TRUE;
      return;
    }

  self->caps_known = TRUE;
  self->told_no_server = FALSE;
  self->body_markup = result->body_markup;
  self->actions = result->actions;
  lwn_notifier_deliver_queued (self);
}

/* Once per server that answers: asked again when another has the name, or a while after this one
 * did not answer. */
static void
request_capabilities (LwnNotifier *self)
{
  if (self->caps_known || self->caps_asked || g_get_monotonic_time () < self->caps_retry_at)
    return;

  /* May start an activatable server: the notification thread waits for it, the applet does not. */
  self->caps_asked = TRUE;
  lwn_notify_thread_request_caps (self->thread, self->generation);
}

/* Sends what the server has not got yet, oldest first, once it has said what it takes: the one way
 * to the notification thread for showing and asking. */
void
lwn_notifier_deliver_queued (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = NULL;

  /* Disposed of: the thread has gone, and what is announced now is never shown. */
  if (self->thread == NULL)
    return;

  if (!self->caps_known)
    {
      request_capabilities (self);
      return;
    }

  notes = lwn_notifier_list_notes (self);
  g_ptr_array_sort (notes, lwn_note_compare_order);
  for (guint i = 0; i < notes->len; i++)
    {
      LwnNote *note = g_ptr_array_index (notes, i);

      if (note->queued && !note->sending)
        send_notification (self, note);
    }
}

/* A new server (or none) has other capabilities and knows none of our ids:
 * what the old one showed is forgotten, what waits stays, and what is being
 * sent is settled by its answer. */
static void
server_changed (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = lwn_notifier_list_notes (self);

  self->generation++;
  self->caps_asked = FALSE;
  self->caps_known = FALSE;
  self->caps_retry_at = 0;

  for (guint i = 0; i < notes->len; i++)
    {
      LwnNote *note = g_ptr_array_index (notes, i);

      if (note->sending)
        continue;
      if (note->queued)
        note->id = 0;
      else if (note->id != 0)
        lwn_notifier_drop_note (self, note);
    }
}

static void
name_appeared_cb (GDBusConnection *connection,
                  const char *name,
                  const char *owner,
                  gpointer user_data)
{
  LwnNotifier *self = user_data;

  g_debug ("Notification server %s appeared", owner);
  if (self->owner != NULL)
    server_changed (self);
  g_free (self->owner);
  self->owner = g_strdup (owner);
  /* A request under way, made while no server was known, is this one's:
   * the bus hands it to the server it starts, or to the first to come. */
  if (lwn_notifier_has_queued (self))
    lwn_notifier_deliver_queued (self);
}

static void
name_vanished_cb (GDBusConnection *connection,
                  const char *name,
                  gpointer user_data)
{
  LwnNotifier *self = user_data;

  /* Told at the start when no server runs: one started on demand may still answer. */
  if (self->owner == NULL)
    return;

  g_debug ("Notification server %s left", self->owner);
  g_clear_pointer (&self->owner, g_free);
  server_changed (self);
}

/* The person acted on a notification that the current server shows. */
static void
action_invoked (LwnNotifier *self,
                const LwnNotifyResult *result)
{
  LwnNote *note = lwn_notifier_find_note (self, result->kind, result->item_id);

  if (note == NULL || note->id == 0 || note->id != result->id)
    return;

  if (note->kind == LWN_NOTE_NOTICE)
    g_signal_emit_by_name (self, "show-all", NULL, result->activation_token);
  else if (!lwn_url_is_launchable (note->url))
    return;
  else if (note->kind == LWN_NOTE_GROUP)
    g_signal_emit_by_name (self, "show-all", note->url, result->activation_token);
  else if (note->kind == LWN_NOTE_ITEM)
    g_signal_emit_by_name (self, "open", note->item_id, note->url, result->activation_token);
  else if (note->kind == LWN_NOTE_REMINDER)
    g_signal_emit_by_name (self, "open-reminder", note->item_id, note->url, result->activation_token);
}

/* Expired, dismissed or closed: a group's next batch counts from nothing. */
static void
notification_closed (LwnNotifier *self,
                     const LwnNotifyResult *result)
{
  LwnNote *note = lwn_notifier_find_note (self, result->kind, result->item_id);

  if (note != NULL && !note->sending && note->id != 0 && note->id == result->id)
    lwn_notifier_drop_note (self, note);
}

static void
thread_result_cb (const LwnNotifyResult *result,
                  gpointer user_data)
{
  LwnNotifier *self = user_data;

  switch (result->event)
    {
      case LWN_NOTIFY_CAPS:
        capabilities_known (self, result);
        break;
      case LWN_NOTIFY_SHOWN:
        shown (self, result);
        break;
      case LWN_NOTIFY_ACTION:
        action_invoked (self, result);
        break;
      case LWN_NOTIFY_CLOSED:
        notification_closed (self, result);
        break;
      case LWN_NOTIFY_PONG:
        self->n_pongs++;
        break;
      default:
        g_assert_not_reached ();
    }
}

void
lwn_notifier_watch_server (LwnNotifier *self)
{
  self->thread = lwn_notify_thread_new (g_get_application_name (), APP_ID, thread_result_cb, self);
  self->watch_id = g_bus_watch_name_on_connection (self->bus, NOTIFICATIONS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   name_appeared_cb, name_vanished_cb, self, NULL);
}

/* No answer reaches the notifier any more; the notification thread closes what it was asked to
 * close, leaves libnotify and ends, or is left to do so on its own if a server holds it. */
void
lwn_notifier_unwatch_server (LwnNotifier *self)
{
  g_clear_handle_id (&self->watch_id, g_bus_unwatch_name);
  if (self->thread != NULL && !lwn_notify_thread_stop (g_steal_pointer (&self->thread), STOP_WAIT_MS))
    g_message ("The notification server did not answer; not waiting for it");
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
lwn_notifier_sync (LwnNotifier *self)
{
  g_autoptr (GMainContext) context = g_main_context_ref_thread_default ();
  g_autoptr (GSource) timeout = NULL;
  guint pongs = self->n_pongs;
  gboolean timed_out = FALSE;

  if (self->thread == NULL)
    return FALSE;

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
