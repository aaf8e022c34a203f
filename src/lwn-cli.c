/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one-shot command-line modes: fetch once, print the headlines, and keep the exit-code contract. */

#include "config.h"

#include <errno.h>
#include <stdio.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "lwn-cli.h"
#include "lwn-feed-load.h"
#include "lwn-scheduler.h"
#include "lwn-text.h"

/**
 * lwn_cli_render_text:
 * @feed: a feed
 *
 * Renders one line per item: the title, a tab, and the full-article URL
 * (empty when the item has no link that is safe to open).
 *
 * Returns: (transfer full): the text, every line ending in a newline
 */
char *
lwn_cli_render_text (LwnFeed *feed)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);
      /* The parser already cleans titles; a terminal is worth a second look. */
      g_autofree char *title = lwn_text_strip_controls (lwn_feed_item_get_title (item));
      const char *url = lwn_feed_item_get_url (item);

      g_string_append_printf (out, "%s\t%s\n", title, url != NULL ? url : "");
    }

  return g_string_free (out, FALSE);
}

static void
add_nullable_string (JsonBuilder *builder,
                     const char *name,
                     const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* One member of the top-level object or one item, as indented JSON text. */
static char *
dup_json (JsonNode *node,
          const char *indent)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  lines = g_strsplit (text, "\n", -1);
  return g_strjoinv (indent, lines);
}

static char *
dup_item_json (LwnFeedItem *item)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *summary = lwn_text_from_html (lwn_feed_item_get_description (item), LWN_CLI_SUMMARY_CHARS);
  g_autofree char *date = NULL;
  GDateTime *when = lwn_feed_item_get_date (item);

  if (when != NULL)
    date = g_date_time_format_iso8601 (when);

  json_builder_begin_object (builder);
  add_nullable_string (builder, "id", lwn_feed_item_get_id (item));
  add_nullable_string (builder, "title", lwn_feed_item_get_title (item));
  add_nullable_string (builder, "link", lwn_feed_item_get_link (item));
  add_nullable_string (builder, "url", lwn_feed_item_get_url (item));
  add_nullable_string (builder, "summary", summary);
  add_nullable_string (builder, "date", date);
  add_nullable_string (builder, "author", lwn_feed_item_get_author (item));
  json_builder_set_member_name (builder, "paywalled");
  json_builder_add_boolean_value (builder, lwn_feed_item_get_paywalled (item));
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return dup_json (root, "\n    ");
}

static char *
dup_string_json (const char *value)
{
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_NULL);

  if (value != NULL)
    json_node_init_string (node, value);
  return dup_json (node, "");
}

/**
 * lwn_cli_write_json:
 * @feed: a feed
 * @write: called with each piece of the output, in order; returns %FALSE to stop
 * @user_data: data for @write
 *
 * Writes @feed as the JSON document of `--json` (`title`, `link` and
 * `items`, each with `id`, `title`, `link`, `url`, `summary`, `date`,
 * `author` and `paywalled`), one item at a time, so that a large feed is
 * never held twice more in memory as a JSON tree and its text.
 *
 * Returns: %FALSE if @write stopped it
 */
gboolean
lwn_cli_write_json (LwnFeed *feed,
                    LwnCliWriteFunc write,
                    gpointer user_data)
{
  g_autofree char *title = dup_string_json (lwn_feed_get_title (feed));
  g_autofree char *link = dup_string_json (lwn_feed_get_link (feed));
  g_autofree char *head = g_strdup_printf ("{\n  \"title\" : %s,\n  \"link\" : %s,\n  \"items\" : [", title, link);
  guint n = lwn_feed_get_n_items (feed);

  if (!write (head, user_data))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *item = dup_item_json (lwn_feed_get_item (feed, i));

      if (!write (i == 0 ? "\n    " : ",\n    ", user_data) || !write (item, user_data))
        return FALSE;
    }

  return write (n > 0 ? "\n  ]\n}\n" : "]\n}\n", user_data);
}

