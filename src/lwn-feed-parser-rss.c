/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RSS 0.90, 0.91, 0.92, 1.0 and 2.0: channel and item elements, matched by namespace URI, with Dublin Core fallbacks. */

#include "config.h"

#include <string.h>

#include "lwn-feed-parser-private.h"
#include "lwn-url.h"
#include "lwn-xml.h"

/* The namespaces RSS 0.91, 0.92 and 2.0 have been published in; most
 * feeds put their elements in none. */
static const char *const rss2_namespaces[] = {
  "http://backend.userland.com/rss",
  "http://backend.userland.com/rss2",
  "http://blogs.law.harvard.edu/tech/rss",
  NULL,
};

static const char *const rdf_namespaces[] = { LWN_NS_RSS10, LWN_NS_RSS090, NULL };

/* In the table below, stands for the namespace of the core elements: none
 * or one of rss2_namespaces for <rss>, one of rdf_namespaces for RDF. */
#define CORE_NS NULL

/* What an item's children can give, in order of preference within each
 * group: the format's own element first, Dublin Core's as the fallback. */
typedef enum
{
  FIELD_TITLE,
  FIELD_DC_TITLE,
  FIELD_LINK,
  FIELD_GUID,
  FIELD_DESCRIPTION,
  FIELD_DC_DESCRIPTION,
  FIELD_CONTENT_ENCODED,
  FIELD_XHTML_BODY,
  FIELD_FULLITEM,
  FIELD_PUB_DATE,
  FIELD_DC_DATE,
  FIELD_ISSUED,
  FIELD_CREATED,
  FIELD_MODIFIED,
  FIELD_AUTHOR,
  FIELD_DC_CREATOR,
  FIELD_DC_AUTHOR,
  FIELD_DC_CONTRIBUTOR,
  N_FIELDS
} ItemField;

static const struct
{
  ItemField field;
  const char *ns;
  const char *name;
} item_fields[] = {
  { FIELD_TITLE, CORE_NS, "title" },
  { FIELD_LINK, CORE_NS, "link" },
  { FIELD_DESCRIPTION, CORE_NS, "description" },
  { FIELD_GUID, CORE_NS, "guid" },
  { FIELD_PUB_DATE, CORE_NS, "pubDate" },
  { FIELD_AUTHOR, CORE_NS, "author" },
  { FIELD_FULLITEM, CORE_NS, "fullitem" },
  { FIELD_CONTENT_ENCODED, LWN_NS_CONTENT, "encoded" },
  { FIELD_XHTML_BODY, LWN_NS_XHTML, "body" },
  { FIELD_DC_DATE, LWN_NS_DC, "date" },
  { FIELD_DC_CREATOR, LWN_NS_DC, "creator" },
  { FIELD_DC_TITLE, LWN_NS_DC, "title" },
  { FIELD_DC_DESCRIPTION, LWN_NS_DC, "description" },
  { FIELD_DC_AUTHOR, LWN_NS_DC, "author" },
  { FIELD_DC_CONTRIBUTOR, LWN_NS_DC, "contributor" },
  { FIELD_DC_DATE, LWN_NS_DC10, "date" },
  { FIELD_DC_CREATOR, LWN_NS_DC10, "creator" },
  { FIELD_DC_TITLE, LWN_NS_DC10, "title" },
  { FIELD_DC_DESCRIPTION, LWN_NS_DC10, "description" },
  { FIELD_ISSUED, LWN_NS_DCTERMS, "issued" },
  { FIELD_CREATED, LWN_NS_DCTERMS, "created" },
  { FIELD_MODIFIED, LWN_NS_DCTERMS, "modified" },
};

/* Whether @node is the element @name in any of @ns_uris. */
static gboolean
node_is_in (const xmlNode *node,
            const char *const *ns_uris,
            const char *name)
{
  for (guint i = 0; ns_uris[i] != NULL; i++)
    {
      if (lwn_xml_node_is (node, ns_uris[i], name))
        return TRUE;
    }
  return FALSE;
}

static const char *
ns_of (const xmlNode *node)
{
  return node->ns != NULL ? (const char *) node->ns->href : NULL;
}

/* The first child of each field, later duplicates ignored. */
static void
collect_fields (const xmlNode *item,
                const char *core_ns,
                const xmlNode **nodes)
{
  for (const xmlNode *child = item->children; child != NULL; child = child->next)
    {
      const char *ns;

      if (child->type != XML_ELEMENT_NODE)
        continue;
      ns = ns_of (child);
      for (guint i = 0; i < G_N_ELEMENTS (item_fields); i++)
        {
          const char *want = item_fields[i].ns != CORE_NS ? item_fields[i].ns : core_ns;

          if (g_strcmp0 (ns, want) == 0 && strcmp ((const char *) child->name, item_fields[i].name) == 0)
            {
              if (nodes[item_fields[i].field] == NULL)
                nodes[item_fields[i].field] = child;
              break;
            }
        }
    }
}

