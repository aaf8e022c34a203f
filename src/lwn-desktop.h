/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module tells which desktop the applet runs on, as XDG_CURRENT_DESKTOP says, and what that desktop means for the applet's panel icon and menu. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  LWN_DESKTOP_OTHER,
  LWN_DESKTOP_GNOME, /* GNOME Shell, or a desktop built on it ("ubuntu:GNOME", "Budgie:GNOME") */
  LWN_DESKTOP_KDE,
} LwnDesktop;

/* LwnMenuMetrics says how tall the host draws the parts of a menu, in logical pixels. */
typedef struct
{
  int row;       /* a menu item */
  int separator; /* a separator item */
  int reserve;   /* the panel, the menu's frame and a margin */
  /* A submenu opens inside the menu, in the room the menu leaves (GNOME
   * Shell), not beside it. */
  gboolean inline_submenus;
} LwnMenuMetrics;

/* clang-format off */
LwnDesktop lwn_desktop_from_string     (const char           *current_desktop);
LwnDesktop lwn_desktop_get_current     (void);
gboolean   lwn_desktop_wants_symbolic  (LwnDesktop            desktop);
void       lwn_desktop_get_menu_metrics (LwnDesktop           desktop,
                                        LwnMenuMetrics       *metrics);
guint      lwn_desktop_fit_menu_rows   (const LwnMenuMetrics *metrics,
                                        int                   screen_height,
                                        guint                 n_fixed_rows,
                                        guint                 n_separators);
/* clang-format on */

G_END_DECLS
