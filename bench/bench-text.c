/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Times lwn_text_from_html() and lwn_text_markup_from_html() on the 1 MB descriptions of tests/unit/test-text.c. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "lwn-text.h"

static int opt_runs = 11;
static char *opt_write = NULL;

static const GOptionEntry entries[] = {
  { "runs", 'n', 0, G_OPTION_ARG_INT, &opt_runs, "Render each description N times and report the median", "N" },
  { "write", 'w', 0, G_OPTION_ARG_FILENAME, &opt_write, "Write the 1 MB HTML description to FILE and exit", "FILE" },
  { NULL },
};

/* @unit repeated until the result holds at least @min_bytes, as the test makes it. */
static char *
repeat (const char *unit,
        gsize min_bytes)
{
  GString *out = g_string_sized_new (min_bytes + strlen (unit));

  while (out->len < min_bytes)
    g_string_append (out, unit);
  return g_string_free (out, FALSE);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

typedef char *(*RenderFunc) (const char *html, gconstpointer data);

static char *
render_text_200 (const char *html,
                 gconstpointer data)
{
  return lwn_text_from_html (html, 200);
}

static char *
render_text_unlimited (const char *html,
                       gconstpointer data)
{
  return lwn_text_from_html (html, 0);
}

static char *
render_markup (const char *html,
               gconstpointer data)
{
  return lwn_text_markup_from_html (html, NULL);
}

static void
bench (const char *label,
       const char *html,
       RenderFunc render)
{
  g_autofree double *times = g_new (double, opt_runs);
  double median;

  for (int run = 0; run < opt_runs; run++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autofree char *out = render (html, NULL);

      times[run] = (g_get_monotonic_time () - start) / 1000.0;
    }
  qsort (times, opt_runs, sizeof *times, compare_doubles);
  median = opt_runs % 2 == 1 ? times[opt_runs / 2] : (times[opt_runs / 2 - 1] + times[opt_runs / 2]) / 2;
  printf ("%-44s median %8.2f ms  (min %.2f, max %.2f, %d runs)\n", label, median, times[0], times[opt_runs - 1],
          opt_runs);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *html = repeat ("<p>Some <b>words</b> &amp; more words.</p>\n", 1024 * 1024);
  g_autofree char *plain = repeat ("word ", 1024 * 1024);

  g_option_context_set_summary (context, "Times lwn-tray's HTML rendering of 1 MB descriptions.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  if (opt_runs < 1)
    opt_runs = 1;

  if (opt_write != NULL)
    {
      if (!g_file_set_contents (opt_write, html, -1, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      return 0;
    }

  bench ("1 MB HTML → text, 200 characters", html, render_text_200);
  bench ("1 MB HTML → text, unlimited (64 Ki)", html, render_text_unlimited);
  bench ("1 MB plain words → text, unlimited", plain, render_text_unlimited);
  bench ("1 MB HTML → Pango markup", html, render_markup);
  return 0;
}
