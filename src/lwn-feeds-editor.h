/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feeds part of the preferences: the feeds followed, searched, added by address, moved, removed one or many at a time with undo, and OPML in and out. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-feed-set.h"

G_BEGIN_DECLS

/* How long "Undo" stays after a feed is removed: as long as the feed set keeps its files. */
#define LWN_FEEDS_EDITOR_UNDO_SECONDS LWN_FEED_SET_FORGET_SECONDS

#define LWN_TYPE_FEEDS_EDITOR (lwn_feeds_editor_get_type ())
G_DECLARE_FINAL_TYPE (LwnFeedsEditor, lwn_feeds_editor, LWN, FEEDS_EDITOR, GtkBox)

/* clang-format off */
void        lwn_feeds_editor_set_settings (LwnFeedsEditor *self,
                                           GSettings      *settings);
void        lwn_feeds_editor_set_locked   (LwnFeedsEditor *self,
                                           const char     *reason);
void        lwn_feeds_editor_search       (LwnFeedsEditor *self);
const char *lwn_feeds_editor_url_problem  (const char     *text);
/* clang-format on */

G_END_DECLS
