/* SPDX-License-Identifier: GPL-3.0-or-later */
/* KDE Plasma's tray (libdbusmenu-qt) asks for a submenu's entries only when the submenu opens, and places the
 * submenu while it is still empty: the first time, a long submenu runs off the bottom of the screen. It also asks
 * for a submenu's entries whenever the application says that submenu's layout changed. Saying so as the menu opens
 * has the entries there long before a person reaches the submenu. Hosts built on libdbusmenu-glib fetch the whole
 * menu at once and ignore a layout revision they already have. */

#include "config.h"

#include <libdbusmenu-glib/menuitem.h>
#include <libdbusmenu-glib/server.h>

#include "lwn-submenu-prefetch.h"

#define DBUSMENU_IFACE "com.canonical.dbusmenu"

struct _LwnSubmenuPrefetch
{
  GDBusConnection *session_bus;
  DbusmenuServer *server;
  DbusmenuMenuitem *root;
  /* The last revision the server announced; 0 until it has announced one.
   * Only that one goes out: a libdbusmenu-glib host that heard an older
   * revision after a newer one would skip the newer layout. */
  guint revision;
};

static void
layout_updated_cb (DbusmenuServer *server,
                   guint revision,
                   gint parent,
                   gpointer user_data)
{
  LwnSubmenuPrefetch *self = user_data;

  self->revision = revision;
}

static gboolean
is_visible_submenu (DbusmenuMenuitem *item)
{
  const char *display = dbusmenu_menuitem_property_get (item, DBUSMENU_MENUITEM_PROP_CHILD_DISPLAY);

  return g_strcmp0 (display, DBUSMENU_MENUITEM_CHILD_DISPLAY_SUBMENU) == 0 && dbusmenu_menuitem_property_get_bool (item, DBUSMENU_MENUITEM_PROP_VISIBLE);
}

/* The host opens the menu: each submenu of it is said to have a new layout,
 * at the last revision the server announced, so that a host that fills
 * submenus lazily fills them now. */
static gboolean
root_about_to_show_cb (DbusmenuMenuitem *root,
                       gpointer user_data)
{
  LwnSubmenuPrefetch *self = user_data;
  g_autofree char *path = NULL;

  if (self->revision == 0)
    return FALSE;
  g_object_get (self->server, DBUSMENU_SERVER_PROP_DBUS_OBJECT, &path, NULL);
  if (path == NULL)
    return FALSE;
  for (GList *l = dbusmenu_menuitem_get_children (root); l != NULL; l = l->next)
    {
      if (is_visible_submenu (l->data))
        g_dbus_connection_emit_signal (self->session_bus, NULL, path, DBUSMENU_IFACE, "LayoutUpdated",
                                       g_variant_new ("(ui)", self->revision, dbusmenu_menuitem_get_id (l->data)),
                                       NULL);
    }
  /* The signal's value means nothing to the server. */
  return FALSE;
}

static void
unwatch_root (LwnSubmenuPrefetch *self)
{
  if (self->root == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->root, self);
  g_clear_object (&self->root);
}

static void
watch_root (LwnSubmenuPrefetch *self)
{
  unwatch_root (self);
  g_object_get (self->server, DBUSMENU_SERVER_PROP_ROOT_NODE, &self->root, NULL);
  if (self->root != NULL)
    g_signal_connect (self->root, DBUSMENU_MENUITEM_SIGNAL_ABOUT_TO_SHOW, G_CALLBACK (root_about_to_show_cb), self);
}

static void
root_changed_cb (GObject *server,
                 GParamSpec *pspec,
                 gpointer user_data)
{
  watch_root (user_data);
}

/**
 * lwn_submenu_prefetch_new:
 * @indicator: an indicator whose menu is set already
 * @session_bus: the process's session bus, on which libdbusmenu-glib
 *   exports the menu: the host hears the word from the menu's own sender,
 *   in order with the server's signals
 *
 * Returns: (transfer full) (nullable): the prefetch, which lasts until freed
 *   and must be freed before @indicator; %NULL when @indicator does not say
 *   which dbusmenu server exports its menu
 */
LwnSubmenuPrefetch *
lwn_submenu_prefetch_new (AppIndicator *indicator,
                          GDBusConnection *session_bus)
{
  DbusmenuServer *server = NULL;
  LwnSubmenuPrefetch *self;

  /* Not IS_APP_INDICATOR(), which the library renamed in 0.5.94. */
  g_return_val_if_fail (G_TYPE_CHECK_INSTANCE_TYPE (indicator, APP_INDICATOR_TYPE), NULL);
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (session_bus), NULL);

  /* Documented for testing only: a later version may drop it. */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (indicator), "dbus-menu-server") != NULL)
    g_object_get (indicator, "dbus-menu-server", &server, NULL);
  if (server == NULL)
    {
      g_debug ("The indicator's dbusmenu server is out of reach: submenus are fetched as the host opens them");
      return NULL;
    }

  self = g_new0 (LwnSubmenuPrefetch, 1);
  self->session_bus = g_object_ref (session_bus);
  self->server = server;
  g_signal_connect (self->server, DBUSMENU_SERVER_SIGNAL_LAYOUT_UPDATED, G_CALLBACK (layout_updated_cb), self);
  g_signal_connect (self->server, "notify::" DBUSMENU_SERVER_PROP_ROOT_NODE, G_CALLBACK (root_changed_cb), self);
  watch_root (self);
  return self;
}

/**
 * lwn_submenu_prefetch_free:
 * @self: (transfer full): a prefetch
 */
void
lwn_submenu_prefetch_free (LwnSubmenuPrefetch *self)
{
  if (self == NULL)
    return;
  unwatch_root (self);
  g_signal_handlers_disconnect_by_data (self->server, self);
  g_object_unref (self->server);
  g_object_unref (self->session_bus);
  g_free (self);
}