static gboolean
append_cb (const char *text,
           gpointer user_data)
{
  g_string_append (user_data, text);
  return TRUE;
}

/**
 * lwn_cli_render_json:
 * @feed: a feed
 *
 * Returns: (transfer full): what lwn_cli_write_json() writes, as one string
 */
char *
lwn_cli_render_json (LwnFeed *feed)
{
  GString *out = g_string_new (NULL);

  lwn_cli_write_json (feed, append_cb, out);
  return g_string_free (out, FALSE);
}

/* The error contract is one line on stderr, whatever a library put in the message. */
static char *
one_line (const char *text)
{
  g_autofree char *flat = g_strdup (text);

  g_strdelimit (flat, "\r\n\t", ' ');
  return lwn_text_strip_controls (flat);
}

static gboolean
write_stdout_cb (const char *text,
                 gpointer user_data)
{
  return fputs (text, stdout) != EOF;
}

/**
 * lwn_cli_run:
 * @format: what to print
 * @feed_url: the feed to load (http, https or file)
 *
 * Loads @feed_url once and writes it to stdout. On failure writes exactly one
 * line to stderr, `lwn-tray: could not load URL: reason`.
 *
 * Returns: the process exit status: 0 on success, 1 on failure
 */
int
lwn_cli_run (LwnCliFormat format,
             const char *feed_url)
{
  LwnFetchRequest request = { .url = feed_url };
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;
  gboolean written;

  if (!lwn_feed_load_sync (&request, &feed, NULL, NULL, &error))
    {
      g_autofree char *url = one_line (feed_url);
      g_autofree char *reason = one_line (error->message);

      /* Translators: the first %s is a URL, the second the reason it failed. */
      g_printerr (_ ("lwn-tray: could not load %s: %s\n"), url, reason);
      return 1;
    }

  /* Nothing was sent as validators, so a 304 here is the server's mistake. */
  if (feed == NULL)
    {
      g_autofree char *url = one_line (feed_url);

      g_printerr (_ ("lwn-tray: could not load %s: %s\n"), url, _ ("the server sent no feed"));
      return 1;
    }

  if (format == LWN_CLI_FORMAT_JSON)
    written = lwn_cli_write_json (feed, write_stdout_cb, NULL);
  else
    {
      g_autofree char *output = lwn_cli_render_text (feed);

      written = write_stdout_cb (output, NULL);
    }

  if (!written || fflush (stdout) != 0)
    {
      g_printerr (_ ("lwn-tray: could not write the output: %s\n"), g_strerror (errno));
      return 1;
    }

  return 0;
}

/**
 * lwn_cli_check_options:
 * @options: the command line's options
 *
 * Checks `--feed-url` and `--interval` (a string of digits: GApplication
 * cannot tell "--interval 0" from no option) and says what is wrong on
 * standard error, in one line.
 *
 * Returns: -1 when they can be used, else the exit status
 */
int
lwn_cli_check_options (GVariantDict *options)
{
  const char *feed_url = NULL;
  const char *interval_text = NULL;
  guint64 interval = 0;

  if (g_variant_dict_lookup (options, "feed-url", "&s", &feed_url))
    {
      const char *scheme = g_uri_peek_scheme (feed_url);

      if (scheme == NULL || !(g_str_equal (scheme, "http") || g_str_equal (scheme, "https") || g_str_equal (scheme, "file")))
        {
          g_printerr ("lwn-tray: %s\n", _ ("the feed URL must start with http://, https:// or file://"));
          return 1;
        }
    }

  if (g_variant_dict_lookup (options, "interval", "&s", &interval_text))
    {
      if (!g_ascii_string_to_unsigned (interval_text, 10, 1, G_MAXINT, &interval, NULL))
        {
          g_printerr ("lwn-tray: %s\n", _ ("the interval must be a positive number of seconds"));
          return 1;
        }
      if (interval < LWN_MIN_INTERVAL)
        g_printerr ("lwn-tray: %s\n", _ ("warning: intervals under 60 seconds are meant for testing"));
    }
  return -1;
}
