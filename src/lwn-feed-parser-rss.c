/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RSS 0.90, 0.91, 0.92, 1.0 and 2.0: channel and item elements, matched by namespace URI. */

#include "config.h"

#include <string.h>

#include "lwn-feed-parser-private.h"
#include "lwn-url.h"

/* The elements one item yields, before the format's precedence rules. */
typedef struct
{
  char *guid;
  gboolean guid_is_permalink;
  char *pub_date;
  char *dc_date;
  char *rss_author;
  char *dc_creator;
} RssItemExtras;

static void
rss_item_extras_clear (RssItemExtras *extras)
{
  g_clear_pointer (&extras->guid, g_free);
  g_clear_pointer (&extras->pub_date, g_free);
  g_clear_pointer (&extras->dc_date, g_free);
  g_clear_pointer (&extras->rss_author, g_free);
  g_clear_pointer (&extras->dc_creator, g_free);
}

/* Keeps the first occurrence of an element: later duplicates are ignored. */
static void
take_first_text (char **slot,
                 const xmlNode *node,
                 gsize max_bytes)
{
  if (*slot == NULL)
    *slot = lwn_xml_node_dup_text (node, max_bytes);
}

static void
choose_date (LwnItemDraft *draft,
             RssItemExtras *extras)
{
  const char *candidates[] = { extras->pub_date, extras->dc_date };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      GDateTime *date = lwn_feed_parser_parse_date (candidates[i]);

      if (date != NULL)
        {
          draft->date = date;
          draft->date_text = g_strdup (candidates[i]);
          return;
        }
    }

  /* Unreadable, but still worth telling items apart by. */
  draft->date_text = g_strdup (extras->pub_date != NULL ? extras->pub_date : extras->dc_date);
}

/* @ns is the namespace of the core elements: NULL for RSS 0.91/0.92/2.0,
 * the RSS 1.0 or 0.90 URI for the RDF-based versions. */
static void
parse_item (LwnFeedBuilder *builder,
            const xmlNode *item,
            const char *ns)
{
  LwnItemDraft draft = { 0 };
  RssItemExtras extras = { 0 };

  draft.title_kind = LWN_TITLE_GUESS;

  for (const xmlNode *child = item->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;

      if (lwn_xml_node_is (child, ns, "title"))
        take_first_text (&draft.title, child, LWN_PARSE_MAX_SHORT);
      else if (lwn_xml_node_is (child, ns, "link"))
        take_first_text (&draft.link, child, LWN_PARSE_MAX_SHORT);
      else if (lwn_xml_node_is (child, ns, "description"))
        take_first_text (&draft.summary, child, LWN_PARSE_MAX_LONG);
      else if (lwn_xml_node_is (child, LWN_NS_CONTENT, "encoded"))
        take_first_text (&draft.content, child, LWN_PARSE_MAX_LONG);
      else if (lwn_xml_node_is (child, LWN_NS_DC, "date"))
        take_first_text (&extras.dc_date, child, LWN_PARSE_MAX_SHORT);
      else if (lwn_xml_node_is (child, LWN_NS_DC, "creator"))
        take_first_text (&extras.dc_creator, child, LWN_PARSE_MAX_SHORT);
      else if (ns == NULL && lwn_xml_node_is (child, NULL, "guid") && extras.guid == NULL)
        {
          g_autofree char *permalink = lwn_xml_node_dup_attr (child, NULL, "isPermaLink");

          extras.guid = lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);
          /* RSS 2.0: "If the guid element has an attribute named isPermaLink
           * with a value of true, or if it is absent", it is a link. */
          extras.guid_is_permalink = permalink == NULL || g_ascii_strcasecmp (g_strstrip (permalink), "false") != 0;
        }
      else if (ns == NULL && lwn_xml_node_is (child, NULL, "pubDate"))
        take_first_text (&extras.pub_date, child, LWN_PARSE_MAX_SHORT);
      else if (ns == NULL && lwn_xml_node_is (child, NULL, "author"))
        take_first_text (&extras.rss_author, child, LWN_PARSE_MAX_SHORT);
    }

  if (extras.guid != NULL && *g_strstrip (extras.guid) != '\0')
    {
      draft.id = g_strdup (extras.guid);
      if (extras.guid_is_permalink && (draft.link == NULL || *g_strstrip (draft.link) == '\0'))
        {
          g_free (draft.link);
          draft.link = g_strdup (extras.guid);
        }
    }
  else if (ns != NULL)
    draft.id = lwn_xml_node_dup_attr (item, LWN_NS_RDF, "about");

  choose_date (&draft, &extras);
  draft.author = g_strdup (extras.dc_creator != NULL ? extras.dc_creator : extras.rss_author);
  draft.base = lwn_xml_node_dup_base (item, builder->document_url);

  lwn_feed_builder_add_item (builder, &draft);
  rss_item_extras_clear (&extras);
}