/* The text of the first field present among @first … @last. */
static char *
dup_first_text (const xmlNode **nodes,
                ItemField first,
                ItemField last,
                gsize max_bytes,
                const xmlNode **found)
{
  for (ItemField f = first; f <= last; f++)
    {
      if (nodes[f] != NULL)
        {
          if (found != NULL)
            *found = nodes[f];
          return lwn_xml_node_dup_text (nodes[f], max_bytes);
        }
    }
  return NULL;
}

static void
take_dates (LwnItemDraft *draft,
            const xmlNode **nodes)
{
  char *texts[FIELD_MODIFIED - FIELD_PUB_DATE + 1] = { NULL };

  for (ItemField f = FIELD_PUB_DATE; f <= FIELD_MODIFIED; f++)
    {
      if (nodes[f] != NULL)
        texts[f - FIELD_PUB_DATE] = lwn_xml_node_dup_text (nodes[f], LWN_XML_MAX_SHORT);
    }
  lwn_feed_builder_choose_date (draft, (const char *const *) texts, G_N_ELEMENTS (texts));
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_free (texts[i]);
}

/* RSS 2.0: "If the guid element has an attribute named isPermaLink with a
 * value of true, or if it is absent", it is a link as well as an id. */
static void
take_guid (LwnItemDraft *draft,
           const xmlNode *guid,
           const char *document_url)
{
  g_autofree char *permalink = lwn_xml_node_dup_attr (guid, NULL, "isPermaLink");
  g_autofree char *text = lwn_xml_node_dup_text (guid, LWN_XML_MAX_SHORT);

  if (*g_strstrip (text) == '\0')
    return;
  if ((permalink == NULL || g_ascii_strcasecmp (g_strstrip (permalink), "false") != 0) && (draft->link == NULL || *g_strstrip (draft->link) == '\0'))
    {
      g_free (draft->link);
      g_free (draft->base);
      draft->link = g_strdup (text);
      draft->base = lwn_xml_node_dup_base (guid, document_url);
    }
  draft->id = g_steal_pointer (&text);
}

/* HTML as RSS carries it: escaped as text, or now and then left bare as
 * elements inside the description. */
static char *
dup_html (const xmlNode *node)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (child->type == XML_ELEMENT_NODE)
        return lwn_xml_node_dup_markup (node, LWN_XML_MAX_LONG);
    }
  return lwn_xml_node_dup_text (node, LWN_XML_MAX_LONG);
}

static void
take_content (LwnItemDraft *draft,
              const xmlNode **nodes)
{
  if (nodes[FIELD_CONTENT_ENCODED] != NULL)
    draft->content = dup_html (nodes[FIELD_CONTENT_ENCODED]);
  else if (nodes[FIELD_XHTML_BODY] != NULL)
    draft->content = lwn_xml_node_dup_markup (nodes[FIELD_XHTML_BODY], LWN_XML_MAX_LONG);
  else if (nodes[FIELD_FULLITEM] != NULL)
    draft->content = dup_html (nodes[FIELD_FULLITEM]);
}

static void
parse_item (LwnFeedBuilder *builder,
            const xmlNode *item,
            const char *core_ns)
{
  const xmlNode *nodes[N_FIELDS] = { NULL };
  const xmlNode *link = NULL;
  LwnItemDraft draft = { 0 };

  collect_fields (item, core_ns, nodes);

  draft.title_kind = LWN_TITLE_GUESS;
  draft.title = dup_first_text (nodes, FIELD_TITLE, FIELD_DC_TITLE, LWN_XML_MAX_SHORT, NULL);
  draft.link = dup_first_text (nodes, FIELD_LINK, FIELD_LINK, LWN_XML_MAX_SHORT, &link);
  if (link != NULL)
    draft.base = lwn_xml_node_dup_base (link, builder->document_url);
  if (nodes[FIELD_GUID] != NULL)
    take_guid (&draft, nodes[FIELD_GUID], builder->document_url);
  if (draft.id == NULL && core_ns != NULL)
    draft.id = lwn_xml_node_dup_attr (item, LWN_NS_RDF, "about");
  if (nodes[FIELD_DESCRIPTION] != NULL || nodes[FIELD_DC_DESCRIPTION] != NULL)
    draft.summary = dup_html (nodes[FIELD_DESCRIPTION] != NULL ? nodes[FIELD_DESCRIPTION] : nodes[FIELD_DC_DESCRIPTION]);
  take_content (&draft, nodes);
  take_dates (&draft, nodes);
  draft.author = dup_first_text (nodes, FIELD_AUTHOR, FIELD_DC_CONTRIBUTOR, LWN_XML_MAX_SHORT, NULL);

  lwn_feed_builder_add_item (builder, &draft);
}

/**
 * lwn_feed_parser_rss_accepts:
 * @root: a document's root element
 *
 * Returns: whether @root is <rss> (in no namespace or one RSS 2.0 was
 *   published in) or <rdf:RDF>
 */
