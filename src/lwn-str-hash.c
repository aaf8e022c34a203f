/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A keyed string hash (SipHash-1-3) for the tables of ids, addresses and names that feeds choose.
 *
 * g_str_hash() is djb2: anyone can make thousands of strings that hash alike (blocks such as "Aa" and
 * "BB" are interchangeable), and a feed of them turns every lookup in a GHashTable into a walk through
 * all the others, on the main thread. SipHash with a key drawn at random when the process starts gives
 * a feed nothing to aim at: it would have to learn the key from timings it cannot see. */

#include "config.h"

#include <string.h>
#include <sys/random.h>

#include "lwn-str-hash.h"

static inline guint64
rotl (guint64 x,
      int bits)
{
  return (x << bits) | (x >> (64 - bits));
}

#define SIP_ROUND(v0, v1, v2, v3) \
  G_STMT_START                    \
  {                               \
    v0 += v1;                     \
    v1 = rotl (v1, 13);           \
    v1 ^= v0;                     \
    v0 = rotl (v0, 32);           \
    v2 += v3;                     \
    v3 = rotl (v3, 16);           \
    v3 ^= v2;                     \
    v0 += v3;                     \
    v3 = rotl (v3, 21);           \
    v3 ^= v0;                     \
    v2 += v1;                     \
    v1 = rotl (v1, 17);           \
    v1 ^= v2;                     \
    v2 = rotl (v2, 32);           \
  }                               \
  G_STMT_END

static inline guint64
read_le64 (const char *p)
{
  guint64 word;

  memcpy (&word, p, sizeof word);
  return GUINT64_FROM_LE (word);
}

/**
 * lwn_str_hash_for_key:
 * @key: the 128-bit key
 * @data: the bytes to hash
 * @length: how many
 *
 * SipHash-1-3 of @data under @key: one compression round a word and three
 * at the end, as Rust's and Python's hash tables use it.
 *
 * Returns: the 64-bit hash
 */
guint64
lwn_str_hash_for_key (const guint8 key[16],
                      const char *data,
                      gsize length)
{
  guint64 k0 = read_le64 ((const char *) key);
  guint64 k1 = read_le64 ((const char *) key + 8);
  guint64 v0 = k0 ^ 0x736f6d6570736575ULL;
  guint64 v1 = k1 ^ 0x646f72616e646f6dULL;
  guint64 v2 = k0 ^ 0x6c7967656e657261ULL;
  guint64 v3 = k1 ^ 0x7465646279746573ULL;
  guint64 last = (guint64) length << 56;
  gsize whole = length - length % 8;

  for (gsize i = 0; i < whole; i += 8)
    {
      guint64 word = read_le64 (data + i);

      v3 ^= word;
      SIP_ROUND (v0, v1, v2, v3);
      v0 ^= word;
    }
  for (gsize i = whole; i < length; i++)
    last |= (guint64) (guchar) data[i] << (8 * (i - whole));

  v3 ^= last;
  SIP_ROUND (v0, v1, v2, v3);
  v0 ^= last;
  v2 ^= 0xff;
  SIP_ROUND (v0, v1, v2, v3);
  SIP_ROUND (v0, v1, v2, v3);
  SIP_ROUND (v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

/* The process's key: from the kernel's random source, else GLib's generator (itself seeded from
 * /dev/urandom where there is one). */
static const guint8 *
process_key (void)
{
  static guint8 key[16];
  static gsize made = 0;

  if (g_once_init_enter (&made))
    {
      if (getrandom (key, sizeof key, 0) != (ssize_t) sizeof key)
        for (gsize i = 0; i < sizeof key; i += sizeof (guint32))
          {
            guint32 word = g_random_int ();

            memcpy (key + i, &word, sizeof word);
          }
      g_once_init_leave (&made, 1);
    }
  return key;
}

/**
 * lwn_str_hash:
 * @key: (type utf8): a string
 *
 * A #GHashFunc for strings that feeds, pages and OPML lists choose: item
 * ids, addresses, names. Equal strings hash alike within one process;
 * which strings collide differs from one process to the next.
 *
 * Returns: the hash of @key
 */
guint
lwn_str_hash (gconstpointer key)
{
  const char *string = key;
  guint64 hash = lwn_str_hash_for_key (process_key (), string, strlen (string));

  return (guint) (hash ^ (hash >> 32));
}

/**
 * lwn_str_hash_table_new:
 * @key_destroy: (nullable): frees a key
 * @value_destroy: (nullable): frees a value
 *
 * A #GHashTable of string keys that a stranger may choose, with
 * lwn_str_hash() and g_str_equal().
 *
 * Returns: (transfer full): the table
 */
GHashTable *
lwn_str_hash_table_new (GDestroyNotify key_destroy,
                        GDestroyNotify value_destroy)
{
  return g_hash_table_new_full (lwn_str_hash, g_str_equal, key_destroy, value_destroy);
}
