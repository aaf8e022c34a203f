/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fetch and parse in one step, in a worker thread: what a refresh needs. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"
#include "lwn-fetch.h"

G_BEGIN_DECLS

gboolean lwn_feed_load_sync (const LwnFetchRequest *request,
                             LwnFeed **out_feed,
                             LwnFetchResponse **out_response,
                             GCancellable *cancellable,
                             GError **error);
void lwn_feed_load_async (const LwnFetchRequest *request,
                          const char *cache_path,
                          LwnFeed *previous,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data);
gboolean lwn_feed_load_finish (GAsyncResult *result,
                               LwnFeed **out_feed,
                               LwnFetchResponse **out_response,
                               GError **error);

G_END_DECLS
