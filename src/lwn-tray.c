/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The panel icon and its menu: a view of the feeds followed, a section each when there are several. One menu item per headline id, kept while
 * the headline is shown, so that a click the tray host sends late still means the headline it showed;
 * commands are the application's actions. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-desktop.h"
#include "lwn-indicator.h"
#include "lwn-newest-headlines.h"
#include "lwn-str-hash.h"
#include "lwn-submenu-prefetch.h"
#include "lwn-text.h"
#include "lwn-tray.h"

/* How long a present tray host may take to accept the item before it is created anew. */
#define HOST_CHECK_SECONDS 4
#define MAX_RECREATIONS 3

/* Below the headlines: the status line and seven commands, in two groups. */
#define N_COMMAND_ROWS 8
#define N_COMMAND_SEPARATORS 2

/* Up to this many feeds, each has a section of its own; past it, the newest
 * headlines of all share one list. */
#define LWN_TRAY_MAX_SECTIONS 3
/* Characters of a feed's name before a headline among those of many feeds. */
#define FEED_NAME_CHARS 20
/* With many feeds: the headlines the menu keeps when the screen is short,
 * and the rows it leaves, where it can, for the Feeds submenu to open into
 * when the host opens it inside the menu. */
#define MIN_NEWEST_ROWS 8
#define INLINE_SUBMENU_ROWS 4
/* The menu is remade at once after a change, a few times in a row, and then
 * at most once per UPDATE_INTERVAL_MS while changes keep coming: a refresh of
 * two hundred feeds, one server's after another, brings four hundred changes
 * in a second, and each remaking weighs every feed's headlines, while a
 * click must show its effect at once. */
#define UPDATE_BURST 3
#define UPDATE_INTERVAL_MS 200
#define UPDATE_INTERVAL_US (UPDATE_INTERVAL_MS * G_TIME_SPAN_MILLISECOND)

/* Names the tasks this file starts; its address is what matters. */
static char made_connection_source_tag;

/* Marks the connection lwn_tray_patch_session_bus_init() was given. */
static GQuark
made_connection_quark (void)
{
  return g_quark_from_static_string ("lwn-tray-connection-made");
}

struct _LwnTray
{
  GObject parent_instance;

  GActionGroup *actions; /* the application's, which outlives the tray */
  LwnFeedSet *feeds;
  GDBusConnection *session_bus; /* the process's, on which libdbusmenu-glib exports the menu */
  guint max_items;
  LwnMenuMetrics menu_metrics; /* how tall the tray host draws the menu */
  guint update_id;
  gint64 update_credit; /* µs of UPDATE_INTERVAL_US each update spends, up to UPDATE_BURST of them… */
  gint64 credit_at;     /* …as of this monotonic time */

  AppIndicator *indicator;
  LwnSubmenuPrefetch *submenu_prefetch; /* where the host opens submenus beside the menu */
  char *icon_theme_path;
  gboolean symbolic; /* monochrome icons, for panels that draw their own so */
  guint n_unread;
  GtkWidget *middle_click_target;
  guint host_check_id;
  guint n_recreated;
  gboolean registered; /* a host accepted the item */
  GtkMenu *menu;

  GtkWidget *message_item;    /* "Loading headlines…", or why there are none */
  GHashTable *headline_items; /* headline key → GtkCheckMenuItem, for the headlines shown */
  GHashTable *feed_items;     /* feed URL → its section's heading, with two or three feeds */
  GtkWidget *feeds_item;      /* "Feeds", with more: a submenu of them */
  GtkMenu *feeds_menu;
  GHashTable *feed_entries;      /* feed URL → its item in the Feeds submenu */
  GPtrArray *feed_entries_shown; /* GtkMenuItem*, in submenu order */
  GtkWidget *more_feeds_item;    /* last in the submenu when not every feed fits */
  gboolean marking;              /* setting an unread mark, which GTK does by activating the item */
  GPtrArray *shown;              /* GtkMenuItem*, in menu order */
  GtkWidget *status_item;
  GtkWidget *refresh_item;
  GtkWidget *mark_read_item;
  GtkWidget *site_item;
  GtkWidget *autostart_item;
  gulong autostart_handler_id;
};

G_DEFINE_FINAL_TYPE (LwnTray, lwn_tray, G_TYPE_OBJECT)

enum
{
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

/* Puts @item at @position of @menu. libdbusmenu-gtk, which sends the menu to
 * the tray host, follows items added and removed but not
 * gtk_menu_reorder_child(): the host would go on showing the old order. An
 * item in the wrong place is taken out and put back instead, which the host
 * sees (as a new item: a click on the old one finds nothing). */
static void
item_place (GtkMenu *menu,
            GtkWidget *item,
            int position)
{
  g_autoptr (GList) children = NULL;

  if (gtk_widget_get_parent (item) == NULL)
    {
      gtk_menu_shell_insert (GTK_MENU_SHELL (menu), item, position);
      return;
    }
  children = gtk_container_get_children (GTK_CONTAINER (menu));
  if (g_list_nth_data (children, (guint) position) == item)
    return;
  g_object_ref (item);
  gtk_container_remove (GTK_CONTAINER (menu), item);
  gtk_menu_shell_insert (GTK_MENU_SHELL (menu), item, position);
  g_object_unref (item);
}

/* Puts @items at @first and after in @menu, in their order; at every update
 * of the menu they usually are already, which one look at the menu tells. */
static void
items_place (GtkMenu *menu,
             GPtrArray *items,
             int first)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (menu));
  GList *child = g_list_nth (children, (guint) first);
  guint in_place = 0;

  for (; in_place < items->len && child != NULL; in_place++, child = child->next)
    if (child->data != g_ptr_array_index (items, in_place))
      break;
  for (guint i = in_place; i < items->len; i++)
    item_place (menu, g_ptr_array_index (items, i), first + (int) i);
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

/* The unread mark is the item's radio indicator, which hosts draw in a column
 * of its own: titles line up whether read or not, and a screen reader hears
 * the state as "checked". */
static void
show_unread_mark (LwnTray *self,
                  GtkMenuItem *item,
                  gboolean unread)
{
  GtkCheckMenuItem *check = GTK_CHECK_MENU_ITEM (item);

  g_object_set_data (G_OBJECT (item), "lwn-unread", GINT_TO_POINTER (unread));
  if (gtk_check_menu_item_get_active (check) == unread)
    return;

  /* GTK sets the state by activating the item, which must not open it. */
  self->marking = TRUE;
  gtk_check_menu_item_set_active (check, unread);
  self->marking = FALSE;
}

