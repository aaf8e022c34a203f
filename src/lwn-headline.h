/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnHeadline is one headline of the reading model: a feed item and whether it was read, as a GObject that list models can hold. */
#pragma once

#include <glib-object.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

/* LWN opens subscriber-only articles to everyone this long after publication. */
#define LWN_HEADLINE_PAYWALL_DAYS 7

#define LWN_TYPE_HEADLINE (lwn_headline_get_type ())
G_DECLARE_FINAL_TYPE (LwnHeadline, lwn_headline, LWN, HEADLINE, GObject)

/* clang-format off */
LwnHeadline *lwn_headline_new        (LwnFeedItem *item,
                                      const char  *feed,
                                      gboolean     unread);
LwnFeedItem *lwn_headline_get_item   (LwnHeadline *self);
const char  *lwn_headline_get_id     (LwnHeadline *self);
const char  *lwn_headline_get_feed   (LwnHeadline *self);
char        *lwn_headline_dup_key    (LwnHeadline *self);
guint        lwn_headline_hash       (gconstpointer headline);
gboolean     lwn_headline_equal      (gconstpointer a,
                                      gconstpointer b);

char        *lwn_headline_key_new    (const char  *feed,
                                      const char  *item_id);
gboolean     lwn_headline_key_split  (const char  *key,
                                      char       **feed,
                                      char       **item_id);
const char  *lwn_headline_get_title  (LwnHeadline *self);
const char  *lwn_headline_get_url    (LwnHeadline *self);
gboolean     lwn_headline_get_unread (LwnHeadline *self);
void         lwn_headline_set_unread (LwnHeadline *self,
                                      gboolean     unread);
gboolean     lwn_headline_get_reminder (LwnHeadline *self);
void         lwn_headline_set_reminder (LwnHeadline *self,
                                        gboolean     reminder);
GDateTime   *lwn_headline_dup_free_on (LwnHeadline *self);
gboolean     lwn_headline_is_free_later (LwnHeadline *self,
                                         GDateTime   *now);
char        *lwn_headline_dup_details (LwnHeadline *self,
                                       GDateTime   *now,
                                       gboolean     subscriber);

char        *lwn_format_age          (GDateTime   *when,
                                      GDateTime   *now);
/* clang-format on */

G_END_DECLS
