/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every feed's headlines as one list model, feed after feed in the set's order, kept up to date as feeds change. */
#pragma once

#include "lwn-feed-set.h"

G_BEGIN_DECLS

#define LWN_TYPE_ALL_HEADLINES (lwn_all_headlines_get_type ())
G_DECLARE_FINAL_TYPE (LwnAllHeadlines, lwn_all_headlines, LWN, ALL_HEADLINES, GObject)

LwnAllHeadlines *lwn_all_headlines_new (LwnFeedSet *feeds);
char            *lwn_all_headlines_dup_feed_name (LwnAllHeadlines *self,
                                                  guint            position);

G_END_DECLS
