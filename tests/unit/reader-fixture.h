/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the reading model's tests share: a reader on a local HTTP server, feeds to serve, and waiting. */
#pragma once

#include "lwn-reader-private.h"
#include "lwn-test-server.h"

G_BEGIN_DECLS

#define FEED_PATH "/feed"
#define WAIT_SECONDS 10

typedef struct
{
  LwnTestServer *server;
  char *url;
  char *state_dir;
  char *cache_dir;
  LwnStore *store;
  LwnReader *reader;
  GPtrArray *announced; /* GPtrArray* of item ids, one per "announce" */
  GArray *max_single;
  gboolean no_server; /* nothing shows the announcements; else they are shown at once */
  GPtrArray *alerts;
  guint n_changed;
  guint want_requests; /* for has_wanted_requests() */
} Fixture;

typedef gboolean (*Predicate) (Fixture *fixture);

/* clang-format off */
char        *item_id             (guint         number,
                                  gsize         length);
char        *make_feed_full      (const guint  *numbers,
                                  guint         n,
                                  gsize         id_length);
char        *make_feed           (const guint  *numbers,
                                  guint         n);
void         serve_full          (Fixture      *fixture,
                                  const guint  *numbers,
                                  guint         n,
                                  gsize         id_length,
                                  const char   *etag);
void         serve               (Fixture      *fixture,
                                  const guint  *numbers,
                                  guint         n,
                                  const char   *etag);
void         serve_status        (Fixture      *fixture,
                                  const char   *path,
                                  guint         status,
                                  const char *const *headers);
void         open_reader         (Fixture      *fixture);
void         fixture_set_up      (Fixture      *fixture,
                                  gconstpointer data);
void         fixture_tear_down   (Fixture      *fixture,
                                  gconstpointer data);
void         wait_until          (Fixture      *fixture,
                                  Predicate     predicate,
                                  const char   *what);
void         settle              (void);
void         settle_saves        (Fixture      *fixture);
gboolean     is_saved            (Fixture      *fixture);
gboolean     is_ready            (Fixture      *fixture);
gboolean     is_failed           (Fixture      *fixture);
gboolean     has_announced       (Fixture      *fixture);
gboolean     has_alert           (Fixture      *fixture);
gboolean     not_refreshing      (Fixture      *fixture);
gboolean     has_wanted_requests (Fixture      *fixture);
void         start_and_load      (Fixture      *fixture);
GPtrArray   *announced           (Fixture      *fixture,
                                  guint         index);
LwnHeadline *headline_at         (Fixture      *fixture,
                                  guint         index);
/* clang-format on */

G_END_DECLS
