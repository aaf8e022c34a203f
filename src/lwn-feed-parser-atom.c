/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Atom 1.0 (RFC 4287): feed and entry elements in the Atom namespace, text constructs, links and xml:base. */

#include "config.h"

#include <string.h>

#include "lwn-feed-parser-private.h"
#include "lwn-url.h"

#define NS_XHTML "http://www.w3.org/1999/xhtml"

typedef enum
{
  TEXT_NONE,
  TEXT_PLAIN,
  TEXT_HTML,
} TextKind;

/* Reads a text construct (RFC 4287, section 3.1) as plain text or HTML.
 * Out-of-line content (src=) and other media types give TEXT_NONE. */
static char *
dup_text_construct (const xmlNode *node,
                    gsize max_bytes,
                    TextKind *kind)
{
  g_autofree char *type = lwn_xml_node_dup_attr (node, NULL, "type");
  g_autofree char *src = lwn_xml_node_dup_attr (node, NULL, "src");

  *kind = TEXT_NONE;
  if (src != NULL)
    return NULL;
  if (type != NULL)
    g_strstrip (type);

  if (type == NULL || g_ascii_strcasecmp (type, "text") == 0 || g_ascii_strncasecmp (type, "text/plain", 10) == 0)
    {
      *kind = TEXT_PLAIN;
      return lwn_xml_node_dup_text (node, max_bytes);
    }

  if (g_ascii_strcasecmp (type, "html") == 0 || g_ascii_strncasecmp (type, "text/html", 9) == 0)
    {
      *kind = TEXT_HTML;
      return lwn_xml_node_dup_text (node, max_bytes);
    }

  if (g_ascii_strcasecmp (type, "xhtml") == 0 || g_ascii_strncasecmp (type, "application/xhtml+xml", 21) == 0)
    {
      /* The content is wrapped in one XHTML <div>, which is not part of it. */
      for (const xmlNode *child = node->children; child != NULL; child = child->next)
        {
          if (lwn_xml_node_is (child, NS_XHTML, "div"))
            {
              *kind = TEXT_HTML;
              return lwn_xml_node_dup_markup (child, max_bytes);
            }
        }
      *kind = TEXT_HTML;
      return lwn_xml_node_dup_markup (node, max_bytes);
    }

  if (g_ascii_strncasecmp (type, "text/", 5) == 0)
    {
      *kind = TEXT_PLAIN;
      return lwn_xml_node_dup_text (node, max_bytes);
    }

  return NULL;
}

/* A text construct as HTML: plain text is escaped, so converting it back
 * to text gives it verbatim. */
static char *
dup_html_construct (const xmlNode *node)
{
  TextKind kind;
  g_autofree char *text = dup_text_construct (node, LWN_PARSE_MAX_LONG, &kind);

  if (text == NULL)
    return NULL;
  if (kind == TEXT_PLAIN)
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      return lwn_feed_parser_strdup_capped (escaped, LWN_PARSE_MAX_LONG);
    }
  return g_steal_pointer (&text);
}

static void
take_title (char **title,
            LwnTitleKind *title_kind,
            const xmlNode *node)
{
  TextKind kind;

  if (*title != NULL)
    return;
  *title = dup_text_construct (node, LWN_PARSE_MAX_SHORT, &kind);
  *title_kind = kind == TEXT_HTML ? LWN_TITLE_HTML : LWN_TITLE_TEXT;
}

/* How well a <link> serves as the page to open: 0 not at all, 3 best. */
static int
link_rank (const xmlNode *link)
{
  g_autofree char *rel = lwn_xml_node_dup_attr (link, NULL, "rel");
  g_autofree char *type = lwn_xml_node_dup_attr (link, NULL, "type");
  g_autofree char *href = lwn_xml_node_dup_attr (link, NULL, "href");

  if (href == NULL || *g_strstrip (href) == '\0')
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

static char *
dup_person_name (const xmlNode *person)
{
  for (const xmlNode *child = person->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, LWN_NS_ATOM, "name"))
        return lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);
    }
  return NULL;
}

static void
parse_entry (LwnFeedBuilder *builder,
             const xmlNode *entry)
{
  LwnItemDraft draft = { 0 };
  g_autofree char *published = NULL;
  g_autofree char *updated = NULL;
  const xmlNode *best_link = NULL;
  int best_rank = 0;

  draft.title_kind = LWN_TITLE_TEXT;

  for (const xmlNode *child = entry->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE || child->ns == NULL)
        continue;

      if (lwn_xml_node_is (child, LWN_NS_ATOM, "id"))
        {
          if (draft.id == NULL)
            draft.id = lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);
        }
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "title"))
        take_title (&draft.title, &draft.title_kind, child);
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "link"))
        consider_link (child, &best_link, &best_rank);
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "summary"))
        {
          if (draft.summary == NULL)
            draft.summary = dup_html_construct (child);
        }
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "content"))
        {
          if (draft.content == NULL)
            draft.content = dup_html_construct (child);
        }
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "published"))
        {
          if (published == NULL)
            published = lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);
        }
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "updated"))
        {
          if (updated == NULL)
            updated = lwn_xml_node_dup_text (child, LWN_PARSE_MAX_SHORT);
        }
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "author"))
        {
          if (draft.author == NULL)
            draft.author = dup_person_name (child);
        }
    }

  if (best_link != NULL)
    {
      draft.link = lwn_xml_node_dup_attr (best_link, NULL, "href");
      draft.base = lwn_xml_node_dup_base (best_link, builder->document_url);
    }

  draft.date = lwn_feed_parser_parse_date (published);
  if (draft.date != NULL)
    draft.date_text = g_steal_pointer (&published);
  else
    {
      draft.date = lwn_feed_parser_parse_date (updated);
      draft.date_text = g_strdup (updated != NULL ? updated : published);
    }

  lwn_feed_builder_add_item (builder, &draft);
}

/**
 * lwn_feed_parser_parse_atom:
 * @root: the document's atom:feed element
 * @document_url: (nullable): the URL the document came from
 *
 * Returns: (transfer full): the feed
 */
LwnFeed *
lwn_feed_parser_parse_atom (const xmlNode *root,
                            const char *document_url)
{
  LwnFeedBuilder builder;
  const xmlNode *best_link = NULL;
  int best_rank = 0;

  lwn_feed_builder_init (&builder, document_url);

  /* Feed metadata first: entries fall back on the site link and author. */
  for (const xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;

      if (lwn_xml_node_is (child, LWN_NS_ATOM, "title"))
        take_title (&builder.title, &builder.title_kind, child);
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "link"))
        consider_link (child, &best_link, &best_rank);
      else if (lwn_xml_node_is (child, LWN_NS_ATOM, "author"))
        {
          if (builder.author == NULL)
            builder.author = dup_person_name (child);
        }
      else
        lwn_feed_builder_take_syn (&builder, child);
    }

  if (best_link != NULL)
    {
      g_autofree char *href = lwn_xml_node_dup_attr (best_link, NULL, "href");
      g_autofree char *base = lwn_xml_node_dup_base (best_link, document_url);

      builder.link = lwn_url_resolve (base != NULL ? base : document_url, g_strstrip (href));
    }

  for (const xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (lwn_xml_node_is (child, LWN_NS_ATOM, "entry"))
        parse_entry (&builder, child);
    }

  return lwn_feed_builder_finish (&builder);
}
