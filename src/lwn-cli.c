/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one-shot command-line modes: fetch once, print the headlines, and keep the exit-code contract. */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "lwn-cli.h"
#include "lwn-feed-load.h"
#include "lwn-fetch-queue.h"
#include "lwn-opml.h"
#include "lwn-reader-settings.h"
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

/* One feed of a run: its address, and once loaded, the feed or why not. */
typedef struct
{
  const char *url;
  LwnFeed *feed;
  GError *error;
} CliLoad;

typedef struct
{
  CliLoad *loads;
  guint n_pending;
  LwnFetchQueue *queue;
} CliRun;

typedef struct
{
  CliRun *run;
  guint index;
  LwnFetchSlot *slot;
} CliLoadData;

static void
load_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  g_autofree CliLoadData *data = user_data;
  CliLoad *load = &data->run->loads[data->index];

  if (lwn_feed_load_finish (result, &load->feed, NULL, &load->error) && load->feed == NULL)
    /* Nothing was sent as validators, so a 304 here is the server's mistake. */
    g_set_error_literal (&load->error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("the server sent no feed"));
  g_clear_pointer (&data->slot, lwn_fetch_slot_free);
  data->run->n_pending--;
}

/* Nothing cancels the waits of a run: each gets its turn. */
static void
turn_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  CliLoadData *data = user_data;
  const LwnFetchRequest request = { .url = data->run->loads[data->index].url };

  data->slot = lwn_fetch_queue_acquire_finish (LWN_FETCH_QUEUE (source), result, NULL);
  lwn_feed_load_async (&request, NULL, NULL, NULL, load_cb, data);
}

/* "Name (URL)" above a feed's lines when a run prints several. */
static char *
dup_feed_label (const CliLoad *load)
{
  g_autofree char *url = one_line (load->url);
  const char *title = load->feed != NULL ? lwn_feed_get_title (load->feed) : "";
  g_autofree char *name = one_line (title);

  return *name != '\0' ? g_strdup_printf ("# %s (%s)\n", name, url) : g_strdup_printf ("# %s\n", url);
}

static gboolean
write_text (const CliLoad *loads,
            guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *output = NULL;

      if (loads[i].feed == NULL)
        continue;
      if (n > 1)
        {
          g_autofree char *label = dup_feed_label (&loads[i]);

          if ((i > 0 && !write_stdout_cb ("\n", NULL)) || !write_stdout_cb (label, NULL))
            return FALSE;
        }
      output = lwn_cli_render_text (loads[i].feed);
      if (!write_stdout_cb (output, NULL))
        return FALSE;
    }
  return TRUE;
}

/* Several feeds are a JSON array of the one-feed documents, each with its
 * "url", and an "error" instead of "items" for a feed that failed. */
static gboolean
write_json (const CliLoad *loads,
            guint n)
{
  if (n == 1)
    return lwn_cli_write_json (loads[0].feed, write_stdout_cb, NULL);

  if (!write_stdout_cb ("[\n", NULL))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *url = dup_string_json (loads[i].url);
      g_autofree char *head = g_strdup_printf ("{\n  \"url\" : %s,\n", url);

      if ((i > 0 && !write_stdout_cb (",\n", NULL)) || !write_stdout_cb (head, NULL))
        return FALSE;
      if (loads[i].feed != NULL)
        {
          /* The one-feed document without its opening brace. */
          g_autofree char *text = lwn_cli_render_json (loads[i].feed);
          gsize length = strlen (text);

          /* Its closing newline goes: the array's separator follows. */
          if (length > 0 && text[length - 1] == '\n')
            text[length - 1] = '\0';
          if (!write_stdout_cb (text + 2, NULL))
            return FALSE;
        }
      else
        {
          g_autofree char *reason = dup_string_json (loads[i].error->message);
          g_autofree char *body = g_strdup_printf ("  \"error\" : %s\n}", reason);

          if (!write_stdout_cb (body, NULL))
            return FALSE;
        }
    }
  return write_stdout_cb ("\n]\n", NULL);
}

/**
 * lwn_cli_run:
 * @format: what to print
 * @feed_urls: the feeds to load (http, https or file), at least one
 *
 * Loads every feed once, %LWN_FETCH_QUEUE_MAX_REQUESTS at a time and one
 * at a time from each server, as the applet does, and writes them to stdout
 * in the order given: one feed as it always was; several labelled, the
 * text with a "# Title (URL)" line above each feed's lines and the JSON as
 * an array of the one-feed documents, each with its "url". For each feed
 * that fails writes exactly one line to stderr, `lwn-tray: could not load
 * URL: reason`; the others are still written.
 *
 * Returns: the process exit status: 0 when every feed loaded, 1 otherwise
 */
