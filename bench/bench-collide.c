/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prints the main loop's longest iteration while the reading model takes in a feed of 16,384 items whose
 * ids collide under djb2 (g_str_hash), next to the same feed with ordinary ids, measured in the same run:
 * a fresh load, a start from the saved copy, and a changed refresh. Feeds choose their ids; a table keyed
 * by them must cost the same whatever they choose.
 *
 * Usage: bench-collide [--items N] [--rounds N] */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "lwn-reader-private.h"
#include "lwn-store.h"

static int opt_items = 16384;
static int opt_rounds = 3;

static const GOptionEntry entries[] = {
  { "items", 'n', 0, G_OPTION_ARG_INT, &opt_items, "Items in the feed (a power of two; default 16384)", "N" },
  { "rounds", 'r', 0, G_OPTION_ARG_INT, &opt_rounds, "Rounds; each figure is their median (default 3)", "N" },
  { NULL },
};

typedef enum
{
  IDS_ORDINARY,
  IDS_COLLIDING,
} IdKind;

static const char *const kind_names[] = { "ordinary ids", "colliding ids" };

typedef enum
{
  PHASE_FRESH,
  PHASE_SAVED,
  PHASE_CHANGED,
  N_PHASES,
} Phase;

static const char *const phase_names[] = { "fresh load", "start from the saved copy", "changed refresh" };

/* Item @n's id: for IDS_COLLIDING, one "Aa" or "B@" block per bit of @n, which all hash alike under
 * djb2 since 33 * 'A' + 'a' == 33 * 'B' + '@'; for IDS_ORDINARY, as long, in ordinary digits. */
static char *
item_id (IdKind kind,
         guint n,
         guint bits)
{
  GString *id = g_string_sized_new (2 * bits + 1);

  if (kind == IDS_ORDINARY)
    g_string_printf (id, "item-%0*u", (int) (2 * bits - 5), n);
  else
    for (guint bit = 0; bit < bits; bit++)
      g_string_append (id, (n >> bit) & 1 ? "B@" : "Aa");
  return g_string_free (id, FALSE);
}

/* The feed of @n_items items, from item @first on. */
static void
write_feed (const char *path,
            IdKind kind,
            guint first,
            guint n_items,
            guint bits)
{
  GString *doc = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Bench</title>"
                               "<link>https://bench.example.org/</link>\n");
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < n_items; i++)
    {
      guint n = (first + i) % (1u << bits);
      g_autofree char *id = item_id (kind, n, bits);

      g_string_append_printf (doc,
                              "<item><title>Item %u</title><link>https://bench.example.org/%u</link>"
                              "<guid isPermaLink=\"false\">%s</guid></item>\n",
                              n, n, id);
    }
  g_string_append (doc, "</channel></rss>\n");
  if (!g_file_set_contents (path, doc->str, (gssize) doc->len, &error))
    g_error ("Cannot write %s: %s", path, error->message);
  g_string_free (doc, TRUE);
}

/* Time spent waiting in poll() during the current iteration. */
static gint64 polled_us;

static int
timed_poll (GPollFD *fds,
            guint n_fds,
            int timeout)
{
  gint64 start = g_get_monotonic_time ();
  int result = g_poll (fds, n_fds, timeout);

  polled_us += g_get_monotonic_time () - start;
  return result;
}

static gboolean
is_settled (LwnReader *reader)
{
  return lwn_reader_get_state (reader) == LWN_READER_STATE_READY && !lwn_reader_get_loading (reader)
         && !lwn_reader_get_refreshing (reader) && lwn_reader_saver_is_idle (reader->saver);
}

/* Runs the main loop until @reader has taken its feed in and saved it; returns the longest iteration's
 * work (its time less what it waited in poll()), in microseconds. */
static gint64
run_until_settled (LwnReader *reader)
{
  gint64 worst = 0;
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (!is_settled (reader))
    {
      gint64 start = g_get_monotonic_time ();

      polled_us = 0;
      g_main_context_iteration (NULL, TRUE);
      worst = MAX (worst, g_get_monotonic_time () - start - polled_us);
      if (g_get_monotonic_time () > deadline)
        g_error ("The reader did not settle within two minutes");
    }
  return worst;
}

