/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the feeds out of an OPML subscription list, nested outlines flattened, and writes a list as OPML 2.0. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/tree.h>

#include "lwn-feed-parser.h"
#include "lwn-opml.h"
#include "lwn-str-hash.h"
#include "lwn-xml.h"

/* The domain's name has dashes, which clang-format would space. */
/* clang-format off */
G_DEFINE_QUARK (lwn-opml-error-quark, lwn_opml_error)
/* clang-format on */

/**
 * lwn_opml_feed_new:
 * @url: the feed's address
 * @title: (nullable): what the list calls the feed
 * @site_url: (nullable): the web page the feed belongs to
 *
 * Returns: (transfer full): a new #LwnOpmlFeed holding copies of its arguments
 */
LwnOpmlFeed *
lwn_opml_feed_new (const char *url,
                   const char *title,
                   const char *site_url)
{
  LwnOpmlFeed *feed;

  g_return_val_if_fail (url != NULL, NULL);

  feed = g_new0 (LwnOpmlFeed, 1);
  feed->url = g_strdup (url);
  feed->title = g_strdup (title);
  feed->site_url = g_strdup (site_url);
  return feed;
}

void
lwn_opml_feed_free (LwnOpmlFeed *feed)
{
  if (feed == NULL)
    return;

  g_free (feed->url);
  g_free (feed->title);
  g_free (feed->site_url);
  g_free (feed);
}

static gboolean
element_is (const xmlNode *node,
            const char *name)
{
  return node->type == XML_ELEMENT_NODE && xmlStrEqual (node->name, (const xmlChar *) name);
}

/* Readers before OPML 1.0 settled on camel case wrote "xmlurl" or
 * "xmlURL"; Liferea and others still read them. */
static char *
dup_attr_any_case (const xmlNode *node,
                   const char *name)
{
  for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    if (attr->ns == NULL && g_ascii_strcasecmp ((const char *) attr->name, name) == 0)
      return lwn_xml_node_dup_attr (node, NULL, (const char *) attr->name);
  return NULL;
}

static char *
dup_trimmed_attr (const xmlNode *node,
                  const char *name)
{
  g_autofree char *value = dup_attr_any_case (node, name);

  if (value == NULL)
    return NULL;
  g_strstrip (value);
  return *value != '\0' ? g_steal_pointer (&value) : NULL;
}

/* The address to follow for an outline's xmlUrl: http and https as given,
 * and the "feed:" scheme some browsers and exporters write ("feed://host/…"
 * for http, "feed:https://host/…") as the address it stands for. */
