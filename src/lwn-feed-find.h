/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finds the feed behind an address a person typed: the feed itself, or the one a web page names with <link rel="alternate">. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* clang-format off */
char     *lwn_feed_find_in_html (GBytes              *html,
                                 const char          *page_url);

void      lwn_feed_find_async   (const char          *address,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
gboolean  lwn_feed_find_finish  (GAsyncResult        *result,
                                 char               **feed_url,
                                 char               **title,
                                 GError             **error);
/* clang-format on */

G_END_DECLS
