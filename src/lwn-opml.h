/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the feeds out of an OPML subscription list, nested outlines flattened, and writes a list as OPML 2.0. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LWN_OPML_ERROR (lwn_opml_error_quark ())

typedef enum
{
  LWN_OPML_ERROR_MALFORMED, /* not well-formed XML; the message names the line */
  LWN_OPML_ERROR_NOT_OPML,  /* well-formed, but its root is not <opml> with a <body> */
  LWN_OPML_ERROR_NO_FEEDS,  /* OPML, but no outline names a feed this applet can follow */
} LwnOpmlError;

/* One subscription: a feed's address and what the list calls it. */
typedef struct
{
  char *url;      /* http or https */
  char *title;    /* (nullable) */
  char *site_url; /* (nullable) the web page the feed belongs to */
} LwnOpmlFeed;

/* clang-format off */
GQuark       lwn_opml_error_quark (void);

LwnOpmlFeed *lwn_opml_feed_new    (const char  *url,
                                   const char  *title,
                                   const char  *site_url);
void         lwn_opml_feed_free   (LwnOpmlFeed *feed);

GPtrArray   *lwn_opml_parse       (GBytes      *data,
                                   guint       *n_skipped,
                                   GError     **error);
char        *lwn_opml_write       (GPtrArray   *feeds,
                                   GDateTime   *created);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnOpmlFeed, lwn_opml_feed_free)

G_END_DECLS
