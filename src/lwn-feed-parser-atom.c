/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Atom 1.0 (RFC 4287) and Atom 0.3: feed and entry elements, text constructs, links and xml:base, with Dublin Core fallbacks. */

#include "config.h"

#include <string.h>

#include "lwn-feed-parser-private.h"
#include "lwn-url.h"
#include "lwn-xml.h"

/* Atom 0.3, and the namespaces of the drafts before it (Echo, Pie, Necho),
 * which feeds of that time still use. */
static const char *const atom03_namespaces[] = {
  LWN_NS_ATOM03,
  "http://purl.org/echo/",
  "http://purl.org/pie/",
  "http://example.com/necho",
  "http://example.com/newformat#",
};

typedef enum
{
  TEXT_NONE,
  TEXT_PLAIN,
  TEXT_HTML,
} TextKind;

/* Atom 1.0's "text", "html" and "xhtml", or Atom 0.3's media types. */
static TextKind
kind_of_type (const char *type,
              gboolean *xhtml)
{
  *xhtml = FALSE;
  if (type == NULL || *type == '\0' || g_ascii_strcasecmp (type, "text") == 0 || g_ascii_strncasecmp (type, "text/plain", 10) == 0)
    return TEXT_PLAIN;
  if (g_ascii_strcasecmp (type, "html") == 0 || g_ascii_strncasecmp (type, "text/html", 9) == 0)
    return TEXT_HTML;
  if (g_ascii_strcasecmp (type, "xhtml") == 0 || g_ascii_strncasecmp (type, "application/xhtml+xml", 21) == 0)
    {
      *xhtml = TRUE;
      return TEXT_HTML;
    }
  if (g_ascii_strncasecmp (type, "text/", 5) == 0)
    return TEXT_PLAIN;
  return TEXT_NONE;
}

static gboolean
has_element_child (const xmlNode *node)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (child->type == XML_ELEMENT_NODE)
        return TRUE;
    }
  return FALSE;
}

/* Atom 0.3's mode="base64": the text decodes to the content itself. */
static char *
dup_base64 (const xmlNode *node,
            gsize max_bytes)
{
  g_autofree char *text = lwn_xml_node_dup_text (node, max_bytes);
  g_autofree guchar *decoded = NULL;
  g_autofree char *terminated = NULL;
  g_autofree char *valid = NULL;
  gsize len = 0;

  decoded = g_base64_decode (g_strstrip (text), &len);
  terminated = g_strndup ((const char *) decoded, len);
  valid = g_utf8_make_valid (terminated, -1);
  return lwn_xml_strdup_capped (valid, max_bytes);
}

/* Inline markup: the XHTML <div> that wraps it is not part of it. */
static char *
dup_inline_markup (const xmlNode *node,
                   gsize max_bytes)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, LWN_NS_XHTML, "div"))
        return lwn_xml_node_dup_markup (child, max_bytes);
    }
  return lwn_xml_node_dup_markup (node, max_bytes);
}

/* Reads a text construct (RFC 4287, section 3.1; Atom 0.3's content
 * constructs with their mode="xml|escaped|base64") as plain text or HTML.
 * Out-of-line content (src=) and other media types give TEXT_NONE. */
static char *
dup_text_construct (const xmlNode *node,
                    gsize max_bytes,
                    TextKind *kind)
{
  g_autofree char *type = lwn_xml_node_dup_attr (node, NULL, "type");
  g_autofree char *mode = lwn_xml_node_dup_attr (node, NULL, "mode");
  g_autofree char *src = lwn_xml_node_dup_attr (node, NULL, "src");
  gboolean xhtml;

  *kind = TEXT_NONE;
  if (src != NULL)
    return NULL;
  *kind = kind_of_type (type != NULL ? g_strstrip (type) : NULL, &xhtml);
  if (*kind == TEXT_NONE)
    return NULL;
  if (mode != NULL)
    g_strstrip (mode);

  if (g_strcmp0 (mode, "base64") == 0)
    return dup_base64 (node, max_bytes);
  if (g_strcmp0 (mode, "escaped") == 0)
    return lwn_xml_node_dup_text (node, max_bytes);
  if (*kind == TEXT_HTML && (xhtml || has_element_child (node)))
    return dup_inline_markup (node, max_bytes);
  return lwn_xml_node_dup_text (node, max_bytes);
}

