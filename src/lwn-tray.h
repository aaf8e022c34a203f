/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The panel icon and its menu (AppIndicator over StatusNotifierItem); UI only. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LWN_TYPE_TRAY (lwn_tray_get_type ())
G_DECLARE_FINAL_TYPE (LwnTray, lwn_tray, LWN, TRAY, GObject)

/* Characters of a headline label before it is ellipsized. */
#define LWN_TRAY_LABEL_CHARS 70

typedef struct
{
  const char *title;   /* plain text */
  const char *tooltip; /* nullable plain text */
  gboolean    unread;
  gboolean    openable;
} LwnTrayHeadline;

LwnTray  *lwn_tray_new            (const char *icon_theme_path);
void      lwn_tray_show_loading   (LwnTray *self);
void      lwn_tray_show_headlines (LwnTray               *self,
                                   const LwnTrayHeadline *headlines,
                                   guint                  n_headlines);
void      lwn_tray_show_failure   (LwnTray    *self,
                                   const char *reason);
void      lwn_tray_set_status     (LwnTray    *self,
                                   const char *status);
void      lwn_tray_set_site       (LwnTray    *self,
                                   const char *site_name,
                                   gboolean    available);
void      lwn_tray_set_autostart  (LwnTray  *self,
                                   gboolean  enabled);
gboolean  lwn_tray_is_connected   (LwnTray *self);
void      lwn_tray_expect_host    (LwnTray *self);

G_END_DECLS
