/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnStore's id sets: round trips of any id, what cannot be stored, and what is kept when they are full,
 * pending announcements included. */

#include "config.h"

#include <string.h>

#include "store-fixture.h"

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
  /* First in the announced list, where a key file drops a leading form feed. */
  "\fform feed first",
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

/* The contents of the state file of @store, which must exist. */
static char *
dup_state (LwnStore *store,
           gsize *length)
{
  char *contents = NULL;

  g_assert_true (g_file_get_contents (lwn_store_get_state_path (store), &contents, length, NULL));
  return contents;
}

static void
test_ids_rejected (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autofree char *longest = g_strnfill (4096, 'x');
  g_autofree char *verbatim = g_strnfill (LWN_STORE_MAX_ID_BYTES, 'v');
  g_autofree char *digested = g_strnfill (LWN_STORE_MAX_ID_BYTES + 1, 'd');
  g_autofree char *contents = NULL;

  g_test_summary ("No id and the empty id are never kept; ids up to 256 bytes are kept as they are, "
                  "longer ones (4 KiB here) as their digest.");

  g_assert_true (!lwn_store_mark_read (store, NULL));
  g_assert_true (!lwn_store_mark_read (store, ""));
  g_assert_true (!lwn_store_mark_announced (store, ""));
  g_assert_true (!lwn_store_is_read (store, ""));
  g_assert_true (!lwn_store_has_history (store));
  g_assert_true (lwn_store_mark_read (store, longest));
  g_assert_true (lwn_store_mark_read (store, verbatim));
  g_assert_true (lwn_store_mark_read (store, digested));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, longest));
  g_assert_true (lwn_store_is_read (loaded, verbatim));
  g_assert_true (lwn_store_is_read (loaded, digested));
  g_assert_true (!lwn_store_is_read (loaded, ""));
  contents = dup_state (loaded, NULL);
  g_assert_nonnull (strstr (contents, verbatim));
  g_assert_null (strstr (contents, digested));
  g_assert_null (strstr (contents, longest));
}

static void
test_ids_old_long (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GKeyFile) old = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *data = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_test_summary ("A state file of an older version, which kept ids of up to 4 KiB as they are, loads with "
                  "its marks, and is saved again without those ids.");

  /* As versions up to 0.1.0 wrote it: 1,000 ids of 1 KiB with separators in them, the first marked first. */
  for (guint n = 0; n < 1000; n++)
    {
      g_autofree char *prefix = g_strdup_printf ("https://lwn.net/Articles/%u/?", n);
      g_autofree char *padding = g_strnfill (1024 - strlen (prefix), ';');

      g_ptr_array_add (ids, g_strconcat (prefix, padding, NULL));
    }
  g_ptr_array_add (ids, g_strdup ("short"));
  g_key_file_set_integer (old, "state", "version", 1);
  g_key_file_set_string_list (old, "read", "ids", (const char *const *) ids->pdata, ids->len);
  g_key_file_set_string_list (old, "announced", "ids", (const char *const *) ids->pdata + 1, 2);
  data = g_key_file_to_data (old, &length, NULL);
  write_file (lwn_store_get_state_path (store), data, (gssize) length);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  /* Still the newest 1,000: the oldest went. */
  g_assert_true (!lwn_store_is_read (store, ids->pdata[0]));
  for (guint i = 1; i < ids->len; i++)
    g_assert_true (lwn_store_is_read (store, ids->pdata[i]));
  g_assert_true (!lwn_store_is_announced (store, ids->pdata[0]));
  g_assert_true (lwn_store_is_announced (store, ids->pdata[1]));
  g_assert_true (lwn_store_is_announced (store, ids->pdata[2]));
  g_assert_true (!lwn_store_is_announced (store, ids->pdata[3]));
  g_assert_true (!lwn_store_mark_read (store, ids->pdata[500]));

  loaded = reload (store);
  for (guint i = 1; i < ids->len; i++)
    g_assert_true (lwn_store_is_read (loaded, ids->pdata[i]));
  g_assert_true (lwn_store_is_announced (loaded, ids->pdata[2]));
  contents = dup_state (loaded, &length);
  g_assert_null (strstr (contents, "https://lwn.net/Articles/999/"));
  g_assert_nonnull (strstr (contents, "short"));
  g_assert_cmpuint (length, <, 2 * 1000 * (LWN_STORE_DIGEST_HEX_BYTES + 1) + 1024);
}

