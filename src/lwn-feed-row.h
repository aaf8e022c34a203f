/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One row of the preferences' feeds list: a feed's name, address, notification switch and buttons, kept by address and updated in place. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-search.h"

G_BEGIN_DECLS

/* The prefix under which an ancestor of the row inserts the action group
 * whose actions the row's controls activate, each with the feed's address:
 * "move-up" (s), "move-down" (s), "remove" (s) and "set-notify" (sb). */
#define LWN_FEED_ROW_ACTIONS "feeds"

typedef enum
{
  LWN_FEED_ROW_SWITCH,
  LWN_FEED_ROW_UP,
  LWN_FEED_ROW_DOWN,
  LWN_FEED_ROW_REMOVE,
  LWN_FEED_ROW_CHECK,
} LwnFeedRowControl;

#define LWN_TYPE_FEED_ROW (lwn_feed_row_get_type ())
G_DECLARE_FINAL_TYPE (LwnFeedRow, lwn_feed_row, LWN, FEED_ROW, GtkListBoxRow)

/* clang-format off */
LwnFeedRow *lwn_feed_row_new           (const char           *url);
const char *lwn_feed_row_get_url       (LwnFeedRow           *self);
const char *lwn_feed_row_get_title     (LwnFeedRow           *self);
void        lwn_feed_row_set_name      (LwnFeedRow           *self,
                                        const char           *name);
void        lwn_feed_row_set_notify    (LwnFeedRow           *self,
                                        gboolean              notify);
guint       lwn_feed_row_get_position  (LwnFeedRow           *self);
void        lwn_feed_row_set_position  (LwnFeedRow           *self,
                                        guint                 position,
                                        guint                 n_feeds);
void        lwn_feed_row_set_editable  (LwnFeedRow           *self,
                                        gboolean              editable);
void        lwn_feed_row_set_selecting (LwnFeedRow           *self,
                                        gboolean              selecting);
gboolean    lwn_feed_row_get_selected  (LwnFeedRow           *self);
void        lwn_feed_row_set_selected  (LwnFeedRow           *self,
                                        gboolean              selected);
gboolean    lwn_feed_row_matches       (LwnFeedRow           *self,
                                        const LwnSearchQuery *query);
GtkWidget  *lwn_feed_row_get_control   (LwnFeedRow           *self,
                                        LwnFeedRowControl     control);
/* clang-format on */

G_END_DECLS
