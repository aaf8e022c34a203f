/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feed cache: the last good body of a feed, one file per URL, written and read on any thread. It knows no
 * store: the store object names the files and calls down to this one, which calls only lwn-store-file.c. */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "lwn-store-cache.h"
#include "lwn-store-file.h"

#define CACHE_FILE_PREFIX "feed-"
/* A cache file is this line, a line holding the content type (empty when
 * unknown), then the body as received. */
#define CACHE_MAGIC "lwn-tray feed cache 1\n"
/* Well above any feed the fetcher accepts by default. */
#define MAX_BODY_BYTES (32 * 1024 * 1024)
#define MAX_CACHE_FILE_BYTES (MAX_BODY_BYTES + sizeof CACHE_MAGIC + LWN_STORE_MAX_VALUE_BYTES + 1)

/* A content type is kept on a line of its own. */
static gboolean
content_type_is_storable (const char *value)
{
  return lwn_store_file_value_is_storable (value) && strpbrk (value, "\r\n") == NULL && g_utf8_validate (value, -1, NULL);
}

/**
 * lwn_store_cache_build_path:
 * @cache_dir: the cache folder
 * @feed_url: a feed URL
 *
 * Names the cache file of exactly @feed_url: one file per URL in
 * @cache_dir, named after a hash of the URL. The store resolves a moved
 * URL before it asks.
 *
 * Returns: (transfer full): the path of the cache file for @feed_url
 */
char *
lwn_store_cache_build_path (const char *cache_dir,
                            const char *feed_url)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, feed_url, -1);
  g_autofree char *name = g_strconcat (CACHE_FILE_PREFIX, hash, NULL);

  return g_build_filename (cache_dir, name, NULL);
}

/**
 * lwn_store_cache_write:
 * @path: a path from lwn_store_cache_build_path()
 * @body: the raw bytes of the last good response
 * @content_type: (nullable): its `Content-Type`
 * @error: return location for a #GError
 *
 * Keeps @body and @content_type at @path for lwn_store_cache_read(),
 * atomically and durably, creating the folder (mode 0700) if needed.
 * Touches no store, so any thread may call it; on failure the previous
 * copy stays as it was.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO otherwise
 */
gboolean
lwn_store_cache_write (const char *path,
                       GBytes *body,
                       const char *content_type,
                       GError **error)
{
  g_autoptr (GByteArray) contents = NULL;
  const guint8 *data;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (body != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = g_bytes_get_data (body, &length);
  if (length > MAX_BODY_BYTES)
    {
      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                   /* Translators: %s is a file name. */
                   _ ("Not caching the feed in “%s”: it is too large."), path);
      return FALSE;
    }

  contents = g_byte_array_sized_new (strlen (CACHE_MAGIC) + LWN_STORE_MAX_VALUE_BYTES + 1 + length);
  g_byte_array_append (contents, (const guint8 *) CACHE_MAGIC, strlen (CACHE_MAGIC));
  if (content_type_is_storable (content_type))
    g_byte_array_append (contents, (const guint8 *) content_type, strlen (content_type));
  g_byte_array_append (contents, (const guint8 *) "\n", 1);
  if (length > 0)
    g_byte_array_append (contents, data, length);

  return lwn_store_file_write_atomically (path, (const char *) contents->data, contents->len, error);
}

/**
 * lwn_store_cache_read:
 * @path: a path from lwn_store_cache_build_path()
 * @out_content_type: (out) (optional) (nullable) (transfer full): the
 *   recorded `Content-Type`, or %NULL if none was recorded
 * @error: return location for a #GError
 *
 * Reads back a file of lwn_store_cache_write(), on any thread.
 *
 * Returns: (transfer full) (nullable): the body; %NULL without an error
 *   when nothing is cached at @path; %NULL with %LWN_STORE_ERROR_IO when
 *   the file cannot be read, or %LWN_STORE_ERROR_CORRUPT when it is not
 *   one we wrote
 */
