/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module downloads a feed with libcurl through the desktop's proxy, in a worker thread: the GET is conditional, the limits are hard, and a cancellation stops the transfer. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LWN_FETCH_ERROR (lwn_fetch_error_quark ())

typedef enum
{
  LWN_FETCH_ERROR_RESOLVE,        /* cannot resolve host */
  LWN_FETCH_ERROR_CONNECT,        /* cannot connect */
  LWN_FETCH_ERROR_TLS,            /* TLS handshake or certificate failure */
  LWN_FETCH_ERROR_TIMED_OUT,      /* connect/overall timeout or too slow */
  LWN_FETCH_ERROR_HTTP_STATUS,    /* a status other than 200/304 */
  LWN_FETCH_ERROR_TOO_LARGE,      /* body over the cap (after decompression) */
  LWN_FETCH_ERROR_TOO_MANY_REDIRECTS,
  LWN_FETCH_ERROR_UNSUPPORTED_URL, /* not http(s)/file, or a redirect to one */
  LWN_FETCH_ERROR_FAILED,         /* anything else, with curl's own words */
} LwnFetchError;

GQuark lwn_fetch_error_quark (void);

/* The default cap on a body, after decompression. Other documents read from
 * outside (an OPML list) are held to it too. */
#define LWN_FETCH_MAX_BODY_BYTES (8 * 1024 * 1024)

typedef struct
{
  guint64 max_body_bytes;          /* 8 MiB */
  guint   connect_timeout_seconds; /* 15 */
  guint   total_timeout_seconds;   /* 60 */
  guint   low_speed_bytes;         /* 100 bytes/s ... */
  guint   low_speed_seconds;       /* ... for 30 s */
  guint   max_redirects;           /* 5 */
} LwnFetchLimits;

void lwn_fetch_limits_init_default (LwnFetchLimits *limits);

/* A request says what to fetch. The validators come from the last good response and may be NULL. */
typedef struct
{
  const char           *url;
  const char           *etag;
  const char           *last_modified;
  const LwnFetchLimits *limits;         /* NULL: the defaults */
  GProxyResolver       *proxy_resolver; /* NULL: g_proxy_resolver_get_default () */
} LwnFetchRequest;

typedef struct _LwnFetchResponse LwnFetchResponse;

void              lwn_fetch_response_unref            (LwnFetchResponse *response);
guint             lwn_fetch_response_get_status       (const LwnFetchResponse *response);
gboolean          lwn_fetch_response_is_not_modified  (const LwnFetchResponse *response);
GBytes           *lwn_fetch_response_get_body         (const LwnFetchResponse *response);
const char       *lwn_fetch_response_get_content_type (const LwnFetchResponse *response);
const char       *lwn_fetch_response_get_etag         (const LwnFetchResponse *response);
const char       *lwn_fetch_response_get_last_modified (const LwnFetchResponse *response);
const char       *lwn_fetch_response_get_effective_url (const LwnFetchResponse *response);
const char       *lwn_fetch_response_get_moved_to_url (const LwnFetchResponse *response);
gint64            lwn_fetch_response_get_max_age      (const LwnFetchResponse *response);
gint64            lwn_fetch_response_get_retry_after  (const LwnFetchResponse *response);
gboolean          lwn_fetch_response_check            (const LwnFetchResponse *response,
                                                       GError                **error);

LwnFetchResponse *lwn_fetch_sync                      (const LwnFetchRequest *request,
                                                       GCancellable          *cancellable,
                                                       GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnFetchResponse, lwn_fetch_response_unref)

G_END_DECLS
