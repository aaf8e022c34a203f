/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The keyed hash of the tables whose keys feeds choose. */

#include "config.h"

#include <string.h>

#include "lwn-str-hash.h"

/* 2^bits strings of @bits two-byte blocks, each "Aa" or "B@": djb2 (g_str_hash) gives them all one
 * value, since 33 * 'A' + 'a' == 33 * 'B' + '@'. */
static GPtrArray *
make_djb2_collisions (guint bits)
{
  GPtrArray *strings = g_ptr_array_new_with_free_func (g_free);

  for (guint n = 0; n < (1u << bits); n++)
    {
      GString *string = g_string_sized_new (2 * bits);

      for (guint bit = 0; bit < bits; bit++)
        g_string_append (string, (n >> bit) & 1 ? "B@" : "Aa");
      g_ptr_array_add (strings, g_string_free (string, FALSE));
    }
  return strings;
}

static guint
count_distinct (GPtrArray *strings,
                GHashFunc hash)
{
  g_autoptr (GHashTable) values = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < strings->len; i++)
    g_hash_table_add (values, GUINT_TO_POINTER (hash (g_ptr_array_index (strings, i))));
  return g_hash_table_size (values);
}

static void
test_colliding_blocks (void)
{
  g_autoptr (GPtrArray) strings = make_djb2_collisions (12);

  g_test_summary ("Ids made to collide under g_str_hash (4,096 of them, one value) hash apart under "
                  "lwn_str_hash");

  g_assert_cmpuint (count_distinct (strings, g_str_hash), ==, 1);
  /* 4,096 values drawn from 2^32: a chance of about 1 in 500 of any one pair alike. */
  g_assert_cmpuint (count_distinct (strings, lwn_str_hash), >=, strings->len - 2);
}

static void
test_equal_strings (void)
{
  g_autofree char *long_id = g_strnfill (4096, 'x');
  g_autofree char *long_copy = g_strdup (long_id);
  g_autoptr (GHashTable) table = lwn_str_hash_table_new (g_free, NULL);

  g_test_summary ("Equal strings hash alike, whatever their length, and a table of them finds each");

  g_assert_cmpuint (lwn_str_hash ("https://lwn.net/Articles/826124/"), ==,
                    lwn_str_hash ((char[]){ "https://lwn.net/Articles/826124/" }));
  g_assert_cmpuint (lwn_str_hash (long_id), ==, lwn_str_hash (long_copy));
  for (guint length = 0; length < 40; length++)
    g_hash_table_add (table, g_strnfill (length, 'a'));
  for (guint length = 0; length < 40; length++)
    {
      g_autofree char *key = g_strnfill (length, 'a');

      g_assert_true (g_hash_table_contains (table, key));
    }
  g_assert_cmpuint (g_hash_table_size (table), ==, 40);
}

static void
test_key_matters (void)
{
  const guint8 key_a[16] = { 0 };
  guint8 key_b[16] = { 0 };
  const char *text = "rdf:about";

  g_test_summary ("Another key gives other values: which strings collide differs from one process to the next");

  key_b[15] = 1;
  g_assert_cmpuint (lwn_str_hash_for_key (key_a, text, strlen (text)), ==,
                    lwn_str_hash_for_key (key_a, text, strlen (text)));
  g_assert_cmpuint (lwn_str_hash_for_key (key_a, text, strlen (text)), !=,
                    lwn_str_hash_for_key (key_b, text, strlen (text)));
  /* Every byte counts, the last of a partial word too, and the length. */
  g_assert_cmpuint (lwn_str_hash_for_key (key_a, "abcdefghi", 9), !=, lwn_str_hash_for_key (key_a, "abcdefghj", 9));
  g_assert_cmpuint (lwn_str_hash_for_key (key_a, "abcdefgh\0", 9), !=, lwn_str_hash_for_key (key_a, "abcdefgh", 8));
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/str-hash/colliding-blocks", test_colliding_blocks);
  g_test_add_func ("/str-hash/equal-strings", test_equal_strings);
  g_test_add_func ("/str-hash/key-matters", test_key_matters);

  return g_test_run ();
}
