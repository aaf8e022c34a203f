/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Assembles an LwnFeed from what the format parsers found: clean-up, fallbacks and link resolution. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

/* How an item's or feed's title is to be read. */
typedef enum
{
  LWN_TITLE_GUESS, /* RSS: HTML only if it holds an inline tag or an entity reference */
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
  char *link;    /* as written */
  char *base;    /* the link's base URL (xml:base), absolute if known */
  char *author;  /* a name, "address (Name)" or "Name <address>" */
  char *summary; /* HTML: RSS description, Atom summary, JSON summary */
  char *content; /* HTML: content:encoded, Atom content, JSON content */
  char *date_text;
  GDateTime *date;
} LwnItemDraft;

/* The feed under construction. Items are kept as drafts until
 * lwn_feed_builder_finish(), since the site link and the feed's author they
 * fall back on may come after them in the document. */
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
  GPtrArray *drafts;
} LwnFeedBuilder;

void        lwn_feed_builder_clear_draft    (LwnItemDraft *draft);
void        lwn_feed_builder_choose_date    (LwnItemDraft      *draft,
                                             const char *const *candidates,
                                             guint              n_candidates);

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

G_END_DECLS
