/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The store's id sets: in the order they were marked, capped at the newest 1,000, with constant-time lookups. */

#include "config.h"

#include <string.h>

#include "lwn-store-private.h"

void
lwn_store_ids_init (LwnStoreIds *ids)
{
  ids->index = g_hash_table_new (g_str_hash, g_str_equal);
  g_queue_init (&ids->order);
}

void
lwn_store_ids_clear (LwnStoreIds *ids)
{
  g_hash_table_remove_all (ids->index);
  g_queue_clear_full (&ids->order, g_free);
}

void
lwn_store_ids_destroy (LwnStoreIds *ids)
{
  lwn_store_ids_clear (ids);
  g_clear_pointer (&ids->index, g_hash_table_unref);
}

gboolean
lwn_store_ids_contains (LwnStoreIds *ids,
                        const char *id)
{
  return id != NULL && g_hash_table_contains (ids->index, id);
}

/* Appends @id as the newest, dropping the oldest beyond the cap.
 * Returns FALSE if @id was already there. */
gboolean
lwn_store_ids_add (LwnStoreIds *ids,
                   const char *id)
{
  char *copy;

  if (g_hash_table_contains (ids->index, id))
    return FALSE;

  copy = g_strdup (id);
  g_queue_push_tail (&ids->order, copy);
  g_hash_table_add (ids->index, copy);

  while (ids->order.length > LWN_STORE_MAX_IDS)
    {
      char *oldest = g_queue_pop_head (&ids->order);

      g_hash_table_remove (ids->index, oldest);
      g_free (oldest);
    }

  return TRUE;
}

/* A NULL-terminated view of the ids, oldest first; the strings stay owned by @ids. */
const char **
lwn_store_ids_to_strv (LwnStoreIds *ids,
                       gsize *out_length)
{
  const char **strv = g_new (const char *, ids->order.length + 1);
  gsize i = 0;

  for (GList *l = ids->order.head; l != NULL; l = l->next)
    strv[i++] = l->data;
  strv[i] = NULL;

  *out_length = i;
  return strv;
}

/* Ids must come back exactly as given, so only what a key file holds
 * faithfully is kept: non-empty, bounded, valid UTF-8. */
gboolean
lwn_store_id_is_storable (const char *id)
{
  gsize length;

  if (id == NULL || *id == '\0')
    return FALSE;

  length = strnlen (id, LWN_STORE_MAX_ID_BYTES + 1);
  return length <= LWN_STORE_MAX_ID_BYTES && g_utf8_validate (id, length, NULL);
}
