/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module resolves links, rewrites LWN links to the full article, and checks that only http(s) URLs are launched. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *lwn_url_resolve          (const char *base,
                                    const char *reference);
gboolean  lwn_url_is_launchable    (const char *url);
char     *lwn_url_dup_article_url  (const char *base,
                                    const char *link);
char     *lwn_url_dup_site_root    (const char *url);
char     *lwn_url_dup_host         (const char *url);

G_END_DECLS