static char *
followable_url (const char *value)
{
  g_autoptr (GUri) uri = NULL;
  const char *candidate = value;
  g_autofree char *rewritten = NULL;
  const char *scheme;

  if (g_ascii_strncasecmp (value, "feed:", 5) == 0)
    {
      const char *rest = value + 5;

      if (g_str_has_prefix (rest, "//"))
        candidate = rewritten = g_strconcat ("http:", rest, NULL);
      else
        candidate = rest;
    }

  uri = g_uri_parse (candidate, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL)
    return NULL;
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return NULL;
  if (g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return NULL;
  return g_uri_to_string (uri);
}

/* The outline's name: OPML 2.0 requires "text"; many exporters put the same
 * in "title", and some only there. */
static char *
dup_outline_title (const xmlNode *outline)
{
  char *title = dup_trimmed_attr (outline, "title");

  return title != NULL ? title : dup_trimmed_attr (outline, "text");
}

/* Adds the feed @outline names, if any, to @feeds. Returns whether it named one
 * (followable or not). */
static gboolean
take_outline (const xmlNode *outline,
              GPtrArray *feeds,
              GHashTable *seen,
              guint *n_skipped)
{
  g_autofree char *xml_url = dup_trimmed_attr (outline, "xmlUrl");
  g_autofree char *url = NULL;
  g_autofree char *title = NULL;
  g_autofree char *site_url = NULL;
  g_autofree char *html_url = NULL;

  if (xml_url == NULL)
    return FALSE;

  url = followable_url (xml_url);
  if (url == NULL)
    {
      (*n_skipped)++;
      return TRUE;
    }
  if (!g_hash_table_add (seen, g_strdup (url)))
    return TRUE;

  title = dup_outline_title (outline);
  html_url = dup_trimmed_attr (outline, "htmlUrl");
  if (html_url != NULL)
    site_url = followable_url (html_url);
  g_ptr_array_add (feeds, lwn_opml_feed_new (url, title, site_url));
  return TRUE;
}

/* The next element after @node in document order within @body, entering
 * @node's children only when @enter: a walk without recursion, since a list
 * may nest folders as deep as libxml2 lets it. */
static const xmlNode *
next_in_body (const xmlNode *node,
              const xmlNode *body,
              gboolean enter)
{
  if (enter && node->children != NULL)
    return node->children;

  while (node != body)
    {
      if (node->next != NULL)
        return node->next;
      node = node->parent;
    }
  return NULL;
}

static const xmlNode *
find_child (const xmlNode *parent,
            const char *name)
{
  for (const xmlNode *child = parent->children; child != NULL; child = child->next)
    if (element_is (child, name))
      return child;
  return NULL;
}

/**
 * lwn_opml_parse:
 * @data: an OPML document (1.0 or 2.0)
 * @n_skipped: (out) (optional): how many outlines named a feed that cannot
 *   be followed (not http or https)
 * @error: return location for a #GError in %LWN_OPML_ERROR
 *
 * Reads every outline with an xmlUrl, at any depth: folders are flattened
 * into one list in document order, and a feed listed twice is kept once,
 * where it first appears. Each keeps its title (or text) and htmlUrl.
 * libxml2 reads the file as lwn_xml_read() reads feeds: no network, no DTD,
 * a budget on entities.
 *
 * Returns: (transfer full) (element-type LwnOpmlFeed): the feeds, or %NULL
 *   with @error set when the document is not OPML or names no followable
 *   feed
 */
GPtrArray *
lwn_opml_parse (GBytes *data,
                guint *n_skipped,
                GError **error)
{
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GError) local_error = NULL;
  xmlDoc *doc;
  const xmlNode *root;
  const xmlNode *body;
  guint skipped = 0;
  guint n_outlines = 0;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  doc = lwn_xml_read (data, NULL, NULL, NULL, NULL, &local_error);
  if (doc == NULL)
    {
      if (g_error_matches (local_error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_EMPTY))
        g_set_error_literal (error, LWN_OPML_ERROR, LWN_OPML_ERROR_MALFORMED, _ ("The file is empty"));
      else
        g_set_error_literal (error, LWN_OPML_ERROR, LWN_OPML_ERROR_MALFORMED, local_error->message);
      return NULL;
    }

  root = xmlDocGetRootElement (doc);
  body = root != NULL && element_is (root, "opml") ? find_child (root, "body") : NULL;
  if (body == NULL)
    {
      lwn_xml_doc_free (doc);
      g_set_error_literal (error, LWN_OPML_ERROR, LWN_OPML_ERROR_NOT_OPML,
                           _ ("The file is not an OPML subscription list"));
      return NULL;
    }

  feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  seen = lwn_str_hash_table_new (g_free, NULL);
  for (const xmlNode *node = next_in_body (body, body, TRUE); node != NULL;)
    {
      gboolean is_outline = element_is (node, "outline");

      if (is_outline && take_outline (node, feeds, seen, &skipped))
        n_outlines++;
      node = next_in_body (node, body, is_outline);
    }

  if (!lwn_xml_check_entities (doc, &local_error))
    {
      lwn_xml_doc_free (doc);
      g_set_error_literal (error, LWN_OPML_ERROR, LWN_OPML_ERROR_MALFORMED, local_error->message);
      return NULL;
    }
  lwn_xml_doc_free (doc);

  if (feeds->len == 0)
    {
      if (n_outlines == 0)
        g_set_error_literal (error, LWN_OPML_ERROR, LWN_OPML_ERROR_NO_FEEDS,
                             _ ("The list names no feed"));
      else
        g_set_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_NO_FEEDS,
                     g_dngettext (GETTEXT_PACKAGE, "The list names %u feed, but not with an http or https address",
                                  "The list names %u feeds, but none with an http or https address", n_outlines),
                     n_outlines);
      return NULL;
    }

  if (n_skipped != NULL)
    *n_skipped = skipped;
  return g_steal_pointer (&feeds);
}

