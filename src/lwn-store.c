/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The store object: what must survive a restart, kept in memory. It names the feed cache's files and calls down to
 * lwn-store-cache.c and lwn-store-file.c, which never call back. */

#include "config.h"

#include <string.h>

#include "lwn-store-cache.h"
#include "lwn-store-private.h"
#include "lwn-str-hash.h"

#define STATE_FILE_NAME "state.ini"

G_DEFINE_FINAL_TYPE (LwnStore, lwn_store, G_TYPE_OBJECT)

static void
replace_string (char **field,
                const char *value)
{
  char *copy = lwn_store_file_value_is_storable (value) ? g_strdup (value) : NULL;

  g_free (*field);
  *field = copy;
}

/* Where @url now lives: where it moved if it is the configured URL of a
 * recorded move, else @url itself. What is stored for a URL that moved
 * permanently belongs to its new place, even when the caller still names
 * the old one. */
static const char *
resolve_url (LwnStore *self,
             const char *url)
{
  if (url != NULL && self->moved_to_url != NULL && strcmp (self->configured_url, url) == 0)
    return self->moved_to_url;

  return url;
}

/* Back to an empty state, as on a first run. */
void
lwn_store_reset (LwnStore *self)
{
  lwn_store_ids_clear (&self->read);
  lwn_store_ids_clear (&self->announced);
  lwn_store_ids_clear (&self->pending);
  self->pending_first_run = FALSE;
  self->keep_ids = LWN_STORE_MAX_IDS;
  lwn_reminders_clear (self->reminders);
  g_clear_pointer (&self->validators_url, g_free);
  g_clear_pointer (&self->etag, g_free);
  g_clear_pointer (&self->last_modified, g_free);
  g_clear_pointer (&self->configured_url, g_free);
  g_clear_pointer (&self->moved_to_url, g_free);
  g_clear_pointer (&self->last_success, g_date_time_unref);
}

/* Makes each id set keep at least @keep ids from now on, never fewer than
 * before, nor more than the limit. */
void
lwn_store_keep_at_least (LwnStore *self,
                         guint keep)
{
  self->keep_ids = MAX (self->keep_ids, MIN (keep, LWN_STORE_MAX_IDS_LIMIT));
}

static void
lwn_store_finalize (GObject *object)
{
  LwnStore *self = LWN_STORE (object);

  lwn_store_reset (self);
  lwn_store_ids_destroy (&self->read);
  lwn_store_ids_destroy (&self->announced);
  lwn_store_ids_destroy (&self->pending);
  g_clear_pointer (&self->shown_keys, g_hash_table_unref);
  g_clear_pointer (&self->reminders, lwn_reminders_free);
  g_free (self->cache_dir);
  g_free (self->state_path);
  /* Every save_async task holds the store, so none is left here. */
  g_clear_pointer (&self->in_flight, g_ptr_array_unref);
  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  g_mutex_clear (&self->writer.lock);

  G_OBJECT_CLASS (lwn_store_parent_class)->finalize (object);
}

static void
lwn_store_class_init (LwnStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lwn_store_finalize;
}

