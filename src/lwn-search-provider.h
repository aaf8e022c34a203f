/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines in the desktop's own search: GNOME Shell's org.gnome.Shell.SearchProvider2 and KRunner's org.kde.krunner1, answered from the reading model. */
#pragma once

#include "lwn-feed-set.h"

G_BEGIN_DECLS

#define LWN_TYPE_SEARCH_PROVIDER (lwn_search_provider_get_type ())
G_DECLARE_FINAL_TYPE (LwnSearchProvider, lwn_search_provider, LWN, SEARCH_PROVIDER, GObject)

/* clang-format off */
LwnSearchProvider *lwn_search_provider_new         (void);
gboolean           lwn_search_provider_register    (LwnSearchProvider  *self,
                                                    GDBusConnection    *connection,
                                                    const char         *shell_path,
                                                    const char         *krunner_path,
                                                    GError            **error);
void               lwn_search_provider_unregister  (LwnSearchProvider  *self);
void               lwn_search_provider_set_feeds   (LwnSearchProvider  *self,
                                                    LwnFeedSet         *feeds);
void               lwn_search_provider_set_enabled (LwnSearchProvider  *self,
                                                    gboolean            enabled);
gboolean           lwn_search_provider_get_enabled (LwnSearchProvider  *self);
guint              lwn_search_provider_get_n_searching (LwnSearchProvider *self);
/* clang-format on */

G_END_DECLS
