/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one-shot command-line modes: fetch once, print the headlines, and keep the exit-code contract. */

#include "config.h"

#include <errno.h>
#include <stdio.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "lwn-cli.h"
#include "lwn-feed-loader.h"
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

static void
add_item (JsonBuilder *builder,
          LwnFeedItem *item)
{
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
}

/**
 * lwn_cli_render_json:
 * @feed: a feed
 *
 * Renders the feed as one JSON object:
 * `{"title", "link", "items": [{"id", "title", "link", "url", "summary",
 * "date", "author", "paywalled"}]}`, where "url" is null when the item has
 * no safe link and "date" is ISO 8601 or null.
 *
 * Returns: (transfer full): the JSON text, ending in a newline
 */
char *
lwn_cli_render_json (LwnFeed *feed)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  add_nullable_string (builder, "title", lwn_feed_get_title (feed));
  add_nullable_string (builder, "link", lwn_feed_get_link (feed));
  json_builder_set_member_name (builder, "items");
  json_builder_begin_array (builder);
  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    add_item (builder, lwn_feed_get_item (feed, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  return g_strconcat (text, "\n", NULL);
}

/* The error contract is one line on stderr, whatever a library put in the message. */
static char *
one_line (const char *text)
{
  g_autofree char *flat = g_strdup (text);

  g_strdelimit (flat, "\r\n\t", ' ');
  return lwn_text_strip_controls (flat);
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
  g_autofree char *output = NULL;

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
    output = lwn_cli_render_json (feed);
  else
    output = lwn_cli_render_text (feed);

  if (fputs (output, stdout) == EOF || fflush (stdout) != 0)
    {
      g_printerr (_ ("lwn-tray: could not write the output: %s\n"), g_strerror (errno));
      return 1;
    }

  return 0;
}
