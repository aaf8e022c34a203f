/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hash tables whose keys a feed chooses: a keyed hash no feed can aim at. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint lwn_str_hash (gconstpointer key);
GHashTable *lwn_str_hash_table_new (GDestroyNotify key_destroy,
                                    GDestroyNotify value_destroy);
guint64 lwn_str_hash_for_key (const guint8 key[16],
                              const char *data,
                              gsize length);

G_END_DECLS
