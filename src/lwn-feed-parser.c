/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Turns a fetched body into an LwnFeed, here or in a worker thread: picks the format and hands the document to it. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-feed-builder.h"
#include "lwn-feed-parser-error.h"
#include "lwn-feed-parser.h"
#include "lwn-feed-parser-private.h"
#include "lwn-xml.h"

typedef enum
{
  FORMAT_UNKNOWN,
  FORMAT_RSS,
  FORMAT_ATOM,
  FORMAT_NONE,
} XmlFormat;

/* One XML parse: the format, known from the root element, and the feed
 * its items are added to as they stream in. */
typedef struct
{
  XmlFormat format;
  LwnFeedBuilder builder;
} XmlRun;

static XmlFormat
format_of (const xmlNode *root)
{
  if (root == NULL)
    return FORMAT_NONE;
  if (lwn_feed_parser_rss_accepts (root))
    return FORMAT_RSS;
  if (lwn_feed_parser_atom_accepts (root))
    return FORMAT_ATOM;
  return FORMAT_NONE;
}

static gboolean
element_done_cb (const xmlNode *element,
                 gpointer user_data)
{
  XmlRun *run = user_data;

  if (run->format == FORMAT_UNKNOWN)
    run->format = format_of (xmlDocGetRootElement (element->doc));

  switch (run->format)
    {
      case FORMAT_RSS:
        return lwn_feed_parser_rss_take_item (&run->builder, element);
      case FORMAT_ATOM:
        return lwn_feed_parser_atom_take_item (&run->builder, element);
      case FORMAT_UNKNOWN:
      case FORMAT_NONE:
      default:
        return FALSE;
    }
}

/* Skips a UTF-8 byte order mark and ASCII white space. */
static const char *
skip_bom_and_space (const char *p,
                    const char *end)
{
  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

/* Whether the body starts, after any XML declaration, comments and white
 * space, with an HTML doctype or <html>: a web page rather than a feed. */
static gboolean
looks_like_html (const char *p,
                 const char *end)
{
  for (guint rounds = 0; rounds < 32; rounds++)
    {
      const char *close = NULL;

      p = skip_bom_and_space (p, end);
      if (end - p >= 4 && memcmp (p, "<!--", 4) == 0)
        close = g_strstr_len (p, end - p, "-->");
      else if (end - p >= 2 && memcmp (p, "<?", 2) == 0)
        close = g_strstr_len (p, end - p, "?>");
      else
        break;
      if (close == NULL)
        return FALSE;
      p = close + 2 + (*close == '-');
    }

  if (end - p >= 14 && g_ascii_strncasecmp (p, "<!doctype html", 14) == 0)
    return TRUE;
  return end - p >= 5 && g_ascii_strncasecmp (p, "<html", 5) == 0 && (end - p == 5 || !g_ascii_isalnum (p[5]));
}

/* "application/rss+xml; charset=ISO-8859-1" → media type and charset. */
static void
parse_content_type (const char *content_type,
                    char **media_type,
                    char **charset)
{
  g_auto (GStrv) parts = NULL;

  *media_type = NULL;
  *charset = NULL;
  if (content_type == NULL)
    return;

  parts = g_strsplit (content_type, ";", -1);
  if (parts[0] == NULL)
    return;
  *media_type = g_ascii_strdown (g_strstrip (parts[0]), -1);

  for (guint i = 1; parts[i] != NULL; i++)
    {
      char *param = g_strstrip (parts[i]);
      char *value;
      gsize len;

      if (g_ascii_strncasecmp (param, "charset", 7) != 0)
        continue;
      value = param + 7;
      while (*value == ' ' || *value == '\t')
        value++;
      if (*value != '=')
        continue;
      value = g_strstrip (value + 1);
      len = strlen (value);
      if (len >= 2 && (value[0] == '"' || value[0] == '\'') && value[len - 1] == value[0])
        {
          value[len - 1] = '\0';
          value++;
        }
      if (*value != '\0')
        {
          g_free (*charset);
          *charset = g_strdup (value);
        }
    }
}

static void
set_not_a_feed (GError **error,
                const xmlNode *root)
{
  g_autofree char *root_name = lwn_parse_error_dup_quoted ((const char *) root->name);

  if (lwn_feed_parser_rss_accepts (root))
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                 _ ("Not an RSS feed (<%s> holds no channel and no items)"), root_name);
  else
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                 _ ("Not an RSS or Atom feed (root element <%s>)"), root_name);
}

/* Reads the feed's own elements once the items are in, and checks that
 * reading them all stayed within the entity budget. */
static LwnFeed *
finish_xml (XmlRun *run,
            xmlDoc *doc,
            GError **error)
{
  const xmlNode *root = xmlDocGetRootElement (doc);
  gboolean is_feed = FALSE;

  if (root == NULL)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                           _ ("Not an RSS or Atom feed (there is no root element)"));
      return NULL;
    }

  if (run->format == FORMAT_UNKNOWN)
    run->format = format_of (root);
  if (run->format == FORMAT_RSS)
    is_feed = lwn_feed_parser_rss_read_feed (&run->builder, root);
  else if (run->format == FORMAT_ATOM)
    is_feed = lwn_feed_parser_atom_read_feed (&run->builder, root);

  if (!is_feed)
    {
      set_not_a_feed (error, root);
      return NULL;
    }
  if (!lwn_xml_check_entities (doc, error))
    return NULL;
  return lwn_feed_builder_finish (&run->builder);
}