/* A text construct as HTML: plain text is escaped, so converting it back
 * to text gives it verbatim. */
static char *
dup_html_construct (const xmlNode *node)
{
  TextKind kind;
  g_autofree char *text = dup_text_construct (node, LWN_XML_MAX_LONG, &kind);

  if (text == NULL)
    return NULL;
  if (kind == TEXT_PLAIN)
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      return lwn_xml_strdup_capped (escaped, LWN_XML_MAX_LONG);
    }
  return g_steal_pointer (&text);
}

static void
take_title (char **title,
            LwnTitleKind *title_kind,
            const xmlNode *node)
{
  TextKind kind;

  *title = dup_text_construct (node, LWN_XML_MAX_SHORT, &kind);
  *title_kind = kind == TEXT_HTML ? LWN_TITLE_HTML : LWN_TITLE_TEXT;
}

/* The link's target: href, or in some Atom 0.3 feeds the element's text. */
static char *
dup_href (const xmlNode *link)
{
  char *href = lwn_xml_node_dup_attr (link, NULL, "href");

  if (href == NULL)
    href = lwn_xml_node_dup_text (link, LWN_XML_MAX_SHORT);
  return g_strstrip (href);
}

/* How well a <link> serves as the page to open: 0 not at all, 3 best. */
static int
link_rank (const xmlNode *link)
{
  g_autofree char *rel = lwn_xml_node_dup_attr (link, NULL, "rel");
  g_autofree char *type = lwn_xml_node_dup_attr (link, NULL, "type");
  g_autofree char *href = dup_href (link);

  if (*href == '\0')
    return 0;
  if (rel != NULL && g_ascii_strcasecmp (g_strstrip (rel), "alternate") != 0 && strcmp (rel, "http://www.iana.org/assignments/relation/alternate") != 0)
    return 0;
  if (type == NULL)
    return 2;
  g_strstrip (type);
  if (g_ascii_strncasecmp (type, "text/html", 9) == 0 || g_ascii_strncasecmp (type, "application/xhtml+xml", 21) == 0)
    return 3;
  return 1;
}

/* Keeps the best-ranked <link>, the first of equals. */
static void
consider_link (const xmlNode *link,
               const xmlNode **best,
               int *best_rank)
{
  int rank = link_rank (link);

  if (rank > *best_rank)
    {
      *best = link;
      *best_rank = rank;
    }
}

/* A person's name, or their address when they give no name. */
static char *
dup_person_name (const xmlNode *person,
                 const char *ns)
{
  const xmlNode *email = NULL;

  for (const xmlNode *child = person->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, ns, "name"))
        {
          g_autofree char *name = lwn_xml_node_dup_text (child, LWN_XML_MAX_SHORT);

          if (*g_strstrip (name) != '\0')
            return g_steal_pointer (&name);
        }
      else if (email == NULL && lwn_xml_node_is (child, ns, "email"))
        email = child;
    }
  return email != NULL ? lwn_xml_node_dup_text (email, LWN_XML_MAX_SHORT) : NULL;
}

static gboolean
is_dc (const xmlNode *node,
       const char *name)
{
  return lwn_xml_node_is (node, LWN_NS_DC, name) || lwn_xml_node_is (node, LWN_NS_DC10, name);
}

/* An entry's dates in order of preference: Atom 1.0's published and
 * updated, Atom 0.3's issued, modified and created, then Dublin Core's. */
typedef enum
{
  DATE_PUBLISHED,
  DATE_UPDATED,
  DATE_CREATED,
  DATE_DC_DATE,
  DATE_DC_ISSUED,
  DATE_DC_CREATED,
  DATE_DC_MODIFIED,
  N_DATES
} EntryDate;