static void
lwn_store_init (LwnStore *self)
{
  lwn_store_ids_init (&self->read);
  lwn_store_ids_init (&self->announced);
  lwn_store_ids_init (&self->pending);
  self->keep_ids = LWN_STORE_MAX_IDS;
  self->shown_keys = lwn_store_ids_known_new ();
  self->reminders = lwn_reminders_new ();
  g_mutex_init (&self->writer.lock);
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * lwn_store_new:
 * @state_dir: (nullable): the folder for `state.ini`, or %NULL for
 *   `$XDG_STATE_HOME/lwn-tray`
 * @cache_dir: (nullable): the folder for the cached feed bodies, or %NULL
 *   for `$XDG_CACHE_HOME/lwn-tray`
 *
 * Creates an empty store. Nothing is read or created on disk until
 * lwn_store_load() or a save.
 *
 * Returns: (transfer full): a new #LwnStore
 */
LwnStore *
lwn_store_new (const char *state_dir,
               const char *cache_dir)
{
  LwnStore *self = g_object_new (LWN_TYPE_STORE, NULL);

  if (state_dir != NULL)
    self->state_path = g_build_filename (state_dir, STATE_FILE_NAME, NULL);
  else
    self->state_path = g_build_filename (g_get_user_state_dir (), PACKAGE_NAME, STATE_FILE_NAME, NULL);

  if (cache_dir != NULL)
    self->cache_dir = g_strdup (cache_dir);
  else
    self->cache_dir = g_build_filename (g_get_user_cache_dir (), PACKAGE_NAME, NULL);

  return self;
}

/**
 * lwn_store_get_state_path:
 * @self: a #LwnStore
 *
 * Returns: (transfer none): the full path of `state.ini`
 */
const char *
lwn_store_get_state_path (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->state_path;
}

/**
 * lwn_store_is_read:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Returns: %TRUE if @id was marked read and is still remembered (see
 *   lwn_store_note_shown_ids())
 */
gboolean
lwn_store_is_read (LwnStore *self,
                   const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_contains_key (&self->read, lwn_store_ids_key (id, self->shown_keys, buffer));
}

/**
 * lwn_store_mark_read:
 * @self: a #LwnStore
 * @id: (nullable): an item id: any non-empty string
 *
 * Remembers @id as read. When the set is full, the read id seen in a shown
 * feed longest ago is forgotten. Ids longer than 256 bytes or not in UTF-8
 * are remembered by their SHA-256; %NULL and the empty id are ignored.
 *
 * Returns: %TRUE if @id was not read before and now is
 */
gboolean
lwn_store_mark_read (LwnStore *self,
                     const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_add_key (&self->read, lwn_store_ids_key (id, self->shown_keys, buffer), self->keep_ids);
}

/**
 * lwn_store_is_announced:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Returns: %TRUE if @id was already announced and is still remembered
 */
gboolean
lwn_store_is_announced (LwnStore *self,
                        const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_contains_key (&self->announced, lwn_store_ids_key (id, self->shown_keys, buffer));
}

/**
 * lwn_store_mark_announced:
 * @self: a #LwnStore
 * @id: (nullable): an item id: any non-empty string
 *
 * Remembers that @id was announced, as lwn_store_mark_read() remembers
 * that it was read.
 *
 * Returns: %TRUE if @id was not announced before and now is
 */
gboolean
lwn_store_mark_announced (LwnStore *self,
                          const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_add_key (&self->announced, lwn_store_ids_key (id, self->shown_keys, buffer), self->keep_ids);
}

/**
 * lwn_store_is_pending:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Returns: %TRUE if @id was recorded as announced but no notification
 *   server has shown its announcement yet (lwn_store_mark_pending())
 */
gboolean
lwn_store_is_pending (LwnStore *self,
                      const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_contains_key (&self->pending, lwn_store_ids_key (id, self->shown_keys, buffer));
}

/**
 * lwn_store_mark_pending:
 * @self: a #LwnStore
 * @id: (nullable): an item id: any non-empty string
 *
 * Remembers that the announcement of @id waits for a notification server
 * to show it, so that a restart announces it again. The set keeps as many
 * ids as the largest feed shown (at least 500, at most 5,000); when it is
 * full, the id seen in a shown feed longest ago is forgotten. Ids are kept
 * as lwn_store_mark_read() keeps them.
 *
 * Returns: %TRUE if @id was not pending before and now is
 */
gboolean
lwn_store_mark_pending (LwnStore *self,
                        const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return lwn_store_ids_add_key (&self->pending, lwn_store_ids_key (id, self->shown_keys, buffer),
                                LWN_STORE_PENDING_KEEP (self->keep_ids));
}

/* The first run's flag goes with the last pending announcement. */
static void
check_pending_first_run (LwnStore *self)
{
  if (self->pending.order.length == 0)
    self->pending_first_run = FALSE;
}

/**
 * lwn_store_drop_pending:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Forgets that the announcement of @id is pending: a server showed it, or
 * it is not to be announced any more. With the last one goes the first
 * run's flag (lwn_store_set_pending_first_run()).
 *
 * Returns: %TRUE if @id was pending
 */
gboolean
lwn_store_drop_pending (LwnStore *self,
                        const char *id)
{
  char buffer[LWN_STORE_DIGEST_KEY_BYTES];
  gboolean dropped;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  dropped = lwn_store_ids_remove_key (&self->pending, lwn_store_ids_key (id, self->shown_keys, buffer));
  check_pending_first_run (self);
  return dropped;
}

/**
 * lwn_store_has_pending:
 * @self: a #LwnStore
 *
 * Returns: %TRUE if any announcement is pending
 */
gboolean
lwn_store_has_pending (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return self->pending.order.length > 0;
}

/**
 * lwn_store_set_pending_first_run:
 * @self: a #LwnStore
 * @first_run: whether the pending announcements include a first run's
 *
 * A first run announces the whole feed as one notification, and so does
 * the run that announces it again. The flag is kept only while an
 * announcement is pending, and ignored when none is.
 */
void
lwn_store_set_pending_first_run (LwnStore *self,
                                 gboolean first_run)
{
  g_return_if_fail (LWN_IS_STORE (self));

  self->pending_first_run = !!first_run;
  check_pending_first_run (self);
}

/**
 * lwn_store_get_pending_first_run:
 * @self: a #LwnStore
 *
 * Returns: %TRUE if the pending announcements include a first run's
 */
gboolean
lwn_store_get_pending_first_run (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return self->pending_first_run;
}

/**
 * lwn_store_has_history:
 * @self: a #LwnStore
 *
 * Tells a first run (or a run after the state was lost) from a normal
 * one, so that the applet does not announce a whole feed at once.
 *
 * Returns: %TRUE if any item has been announced
 */
gboolean
lwn_store_has_history (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return self->announced.order.length > 0;
}

/**
 * lwn_store_note_shown_ids:
 * @self: a #LwnStore
 * @ids: (array length=n_ids): the ids of the feed now shown, in its order
 *   (feeds list their newest item first)
 * @n_ids: how many
 *
 * Records that @ids were seen now. When an id set is full, the ids seen
 * longest ago are forgotten first, so the marks of the feed shown are the
 * last to go, its first ids last of all. From now on each set keeps at
 * least twice as many ids as @ids holds (and never fewer than 1,000 or than
 * before), up to 10,000 ids.
 *
 * Pending announcements (lwn_store_mark_pending()) of ids not in @ids are
 * dropped: a headline that left the feed is not announced any more.
 *
 * Nothing is written: the next save (after the next mark, or on quitting)
 * writes the order and the number of ids kept with the rest of the state.
 *
 * The SHA-256 of an id too long to keep as it is is computed here, and
 * only for the ids the feed shown before did not hold; until the next
 * call, the store's other calls for these ids use it rather than compute
 * it again. So call this first when showing a feed, before asking about
 * its items.
 */
void
lwn_store_note_shown_ids (LwnStore *self,
                          const char *const *ids,
                          gsize n_ids)
{
  g_autoptr (GHashTable) shown = NULL;

  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (ids != NULL || n_ids == 0);

  lwn_store_keep_at_least (self, (guint) MIN (n_ids, LWN_STORE_MAX_IDS_LIMIT) * 2);

  /* The keys of the ids shown before and shown again are kept, so a new
   * feed costs a SHA-256 only for its new ids; the others go. */
  self->shows++;
  if (self->pending.order.length > 0)
    shown = lwn_str_hash_table_new (NULL, NULL);
  for (gsize i = n_ids; i-- > 0;)
    {
      const char *key = lwn_store_ids_know_key (self->shown_keys, ids[i], self->shows);

      lwn_store_ids_touch_key (&self->read, key);
      lwn_store_ids_touch_key (&self->announced, key);
      lwn_store_ids_touch_key (&self->pending, key);
      if (shown != NULL && key != NULL)
        g_hash_table_add (shown, (gpointer) key);
    }
  if (shown != NULL)
    {
      lwn_store_ids_retain_keys (&self->pending, shown);
      check_pending_first_run (self);
    }
  lwn_store_ids_forget_unshown (self->shown_keys, self->shows);
}

/**
 * lwn_store_get_reminders:
 * @self: a #LwnStore
 *
 * The reminders to read subscriber-only articles once they are free, for
 * the reading model to change on the main thread; the next save writes them
 * with the rest of the state.
 *
 * Returns: (transfer none): the store's set of reminders
 */
LwnReminders *
lwn_store_get_reminders (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->reminders;
}

/**
 * lwn_store_set_validators:
 * @self: a #LwnStore
 * @feed_url: the URL the validators were received for
 * @etag: (nullable): the `ETag` of the last good response
 * @last_modified: (nullable): the `Last-Modified` of the last good response
 *
 * Replaces the remembered validators. With neither @etag nor
 * @last_modified, forgets them. For a configured URL known to have moved
 * (lwn_store_set_moved_url()), they are kept for where it moved.
 */
void
lwn_store_set_validators (LwnStore *self,
                          const char *feed_url,
                          const char *etag,
                          const char *last_modified)
{
  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (feed_url != NULL);

  replace_string (&self->etag, etag);
  replace_string (&self->last_modified, last_modified);

  if (self->etag == NULL && self->last_modified == NULL)
    replace_string (&self->validators_url, NULL);
  else
    replace_string (&self->validators_url, resolve_url (self, feed_url));
}

static gboolean
validators_match (LwnStore *self,
                  const char *feed_url)
{
  return feed_url != NULL && g_strcmp0 (self->validators_url, resolve_url (self, feed_url)) == 0;
}

/**
 * lwn_store_get_etag:
 * @self: a #LwnStore
 * @feed_url: the URL about to be fetched
 *
 * Returns: (transfer none) (nullable): the `ETag` stored for @feed_url (or
 *   where it moved), or %NULL if there is none or it belongs to another URL
 */
const char *
lwn_store_get_etag (LwnStore *self,
                    const char *feed_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return validators_match (self, feed_url) ? self->etag : NULL;
}

/**
 * lwn_store_get_last_modified:
 * @self: a #LwnStore
 * @feed_url: the URL about to be fetched
 *
 * Returns: (transfer none) (nullable): the `Last-Modified` stored for
 *   @feed_url (or where it moved), or %NULL if there is none or it belongs
 *   to another URL
 */
const char *
lwn_store_get_last_modified (LwnStore *self,
                             const char *feed_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return validators_match (self, feed_url) ? self->last_modified : NULL;
}

/**
 * lwn_store_dup_feed_cache_path:
 * @self: a #LwnStore
 * @feed_url: a feed URL
 *
 * Names the file that keeps the last good body of @feed_url: one file per
 * URL in the cache folder, named after a hash of the URL. For a configured
 * URL known to have moved (lwn_store_set_moved_url()), that is the file of
 * where it moved. Call it on the thread that owns @self and hand the path
 * to a worker for lwn_store_write_feed_cache().
 *
 * Returns: (transfer full): the path of the cache file for @feed_url
 */
char *
lwn_store_dup_feed_cache_path (LwnStore *self,
                               const char *feed_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);
  g_return_val_if_fail (feed_url != NULL, NULL);

  return lwn_store_cache_build_path (self->cache_dir, resolve_url (self, feed_url));
}

