/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Desktop notifications for new headlines: plain-text summaries, markup only where the
 * server takes it, actions only where it offers them, each kept alive until closed. */

#include "config.h"

#include <glib/gi18n.h>
#include <libnotify/notify.h>

#include "lwn-notifier.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* Keys of the notifications that are not about one item; item ids are URLs or hashes. */
#define GROUP_KEY "lwn-tray:group"
#define MESSAGE_KEY "lwn-tray:message"

struct _LwnNotifier
{
  GObject parent_instance;

  gboolean enabled;
  gboolean initialised;
  /* item id (or GROUP_KEY, MESSAGE_KEY) → NotifyNotification, while shown */
  GHashTable *shown;
};

G_DEFINE_FINAL_TYPE (LwnNotifier, lwn_notifier, G_TYPE_OBJECT)

enum
{
  SIGNAL_OPEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Capabilities are the server's, and the server can be replaced while we run
 * (a new session daemon), so they are asked for each time. */
static gboolean
server_has_capability (const char *capability)
{
  GList *caps = notify_get_server_caps ();
  gboolean found = g_list_find_custom (caps, capability, (GCompareFunc) g_strcmp0) != NULL;

  g_list_free_full (caps, g_free);
  return found;
}

static gboolean
ensure_initialised (LwnNotifier *self)
{
  if (!self->initialised)
    self->initialised = notify_init (_("LWN.net headlines"));
  return self->initialised;
}

static void
notification_closed_cb (NotifyNotification *notification,
                        LwnNotifier *self)
{
  const char *key = g_object_get_data (G_OBJECT (notification), "lwn-key");

  if (key != NULL && g_hash_table_lookup (self->shown, key) == notification)
    g_hash_table_remove (self->shown, key);
}

static void
notification_action_cb (NotifyNotification *notification,
                        char *action,
                        gpointer user_data)
{
  LwnNotifier *self = user_data;
  const char *item_id = g_object_get_data (G_OBJECT (notification), "lwn-item-id");
  const char *url = g_object_get_data (G_OBJECT (notification), "lwn-url");

  if (lwn_url_is_launchable (url))
    g_signal_emit (self, signals[SIGNAL_OPEN], 0, item_id, url);
}

static char *
body_for_server (const char *plain_text)
{
  /* Without body-markup a server shows text as it is: escaping would show "&amp;". */
  if (server_has_capability ("body-markup"))
    return lwn_text_escape_markup (plain_text);
  return g_strdup (plain_text);
}

static void
show_notification (LwnNotifier *self,
                   const char *key,
                   const char *summary,
                   const char *plain_body,
                   const char *item_id,
                   const char *url)
{
  NotifyNotification *notification;
  g_autofree char *body = body_for_server (plain_body);
  g_autoptr (GError) error = NULL;

  /* The server renders the summary as plain text by the spec. */
  notification = notify_notification_new (summary, body, APP_ID);
  notify_notification_set_hint_string (notification, "desktop-entry", APP_ID);
  notify_notification_set_category (notification, "presence");
  g_object_set_data_full (G_OBJECT (notification), "lwn-key", g_strdup (key), g_free);
  g_object_set_data_full (G_OBJECT (notification), "lwn-item-id", g_strdup (item_id), g_free);
  g_object_set_data_full (G_OBJECT (notification), "lwn-url", g_strdup (url), g_free);

  if (lwn_url_is_launchable (url) && server_has_capability ("actions"))
    {
      notify_notification_add_action (notification, "default", _("Open"), notification_action_cb, self, NULL);
      notify_notification_add_action (notification, "read", _("Read article"), notification_action_cb, self, NULL);
    }
  g_signal_connect_object (notification, "closed", G_CALLBACK (notification_closed_cb), self, 0);

  if (!notify_notification_show (notification, &error))
    {
      g_warning ("Could not show a notification: %s", error->message);
      g_object_unref (notification);
      return;
    }

  /* Kept until closed: libnotify drops the actions of a notification that is freed. */
  g_hash_table_replace (self->shown, g_strdup (key), notification);
}

static void
announce_one (LwnNotifier *self,
              LwnFeedItem *item)
{
  g_autofree char *summary = lwn_text_strip_controls (lwn_feed_item_get_title (item));
  g_autofree char *body = lwn_text_from_html (lwn_feed_item_get_description (item), LWN_NOTIFIER_BODY_CHARS);

  show_notification (self, lwn_feed_item_get_id (item), summary, body,
                     lwn_feed_item_get_id (item), lwn_feed_item_get_url (item));
}

static void
announce_group (LwnNotifier *self,
                GPtrArray *items,
                const char *site_url)
{
  g_autofree char *summary = NULL;
  GString *body = g_string_new (NULL);
  g_autofree char *body_text = NULL;

  summary = g_strdup_printf (ngettext ("%u new LWN headline", "%u new LWN headlines", items->len), items->len);
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
  show_notification (self, GROUP_KEY, summary, body_text, NULL, site_url);
}

static void
lwn_notifier_dispose (GObject *object)
{
  LwnNotifier *self = LWN_NOTIFIER (object);

  g_clear_pointer (&self->shown, g_hash_table_unref);

  G_OBJECT_CLASS (lwn_notifier_parent_class)->dispose (object);
}

static void
lwn_notifier_finalize (GObject *object)
{
  LwnNotifier *self = LWN_NOTIFIER (object);

  if (self->initialised)
    notify_uninit ();

  G_OBJECT_CLASS (lwn_notifier_parent_class)->finalize (object);
}

static void
lwn_notifier_class_init (LwnNotifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_notifier_dispose;
  object_class->finalize = lwn_notifier_finalize;

  /**
   * LwnNotifier::open:
   * @item_id: (nullable): the item whose notification was acted on; %NULL for
   *   the grouped one
   * @url: the http(s) URL to open
   *
   * The user asked to read what a notification announced.
   */
  signals[SIGNAL_OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
lwn_notifier_init (LwnNotifier *self)
{
  self->enabled = TRUE;
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * lwn_notifier_new:
 *
 * Returns: (transfer full): a notifier; it connects to the notification
 *   server only when it first has something to show
 */
LwnNotifier *
lwn_notifier_new (void)
{
  return g_object_new (LWN_TYPE_NOTIFIER, NULL);
}

void
lwn_notifier_set_enabled (LwnNotifier *self,
                          gboolean enabled)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  self->enabled = enabled;
}

/**
 * lwn_notifier_announce:
 * @self: a #LwnNotifier
 * @items: (element-type LwnFeedItem): the new items, newest first
 * @max_single: up to this many items get a notification each
 * @site_url: (nullable): what the grouped notification opens
 *
 * Shows one notification per item, or a single grouped one when there are
 * more than @max_single. Does nothing while disabled. Failures
 * (no notification server) are logged, never fatal.
 */
void
lwn_notifier_announce (LwnNotifier *self,
                       GPtrArray *items,
                       guint max_single,
                       const char *site_url)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (!self->enabled || items->len == 0 || !ensure_initialised (self))
    return;

  if (items->len > max_single)
    {
      announce_group (self, items, site_url);
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
  NotifyNotification *notification;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  notification = g_hash_table_lookup (self->shown, item_id);
  if (notification == NULL)
    return;

  notify_notification_close (notification, NULL);
  g_hash_table_remove (self->shown, item_id);
}

/**
 * lwn_notifier_withdraw_all:
 * @self: a #LwnNotifier
 *
 * Closes every notification still shown (after "Mark all as read").
 */
void
lwn_notifier_withdraw_all (LwnNotifier *self)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  g_hash_table_iter_init (&iter, self->shown);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      notify_notification_close (value, NULL);
      g_hash_table_iter_remove (&iter);
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

  if (!ensure_initialised (self))
    return;

  show_notification (self, MESSAGE_KEY, summary, body, NULL, NULL);
}