static const struct
{
  EntryDate date;
  const char *ns; /* NULL: the feed's Atom namespace */
  const char *name;
} entry_dates[] = {
  { DATE_PUBLISHED, NULL, "published" },
  { DATE_PUBLISHED, NULL, "issued" },
  { DATE_UPDATED, NULL, "updated" },
  { DATE_UPDATED, NULL, "modified" },
  { DATE_CREATED, NULL, "created" },
  { DATE_DC_DATE, LWN_NS_DC, "date" },
  { DATE_DC_DATE, LWN_NS_DC10, "date" },
  { DATE_DC_ISSUED, LWN_NS_DCTERMS, "issued" },
  { DATE_DC_CREATED, LWN_NS_DCTERMS, "created" },
  { DATE_DC_MODIFIED, LWN_NS_DCTERMS, "modified" },
};

/* Returns TRUE if @child is one of the dates, recorded in @dates. */
static gboolean
take_date (const xmlNode *child,
           const char *ns,
           char **dates)
{
  for (guint i = 0; i < G_N_ELEMENTS (entry_dates); i++)
    {
      if (lwn_xml_node_is (child, entry_dates[i].ns != NULL ? entry_dates[i].ns : ns, entry_dates[i].name))
        {
          if (dates[entry_dates[i].date] == NULL)
            dates[entry_dates[i].date] = lwn_xml_node_dup_text (child, LWN_XML_MAX_SHORT);
          return TRUE;
        }
    }
  return FALSE;
}

/* The Dublin Core elements that stand in for missing Atom ones. */
typedef struct
{
  const xmlNode *title;
  const xmlNode *description;
  const xmlNode *author;
} DcFallbacks;

static void
take_dc (const xmlNode *child,
         DcFallbacks *dc)
{
  if (dc->title == NULL && is_dc (child, "title"))
    dc->title = child;
  else if (dc->description == NULL && is_dc (child, "description"))
    dc->description = child;
  else if (dc->author == NULL && (is_dc (child, "creator") || is_dc (child, "author") || is_dc (child, "contributor")))
    dc->author = child;
}

static void
read_entry_child (LwnItemDraft *draft,
                  const xmlNode *child,
                  const char *ns,
                  DcFallbacks *dc)
{
  if (lwn_xml_node_is (child, ns, "id"))
    {
      if (draft->id == NULL)
        draft->id = lwn_xml_node_dup_text (child, LWN_XML_MAX_SHORT);
    }
  else if (lwn_xml_node_is (child, ns, "title"))
    {
      if (draft->title == NULL)
        take_title (&draft->title, &draft->title_kind, child);
    }
  else if (lwn_xml_node_is (child, ns, "summary"))
    {
      if (draft->summary == NULL)
        draft->summary = dup_html_construct (child);
    }
  else if (lwn_xml_node_is (child, ns, "content"))
    {
      if (draft->content == NULL)
        draft->content = dup_html_construct (child);
    }
  else if (lwn_xml_node_is (child, ns, "author"))
    {
      if (draft->author == NULL)
        draft->author = dup_person_name (child, ns);
    }
  else
    take_dc (child, dc);
}

static void
apply_dc (LwnItemDraft *draft,
          const DcFallbacks *dc)
{
  if (draft->title == NULL && dc->title != NULL)
    {
      draft->title = lwn_xml_node_dup_text (dc->title, LWN_XML_MAX_SHORT);
      draft->title_kind = LWN_TITLE_TEXT;
    }
  if (draft->summary == NULL && dc->description != NULL)
    {
      g_autofree char *text = lwn_xml_node_dup_text (dc->description, LWN_XML_MAX_LONG);
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      draft->summary = lwn_xml_strdup_capped (escaped, LWN_XML_MAX_LONG);
    }
  if (draft->author == NULL && dc->author != NULL)
    draft->author = lwn_xml_node_dup_text (dc->author, LWN_XML_MAX_SHORT);
}