/**
 * lwn_store_write_feed_cache:
 * @path: a path from lwn_store_dup_feed_cache_path()
 * @body: the raw bytes of the last good response
 * @content_type: (nullable): its `Content-Type`
 * @error: return location for a #GError
 *
 * Keeps @body and @content_type at @path for lwn_store_load_feed_body(),
 * atomically and durably, creating the folder (mode 0700) if needed.
 * Touches no store, so any thread may call it; on failure the previous
 * copy stays as it was.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO otherwise
 */
gboolean
lwn_store_write_feed_cache (const char *path,
                            GBytes *body,
                            const char *content_type,
                            GError **error)
{
  return lwn_store_cache_write (path, body, content_type, error);
}

/**
 * lwn_store_save_feed_body:
 * @self: a #LwnStore
 * @feed_url: the URL @body was fetched from
 * @body: the raw bytes of the last good response
 * @content_type: (nullable): its `Content-Type`
 * @error: return location for a #GError
 *
 * lwn_store_write_feed_cache() to the file of @feed_url, on the calling
 * thread.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO otherwise
 */
gboolean
lwn_store_save_feed_body (LwnStore *self,
                          const char *feed_url,
                          GBytes *body,
                          const char *content_type,
                          GError **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (feed_url != NULL, FALSE);
  g_return_val_if_fail (body != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  path = lwn_store_dup_feed_cache_path (self, feed_url);
  return lwn_store_write_feed_cache (path, body, content_type, error);
}

/**
 * lwn_store_load_feed_body:
 * @self: a #LwnStore
 * @feed_url: the URL whose cached body is wanted
 * @out_content_type: (out) (optional) (nullable) (transfer full): the
 *   recorded `Content-Type`, or %NULL if none was recorded
 * @error: return location for a #GError
 *
 * Reads back the body kept by lwn_store_write_feed_cache() for @feed_url,
 * on the calling thread; lwn_store_load_feed_body_async() does it on a
 * worker.
 *
 * Returns: (transfer full) (nullable): the body; %NULL without an error
 *   when nothing is cached for @feed_url; %NULL with %LWN_STORE_ERROR_IO
 *   when the file cannot be read, or %LWN_STORE_ERROR_CORRUPT when it is
 *   not one we wrote
 */
GBytes *
lwn_store_load_feed_body (LwnStore *self,
                          const char *feed_url,
                          char **out_content_type,
                          GError **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (LWN_IS_STORE (self), NULL);
  g_return_val_if_fail (feed_url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (out_content_type != NULL)
    *out_content_type = NULL;

  path = lwn_store_dup_feed_cache_path (self, feed_url);
  return lwn_store_cache_read (path, out_content_type, error);
}

/**
 * lwn_store_load_feed_body_async:
 * @self: a #LwnStore
 * @feed_url: the URL whose cached body is wanted
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on this thread's main context with the result
 * @user_data: data for @callback
 *
 * Reads the body kept for @feed_url on a worker thread, as
 * lwn_store_load_feed_body() does on the calling one.
 */
void
lwn_store_load_feed_body_async (LwnStore *self,
                                const char *feed_url,
                                GCancellable *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer user_data)
{
  g_autofree char *path = NULL;

  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (feed_url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  path = lwn_store_dup_feed_cache_path (self, feed_url);
  lwn_store_cache_read_async (self, path, cancellable, callback, user_data);
}

/**
 * lwn_store_load_feed_body_finish:
 * @self: a #LwnStore
 * @result: the #GAsyncResult given to the callback
 * @out_content_type: (out) (optional) (nullable) (transfer full): the
 *   recorded `Content-Type`, or %NULL if none was recorded
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the body; %NULL without an error
 *   when nothing is cached; %NULL with an error as from
 *   lwn_store_load_feed_body(), or %G_IO_ERROR_CANCELLED
 */
GBytes *
lwn_store_load_feed_body_finish (LwnStore *self,
                                 GAsyncResult *result,
                                 char **out_content_type,
                                 GError **error)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return lwn_store_cache_read_finish (self, result, out_content_type, error);
}

/* Hands what was kept for @from_url, its validators and its cached body,
 * to @to_url, where the feed now lives. */
static void
carry_over (LwnStore *self,
            const char *from_url,
            const char *to_url)
{
  g_autofree char *from_path = NULL;
  g_autofree char *to_path = NULL;

  if (from_url == NULL || strcmp (from_url, to_url) == 0)
    return;

  if (g_strcmp0 (self->validators_url, from_url) == 0)
    replace_string (&self->validators_url, to_url);

  from_path = lwn_store_cache_build_path (self->cache_dir, from_url);
  to_path = lwn_store_cache_build_path (self->cache_dir, to_url);
  lwn_store_cache_move (from_path, to_path);
}

/**
 * lwn_store_set_moved_url:
 * @self: a #LwnStore
 * @configured_url: the feed URL the user configured
 * @moved_to_url: (nullable): where a 301 or 308 said it now lives, or %NULL
 *   to forget the move
 *
 * Remembers a permanent redirect for @configured_url, replacing any
 * earlier one. The validators and the cached body kept for
 * @configured_url, or for where it had moved before, now belong to
 * @moved_to_url: the next start shows that body at once, and the next
 * request can still be answered with 304. The cache file is renamed on the
 * calling thread (one rename, no copy); a copy a worker already wrote for
 * @moved_to_url is kept.
 */
void
lwn_store_set_moved_url (LwnStore *self,
                         const char *configured_url,
                         const char *moved_to_url)
{
  g_autofree char *previous = NULL;

  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (configured_url != NULL);

  if (!lwn_store_file_value_is_storable (configured_url) || !lwn_store_file_value_is_storable (moved_to_url) || strcmp (configured_url, moved_to_url) == 0)
    {
      if (g_strcmp0 (self->configured_url, configured_url) == 0)
        {
          g_clear_pointer (&self->configured_url, g_free);
          g_clear_pointer (&self->moved_to_url, g_free);
        }
      return;
    }

  if (g_strcmp0 (self->configured_url, configured_url) == 0)
    previous = g_steal_pointer (&self->moved_to_url);
  replace_string (&self->configured_url, configured_url);
  replace_string (&self->moved_to_url, moved_to_url);

  /* The previous target first: it holds the newer copy, if any. */
  carry_over (self, previous, self->moved_to_url);
  carry_over (self, self->configured_url, self->moved_to_url);
}

/**
 * lwn_store_get_moved_url:
 * @self: a #LwnStore
 * @configured_url: the feed URL the user configured
 *
 * Returns: (transfer none) (nullable): the URL @configured_url moved to
 *   permanently, or %NULL if none is known
 */
const char *
lwn_store_get_moved_url (LwnStore *self,
                         const char *configured_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  if (configured_url == NULL || g_strcmp0 (self->configured_url, configured_url) != 0)
    return NULL;

  return self->moved_to_url;
}

/**
 * lwn_store_set_last_success:
 * @self: a #LwnStore
 * @when: (nullable): when the feed was last fetched successfully, or %NULL
 *   to forget it
 */
void
lwn_store_set_last_success (LwnStore *self,
                            GDateTime *when)
{
  g_return_if_fail (LWN_IS_STORE (self));

  if (when != NULL)
    g_date_time_ref (when);
  g_clear_pointer (&self->last_success, g_date_time_unref);
  self->last_success = when;
}

/**
 * lwn_store_get_last_success:
 * @self: a #LwnStore
 *
 * Returns: (transfer none) (nullable): when the feed was last fetched
 *   successfully, or %NULL if never
 */
GDateTime *
lwn_store_get_last_success (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->last_success;
}
