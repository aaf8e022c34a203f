/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON Feed 1.0 and 1.1 (https://www.jsonfeed.org/version/1.1/) read with json-glib. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "lwn-feed-parser.h"
#include "lwn-feed-parser-private.h"
#include "lwn-date.h"
#include "lwn-url.h"
#include "lwn-xml.h"

/* json-glib's parser recurses once per nesting level with no limit of its
 * own; a feed needs a handful, so anything deeper is refused up front. */
#define MAX_JSON_DEPTH 64

/* Checks nesting depth without parsing, skipping over strings. */
static gboolean
json_depth_ok (const char *data,
               gsize size)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < size; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      switch (c)
        {
          case '"':
            in_string = TRUE;
            break;
          case '[':
          case '{':
            if (++depth > MAX_JSON_DEPTH)
              return FALSE;
            break;
          case ']':
          case '}':
            if (depth > 0)
              depth--;
            break;
          default:
            break;
        }
    }

  return TRUE;
}

/* json-glib reports "<data>:LINE:COLUMN: message"; keep the line and the
 * message, in the same form as XML errors. */
static void
set_json_error (GError **error,
                const GError *json_error)
{
  /* json-glib quotes the offending text, and decodes a lone surrogate
   * escape such as "\ud83d" into bytes that are not UTF-8. */
  g_autofree char *valid = g_utf8_make_valid (json_error->message, -1);
  const char *message = valid;
  const char *p = message;
  guint64 line = 0;

  if (g_str_has_prefix (p, "<data>:"))
    {
      char *end = NULL;

      p += strlen ("<data>:");
      line = g_ascii_strtoull (p, &end, 10);
      if (end != NULL && end != p && *end == ':')
        {
          p = end + 1;
          while (g_ascii_isdigit (*p))
            p++;
          if (*p == ':')
            p++;
          while (*p == ' ')
            p++;
          message = p;
        }
      else
        line = 0;
    }

  if (line > 0)
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                 _ ("JSON error at line %u: %s"), (guint) MIN (line, G_MAXUINT), message);
  else
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                 _ ("JSON error: %s"), message);
}

/* A JSON string as UTF-8. The body was checked before parsing, but
 * json-glib decodes a lone surrogate escape ("\ud83d"), whose meaning RFC 8259
 * leaves open (https://www.rfc-editor.org/rfc/rfc8259#section-8.2), into
 * bytes that are not UTF-8, which must not reach the rest of the program. */
static char *
dup_json_string (JsonNode *node,
                 gsize max_bytes)
{
  g_autofree char *valid = g_utf8_make_valid (json_node_get_string (node), -1);

  return lwn_xml_strdup_capped (valid, max_bytes);
}

/* A member's string value, or NULL when it is absent or of another type. */
static char *
dup_string_member (JsonObject *object,
                   const char *name,
                   gsize max_bytes)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;
  node = json_object_get_member (object, name);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return dup_json_string (node, max_bytes);
}

static JsonObject *
get_object_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_get_object (node);
}

static JsonArray *
get_array_member (JsonObject *object,
                  const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  return json_node_get_array (node);
}

/* "authors": [{"name": …}] in 1.1, "author": {"name": …} in 1.0. */
static char *
dup_author (JsonObject *object)
{
  JsonArray *authors = get_array_member (object, "authors");
  JsonObject *author;

  if (authors != NULL)
    {
      for (guint i = 0; i < json_array_get_length (authors); i++)
        {
          JsonNode *node = json_array_get_element (authors, i);
          char *name;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;
          name = dup_string_member (json_node_get_object (node), "name", LWN_XML_MAX_SHORT);
          if (name != NULL)
            return name;
        }
    }

  author = get_object_member (object, "author");
  return author != NULL ? dup_string_member (author, "name", LWN_XML_MAX_SHORT) : NULL;
}

/* Ids are strings, but some feeds write numbers. */
static char *
dup_id (JsonObject *item)
{
  JsonNode *node = json_object_get_member (item, "id");

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return dup_json_string (node, LWN_XML_MAX_SHORT);
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  return NULL;
}

static char *
dup_escaped_member (JsonObject *object,
                    const char *name)
{
  g_autofree char *text = dup_string_member (object, name, LWN_XML_MAX_LONG);
  g_autofree char *escaped = NULL;

  if (text == NULL)
    return NULL;
  escaped = g_markup_escape_text (text, -1);
  return lwn_xml_strdup_capped (escaped, LWN_XML_MAX_LONG);
}

static void
parse_item (LwnFeedBuilder *builder,
            JsonObject *item)
{
  LwnItemDraft draft = { 0 };
  g_autofree char *published = dup_string_member (item, "date_published", LWN_XML_MAX_SHORT);
  g_autofree char *modified = dup_string_member (item, "date_modified", LWN_XML_MAX_SHORT);

  draft.id = dup_id (item);
  draft.title = dup_string_member (item, "title", LWN_XML_MAX_SHORT);
  draft.title_kind = LWN_TITLE_TEXT;
  draft.link = dup_string_member (item, "url", LWN_XML_MAX_SHORT);
  if (draft.link == NULL)
    draft.link = dup_string_member (item, "external_url", LWN_XML_MAX_SHORT);
  draft.author = dup_author (item);

  /* "summary" is plain text, as is "content_text". */
  draft.summary = dup_escaped_member (item, "summary");
  draft.content = dup_string_member (item, "content_html", LWN_XML_MAX_LONG);
  if (draft.content == NULL)
    draft.content = dup_escaped_member (item, "content_text");

  draft.date = lwn_date_parse_iso8601 (published);
  if (draft.date != NULL)
    draft.date_text = g_steal_pointer (&published);
  else
    {
      draft.date = lwn_date_parse_iso8601 (modified);
      draft.date_text = g_strdup (modified != NULL ? modified : published);
    }

  lwn_feed_builder_add_item (builder, &draft);
}