static void
test_ids_unstorable (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autofree char *too_long = g_strnfill (4097, 'x');
  g_autofree char *other_too_long = g_strnfill (4098, 'x');
  g_autofree char *huge = g_strnfill (1024 * 1024, 'y');
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, too_long, -1);
  g_autofree char *contents = NULL;

  g_test_summary ("Ids too long or not UTF-8 are remembered as read and announced too, across a restart, "
                  "without being confused with each other or with any id kept as it is.");

  g_assert_true (lwn_store_mark_read (store, too_long));
  g_assert_true (!lwn_store_mark_read (store, too_long));
  g_assert_true (lwn_store_is_read (store, too_long));
  g_assert_true (!lwn_store_is_read (store, other_too_long));
  g_assert_true (lwn_store_mark_read (store, huge));
  g_assert_true (lwn_store_mark_read (store, "bad \xff\xfe UTF-8"));
  g_assert_true (!lwn_store_is_read (store, "bad \xff\xfd UTF-8"));
  g_assert_true (!lwn_store_has_history (store));
  g_assert_true (lwn_store_mark_announced (store, "bad \xc3"));
  g_assert_true (!lwn_store_mark_announced (store, "bad \xc3"));
  g_assert_true (lwn_store_has_history (store));
  g_assert_true (!lwn_store_is_announced (store, too_long));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, too_long));
  g_assert_true (lwn_store_is_read (loaded, huge));
  g_assert_true (lwn_store_is_read (loaded, "bad \xff\xfe UTF-8"));
  g_assert_true (!lwn_store_is_read (loaded, other_too_long));
  g_assert_true (lwn_store_is_announced (loaded, "bad \xc3"));
  g_assert_true (!lwn_store_mark_read (loaded, too_long));
  /* What is written for an id is never taken for the id itself. */
  g_assert_true (!lwn_store_is_read (loaded, digest));
  g_assert_true (g_file_get_contents (lwn_store_get_state_path (loaded), &contents, NULL, NULL));
  g_assert_null (strstr (contents, too_long));
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

/* "prefix-N" for N from @first down to @last, as a feed lists its items: newest first. */
static GPtrArray *
make_ids (const char *prefix,
          guint first,
          guint last)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  for (guint n = first + 1; n-- > last;)
    g_ptr_array_add (ids, g_strdup_printf ("%s-%u", prefix, n));
  return ids;
}

static void
note_shown (LwnStore *store,
            GPtrArray *ids)
{
  lwn_store_note_shown_ids (store, (const char *const *) ids->pdata, ids->len);
}

static void
test_ids_large_feed (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) feed = make_ids ("id", 1199, 0);
  g_autoptr (GPtrArray) next = make_ids ("id", 1200, 1);

  g_test_summary ("A feed of 1,200 items marked newest first, as the reader marks them, keeps every mark while "
                  "it is shown, also after a new item and a restart.");

  note_shown (store, feed);
  for (guint i = 0; i < feed->len; i++)
    {
      g_assert_true (lwn_store_mark_announced (store, feed->pdata[i]));
      g_assert_true (lwn_store_mark_read (store, feed->pdata[i]));
    }

  note_shown (store, next);
  for (guint i = 1; i < next->len; i++)
    {
      g_assert_true (lwn_store_is_read (store, next->pdata[i]));
      g_assert_true (lwn_store_is_announced (store, next->pdata[i]));
    }
  g_assert_true (lwn_store_mark_announced (store, "id-1200"));

  loaded = reload (store);
  note_shown (loaded, next);
  g_assert_true (!lwn_store_is_read (loaded, "id-1200"));
  g_assert_true (lwn_store_is_announced (loaded, "id-1200"));
  for (guint i = 1; i < next->len; i++)
    {
      g_assert_true (lwn_store_is_read (loaded, next->pdata[i]));
      g_assert_true (lwn_store_is_announced (loaded, next->pdata[i]));
    }
}

