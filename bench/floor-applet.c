/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The least a GTK3 + AppIndicator tray applet can be: three menu items and a main loop, measured next to lwn-tray;
 * on request also the least a window of headlines can be, or an empty window: what GTK itself takes to open one. */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib-unix.h>
#include <gtk/gtk.h>
#include <libayatana-appindicator/app-indicator.h>

/* How long SIGUSR2 keeps the main loop busy: a stall of known length, to check
 * that bench/stall_probe.py measures what it claims to. */
#define INJECTED_STALL_US (10 * 1000)

/* Rows in the window SIGHUP opens: about what a window of its size shows. */
#define WINDOW_ROWS 12

typedef struct
{
  GtkWidget *items[3];
  guint n_relabels;
  GtkWidget *window;
  gboolean empty; /* SIGHUP opens an empty window rather than one of rows */
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

static GtkWidget *
new_label (const char *markup,
           gboolean dim)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  if (dim)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
  return label;
}

/* A header bar over a scrolled list of rows of wrapped labels, at the headlines
 * window's default size: what bench/bench-window.sh sets beside lwn-tray's window. */
static GtkWidget *
new_window (void)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *header_bar = gtk_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *list_box = gtk_list_box_new ();

  gtk_header_bar_set_title (GTK_HEADER_BAR (header_bar), "Floor window");
  gtk_header_bar_set_show_close_button (GTK_HEADER_BAR (header_bar), TRUE);
  gtk_window_set_titlebar (GTK_WINDOW (window), header_bar);
  gtk_window_set_default_size (GTK_WINDOW (window), 560, 720);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list_box), GTK_SELECTION_NONE);
  for (guint i = 0; i < WINDOW_ROWS; i++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      g_autofree char *title = g_strdup_printf ("<b>Floor headline %u</b>", i + 1);

      g_object_set (box, "margin", 12, NULL);
      gtk_container_add (GTK_CONTAINER (box), new_label (title, FALSE));
      gtk_container_add (GTK_CONTAINER (box), new_label ("7 July 2023 · corbet", TRUE));
      gtk_container_add (GTK_CONTAINER (box),
                         new_label ("A paragraph of a few lines, wrapped as the window is wide, with "
                                    "<a href=\"https://example.org/\">a link</a> in it, much as a "
                                    "feed's summary is; the rest of the list is left out.",
                                    FALSE));
      gtk_container_add (GTK_CONTAINER (list_box), box);
    }
  gtk_container_add (GTK_CONTAINER (scrolled), list_box);
  gtk_container_add (GTK_CONTAINER (window), scrolled);
  gtk_widget_show (header_bar);
  gtk_widget_show_all (scrolled);
  return window;
}

/* A GtkWindow with nothing in it, at the headlines window's default size:
 * what bench/bench-window-feeds.sh sets beside lwn-tray's window. */
static GtkWidget *
new_empty_window (void)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);

  gtk_window_set_title (GTK_WINDOW (window), "Empty window");
  gtk_window_set_default_size (GTK_WINDOW (window), 560, 720);
  return window;
}

/* SIGHUP: opens the window, or closes it if it is open. */
static gboolean
toggle_window_cb (gpointer user_data)
{
  Floor *applet = user_data;

  if (applet->window != NULL)
    {
      gtk_widget_destroy (applet->window);
      return G_SOURCE_CONTINUE;
    }
  applet->window = applet->empty ? new_empty_window () : new_window ();
  /* Its close button destroys it too: the pointer must not outlive it. */
  g_signal_connect (applet->window, "destroy", G_CALLBACK (gtk_widget_destroyed), &applet->window);
  gtk_window_present (GTK_WINDOW (applet->window));
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
  if ((argc == 2 || (argc == 3 && strcmp (argv[2], "--empty-window") == 0)) && strcmp (argv[1], "--signals") == 0)
    {
      applet.empty = argc == 3;
      g_unix_signal_add (SIGUSR1, relabel_cb, &applet);
      g_unix_signal_add (SIGUSR2, stall_cb, NULL);
      g_unix_signal_add (SIGHUP, toggle_window_cb, &applet);
    }
  else if (argc > 1)
    {
      fprintf (stderr, "Usage: floor-applet [--signals [--empty-window]]   (SIGUSR1 relabels the items, SIGUSR2"
                       " stalls 10 ms, SIGHUP opens or closes a window of 12 rows, or an empty one)\n");
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

  /* The properties app_indicator_new() sets, as src/lwn-indicator.c does:
   * the function is deprecated from libayatana-appindicator 0.5.94 on. */
  indicator = g_object_new (APP_INDICATOR_TYPE,
                            "id", "floor-applet",
                            "category", "ApplicationStatus",
                            "icon-name", "application-x-executable",
                            NULL);
  app_indicator_set_menu (indicator, GTK_MENU (menu));
  app_indicator_set_status (indicator, APP_INDICATOR_STATUS_ACTIVE);

  gtk_main ();
  g_object_unref (indicator);
  return 0;
}
