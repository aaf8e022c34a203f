/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the feeds out of an OPML subscription list, nested outlines flattened, and writes a list as OPML 2.0.
 * A list comes from a stranger: its size, its addresses (lwn-url's feed check, the feeds editor's too) and its
 * titles are bounded and cleaned on the way in, and what goes out is well-formed whatever the settings hold.
 * It calls lwn-xml, lwn-url and lwn-text; the reader settings, the command line and the feeds editor call it. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/tree.h>

#include "lwn-feed-parser.h"
#include "lwn-opml.h"
#include "lwn-str-hash.h"
#include "lwn-text.h"
#include "lwn-url.h"
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

/* The address to follow for an outline's xmlUrl or htmlUrl, or %NULL when it
 * fails lwn_url_feed_problem(), the check the feeds editor makes. The
 * "feed:" scheme some browsers and exporters write ("feed://host/…" for
 * http, "feed:https://host/…") stands for the address after it. */
static char *
followable_url (const char *value)
{
  g_autoptr (GUri) uri = NULL;
  g_autofree char *rewritten = NULL;
  g_autofree char *normalized = NULL;
  const char *candidate = value;
  const char *scheme;
  const char *host;
  const char *path;

  if (g_ascii_strncasecmp (value, "feed:", 5) == 0)
    {
      const char *rest = value + 5;

      if (g_str_has_prefix (rest, "//"))
        candidate = rewritten = g_strconcat ("http:", rest, NULL);
      else
        candidate = rest;
    }

  /* An address that passes as it is stays as it is, so that what
   * lwn_opml_write() wrote reads back the same. */
  if (lwn_url_feed_problem (candidate) == NULL)
    return g_strdup (candidate);

  /* Lists written by hand or by lax exporters hold spaces or letters
   * beyond ASCII in a path, which GUri's relaxed parse percent-encodes.
   * A host is printed back decoded, so the result is checked again. */
  uri = g_uri_parse (candidate, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL)
    return NULL;
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  path = g_uri_get_path (uri);
  if ((g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) || host == NULL || *host == '\0')
    return NULL;
  /* The relaxed parse of "https://blog;x/" gives the host "blog" and the
   * path ";x/", which g_uri_to_string() refuses with a critical: a path
   * after a host must be empty or start with "/" (RFC 3986, section 3.3). */
  if (*path != '\0' && *path != '/')
    return NULL;
  normalized = g_uri_to_string (uri);
  return lwn_url_feed_problem (normalized) == NULL ? g_steal_pointer (&normalized) : NULL;
}

/* A title goes into labels, tooltips, the settings and the next export, so
 * this keeps one line of valid UTF-8 that XML 1.0 can hold: C0, DEL and C1
 * control characters and U+FFFE/U+FFFF are dropped, and each run of white
 * space (tabs and newlines too) becomes one space.
 *
 * Returns: (nullable): the folded text, or %NULL when nothing is left */
static char *
fold_text (const char *raw)
{
  g_autofree char *valid = NULL;
  g_autoptr (GString) out = NULL;
  gboolean pending_space = FALSE;

  if (raw == NULL)
    return NULL;

  valid = g_utf8_make_valid (raw, -1);
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == 0xA0 || g_unichar_isspace (c))
        {
          pending_space = TRUE;
          continue;
        }
      if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF)
        continue;
      if (pending_space && out->len > 0)
        g_string_append_c (out, ' ');
      pending_space = FALSE;
      g_string_append_unichar (out, c);
    }

  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/* fold_text(), cut at LWN_OPML_MAX_TITLE_CHARS characters. Cleaning a clean
 * text changes nothing, which keeps round trips stable. */
static char *
clean_text (const char *raw)
{
  g_autofree char *folded = fold_text (raw);

  return folded != NULL ? lwn_text_ellipsize (folded, LWN_OPML_MAX_TITLE_CHARS) : NULL;
}

/* The outline's name: OPML 2.0 requires "text"; many exporters put the same
 * in "title", and some only there. A name that is only the feed's address
 * is no name: lwn_opml_write() writes the address as the text of a feed
 * that has none, and reading it back must not make one up. */
