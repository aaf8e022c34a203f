/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module finds headlines by words: it folds text for comparison, setting case and accents aside in any language, and matches queries against it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LwnSearchQuery LwnSearchQuery;

/* clang-format off */
char           *lwn_search_fold            (const char           *text);

LwnSearchQuery *lwn_search_query_new       (const char           *text);
LwnSearchQuery *lwn_search_query_ref       (LwnSearchQuery       *query);
void            lwn_search_query_unref     (LwnSearchQuery       *query);
gboolean        lwn_search_query_is_empty  (const LwnSearchQuery *query);
gboolean        lwn_search_query_matches   (const LwnSearchQuery *query,
                                            const char           *folded);
char           *lwn_search_query_highlight (const LwnSearchQuery *query,
                                            const char           *text);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnSearchQuery, lwn_search_query_unref)

G_END_DECLS
