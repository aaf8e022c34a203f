/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feed cache: the last good body of a feed, one file per URL. The store object calls it; it knows no store and
 * calls only the store's file primitives. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* clang-format off */
char    *lwn_store_cache_build_path  (const char          *cache_dir,
                                      const char          *feed_url);
gboolean lwn_store_cache_write       (const char          *path,
                                      GBytes              *body,
                                      const char          *content_type,
                                      GError             **error);
GBytes  *lwn_store_cache_read        (const char          *path,
                                      char               **out_content_type,
                                      GError             **error);
void     lwn_store_cache_read_async  (gpointer             source_object,
                                      const char          *path,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
GBytes  *lwn_store_cache_read_finish (gpointer             source_object,
                                      GAsyncResult        *result,
                                      char               **out_content_type,
                                      GError             **error);
void     lwn_store_cache_move        (const char          *from_path,
                                      const char          *to_path);
/* clang-format on */

G_END_DECLS
