/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One row of the headlines window: a headline's title, details and summary, kept up to date in place. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-headline.h"
#include "lwn-search.h"

G_BEGIN_DECLS

#define LWN_TYPE_HEADLINE_ROW (lwn_headline_row_get_type ())
/* The prefix under which an ancestor of the row, such as its window, inserts
 * the action group (gtk_widget_insert_action_group()) whose "open-link"
 * action, with a URL, opens a link of the summary. */
#define LWN_HEADLINE_ROW_ACTIONS "headline-row"

G_DECLARE_FINAL_TYPE (LwnHeadlineRow, lwn_headline_row, LWN, HEADLINE_ROW, GtkListBoxRow)

/* clang-format off */
LwnHeadlineRow *lwn_headline_row_new          (LwnHeadline    *headline,
                                               guint           position,
                                               const char     *source,
                                               GDateTime      *now);
LwnHeadline    *lwn_headline_row_get_headline (LwnHeadlineRow *self);
void            lwn_headline_row_set_headline (LwnHeadlineRow *self,
                                               LwnHeadline    *headline,
                                               GDateTime      *now);
guint           lwn_headline_row_get_position (LwnHeadlineRow *self);
void            lwn_headline_row_set_position (LwnHeadlineRow *self,
                                               guint           position);
void            lwn_headline_row_update_age   (LwnHeadlineRow *self,
                                               GDateTime      *now);
void            lwn_headline_row_set_query    (LwnHeadlineRow *self,
                                               LwnSearchQuery *query);
void            lwn_headline_row_set_subscriber (LwnHeadlineRow *self,
                                                 gboolean        subscriber,
                                                 GDateTime      *now);
void            lwn_headline_row_set_source   (LwnHeadlineRow *self,
                                               const char     *source,
                                               GDateTime      *now);
gboolean        lwn_headline_row_popup_menu   (LwnHeadlineRow *self,
                                               const GdkEvent *event);
/* clang-format on */

G_END_DECLS
