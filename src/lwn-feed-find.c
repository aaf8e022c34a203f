/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finds the feed behind an address a person typed: the feed itself, or the one a web page names with <link rel="alternate">. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/HTMLparser.h>

#include "lwn-feed-find.h"
#include "lwn-feed-load.h"
#include "lwn-feed-parser.h"
#include "lwn-url.h"

/* The kinds of feed a page can name, as readers look for them. */
static const char *const feed_types[] = {
  "application/rss+xml",
  "application/atom+xml",
  "application/feed+json",
  "application/rdf+xml",
  "application/json",
};

static gboolean
is_feed_type (const char *type)
{
  g_autofree char *bare = NULL;

  if (type == NULL)
    return FALSE;
  /* "application/rss+xml; charset=utf-8" */
  bare = g_strstrip (g_strndup (type, strcspn (type, ";")));
  for (gsize i = 0; i < G_N_ELEMENTS (feed_types); i++)
    if (g_ascii_strcasecmp (bare, feed_types[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
rel_is_alternate (const char *rel)
{
  g_auto (GStrv) tokens = NULL;

  if (rel == NULL)
    return FALSE;
  tokens = g_strsplit_set (rel, " \t\n\r\f", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    if (g_ascii_strcasecmp (tokens[i], "alternate") == 0)
      return TRUE;
  return FALSE;
}

static char *
dup_attr (const xmlNode *node,
          const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *) name);
  char *copy = value != NULL ? g_strdup ((const char *) value) : NULL;

  xmlFree (value);
  return copy;
}

/**
 * lwn_feed_find_in_html:
 * @html: a web page
 * @page_url: the address it came from, against which relative links resolve
 *
 * Reads @html with libxml2's HTML parser, which takes pages as browsers do,
 * and finds the first `<link rel="alternate">` whose type is a feed's (RSS,
 * Atom or JSON Feed), resolved against the page's `<base href>` if any, else
 * @page_url.
 *
 * Returns: (transfer full) (nullable): the feed's http(s) address, which
 *   passes lwn_url_feed_problem(), or %NULL when the page names none
 */
char *
lwn_feed_find_in_html (GBytes *html,
                       const char *page_url)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (html, &size);
  htmlDocPtr doc;
  const xmlNode *node;
  g_autofree char *base = g_strdup (page_url);
  char *found = NULL;

  g_return_val_if_fail (html != NULL, NULL);

  if (size == 0 || size > G_MAXINT)
    return NULL;
  doc = htmlReadMemory (data, (int) size, page_url, NULL,
                        HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_RECOVER);
  if (doc == NULL)
    return NULL;

  /* Document order without recursion: <link> and <base> live in <head>,
   * but broken pages put them anywhere. */
  node = xmlDocGetRootElement (doc);
  while (node != NULL && found == NULL)
    {
      if (node->type == XML_ELEMENT_NODE && xmlStrcasecmp (node->name, (const xmlChar *) "base") == 0)
        {
          g_autofree char *href = dup_attr (node, "href");
          g_autofree char *resolved = href != NULL ? lwn_url_resolve (page_url, href) : NULL;

          if (resolved != NULL)
            {
              g_free (base);
              base = g_steal_pointer (&resolved);
            }
        }
      else if (node->type == XML_ELEMENT_NODE && xmlStrcasecmp (node->name, (const xmlChar *) "link") == 0)
        {
          g_autofree char *rel = dup_attr (node, "rel");
          g_autofree char *type = dup_attr (node, "type");
          g_autofree char *href = dup_attr (node, "href");

          if (rel_is_alternate (rel) && is_feed_type (type) && href != NULL)
            {
              g_autofree char *resolved = lwn_url_resolve (base, g_strstrip (href));

              /* The feed found is followed as it is, so it must pass
               * the check a typed or imported address passes. */
              if (resolved != NULL && lwn_url_feed_problem (resolved) == NULL)
                found = g_steal_pointer (&resolved);
            }
        }

      if (node->children != NULL)
        node = node->children;
      else
        {
          while (node != NULL && node->next == NULL)
            node = node->parent;
          if (node != NULL)
            node = node->next;
        }
    }

  xmlFreeDoc (doc);
  return found;
}

/* Names the tasks this file starts; its address is what matters. */
static char find_source_tag;

typedef struct
{
  char *address;
  char *feed_url;
  char *title;
} FindData;

static void
find_data_free (FindData *data)
{
  g_free (data->address);
  g_free (data->feed_url);
  g_free (data->title);
  g_free (data);
}

static gboolean
looks_like_html (LwnFetchResponse *response)
{
  const char *type = lwn_fetch_response_get_content_type (response);

  return type != NULL && (g_str_has_prefix (type, "text/html") || g_str_has_prefix (type, "application/xhtml+xml"));
}

static void
find_thread (GTask *task,
             gpointer source_object,
             gpointer task_data,
             GCancellable *cancellable)
{
  FindData *data = task_data;
  LwnFetchRequest request = { .url = data->address };
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *named = NULL;

  if (lwn_feed_load_sync (&request, &feed, &response, cancellable, &error) && feed != NULL)
    {
      data->feed_url = g_strdup (data->address);
      data->title = g_strdup (lwn_feed_get_title (feed));
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* Not a feed: a web page may name its feed, as blogs and news sites do. */
  if (response != NULL && (g_error_matches (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED) || g_error_matches (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED) || looks_like_html (response)))
    named = lwn_feed_find_in_html (lwn_fetch_response_get_body (response),
                                   lwn_fetch_response_get_effective_url (response));
  if (named == NULL)
    {
      if (error != NULL && error->domain == LWN_PARSE_ERROR)
        g_task_return_new_error (task, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                                 _ ("This address is neither a feed nor a page that names one"));
      else if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, LWN_PARSE_ERROR, LWN_PARSE_ERROR_EMPTY, _ ("The server sent no feed"));
      return;
    }

  g_clear_pointer (&feed, lwn_feed_unref);
  g_clear_error (&error);
  request.url = named;
  if (!lwn_feed_load_sync (&request, &feed, NULL, cancellable, &error) || feed == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_EMPTY, _ ("The server sent no feed"));
      g_prefix_error (&error, _ ("The page names %s, which cannot be loaded: "), named);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data->feed_url = g_steal_pointer (&named);
  data->title = g_strdup (lwn_feed_get_title (feed));
  g_task_return_boolean (task, TRUE);
}

/**
 * lwn_feed_find_async:
 * @address: an http(s) address: a feed's, or a web page's
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: for @callback
 *
 * Loads @address once in a worker thread. A feed is taken as it is; a web
 * page is searched for the feed it names (lwn_feed_find_in_html()), which
 * is then loaded too.
 */
void
lwn_feed_find_async (const char *address,
                     GCancellable *cancellable,
                     GAsyncReadyCallback callback,
                     gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  FindData *data;

  g_return_if_fail (address != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &find_source_tag);
  data = g_new0 (FindData, 1);
  data->address = g_strdup (address);
  g_task_set_task_data (task, data, (GDestroyNotify) find_data_free);
  g_task_run_in_thread (task, find_thread);
}

/**
 * lwn_feed_find_finish:
 * @result: the result given to the callback
 * @feed_url: (out) (transfer full) (optional): the feed's address
 * @title: (out) (transfer full) (optional): the feed's own title, maybe ""
 * @error: return location for a #GError
 *
 * Returns: whether a feed was found and loaded
 */
gboolean
lwn_feed_find_finish (GAsyncResult *result,
                      char **feed_url,
                      char **title,
                      GError **error)
{
  FindData *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &find_source_tag, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  data = g_task_get_task_data (G_TASK (result));
  if (feed_url != NULL)
    *feed_url = g_strdup (data->feed_url);
  if (title != NULL)
    *title = g_strdup (data->title);
  return TRUE;
}
