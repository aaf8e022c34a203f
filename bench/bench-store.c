/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Times what a state save costs the main thread (the lwn_store_save_async() call) and the whole save, for
 * 1,000 short ids and 1,000 ids of 4 KiB in each id set, and what the store's part of showing a feed of
 * 1,200 items costs it, as the reader does it: whether each item is read, the ids shown, which are new. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "lwn-store.h"

static int opt_runs = 21;

static const GOptionEntry entries[] = {
  { "runs", 'n', 0, G_OPTION_ARG_INT, &opt_runs, "Save N times and report the median and the worst", "N" },
  { NULL },
};

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static void
saved_cb (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  gboolean *done = user_data;
  g_autoptr (GError) error = NULL;

  if (!lwn_store_save_finish (LWN_STORE (source), result, &error))
    g_error ("The save failed: %s", error->message);
  *done = TRUE;
}

/* An LWN-like id, padded with a query string to @length bytes when longer. */
static char *
make_id (guint n,
         gsize length)
{
  GString *id = g_string_new (NULL);

  g_string_printf (id, "https://lwn.net/Articles/%u/", 900000 + n);
  if (length > id->len)
    {
      g_string_append_c (id, '?');
      while (id->len < length)
        g_string_append_c (id, 'a' + (char) (id->len % 26));
    }
  return g_string_free (id, FALSE);
}

static void
run (const char *label,
     const char *dir,
     gsize id_length)
{
  g_autoptr (LwnStore) store = lwn_store_new (dir, dir);
  g_autofree gint64 *call_us = g_new (gint64, opt_runs);
  g_autofree gint64 *total_us = g_new (gint64, opt_runs);
  GStatBuf st;

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *id = make_id (i, id_length);

      lwn_store_mark_read (store, id);
      lwn_store_mark_announced (store, id);
    }

  /* Untimed: the first save also starts a worker thread. */
  {
    gboolean done = FALSE;

    lwn_store_save_async (store, NULL, saved_cb, &done);
    while (!done)
      g_main_context_iteration (NULL, TRUE);
  }

  for (int run = 0; run < opt_runs; run++)
    {
      g_autofree char *id = make_id (1000 + (guint) run, id_length);
      gboolean done = FALSE;
      gint64 start, called;

      /* A change before each save, as the reader makes one. */
      lwn_store_mark_read (store, id);
      start = g_get_monotonic_time ();
      lwn_store_save_async (store, NULL, saved_cb, &done);
      called = g_get_monotonic_time ();
      while (!done)
        g_main_context_iteration (NULL, TRUE);

      call_us[run] = called - start;
      total_us[run] = g_get_monotonic_time () - start;
    }

  qsort (call_us, (gsize) opt_runs, sizeof (gint64), compare_gint64);
  qsort (total_us, (gsize) opt_runs, sizeof (gint64), compare_gint64);
  if (g_stat (lwn_store_get_state_path (store), &st) != 0)
    st.st_size = 0;

  printf ("%-28s %9.3f %9.3f %11.2f %10.0f\n", label,
          call_us[opt_runs / 2] / 1000.0, call_us[opt_runs - 1] / 1000.0,
          total_us[opt_runs / 2] / 1000.0, st.st_size / 1024.0);
}

/* The store's calls when the reader shows a feed, in its order
 * (show_feed(), then take_new_items() in lwn-reader.c); the
 * microseconds they took. */
static gint64
show (LwnStore *store,
      GPtrArray *ids)
{
  gint64 start = g_get_monotonic_time ();
  guint n_read = 0;

  lwn_store_note_shown_ids (store, (const char *const *) ids->pdata, ids->len);
  for (guint i = 0; i < ids->len; i++)
    n_read += lwn_store_is_read (store, ids->pdata[i]) ? 1 : 0;
  for (guint i = 0; i < ids->len; i++)
    lwn_store_mark_announced (store, ids->pdata[i]);

  if (n_read != ids->len)
    g_error ("Only %u of the %u ids shown were read", n_read, ids->len);
  return g_get_monotonic_time () - start;
}

/* Showing a feed of 1,200 items, all read and announced: first after a
 * start (a store just loaded), then again (as a refresh does). */
static void
run_show (const char *label,
          const char *dir,
          gsize id_length)
{
  g_autoptr (LwnStore) store = lwn_store_new (dir, dir);
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree gint64 *first_us = g_new (gint64, opt_runs);
  g_autofree gint64 *again_us = g_new (gint64, opt_runs);
  g_autoptr (GError) error = NULL;

  for (guint n = 1200; n-- > 0;)
    g_ptr_array_add (ids, make_id (n, id_length));
  lwn_store_note_shown_ids (store, (const char *const *) ids->pdata, ids->len);
  for (guint i = 0; i < ids->len; i++)
    {
      lwn_store_mark_read (store, ids->pdata[i]);
      lwn_store_mark_announced (store, ids->pdata[i]);
    }
  if (!lwn_store_save (store, &error))
    g_error ("The save failed: %s", error->message);

  for (int run = 0; run < opt_runs; run++)
    {
      g_autoptr (LwnStore) started = lwn_store_new (dir, dir);

      if (!lwn_store_load (started, &error))
        g_error ("The load failed: %s", error->message);
      first_us[run] = show (started, ids);
      again_us[run] = show (store, ids);
    }

  qsort (first_us, (gsize) opt_runs, sizeof (gint64), compare_gint64);
  qsort (again_us, (gsize) opt_runs, sizeof (gint64), compare_gint64);
  printf ("%-28s %9.3f %9.3f %9.3f %9.3f\n", label,
          first_us[opt_runs / 2] / 1000.0, first_us[opt_runs - 1] / 1000.0,
          again_us[opt_runs / 2] / 1000.0, again_us[opt_runs - 1] / 1000.0);
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = g_option_context_new ("— time state saves");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  if (opt_runs < 1)
    opt_runs = 1;

  /* tmpfs when there is one: the disk is not what is measured. */
  if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
    g_setenv ("TMPDIR", "/dev/shm", TRUE);
  dir = g_dir_make_tmp ("lwn-bench-store-XXXXXX", &error);
  if (dir == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  printf ("state save, %d runs each: main-thread ms (median, worst), whole save ms (median), file KiB\n", opt_runs);
  printf ("%-28s %9s %9s %11s %10s\n", "ids per set", "main-med", "main-max", "whole-med", "KiB");
  run ("1,000 ids of ~32 bytes", dir, 0);
  run ("1,000 ids of 4 KiB", dir, 4096);

  printf ("\nshowing a feed, read and announced, %d runs each: main-thread ms (median, worst),\n"
          "first after a start, then again\n",
          opt_runs);
  printf ("%-28s %9s %9s %9s %9s\n", "feed", "first-med", "first-max", "again-med", "again-max");
  run_show ("1,200 items, ~32-byte ids", dir, 0);
  run_show ("1,200 items, 4 KiB ids", dir, 4096);

  path = g_build_filename (dir, "state.ini", NULL);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
