/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A tiny HTTP/1.1 server on 127.0.0.1 (and, for tests that need several hosts, on 127.0.0.2 and on) that plays
 * scripted responses for the C tests, and counts how many requests it had at once. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _LwnTestServer LwnTestServer;

/* How the server answers one path. Zero-initialise and set what matters:
 * the route is copied when added. */
typedef struct
{
  guint status;               /* 0 means 200 */
  const char *content_type;   /* NULL: no Content-Type */
  const char *const *headers; /* extra "Name: value" lines, NULL-terminated; or NULL */
  const char *body;           /* NULL: empty */
  gsize body_length;          /* 0 with a body: strlen (body) */
  const char *location;       /* Location header, for redirects */
  const char *etag;           /* sent; a matching If-None-Match gets a 304 */
  const char *last_modified;  /* sent; a matching If-Modified-Since gets a 304 */
  gboolean gzip;              /* compress the body, Content-Encoding: gzip */
  gboolean endless;           /* chunked body that only stops when the client goes */
  guint delay_ms;             /* wait before answering */
  guint drip_bytes;           /* send the body this many bytes at a time ... */
  guint drip_interval_ms;     /* ... this often */
  gboolean reset_mid_body;    /* send half the body, then reset the connection */
} LwnTestRoute;

LwnTestServer *lwn_test_server_new (void);
LwnTestServer *lwn_test_server_new_hosts (guint n_hosts,
                                          GError **error);
void lwn_test_server_free (LwnTestServer *server);
void lwn_test_server_add_route (LwnTestServer *server,
                                const char *path,
                                const LwnTestRoute *route);
char *lwn_test_server_dup_url (LwnTestServer *server,
                               const char *path);
char *lwn_test_server_dup_host_url (LwnTestServer *server,
                                    guint host,
                                    const char *path);
guint lwn_test_server_get_max_at_once (LwnTestServer *server);
guint lwn_test_server_get_host_max_at_once (LwnTestServer *server,
                                            guint host);
guint lwn_test_server_count_requests (LwnTestServer *server,
                                      const char *path);
gint64 lwn_test_server_get_first_request_time (LwnTestServer *server,
                                               const char *path);
char *lwn_test_server_dup_request_header (LwnTestServer *server,
                                          const char *path,
                                          const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnTestServer, lwn_test_server_free)

G_END_DECLS
