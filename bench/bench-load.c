/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prints the resident memory after loading a feed through lwn_feed_load_async() twice, keeping the last
 * feed as the reader does, and what malloc_trim() would give back on top (where the C library has it). */

#include "config.h"

#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib.h>

#include "lwn-feed-load.h"

static gboolean opt_trim = FALSE;

static const GOptionEntry entries[] = {
  { "trim", 't', 0, G_OPTION_ARG_NONE, &opt_trim, "Call malloc_trim (0) after the loads and time it", NULL },
  { NULL },
};

/* VmRSS of this process in KiB, or 0 if unknown. */
static guint64
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "\nVmRSS:");
  return line != NULL ? g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10) : 0;
}

typedef struct
{
  LwnFeed *feed;
  gboolean done;
} Load;

static void
loaded_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  Load *load = user_data;
  g_autoptr (GError) error = NULL;

  if (!lwn_feed_load_finish (result, &load->feed, NULL, &error))
    g_error ("The load failed: %s", error->message);
  load->done = TRUE;
}

static LwnFeed *
load_once (const char *url,
           LwnFeed *previous)
{
  LwnFetchRequest request = { .url = url };
  Load load = { NULL, FALSE };

  lwn_feed_load_async (&request, NULL, previous, NULL, loaded_cb, &load);
  while (!load.done)
    g_main_context_iteration (NULL, TRUE);
  return load.feed;
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = g_option_context_new ("FEED-FILE — memory after loading a feed twice");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) first = NULL;
  g_autoptr (LwnFeed) second = NULL;
  g_autofree char *url = NULL;
  guint64 before;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      fprintf (stderr, "%s\n", error != NULL ? error->message : "usage: bench-load [--trim] FEED-FILE");
      return 2;
    }
  url = g_filename_to_uri (argv[1], NULL, &error);
  if (url == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }

  before = rss_kib ();
  first = load_once (url, NULL);
  printf ("RSS before: %" G_GUINT64_FORMAT " KiB; after the first load: %" G_GUINT64_FORMAT " KiB",
          before, rss_kib ());
  /* As the reader does: the second load takes the unchanged items from the first. */
  second = load_once (url, first);
  /* The reader drops the old feed once the new one is shown. */
  g_clear_pointer (&first, lwn_feed_unref);
  printf ("; after the second: %" G_GUINT64_FORMAT " KiB (%u items)", rss_kib (), lwn_feed_get_n_items (second));

  if (opt_trim)
    {
#ifdef __GLIBC__
      gint64 start = g_get_monotonic_time ();

      malloc_trim (0);
      printf ("; after malloc_trim (0): %" G_GUINT64_FORMAT " KiB, which took %.2f ms", rss_kib (),
              (g_get_monotonic_time () - start) / 1000.0);
#else
      printf ("; no malloc_trim () in this C library");
#endif
    }
  printf ("\n");
  return 0;
}