static void
test_ids_evict_last_seen (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) old = make_ids ("a", 999, 0);
  g_autoptr (GPtrArray) shown = make_ids ("a", 9, 0);

  g_test_summary ("When a set is full, the ids seen in a shown feed longest ago go first, whatever order "
                  "they were marked in, and that order survives a restart.");

  for (guint i = old->len; i-- > 0;)
    g_assert_true (lwn_store_mark_read (store, old->pdata[i]));
  g_assert_true (lwn_store_is_read (store, "a-0"));

  /* a-0 … a-9, marked first, are in the feed shown now: a-10 … a-19 go. */
  note_shown (store, shown);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *id = g_strdup_printf ("b-%u", i);

      g_assert_true (lwn_store_mark_read (store, id));
    }
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *id = g_strdup_printf ("a-%u", i);

      g_assert_cmpint (lwn_store_is_read (store, id), ==, i < 10);
    }
  g_assert_true (lwn_store_is_read (store, "a-20"));
  g_assert_true (lwn_store_is_read (store, "b-9"));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, "a-20"));
  g_assert_true (lwn_store_mark_read (loaded, "c-0"));
  g_assert_true (!lwn_store_is_read (loaded, "a-20"));
  g_assert_true (lwn_store_is_read (loaded, "a-21"));
  g_assert_true (lwn_store_is_read (loaded, "a-0"));
  g_assert_true (lwn_store_is_read (loaded, "b-0"));
}

static void
test_ids_cap_grows (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) large = make_ids ("x", 1499, 0);
  g_autoptr (GPtrArray) small = make_ids ("x", 9, 0);
  g_autoptr (GPtrArray) huge = make_ids ("z", 5999, 0);

  g_test_summary ("Each set keeps at least twice as many ids as the largest feed shown, also after a smaller "
                  "one and across a restart, up to 10,000.");

  note_shown (store, large);
  note_shown (store, small);
  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *id = g_strdup_printf ("y-%u", i);

      g_assert_true (lwn_store_mark_read (store, id));
    }
  g_assert_true (lwn_store_is_read (store, "y-0"));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, "y-0"));
  g_assert_true (lwn_store_is_read (loaded, "y-2999"));
  g_assert_true (lwn_store_mark_read (loaded, "y-3000"));
  g_assert_true (!lwn_store_is_read (loaded, "y-0"));
  g_assert_true (lwn_store_is_read (loaded, "y-1"));

  note_shown (loaded, huge);
  for (guint i = 3001; i < 13001; i++)
    {
      g_autofree char *id = g_strdup_printf ("y-%u", i);

      g_assert_true (lwn_store_mark_read (loaded, id));
    }
  g_assert_true (!lwn_store_is_read (loaded, "y-3000"));
  g_assert_true (lwn_store_is_read (loaded, "y-3001"));
  g_assert_true (lwn_store_mark_read (loaded, "y-13001"));
  g_assert_true (!lwn_store_is_read (loaded, "y-3001"));
  g_assert_true (lwn_store_is_read (loaded, "y-3002"));
}

static void
test_ids_large_4k (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) feed = g_ptr_array_new_with_free_func (g_free);

  g_autofree char *contents = NULL;
  gsize length;

  g_test_summary ("A feed of 1,200 items with ids of 4 KiB keeps every mark across a restart, in a state "
                  "file that holds their digests, not the ids.");

  for (guint n = 1200; n-- > 0;)
    {
      g_autofree char *prefix = g_strdup_printf ("https://lwn.net/Articles/%u/?", n);
      g_autofree char *padding = g_strnfill (4096 - strlen (prefix), ';');

      g_ptr_array_add (feed, g_strconcat (prefix, padding, NULL));
    }

  note_shown (store, feed);
  for (guint i = 0; i < feed->len; i++)
    {
      g_assert_true (lwn_store_mark_announced (store, feed->pdata[i]));
      g_assert_true (lwn_store_mark_read (store, feed->pdata[i]));
    }

  loaded = reload (store);
  for (guint i = 0; i < feed->len; i++)
    {
      g_assert_true (lwn_store_is_read (loaded, feed->pdata[i]));
      g_assert_true (lwn_store_is_announced (loaded, feed->pdata[i]));
    }

  /* Each set a list of 1,200 digests, each with its separator; 1 KiB for the rest. */
  contents = dup_state (loaded, &length);
  g_test_message ("state.ini: %" G_GSIZE_FORMAT " bytes", length);
  g_assert_cmpuint (length, <=, 2 * feed->len * (LWN_STORE_DIGEST_HEX_BYTES + 1) + 1024);
}

