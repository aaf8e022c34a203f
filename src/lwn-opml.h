/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the feeds out of an OPML subscription list, nested outlines flattened and every address and title checked,
 * and writes a list as well-formed OPML 2.0. */
#pragma once

#include <gio/gio.h>

#include "lwn-fetch.h"

G_BEGIN_DECLS

#define LWN_OPML_ERROR (lwn_opml_error_quark ())

/* The largest list read, in bytes: the same cap as a feed's. */
#define LWN_OPML_MAX_BYTES LWN_FETCH_MAX_BODY_BYTES
/* The most feeds one import adds; the rest of a longer list waits for the next. */
#define LWN_OPML_MAX_IMPORT 500
/* The longest title kept, in characters. */
#define LWN_OPML_MAX_TITLE_CHARS 200

typedef enum
{
  LWN_OPML_ERROR_MALFORMED, /* not well-formed XML; the message names the line */
  LWN_OPML_ERROR_NOT_OPML,  /* well-formed, but its root is not <opml> with a <body> */
  LWN_OPML_ERROR_NO_FEEDS,  /* OPML, but no outline names a feed this applet can follow */
  LWN_OPML_ERROR_TOO_LARGE, /* over LWN_OPML_MAX_BYTES; the message names the size and the cap */
} LwnOpmlError;

/* One subscription: a feed's address and what the list calls it. */
typedef struct
{
  char *url;      /* http or https */
  char *title;    /* (nullable) */
  char *site_url; /* (nullable) the web page the feed belongs to */
} LwnOpmlFeed;

/* What one import did with the feeds a list names. */
typedef struct
{
  guint added;      /* followed now */
  guint already;    /* followed before */
  guint over_limit; /* not followed yet, but past LWN_OPML_MAX_IMPORT: left for another import */
  guint skipped;    /* outlines whose address cannot be followed */
} LwnOpmlImport;

/* clang-format off */
GQuark       lwn_opml_error_quark     (void);

LwnOpmlFeed *lwn_opml_feed_new        (const char           *url,
                                       const char           *title,
                                       const char           *site_url);
void         lwn_opml_feed_free       (LwnOpmlFeed          *feed);

gboolean     lwn_opml_check_size      (guint64               size,
                                       GError              **error);
GPtrArray   *lwn_opml_parse           (GBytes               *data,
                                       guint                *n_skipped,
                                       GError              **error);
void         lwn_opml_parse_async     (GBytes               *data,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
GPtrArray   *lwn_opml_parse_finish    (GAsyncResult         *result,
                                       guint                *n_skipped,
                                       GError              **error);
char        *lwn_opml_write           (GPtrArray            *feeds,
                                       GDateTime            *created);
char        *lwn_opml_describe_import (const LwnOpmlImport  *import);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnOpmlFeed, lwn_opml_feed_free)

G_END_DECLS
