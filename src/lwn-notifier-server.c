/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notifier's conversation with the notification server over D-Bus, never waiting for it: which
 * server has the name, what it takes (asked once per server), sending and closing notifications, and
 * what the server says back. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-notifier-private.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* https://specifications.freedesktop.org/notification-spec/latest/ */
#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
#define NOTIFICATIONS_PATH "/org/freedesktop/Notifications"
#define NOTIFICATIONS_IFACE "org.freedesktop.Notifications"
/* libnotify's default: a server that does not answer in time is not waited for longer. */
#define CALL_TIMEOUT_MS 25000

static void
close_cb (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Could not close a notification: %s", error->message);
}

void
lwn_notifier_close_notification (LwnNotifier *self,
                                 guint32 id)
{
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE,
                          "CloseNotification", g_variant_new ("(u)", id), NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_TIMEOUT_MS, self->cancellable, close_cb, NULL);
}

/* A Notify call under way names its note by kind and item, and the server
 * it went to: by the time that server answers, another may have its name. */
typedef struct
{
  LwnNotifier *notifier; /* not a reference: dispose cancels the call */
  LwnNoteKind kind;
  char *item_id;
  guint generation;
} Sending;

static void
sending_free (Sending *sending)
{
  g_free (sending->item_id);
  g_free (sending);
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

static void
notify_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  Sending *sending = user_data;
  LwnNotifier *self;
  LwnNote *note;
  gboolean same_server;
  guint32 id = 0;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      sending_free (sending);
      return;
    }

  self = sending->notifier;
  note = lwn_notifier_find_note (self, sending->kind, sending->item_id);
  same_server = sending->generation == self->generation;
  sending_free (sending);
  g_return_if_fail (note != NULL && note->sending);

  note->sending = FALSE;
  if (reply != NULL)
    g_variant_get (reply, "(u)", &id);
  else if (same_server && !is_server_gone (error))
    {
      g_warning ("Could not show a notification: %s", error->message);
      lwn_notifier_drop_note (self, note);
      return;
    }
  else
    g_debug ("A notification waits for the next server: %s", error->message);

  if (reply == NULL || !same_server)
    {
      /* What a server that has gone showed went with it; what it never
       * showed, or what changed since, is for the next one, as new. */
      note->id = 0;
      if (note->withdrawn || (reply != NULL && !note->queued))
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

  note->id = id;
  if (note->withdrawn)
    {
      lwn_notifier_close_notification (self, id);
      lwn_notifier_drop_note (self, note);
    }
  else if (note->queued)
    lwn_notifier_deliver_queued (self);
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
  GVariantBuilder actions;
  GVariantBuilder hints;
  Sending *sending;

  if (note->kind == LWN_NOTE_GROUP)
    {
      lwn_notifier_dup_group_text (self, &group_summary, &group_body);
      summary = group_summary;
      plain_body = group_body;
    }

  /* Without body-markup a server shows text as it is: escaping would show "&amp;". */
  body = self->body_markup ? lwn_text_escape_markup (plain_body) : g_strdup (plain_body);

  g_variant_builder_init (&actions, G_VARIANT_TYPE ("as"));
  if (self->actions && lwn_url_is_launchable (note->url))
    {
      g_variant_builder_add (&actions, "s", "default");
      g_variant_builder_add (&actions, "s", _ ("Open"));
    }

  g_variant_builder_init (&hints, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&hints, "{sv}", "desktop-entry", g_variant_new_string (APP_ID));
  if (note->category != NULL)
    g_variant_builder_add (&hints, "{sv}", "category", g_variant_new_string (note->category));

  note->queued = FALSE;
  note->sending = TRUE;
  sending = g_new0 (Sending, 1);
  sending->notifier = self;
  sending->kind = note->kind;
  sending->item_id = g_strdup (note->item_id);
  sending->generation = self->generation;
  /* The summary is plain text by the spec; replaces_id updates a shown one in place. */
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE, "Notify",
                          g_variant_new ("(susssasa{sv}i)", g_get_application_name (), note->id, APP_ID,
                                         summary, body, &actions, &hints, -1),
                          G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS,
                          self->cancellable, notify_cb, sending);
}

static gboolean
strv_has (const char *const *strv,
          const char *value)
{
  return strv != NULL && g_strv_contains (strv, value);
}