/* An id of 4 KiB, @n then padding: kept as its digest. */
static char *
long_id (guint n)
{
  g_autofree char *prefix = g_strdup_printf ("https://lwn.net/Articles/%u/?", n);
  g_autofree char *padding = g_strnfill (4096 - strlen (prefix), 'p');

  return g_strconcat (prefix, padding, NULL);
}

static void
test_ids_shown_keys (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autofree char *one = long_id (1);
  g_autofree char *one_again = long_id (1);
  g_autofree char *one_later = long_id (1);
  g_autofree char *two = long_id (2);
  g_autofree char *three = long_id (3);
  const char *first[] = { two, one, one_again };
  const char *second[] = { three, two };

  g_test_summary ("Long ids of the feed shown, their digests worked out once, are found by content, "
                  "as after that feed is gone and after a restart.");

  lwn_store_note_shown_ids (store, first, G_N_ELEMENTS (first));
  g_assert_true (lwn_store_mark_read (store, one_later));
  g_assert_true (!lwn_store_mark_read (store, one));
  g_assert_true (lwn_store_is_read (store, one_again));
  g_assert_true (!lwn_store_is_read (store, two));
  g_assert_true (lwn_store_mark_announced (store, two));

  /* one is no longer shown: its digest is worked out again, the same. */
  lwn_store_note_shown_ids (store, second, G_N_ELEMENTS (second));
  g_assert_true (lwn_store_is_read (store, one_later));
  g_assert_true (!lwn_store_mark_read (store, one));
  g_assert_true (lwn_store_is_announced (store, two));
  g_assert_true (!lwn_store_is_read (store, three));
  g_clear_pointer (&one_again, g_free);
  lwn_store_note_shown_ids (store, NULL, 0);
  g_assert_true (lwn_store_is_announced (store, two));

  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, one));
  g_assert_true (lwn_store_is_announced (loaded, two));
  lwn_store_note_shown_ids (loaded, second, G_N_ELEMENTS (second));
  g_assert_true (lwn_store_is_announced (loaded, two));
  g_assert_true (!lwn_store_is_announced (loaded, three));
}

