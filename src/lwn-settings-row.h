/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rows of the preferences' lists, which only frame their controls. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean lwn_settings_row_focus_controls (GtkWidget *row,
                                          GtkDirectionType direction,
                                          gpointer user_data);

G_END_DECLS