/* The code unit of the escape "\uXXXX" at @p, or -1 when @p holds no such escape. */
static int
escaped_code_unit (const char *p,
                   const char *end)
{
  int unit = 0;

  if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
    return -1;
  for (int i = 2; i < 6; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return -1;
      unit = unit * 16 + digit;
    }

  return unit;
}

/* RFC 8259 (section 8.2) leaves an escaped lone surrogate ("\ud83d" without
 * its pair) to the parser, and json-glib changed its mind: 1.6 (Debian 12)
 * decodes it to bytes that are not UTF-8, 1.10 (Debian 13) refuses the whole
 * document. A browser's JSON.parse takes it, and one bad character must not
 * cost the reader every other headline, so each lone surrogate becomes the
 * replacement character U+FFFD before json-glib sees the text. The escape
 * "\ufffd" is as long as the one it replaces, so json-glib's line and column
 * numbers in an error still point into the document as served.
 *
 * Returns: (transfer full) (nullable): a repaired copy of @data, or %NULL
 *   when it holds no lone surrogate */
static char *
dup_without_lone_surrogates (const char *data,
                             gsize size)
{
  const char *end = data + size;
  char *copy = NULL;
  gboolean in_string = FALSE;

  for (const char *p = data; p < end; p++)
    {
      int unit;

      if (!in_string)
        {
          in_string = *p == '"';
          continue;
        }
      if (*p == '"')
        {
          in_string = FALSE;
          continue;
        }
      if (*p != '\\')
        continue;

      unit = escaped_code_unit (p, end);
      if (unit < 0xD800 || unit > 0xDFFF)
        {
          /* Any other escape: skip the character it escapes. */
          p++;
          continue;
        }

      if (unit <= 0xDBFF)
        {
          int next = escaped_code_unit (p + 6, end);

          if (next >= 0xDC00 && next <= 0xDFFF)
            {
              /* A proper pair: skip both escapes. */
              p += 11;
              continue;
            }
        }

      if (copy == NULL)
        copy = g_memdup2 (data, size);
      memcpy (copy + (p - data), "\\ufffd", 6);
      p += 5;
    }

  return copy;
}

/**
 * lwn_feed_parser_parse_json:
 * @body: the document
 * @document_url: (nullable): the URL it came from
 * @error: return location for a #GError in %LWN_PARSE_ERROR
 *
 * Returns: (transfer full) (nullable): the feed, or %NULL with @error set
 */
LwnFeed *
lwn_feed_parser_parse_json (GBytes *body,
                            const char *document_url,
                            GError **error)
{
  /* Not an immutable parser: json-glib 1.10 (Debian 13) can fail its own
   * assertion in json_parser_get_root() on one of those, after a load it
   * let succeed, and nothing here keeps a node past the parse. */
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) json_error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *home_page = NULL;
  g_autofree char *repaired = NULL;
  LwnFeedBuilder builder;
  JsonNode *root;
  JsonObject *object;
  JsonArray *items;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);

  /* JSON is UTF-8 (RFC 8259, section 8.1); a BOM may be ignored. */
  if (size >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      size -= 3;
    }

  if (size > G_MAXSSIZE || !g_utf8_validate (data, size, NULL))
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_ENCODING,
                           _ ("The JSON feed is not valid UTF-8"));
      return NULL;
    }

  if (!json_depth_ok (data, size))
    {
      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   _ ("JSON error: nested deeper than %d levels"), MAX_JSON_DEPTH);
      return NULL;
    }

  repaired = dup_without_lone_surrogates (data, size);
  if (repaired != NULL)
    data = repaired;

  if (!json_parser_load_from_data (parser, data, (gssize) size, &json_error))
    {
      set_json_error (error, json_error);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                           _ ("Not a JSON Feed (the document is not a JSON object)"));
      return NULL;
    }

  object = json_node_get_object (root);
  version = dup_string_member (object, "version", LWN_XML_MAX_SHORT);
  if (version == NULL || !g_str_has_prefix (version, "https://jsonfeed.org/version/"))
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                           _ ("Not a JSON Feed (no jsonfeed.org version)"));
      return NULL;
    }

  lwn_feed_builder_init (&builder, document_url);
  builder.title = dup_string_member (object, "title", LWN_XML_MAX_SHORT);
  builder.title_kind = LWN_TITLE_TEXT;
  builder.author = dup_author (object);
  home_page = dup_string_member (object, "home_page_url", LWN_XML_MAX_SHORT);
  if (home_page != NULL)
    builder.link = lwn_url_resolve (document_url, g_strstrip (home_page));

  items = get_array_member (object, "items");
  for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
    {
      JsonNode *node = json_array_get_element (items, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        parse_item (&builder, json_node_get_object (node));
    }

  return lwn_feed_builder_finish (&builder);
}