static void
test_ids_pending_large_feed (gconstpointer data)
{
  gsize id_length = GPOINTER_TO_SIZE (data);
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (LwnStore) pruned = NULL;
  g_autoptr (GPtrArray) feed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) next = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *contents = NULL;
  gsize length;

  g_test_summary ("The announcements of a first run of 1,200 items that no server showed all stay pending "
                  "across a restart, in a state file that holds the digests of long ids; those that leave "
                  "the feed shown are dropped.");

  for (guint n = 1200; n-- > 0;)
    {
      g_autofree char *prefix = g_strdup_printf ("https://lwn.net/Articles/%u/?", n);
      g_autofree char *padding = g_strnfill (MAX (id_length, strlen (prefix)) - strlen (prefix), 'q');

      g_ptr_array_add (feed, g_strconcat (prefix, padding, NULL));
    }
  note_shown (store, feed);
  for (guint i = 0; i < feed->len; i++)
    g_assert_true (lwn_store_mark_announced (store, feed->pdata[i]));
  /* As the reader records them: the oldest first. */
  for (guint i = feed->len; i-- > 0;)
    g_assert_true (lwn_store_mark_pending (store, feed->pdata[i]));
  lwn_store_set_pending_first_run (store, TRUE);

  loaded = reload (store);
  note_shown (loaded, feed);
  g_assert_true (lwn_store_get_pending_first_run (loaded));
  for (guint i = 0; i < feed->len; i++)
    g_assert_true (lwn_store_is_pending (loaded, feed->pdata[i]));
  contents = dup_state (loaded, &length);
  g_test_message ("state.ini: %" G_GSIZE_FORMAT " bytes", length);
  if (id_length > LWN_STORE_MAX_ID_BYTES)
    g_assert_cmpuint (length, <=, 3 * feed->len * (LWN_STORE_DIGEST_HEX_BYTES + 1) + 1024);

  /* A new item on top, the oldest gone: it is no longer pending. */
  g_ptr_array_add (next, g_strdup ("https://lwn.net/Articles/1200/"));
  for (guint i = 0; i + 1 < feed->len; i++)
    g_ptr_array_add (next, g_strdup (feed->pdata[i]));
  note_shown (loaded, next);
  g_assert_false (lwn_store_is_pending (loaded, feed->pdata[feed->len - 1]));
  g_assert_true (lwn_store_is_announced (loaded, feed->pdata[feed->len - 1]));
  pruned = reload (loaded);
  note_shown (pruned, next);
  g_assert_false (lwn_store_is_pending (pruned, feed->pdata[feed->len - 1]));
  for (guint i = 1; i < next->len; i++)
    g_assert_true (lwn_store_is_pending (pruned, next->pdata[i]));
  g_assert_true (lwn_store_get_pending_first_run (pruned));

  /* A feed with none of them leaves none pending, nor the flag. */
  lwn_store_note_shown_ids (pruned, NULL, 0);
  g_assert_false (lwn_store_has_pending (pruned));
  g_assert_false (lwn_store_get_pending_first_run (pruned));
}

static void
test_ids_pending_bounded (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) huge = make_ids ("p", 5999, 0);

  g_test_summary ("Pending announcements keep as many ids as the largest feed shown, at least 500 and at "
                  "most 5,000, the newest of them, in memory and on disk.");

  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *id = g_strdup_printf ("s-%u", i);

      g_assert_true (lwn_store_mark_pending (store, id));
    }
  g_assert_false (lwn_store_is_pending (store, "s-99"));
  g_assert_true (lwn_store_is_pending (store, "s-100"));
  g_assert_true (lwn_store_is_pending (store, "s-599"));

  /* A feed of 6,000 items, recorded the oldest first: the newest 5,000 stay. */
  note_shown (store, huge);
  for (guint i = huge->len; i-- > 0;)
    lwn_store_mark_pending (store, huge->pdata[i]);
  g_assert_false (lwn_store_is_pending (store, "s-599"));
  g_assert_false (lwn_store_is_pending (store, "p-999"));
  g_assert_true (lwn_store_is_pending (store, "p-1000"));
  g_assert_true (lwn_store_is_pending (store, "p-5999"));

  loaded = reload (store);
  g_assert_false (lwn_store_is_pending (loaded, "p-999"));
  for (guint n = 1000; n < 6000; n++)
    {
      g_autofree char *id = g_strdup_printf ("p-%u", n);

      g_assert_true (lwn_store_is_pending (loaded, id));
    }
}

/* The longest id kept as it is, which a state file holds at twice its length:
 * @n, then ';' (written as "\\;"). */
static char *
escaped_id (guint n)
{
  g_autofree char *number = g_strdup_printf ("%u", n);
  g_autofree char *padding = g_strnfill (LWN_STORE_MAX_ID_BYTES - strlen (number), ';');

  return g_strconcat (number, padding, NULL);
}