static char *
dup_outline_title (const xmlNode *outline,
                   const char *url)
{
  g_autofree char *raw_title = dup_attr_any_case (outline, "title");
  g_autofree char *title = fold_text (raw_title);

  if (title == NULL)
    {
      g_autofree char *raw_text = dup_attr_any_case (outline, "text");

      title = fold_text (raw_text);
    }
  /* Compared before the cut: an address may be longer than a title. */
  if (title == NULL || g_str_equal (title, url))
    return NULL;
  return lwn_text_ellipsize (title, LWN_OPML_MAX_TITLE_CHARS);
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

  title = dup_outline_title (outline, url);
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
 * lwn_opml_check_size:
 * @size: the size of an OPML document, in bytes
 * @error: return location for a #GError in %LWN_OPML_ERROR
 *
 * Lets a caller refuse a file before reading it, with the message
 * lwn_opml_parse() would give.
 *
 * Returns: %TRUE when @size is at most %LWN_OPML_MAX_BYTES, else %FALSE
 *   with @error set to %LWN_OPML_ERROR_TOO_LARGE
 */
gboolean
lwn_opml_check_size (guint64 size,
                     GError **error)
{
  g_autofree char *size_text = NULL;
  g_autofree char *limit_text = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (size <= LWN_OPML_MAX_BYTES)
    return TRUE;

  /* With the bytes: a file just over the cap would read "8.0 MiB" twice. */
  size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
  limit_text = g_format_size_full (LWN_OPML_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
  g_set_error (error, LWN_OPML_ERROR, LWN_OPML_ERROR_TOO_LARGE,
               /* Translators: the first %s is the size of a file, the second the largest subscription list read, such as "8.0 MiB (8388608 bytes)". */
               _ ("The file is %s, and a subscription list may be at most %s"), size_text, limit_text);
  return FALSE;
}

/**
 * lwn_opml_parse:
 * @data: an OPML document (1.0 or 2.0), at most %LWN_OPML_MAX_BYTES long
 * @n_skipped: (out) (optional): how many outlines named a feed whose address
 *   fails lwn_url_feed_problem() (not http or https, no clean host, too long)
 * @error: return location for a #GError in %LWN_OPML_ERROR
 *
 * Reads every outline with an xmlUrl, at any depth: folders are flattened
 * into one list in document order, and a feed listed twice is kept once,
 * where it first appears. Each keeps its title (or text), cleaned of
 * control characters and cut to %LWN_OPML_MAX_TITLE_CHARS characters, and
 * its htmlUrl when that passes the same check as the feed's address.
 * libxml2 reads the file as lwn_xml_read() reads feeds: no network, no DTD,
 * a budget on entities. This takes no lock and touches no shared state, so
 * it may run in any thread; lwn_opml_parse_async() runs it in a worker.
 *
 * Returns: (transfer full) (element-type LwnOpmlFeed): the feeds, or %NULL
 *   with @error set when the document is too large, is not OPML or names
 *   no followable feed
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

  if (!lwn_opml_check_size (g_bytes_get_size (data), error))
    return NULL;

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
                     g_dngettext (GETTEXT_PACKAGE, "The list names %u feed, but not with a usable http or https address",
                                  "The list names %u feeds, but none with a usable http or https address", n_outlines),
                     n_outlines);
      return NULL;
    }

  if (n_skipped != NULL)
    *n_skipped = skipped;
  return g_steal_pointer (&feeds);
}

/* Names the tasks lwn_opml_parse_async() starts; its address is what matters. */
static char parse_source_tag;

/* What the worker reads and what it leaves for lwn_opml_parse_finish(). */
typedef struct
{
  GBytes *data;
  guint n_skipped; /* written by the worker; read only once it has returned the feeds */
} ParseData;

static void
parse_data_free (ParseData *data)
{
  g_bytes_unref (data->data);
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
  GPtrArray *feeds;

  if (g_task_return_error_if_cancelled (task))
    return;

  feeds = lwn_opml_parse (data->data, &data->n_skipped, &error);
  if (feeds == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, feeds, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * lwn_opml_parse_async:
 * @data: an OPML document
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: for @callback
 *
 * Runs lwn_opml_parse() in a worker thread: a list of several megabytes
 * takes long enough to freeze a window. Cancelling @cancellable calls
 * @callback at once with %G_IO_ERROR_CANCELLED; the worker finishes on its
 * own and its result is dropped.
 */
void
lwn_opml_parse_async (GBytes *data,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  ParseData *parse_data;

  g_return_if_fail (data != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &parse_source_tag);
  parse_data = g_new0 (ParseData, 1);
  parse_data->data = g_bytes_ref (data);
  g_task_set_task_data (task, parse_data, (GDestroyNotify) parse_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, parse_thread);
}

/**
 * lwn_opml_parse_finish:
 * @result: the result given to the callback of lwn_opml_parse_async()
 * @n_skipped: (out) (optional): as for lwn_opml_parse()
 * @error: return location for a #GError in %LWN_OPML_ERROR, or
 *   %G_IO_ERROR_CANCELLED
 *
 * Returns: (transfer full) (element-type LwnOpmlFeed): the feeds, or %NULL
 *   with @error set
 */
GPtrArray *
lwn_opml_parse_finish (GAsyncResult *result,
                       guint *n_skipped,
                       GError **error)
{
  GPtrArray *feeds;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &parse_source_tag, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  feeds = g_task_propagate_pointer (G_TASK (result), error);
  if (feeds != NULL && n_skipped != NULL)
    *n_skipped = ((const ParseData *) g_task_get_task_data (G_TASK (result)))->n_skipped;
  return feeds;
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
 * The list is well-formed XML whatever @feeds holds, and lwn_opml_parse()
 * reads it back as the same list:
 *
 * - titles are cleaned as lwn_opml_parse() cleans them (control characters
 *   and what else XML 1.0 cannot hold dropped, white space folded, invalid
 *   UTF-8 repaired, at most %LWN_OPML_MAX_TITLE_CHARS characters), and
 *   libxml2 escapes the rest; a feed without a title is named by its
 *   address, which the reader does not take as a title;
 * - a feed whose address fails lwn_url_feed_problem() is left out, with a
 *   message in the log: the settings can hold any string (gsettings writes
 *   them unchecked), such an address could not be followed anyway, and no
 *   repair of it could be trusted to name the same feed;
 * - a site address that fails the same check is left out of its outline;
 * - a feed listed twice is written once, where it first appears.
 *
 * Returns: (transfer full): the document
 */
char *
lwn_opml_write (GPtrArray *feeds,
                GDateTime *created)
{
  g_autoptr (GHashTable) written = NULL;
  xmlDoc *doc;
  xmlNode *root;
  xmlNode *head;
  xmlNode *body;
  xmlChar *text = NULL;
  int length = 0;
  guint left_out = 0;
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

  written = lwn_str_hash_table_new (NULL, NULL);
  body = xmlNewChild (root, NULL, (const xmlChar *) "body", NULL);
  for (guint i = 0; i < feeds->len; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);
      g_autofree char *title = NULL;
      const char *name;
      xmlNode *outline;

      if (lwn_url_feed_problem (feed->url) != NULL)
        {
          left_out++;
          continue;
        }
      if (!g_hash_table_add (written, feed->url))
        continue;

      title = clean_text (feed->title);
      name = title != NULL ? title : feed->url;
      outline = xmlNewChild (body, NULL, (const xmlChar *) "outline", NULL);
      xmlNewProp (outline, (const xmlChar *) "type", (const xmlChar *) "rss");
      xmlNewProp (outline, (const xmlChar *) "text", (const xmlChar *) name);
      xmlNewProp (outline, (const xmlChar *) "title", (const xmlChar *) name);
      xmlNewProp (outline, (const xmlChar *) "xmlUrl", (const xmlChar *) feed->url);
      if (feed->site_url != NULL && lwn_url_feed_problem (feed->site_url) == NULL)
        xmlNewProp (outline, (const xmlChar *) "htmlUrl", (const xmlChar *) feed->site_url);
    }

  if (left_out > 0)
    g_message ("Feeds left out of the OPML list because their address cannot be followed: %u", left_out);

  xmlDocDumpFormatMemoryEnc (doc, &text, &length, "UTF-8", 1);
  xmlFreeDoc (doc);
  result = g_strndup ((const char *) text, length);
  xmlFree (text);
  return result;
}

/**
 * lwn_opml_describe_import:
 * @import: what an import did
 *
 * Returns: (transfer full): one line saying so, such as "Added 3 feeds;
 *   1 was followed already", which says plainly when the list was longer
 *   than one import adds (%LWN_OPML_MAX_IMPORT)
 */
char *
lwn_opml_describe_import (const LwnOpmlImport *import)
{
  GString *text;

  g_return_val_if_fail (import != NULL, NULL);

  text = g_string_new (NULL);
  /* Translators: %u is a number of feeds. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Added %u feed", "Added %u feeds", import->added), import->added);
  if (import->already > 0)
    /* Translators: %u is a number of feeds, after "Added 3 feeds". */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "; %u was followed already", "; %u were followed already", import->already),
                            import->already);
  if (import->skipped > 0)
    /* Translators: %u is a number of feeds of the list that were left out. */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "; %u left out: not a usable http or https address", "; %u left out: not usable http or https addresses", import->skipped),
                            import->skipped);
  if (import->over_limit > 0)
    {
      guint listed = import->added + import->already + import->over_limit;

      /* Translators: after "Added 500 feeds"; the first %u is how many feeds the list names, the second how many one import adds at most. */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "; the list names %u feed, and one import adds at most %u: import it again to add the rest", "; the list names %u feeds, and one import adds at most %u: import it again to add the rest", listed),
                              listed, (guint) LWN_OPML_MAX_IMPORT);
    }
  return g_string_free (text, FALSE);
}
