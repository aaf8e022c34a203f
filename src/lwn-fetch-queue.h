/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gives the feeds' requests their turns: a few at once in all, and one at a time to each server. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The most requests under way at once, all servers together. */
#define LWN_FETCH_QUEUE_MAX_REQUESTS 4
/* The most under way at once to one server: one scheme, host and port. */
#define LWN_FETCH_QUEUE_MAX_PER_HOST 1

/* A turn granted: the request may go. Freeing it ends the turn. */
typedef struct _LwnFetchSlot LwnFetchSlot;

#define LWN_TYPE_FETCH_QUEUE (lwn_fetch_queue_get_type ())
G_DECLARE_FINAL_TYPE (LwnFetchQueue, lwn_fetch_queue, LWN, FETCH_QUEUE, GObject)

/* clang-format off */
LwnFetchQueue *lwn_fetch_queue_new            (guint                max_requests,
                                               guint                max_per_host);
void           lwn_fetch_queue_acquire_async  (LwnFetchQueue       *self,
                                               const char          *url,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
LwnFetchSlot  *lwn_fetch_queue_acquire_finish (LwnFetchQueue       *self,
                                               GAsyncResult        *result,
                                               GError             **error);
guint          lwn_fetch_queue_get_n_running  (LwnFetchQueue       *self);
guint          lwn_fetch_queue_get_n_waiting  (LwnFetchQueue       *self);
char          *lwn_fetch_queue_dup_host_key   (const char          *url);

void           lwn_fetch_slot_free            (LwnFetchSlot        *slot);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnFetchSlot, lwn_fetch_slot_free)

G_END_DECLS
