/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The panel icon and its menu: a fixed pool of GtkMenuItems changed in place, never rebuilt. */

#include "config.h"

#include <glib/gi18n.h>
#include <libayatana-appindicator/app-indicator.h>

#include "lwn-text.h"
#include "lwn-tray.h"

/* As many headline slots as the default max-items; more are added on demand. */
#define INITIAL_SLOTS 20
/* How long a present tray host may take to accept the item before it is created anew. */
#define HOST_CHECK_SECONDS 4
#define MAX_RECREATIONS 3

struct _LwnTray
{
  GObject parent_instance;

  AppIndicator *indicator;
  char *icon_theme_path;
  guint n_unread;
  GtkWidget *middle_click_target;
  guint host_check_id;
  guint n_recreated;
  gboolean registered; /* a host accepted the item */
  GtkMenu *menu;

  GtkWidget *message_item; /* "Loading headlines…", or why there are none */
  GPtrArray *slots;        /* GtkMenuItem*, one per possible headline */
  GtkWidget *headline_separator;
  GtkWidget *status_item;
  GtkWidget *refresh_item;
  GtkWidget *mark_read_item;
  GtkWidget *site_item;
  GtkWidget *autostart_item;
  gulong autostart_handler_id;
  GtkWidget *quit_item;

  guint n_shown;
  gboolean failed;
};

G_DEFINE_FINAL_TYPE (LwnTray, lwn_tray, G_TYPE_OBJECT)

enum
{
  SIGNAL_HEADLINE_ACTIVATED,
  SIGNAL_REFRESH,
  SIGNAL_MARK_ALL_READ,
  SIGNAL_OPEN_SITE,
  SIGNAL_QUIT,
  SIGNAL_PREFERENCES,
  SIGNAL_AUTOSTART_TOGGLED,
  SIGNAL_CONNECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Each setter below touches GTK (and so D-Bus) only on a real change:
 * dbusmenu hosts redraw, and some flicker, on every property update. */
static void
item_set_label (GtkWidget *item,
                const char *label)
{
  if (g_strcmp0 (gtk_menu_item_get_label (GTK_MENU_ITEM (item)), label) != 0)
    gtk_menu_item_set_label (GTK_MENU_ITEM (item), label);
}

static void
item_set_visible (GtkWidget *item,
                  gboolean visible)
{
  if (gtk_widget_get_visible (item) != visible)
    gtk_widget_set_visible (item, visible);
}

static void
item_set_sensitive (GtkWidget *item,
                    gboolean sensitive)
{
  if (gtk_widget_get_sensitive (item) != sensitive)
    gtk_widget_set_sensitive (item, sensitive);
}

static void
item_set_tooltip (GtkWidget *item,
                  const char *tooltip)
{
  g_autofree char *current = gtk_widget_get_tooltip_text (item);

  if (g_strcmp0 (current, tooltip) != 0)
    gtk_widget_set_tooltip_text (item, tooltip);
}

/* A label shown literally: feed text must never turn into a mnemonic. The
 * text is ellipsized first so that the cut can never split a "__" pair. */
static char *
literal_label (const char *prefix,
               const char *text,
               gsize max_chars)
{
  g_autofree char *short_text = lwn_text_ellipsize (text, max_chars);
  g_autofree char *escaped = lwn_text_escape_mnemonic (short_text);

  return g_strconcat (prefix, escaped, NULL);
}

static void
headline_activate_cb (GtkMenuItem *item,
                      LwnTray *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "lwn-slot"));

  if (index < self->n_shown)
    g_signal_emit (self, signals[SIGNAL_HEADLINE_ACTIVATED], 0, index);
}

static void
command_activate_cb (GtkMenuItem *item,
                     LwnTray *self)
{
  guint signal_id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "lwn-signal"));

  g_signal_emit (self, signals[signal_id], 0);
}

static GtkWidget *
append_item (LwnTray *self,
             const char *label,
             guint signal_id)
{
  GtkWidget *item = gtk_menu_item_new_with_mnemonic (label);

  g_object_set_data (G_OBJECT (item), "lwn-signal", GUINT_TO_POINTER (signal_id));
  g_signal_connect (item, "activate", G_CALLBACK (command_activate_cb), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), item);
  gtk_widget_show (item);
  return item;
}