static LwnFeed *
parse_xml (GBytes *body,
           const char *media_type,
           const char *charset,
           const char *document_url,
           GError **error)
{
  g_autoptr (GError) local_error = NULL;
  XmlRun run = { FORMAT_UNKNOWN };
  xmlDoc *doc;
  LwnFeed *feed;

  lwn_feed_builder_init (&run.builder, document_url);
  doc = lwn_xml_read (body, charset, document_url, element_done_cb, &run, &local_error);
  if (doc == NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      lwn_feed_builder_clear (&run.builder);
      if (g_strcmp0 (media_type, "text/html") == 0 || looks_like_html (data, data + size))
        {
          g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                               _ ("Not an RSS or Atom feed (this is a web page)"));
          return NULL;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  feed = finish_xml (&run, doc, error);
  lwn_feed_builder_clear (&run.builder);
  lwn_xml_doc_free (doc);
  return feed;
}

/**
 * lwn_feed_parse:
 * @body: the bytes of the document
 * @content_type: (nullable): the HTTP Content-Type it came with; its
 *   charset parameter outranks the document's own XML declaration, and
 *   "application/feed+json" or "application/json" select JSON Feed, as
 *   does a body starting with "{" or "["
 * @document_url: (nullable): the URL the document came from, used to
 *   resolve relative links and as a title of last resort
 * @error: return location for a #GError in %LWN_PARSE_ERROR
 *
 * Parses RSS 0.90, 0.91, 0.92, 1.0 and 2.0, Atom 0.3 and 1.0, and JSON Feed
 * 1.0 and 1.1. Nothing is loaded from the network or the file system:
 * external DTDs and entities are refused, and internal entities are
 * expanded within a budget that refuses a document whose references would
 * expand far beyond its own size. Items are handed over as the document is
 * read, and the tree they came from is freed at once.
 * Safe to call from several threads at once.
 *
 * Returns: (transfer full) (nullable): the feed, possibly with no items, or
 *   %NULL with @error set: %LWN_PARSE_ERROR_EMPTY, %LWN_PARSE_ERROR_MALFORMED
 *   (the message names the line), %LWN_PARSE_ERROR_NOT_A_FEED or
 *   %LWN_PARSE_ERROR_ENCODING
 */
LwnFeed *
lwn_feed_parse (GBytes *body,
                const char *content_type,
                const char *document_url,
                GError **error)
{
  g_autofree char *media_type = NULL;
  g_autofree char *charset = NULL;
  gsize size;
  const char *data;
  const char *start;

  g_return_val_if_fail (body != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (body, &size);
  start = data != NULL ? skip_bom_and_space (data, data + size) : NULL;
  if (start == NULL || start == data + size)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_EMPTY,
                           _ ("The feed is empty"));
      return NULL;
    }

  parse_content_type (content_type, &media_type, &charset);

  if (g_strcmp0 (media_type, "application/feed+json") == 0 || g_strcmp0 (media_type, "application/json") == 0 || *start == '{' || *start == '[')
    return lwn_feed_parser_parse_json (body, document_url, error);

  return parse_xml (body, media_type, charset, document_url, error);
}

typedef struct
{
  GBytes *body;
  char *content_type;
  char *document_url;
} ParseData;

static char parse_source_tag;

static void
parse_data_free (ParseData *data)
{
  g_bytes_unref (data->body);
  g_free (data->content_type);
  g_free (data->document_url);
  g_free (data);
}

static void
parse_thread (GTask *task,
              gpointer source_object,
              gpointer task_data,
              GCancellable *cancellable)
{
  ParseData *data = task_data;
  GError *error = NULL;
  LwnFeed *feed;

  feed = lwn_feed_parse (data->body, data->content_type, data->document_url, &error);
  if (feed != NULL)
    g_task_return_pointer (task, feed, (GDestroyNotify) lwn_feed_unref);
  else
    g_task_return_error (task, error);
}

/**
 * lwn_feed_parse_async:
 * @body: a feed document, e.g. the cached copy of the last good response
 * @content_type: (nullable): its Content-Type
 * @document_url: (nullable): the URL it came from, for relative links
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Runs lwn_feed_parse() in a worker thread.
 */
void
lwn_feed_parse_async (GBytes *body,
                      const char *content_type,
                      const char *document_url,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  ParseData *data;

  g_return_if_fail (body != NULL);

  data = g_new0 (ParseData, 1);
  data->body = g_bytes_ref (body);
  data->content_type = g_strdup (content_type);
  data->document_url = g_strdup (document_url);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &parse_source_tag);
  g_task_set_task_data (task, data, (GDestroyNotify) parse_data_free);
  g_task_run_in_thread (task, parse_thread);
}

/**
 * lwn_feed_parse_finish:
 * @result: the #GAsyncResult passed to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the feed, or %NULL with @error set
 */
LwnFeed *
lwn_feed_parse_finish (GAsyncResult *result,
                       GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &parse_source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