static void
headline_activate_cb (GtkMenuItem *item,
                      LwnTray *self)
{
  const char *feed = g_object_get_data (G_OBJECT (item), "lwn-feed");
  const char *id = g_object_get_data (G_OBJECT (item), "lwn-item-id");
  gboolean unread = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "lwn-unread"));

  if (self->marking)
    return;
  /* GTK toggled the mark on activation; only the reading model changes it. */
  show_unread_mark (self, item, unread);
  g_action_group_activate_action (self->actions, "open-headline", g_variant_new ("(ss)", feed, id));
}

static void
command_activate_cb (GtkMenuItem *item,
                     LwnTray *self)
{
  const char *action = g_object_get_data (G_OBJECT (item), "lwn-action");

  g_action_group_activate_action (self->actions, action, NULL);
}

static GtkWidget *
append_command (LwnTray *self,
                const char *label,
                const char *action)
{
  GtkWidget *item = gtk_menu_item_new_with_mnemonic (label);

  g_object_set_data (G_OBJECT (item), "lwn-action", (gpointer) action);
  g_signal_connect (item, "activate", G_CALLBACK (command_activate_cb), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), item);
  return item;
}

static void
autostart_toggled_cb (GtkCheckMenuItem *item,
                      LwnTray *self)
{
  g_action_group_change_action_state (self->actions, "autostart",
                                      g_variant_new_boolean (gtk_check_menu_item_get_active (item)));
}

static void
show_autostart_state (LwnTray *self)
{
  GtkCheckMenuItem *item = GTK_CHECK_MENU_ITEM (self->autostart_item);
  g_autoptr (GVariant) state = g_action_group_get_action_state (self->actions, "autostart");
  gboolean enabled = state != NULL && g_variant_get_boolean (state);

  if (gtk_check_menu_item_get_active (item) == enabled)
    return;

  g_signal_handler_block (item, self->autostart_handler_id);
  gtk_check_menu_item_set_active (item, enabled);
  g_signal_handler_unblock (item, self->autostart_handler_id);
}

static void
action_state_changed_cb (GActionGroup *actions,
                         const char *name,
                         GVariant *state,
                         LwnTray *self)
{
  if (g_str_equal (name, "autostart"))
    show_autostart_state (self);
}

static GtkWidget *
new_headline_item (LwnTray *self,
                   LwnHeadline *headline)
{
  GtkWidget *item = gtk_check_menu_item_new ();

  gtk_check_menu_item_set_draw_as_radio (GTK_CHECK_MENU_ITEM (item), TRUE);
  /* Use-underline stays on for every label, so that the escaping done by
   * literal_label() means the same to GTK and to dbusmenu hosts. */
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (item), TRUE);
  /* A headline is its feed's: an id means something only within the feed that sent it. */
  g_object_set_data_full (G_OBJECT (item), "lwn-feed", g_strdup (lwn_headline_get_feed (headline)), g_free);
  g_object_set_data_full (G_OBJECT (item), "lwn-item-id", g_strdup (lwn_headline_get_id (headline)), g_free);
  g_signal_connect (item, "activate", G_CALLBACK (headline_activate_cb), self);
  gtk_widget_show (item);
  return g_object_ref_sink (item);
}

static void
indicator_connection_changed_cb (AppIndicator *indicator,
                                 gboolean connected,
                                 LwnTray *self)
{
  g_debug ("Tray host %s", connected ? "connected" : "gone");
  self->registered = connected;
  /* Taken: a host that leaves later did not refuse it, and one that comes
   * back after a restart gets its own attempts. */
  if (connected)
    {
      g_clear_handle_id (&self->host_check_id, g_source_remove);
      self->n_recreated = 0;
    }
  g_signal_emit (self, signals[SIGNAL_CONNECTION_CHANGED], 0, connected);
}

static void
more_feeds_activate_cb (GtkMenuItem *item,
                        LwnTray *self)
{
  const char *start = g_object_get_data (G_OBJECT (item), "lwn-feed");

  g_action_group_activate_action (self->actions, "choose-feed", g_variant_new_string (start != NULL ? start : ""));
}

static void
build_menu (LwnTray *self)
{
  GtkWidget *feeds_keeper;

  self->menu = GTK_MENU (g_object_ref_sink (gtk_menu_new ()));

  self->message_item = gtk_menu_item_new_with_label ("");
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (self->message_item), TRUE);
  gtk_widget_set_sensitive (self->message_item, FALSE);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->message_item);

  /* Headlines go here, between the message and the Feeds submenu. */
  self->feeds_item = gtk_menu_item_new_with_mnemonic (_ ("All _Feeds"));
  self->feeds_menu = GTK_MENU (gtk_menu_new ());
  gtk_menu_item_set_submenu (GTK_MENU_ITEM (self->feeds_item), GTK_WIDGET (self->feeds_menu));
  /* Never empty, whatever feeds it lists: libdbusmenu says an item with no
   * children is no submenu, and a host that saw All Feeds so while the
   * headlines loaded (Plasma's) kept it a plain item once the feeds came. */
  feeds_keeper = gtk_menu_item_new ();
  gtk_widget_set_no_show_all (feeds_keeper, TRUE);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->feeds_menu), feeds_keeper);
  self->more_feeds_item = gtk_menu_item_new_with_label ("");
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (self->more_feeds_item), TRUE);
  gtk_widget_set_no_show_all (self->more_feeds_item, TRUE);
  g_signal_connect (self->more_feeds_item, "activate", G_CALLBACK (more_feeds_activate_cb), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->feeds_menu), self->more_feeds_item);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->feeds_item);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), gtk_separator_menu_item_new ());

  self->status_item = gtk_menu_item_new_with_label ("");
  gtk_menu_item_set_use_underline (GTK_MENU_ITEM (self->status_item), TRUE);
  gtk_widget_set_sensitive (self->status_item, FALSE);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->status_item);

  append_command (self, _ ("Show _Headlines…"), "show-headlines");
  self->refresh_item = append_command (self, _ ("_Refresh now"), "refresh");
  self->mark_read_item = append_command (self, _ ("_Mark all as read"), "mark-all-read");
  self->site_item = append_command (self, _ ("_Open LWN.net"), "open-site");
  append_command (self, _ ("_Preferences…"), "preferences");

  self->autostart_item = gtk_check_menu_item_new_with_mnemonic (_ ("_Start at login"));
  self->autostart_handler_id = g_signal_connect (self->autostart_item, "toggled", G_CALLBACK (autostart_toggled_cb), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), self->autostart_item);

  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), gtk_separator_menu_item_new ());
  append_command (self, _ ("_Quit"), "quit");
  gtk_widget_show_all (GTK_WIDGET (self->menu));
  gtk_widget_hide (self->status_item);
  gtk_widget_hide (self->feeds_item);
}

