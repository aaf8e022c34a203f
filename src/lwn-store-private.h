/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the store object, its state file and its id sets share: the store's fields and the id sets. */
#pragma once

#include "lwn-store.h"

G_BEGIN_DECLS

/* The id sets keep at least this many ids each, and twice as many as the
 * largest feed shown (lwn_store_note_shown_ids()), up to the limit. */
#define LWN_STORE_MAX_IDS 1000
#define LWN_STORE_MAX_IDS_LIMIT 10000
/* Longer ids, and ids that are not UTF-8, are kept as their SHA-256, so
 * that a full set stays small on disk and in memory. */
#define LWN_STORE_MAX_ID_BYTES 256
/* Older versions kept ids up to this long as they are: such ids in their
 * files are taken as their SHA-256. */
#define LWN_STORE_MAX_OLD_ID_BYTES 4096

/* A digest key: this byte, never found in UTF-8, then the hex digest. */
#define LWN_STORE_DIGEST_MARK '\xff'
#define LWN_STORE_DIGEST_HEX_BYTES 64
#define LWN_STORE_DIGEST_KEY_BYTES (1 + LWN_STORE_DIGEST_HEX_BYTES + 1)

/* The set of pending announcements keeps half as many ids as the other
 * sets: as many as the largest feed shown, at least 500 and at most 5,000.
 * Only ids of the feed shown stay pending (lwn_store_note_shown_ids()). */
#define LWN_STORE_PENDING_KEEP(keep_ids) ((keep_ids) / 2)

/* The largest state.ini the store writes: two full sets of the longest ids
 * kept as they are (a digest is shorter) and a full set of pending
 * announcements, every byte escaped, each with a separator, a full set of
 * reminders, and 1 MiB for the other keys; about 15 MiB. */
#define LWN_STORE_MAX_STATE_BYTES                                                                                      \
  ((2 * LWN_STORE_MAX_IDS_LIMIT + LWN_STORE_PENDING_KEEP (LWN_STORE_MAX_IDS_LIMIT)) * (2 * LWN_STORE_MAX_ID_BYTES + 1) \
   + LWN_REMINDERS_MAX_SAVED_BYTES + 1024 * 1024)
/* The same for the versions that kept 1,000 ids of up to 4 KiB to a set,
 * about 17 MiB, and the largest state.ini they read: ours is smaller, so
 * going back to one keeps the state. */
#define LWN_STORE_MAX_OLD_STATE_BYTES \
  (2 * LWN_STORE_MAX_IDS * (2 * LWN_STORE_MAX_OLD_ID_BYTES + 1) + 1024 * 1024)

/* Keys (ids, or digests of those that cannot be kept as they are) in the
 * order they were last seen in a shown feed or first marked, the longest
 * ago first, with an index for constant-time lookups and moves. The queue
 * owns the keys, GRefStrings that a save's snapshot shares. */
typedef struct
{
  GHashTable *index; /* key → its link in order */
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
  /* Ids recorded as announced that no notification server has shown yet,
   * and whether they are the first run's, which announces the feed as one. */
  LwnStoreIds pending;
  gboolean pending_first_run;
  guint keep_ids; /* how many ids each set keeps, LWN_STORE_MAX_IDS … LWN_STORE_MAX_IDS_LIMIT */
  /* The ids of the feed shown that are kept as digests (copies), with
   * their keys: a SHA-256 is computed once per id, not at every lookup. */
  GHashTable *shown_keys;
  guint64 shows; /* how many feeds were shown */

  LwnReminders *reminders;

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

/* clang-format off */
void               lwn_store_ids_init               (LwnStoreIds *ids);
void               lwn_store_ids_clear              (LwnStoreIds *ids);
void               lwn_store_ids_destroy            (LwnStoreIds *ids);
GHashTable        *lwn_store_ids_known_new          (void);
const char        *lwn_store_ids_key                (const char  *id,
                                                     GHashTable  *known,
                                                     char         buffer[LWN_STORE_DIGEST_KEY_BYTES]);
const char        *lwn_store_ids_know_key           (GHashTable  *known,
                                                     const char  *id,
                                                     guint64      show);
void               lwn_store_ids_forget_unshown     (GHashTable  *known,
                                                     guint64      show);
gboolean           lwn_store_ids_contains_key       (LwnStoreIds *ids,
                                                     const char  *key);
gboolean           lwn_store_ids_add_key            (LwnStoreIds *ids,
                                                     const char  *key,
                                                     guint        keep);
void               lwn_store_ids_touch_key          (LwnStoreIds *ids,
                                                     const char  *key);
gboolean           lwn_store_ids_remove_key         (LwnStoreIds *ids,
                                                     const char  *key);
gboolean           lwn_store_ids_retain_keys        (LwnStoreIds *ids,
                                                     GHashTable  *keys);
GPtrArray         *lwn_store_ids_dup_keys           (LwnStoreIds *ids);
gboolean           lwn_store_id_is_storable         (const char  *id);
gboolean           lwn_store_digest_is_valid        (const char  *hex);

void               lwn_store_reset                  (LwnStore    *self);
void               lwn_store_keep_at_least          (LwnStore    *self,
                                                     guint        keep);

/* For the tests: what the loads and saves off the main thread do. */
gboolean           lwn_store_save_feed_body         (LwnStore    *self,
                                                     const char  *feed_url,
                                                     GBytes      *body,
                                                     const char  *content_type,
                                                     GError     **error);
GBytes            *lwn_store_load_feed_body         (LwnStore    *self,
                                                     const char  *feed_url,
                                                     char       **out_content_type,
                                                     GError     **error);
/* clang-format on */

G_END_DECLS
