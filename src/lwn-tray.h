/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The panel icon and its menu (AppIndicator over StatusNotifierItem): a view of the feeds followed. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-feed-set.h"

G_BEGIN_DECLS

#define LWN_TYPE_TRAY (lwn_tray_get_type ())
G_DECLARE_FINAL_TYPE (LwnTray, lwn_tray, LWN, TRAY, GObject)

/* Characters of a headline label before it is ellipsized. */
#define LWN_TRAY_LABEL_CHARS 70

/* clang-format off */
void      lwn_tray_patch_session_bus_init (GDBusConnection *session_bus);
LwnTray  *lwn_tray_new               (GActionGroup    *actions,
                                      LwnFeedSet      *feeds,
                                      GDBusConnection *session_bus,
                                      const char      *icon_theme_path);
void      lwn_tray_set_max_items     (LwnTray         *self,
                                      guint            max_items);
void      lwn_tray_set_symbolic      (LwnTray         *self,
                                      gboolean         symbolic);
void      lwn_tray_schedule_update   (LwnTray         *self);
gboolean  lwn_tray_is_connected      (LwnTray         *self);
void      lwn_tray_set_host_present  (LwnTray         *self,
                                      gboolean         present);
/* clang-format on */

G_END_DECLS
