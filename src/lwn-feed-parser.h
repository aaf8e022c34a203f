/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Turns a fetched body (RSS 0.9x/1.0/2.0, Atom 0.3/1.0 or JSON Feed 1.0/1.1) into an LwnFeed. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

#define LWN_PARSE_ERROR (lwn_parse_error_quark ())

typedef enum
{
  LWN_PARSE_ERROR_EMPTY,      /* no bytes, or only white space */
  LWN_PARSE_ERROR_MALFORMED,  /* not well-formed XML/JSON; message names the line */
  LWN_PARSE_ERROR_NOT_A_FEED, /* well-formed, but not RSS, Atom or JSON Feed */
  LWN_PARSE_ERROR_ENCODING,   /* an encoding we cannot decode */
} LwnParseError;

GQuark   lwn_parse_error_quark (void);

LwnFeed *lwn_feed_parse        (GBytes      *body,
                                const char  *content_type,
                                const char  *document_url,
                                GError     **error);

void     lwn_feed_parse_async  (GBytes                *body,
                                const char            *content_type,
                                const char            *document_url,
                                GCancellable          *cancellable,
                                GAsyncReadyCallback    callback,
                                gpointer               user_data);
LwnFeed *lwn_feed_parse_finish (GAsyncResult          *result,
                                GError               **error);

G_END_DECLS
