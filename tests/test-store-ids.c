/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnStore's id sets: round trips of any id, what cannot be stored, and what is kept when they are full. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lwn-store.h"

/* A new store in the same (XDG) folders as @store, loaded from its saved state. */
static LwnStore *
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

static void
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

static void
test_ids_round_trip (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;

  g_test_summary ("Read and announced ids survive a save and a load, and marking twice changes nothing.");

  g_assert_true (lwn_store_mark_read (store, "https://lwn.net/Articles/1/"));
  g_assert_true (!lwn_store_mark_read (store, "https://lwn.net/Articles/1/"));
  g_assert_true (lwn_store_mark_read (store, "https://lwn.net/Articles/2/"));
  g_assert_true (!lwn_store_has_history (store));
  g_assert_true (lwn_store_mark_announced (store, "https://lwn.net/Articles/3/"));
  g_assert_true (!lwn_store_mark_announced (store, "https://lwn.net/Articles/3/"));
  g_assert_true (lwn_store_has_history (store));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, "https://lwn.net/Articles/1/"));
  g_assert_true (lwn_store_is_read (loaded, "https://lwn.net/Articles/2/"));
  g_assert_true (!lwn_store_is_read (loaded, "https://lwn.net/Articles/3/"));
  g_assert_true (!lwn_store_is_read (loaded, NULL));
  g_assert_true (lwn_store_is_announced (loaded, "https://lwn.net/Articles/3/"));
  g_assert_true (!lwn_store_is_announced (loaded, "https://lwn.net/Articles/1/"));
  g_assert_true (lwn_store_has_history (loaded));
  g_assert_true (!lwn_store_mark_read (loaded, "https://lwn.net/Articles/2/"));
}

static const char *const special_ids[] = {
  "a;b,c\\d=e\nf",
  "https://lwn.net/Articles/1/?a=1;b=2&c=3,4",
  " leading and trailing spaces ",
  " ",
  "\\",
  "ends with a backslash\\",
  "\\;",
  ";",
  "\\n is not a newline",
  "#not a comment",
  "[not a group]",
  "key=value",
  "tab\there",
  "carriage\r\nreturn",
  "UTF-8: é ü ñ 中文 🐧",
};

static void
test_ids_special_characters (gconstpointer data)
{
  const char *id = data;
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;

  g_test_summary ("Ids with key-file separators, escapes, control and non-ASCII characters round-trip exactly.");

  g_assert_true (lwn_store_mark_read (store, "before"));
  g_assert_true (lwn_store_mark_read (store, id));
  g_assert_true (lwn_store_mark_read (store, "after"));
  g_assert_true (lwn_store_mark_announced (store, id));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, "before"));
  g_assert_true (lwn_store_is_read (loaded, id));
  g_assert_true (lwn_store_is_read (loaded, "after"));
  g_assert_true (lwn_store_is_announced (loaded, id));
  /* Nothing was split into extra ids or merged into a neighbour. */
  g_assert_true (!lwn_store_is_read (loaded, ""));
  g_assert_true (!lwn_store_mark_read (loaded, id));
}

static void
test_ids_rejected (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autofree char *longest = g_strnfill (4096, 'x');
  g_autofree char *too_long = g_strnfill (4097, 'x');

  g_test_summary ("Ids that cannot be stored faithfully (empty, over 4 KiB, invalid UTF-8) are ignored.");

  g_assert_true (!lwn_store_mark_read (store, NULL));
  g_assert_true (!lwn_store_mark_read (store, ""));
  g_assert_true (!lwn_store_mark_read (store, too_long));
  g_assert_true (!lwn_store_mark_read (store, "bad \xff\xfe UTF-8"));
  g_assert_true (!lwn_store_mark_announced (store, "bad \xc3"));
  g_assert_true (!lwn_store_has_history (store));
  g_assert_true (lwn_store_mark_read (store, longest));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, longest));
  g_assert_true (!lwn_store_is_read (loaded, too_long));
}

static void
test_ids_bounded (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;

  g_test_summary ("Each id set keeps the newest 1,000 ids, dropping the oldest first, in memory and on disk.");

  for (guint i = 0; i < 1100; i++)
    {
      g_autofree char *id = g_strdup_printf ("id-%u", i);

      g_assert_true (lwn_store_mark_read (store, id));
      g_assert_true (lwn_store_mark_announced (store, id));
    }

  g_assert_true (!lwn_store_is_read (store, "id-0"));
  g_assert_true (!lwn_store_is_read (store, "id-99"));
  g_assert_true (lwn_store_is_read (store, "id-100"));
  g_assert_true (lwn_store_is_read (store, "id-1099"));

  loaded = reload (store);
  for (guint i = 0; i < 1100; i++)
    {
      g_autofree char *id = g_strdup_printf ("id-%u", i);

      g_assert_cmpint (lwn_store_is_read (loaded, id), ==, i >= 100);
      g_assert_cmpint (lwn_store_is_announced (loaded, id), ==, i >= 100);
    }

  /* One more drops exactly the oldest remaining id. */
  g_assert_true (lwn_store_mark_read (loaded, "id-1100"));
  g_assert_true (!lwn_store_is_read (loaded, "id-100"));
  g_assert_true (lwn_store_is_read (loaded, "id-101"));
}

static void
test_ids_capped_on_load (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) contents = g_string_new ("[state]\nversion=1\n[read]\nids=");
  g_autofree char *too_long = g_strnfill (5000, 'y');

  g_test_summary ("A hand-made file with 1,500 ids and an overlong one loads with the newest 1,000 valid ids.");

  for (guint i = 0; i < 1500; i++)
    g_string_append_printf (contents, "id-%u;", i);
  g_string_append_printf (contents, "%s;last;\n", too_long);
  write_file (lwn_store_get_state_path (store), contents->str, contents->len);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_is_read (store, "last"));
  g_assert_true (!lwn_store_is_read (store, too_long));
  g_assert_true (!lwn_store_is_read (store, "id-500"));
  g_assert_true (lwn_store_is_read (store, "id-501"));
  g_assert_true (lwn_store_is_read (store, "id-1499"));
  g_assert_true (!lwn_store_has_history (store));
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/ids/round-trip", test_ids_round_trip);
  for (gsize i = 0; i < G_N_ELEMENTS (special_ids); i++)
    {
      g_autofree char *path = g_strdup_printf ("/store/ids/special/%" G_GSIZE_FORMAT, i);

      g_test_add_data_func (path, special_ids[i], test_ids_special_characters);
    }
  g_test_add_func ("/store/ids/rejected", test_ids_rejected);
  g_test_add_func ("/store/ids/bounded", test_ids_bounded);
  g_test_add_func ("/store/ids/capped-on-load", test_ids_capped_on_load);

  return g_test_run ();
}
