/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The least a GTK3 + AppIndicator tray applet can be: three menu items and a main loop, measured next to lwn-tray. */

#include "config.h"

#include <stdio.h>

#include <gtk/gtk.h>
#include <libayatana-appindicator/app-indicator.h>

int
main (int argc,
      char *argv[])
{
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GError) error = NULL;
  AppIndicator *indicator;
  GtkWidget *menu;

  gtk_init (&argc, &argv);

  /* As lwn-tray does: libayatana-appindicator 0.5.92 may never register when
   * its own asynchronous bus lookup loses the race with its watcher lookup. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      fprintf (stderr, "floor-applet: cannot connect to the session bus: %s\n", error->message);
      return 1;
    }

  menu = gtk_menu_new ();
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *label = g_strdup_printf ("Floor item %u", i);

      gtk_menu_shell_append (GTK_MENU_SHELL (menu), gtk_menu_item_new_with_label (label));
    }
  gtk_widget_show_all (menu);

  indicator = app_indicator_new ("floor-applet", "application-x-executable", APP_INDICATOR_CATEGORY_APPLICATION_STATUS);
  app_indicator_set_menu (indicator, GTK_MENU (menu));
  app_indicator_set_status (indicator, APP_INDICATOR_STATUS_ACTIVE);

  gtk_main ();
  g_object_unref (indicator);
  return 0;
}