/* libayatana-appindicator 0.5.92 (Debian 12) can lose a race at start-up,
 * about one start in a thousand on a loaded machine or under the sanitizers,
 * more often with the processors busy. app_indicator_init() makes two
 * lookups of the session bus that GLib answers independently:
 * g_bus_watch_name() for the tray host's org.kde.StatusNotifierWatcher, and
 * g_bus_get() for the connection the indicator keeps. GLib 2.74 completes
 * every g_bus_get(), even of a connection made already, in a worker thread
 * of its pool, so either may answer first. The watch then asks the bus who
 * owns the watcher's name, which usually gives the indicator's own lookup
 * the time to answer; when its thread is slow to run, the watch says the
 * watcher is there while the indicator has no connection yet:
 * name_appeared_handler() gives g_dbus_proxy_new() a NULL connection, GLib
 * logs "g_dbus_proxy_new: assertion 'G_IS_DBUS_CONNECTION (connection)'
 * failed" (fatal under G_DEBUG=fatal-criticals) and the item never
 * registers with that host.
 *
 * Connecting before the indicator is created does not change that: the
 * lookups still go through the worker threads. What makes the order certain
 * is for a lookup of a connection made already to answer from the caller's
 * main loop, in call order, without a thread: both answers are then queued
 * before the main loop runs again, the indicator's right after the watch's,
 * and the watch's question to the bus can only be answered later. So for the
 * one connection this process made already, which has nothing left to
 * initialise, GDBusConnection's asynchronous initialisation answers at once;
 * every other connection keeps GLib's own. */
static void (*thread_init_async) (GAsyncInitable *initable,
                                  int io_priority,
                                  GCancellable *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer user_data);

static void
made_connection_init_async (GAsyncInitable *initable,
                            int io_priority,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  if (g_object_get_qdata (G_OBJECT (initable), made_connection_quark ()) == NULL)
    {
      thread_init_async (initable, io_priority, cancellable, callback, user_data);
      return;
    }

  /* GLib's own finish function takes this: a task of the initable's. */
  task = g_task_new (initable, cancellable, callback, user_data);
  g_task_set_source_tag (task, &made_connection_source_tag);
  g_task_set_priority (task, io_priority);
  g_task_return_boolean (task, TRUE);
}

/**
 * lwn_tray_patch_session_bus_init:
 * @session_bus: the process's session bus connection, made already (with
 *   g_bus_get_sync())
 *
 * Patches GLib for the whole process: from then on, g_bus_get() of
 * @session_bus answers from the caller's main loop rather than from a
 * worker thread, which the indicator needs (see above). Call it once, before any other thread may look up a bus: it
 * changes a table the whole process shares. When GLib gives GDBusConnection
 * an asynchronous initialisation of its own, this leaves it alone.
 */
void
lwn_tray_patch_session_bus_init (GDBusConnection *session_bus)
{
  static gsize overridden = 0;

  g_return_if_fail (G_IS_DBUS_CONNECTION (session_bus));

  g_object_set_qdata (G_OBJECT (session_bus), made_connection_quark (), GINT_TO_POINTER (TRUE));
  if (g_once_init_enter (&overridden))
    {
      /* The class stays referenced: the table below lives in it. */
      GAsyncInitableIface *iface = g_type_interface_peek (g_type_class_ref (G_TYPE_DBUS_CONNECTION),
                                                          G_TYPE_ASYNC_INITABLE);
      GAsyncInitableIface *generic = g_type_default_interface_peek (G_TYPE_ASYNC_INITABLE);

      /* Only GLib's generic, threaded version is known to take our task in
       * its finish function; anything else is GLib's own, better answer. */
      if (generic != NULL && iface->init_async == generic->init_async && iface->init_finish == generic->init_finish)
        {
          thread_init_async = iface->init_async;
          iface->init_async = made_connection_init_async;
        }
      else
        g_debug ("GDBusConnection initialises on its own; bus lookups keep GLib's order");
      g_once_init_leave (&overridden, 1);
    }
}

static void
set_unread_count (LwnTray *self,
                  guint n_unread);

/* The icons are in hicolor: the full-colour ones in scalable/ and as PNGs,
 * the monochrome ones in symbolic/, which the host draws in its own colour. */
static const char *
icon_name (LwnTray *self,
           gboolean unread)
{
  if (self->symbolic)
    return unread ? APP_ID "-unread-symbolic" : APP_ID "-symbolic";
  return unread ? APP_ID "-unread" : APP_ID;
}

static void
create_indicator (LwnTray *self)
{
  self->indicator = lwn_indicator_new ("lwn-tray", icon_name (self, FALSE));
  if (self->icon_theme_path != NULL)
    app_indicator_set_icon_theme_path (self->indicator, self->icon_theme_path);
  app_indicator_set_icon_full (self->indicator, icon_name (self, FALSE), _ ("LWN.net headlines"));
  app_indicator_set_attention_icon_full (self->indicator, icon_name (self, TRUE), _ ("Unread LWN.net headlines"));
  g_signal_connect (self->indicator, APP_INDICATOR_SIGNAL_CONNECTION_CHANGED,
                    G_CALLBACK (indicator_connection_changed_cb), self);

  app_indicator_set_menu (self->indicator, self->menu);
  /* GNOME Shell has every submenu with the menu's layout, and fetches the
   * whole layout again at any change said. */
  if (!self->menu_metrics.inline_submenus)
    self->submenu_prefetch = lwn_submenu_prefetch_new (self->indicator, self->session_bus);
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
  g_clear_pointer (&self->submenu_prefetch, lwn_submenu_prefetch_free);
  self->registered = FALSE;
  /* Passive first, so that a host that did see the item drops it. */
  app_indicator_set_status (self->indicator, APP_INDICATOR_STATUS_PASSIVE);
  g_clear_object (&self->indicator);
}