gboolean
lwn_feed_parser_rss_accepts (const xmlNode *root)
{
  return lwn_xml_node_is (root, NULL, "rss") || node_is_in (root, rss2_namespaces, "rss") || lwn_xml_node_is (root, LWN_NS_RDF, "RDF");
}

/* RDF-based RSS puts its core elements in a namespace that depends on the
 * version, found on the channel or items themselves. */
static gboolean
is_rdf (const xmlNode *root)
{
  return lwn_xml_node_is (root, LWN_NS_RDF, "RDF");
}

/**
 * lwn_feed_parser_rss_take_item:
 * @builder: the feed builder
 * @element: an element that has just ended, two or three levels down
 *
 * RSS 0.91, 0.92 and 2.0 keep their items inside <channel> (some feeds
 * leave that out); RSS 1.0 and 0.90 put them beside <channel> under
 * <rdf:RDF>, in their own namespace.
 *
 * Returns: %TRUE if @element was an item, now added to @builder, or
 *   another element that is not needed any more
 */
gboolean
lwn_feed_parser_rss_take_item (LwnFeedBuilder *builder,
                               const xmlNode *element)
{
  const xmlNode *parent = element->parent;
  const xmlNode *root;
  const char *core_ns = ns_of (element);

  if (parent == NULL || parent->type != XML_ELEMENT_NODE)
    return FALSE;
  /* RSS 1.0's table of contents lists every item again: nothing reads it. */
  if (lwn_xml_node_is (element, LWN_NS_RSS10, "items") && lwn_xml_node_is (parent, LWN_NS_RSS10, "channel"))
    return TRUE;
  if (strcmp ((const char *) element->name, "item") != 0)
    return FALSE;
  root = parent->parent != NULL && parent->parent->type == XML_ELEMENT_NODE ? parent->parent : parent;

  if (is_rdf (root))
    {
      if (!node_is_in (element, rdf_namespaces, "item"))
        return FALSE;
    }
  else if (g_strcmp0 (core_ns, ns_of (root)) != 0)
    return FALSE;

  if (parent != root && !lwn_xml_node_is (parent, core_ns, "channel"))
    return FALSE;

  parse_item (builder, element, core_ns);
  return TRUE;
}

static void
take_channel_link (LwnFeedBuilder *builder,
                   const xmlNode *link)
{
  g_autofree char *text = lwn_xml_node_dup_text (link, LWN_XML_MAX_SHORT);
  g_autofree char *base = lwn_xml_node_dup_base (link, builder->document_url);

  builder->link = lwn_url_resolve (base != NULL ? base : builder->document_url, g_strstrip (text));
}

/* Channel metadata: title, site link, refresh hints. */
static void
parse_channel (LwnFeedBuilder *builder,
               const xmlNode *channel,
               const char *core_ns)
{
  const xmlNode *title = NULL;
  const xmlNode *dc_title = NULL;
  const xmlNode *link = NULL;

  for (const xmlNode *child = channel->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;

      if (title == NULL && lwn_xml_node_is (child, core_ns, "title"))
        title = child;
      else if (dc_title == NULL && (lwn_xml_node_is (child, LWN_NS_DC, "title") || lwn_xml_node_is (child, LWN_NS_DC10, "title")))
        dc_title = child;
      else if (link == NULL && lwn_xml_node_is (child, core_ns, "link"))
        link = child;
      else if (lwn_xml_node_is (child, core_ns, "ttl"))
        {
          g_autofree char *ttl = lwn_xml_node_dup_text (child, LWN_XML_MAX_SHORT);

          lwn_feed_builder_take_ttl (builder, ttl);
        }
      else
        lwn_feed_builder_take_syn (builder, child);
    }

  if (title != NULL || dc_title != NULL)
    builder->title = lwn_xml_node_dup_text (title != NULL ? title : dc_title, LWN_XML_MAX_SHORT);
  if (link != NULL)
    take_channel_link (builder, link);
}

static const xmlNode *
find_channel (const xmlNode *root,
              const char **core_ns)
{
  for (const xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (is_rdf (root) ? node_is_in (child, rdf_namespaces, "channel")
                        : lwn_xml_node_is (child, ns_of (root), "channel"))
        {
          *core_ns = ns_of (child);
          return child;
        }
    }
  return NULL;
}

/**
 * lwn_feed_parser_rss_read_feed:
 * @builder: the feed builder, holding the items already taken
 * @root: the document's <rss> or <rdf:RDF> element
 *
 * Returns: %FALSE when @root holds neither a channel nor items
 */
gboolean
lwn_feed_parser_rss_read_feed (LwnFeedBuilder *builder,
                               const xmlNode *root)
{
  const char *core_ns = is_rdf (root) ? NULL : ns_of (root);
  const xmlNode *channel = find_channel (root, &core_ns);

  if (channel == NULL && builder->drafts->len == 0)
    return FALSE;
  if (channel != NULL)
    parse_channel (builder, channel, core_ns);
  return TRUE;
}
