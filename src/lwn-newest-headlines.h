/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The few headlines a short list across many feeds has room for: unread ones picked before read ones, no feed taking every row while others have some, shown newest first. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How far down each feed's list the pick looks for unread headlines: older
 * ones are the window's to show. */
#define LWN_NEWEST_HEADLINES_SCAN 64

/* clang-format off */
GPtrArray *lwn_newest_headlines_pick (GListModel *const *feeds,
                                      guint              n_feeds,
                                      guint              budget);
/* clang-format on */

G_END_DECLS