int
lwn_cli_run (LwnCliFormat format,
             const char *const *feed_urls)
{
  guint n = g_strv_length ((char **) feed_urls);
  g_autofree CliLoad *loads = g_new0 (CliLoad, MAX (n, 1));
  CliRun run = { .loads = loads, .n_pending = n };
  g_autoptr (GMainContext) context = g_main_context_new ();
  gboolean written;
  gboolean failed = FALSE;

  g_return_val_if_fail (n > 0, 1);

  /* A context of its own: nothing else of the process runs meanwhile. The
   * queue grants its turns there. */
  g_main_context_push_thread_default (context);
  run.queue = lwn_fetch_queue_new (LWN_FETCH_QUEUE_MAX_REQUESTS, LWN_FETCH_QUEUE_MAX_PER_HOST);
  for (guint i = 0; i < n; i++)
    {
      CliLoadData *data = g_new0 (CliLoadData, 1);

      loads[i].url = feed_urls[i];
      data->run = &run;
      data->index = i;
      lwn_fetch_queue_acquire_async (run.queue, feed_urls[i], NULL, turn_cb, data);
    }
  while (run.n_pending > 0)
    g_main_context_iteration (context, TRUE);
  g_clear_object (&run.queue);
  g_main_context_pop_thread_default (context);

  for (guint i = 0; i < n; i++)
    if (loads[i].error != NULL)
      {
        g_autofree char *url = one_line (loads[i].url);
        g_autofree char *reason = one_line (loads[i].error->message);

        /* Translators: the first %s is a URL, the second the reason it failed. */
        g_printerr (_ ("lwn-tray: could not load %s: %s\n"), url, reason);
        failed = TRUE;
      }

  if (n == 1 && failed)
    written = TRUE;
  else if (format == LWN_CLI_FORMAT_JSON)
    written = write_json (loads, n);
  else
    written = write_text (loads, n);

  for (guint i = 0; i < n; i++)
    {
      g_clear_pointer (&loads[i].feed, lwn_feed_unref);
      g_clear_error (&loads[i].error);
    }

  if (!written || fflush (stdout) != 0)
    {
      g_printerr (_ ("lwn-tray: could not write the output: %s\n"), g_strerror (errno));
      return 1;
    }

  return failed ? 1 : 0;
}

/**
 * lwn_cli_export_opml:
 * @settings: (nullable): the settings with the feeds followed
 * @default_feed_url: the feed followed when the settings name none
 *
 * Writes the feeds followed to stdout as OPML 2.0, with their names.
 *
 * Returns: the process exit status
 */
int
lwn_cli_export_opml (GSettings *settings,
                     const char *default_feed_url)
{
  g_autoptr (GPtrArray) feeds = lwn_reader_settings_list_feeds (settings, default_feed_url);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *text = NULL;

  text = lwn_opml_write (feeds, now);
  if (!write_stdout_cb (text, NULL) || fflush (stdout) != 0)
    {
      g_printerr (_ ("lwn-tray: could not write the output: %s\n"), g_strerror (errno));
      return 1;
    }
  return 0;
}

/**
 * lwn_cli_import_opml:
 * @settings: the settings with the feeds followed
 * @path: an OPML file
 *
 * Adds the feeds of the list that are not followed yet to the end of the
 * feeds followed, at most %LWN_OPML_MAX_IMPORT of them, with the list's
 * title as their name and notifications on, and says on stdout what it
 * did; when the list had more new feeds than one import adds, it says so on
 * stderr too. A list that cannot be read (over %LWN_OPML_MAX_BYTES among
 * other reasons) changes nothing and says why on stderr, in one line.
 *
 * Returns: the process exit status
 */
int
lwn_cli_import_opml (GSettings *settings,
                     const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  g_autofree char *summary = NULL;
  LwnOpmlImport import = { 0 };

  /* The size first, so that a huge file is refused before it is read. */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    lwn_opml_check_size ((guint64) g_file_info_get_size (info), &error);
  if (error == NULL)
    bytes = g_file_load_bytes (file, NULL, NULL, &error);
  if (bytes != NULL)
    listed = lwn_opml_parse (bytes, &import.skipped, &error);
  if (listed == NULL)
    {
      g_autofree char *name = one_line (path);
      g_autofree char *reason = one_line (error->message);

      /* Translators: the first %s is a file name, the second the reason it could not be read. */
      g_printerr (_ ("lwn-tray: could not import %s: %s\n"), name, reason);
      return 1;
    }

  if (!lwn_reader_settings_import_feeds (settings, listed, &import))
    {
      g_printerr ("lwn-tray: %s\n", _ ("could not change the feeds followed"));
      return 1;
    }
  g_settings_sync ();

  summary = lwn_opml_describe_import (&import);
  g_print ("%s\n", summary);
  if (import.over_limit > 0)
    /* Translators: the first %u is the most feeds one import adds, the second how many new feeds of the list it left for another import. */
    g_printerr (g_dngettext (GETTEXT_PACKAGE, "lwn-tray: one import adds at most %u feeds, so %u feed of the list was not added; import it again to add it\n",
                             "lwn-tray: one import adds at most %u feeds, so %u feeds of the list were not added; import it again to add them\n", import.over_limit),
                (guint) LWN_OPML_MAX_IMPORT, import.over_limit);
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
  g_autofree const char **feed_urls = NULL;
  const char *interval_text = NULL;
  guint64 interval = 0;

  if (g_variant_dict_lookup (options, "feed-url", "^a&s", &feed_urls))
    for (guint i = 0; feed_urls[i] != NULL; i++)
      {
        const char *scheme = g_uri_peek_scheme (feed_urls[i]);

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
          g_autofree char *given = one_line (interval_text);

          /* Translators: %s is the value given to --interval. */
          g_printerr (_ ("lwn-tray: the interval must be a positive number of seconds, not “%s”\n"), given);
          return 1;
        }
      if (interval < LWN_MIN_INTERVAL)
        g_printerr ("lwn-tray: %s\n", _ ("warning: intervals under 60 seconds are meant for testing"));
    }
  return -1;
}