/* Channel metadata: title, site link, refresh hints. */
static void
parse_channel (LwnFeedBuilder *builder,
               const xmlNode *channel,
               const char *ns)
{
  g_autofree char *link = NULL;

  for (const xmlNode *child = channel->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;

      if (lwn_xml_node_is (child, ns, "title"))
        take_first_text (&builder->title, child, LWN_PARSE_MAX_SHORT);
      else if (lwn_xml_node_is (child, ns, "link"))
        take_first_text (&link, child, LWN_PARSE_MAX_SHORT);
      else if (ns == NULL && lwn_xml_node_is (child, NULL, "ttl"))
        {
          g_autofree char *ttl = lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);

          lwn_feed_builder_take_ttl (builder, ttl);
        }
      else
        lwn_feed_builder_take_syn (builder, child);
    }

  if (link != NULL)
    {
      g_autofree char *base = lwn_xml_node_dup_base (channel, builder->document_url);

      builder->link = lwn_url_resolve (base != NULL ? base : builder->document_url, g_strstrip (link));
    }
}

static void
parse_items (LwnFeedBuilder *builder,
             const xmlNode *parent,
             const char *ns)
{
  for (const xmlNode *child = parent->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, ns, "item"))
        parse_item (builder, child, ns);
    }
}

static const xmlNode *
find_child (const xmlNode *parent,
            const char *ns,
            const char *name)
{
  for (const xmlNode *child = parent->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, ns, name))
        return child;
    }
  return NULL;
}

/**
 * lwn_feed_parser_parse_rss:
 * @root: the document's <rss> or <rdf:RDF> element
 * @document_url: (nullable): the URL the document came from
 *
 * RSS 0.91, 0.92 and 2.0 keep their items inside <channel>, with no
 * namespace; RSS 1.0 and 0.90 put them beside <channel> under <rdf:RDF>,
 * in their own namespace.
 *
 * Returns: (transfer full) (nullable): the feed, or %NULL when @root holds
 *   neither a channel nor items
 */
LwnFeed *
lwn_feed_parser_parse_rss (const xmlNode *root,
                           const char *document_url)
{
  static const char *const rdf_namespaces[] = { LWN_NS_RSS10, LWN_NS_RSS090 };
  LwnFeedBuilder builder;
  const xmlNode *channel = NULL;
  const char *ns = NULL;

  if (lwn_xml_node_is (root, NULL, "rss"))
    {
      channel = find_child (root, NULL, "channel");
      if (channel == NULL)
        return NULL;
    }
  else
    {
      for (guint i = 0; i < G_N_ELEMENTS (rdf_namespaces) && ns == NULL; i++)
        {
          channel = find_child (root, rdf_namespaces[i], "channel");
          if (channel != NULL || find_child (root, rdf_namespaces[i], "item") != NULL)
            ns = rdf_namespaces[i];
        }
      if (ns == NULL)
        return NULL;
    }

  lwn_feed_builder_init (&builder, document_url);
  if (channel != NULL)
    parse_channel (&builder, channel, ns);

  if (ns == NULL)
    parse_items (&builder, channel, NULL);
  else
    parse_items (&builder, root, ns);

  return lwn_feed_builder_finish (&builder);
}