static void
set_unread_count (LwnTray *self,
                  guint n_unread)
{
  AppIndicatorStatus status = n_unread > 0 ? APP_INDICATOR_STATUS_ATTENTION : APP_INDICATOR_STATUS_ACTIVE;
  g_autofree char *label = n_unread > 0 ? g_strdup_printf ("%u", n_unread) : g_strdup ("");
  const char *icon = icon_name (self, n_unread > 0);
  /* Translators: the tray item's tooltip; %u is how many headlines are unread. */
  g_autofree char *title = n_unread > 0 ? g_strdup_printf (ngettext ("LWN.net — %u unread", "LWN.net — %u unread",
                                                                     n_unread),
                                                           n_unread)
                                        : g_strdup (_ ("LWN.net headlines"));

  self->n_unread = n_unread;
  if (self->indicator == NULL)
    return;

  if (app_indicator_get_status (self->indicator) != status)
    app_indicator_set_status (self->indicator, status);
  /* Some hosts (xfce4-panel's systray among them) ignore NeedsAttention, so the
   * icon itself changes too. */
  if (g_strcmp0 (app_indicator_get_icon (self->indicator), icon) != 0)
    app_indicator_set_icon_full (self->indicator, icon,
                                 n_unread > 0 ? _ ("Unread LWN.net headlines") : _ ("LWN.net headlines"));
  if (g_strcmp0 (app_indicator_get_label (self->indicator), label) != 0)
    app_indicator_set_label (self->indicator, label, "99");
  /* Plasma shows no label, but shows the title as the item's tooltip: the
   * title carries the count too. */
  if (g_strcmp0 (app_indicator_get_title (self->indicator), title) != 0)
    app_indicator_set_title (self->indicator, title);
}

static void
set_middle_click_target (LwnTray *self,
                         GtkWidget *target)
{
  self->middle_click_target = target;
  if (self->indicator != NULL && app_indicator_get_secondary_activate_target (self->indicator) != target)
    app_indicator_set_secondary_activate_target (self->indicator, target);
}

/* Puts @items in the menu in this order, right after the message item; menu
 * items of headlines no longer shown are destroyed, so that a late click on
 * one opens nothing rather than whatever took its place. */
static void
place_headline_items (LwnTray *self,
                      GPtrArray *items)
{
  g_autoptr (GHashTable) keep = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < items->len; i++)
    g_hash_table_add (keep, g_ptr_array_index (items, i));

  g_hash_table_iter_init (&iter, self->headline_items);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (!g_hash_table_contains (keep, value))
      {
        if (value == self->middle_click_target)
          set_middle_click_target (self, NULL);
        g_ptr_array_remove (self->shown, value);
        g_hash_table_iter_remove (&iter);
      }

  items_place (self->menu, items, 1);

  g_ptr_array_set_size (self->shown, 0);
  g_ptr_array_extend (self->shown, items, NULL, NULL);
}

static void drop_feed_headings (LwnTray *self,
                                GPtrArray *items);

/* The Feeds submenu shows with many feeds only; without, it holds nothing. */
static void
show_feeds_item (LwnTray *self,
                 gboolean shown)
{
  item_set_visible (self->feeds_item, shown);
  if (!shown)
    {
      g_hash_table_remove_all (self->feed_entries);
      g_ptr_array_set_size (self->feed_entries_shown, 0);
      item_set_visible (self->more_feeds_item, FALSE);
    }
}

static void
show_message (LwnTray *self,
              const char *message)
{
  g_autofree char *label = literal_label ("", message, 2 * LWN_TRAY_LABEL_CHARS);
  g_autoptr (GPtrArray) none = g_ptr_array_new ();

  drop_feed_headings (self, none);
  place_headline_items (self, none);
  show_feeds_item (self, FALSE);
  item_set_label (self->message_item, label);
  item_set_visible (self->message_item, TRUE);
  item_set_visible (self->mark_read_item, FALSE);
  set_middle_click_target (self, NULL);
  set_unread_count (self, 0);
}

/* The smallest monitor's height: the menu opens on the panel's monitor,
 * which the applet cannot know. G_MAXINT without a monitor. */
static int
smallest_monitor_height (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  int height = G_MAXINT;

  for (int i = 0; display != NULL && i < gdk_display_get_n_monitors (display); i++)
    {
      GdkRectangle geometry;

      gdk_monitor_get_geometry (gdk_display_get_monitor (display, i), &geometry);
      if (geometry.height > 0)
        height = MIN (height, geometry.height);
    }
  return height;
}

/* No host scrolls a tray menu that is too tall (GNOME's extension lets it run
 * off the screen, Qt splits it into columns), so the menu takes no more
 * headlines than leave the commands on screen, the feeds' headings counted;
 * the window shows them all. */
static guint
headlines_that_fit (LwnTray *self,
                    guint n_headings)
{
  guint fit = lwn_desktop_fit_menu_rows (&self->menu_metrics, smallest_monitor_height (), N_COMMAND_ROWS + n_headings,
                                         N_COMMAND_SEPARATORS);

  return MIN (fit, self->max_items);
}

/* Shares @budget rows between the feeds a headline at a time, in turn, so
 * that every feed shows its newest ones and a short feed leaves its rows to
 * the others. */
static void
share_rows (guint *rows,
            const guint *available,
            guint n_feeds,
            guint budget)
{
  gboolean given = TRUE;

  memset (rows, 0, n_feeds * sizeof (guint));
  while (budget > 0 && given)
    {
      given = FALSE;
      for (guint i = 0; i < n_feeds && budget > 0; i++)
        if (rows[i] < available[i])
          {
            rows[i]++;
            budget--;
            given = TRUE;
          }
    }
}

/* A feed's label: its name, and its unread count or what it lacks. */
static char *
dup_feed_text (LwnReader *reader,
               gboolean with_unread)
{
  g_autofree char *name = lwn_reader_dup_name (reader);
  LwnReaderState state = lwn_reader_get_state (reader);
  guint n_unread = lwn_reader_get_n_unread (reader);

  if (state == LWN_READER_STATE_FAILED)
    /* Translators: a feed's heading in the menu when it could not be loaded; %s is its name. */
    return g_strdup_printf (_ ("%s — could not load"), name);
  if (state == LWN_READER_STATE_LOADING)
    /* Translators: a feed's heading in the menu before its first headlines; %s is its name. */
    return g_strdup_printf (_ ("%s — loading…"), name);
  if (g_list_model_get_n_items (lwn_reader_get_headlines (reader)) == 0)
    /* Translators: a feed's heading in the menu when it has no headlines; %s is its name. */
    return g_strdup_printf (_ ("%s — no headlines"), name);
  if (with_unread && n_unread > 0)
    /* Translators: a feed in the menu's list of feeds; %s is its name, %u how many of its headlines are unread. */
    return g_strdup_printf (ngettext ("%s — %u unread", "%s — %u unread", n_unread), name, n_unread);
  return g_steal_pointer (&name);
}

