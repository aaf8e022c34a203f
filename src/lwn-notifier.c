/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Desktop notifications for new headlines, spoken to the notification server over D-Bus without ever
 * waiting for it: plain-text summaries, markup and actions only where the server takes them, and one
 * notification per key, updated in place while it is shown. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-notifier-private.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* https://specifications.freedesktop.org/notification-spec/latest/ */
#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
#define NOTIFICATIONS_PATH "/org/freedesktop/Notifications"
#define NOTIFICATIONS_IFACE "org.freedesktop.Notifications"
/* A vendor category: the spec reserves "presence" for contacts coming online. */
#define HEADLINE_CATEGORY "x-lwn-tray.headline"
/* libnotify's default: a server that does not answer in time is not waited for longer. */
#define CALL_TIMEOUT_MS 25000

/* Keys of the notifications that are not about one item; item ids are URLs or hashes. */
#define GROUP_KEY "lwn-tray:group"
#define MESSAGE_KEY "lwn-tray:message"

typedef struct
{
  char *key;
  char *summary;
  char *body; /* plain text */
  char *item_id;
  char *url;
  const char *category;
  guint32 id;         /* the server's, 0 until Notify answers */
  gboolean sending;   /* a Notify call for this key is under way */
  gboolean resend;    /* the content changed while it was */
  gboolean withdrawn; /* close it as soon as its id is known */
} Shown;

struct _LwnNotifier
{
  GObject parent_instance;

  GDBusConnection *bus;
  GCancellable *cancellable;
  guint watch_id;
  guint action_subscription;
  guint closed_subscription;

  /* The server's capabilities, cached until its name changes owner. */
  gboolean caps_known;
  gboolean caps_pending;
  gboolean body_markup;
  gboolean actions;
  gboolean told_no_server;
  GPtrArray *waiting; /* Shown* keys to send once the capabilities are known */

  GHashTable *shown; /* key → Shown* */
};

G_DEFINE_FINAL_TYPE (LwnNotifier, lwn_notifier, G_TYPE_OBJECT)

enum
{
  SIGNAL_OPEN,
  SIGNAL_SHOW_ALL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void send_notification (LwnNotifier *self,
                               Shown *shown);

static void
shown_free (Shown *shown)
{
  g_free (shown->key);
  g_free (shown->summary);
  g_free (shown->body);
  g_free (shown->item_id);
  g_free (shown->url);
  g_free (shown);
}

static Shown *
find_by_id (LwnNotifier *self,
            guint32 id)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->shown);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Shown *) value)->id == id && id != 0)
      return value;
  return NULL;
}

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

static void
close_notification (LwnNotifier *self,
                    guint32 id)
{
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE,
                          "CloseNotification", g_variant_new ("(u)", id), NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_TIMEOUT_MS, self->cancellable, close_cb, NULL);
}

/* A Notify call under way names its entry by key: the entry may be gone by
 * the time the server answers. */
typedef struct
{
  LwnNotifier *notifier; /* not a reference: dispose cancels the call */
  char *key;
} Sending;

static void
sending_free (Sending *sending)
{
  g_free (sending->key);
  g_free (sending);
}

static void
notify_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  Sending *sending = user_data;
  Shown *shown;
  LwnNotifier *self;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      sending_free (sending);
      return;
    }

  self = sending->notifier;
  shown = g_hash_table_lookup (self->shown, sending->key);
  sending_free (sending);
  if (shown == NULL)
    return;

  shown->sending = FALSE;
  if (reply == NULL)
    {
      g_warning ("Could not show a notification: %s", error->message);
      g_hash_table_remove (self->shown, shown->key);
      return;
    }

  g_variant_get (reply, "(u)", &shown->id);
  if (shown->withdrawn)
    {
      close_notification (self, shown->id);
      g_hash_table_remove (self->shown, shown->key);
    }
  else if (shown->resend)
    send_notification (self, shown);
}