static void
capabilities_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  LwnNotifier *self;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree const char **caps = NULL;

  /* Cancelled when the server changed: the answer was another server's. */
  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  g_clear_object (&self->caps_cancellable);
  if (reply == NULL)
    {
      /* A server that has the name and does not answer is not asked again;
       * without one, the next announcement may start one. */
      self->caps_refused = self->owner != NULL;
      if (!self->told_no_server)
        g_message ("No notification server answers, so new headlines wait for one: %s", error->message);
      self->told_no_server = TRUE;
      return;
    }

  g_variant_get (reply, "(^a&s)", &caps);
  self->caps_known = TRUE;
  self->told_no_server = FALSE;
  self->body_markup = strv_has (caps, "body-markup");
  self->actions = strv_has (caps, "actions");
  lwn_notifier_deliver_queued (self);
}

/* Once per server: asked again only when another has the name. */
static void
request_capabilities (LwnNotifier *self)
{
  if (self->caps_known || self->caps_refused || self->caps_cancellable != NULL)
    return;

  self->caps_cancellable = g_cancellable_new ();
  /* May start an activatable server: the reply waits for it, the applet does not. */
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE,
                          "GetCapabilities", NULL, G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE,
                          CALL_TIMEOUT_MS, self->caps_cancellable, capabilities_cb, self);
}

/* Sends what the server has not got yet, oldest first, once it has said what it takes. */
void
lwn_notifier_deliver_queued (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = NULL;

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
  if (self->caps_cancellable != NULL)
    g_cancellable_cancel (self->caps_cancellable);
  g_clear_object (&self->caps_cancellable);
  self->caps_known = FALSE;
  self->caps_refused = FALSE;

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
    request_capabilities (self);
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

static void
action_invoked_cb (GDBusConnection *connection,
                   const char *sender,
                   const char *path,
                   const char *interface,
                   const char *signal,
                   GVariant *parameters,
                   gpointer user_data)
{
  LwnNotifier *self = user_data;
  guint32 id;
  const char *action;
  LwnNote *note;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(us)")))
    return;

  g_variant_get (parameters, "(u&s)", &id, &action);
  note = lwn_notifier_find_by_id (self, id);
  if (note == NULL || !lwn_url_is_launchable (note->url))
    return;

  if (note->kind == LWN_NOTE_GROUP)
    g_signal_emit_by_name (self, "show-all", note->url);
  else if (note->kind == LWN_NOTE_ITEM)
    g_signal_emit_by_name (self, "open", note->item_id, note->url);
}

static void
notification_closed_cb (GDBusConnection *connection,
                        const char *sender,
                        const char *path,
                        const char *interface,
                        const char *signal,
                        GVariant *parameters,
                        gpointer user_data)
{
  LwnNotifier *self = user_data;
  guint32 id;
  guint32 reason;
  LwnNote *note;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(uu)")))
    return;

  /* Expired, dismissed or closed: a group's next batch counts from nothing. */
  g_variant_get (parameters, "(uu)", &id, &reason);
  note = lwn_notifier_find_by_id (self, id);
  if (note != NULL && !note->sending)
    lwn_notifier_drop_note (self, note);
}

void
lwn_notifier_watch_server (LwnNotifier *self)
{
  self->watch_id = g_bus_watch_name_on_connection (self->bus, NOTIFICATIONS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   name_appeared_cb, name_vanished_cb, self, NULL);
  self->action_subscription = g_dbus_connection_signal_subscribe (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_IFACE, "ActionInvoked",
                                                                  NOTIFICATIONS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                                  action_invoked_cb, self, NULL);
  self->closed_subscription = g_dbus_connection_signal_subscribe (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_IFACE, "NotificationClosed",
                                                                  NOTIFICATIONS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                                  notification_closed_cb, self, NULL);
}

/* Cancels every call under way: their answers no longer reach the notifier. */
void
lwn_notifier_unwatch_server (LwnNotifier *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->caps_cancellable != NULL)
    g_cancellable_cancel (self->caps_cancellable);
  g_clear_handle_id (&self->watch_id, g_bus_unwatch_name);
  if (self->bus != NULL)
    {
      if (self->action_subscription != 0)
        g_dbus_connection_signal_unsubscribe (self->bus, self->action_subscription);
      if (self->closed_subscription != 0)
        g_dbus_connection_signal_unsubscribe (self->bus, self->closed_subscription);
      self->action_subscription = self->closed_subscription = 0;
    }
  g_clear_object (&self->caps_cancellable);
  g_clear_object (&self->cancellable);
}