/* RFC 822 dates, as OPML 2.0 asks, in English whatever the locale. */
static char *
format_rfc822 (GDateTime *when)
{
  static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
  static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
  g_autoptr (GDateTime) utc = g_date_time_to_utc (when);

  return g_strdup_printf ("%s, %02d %s %04d %02d:%02d:%02d GMT",
                          days[g_date_time_get_day_of_week (utc) - 1], g_date_time_get_day_of_month (utc),
                          months[g_date_time_get_month (utc) - 1], g_date_time_get_year (utc),
                          g_date_time_get_hour (utc), g_date_time_get_minute (utc), g_date_time_get_second (utc));
}

/**
 * lwn_opml_write:
 * @feeds: (element-type LwnOpmlFeed): the feeds, in order
 * @created: (nullable): the time to give as the list's dateCreated
 *
 * Writes @feeds as an OPML 2.0 subscription list, one outline of type "rss"
 * per feed (readers use that type for Atom and JSON Feed too), in UTF-8.
 *
 * Returns: (transfer full): the document
 */
char *
lwn_opml_write (GPtrArray *feeds,
                GDateTime *created)
{
  xmlDoc *doc;
  xmlNode *root;
  xmlNode *head;
  xmlNode *body;
  xmlChar *text = NULL;
  int length = 0;
  char *result;

  g_return_val_if_fail (feeds != NULL, NULL);

  doc = xmlNewDoc ((const xmlChar *) "1.0");
  root = xmlNewDocNode (doc, NULL, (const xmlChar *) "opml", NULL);
  xmlDocSetRootElement (doc, root);
  xmlNewProp (root, (const xmlChar *) "version", (const xmlChar *) "2.0");

  head = xmlNewChild (root, NULL, (const xmlChar *) "head", NULL);
  /* Translators: the title of a list of feeds exported as OPML. */
  xmlNewTextChild (head, NULL, (const xmlChar *) "title", (const xmlChar *) _ ("lwn-tray feeds"));
  if (created != NULL)
    {
      g_autofree char *date = format_rfc822 (created);

      xmlNewTextChild (head, NULL, (const xmlChar *) "dateCreated", (const xmlChar *) date);
    }

  body = xmlNewChild (root, NULL, (const xmlChar *) "body", NULL);
  for (guint i = 0; i < feeds->len; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);
      const char *name = feed->title != NULL && *feed->title != '\0' ? feed->title : feed->url;
      xmlNode *outline = xmlNewChild (body, NULL, (const xmlChar *) "outline", NULL);

      xmlNewProp (outline, (const xmlChar *) "type", (const xmlChar *) "rss");
      xmlNewProp (outline, (const xmlChar *) "text", (const xmlChar *) name);
      xmlNewProp (outline, (const xmlChar *) "title", (const xmlChar *) name);
      xmlNewProp (outline, (const xmlChar *) "xmlUrl", (const xmlChar *) feed->url);
      if (feed->site_url != NULL)
        xmlNewProp (outline, (const xmlChar *) "htmlUrl", (const xmlChar *) feed->site_url);
    }

  xmlDocDumpFormatMemoryEnc (doc, &text, &length, "UTF-8", 1);
  xmlFreeDoc (doc);
  result = g_strndup ((const char *) text, length);
  xmlFree (text);
  return result;
}
