/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The store's id sets: constant-time lookups, and when full, the ids seen in a shown feed longest ago go first. */

#include "config.h"

#include <string.h>

#include "lwn-store-private.h"
#include "lwn-str-hash.h"

void
lwn_store_ids_init (LwnStoreIds *ids)
{
  ids->index = lwn_str_hash_table_new (NULL, NULL);
  g_queue_init (&ids->order);
}

void
lwn_store_ids_clear (LwnStoreIds *ids)
{
  g_hash_table_remove_all (ids->index);
  g_queue_clear_full (&ids->order, (GDestroyNotify) g_ref_string_release);
}

void
lwn_store_ids_destroy (LwnStoreIds *ids)
{
  lwn_store_ids_clear (ids);
  g_clear_pointer (&ids->index, g_hash_table_unref);
}

/* Ids must come back exactly as given, so only what a key file holds
 * faithfully, and briefly, is kept as it is: non-empty, at most
 * LWN_STORE_MAX_ID_BYTES, valid UTF-8, and not starting with a form feed,
 * which GKeyFile neither escapes nor keeps at the start of a value. */
gboolean
lwn_store_id_is_storable (const char *id)
{
  gsize length;

  if (id == NULL || *id == '\0' || *id == '\f')
    return FALSE;

  length = strnlen (id, LWN_STORE_MAX_ID_BYTES + 1);
  return length <= LWN_STORE_MAX_ID_BYTES && g_utf8_validate (id, length, NULL);
}

/* Whether @hex is a digest as a key file holds it: 64 lowercase hex digits. */
gboolean
lwn_store_digest_is_valid (const char *hex)
{
  for (gsize i = 0; i < LWN_STORE_DIGEST_HEX_BYTES; i++)
    if (!g_ascii_isdigit (hex[i]) && !(hex[i] >= 'a' && hex[i] <= 'f'))
      return FALSE;

  return hex[LWN_STORE_DIGEST_HEX_BYTES] == '\0';
}

/* A digest key computed before, and when its id was last shown. */
typedef struct
{
  guint64 shown;
  char key[LWN_STORE_DIGEST_KEY_BYTES];
} KnownKey;

/* A table for lwn_store_ids_key() to find the digest keys of ids in: each
 * id (a copy) to its KnownKey. */
GHashTable *
lwn_store_ids_known_new (void)
{
  return lwn_str_hash_table_new (g_free, g_free);
}

/**
 * lwn_store_ids_key:
 * @id: (nullable): an item id
 * @known: (nullable): digest keys computed before, from
 *   lwn_store_ids_known_new()
 * @buffer: room for a digest key
 *
 * What the sets hold for @id: @id itself when it can be stored as it is,
 * else its SHA-256 after a byte that valid UTF-8 never holds, so that such
 * a key cannot equal any id kept as it is: the one in @known, or else
 * written into @buffer.
 *
 * Returns: (nullable): @id, a key in @known, @buffer, or %NULL for no id
 *   or the empty one
 */
const char *
lwn_store_ids_key (const char *id,
                   GHashTable *known,
                   char buffer[LWN_STORE_DIGEST_KEY_BYTES])
{
  g_autoptr (GChecksum) checksum = NULL;
  KnownKey *entry;

  if (id == NULL || *id == '\0')
    return NULL;
  if (lwn_store_id_is_storable (id))
    return id;
  if (known != NULL && (entry = g_hash_table_lookup (known, id)) != NULL)
    return entry->key;

  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, (const guchar *) id, (gssize) strlen (id));
  buffer[0] = LWN_STORE_DIGEST_MARK;
  memcpy (buffer + 1, g_checksum_get_string (checksum), LWN_STORE_DIGEST_HEX_BYTES + 1);
  return buffer;
}

/* The key of @id, as lwn_store_ids_key(); a digest key is kept in @known,
 * marked as shown in show number @show. */
