/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads XML safely: libxml2 set-up, an entity budget, streamed parsing and readers that copy text out capped. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

#define LWN_NS_RSS10         "http://purl.org/rss/1.0/"
#define LWN_NS_RSS090        "http://my.netscape.com/rdf/simple/0.9/"
#define LWN_NS_RDF           "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
#define LWN_NS_DC            "http://purl.org/dc/elements/1.1/"
#define LWN_NS_DC10          "http://purl.org/dc/elements/1.0/"
#define LWN_NS_DCTERMS       "http://purl.org/dc/terms/"
#define LWN_NS_CONTENT       "http://purl.org/rss/1.0/modules/content/"
#define LWN_NS_SYN           "http://purl.org/rss/1.0/modules/syndication/"
#define LWN_NS_ATOM          "http://www.w3.org/2005/Atom"
#define LWN_NS_ATOM03        "http://purl.org/atom/ns#"
#define LWN_NS_XHTML         "http://www.w3.org/1999/xhtml"
#define LWN_NS_XML           "http://www.w3.org/XML/1998/namespace"

/* Byte caps on what is copied out of a document. */
#define LWN_XML_MAX_SHORT    4096  /* titles, links, ids, names, dates */
#define LWN_XML_MAX_LONG     65536 /* descriptions and content */

/* Called as each element of depth 2 or 3 (the root is 1) ends, while the
 * document is still being read. Return %TRUE when everything wanted from
 * @element has been copied out: its children and attributes are then
 * freed at once. */
typedef gboolean (*LwnXmlElementFunc) (const xmlNode *element,
                                       gpointer       user_data);

void        lwn_xml_init                    (void);

xmlDoc     *lwn_xml_read                    (GBytes            *body,
                                             const char        *charset,
                                             const char        *document_url,
                                             LwnXmlElementFunc  element_done,
                                             gpointer           user_data,
                                             GError           **error);
gboolean    lwn_xml_check_entities          (const xmlDoc *doc,
                                             GError      **error);
void        lwn_xml_doc_free                (xmlDoc *doc);

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
char       *lwn_xml_strdup_capped           (const char *text,
                                             gsize       max_bytes);

G_END_DECLS
