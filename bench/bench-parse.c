/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Times lwn_feed_parse() on LWN-style RSS feeds of 1,000 and 10,000 items, or on given files. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "lwn-feed-parser.h"

static int opt_runs = 11;
static int opt_write_items = 0;
static gboolean opt_median_only = FALSE;

static const GOptionEntry entries[] = {
  { "runs", 'n', 0, G_OPTION_ARG_INT, &opt_runs, "Parse each feed N times and report the median", "N" },
  { "write", 'w', 0, G_OPTION_ARG_INT, &opt_write_items, "Write a generated feed of N items to FILE and exit", "N" },
  { "median-only", 'm', 0, G_OPTION_ARG_NONE, &opt_median_only, "Print only the median in milliseconds", NULL },
  { NULL },
};

static const char *const authors[] = { "corbet", "jake", "daroc", "jzb" };

/* An RSS 1.0 document shaped like https://lwn.net/headlines/rss, with
 * descriptions of a realistic size and markup. */
static GBytes *
generate_feed (guint n_items)
{
  GString *doc = g_string_new ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\n"
                               "<rdf:RDF\n"
                               "  xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n"
                               "  xmlns=\"http://purl.org/rss/1.0/\"\n"
                               "  xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
                               "  xmlns:syn=\"http://purl.org/rss/1.0/modules/syndication/\"\n"
                               ">\n\n"
                               "  <channel rdf:about=\"https://lwn.net/headlines/rss\">\n"
                               "    <title>LWN.net</title>\n"
                               "    <link>https://lwn.net</link>\n"
                               "    <description>LWN.net is a comprehensive source of news and opinions from\n"
                               "        and about the Linux community.</description>\n"
                               "    <syn:updatePeriod>hourly</syn:updatePeriod>\n"
                               "    <syn:updateFrequency>2</syn:updateFrequency>\n"
                               "    <items>\n      <rdf:Seq>\n");
  g_autoptr (GDateTime) start = g_date_time_new_utc (2023, 7, 7, 18, 15, 29);

  for (guint i = 0; i < n_items; i++)
    g_string_append_printf (doc, "\t<rdf:li resource=\"https://lwn.net/Articles/%u/\" />\n", 900000 + i);
  g_string_append (doc, "      </rdf:Seq>\n    </items>\n\n  </channel>\n");

  for (guint i = 0; i < n_items; i++)
    {
      guint article = 900000 + i;
      g_autoptr (GDateTime) date = g_date_time_add_minutes (start, -(gint) i * 37);
      g_autofree char *date_text = g_date_time_format (date, "%Y-%m-%dT%H:%M:%S+00:00");

      g_string_append_printf (doc,
                              "    <item rdf:about=\"https://lwn.net/Articles/%u/\">\n"
                              "      <title>%s Kernel development item %u: folios, BPF &amp; io_uring</title>\n"
                              "      <link>https://lwn.net/Articles/%u/</link>\n"
                              "      <dc:date>%s</dc:date>\n"
                              "      <dc:creator>%s</dc:creator>\n"
                              "      <description>\n"
                              "      The &lt;a href=&quot;https://lwn.net/Articles/%u/&quot;&gt;%u development cycle&lt;/a&gt;\n"
                              "continues with a look at memory management, filesystems, and the\n"
                              "scheduler. &lt;p&gt;\n"
                              "&lt;blockquote class=&quot;bq&quot;&gt;\n"
                              "\tThis brings us back around to a statement I made at the outset:\n"
                              "\tthat the exception proves the rule of open-source development —\n"
                              "\tand just possibly of software development in general. The cast\n"
                              "\tof thousands who contribute do so in order to make exactly the\n"
                              "\tsoftware that they want to use.\n"
                              "&lt;/blockquote&gt;\n"
                              "&lt;p&gt;See &lt;a href=&quot;/Articles/%u/&quot;&gt;the full article&lt;/a&gt; for details.\n"
                              "      \n"
                              "      </description>\n"
                              "    </item>\n",
                              article, i % 3 == 0 ? "[$]" : "", i, article, date_text,
                              authors[i % G_N_ELEMENTS (authors)], article, i, article - 1);
    }

  g_string_append (doc, "</rdf:RDF>\n");
  return g_string_free_to_bytes (doc);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Returns FALSE, with a message on stderr, if the feed does not parse. */
static gboolean
bench (const char *label,
       GBytes *body)
{
  g_autofree double *times = g_new (double, opt_runs);
  guint n_items = 0;
  double median;

  for (int run = 0; run < opt_runs; run++)
    {
      g_autoptr (GError) error = NULL;
      gint64 start = g_get_monotonic_time ();
      LwnFeed *feed = lwn_feed_parse (body, NULL, NULL, &error);

      if (feed == NULL)
        {
          fprintf (stderr, "%s: %s\n", label, error->message);
          return FALSE;
        }
      n_items = lwn_feed_get_n_items (feed);
      lwn_feed_unref (feed);
      times[run] = (g_get_monotonic_time () - start) / 1000.0;
    }

  qsort (times, opt_runs, sizeof *times, compare_doubles);
  median = opt_runs % 2 == 1 ? times[opt_runs / 2] : (times[opt_runs / 2 - 1] + times[opt_runs / 2]) / 2;

  if (opt_median_only)
    printf ("%.3f\n", median);
  else
    printf ("%-28s %6u items %9.1f KiB  median %8.2f ms  (min %.2f, max %.2f, %d runs)  %10.0f items/s\n",
            label, n_items, g_bytes_get_size (body) / 1024.0, median, times[0], times[opt_runs - 1], opt_runs,
            median > 0 ? n_items / (median / 1000.0) : 0.0);
  return TRUE;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE…]");
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  g_option_context_set_summary (context,
                                "Times lwn_feed_parse(). With no FILE, parses generated LWN-style\n"
                                "RSS 1.0 feeds of 1,000 and 10,000 items.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  if (opt_runs < 1)
    opt_runs = 1;

  if (opt_write_items > 0)
    {
      g_autoptr (GBytes) body = NULL;

      if (argc != 2)
        {
          fprintf (stderr, "--write needs exactly one FILE\n");
          return 2;
        }
      body = generate_feed (opt_write_items);
      if (!g_file_set_contents (argv[1], g_bytes_get_data (body, NULL), g_bytes_get_size (body), &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      return 0;
    }

  if (argc < 2)
    {
      const guint sizes[] = { 1000, 10000 };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autoptr (GBytes) body = generate_feed (sizes[i]);
          g_autofree char *label = g_strdup_printf ("generated, %u items", sizes[i]);

          ok = bench (label, body) && ok;
        }
      return ok ? 0 : 1;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GBytes) body = NULL;
      char *contents;
      gsize length;

      if (!g_file_get_contents (argv[i], &contents, &length, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          g_clear_error (&error);
          ok = FALSE;
          continue;
        }
      body = g_bytes_new_take (contents, length);
      ok = bench (argv[i], body) && ok;
    }

  return ok ? 0 : 1;
}