static void
autostart_toggled_cb (GtkCheckMenuItem *item,
                      LwnTray *self)
{
  g_signal_emit (self, signals[SIGNAL_AUTOSTART_TOGGLED], 0, gtk_check_menu_item_get_active (item));
}

static void
add_slot (LwnTray *self)
{
  GtkWidget *item = gtk_menu_item_new ();
  guint index = self->slots->len;

  /* Use-underline stays on for every label, so that the escaping done by
   * literal_label() means the same to GTK and to dbusmenu hosts. */
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (item), TRUE);
  g_object_set_data (G_OBJECT (item), "lwn-slot", GUINT_TO_POINTER (index));
  g_signal_connect (item, "activate", G_CALLBACK (headline_activate_cb), self);
  /* Slots sit between the message item (position 0) and the separator. */
  gtk_menu_shell_insert (GTK_MENU_SHELL (self->menu), item, (int) index + 1);
  g_ptr_array_add (self->slots, g_object_ref_sink (item));
}

static void
indicator_connection_changed_cb (AppIndicator *indicator,
                                 gboolean connected,
                                 LwnTray *self)
{
  g_debug ("Tray host %s", connected ? "connected" : "gone");
  self->registered = connected;
  g_signal_emit (self, signals[SIGNAL_CONNECTION_CHANGED], 0, connected);
}

static void
build_menu (LwnTray *self)
{
  self->menu = GTK_MENU (g_object_ref_sink (gtk_menu_new ()));

  self->message_item = gtk_menu_item_new_with_label ("");
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (self->message_item), TRUE);
  gtk_widget_set_sensitive (self->message_item, FALSE);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->message_item);

  self->slots = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < INITIAL_SLOTS; i++)
    add_slot (self);

  self->headline_separator = gtk_separator_menu_item_new ();
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->headline_separator);
  gtk_widget_show (self->headline_separator);

  self->status_item = gtk_menu_item_new_with_label ("");
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (self->status_item), TRUE);
  gtk_widget_set_sensitive (self->status_item, FALSE);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->status_item);

  self->refresh_item = append_item (self, _("_Refresh now"), SIGNAL_REFRESH);
  self->mark_read_item = append_item (self, _("_Mark all as read"), SIGNAL_MARK_ALL_READ);
  self->site_item = append_item (self, _("_Open LWN.net"), SIGNAL_OPEN_SITE);
  append_item (self, _("_Preferences…"), SIGNAL_PREFERENCES);

  self->autostart_item = gtk_check_menu_item_new_with_mnemonic (_("_Start at login"));
  self->autostart_handler_id = g_signal_connect (self->autostart_item, "toggled", G_CALLBACK (autostart_toggled_cb), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->autostart_item);

  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), gtk_separator_menu_item_new ());
  self->quit_item = append_item (self, _("_Quit"), SIGNAL_QUIT);
  gtk_widget_show_all (GTK_WIDGET (self->menu));

  for (guint i = 0; i < self->slots->len; i++)
    gtk_widget_hide (g_ptr_array_index (self->slots, i));
  gtk_widget_hide (self->status_item);
}

static void
lwn_tray_dispose (GObject *object)
{
  LwnTray *self = LWN_TRAY (object);

  g_clear_handle_id (&self->host_check_id, g_source_remove);
  if (self->indicator != NULL)
    g_signal_handlers_disconnect_by_data (self->indicator, self);
  g_clear_object (&self->indicator);
  g_clear_pointer (&self->icon_theme_path, g_free);
  g_clear_pointer (&self->slots, g_ptr_array_unref);
  if (self->menu != NULL)
    gtk_widget_destroy (GTK_WIDGET (self->menu));
  g_clear_object (&self->menu);

  G_OBJECT_CLASS (lwn_tray_parent_class)->dispose (object);
}