/* The heading of a feed's section: its name, and what it lacks. */
static GtkWidget *
feed_heading (LwnTray *self,
              LwnReader *reader)
{
  const char *url = lwn_reader_get_feed_url (reader);
  GtkWidget *item = g_hash_table_lookup (self->feed_items, url);
  g_autofree char *text = dup_feed_text (reader, FALSE);
  g_autofree char *label = literal_label ("", text, LWN_TRAY_LABEL_CHARS);

  if (item == NULL)
    {
      item = gtk_menu_item_new_with_label ("");
      gtk_menu_item_set_use_underline (GTK_MENU_ITEM (item), TRUE);
      gtk_widget_set_sensitive (item, FALSE);
      gtk_widget_show (item);
      g_hash_table_insert (self->feed_items, g_strdup (url), g_object_ref_sink (item));
    }
  item_set_label (item, label);
  return item;
}

/* Headings of feeds that are gone, or of the one feed left, leave the menu. */
static void
drop_feed_headings (LwnTray *self,
                    GPtrArray *items)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->feed_items);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (!g_ptr_array_find (items, value, NULL))
      {
        g_ptr_array_remove (self->shown, value);
        g_hash_table_iter_remove (&iter);
      }
}

/* The menu item of @headline, made or found, labelled with its title, after
 * @feed_name when headlines of several feeds share the list. */
static GtkWidget *
headline_item (LwnTray *self,
               LwnHeadline *headline,
               const char *feed_name)
{
  g_autofree char *key = lwn_headline_dup_key (headline);
  GtkWidget *item = g_hash_table_lookup (self->headline_items, key);
  LwnFeedItem *feed_item = lwn_headline_get_item (headline);
  gboolean named = feed_name != NULL;

  if (item == NULL)
    {
      item = new_headline_item (self, headline);
      g_hash_table_insert (self->headline_items, g_steal_pointer (&key), item);
    }

  /* Items never change: the label made for this one is still right, unless
   * its feed's name came or went. */
  if (g_object_get_data (G_OBJECT (item), "lwn-feed-item") != feed_item || named
      || GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "lwn-named")) != named)
    {
      g_autofree char *text = NULL;
      g_autofree char *label = NULL;

      if (named)
        /* Translators: a headline in the menu among those of many feeds: the feed's short name, then the title. */
        text = g_strdup_printf (_ ("%s: %s"), feed_name, lwn_headline_get_title (headline));
      label = literal_label ("", text != NULL ? text : lwn_headline_get_title (headline), LWN_TRAY_LABEL_CHARS);
      item_set_label (item, label);
      g_object_set_data (G_OBJECT (item), "lwn-named", GINT_TO_POINTER (named));
      g_object_set_data_full (G_OBJECT (item), "lwn-feed-item", lwn_feed_item_ref (feed_item),
                              (GDestroyNotify) lwn_feed_item_unref);
    }
  show_unread_mark (self, GTK_MENU_ITEM (item), lwn_headline_get_unread (headline));
  item_set_sensitive (item, lwn_headline_get_url (headline) != NULL);
  return item;
}

/* Middle-click opens the newest unread headline of the first feed that has
 * one, or the first feed's newest one. */
static void
consider_target (GtkWidget *item,
                 LwnHeadline *headline,
                 GtkWidget **target,
                 gboolean *target_unread)
{
  gboolean unread = lwn_headline_get_unread (headline);

  if (lwn_headline_get_url (headline) != NULL && (*target == NULL || (unread && !*target_unread)))
    {
      *target = item;
      *target_unread = unread;
    }
}

/* Adds @rows headlines of @reader to @items. */
static void
add_headline_items (LwnTray *self,
                    LwnReader *reader,
                    guint rows,
                    GPtrArray *items,
                    GtkWidget **target,
                    gboolean *target_unread)
{
  GListModel *headlines = lwn_reader_get_headlines (reader);

  for (guint i = 0; i < rows; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);
      GtkWidget *item = headline_item (self, headline, NULL);

      g_ptr_array_add (items, item);
      consider_target (item, headline, target, target_unread);
    }
}

static void
feed_entry_activate_cb (GtkMenuItem *item,
                        LwnTray *self)
{
  const char *url = g_object_get_data (G_OBJECT (item), "lwn-feed");

  g_action_group_activate_action (self->actions, "show-feed", g_variant_new_string (url));
}

/* How many rows the Feeds submenu may have. A host that opens it beside the
 * menu lets it be no taller than the screen: waybar's neither scrolls nor
 * shrinks it, and Plasma places a taller one off the screen the first time
 * it opens. GNOME Shell opens it inside the menu, which scrolls. */
static guint
feed_entries_that_fit (LwnTray *self)
{
  if (self->menu_metrics.inline_submenus)
    return G_MAXUINT;
  /* One feed and "N more feeds…" at the least, whatever the screen. */
  return MAX (lwn_desktop_fit_menu_rows (&self->menu_metrics, smallest_monitor_height (), 0, 0), 2);
}

/* The Feeds submenu: the feeds, in the list's order, each opening the
 * window on its headlines; when they do not all fit, as many as do, and
 * last "N more feeds…", which opens the window's list of every feed. Items
 * are kept by address, so that only what changed is sent to the tray host. */
