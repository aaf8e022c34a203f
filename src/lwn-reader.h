/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model: the current feed, what was read and announced, reminders, the status line; it decides, views
 * observe. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"
#include "lwn-fetch-queue.h"
#include "lwn-headline.h"
#include "lwn-store.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_READER_STATE_LOADING, /* nothing to show yet; the first load is under way */
  LWN_READER_STATE_READY,   /* a feed is shown (from the network or the cache) */
  LWN_READER_STATE_FAILED,  /* nothing to show: the last load failed, see lwn_reader_get_error() */
} LwnReaderState;

/* Up to this many new items get a notification each; more are grouped. */
#define LWN_READER_MAX_SINGLE_ANNOUNCEMENTS 3
/* A manual refresh this soon after the last request waits until this long after it. */
#define LWN_READER_MANUAL_REFRESH_GAP_SECONDS 3
/* A refresh the timer started shows in the views once it has taken this long. */
#define LWN_READER_SHOW_REFRESH_AFTER_MS 1000

#define LWN_TYPE_READER (lwn_reader_get_type ())
G_DECLARE_FINAL_TYPE (LwnReader, lwn_reader, LWN, READER, GObject)

/* clang-format off */
LwnReader     *lwn_reader_new                  (LwnStore   *store,
                                                const char *feed_url);
void           lwn_reader_start                (LwnReader  *self);
void           lwn_reader_shutdown             (LwnReader  *self);
void           lwn_reader_close                (LwnReader  *self);

void           lwn_reader_set_feed_url         (LwnReader  *self,
                                                const char *feed_url);
const char    *lwn_reader_get_feed_url         (LwnReader  *self);
void           lwn_reader_set_interval         (LwnReader  *self,
                                                guint       seconds,
                                                gboolean    forced);
void           lwn_reader_set_notify           (LwnReader  *self,
                                                gboolean    notify);
void           lwn_reader_set_notify_security_lists (LwnReader *self,
                                                gboolean    notify);

void           lwn_reader_refresh              (LwnReader  *self);
char          *lwn_reader_open                 (LwnReader  *self,
                                                const char *item_id);
void           lwn_reader_mark_read            (LwnReader  *self,
                                                const char *item_id);
void           lwn_reader_mark_read_url        (LwnReader  *self,
                                                const char *url);
gboolean       lwn_reader_has_item             (LwnReader  *self,
                                                const char *item_id);
void           lwn_reader_mark_all_read        (LwnReader  *self);
void           lwn_reader_mark_shown           (LwnReader  *self,
                                                const char *const *item_ids);
gboolean       lwn_reader_set_reminder         (LwnReader  *self,
                                                const char *item_id,
                                                gboolean    remind);
gboolean       lwn_reader_has_reminder         (LwnReader  *self,
                                                const char *item_id);

LwnReaderState lwn_reader_get_state            (LwnReader  *self);
gboolean       lwn_reader_get_refreshing       (LwnReader  *self);
gboolean       lwn_reader_get_loading          (LwnReader  *self);
const char    *lwn_reader_get_status           (LwnReader  *self);
const char    *lwn_reader_get_error            (LwnReader  *self);
GListModel    *lwn_reader_get_headlines        (LwnReader  *self);
LwnFeed       *lwn_reader_get_feed             (LwnReader  *self);
LwnHeadline   *lwn_reader_lookup_headline      (LwnReader  *self,
                                                const char *item_id);
guint          lwn_reader_get_n_unread         (LwnReader  *self);
char          *lwn_reader_dup_site_url         (LwnReader  *self);
char          *lwn_reader_dup_site_name        (LwnReader  *self);
void           lwn_reader_set_name             (LwnReader  *self,
                                                const char *name);
char          *lwn_reader_dup_name             (LwnReader  *self);
void           lwn_reader_set_network_monitor  (LwnReader  *self,
                                                GNetworkMonitor *monitor);
void           lwn_reader_set_first_poll_delay (LwnReader  *self,
                                                guint       seconds);
void           lwn_reader_set_first_poll_wait  (LwnReader  *self,
                                                guint       seconds);
void           lwn_reader_set_fetch_queue      (LwnReader  *self,
                                                LwnFetchQueue *queue);
void           lwn_reader_set_quiet_first_run  (LwnReader  *self,
                                                gboolean    quiet);
/* clang-format on */

G_END_DECLS
