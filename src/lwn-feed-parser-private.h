/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the format parsers share: namespaces, safe libxml2 readers, dates and the feed builder. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

#define LWN_NS_RSS10         "http://purl.org/rss/1.0/"
#define LWN_NS_RSS090        "http://my.netscape.com/rdf/simple/0.9/"
#define LWN_NS_RDF           "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#define LWN_NS_DC            "http://purl.org/dc/elements/1.1/"
#define LWN_NS_CONTENT       "http://purl.org/rss/1.0/modules/content/"
#define LWN_NS_SYN           "http://purl.org/rss/1.0/modules/syndication/"
#define LWN_NS_ATOM          "http://www.w3.org/2005/Atom"
#define LWN_NS_XML           "http://www.w3.org/XML/1998/namespace"

/* Byte caps on what is copied out of a document. */
#define LWN_PARSE_MAX_SHORT  4096 /* titles, links, ids, names, dates */
#define LWN_PARSE_MAX_LONG   65536 /* descriptions and content */

/* How an item's or feed's title is to be read. */
typedef enum
{
  LWN_TITLE_GUESS, /* RSS: HTML only if it holds '<' or an entity reference */
  LWN_TITLE_TEXT,  /* plain text */
  LWN_TITLE_HTML,  /* HTML */
} LwnTitleKind;

/* An item as found in the document, before links are resolved and
 * fallbacks applied. Strings are owned; any may be NULL. */
typedef struct
{
  char *id;
  char *title;
  LwnTitleKind title_kind;
  char *link; /* as written */
  char *base; /* the item's own base URL (xml:base), absolute if known */
  char *author;
  char *summary; /* HTML: RSS description, Atom summary, JSON summary */
  char *content; /* HTML: content:encoded, Atom content, JSON content */
  char *date_text;
  GDateTime *date;
} LwnItemDraft;

/* The feed under construction. */
typedef struct
{
  const char *document_url;
  char *title;
  LwnTitleKind title_kind;
  char *link;   /* resolved site link */
  char *author; /* inherited by items that name nobody */
  guint ttl_seconds;
  char *syn_period;
  char *syn_frequency;
  GDateTime *refresh_base;
  GPtrArray *items;
} LwnFeedBuilder;

void        lwn_feed_parser_init            (void);

gboolean    lwn_xml_node_is                 (const xmlNode *node,
                                             const char    *ns_uri,
                                             const char    *name);
char       *lwn_xml_node_dup_text           (const xmlNode *node,
                                             gsize          max_bytes);
char       *lwn_xml_node_dup_markup         (const xmlNode *node,
                                             gsize          max_bytes);
char       *lwn_xml_node_dup_attr           (const xmlNode *node,
                                             const char    *ns_uri,
                                             const char    *name);
char       *lwn_xml_node_dup_base           (const xmlNode *node,
                                             const char    *document_url);
char       *lwn_feed_parser_strdup_capped   (const char *text,
                                             gsize       max_bytes);

GDateTime  *lwn_feed_parser_parse_rfc822    (const char *text);
GDateTime  *lwn_feed_parser_parse_iso8601   (const char *text);
GDateTime  *lwn_feed_parser_parse_date      (const char *text);

void        lwn_item_draft_clear            (LwnItemDraft *draft);
void        lwn_feed_builder_init           (LwnFeedBuilder *builder,
                                             const char     *document_url);
void        lwn_feed_builder_clear          (LwnFeedBuilder *builder);
gboolean    lwn_feed_builder_take_syn       (LwnFeedBuilder *builder,
                                             const xmlNode  *node);
void        lwn_feed_builder_take_ttl       (LwnFeedBuilder *builder,
                                             const char     *text);
void        lwn_feed_builder_add_item       (LwnFeedBuilder *builder,
                                             LwnItemDraft   *draft);
LwnFeed    *lwn_feed_builder_finish         (LwnFeedBuilder *builder);

LwnFeed    *lwn_feed_parser_parse_rss       (const xmlNode *root,
                                             const char    *document_url);
LwnFeed    *lwn_feed_parser_parse_atom      (const xmlNode *root,
                                             const char    *document_url);
LwnFeed    *lwn_feed_parser_parse_json      (GBytes      *body,
                                             const char  *document_url,
                                             GError     **error);

G_END_DECLS