static LwnReader *
open_reader (const char *root,
             const char *url,
             LwnStore **store)
{
  g_autofree char *state = g_build_filename (root, "state", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  LwnReader *reader;

  *store = lwn_store_new (state, cache);
  lwn_store_load (*store, NULL);
  reader = lwn_reader_new (*store, url);
  lwn_reader_set_notify (reader, FALSE);
  return reader;
}

static void
close_reader (LwnReader *reader,
              LwnStore *store)
{
  lwn_reader_shutdown (reader);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (reader);
  g_object_unref (store);
}

/* One round of the three phases for feeds of @kind; the worst iteration of each into @worst. */
static void
measure (IdKind kind,
         guint bits,
         gint64 worst[N_PHASES])
{
  g_autofree char *root = g_dir_make_tmp ("lwn-bench-collide-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (root, "feed.xml", NULL);
  g_autofree char *url = g_filename_to_uri (path, NULL, NULL);
  g_autofree char *command = NULL;
  guint n_items = 1u << bits;
  LwnStore *store;
  LwnReader *reader;

  write_feed (path, kind, 0, n_items, bits);
  reader = open_reader (root, url, &store);
  lwn_reader_start (reader);
  worst[PHASE_FRESH] = run_until_settled (reader);
  close_reader (reader, store);

  reader = open_reader (root, url, &store);
  lwn_reader_start (reader);
  worst[PHASE_SAVED] = run_until_settled (reader);

  /* One new item on top, the oldest gone: what a day brings, at this size. */
  write_feed (path, kind, n_items - 1, n_items, bits);
  lwn_reader_refresh (reader);
  while (!lwn_reader_get_refreshing (reader) && !lwn_reader_get_loading (reader))
    g_main_context_iteration (NULL, TRUE);
  worst[PHASE_CHANGED] = run_until_settled (reader);
  close_reader (reader, store);

  command = g_strdup_printf ("rm -rf '%s'", root);
  if (system (command) != 0)
    g_warning ("Could not remove %s", root);
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  guint bits = 0;
  gint64 worst_of[2] = { 0, 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || opt_items < 2 || opt_rounds < 1)
    {
      fprintf (stderr, "bench-collide: %s\n", error != NULL ? error->message : "--items and --rounds must be >= 2, 1");
      return 2;
    }
  while ((1u << (bits + 1)) <= (guint) opt_items)
    bits++;

  g_main_context_set_poll_func (NULL, timed_poll);
  printf ("The main loop's longest iteration (ms, median of %d rounds) with a feed of %u items:\n", opt_rounds,
          1u << bits);
  printf ("%-28s %14s %14s %8s\n", "", kind_names[IDS_ORDINARY], kind_names[IDS_COLLIDING], "ratio");
  {
    g_autofree gint64 *samples = g_new0 (gint64, (gsize) opt_rounds * 2 * N_PHASES);
    gint64 median[2][N_PHASES];

    /* The kinds alternate, so that whatever else the machine does falls on both alike. */
    for (int round = 0; round < opt_rounds; round++)
      for (int kind = 0; kind < 2; kind++)
        measure (kind, bits, samples + ((gsize) round * 2 + kind) * N_PHASES);

    for (int kind = 0; kind < 2; kind++)
      for (int phase = 0; phase < N_PHASES; phase++)
        {
          g_autofree gint64 *column = g_new (gint64, opt_rounds);

          for (int round = 0; round < opt_rounds; round++)
            column[round] = samples[((gsize) round * 2 + kind) * N_PHASES + phase];
          qsort (column, opt_rounds, sizeof *column, compare_gint64);
          median[kind][phase] = column[opt_rounds / 2];
          worst_of[kind] = MAX (worst_of[kind], median[kind][phase]);
        }

    for (int phase = 0; phase < N_PHASES; phase++)
      printf ("%-28s %14.1f %14.1f %8.2f\n", phase_names[phase], median[IDS_ORDINARY][phase] / 1000.0,
              median[IDS_COLLIDING][phase] / 1000.0,
              (double) median[IDS_COLLIDING][phase] / MAX (median[IDS_ORDINARY][phase], 1));
  }
  printf ("%-28s %14.1f %14.1f %8.2f   (goal: at most 1.5)\n", "worst", worst_of[IDS_ORDINARY] / 1000.0,
          worst_of[IDS_COLLIDING] / 1000.0, (double) worst_of[IDS_COLLIDING] / MAX (worst_of[IDS_ORDINARY], 1));
  return 0;
}