static void
send_notification (LwnNotifier *self,
                   Shown *shown)
{
  g_autofree char *body = NULL;
  GVariantBuilder actions;
  GVariantBuilder hints;
  Sending *sending;

  if (shown->sending)
    {
      /* Sent again, with the id, once the server has answered. */
      shown->resend = TRUE;
      return;
    }

  /* Without body-markup a server shows text as it is: escaping would show "&amp;". */
  body = self->body_markup ? lwn_text_escape_markup (shown->body) : g_strdup (shown->body);

  g_variant_builder_init (&actions, G_VARIANT_TYPE ("as"));
  if (self->actions && lwn_url_is_launchable (shown->url))
    {
      g_variant_builder_add (&actions, "s", "default");
      g_variant_builder_add (&actions, "s", _ ("Open"));
    }

  g_variant_builder_init (&hints, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&hints, "{sv}", "desktop-entry", g_variant_new_string (APP_ID));
  if (shown->category != NULL)
    g_variant_builder_add (&hints, "{sv}", "category", g_variant_new_string (shown->category));

  shown->sending = TRUE;
  shown->resend = FALSE;
  sending = g_new0 (Sending, 1);
  sending->notifier = self;
  sending->key = g_strdup (shown->key);
  /* The summary is plain text by the spec; replaces_id updates a shown one in place. */
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE, "Notify",
                          g_variant_new ("(susssasa{sv}i)", g_get_application_name (), shown->id, APP_ID,
                                         shown->summary, body, &actions, &hints, -1),
                          G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS,
                          self->cancellable, notify_cb, sending);
}

static void
flush_waiting (LwnNotifier *self)
{
  g_autoptr (GPtrArray) waiting = g_steal_pointer (&self->waiting);

  self->waiting = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < waiting->len; i++)
    {
      Shown *shown = g_hash_table_lookup (self->shown, g_ptr_array_index (waiting, i));

      if (shown != NULL)
        send_notification (self, shown);
    }
}

static gboolean
strv_has (const char *const *strv,
          const char *value)
{
  return strv != NULL && g_strv_contains (strv, value);
}

/* Drops the notifications a server showed; keeps those still to be sent
 * (a server started on demand takes its name before it answers) and those
 * whose Notify call is under way, which its answer settles. */
static void
forget_shown (LwnNotifier *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->shown);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Shown *shown = value;

      if (shown->sending)
        continue;
      if (shown->id != 0)
        g_hash_table_iter_remove (&iter);
    }
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

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  self->caps_pending = FALSE;
  if (reply == NULL)
    {
      /* Once per absence: the applet goes on without notifications. */
      if (!self->told_no_server)
        g_message ("No notification server answers, so new headlines are not announced: %s", error->message);
      self->told_no_server = TRUE;
      g_ptr_array_set_size (self->waiting, 0);
      forget_shown (self);
      return;
    }

  g_variant_get (reply, "(^a&s)", &caps);
  self->caps_known = TRUE;
  self->told_no_server = FALSE;
  self->body_markup = strv_has (caps, "body-markup");
  self->actions = strv_has (caps, "actions");
  flush_waiting (self);
}

static void
request_capabilities (LwnNotifier *self)
{
  if (self->caps_pending)
    return;

  self->caps_pending = TRUE;
  /* May start an activatable server: the reply waits for it, the applet does not. */
  g_dbus_connection_call (self->bus, NOTIFICATIONS_NAME, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE,
                          "GetCapabilities", NULL, G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE,
                          CALL_TIMEOUT_MS, self->cancellable, capabilities_cb, self);
}

/* A new server (or none) has other capabilities and knows none of our ids. */
static void
server_changed (LwnNotifier *self)
{
  self->caps_known = FALSE;
  forget_shown (self);
}

static void
name_appeared_cb (GDBusConnection *connection,
                  const char *name,
                  const char *owner,
                  gpointer user_data)
{
  LwnNotifier *self = user_data;

  g_debug ("Notification server %s appeared", owner);
  server_changed (self);
  if (self->waiting->len > 0)
    request_capabilities (self);
}

static void
name_vanished_cb (GDBusConnection *connection,
                  const char *name,
                  gpointer user_data)
{
  server_changed (user_data);
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
  Shown *shown;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(us)")))
    return;

  g_variant_get (parameters, "(u&s)", &id, &action);
  shown = find_by_id (self, id);
  if (shown == NULL || !lwn_url_is_launchable (shown->url))
    return;

  if (g_str_equal (shown->key, GROUP_KEY))
    g_signal_emit (self, signals[SIGNAL_SHOW_ALL], 0, shown->url);
  else
    g_signal_emit (self, signals[SIGNAL_OPEN], 0, shown->item_id, shown->url);
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
  Shown *shown;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(uu)")))
    return;

  g_variant_get (parameters, "(uu)", &id, &reason);
  shown = find_by_id (self, id);
  if (shown != NULL && !shown->sending)
    g_hash_table_remove (self->shown, shown->key);
}

