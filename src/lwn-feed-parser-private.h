/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The format parsers the dispatcher in lwn-feed-parser.c calls; they call down to the builder, lwn-xml, lwn-date and lwn-url only. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

#include "lwn-feed-builder.h"
#include "lwn-feed.h"

G_BEGIN_DECLS

/* XML formats are read in two steps: items as each one ends, while the
 * document streams in, then the feed's own elements once it is whole. */
gboolean    lwn_feed_parser_rss_accepts     (const xmlNode *root);
gboolean    lwn_feed_parser_rss_take_item   (LwnFeedBuilder *builder,
                                             const xmlNode  *element);
gboolean    lwn_feed_parser_rss_read_feed   (LwnFeedBuilder *builder,
                                             const xmlNode  *root);

gboolean    lwn_feed_parser_atom_accepts    (const xmlNode *root);
gboolean    lwn_feed_parser_atom_take_item  (LwnFeedBuilder *builder,
                                             const xmlNode  *element);
gboolean    lwn_feed_parser_atom_read_feed  (LwnFeedBuilder *builder,
                                             const xmlNode  *root);

LwnFeed    *lwn_feed_parser_parse_json      (GBytes      *body,
                                             const char  *document_url,
                                             GError     **error);

G_END_DECLS
