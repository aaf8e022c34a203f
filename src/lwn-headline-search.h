/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finds the headlines of every feed followed that match some words, newest first, in a worker thread: what the desktop's search asks of the applet. */
#pragma once

#include "lwn-feed-set.h"

G_BEGIN_DECLS

/* The most results one search gives: the desktop shows a few. */
#define LWN_HEADLINE_SEARCH_MAX 8

/* clang-format off */
void    lwn_headline_search_async  (LwnFeedSet          *feeds,
                                    const char *const   *terms,
                                    const char *const   *within,
                                    guint                max_results,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
char  **lwn_headline_search_finish (GAsyncResult        *result,
                                    GError             **error);
/* clang-format on */

G_END_DECLS
