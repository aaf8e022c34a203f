/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module resolves links, rewrites LWN links to the full article, checks that only http(s) URLs are launched, and
 * checks a feed's address before it is followed. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The longest feed address followed, in bytes: sitemaps and most browsers
 * stop near 2,000 characters, and no feed needs more. */
#define LWN_URL_MAX_FEED_BYTES 2048

char       *lwn_url_resolve          (const char *base,
                                      const char *reference);
gboolean    lwn_url_is_launchable    (const char *url);
const char *lwn_url_feed_problem     (const char *url);
char       *lwn_url_dup_article_url  (const char *base,
                                      const char *link);
char       *lwn_url_dup_site_root    (const char *url);
char       *lwn_url_dup_host         (const char *url);

G_END_DECLS