static void
show_feed_entries (LwnTray *self)
{
  guint n_feeds = lwn_feed_set_get_n_feeds (self->feeds);
  guint fit = feed_entries_that_fit (self);
  guint n_listed = n_feeds <= fit ? n_feeds : fit - 1;
  g_autoptr (GPtrArray) ordered = g_ptr_array_new ();
  g_autoptr (GHashTable) listed = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < n_listed; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);
      const char *url = lwn_reader_get_feed_url (reader);
      GtkWidget *item = g_hash_table_lookup (self->feed_entries, url);
      g_autofree char *text = dup_feed_text (reader, TRUE);
      g_autofree char *label = literal_label ("", text, LWN_TRAY_LABEL_CHARS);

      if (item == NULL)
        {
          item = g_object_ref_sink (gtk_menu_item_new_with_label (""));
          gtk_menu_item_set_use_underline (GTK_MENU_ITEM (item), TRUE);
          g_object_set_data_full (G_OBJECT (item), "lwn-feed", g_strdup (url), g_free);
          g_signal_connect (item, "activate", G_CALLBACK (feed_entry_activate_cb), self);
          gtk_widget_show (item);
          g_hash_table_insert (self->feed_entries, g_strdup (url), item);
        }
      item_set_label (item, label);
      g_ptr_array_add (ordered, item);
      g_hash_table_add (listed, item);
    }

  g_hash_table_iter_init (&iter, self->feed_entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (!g_hash_table_contains (listed, value))
      {
        g_ptr_array_remove (self->feed_entries_shown, value);
        g_hash_table_iter_remove (&iter);
      }

  items_place (self->feeds_menu, ordered, 0);
  g_ptr_array_set_size (self->feed_entries_shown, 0);
  g_ptr_array_extend (self->feed_entries_shown, ordered, NULL, NULL);

  if (n_listed < n_feeds)
    {
      guint n_more = n_feeds - n_listed;
      /* Translators: the last entry of the tray menu's All Feeds submenu when not every feed fits in it, after
       * the feeds that do; it opens the headlines window's list of feeds. %u is at least 2. */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more feed…", "%u more feeds…", n_more), n_more);
      g_autofree char *label = literal_label ("", text, LWN_TRAY_LABEL_CHARS);

      item_set_label (self->more_feeds_item, label);
      g_object_set_data_full (G_OBJECT (self->more_feeds_item), "lwn-feed",
                              g_strdup (lwn_reader_get_feed_url (lwn_feed_set_get_reader (self->feeds, n_listed))), g_free);
    }
  item_set_visible (self->more_feeds_item, n_listed < n_feeds);
}

/* Rows for the newest headlines: all the menu has but the Feeds submenu's,
 * less, where the submenu opens inside the menu, a few for it to open into,
 * as long as that leaves MIN_NEWEST_ROWS. */
static guint
newest_rows (LwnTray *self)
{
  guint fit = headlines_that_fit (self, 1);

  if (!self->menu_metrics.inline_submenus)
    return fit;
  return MAX (MIN (fit, MIN_NEWEST_ROWS), fit > INLINE_SUBMENU_ROWS ? fit - INLINE_SUBMENU_ROWS : 0);
}

/* With many feeds, a heading each would leave no room for headlines: the
 * newest across them all show, each after its feed's name, and the feeds
 * are one click further, in the Feeds submenu, or, past what the screen
 * holds, in the window's list of feeds. */
static void
show_newest_across_feeds (LwnTray *self,
                          GPtrArray *items,
                          GtkWidget **target,
                          gboolean *target_unread)
{
  guint n_feeds = lwn_feed_set_get_n_feeds (self->feeds);
  g_autofree GListModel **lists = g_new0 (GListModel *, n_feeds);
  g_autoptr (GHashTable) names = lwn_str_hash_table_new (NULL, g_free);
  g_autoptr (GPtrArray) picked = NULL;
  guint n_lists = 0;

  for (guint i = 0; i < n_feeds; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);
      g_autofree char *name = lwn_reader_dup_name (reader);

      if (lwn_reader_get_state (reader) != LWN_READER_STATE_READY)
        continue;
      lists[n_lists++] = lwn_reader_get_headlines (reader);
      g_hash_table_insert (names, (gpointer) lwn_reader_get_feed_url (reader),
                           lwn_text_ellipsize (name, FEED_NAME_CHARS));
    }

  picked = lwn_newest_headlines_pick (lists, n_lists, newest_rows (self));
  for (guint i = 0; i < picked->len; i++)
    {
      LwnHeadline *headline = g_ptr_array_index (picked, i);
      GtkWidget *item = headline_item (self, headline, g_hash_table_lookup (names, lwn_headline_get_feed (headline)));

      g_ptr_array_add (items, item);
      consider_target (item, headline, target, target_unread);
    }
  show_feed_entries (self);
}

static void
show_headlines (LwnTray *self)
{
  guint n_feeds = lwn_feed_set_get_n_feeds (self->feeds);
  gboolean headed = n_feeds > 1;
  g_autofree guint *available = g_new0 (guint, MAX (n_feeds, 1));
  g_autofree guint *rows = g_new0 (guint, MAX (n_feeds, 1));
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  GtkWidget *target = NULL;
  gboolean target_unread = FALSE;
  guint total = 0;

  for (guint i = 0; i < n_feeds; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);

      if (lwn_reader_get_state (reader) == LWN_READER_STATE_READY)
        available[i] = g_list_model_get_n_items (lwn_reader_get_headlines (reader));
      total += available[i];
    }

  if (total == 0 && !headed)
    {
      show_message (self, _ ("No headlines"));
      return;
    }

  if (n_feeds > LWN_TRAY_MAX_SECTIONS)
    show_newest_across_feeds (self, items, &target, &target_unread);
  else
    {
      share_rows (rows, available, n_feeds, headlines_that_fit (self, headed ? n_feeds : 0));
      for (guint i = 0; i < n_feeds; i++)
        {
          LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);

          if (headed)
            g_ptr_array_add (items, feed_heading (self, reader));
          add_headline_items (self, reader, rows[i], items, &target, &target_unread);
        }
    }
  show_feeds_item (self, n_feeds > LWN_TRAY_MAX_SECTIONS);

  drop_feed_headings (self, items);
  place_headline_items (self, items);
  item_set_visible (self->message_item, FALSE);
  item_set_visible (self->mark_read_item, TRUE);
  /* The application's action knows about every headline, shown or not. */
  item_set_sensitive (self->mark_read_item, g_action_group_get_action_enabled (self->actions, "mark-all-read"));
  set_middle_click_target (self, target);
  set_unread_count (self, lwn_feed_set_get_n_unread (self->feeds));
}

/* "Open LWN.net", or the first feed's site, whose headlines come first. */
static void
show_site (LwnTray *self)
{
  LwnReader *first = lwn_feed_set_get_reader (self->feeds, 0);
  g_autofree char *name = first != NULL ? lwn_reader_dup_site_name (first) : NULL;
  g_autofree char *url = first != NULL ? lwn_reader_dup_site_url (first) : NULL;
  g_autofree char *label = NULL;

  if (name == NULL || g_strcmp0 (name, "LWN.net") == 0)
    label = g_strdup (_ ("_Open LWN.net"));
  else
    {
      g_autofree char *escaped = literal_label ("", name, 40);
      /* Translators: %s is the name of the site the feed comes from. */
      label = g_strdup_printf (_ ("Open %s"), escaped);
    }

  item_set_label (self->site_item, label);
  item_set_sensitive (self->site_item, url != NULL);
}