GBytes *
lwn_store_cache_read (const char *path,
                      char **out_content_type,
                      GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GBytes) whole = NULL;
  g_autofree char *contents = NULL;
  const gsize magic_length = strlen (CACHE_MAGIC);
  const char *type_end = NULL;
  gsize length = 0;
  gsize offset;

  switch (lwn_store_file_read_bounded (path, MAX_CACHE_FILE_BYTES, &contents, &length, &local_error))
    {
      case LWN_STORE_READ_OK:
        break;
      case LWN_STORE_READ_MISSING:
        return NULL;
      case LWN_STORE_READ_TOO_LARGE:
        g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
                     /* Translators: %s is a file name. */
                     _ ("The cached feed “%s” is larger than any feed lwn-tray saves."), path);
        return NULL;
      case LWN_STORE_READ_FAILED:
      default:
        g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                     /* Translators: %s are a file name and the system's reason. */
                     _ ("Could not read the cached feed “%s”: %s"), path, local_error->message);
        return NULL;
    }

  if (length >= magic_length && memcmp (contents, CACHE_MAGIC, magic_length) == 0)
    type_end = memchr (contents + magic_length, '\n', MIN (length - magic_length, LWN_STORE_MAX_VALUE_BYTES + 1));
  if (type_end == NULL)
    {
      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
                   /* Translators: %s is a file name. */
                   _ ("The cached feed “%s” was not written by lwn-tray."), path);
      return NULL;
    }

  if (out_content_type != NULL)
    {
      g_autofree char *type = g_strndup (contents + magic_length, type_end - (contents + magic_length));

      *out_content_type = content_type_is_storable (type) ? g_steal_pointer (&type) : NULL;
    }

  offset = (gsize) (type_end + 1 - contents);
  whole = g_bytes_new_take (g_steal_pointer (&contents), length);
  return g_bytes_new_from_bytes (whole, offset, length - offset);
}

/* Tells our GTasks from others in the _finish function. */
static char load_source_tag;

typedef struct
{
  GBytes *body;
  char *content_type;
} CachedBody;

static void
cached_body_free (CachedBody *cached)
{
  g_clear_pointer (&cached->body, g_bytes_unref);
  g_free (cached->content_type);
  g_free (cached);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CachedBody, cached_body_free)

static void
load_feed_body_thread (GTask *task,
                       gpointer source_object,
                       gpointer task_data,
                       GCancellable *cancellable)
{
  g_autoptr (CachedBody) cached = g_new0 (CachedBody, 1);
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  cached->body = lwn_store_cache_read (task_data, &cached->content_type, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&cached), (GDestroyNotify) cached_body_free);
}

/**
 * lwn_store_cache_read_async:
 * @source_object: the object that the task reports for
 * @path: a path from lwn_store_cache_build_path()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on this thread's main context with the result
 * @user_data: data for @callback
 *
 * Reads the file at @path on a worker thread, as lwn_store_cache_read()
 * does on the calling one.
 */
void
lwn_store_cache_read_async (gpointer source_object,
                            const char *path,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (G_IS_OBJECT (source_object));
  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, &load_source_tag);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_feed_body_thread);
}

/**
 * lwn_store_cache_read_finish:
 * @source_object: the object given to lwn_store_cache_read_async()
 * @result: the #GAsyncResult given to the callback
 * @out_content_type: (out) (optional) (nullable) (transfer full): the
 *   recorded `Content-Type`, or %NULL if none was recorded
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the body; %NULL without an error
 *   when nothing is cached; %NULL with an error as from
 *   lwn_store_cache_read(), or %G_IO_ERROR_CANCELLED
 */
GBytes *
lwn_store_cache_read_finish (gpointer source_object,
                             GAsyncResult *result,
                             char **out_content_type,
                             GError **error)
{
  g_autoptr (CachedBody) cached = NULL;

  g_return_val_if_fail (g_task_is_valid (result, source_object), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, &load_source_tag), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (out_content_type != NULL)
    *out_content_type = NULL;

  cached = g_task_propagate_pointer (G_TASK (result), error);
  if (cached == NULL)
    return NULL;

  if (out_content_type != NULL)
    *out_content_type = g_steal_pointer (&cached->content_type);
  return g_steal_pointer (&cached->body);
}

/* Moves the cache file at @from_path to @to_path, unless @to_path already
 * holds a copy: a worker may have written the new URL's body before the
 * move was recorded, and that copy is the newer one. */
void
lwn_store_cache_move (const char *from_path,
                      const char *to_path)
{
  int saved_errno;

  /* link() is the rename that never replaces. */
  if (link (from_path, to_path) == 0 || errno == EEXIST)
    {
      g_unlink (from_path);
      return;
    }

  saved_errno = errno;
  if (saved_errno == ENOENT)
    return;

  /* A file system without hard links: check, then rename. */
  if (!g_file_test (to_path, G_FILE_TEST_EXISTS) && g_rename (from_path, to_path) == 0)
    return;
  g_warning ("Could not move the cached feed %s to %s: %s", from_path, to_path, g_strerror (saved_errno));
}
