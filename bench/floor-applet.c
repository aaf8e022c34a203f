/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The least a GTK3 + AppIndicator tray applet can be: three menu items and a main loop, measured next to lwn-tray. */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib-unix.h>
#include <gtk/gtk.h>
#include <libayatana-appindicator/app-indicator.h>

/* How long SIGUSR2 keeps the main loop busy: a stall of known length, to check
 * that bench/stall-probe.py measures what it claims to. */
#define INJECTED_STALL_US (10 * 1000)

typedef struct
{
  GtkWidget *items[3];
  guint n_relabels;
} Floor;

/* SIGUSR1: the least a menu change can cost, for the stall benchmark to set
 * beside lwn-tray's refreshes. */
static gboolean
relabel_cb (gpointer user_data)
{
  Floor *applet = user_data;

  applet->n_relabels++;
  for (guint i = 0; i < G_N_ELEMENTS (applet->items); i++)
    {
      g_autofree char *label = g_strdup_printf ("Floor item %u (%u)", i + 1, applet->n_relabels);

      gtk_menu_item_set_label (GTK_MENU_ITEM (applet->items[i]), label);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
stall_cb (gpointer user_data)
{
  gint64 until = g_get_monotonic_time () + INJECTED_STALL_US;

  /* Busy, not asleep: what a main loop doing real work looks like. */
  while (g_get_monotonic_time () < until)
    ;
  return G_SOURCE_CONTINUE;
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GError) error = NULL;
  AppIndicator *indicator;
  GtkWidget *menu;
  Floor applet = { 0 };

  gtk_init (&argc, &argv);

  /* Only on request: handling Unix signals starts GLib's worker thread, which
   * would change the floor's figures in bench/bench-applet.sh. */
  if (argc == 2 && strcmp (argv[1], "--signals") == 0)
    {
      g_unix_signal_add (SIGUSR1, relabel_cb, &applet);
      g_unix_signal_add (SIGUSR2, stall_cb, NULL);
    }
  else if (argc > 1)
    {
      fprintf (stderr, "Usage: floor-applet [--signals]   (SIGUSR1 relabels the items, SIGUSR2 stalls 10 ms)\n");
      return 2;
    }

  /* As lwn-tray does: libayatana-appindicator 0.5.92 may never register when
   * its own asynchronous bus lookup loses the race with its watcher lookup. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      fprintf (stderr, "floor-applet: cannot connect to the session bus: %s\n", error->message);
      return 1;
    }

  menu = gtk_menu_new ();
  for (guint i = 0; i < G_N_ELEMENTS (applet.items); i++)
    {
      g_autofree char *label = g_strdup_printf ("Floor item %u", i + 1);

      applet.items[i] = gtk_menu_item_new_with_label (label);
      gtk_menu_shell_append (GTK_MENU_SHELL (menu), applet.items[i]);
    }
  gtk_widget_show_all (menu);

  indicator = app_indicator_new ("floor-applet", "application-x-executable", APP_INDICATOR_CATEGORY_APPLICATION_STATUS);
  app_indicator_set_menu (indicator, GTK_MENU (menu));
  app_indicator_set_status (indicator, APP_INDICATOR_STATUS_ACTIVE);

  gtk_main ();
  g_object_unref (indicator);
  return 0;
}