/* The state of the menu as a whole: headlines as soon as one feed has
 * some (or with several feeds, their headings), "Loading" until then, and
 * the reason when every feed failed. */
static LwnReaderState
overall_state (LwnTray *self)
{
  guint n = lwn_feed_set_get_n_feeds (self->feeds);
  gboolean all_failed = n > 0;

  for (guint i = 0; i < n; i++)
    {
      LwnReaderState state = lwn_reader_get_state (lwn_feed_set_get_reader (self->feeds, i));

      if (state == LWN_READER_STATE_READY || (state == LWN_READER_STATE_FAILED && n > 1))
        return LWN_READER_STATE_READY;
      all_failed &= state == LWN_READER_STATE_FAILED;
    }
  return all_failed ? LWN_READER_STATE_FAILED : LWN_READER_STATE_LOADING;
}

static gboolean
any_refreshing (LwnTray *self)
{
  for (guint i = 0; i < lwn_feed_set_get_n_feeds (self->feeds); i++)
    if (lwn_reader_get_refreshing (lwn_feed_set_get_reader (self->feeds, i)))
      return TRUE;
  return FALSE;
}

/* The status line: the first feed's, after the names of the feeds whose
 * last update failed, so that a feed that stopped updating says so. */
static char *
dup_status (LwnTray *self)
{
  guint n = lwn_feed_set_get_n_feeds (self->feeds);
  LwnReader *first = lwn_feed_set_get_reader (self->feeds, 0);
  g_autoptr (GPtrArray) failed = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *names = NULL;

  if (n <= 1)
    return first != NULL ? g_strdup (lwn_reader_get_status (first)) : NULL;

  for (guint i = 0; i < n; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);

      if (lwn_reader_get_error (reader) != NULL)
        g_ptr_array_add (failed, lwn_reader_dup_name (reader));
    }
  if (failed->len == 0)
    return g_strdup (lwn_reader_get_status (first));

  g_ptr_array_add (failed, NULL);
  names = g_strjoinv (", ", (char **) failed->pdata);
  /* Translators: the menu's status line; %s lists the names of the feeds, e.g. "LWN.net, Debian News". */
  return g_strdup_printf (ngettext ("Update failed: %s", "Updates failed: %s", failed->len - 1), names);
}

/* The credit for updates: what was left, and what the time since has added. */
static gint64
update_credit_now (LwnTray *self)
{
  return MIN (self->update_credit + (g_get_monotonic_time () - self->credit_at), UPDATE_BURST * UPDATE_INTERVAL_US);
}

static gboolean
update_cb (gpointer user_data)
{
  LwnTray *self = user_data;
  LwnReaderState state = overall_state (self);
  gboolean refreshing = any_refreshing (self);
  g_autofree char *status = dup_status (self);
  g_autofree char *status_label = NULL;
  LwnReader *first = lwn_feed_set_get_reader (self->feeds, 0);

  self->update_id = 0;
  self->update_credit = MAX (update_credit_now (self) - UPDATE_INTERVAL_US, 0);
  self->credit_at = g_get_monotonic_time ();

  /* A refresh under way shows in the status line, as the window's spinner
   * shows it there: otherwise "Refresh now" or "Retry" against a slow server
   * would look like a click that did nothing. */
  if (refreshing && state != LWN_READER_STATE_LOADING)
    {
      g_free (status);
      /* Translators: the menu's status line while the feed is being fetched. */
      status = g_strdup (_ ("Refreshing…"));
    }

  if (state == LWN_READER_STATE_READY)
    show_headlines (self);
  else if (state == LWN_READER_STATE_FAILED && first != NULL)
    {
      /* Translators: %s is the reason, e.g. "HTTP status 404". */
      g_autofree char *message = g_strdup_printf (_ ("Could not load headlines: %s"), lwn_reader_get_error (first));

      show_message (self, message);
    }
  else
    show_message (self, _ ("Loading headlines…"));

  item_set_label (self->refresh_item, state == LWN_READER_STATE_FAILED ? _ ("_Retry") : _ ("_Refresh now"));
  item_set_sensitive (self->refresh_item, !refreshing);
  status_label = literal_label ("", status != NULL ? status : "", 2 * LWN_TRAY_LABEL_CHARS);
  item_set_label (self->status_item, status_label);
  /* With nothing shown, the status line says only that a refresh is under way. */
  item_set_visible (self->status_item,
                    status != NULL && (state == LWN_READER_STATE_READY || (state == LWN_READER_STATE_FAILED && refreshing)));
  show_site (self);
  return G_SOURCE_REMOVE;
}

/**
 * lwn_tray_schedule_update:
 * @self: a #LwnTray
 *
 * Brings the menu up to date with the reading model once the main loop is
 * idle: any number of changes in one iteration cost one update, and changes
 * that keep coming cost one update every %UPDATE_INTERVAL_MS once a few
 * have been made.
 */
void
lwn_tray_schedule_update (LwnTray *self)
{
  gint64 credit;

  g_return_if_fail (LWN_IS_TRAY (self));

  if (self->update_id != 0)
    return;
  credit = update_credit_now (self);
  if (credit >= UPDATE_INTERVAL_US)
    self->update_id = g_idle_add (update_cb, self);
  else
    self->update_id = g_timeout_add ((guint) ((UPDATE_INTERVAL_US - credit) / G_TIME_SPAN_MILLISECOND) + 1, update_cb, self);
  g_source_set_name_by_id (self->update_id, "[lwn-tray] menu update");
}

static void
feeds_changed_cb (LwnFeedSet *feeds,
                  LwnTray *self)
{
  lwn_tray_schedule_update (self);
}

