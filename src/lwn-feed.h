/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnFeed and LwnFeedItem hold the parsed feed, which never changes once built. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* This many characters of plain-text summary are kept for each item. They
 * are what a notification, or a screen reader describing a row, reads out. */
#define LWN_FEED_SUMMARY_CHARS 400

/* A feed keeps at most this many items, its newest: what a feed chooses to
 * send costs every view, every table and every save, and no reader looks
 * further back than this in a menu or a window. */
#define LWN_FEED_MAX_ITEMS 5000

typedef struct _LwnFeed LwnFeed;
typedef struct _LwnFeedItem LwnFeedItem;

/* Items */
LwnFeedItem *lwn_feed_item_new (const char *id,
                                const char *title,
                                const char *link,
                                const char *url,
                                const char *author,
                                const char *description_html,
                                GDateTime *date,
                                gboolean paywalled);
LwnFeedItem *lwn_feed_item_ref (LwnFeedItem *item);
void lwn_feed_item_unref (LwnFeedItem *item);
const char *lwn_feed_item_get_id (const LwnFeedItem *item);
const char *lwn_feed_item_get_title (const LwnFeedItem *item);
const char *lwn_feed_item_get_link (const LwnFeedItem *item);
const char *lwn_feed_item_get_url (const LwnFeedItem *item);
const char *lwn_feed_item_get_author (const LwnFeedItem *item);
const char *lwn_feed_item_get_description (const LwnFeedItem *item);
GDateTime *lwn_feed_item_get_date (const LwnFeedItem *item);
gboolean lwn_feed_item_get_paywalled (const LwnFeedItem *item);
gboolean lwn_feed_item_is_security_list (const LwnFeedItem *item);
const char *lwn_feed_item_get_summary (LwnFeedItem *item);
const char *lwn_feed_item_get_summary_markup (LwnFeedItem *item);
const char *lwn_feed_item_get_search_text (LwnFeedItem *item);
gboolean lwn_feed_item_has_search_text (LwnFeedItem *item);
gboolean lwn_feed_item_has_display_text (LwnFeedItem *item);
void lwn_feed_items_prepare_display_async (GPtrArray *items,
                                           GCancellable *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer user_data);
gboolean lwn_feed_items_prepare_display_finish (GAsyncResult *result,
                                                GError **error);
void lwn_feed_items_prepare_search_async (GPtrArray *items,
                                          GCancellable *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer user_data);
gboolean lwn_feed_items_prepare_search_finish (GAsyncResult *result,
                                               GError **error);

/* Feeds */
LwnFeed *lwn_feed_new (const char *title,
                       const char *link,
                       guint refresh_seconds,
                       GPtrArray *items);
LwnFeed *lwn_feed_ref (LwnFeed *feed);
void lwn_feed_unref (LwnFeed *feed);
const char *lwn_feed_get_title (const LwnFeed *feed);
const char *lwn_feed_get_link (const LwnFeed *feed);
guint lwn_feed_get_refresh_seconds (const LwnFeed *feed);
guint lwn_feed_get_n_items (const LwnFeed *feed);
LwnFeedItem *lwn_feed_get_item (const LwnFeed *feed,
                                guint index);
void lwn_feed_prepare_display (LwnFeed *feed,
                               const LwnFeed *previous);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnFeedItem, lwn_feed_item_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnFeed, lwn_feed_unref)

G_END_DECLS
