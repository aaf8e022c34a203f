/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file works out which desktop the applet runs on. The menu is drawn by the tray host, not by GTK, so the applet cannot
 * measure it; it knows instead how tall each host draws a row, and gives the menu no more headlines than
 * fit on the screen with the commands below them. */

#include "config.h"

#include "lwn-desktop.h"

/* GNOME Shell 43's popup menu items are 36 px tall and its separators 13 px;
 * the top bar (32 px), the menu's frame and a margin take 64 px more. */
#define GNOME_ROW 36
#define GNOME_SEPARATOR 13
#define GNOME_RESERVE 64

/* GTK's Adwaita (Xfce, waybar, MATE) draws menu rows of 25 px and KDE's
 * Breeze about as many; a little more leaves room for a larger font. */
#define OTHER_ROW 28
#define OTHER_SEPARATOR 10
#define OTHER_RESERVE 64

/**
 * lwn_desktop_from_string:
 * @current_desktop: (nullable): XDG_CURRENT_DESKTOP's value, a colon-separated list
 *
 * Returns: the first desktop in the list this applet knows, or %LWN_DESKTOP_OTHER
 */
LwnDesktop
lwn_desktop_from_string (const char *current_desktop)
{
  g_auto (GStrv) desktops = g_strsplit (current_desktop != NULL ? current_desktop : "", ":", -1);

  for (guint i = 0; desktops[i] != NULL; i++)
    {
      if (g_ascii_strcasecmp (desktops[i], "GNOME") == 0)
        return LWN_DESKTOP_GNOME;
      if (g_ascii_strcasecmp (desktops[i], "KDE") == 0)
        return LWN_DESKTOP_KDE;
    }
  return LWN_DESKTOP_OTHER;
}

LwnDesktop
lwn_desktop_get_current (void)
{
  return lwn_desktop_from_string (g_getenv ("XDG_CURRENT_DESKTOP"));
}

/**
 * lwn_desktop_wants_symbolic:
 * @desktop: a desktop
 *
 * GNOME's top bar and KDE Plasma's Breeze draw their panel icons in one
 * colour, the panel's own; other panels (Xfce, waybar, MATE…) show icons in
 * colour.
 *
 * Returns: whether @desktop's panel expects monochrome icons
 */
gboolean
lwn_desktop_wants_symbolic (LwnDesktop desktop)
{
  return desktop == LWN_DESKTOP_GNOME || desktop == LWN_DESKTOP_KDE;
}

/**
 * lwn_desktop_get_menu_metrics:
 * @desktop: a desktop
 * @metrics: (out caller-allocates): how tall @desktop's tray host draws a menu's parts
 */
void
lwn_desktop_get_menu_metrics (LwnDesktop desktop,
                              LwnMenuMetrics *metrics)
{
  g_return_if_fail (metrics != NULL);

  if (desktop == LWN_DESKTOP_GNOME)
    *metrics = (LwnMenuMetrics){ GNOME_ROW, GNOME_SEPARATOR, GNOME_RESERVE, TRUE };
  else
    *metrics = (LwnMenuMetrics){ OTHER_ROW, OTHER_SEPARATOR, OTHER_RESERVE, FALSE };
}

/**
 * lwn_desktop_fit_menu_rows:
 * @metrics: how tall the host draws a menu's parts
 * @screen_height: the smallest monitor's height, in logical pixels
 * @n_fixed_rows: rows the menu always has (the status line and the commands)
 * @n_separators: separators the menu always has
 *
 * Returns: how many more rows fit on the screen, at least 1: a menu without a
 *   single headline would not be worth opening
 */
guint
lwn_desktop_fit_menu_rows (const LwnMenuMetrics *metrics,
                           int screen_height,
                           guint n_fixed_rows,
                           guint n_separators)
{
  gint64 free_height;
  gint64 rows;

  g_return_val_if_fail (metrics != NULL && metrics->row > 0, 1);

  free_height = (gint64) screen_height - metrics->reserve - (gint64) n_separators * metrics->separator;
  rows = free_height / metrics->row - (gint64) n_fixed_rows;
  return (guint) CLAMP (rows, 1, G_MAXINT);
}
