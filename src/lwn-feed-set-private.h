/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feed set's hooks for tests. Only lwn-feed-set.c and the tests include this file. */
#pragma once

#include "lwn-feed-set.h"

G_BEGIN_DECLS

/* clang-format off */
guint lwn_feed_set_count_link_feeds (LwnFeedSet *self,
                                     const char *url);
/* clang-format on */

G_END_DECLS
