/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the store's tests share: reloading a store from what it saved, and writing a state file by hand. */

#include "config.h"

#include <glib/gstdio.h>

#include "store-fixture.h"

/* A new store in the same (XDG) folders as @store, loaded from its saved state. */
LwnStore *
reload (LwnStore *store)
{
  g_autoptr (GError) error = NULL;
  LwnStore *fresh;

  g_assert_true (lwn_store_save (store, &error));
  g_assert_no_error (error);

  fresh = lwn_store_new (NULL, NULL);
  g_assert_cmpstr (lwn_store_get_state_path (fresh), ==, lwn_store_get_state_path (store));
  g_assert_true (lwn_store_load (fresh, &error));
  g_assert_no_error (error);

  return fresh;
}

/* Writes @contents to @path, creating its folder. */
void
write_file (const char *path,
            const char *contents,
            gssize length)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}