static void
show (LwnNotifier *self,
      const char *key,
      const char *summary,
      const char *plain_body,
      const char *item_id,
      const char *url,
      const char *category)
{
  Shown *shown = g_hash_table_lookup (self->shown, key);

  if (shown == NULL)
    {
      shown = g_new0 (Shown, 1);
      shown->key = g_strdup (key);
      g_hash_table_insert (self->shown, shown->key, shown);
    }

  g_free (shown->summary);
  shown->summary = g_strdup (summary);
  g_free (shown->body);
  shown->body = g_strdup (plain_body);
  g_free (shown->item_id);
  shown->item_id = g_strdup (item_id);
  g_free (shown->url);
  shown->url = g_strdup (url);
  shown->category = category;
  shown->withdrawn = FALSE;

  if (self->caps_known)
    {
      send_notification (self, shown);
      return;
    }

  if (!g_ptr_array_find_with_equal_func (self->waiting, key, g_str_equal, NULL))
    g_ptr_array_add (self->waiting, g_strdup (key));
  request_capabilities (self);
}

static void
withdraw (LwnNotifier *self,
          Shown *shown)
{
  if (shown->sending)
    {
      shown->withdrawn = TRUE;
      return;
    }

  if (shown->id != 0)
    close_notification (self, shown->id);
  g_hash_table_remove (self->shown, shown->key);
}

static void
announce_one (LwnNotifier *self,
              LwnFeedItem *item)
{
  g_autofree char *summary = lwn_text_strip_controls (lwn_feed_item_get_title (item));
  g_autofree char *body = lwn_text_ellipsize (lwn_feed_item_get_summary (item), LWN_NOTIFIER_BODY_CHARS);

  show (self, lwn_feed_item_get_id (item), summary, body, lwn_feed_item_get_id (item),
        lwn_feed_item_get_url (item), HEADLINE_CATEGORY);
}

static void
announce_group (LwnNotifier *self,
                GPtrArray *items,
                const char *site_name,
                const char *site_url)
{
  g_autofree char *summary = NULL;
  GString *body = g_string_new (NULL);
  g_autofree char *body_text = NULL;

  /* Translators: the first %u is a number, %s the feed's name, e.g. "7 new headlines from LWN.net". */
  summary = g_strdup_printf (ngettext ("%u new headline from %s", "%u new headlines from %s", items->len),
                             items->len, site_name);
  for (guint i = 0; i < items->len && i < 5; i++)
    {
      g_autofree char *title = lwn_text_strip_controls (lwn_feed_item_get_title (g_ptr_array_index (items, i)));
      g_autofree char *short_title = lwn_text_ellipsize (title, 80);

      if (body->len > 0)
        g_string_append_c (body, '\n');
      g_string_append_printf (body, "• %s", short_title);
    }
  if (items->len > 5)
    {
      g_string_append_c (body, '\n');
      g_string_append_printf (body, ngettext ("and %u more", "and %u more", items->len - 5), items->len - 5);
    }

  body_text = g_string_free (body, FALSE);
  show (self, GROUP_KEY, summary, body_text, NULL, site_url, HEADLINE_CATEGORY);
}

static void
lwn_notifier_dispose (GObject *object)
{
  LwnNotifier *self = LWN_NOTIFIER (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->watch_id, g_bus_unwatch_name);
  if (self->bus != NULL)
    {
      if (self->action_subscription != 0)
        g_dbus_connection_signal_unsubscribe (self->bus, self->action_subscription);
      if (self->closed_subscription != 0)
        g_dbus_connection_signal_unsubscribe (self->bus, self->closed_subscription);
      self->action_subscription = self->closed_subscription = 0;
    }
  g_clear_pointer (&self->shown, g_hash_table_unref);
  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->bus);

  G_OBJECT_CLASS (lwn_notifier_parent_class)->dispose (object);
}