static void
test_ids_largest_state (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GPtrArray) huge = make_ids ("h", LWN_STORE_MAX_IDS_LIMIT / 2 - 1, 0);
  g_autofree char *contents = NULL;
  gsize length;

  g_test_summary ("The largest state the store writes, both sets and the pending announcements full of the "
                  "longest ids kept as they are, each byte escaped, and a full set of reminders of the longest ids, "
                  "links and titles, loads again.");

  note_shown (store, huge);
  for (guint n = 0; n < LWN_REMINDERS_MAX; n++)
    {
      g_autoptr (GString) title = g_string_new (NULL);
      g_autofree char *prefix = g_strdup_printf ("r%u", n);
      g_autofree char *id_padding = g_strnfill (LWN_REMINDER_MAX_ID_BYTES - strlen (prefix), ';');
      g_autofree char *id = g_strconcat (prefix, id_padding, NULL);
      g_autofree char *site = g_strdup_printf ("https://lwn.net/%u?", n);
      g_autofree char *url_padding = g_strnfill (LWN_REMINDER_MAX_URL_BYTES - strlen (site), ';');
      g_autofree char *url = g_strconcat (site, url_padding, NULL);
      g_autoptr (GDateTime) free_on = g_date_time_new_utc (2023, 7, 14, 0, 0, 0.5 + n % 50);
      g_autoptr (LwnReminder) reminder = NULL;

      /* Four bytes a character, one more than is kept. */
      for (guint i = 0; i <= LWN_REMINDER_MAX_TITLE_CHARS; i++)
        g_string_append (title, "\U0001D11E");
      reminder = lwn_reminder_new (id, title->str, url, free_on);
      g_assert_nonnull (reminder);
      lwn_reminders_add (lwn_store_get_reminders (store), reminder, NULL);
    }
  for (guint n = 0; n < LWN_STORE_MAX_IDS_LIMIT; n++)
    {
      g_autofree char *id = escaped_id (n);

      g_assert_true (lwn_store_mark_read (store, id));
      g_assert_true (lwn_store_mark_announced (store, id));
      if (n < LWN_STORE_PENDING_KEEP (LWN_STORE_MAX_IDS_LIMIT))
        g_assert_true (lwn_store_mark_pending (store, id));
    }
  lwn_store_set_pending_first_run (store, TRUE);

  loaded = reload (store);
  contents = dup_state (loaded, &length);
  g_test_message ("state.ini: %" G_GSIZE_FORMAT " bytes", length);
  g_assert_cmpuint (length, <=, LWN_STORE_MAX_STATE_BYTES);
  g_assert_cmpuint (LWN_STORE_MAX_STATE_BYTES, <=, LWN_STORE_MAX_OLD_STATE_BYTES);
  g_assert_null (strstr (contents, "digests"));
  for (guint n = 0; n < LWN_STORE_MAX_IDS_LIMIT; n++)
    {
      g_autofree char *id = escaped_id (n);

      g_assert_true (lwn_store_is_read (loaded, id));
      g_assert_true (lwn_store_is_announced (loaded, id));
      g_assert_cmpint (lwn_store_is_pending (loaded, id), ==, n < LWN_STORE_PENDING_KEEP (LWN_STORE_MAX_IDS_LIMIT));
    }
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (loaded)), ==, LWN_REMINDERS_MAX);
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
  g_test_add_func ("/store/ids/old-long", test_ids_old_long);
  g_test_add_func ("/store/ids/bounded", test_ids_bounded);
  g_test_add_func ("/store/ids/capped-on-load", test_ids_capped_on_load);
  g_test_add_func ("/store/ids/unstorable", test_ids_unstorable);
  g_test_add_func ("/store/ids/large-feed", test_ids_large_feed);
  g_test_add_func ("/store/ids/large-feed-4k", test_ids_large_4k);
  g_test_add_func ("/store/ids/largest-state", test_ids_largest_state);
  g_test_add_func ("/store/ids/shown-keys", test_ids_shown_keys);
  g_test_add_func ("/store/ids/evict-last-seen", test_ids_evict_last_seen);
  g_test_add_func ("/store/ids/cap-grows", test_ids_cap_grows);
  g_test_add_data_func ("/store/ids/pending-large-feed", GSIZE_TO_POINTER (0), test_ids_pending_large_feed);
  g_test_add_data_func ("/store/ids/pending-large-feed-4k", GSIZE_TO_POINTER (4096), test_ids_pending_large_feed);
  g_test_add_func ("/store/ids/pending-bounded", test_ids_pending_bounded);

  return g_test_run ();
}
