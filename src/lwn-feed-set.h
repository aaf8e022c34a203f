/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feeds followed: one reading model per feed, each with its own state, cache, timing and error, in the person's order. */
#pragma once

#include <gio/gio.h>

#include "lwn-reader.h"

G_BEGIN_DECLS

/* The feeds of a set first poll this many seconds apart, and so keep apart. */
#define LWN_FEED_SET_SPREAD_SECONDS 4
/* Feeds added together while the set runs poll this many seconds apart, the first at once: a
 * new feed shows nothing until it has polled, so its turn comes sooner than at a start. */
#define LWN_FEED_SET_ADD_SPREAD_SECONDS 1
/* Up to this many feeds without history added in one change of the list (or found at the start) announce
 * their first runs, one grouped notification each; more have quiet first runs, as an imported list would
 * otherwise raise a notification per feed. */
#define LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS 3
/* How long a feed removed can be added back with what was read of it: the preferences' undo. */
#define LWN_FEED_SET_FORGET_SECONDS 10

/* One followed feed, as the settings and the command line give it. */
typedef struct
{
  const char *url;
  const char *name; /* (nullable) what the person calls it; NULL for the feed's own title */
  gboolean notify;  /* whether its new headlines raise notifications */
} LwnFeedSpec;

#define LWN_TYPE_FEED_SET (lwn_feed_set_get_type ())
G_DECLARE_FINAL_TYPE (LwnFeedSet, lwn_feed_set, LWN, FEED_SET, GObject)

/* clang-format off */
LwnFeedSet *lwn_feed_set_new                       (const char        *state_dir,
                                                    const char        *cache_dir,
                                                    const char        *first_feed_url);
void        lwn_feed_set_set_feeds                 (LwnFeedSet        *self,
                                                    const LwnFeedSpec *specs,
                                                    guint              n_specs);
void        lwn_feed_set_start                     (LwnFeedSet        *self);
void        lwn_feed_set_shutdown                  (LwnFeedSet        *self);
void        lwn_feed_set_drain_async               (LwnFeedSet        *self,
                                                    guint              timeout_ms,
                                                    GCancellable      *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer           user_data);
gboolean    lwn_feed_set_drain_finish              (LwnFeedSet        *self,
                                                    GAsyncResult      *result,
                                                    GError           **error);
void        lwn_feed_set_set_forget                (LwnFeedSet        *self,
                                                    guint              seconds);
void        lwn_feed_set_set_spread                (LwnFeedSet        *self,
                                                    guint              seconds);

void        lwn_feed_set_set_interval              (LwnFeedSet        *self,
                                                    guint              seconds,
                                                    gboolean           forced);
void        lwn_feed_set_set_notify                (LwnFeedSet        *self,
                                                    gboolean           notify);
void        lwn_feed_set_set_notify_security_lists (LwnFeedSet        *self,
                                                    gboolean           notify);

guint       lwn_feed_set_get_n_feeds               (LwnFeedSet        *self);
LwnReader  *lwn_feed_set_get_reader                (LwnFeedSet        *self,
                                                    guint              position);
LwnReader  *lwn_feed_set_find_url                  (LwnFeedSet        *self,
                                                    const char        *url);
gboolean    lwn_feed_set_get_feed_notify           (LwnFeedSet        *self,
                                                    LwnReader         *reader);
guint       lwn_feed_set_get_n_unread              (LwnFeedSet        *self);

void        lwn_feed_set_refresh                   (LwnFeedSet        *self);
void        lwn_feed_set_mark_all_read             (LwnFeedSet        *self);
char       *lwn_feed_set_open                      (LwnFeedSet        *self,
                                                    const char        *feed,
                                                    const char        *item_id);
void        lwn_feed_set_mark_shown                (LwnFeedSet        *self,
                                                    const char *const *keys);

char       *lwn_feed_set_dup_state_dir             (LwnFeedSet        *self,
                                                    const char        *url);
/* clang-format on */

G_END_DECLS