static void
lwn_notifier_class_init (LwnNotifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_notifier_dispose;

  /**
   * LwnNotifier::open:
   * @item_id: the item whose notification was acted on
   * @url: the http(s) URL the notification was about
   *
   * The user asked to read what a notification announced.
   */
  signals[SIGNAL_OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnNotifier::show-all:
   * @url: the site the grouped notification was about
   *
   * The user acted on the notification that groups many new headlines.
   */
  signals[SIGNAL_SHOW_ALL] = g_signal_new ("show-all", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
lwn_notifier_init (LwnNotifier *self)
{
  self->cancellable = g_cancellable_new ();
  self->waiting = g_ptr_array_new_with_free_func (g_free);
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) shown_free);
}

/**
 * lwn_notifier_new:
 * @bus: the session bus
 *
 * Returns: (transfer full): a notifier; it asks the server for its
 *   capabilities when it first has something to show, and again whenever
 *   the server is replaced
 */
LwnNotifier *
lwn_notifier_new (GDBusConnection *bus)
{
  LwnNotifier *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (bus), NULL);

  self = g_object_new (LWN_TYPE_NOTIFIER, NULL);
  self->bus = g_object_ref (bus);
  self->watch_id = g_bus_watch_name_on_connection (bus, NOTIFICATIONS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   name_appeared_cb, name_vanished_cb, self, NULL);
  self->action_subscription = g_dbus_connection_signal_subscribe (bus, NOTIFICATIONS_NAME, NOTIFICATIONS_IFACE, "ActionInvoked",
                                                                  NOTIFICATIONS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                                  action_invoked_cb, self, NULL);
  self->closed_subscription = g_dbus_connection_signal_subscribe (bus, NOTIFICATIONS_NAME, NOTIFICATIONS_IFACE, "NotificationClosed",
                                                                  NOTIFICATIONS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                                  notification_closed_cb, self, NULL);
  return self;
}

/**
 * lwn_notifier_announce:
 * @self: a #LwnNotifier
 * @items: (element-type LwnFeedItem): the new items, newest first
 * @max_single: up to this many items get a notification each
 * @site_name: the feed's name, for the grouped notification
 * @site_url: (nullable): what the grouped notification is about
 *
 * Shows one notification per item, or a single grouped one when there are
 * more than @max_single; a grouped one still shown is updated in place.
 * Never waits for the server; failures (no
 * notification server) are logged, never fatal.
 */
void
lwn_notifier_announce (LwnNotifier *self,
                       GPtrArray *items,
                       guint max_single,
                       const char *site_name,
                       const char *site_url)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (items->len == 0)
    return;

  if (items->len > max_single)
    {
      announce_group (self, items, site_name, site_url);
      return;
    }

  for (guint i = 0; i < items->len; i++)
    announce_one (self, g_ptr_array_index (items, i));
}

/**
 * lwn_notifier_withdraw:
 * @self: a #LwnNotifier
 * @item_id: an item that was read
 *
 * Closes the item's notification, if it is still shown.
 */
void
lwn_notifier_withdraw (LwnNotifier *self,
                       const char *item_id)
{
  Shown *shown;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  shown = g_hash_table_lookup (self->shown, item_id);
  if (shown != NULL)
    withdraw (self, shown);
}

/**
 * lwn_notifier_withdraw_all:
 * @self: a #LwnNotifier
 *
 * Closes every headline notification still shown (after "Mark all as read").
 */
void
lwn_notifier_withdraw_all (LwnNotifier *self)
{
  g_autoptr (GList) all = NULL;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  all = g_hash_table_get_values (self->shown);
  for (GList *l = all; l != NULL; l = l->next)
    {
      Shown *shown = l->data;

      if (!g_str_equal (shown->key, MESSAGE_KEY))
        withdraw (self, shown);
    }
}

/**
 * lwn_notifier_show_message:
 * @self: a #LwnNotifier
 * @summary: one line
 * @body: plain text
 *
 * Shows a notification about the applet itself (not a headline), even when
 * headline notifications are turned off.
 */
void
lwn_notifier_show_message (LwnNotifier *self,
                           const char *summary,
                           const char *body)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  show (self, MESSAGE_KEY, summary, body, NULL, NULL, NULL);
}

/* Every notification it keeps, queued or shown, and every key waiting for the capabilities. */
guint
lwn_notifier_count_kept (LwnNotifier *self)
{
  g_return_val_if_fail (LWN_IS_NOTIFIER (self), 0);

  return g_hash_table_size (self->shown) + self->waiting->len;
}