static void
lwn_tray_class_init (LwnTrayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_tray_dispose;

  /**
   * LwnTray::headline-activated:
   * @index: the headline's position in the last lwn_tray_show_headlines() call
   */
  signals[SIGNAL_HEADLINE_ACTIVATED] = g_signal_new ("headline-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_REFRESH] = g_signal_new ("refresh", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_MARK_ALL_READ] = g_signal_new ("mark-all-read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_OPEN_SITE] = g_signal_new ("open-site", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_QUIT] = g_signal_new ("quit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_PREFERENCES] = g_signal_new ("preferences", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * LwnTray::autostart-toggled:
   * @enabled: what the user chose for "Start at login"
   */
  signals[SIGNAL_AUTOSTART_TOGGLED] = g_signal_new ("autostart-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /**
   * LwnTray::connection-changed:
   * @connected: whether a StatusNotifierItem host shows the icon now
   */
  signals[SIGNAL_CONNECTION_CHANGED] = g_signal_new ("connection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
lwn_tray_init (LwnTray *self)
{
}

/**
 * lwn_tray_new:
 * @icon_theme_path: (nullable): a folder with a hicolor/ tree to find the
 *   icons in, for a program run from its source tree
 *
 * Creates the indicator and its menu, showing "Loading headlines…".
 * The session bus connection must already exist (see lwn-application.c).
 *
 * Returns: (transfer full): a new #LwnTray
 */
static void
set_unread_count (LwnTray *self,
                  guint n_unread);

static void
create_indicator (LwnTray *self)
{
  self->indicator = app_indicator_new ("lwn-tray", APP_ID, APP_INDICATOR_CATEGORY_APPLICATION_STATUS);
  if (self->icon_theme_path != NULL)
    app_indicator_set_icon_theme_path (self->indicator, self->icon_theme_path);
  app_indicator_set_icon_full (self->indicator, APP_ID, _("LWN.net headlines"));
  app_indicator_set_attention_icon_full (self->indicator, APP_ID "-unread", _("Unread LWN.net headlines"));
  app_indicator_set_title (self->indicator, _("LWN.net headlines"));
  g_signal_connect (self->indicator, APP_INDICATOR_SIGNAL_CONNECTION_CHANGED,
                    G_CALLBACK (indicator_connection_changed_cb), self);

  app_indicator_set_menu (self->indicator, self->menu);
  app_indicator_set_status (self->indicator, APP_INDICATOR_STATUS_ACTIVE);
  set_unread_count (self, self->n_unread);
  if (self->middle_click_target != NULL)
    app_indicator_set_secondary_activate_target (self->indicator, self->middle_click_target);
}

static void
destroy_indicator (LwnTray *self)
{
  if (self->indicator == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->indicator, self);
  self->registered = FALSE;
  /* Passive first, so that a host that did see the item drops it. */
  app_indicator_set_status (self->indicator, APP_INDICATOR_STATUS_PASSIVE);
  g_clear_object (&self->indicator);
}

/* libayatana-appindicator 0.5.92 can lose the race between its own session bus
 * lookup and its watch on org.kde.StatusNotifierWatcher: it then logs
 * "g_dbus_proxy_new: assertion 'G_IS_DBUS_CONNECTION (connection)' failed" and
 * never registers, leaving no icon while a tray host is there. Newer releases
 * check for the connection first; here, an indicator created anew registers. */
static gboolean
host_check_cb (gpointer user_data)
{
  LwnTray *self = user_data;

  self->host_check_id = 0;
  if (lwn_tray_is_connected (self) || self->n_recreated >= MAX_RECREATIONS)
    return G_SOURCE_REMOVE;

  self->n_recreated++;
  g_message ("The tray host did not take the icon; creating it again (attempt %u)", self->n_recreated);
  destroy_indicator (self);
  create_indicator (self);
  self->host_check_id = g_timeout_add_seconds (HOST_CHECK_SECONDS, host_check_cb, self);
  return G_SOURCE_REMOVE;
}

/**
 * lwn_tray_expect_host:
 * @self: a #LwnTray
 *
 * Tells the tray that a StatusNotifierItem host is on the bus: if the icon is
 * not shown by it within a few seconds, the indicator is created anew.
 */
void
lwn_tray_expect_host (LwnTray *self)
{
  g_return_if_fail (LWN_IS_TRAY (self));

  if (self->host_check_id == 0 && !lwn_tray_is_connected (self))
    self->host_check_id = g_timeout_add_seconds (HOST_CHECK_SECONDS, host_check_cb, self);
}

/**
 * lwn_tray_new:
 * @icon_theme_path: (nullable): a folder with a hicolor/ tree to find the
 *   icons in, for a program run from its source tree
 *
 * Creates the indicator and its menu, showing "Loading headlines…".
 * The session bus connection must already exist (see lwn-application.c).
 *
 * Returns: (transfer full): a new #LwnTray
 */
LwnTray *
lwn_tray_new (const char *icon_theme_path)
{
  LwnTray *self = g_object_new (LWN_TYPE_TRAY, NULL);

  self->icon_theme_path = g_strdup (icon_theme_path);
  build_menu (self);
  lwn_tray_show_loading (self);
  create_indicator (self);
  return self;
}

static void
hide_headlines (LwnTray *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    item_set_visible (g_ptr_array_index (self->slots, i), FALSE);
  self->n_shown = 0;
}

static void
set_unread_count (LwnTray *self,
                  guint n_unread)
{
  AppIndicatorStatus status = n_unread > 0 ? APP_INDICATOR_STATUS_ATTENTION : APP_INDICATOR_STATUS_ACTIVE;
  g_autofree char *label = n_unread > 0 ? g_strdup_printf ("%u", n_unread) : g_strdup ("");

  const char *icon = n_unread > 0 ? APP_ID "-unread" : APP_ID;

  self->n_unread = n_unread;
  if (self->indicator == NULL)
    return;

  if (app_indicator_get_status (self->indicator) != status)
    app_indicator_set_status (self->indicator, status);
  /* Some hosts (xfce4-panel's systray among them) ignore NeedsAttention, so the
   * icon itself changes too. */
  if (g_strcmp0 (app_indicator_get_icon (self->indicator), icon) != 0)
    app_indicator_set_icon_full (self->indicator, icon,
                                 n_unread > 0 ? _("Unread LWN.net headlines") : _("LWN.net headlines"));
  if (g_strcmp0 (app_indicator_get_label (self->indicator), label) != 0)
    app_indicator_set_label (self->indicator, label, "99");
}

static void
show_message (LwnTray *self,
              const char *message)
{
  g_autofree char *label = literal_label ("", message, 2 * LWN_TRAY_LABEL_CHARS);

  hide_headlines (self);
  item_set_label (self->message_item, label);
  item_set_visible (self->message_item, TRUE);
  item_set_visible (self->status_item, FALSE);
  item_set_visible (self->mark_read_item, FALSE);
  set_unread_count (self, 0);
}

/**
 * lwn_tray_show_loading:
 * @self: a #LwnTray
 *
 * Shows the insensitive "Loading headlines…" placeholder instead of headlines.
 */
void
lwn_tray_show_loading (LwnTray *self)
{
  g_return_if_fail (LWN_IS_TRAY (self));

  self->failed = FALSE;
  show_message (self, _("Loading headlines…"));
  item_set_label (self->refresh_item, _("_Refresh now"));
}

/**
 * lwn_tray_show_failure:
 * @self: a #LwnTray
 * @reason: why there are no headlines, as a sentence
 *
 * For when there is nothing to show: "Could not load headlines: @reason"
 * and a "Retry" command.
 */
void
lwn_tray_show_failure (LwnTray *self,
                       const char *reason)
{
  g_autofree char *message = NULL;

  g_return_if_fail (LWN_IS_TRAY (self));

  /* Translators: %s is the reason, e.g. "HTTP status 404". */
  message = g_strdup_printf (_("Could not load headlines: %s"), reason);
  self->failed = TRUE;
  show_message (self, message);
  item_set_label (self->refresh_item, _("_Retry"));
}

/**
 * lwn_tray_show_headlines:
 * @self: a #LwnTray
 * @headlines: (array length=n_headlines): what to show, in order
 * @n_headlines: how many
 *
 * Shows the headlines in the menu, marks unread ones, and sets the attention
 * state and the unread count on the indicator. Only what differs from the
 * menu as it stands is changed.
 */
void
lwn_tray_show_headlines (LwnTray *self,
                         const LwnTrayHeadline *headlines,
                         guint n_headlines)
{
  guint n_unread = 0;
  GtkWidget *middle_click_target = NULL;

  g_return_if_fail (LWN_IS_TRAY (self));

  if (n_headlines == 0)
    {
      show_message (self, _("No headlines"));
      return;
    }

  while (self->slots->len < n_headlines)
    add_slot (self);

  for (guint i = 0; i < n_headlines; i++)
    {
      GtkWidget *item = g_ptr_array_index (self->slots, i);
      const LwnTrayHeadline *headline = &headlines[i];
      /* The marker carries the state in the text itself, for screen readers too. */
      g_autofree char *label = literal_label (headline->unread ? "• " : "", headline->title, LWN_TRAY_LABEL_CHARS);

      item_set_label (item, label);
      item_set_tooltip (item, headline->tooltip);
      item_set_sensitive (item, headline->openable);
      item_set_visible (item, TRUE);

      if (headline->unread)
        n_unread++;
      if (headline->openable && (middle_click_target == NULL || (headline->unread && n_unread == 1)))
        middle_click_target = item;
    }
  for (guint i = n_headlines; i < self->slots->len; i++)
    item_set_visible (g_ptr_array_index (self->slots, i), FALSE);
  self->n_shown = n_headlines;
  self->failed = FALSE;

  item_set_visible (self->message_item, FALSE);
  item_set_visible (self->status_item, TRUE);
  item_set_visible (self->mark_read_item, TRUE);
  item_set_sensitive (self->mark_read_item, n_unread > 0);
  item_set_label (self->refresh_item, _("_Refresh now"));

  /* Middle-click opens the newest unread headline (or the newest one). */
  self->middle_click_target = middle_click_target;
  if (app_indicator_get_secondary_activate_target (self->indicator) != middle_click_target)
    app_indicator_set_secondary_activate_target (self->indicator, middle_click_target);

  set_unread_count (self, n_unread);
}

/**
 * lwn_tray_set_status:
 * @self: a #LwnTray
 * @status: (nullable): the insensitive status line, e.g. "Updated 14:05"
 */
void
lwn_tray_set_status (LwnTray *self,
                     const char *status)
{
  g_autofree char *label = NULL;

  g_return_if_fail (LWN_IS_TRAY (self));

  label = literal_label ("", status != NULL ? status : "", 2 * LWN_TRAY_LABEL_CHARS);
  item_set_label (self->status_item, label);
}

/**
 * lwn_tray_set_site:
 * @self: a #LwnTray
 * @site_name: (nullable): the feed's title, for "Open …"
 * @available: whether the feed names a site that can be opened
 */
void
lwn_tray_set_site (LwnTray *self,
                   const char *site_name,
                   gboolean available)
{
  g_autofree char *label = NULL;

  g_return_if_fail (LWN_IS_TRAY (self));

  if (site_name == NULL || *site_name == '\0' || g_strcmp0 (site_name, "LWN.net") == 0)
    label = g_strdup (_("_Open LWN.net"));
  else
    {
      g_autofree char *escaped = literal_label ("", site_name, 40);
      /* Translators: %s is the name of the site the feed comes from. */
      label = g_strdup_printf (_("Open %s"), escaped);
    }

  item_set_label (self->site_item, label);
  item_set_sensitive (self->site_item, available);
}

/**
 * lwn_tray_set_autostart:
 * @self: a #LwnTray
 * @enabled: whether lwn-tray starts at login
 *
 * Shows the state of "Start at login" without emitting
 * #LwnTray::autostart-toggled.
 */
void
lwn_tray_set_autostart (LwnTray *self,
                        gboolean enabled)
{
  GtkCheckMenuItem *item;

  g_return_if_fail (LWN_IS_TRAY (self));

  item = GTK_CHECK_MENU_ITEM (self->autostart_item);
  if (gtk_check_menu_item_get_active (item) == enabled)
    return;

  g_signal_handler_block (item, self->autostart_handler_id);
  gtk_check_menu_item_set_active (item, enabled);
  g_signal_handler_unblock (item, self->autostart_handler_id);
}

/**
 * lwn_tray_is_connected:
 * @self: a #LwnTray
 *
 * Returns: whether a tray host currently shows the icon
 */
gboolean
lwn_tray_is_connected (LwnTray *self)
{
  g_return_val_if_fail (LWN_IS_TRAY (self), FALSE);

  /* Not the indicator's "connected" property: that only says a watcher is on
   * the bus, not that it took the item. */
  return self->registered;
}
