/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the store's files share: its fields, its id sets and the bounded reads and atomic writes of its files. */
#pragma once

#include "lwn-store.h"

G_BEGIN_DECLS

/* Enough for any feed we would remember; older ids are dropped first. */
#define LWN_STORE_MAX_IDS         1000
#define LWN_STORE_MAX_ID_BYTES    4096
/* URLs, validators and content types; anything longer on disk is not ours. */
#define LWN_STORE_MAX_VALUE_BYTES 8192

/* Ids in the order they were first marked, with a hash set over the same
 * strings for constant-time lookups. The queue owns the strings. */
typedef struct
{
  GHashTable *index;
  GQueue order;
} LwnStoreIds;

/* Orders the writes of state.ini between lwn_store_save() on the main
 * thread and the worker of lwn_store_save_async(). */
typedef struct
{
  GMutex lock;
  guint64 written; /* the newest snapshot on disk; under @lock */
} LwnStoreWriter;

/* Owned by the main thread, but for @writer. */
struct _LwnStore
{
  GObject parent_instance;

  char *state_path;
  char *cache_dir;

  LwnStoreIds read;
  LwnStoreIds announced;

  char *validators_url;
  char *etag;
  char *last_modified;

  char *configured_url;
  char *moved_to_url;

  GDateTime *last_success;

  LwnStoreWriter writer;
  guint64 snapshots;    /* how many were taken: the last one's generation */
  GPtrArray *in_flight; /* the save_async tasks the running write serves, or NULL */
  GPtrArray *waiting;   /* those that came during it: served by the next write */
};

typedef enum
{
  LWN_STORE_READ_OK,
  LWN_STORE_READ_MISSING,
  LWN_STORE_READ_TOO_LARGE,
  LWN_STORE_READ_FAILED,
} LwnStoreReadResult;

/* clang-format off */
void               lwn_store_ids_init               (LwnStoreIds *ids);
void               lwn_store_ids_clear              (LwnStoreIds *ids);
void               lwn_store_ids_destroy            (LwnStoreIds *ids);
gboolean           lwn_store_ids_contains           (LwnStoreIds *ids,
                                                     const char  *id);
gboolean           lwn_store_ids_add                (LwnStoreIds *ids,
                                                     const char  *id);
const char       **lwn_store_ids_to_strv            (LwnStoreIds *ids,
                                                     gsize       *out_length);
gboolean           lwn_store_id_is_storable         (const char  *id);

gboolean           lwn_store_value_is_storable      (const char  *value);
const char        *lwn_store_resolve_url            (LwnStore    *self,
                                                     const char  *url);
void               lwn_store_reset                  (LwnStore    *self);

LwnStoreReadResult lwn_store_read_bounded           (const char  *path,
                                                     gsize        max_bytes,
                                                     char       **out_contents,
                                                     gsize       *out_length,
                                                     GError     **error);
gboolean           lwn_store_write_atomically       (const char  *path,
                                                     const char  *data,
                                                     gsize        length,
                                                     GError     **error);
char              *lwn_store_build_feed_cache_path  (LwnStore    *self,
                                                     const char  *feed_url);
void               lwn_store_move_feed_cache        (const char  *from_path,
                                                     const char  *to_path);
/* clang-format on */

G_END_DECLS
