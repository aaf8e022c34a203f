/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The store's file primitives: its error domain, bounded reads and atomic writes, safe on any thread. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "lwn-store-file.h"

/* clang-format off */
G_DEFINE_QUARK (lwn-store-error-quark, lwn_store_error)
/* clang-format on */

/* A value is stored only when it is not empty and not longer than any
 * value the store writes, so that reading it back cannot fail. */
gboolean
lwn_store_file_value_is_storable (const char *value)
{
  return value != NULL && *value != '\0' && strnlen (value, LWN_STORE_MAX_VALUE_BYTES + 1) <= LWN_STORE_MAX_VALUE_BYTES;
}

/* Reads a whole file unless it is larger than @max_bytes, so that a file
 * we did not write cannot make us allocate without bound. */
LwnStoreReadResult
lwn_store_file_read_bounded (const char *path,
                             gsize max_bytes,
                             char **out_contents,
                             gsize *out_length,
                             GError **error)
{
  GStatBuf st;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      /* ENOTDIR: a file stands where a folder on the path should be, so
       * there is nothing to read; saving will report the real problem. */
      if (saved_errno == ENOENT || saved_errno == ENOTDIR)
        return LWN_STORE_READ_MISSING;

      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return LWN_STORE_READ_FAILED;
    }

  if (st.st_size < 0 || (guint64) st.st_size > max_bytes)
    return LWN_STORE_READ_TOO_LARGE;

  if (!g_file_get_contents (path, &contents, &length, error))
    return LWN_STORE_READ_FAILED;

  if (length > max_bytes)
    return LWN_STORE_READ_TOO_LARGE;

  *out_contents = g_steal_pointer (&contents);
  *out_length = length;
  return LWN_STORE_READ_OK;
}

/* What g_file_set_contents_full (G_FILE_SET_CONTENTS_CONSISTENT) does, with
 * a temporary file opened close-on-exec: GLib 2.74 opens its own without,
 * and a browser started during a save would keep it open. Returns the
 * system's reason for a failure, or NULL. */
static const char *
write_then_rename (const char *path,
                   const char *data,
                   gsize length)
{
  g_autofree char *temporary = g_strconcat (path, ".XXXXXX", NULL);
  int fd = g_mkstemp_full (temporary, O_WRONLY | O_CLOEXEC, 0600);
  int saved_errno = 0;

  if (fd < 0)
    return g_strerror (errno);
  while (length > 0 && saved_errno == 0)
    {
      gssize written = write (fd, data, length);

      if (written < 0 && errno != EINTR)
        saved_errno = errno;
      else if (written > 0)
        {
          data += written;
          length -= written;
        }
    }
  if (saved_errno == 0 && fsync (fd) != 0)
    saved_errno = errno;
  if (!g_close (fd, NULL) && saved_errno == 0)
    saved_errno = errno;
  if (saved_errno == 0 && g_rename (temporary, path) != 0)
    saved_errno = errno;
  if (saved_errno == 0)
    return NULL;
  g_unlink (temporary);
  return g_strerror (saved_errno);
}

/* Writes @length bytes to @path through a temporary file, an fsync and a
 * rename, so readers see either the old or the new contents, never a mix.
 * Safe on any thread. */
gboolean
lwn_store_file_write_atomically (const char *path,
                                 const char *data,
                                 gsize length,
                                 GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  const char *reason;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    reason = g_strerror (errno);
  else if ((reason = write_then_rename (path, data, length)) == NULL)
    return TRUE;

  g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
               /* Translators: %s are a file name and the system's reason. */
               _ ("Could not save “%s”: %s"), path, reason);
  return FALSE;
}
