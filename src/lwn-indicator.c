/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tray item: libayatana-appindicator's AppIndicator, without its fallback to a GtkStatusIcon.
 *
 * When no StatusNotifierItem host is on the bus, AppIndicator makes a
 * GtkStatusIcon a tenth of a second later, and destroys it when a host
 * comes. On X11 that is an XEmbed icon, which Plasma's xembed proxy then
 * shows beside the real item; on Wayland, where GtkStatusIcon cannot work,
 * GTK logs a critical for it. The applet has its own answer to a desktop
 * without a tray (the headlines window, and a notice that says so), so this
 * subclass sets AppIndicatorClass's fallback and unfallback methods to
 * NULL, which the library checks for before it calls them. */

#include "config.h"

#include "lwn-indicator.h"

struct _LwnIndicator
{
  AppIndicator parent_instance;
};

G_DEFINE_FINAL_TYPE (LwnIndicator, lwn_indicator, APP_INDICATOR_TYPE)

static void
lwn_indicator_class_init (LwnIndicatorClass *klass)
{
  AppIndicatorClass *indicator_class = APP_INDICATOR_CLASS (klass);

  indicator_class->fallback = NULL;
  indicator_class->unfallback = NULL;
}

static void
lwn_indicator_init (LwnIndicator *self)
{
}

/**
 * lwn_indicator_new:
 * @id: the item's id, unique to the application
 * @icon_name: the icon the item starts with
 *
 * Makes the item with the properties that app_indicator_new() sets. That
 * function is deprecated from libayatana-appindicator 0.5.94 on (Debian 13),
 * with the whole GTK flavour of the library, in favour of
 * libayatana-appindicator-glib, whose menu is a GMenuModel rather than a
 * GtkMenu; the properties are the same in every version.
 *
 * Returns: (transfer full): the item, which registers with a host as soon as
 *   it has a status other than passive
 */
AppIndicator *
lwn_indicator_new (const char *id,
                   const char *icon_name)
{
  return g_object_new (LWN_TYPE_INDICATOR,
                       "id", id,
                       "category", "ApplicationStatus",
                       "icon-name", icon_name,
                       NULL);
}