const char *
lwn_store_ids_know_key (GHashTable *known,
                        const char *id,
                        guint64 show)
{
  KnownKey *entry;

  if (id == NULL || *id == '\0')
    return NULL;
  if (lwn_store_id_is_storable (id))
    return id;

  entry = g_hash_table_lookup (known, id);
  if (entry == NULL)
    {
      entry = g_new (KnownKey, 1);
      lwn_store_ids_key (id, NULL, entry->key);
      g_hash_table_insert (known, g_strdup (id), entry);
    }
  entry->shown = show;
  return entry->key;
}

static gboolean
shown_before (gpointer id,
              gpointer entry,
              gpointer show)
{
  return ((KnownKey *) entry)->shown != *(guint64 *) show;
}

/* Forgets the keys in @known of the ids not shown in show number @show. */
void
lwn_store_ids_forget_unshown (GHashTable *known,
                              guint64 show)
{
  g_hash_table_foreach_remove (known, shown_before, &show);
}

gboolean
lwn_store_ids_contains_key (LwnStoreIds *ids,
                            const char *key)
{
  return key != NULL && g_hash_table_contains (ids->index, key);
}

/* Forgets the ids seen longest ago while the set holds more than @keep. */
static void
evict (LwnStoreIds *ids,
       guint keep)
{
  while (ids->order.length > keep)
    {
      char *oldest = g_queue_pop_head (&ids->order);

      g_hash_table_remove (ids->index, oldest);
      g_ref_string_release (oldest);
    }
}

/* Adds @key as the one seen last, dropping those seen longest ago beyond
 * @keep. Returns FALSE if @key was already there. */
gboolean
lwn_store_ids_add_key (LwnStoreIds *ids,
                       const char *key,
                       guint keep)
{
  char *copy;

  if (key == NULL || g_hash_table_contains (ids->index, key))
    return FALSE;

  copy = g_ref_string_new (key);
  g_queue_push_tail (&ids->order, copy);
  g_hash_table_insert (ids->index, copy, ids->order.tail);
  evict (ids, keep);

  return TRUE;
}

/* Makes @key, if the set holds it, the one seen last. */
void
lwn_store_ids_touch_key (LwnStoreIds *ids,
                         const char *key)
{
  GList *link = key != NULL ? g_hash_table_lookup (ids->index, key) : NULL;

  if (link == NULL || link == ids->order.tail)
    return;

  g_queue_unlink (&ids->order, link);
  g_queue_push_tail_link (&ids->order, link);
}

/* Forgets @key, if the set holds it. Returns whether it did. */
gboolean
lwn_store_ids_remove_key (LwnStoreIds *ids,
                          const char *key)
{
  GList *link = key != NULL ? g_hash_table_lookup (ids->index, key) : NULL;

  if (link == NULL)
    return FALSE;

  g_hash_table_remove (ids->index, key);
  g_ref_string_release (link->data);
  g_queue_delete_link (&ids->order, link);
  return TRUE;
}

/* Forgets every key that @keys (a set of keys) does not hold. Returns
 * whether any went. */
gboolean
lwn_store_ids_retain_keys (LwnStoreIds *ids,
                           GHashTable *keys)
{
  GList *link = ids->order.head;
  gboolean removed = FALSE;

  while (link != NULL)
    {
      GList *next = link->next;

      if (!g_hash_table_contains (keys, link->data))
        {
          g_hash_table_remove (ids->index, link->data);
          g_ref_string_release (link->data);
          g_queue_delete_link (&ids->order, link);
          removed = TRUE;
        }
      link = next;
    }
  return removed;
}

/* The keys, the one seen longest ago first, each with a reference of its
 * own: a snapshot that any thread may read and drop while the set changes. */
GPtrArray *
lwn_store_ids_dup_keys (LwnStoreIds *ids)
{
  GPtrArray *keys = g_ptr_array_new_full (ids->order.length, (GDestroyNotify) g_ref_string_release);

  for (GList *l = ids->order.head; l != NULL; l = l->next)
    g_ptr_array_add (keys, g_ref_string_acquire (l->data));

  return keys;
}
