/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preferences window: a view of the settings, each control bound to its key. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LWN_TYPE_PREFERENCES_WINDOW (lwn_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (LwnPreferencesWindow, lwn_preferences_window, LWN, PREFERENCES_WINDOW, GtkWindow)

LwnPreferencesWindow *lwn_preferences_window_new            (GtkApplication *application,
                                                             GSettings      *settings);
void                  lwn_preferences_window_set_overridden (LwnPreferencesWindow *self,
                                                             const char           *key,
                                                             gboolean              overridden);

G_END_DECLS