static void
parse_entry (LwnFeedBuilder *builder,
             const xmlNode *entry)
{
  const char *ns = (const char *) entry->ns->href;
  LwnItemDraft draft = { 0 };
  DcFallbacks dc = { 0 };
  char *dates[N_DATES] = { NULL };
  const xmlNode *best_link = NULL;
  int best_rank = 0;

  draft.title_kind = LWN_TITLE_TEXT;

  for (const xmlNode *child = entry->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE || child->ns == NULL)
        continue;
      if (lwn_xml_node_is (child, ns, "link"))
        consider_link (child, &best_link, &best_rank);
      else if (!take_date (child, ns, dates))
        read_entry_child (&draft, child, ns, &dc);
    }
  apply_dc (&draft, &dc);

  if (best_link != NULL)
    {
      draft.link = dup_href (best_link);
      draft.base = lwn_xml_node_dup_base (best_link, builder->document_url);
    }

  lwn_feed_builder_choose_date (&draft, (const char *const *) dates, N_DATES);
  for (guint i = 0; i < N_DATES; i++)
    g_free (dates[i]);

  lwn_feed_builder_add_item (builder, &draft);
}

static gboolean
is_atom (const xmlNode *node,
         const char *name)
{
  if (lwn_xml_node_is (node, LWN_NS_ATOM, name))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (atom03_namespaces); i++)
    {
      if (lwn_xml_node_is (node, atom03_namespaces[i], name))
        return TRUE;
    }
  return FALSE;
}

/**
 * lwn_feed_parser_atom_accepts:
 * @root: a document's root element
 *
 * Returns: whether @root is an Atom 1.0 or Atom 0.3 <feed>, the latter
 *   also in the namespaces of the drafts before it
 */
gboolean
lwn_feed_parser_atom_accepts (const xmlNode *root)
{
  return is_atom (root, "feed");
}

/**
 * lwn_feed_parser_atom_take_item:
 * @builder: the feed builder
 * @element: an element that has just ended, two or three levels down
 *
 * Returns: %TRUE if @element was an entry of the feed, now added to @builder
 */
gboolean
lwn_feed_parser_atom_take_item (LwnFeedBuilder *builder,
                                const xmlNode *element)
{
  const xmlNode *parent = element->parent;

  if (parent == NULL || !is_atom (element, "entry") || !is_atom (parent, "feed") || element->ns->href == NULL || !xmlStrEqual (element->ns->href, parent->ns->href))
    return FALSE;
  parse_entry (builder, element);
  return TRUE;
}

/**
 * lwn_feed_parser_atom_read_feed:
 * @builder: the feed builder, holding the entries already taken
 * @root: the document's feed element
 *
 * Reads the feed's title, site link, author and refresh hints; entries fall
 * back on the last two.
 *
 * Returns: %TRUE
 */
gboolean
lwn_feed_parser_atom_read_feed (LwnFeedBuilder *builder,
                                const xmlNode *root)
{
  const char *ns = (const char *) root->ns->href;
  const xmlNode *best_link = NULL;
  const xmlNode *dc_title = NULL;
  int best_rank = 0;

  for (const xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;

      if (lwn_xml_node_is (child, ns, "title"))
        {
          if (builder->title == NULL)
            take_title (&builder->title, &builder->title_kind, child);
        }
      else if (lwn_xml_node_is (child, ns, "link"))
        consider_link (child, &best_link, &best_rank);
      else if (lwn_xml_node_is (child, ns, "author"))
        {
          if (builder->author == NULL)
            builder->author = dup_person_name (child, ns);
        }
      else if (dc_title == NULL && is_dc (child, "title"))
        dc_title = child;
      else
        lwn_feed_builder_take_syn (builder, child);
    }

  if (builder->title == NULL && dc_title != NULL)
    {
      builder->title = lwn_xml_node_dup_text (dc_title, LWN_XML_MAX_SHORT);
      builder->title_kind = LWN_TITLE_TEXT;
    }

  if (best_link != NULL)
    {
      g_autofree char *href = dup_href (best_link);
      g_autofree char *base = lwn_xml_node_dup_base (best_link, builder->document_url);

      builder->link = lwn_url_resolve (base != NULL ? base : builder->document_url, href);
    }

  return TRUE;
}
