/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rows of the preferences' lists, which only frame their controls. */

#include "config.h"

#include "lwn-settings-row.h"

/**
 * lwn_settings_row_focus_controls:
 * @row: a #GtkListBoxRow that cannot take the focus itself
 * @direction: where the focus moves
 * @user_data: unused
 *
 * A handler of the row's #GtkWidget::focus that moves keyboard focus
 * straight to the row's controls. GTK 3's own row handler would instead
 * grab the focus for the row, which a row that cannot take it loses: Tab
 * then stops moving.
 *
 * Returns: whether the focus moved within the row
 */
gboolean
lwn_settings_row_focus_controls (GtkWidget *row,
                                 GtkDirectionType direction,
                                 gpointer user_data)
{
  gboolean moved = gtk_widget_child_focus (gtk_bin_get_child (GTK_BIN (row)), direction);

  g_signal_stop_emission_by_name (row, "focus");
  return moved;
}
