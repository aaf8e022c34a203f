/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The store's file primitives: its error domain, bounded reads and atomic writes. The state file, the feed cache and
 * the store object all call down to this file, which calls none of them. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LWN_STORE_ERROR (lwn_store_error_quark ())

typedef enum
{
  LWN_STORE_ERROR_CORRUPT, /* state or cache unreadable as ours; the state file was moved aside */
  LWN_STORE_ERROR_IO,      /* a read or write failed; the message names the path and the reason */
} LwnStoreError;

/* URLs, validators and content types; anything longer on disk is not ours. */
#define LWN_STORE_MAX_VALUE_BYTES 8192

typedef enum
{
  LWN_STORE_READ_OK,
  LWN_STORE_READ_MISSING,
  LWN_STORE_READ_TOO_LARGE,
  LWN_STORE_READ_FAILED,
} LwnStoreReadResult;

/* clang-format off */
GQuark             lwn_store_error_quark            (void);
gboolean           lwn_store_file_value_is_storable (const char  *value);
LwnStoreReadResult lwn_store_file_read_bounded      (const char  *path,
                                                     gsize        max_bytes,
                                                     char       **out_contents,
                                                     gsize       *out_length,
                                                     GError     **error);
gboolean           lwn_store_file_write_atomically  (const char  *path,
                                                     const char  *data,
                                                     gsize        length,
                                                     GError     **error);
/* clang-format on */

G_END_DECLS