static void
lwn_tray_dispose (GObject *object)
{
  LwnTray *self = LWN_TRAY (object);

  g_clear_handle_id (&self->host_check_id, g_source_remove);
  g_clear_handle_id (&self->update_id, g_source_remove);
  if (gdk_display_get_default () != NULL)
    g_signal_handlers_disconnect_by_data (gdk_display_get_default (), self);
  if (gdk_screen_get_default () != NULL)
    g_signal_handlers_disconnect_by_data (gdk_screen_get_default (), self);
  if (self->feeds != NULL)
    g_signal_handlers_disconnect_by_data (self->feeds, self);
  if (self->actions != NULL)
    g_signal_handlers_disconnect_by_data (self->actions, self);
  g_clear_object (&self->feeds);
  g_clear_object (&self->session_bus);
  self->actions = NULL;
  if (self->indicator != NULL)
    g_signal_handlers_disconnect_by_data (self->indicator, self);
  g_clear_pointer (&self->submenu_prefetch, lwn_submenu_prefetch_free);
  g_clear_object (&self->indicator);
  g_clear_pointer (&self->icon_theme_path, g_free);
  g_clear_pointer (&self->headline_items, g_hash_table_unref);
  g_clear_pointer (&self->feed_items, g_hash_table_unref);
  g_clear_pointer (&self->feed_entries, g_hash_table_unref);
  g_clear_pointer (&self->feed_entries_shown, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
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
   * LwnTray::connection-changed:
   * @connected: whether a StatusNotifierItem host shows the icon now
   */
  signals[SIGNAL_CONNECTION_CHANGED] = g_signal_new ("connection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
destroy_menu_item (gpointer item)
{
  gtk_widget_destroy (item);
  g_object_unref (item);
}

static void
lwn_tray_init (LwnTray *self)
{
  self->max_items = 20;
  self->update_credit = UPDATE_BURST * UPDATE_INTERVAL_US;
  self->credit_at = g_get_monotonic_time ();
  lwn_desktop_get_menu_metrics (lwn_desktop_get_current (), &self->menu_metrics);
  self->headline_items = lwn_str_hash_table_new (g_free, destroy_menu_item);
  self->feed_items = lwn_str_hash_table_new (g_free, destroy_menu_item);
  self->feed_entries = lwn_str_hash_table_new (g_free, destroy_menu_item);
  self->feed_entries_shown = g_ptr_array_new ();
  self->shown = g_ptr_array_new ();
}

/* A tray host that is there but does not take the item (one that refused
 * it, or missed it while it started) gets a new indicator, which registers
 * anew. */
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
 * lwn_tray_set_host_present:
 * @self: a #LwnTray
 * @present: whether a StatusNotifierItem host (its watcher) is on the bus
 *
 * A host that is there and has not shown the icon within a few seconds gets
 * a new indicator; one that is not there gets nothing until it comes.
 */
void
lwn_tray_set_host_present (LwnTray *self,
                           gboolean present)
{
  g_return_if_fail (LWN_IS_TRAY (self));

  if (!present)
    g_clear_handle_id (&self->host_check_id, g_source_remove);
  else if (self->host_check_id == 0 && !lwn_tray_is_connected (self))
    self->host_check_id = g_timeout_add_seconds (HOST_CHECK_SECONDS, host_check_cb, self);
}

/**
 * lwn_tray_new:
 * @actions: the application's actions, which the menu's commands activate:
 *   "open-headline" (a feed's address and an item id of that feed), "show-feed" (a feed's address),
 *   "choose-feed" (the first feed the Feeds submenu leaves out), "show-headlines", "refresh",
 *   "mark-all-read", "open-site", "preferences", "quit", and the boolean state of "autostart"
 * @feeds: the feeds the menu shows
 * @session_bus: the process's session bus connection (g_bus_get()'s), made
 *   already and given to lwn_tray_patch_session_bus_init(): the one
 *   libdbusmenu-glib exports the menu on
 * @icon_theme_path: (nullable): a folder with a hicolor/ tree to find the
 *   icons in, for a program run from its source tree
 *
 * Creates the indicator and its menu.
 *
 * Returns: (transfer full): a new #LwnTray
 */
LwnTray *
lwn_tray_new (GActionGroup *actions,
              LwnFeedSet *feeds,
              GDBusConnection *session_bus,
              const char *icon_theme_path)
{
  LwnTray *self;

  g_return_val_if_fail (G_IS_ACTION_GROUP (actions), NULL);
  g_return_val_if_fail (LWN_IS_FEED_SET (feeds), NULL);
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (session_bus), NULL);

  self = g_object_new (LWN_TYPE_TRAY, NULL);
  /* Not a reference: the application owns the tray. */
  self->actions = actions;
  self->feeds = g_object_ref (feeds);
  self->session_bus = g_object_ref (session_bus);
  self->icon_theme_path = g_strdup (icon_theme_path);
  build_menu (self);
  show_autostart_state (self);
  g_signal_connect (actions, "action-state-changed", G_CALLBACK (action_state_changed_cb), self);
  g_signal_connect (feeds, "changed", G_CALLBACK (feeds_changed_cb), self);
  /* A monitor plugged in or out changes how many headlines fit. */
  g_signal_connect_swapped (gdk_display_get_default (), "monitor-added", G_CALLBACK (lwn_tray_schedule_update), self);
  g_signal_connect_swapped (gdk_display_get_default (), "monitor-removed", G_CALLBACK (lwn_tray_schedule_update), self);
  g_signal_connect_swapped (gdk_screen_get_default (), "monitors-changed", G_CALLBACK (lwn_tray_schedule_update), self);
  update_cb (self);
  create_indicator (self);
  return self;
}

/**
 * lwn_tray_set_max_items:
 * @self: a #LwnTray
 * @max_items: how many headlines the menu shows at most
 */
void
lwn_tray_set_max_items (LwnTray *self,
                        guint max_items)
{
  g_return_if_fail (LWN_IS_TRAY (self));

  self->max_items = MAX (max_items, 1);
  lwn_tray_schedule_update (self);
}

/**
 * lwn_tray_set_symbolic:
 * @self: a #LwnTray
 * @symbolic: whether the panel gets the monochrome icons, which it draws in
 *   its own colour (GNOME's top bar, KDE's Breeze), or the full-colour ones
 */
void
lwn_tray_set_symbolic (LwnTray *self,
                       gboolean symbolic)
{
  g_return_if_fail (LWN_IS_TRAY (self));

  if (self->symbolic == !!symbolic)
    return;

  self->symbolic = !!symbolic;
  if (self->indicator == NULL)
    return;
  app_indicator_set_attention_icon_full (self->indicator, icon_name (self, TRUE), _ ("Unread LWN.net headlines"));
  set_unread_count (self, self->n_unread);
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
