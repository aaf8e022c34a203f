/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's fields and its hooks for tests. Only lwn-reader.c and the tests include this file:
 * the tests read the scheduler to make it fire, and set the clock. */
#pragma once

#include "lwn-reader-saver.h"
#include "lwn-reader.h"
#include "lwn-scheduler.h"

G_BEGIN_DECLS

/* The present, as a new UTC GDateTime: tests give the reader a clock of their own. */
typedef GDateTime *(*LwnReaderNowFunc) (gpointer user_data);

struct _LwnReader
{
  GObject parent_instance;

  LwnStore *store;
  LwnScheduler *scheduler;
  LwnReaderSaver *saver;
  char *feed_url; /* as configured; the store knows where it moved */
  gboolean notify;
  gboolean notify_security_lists;

  LwnFeed *feed; /* NULL until the first result */
  GListStore *headlines;
  GHashTable *headline_by_id; /* id → LwnHeadline*, owned by headlines */
  guint n_unread;
  GCancellable *cancellable; /* loads of the current feed URL */
  gboolean started;
  gboolean polling;       /* the scheduler runs */
  gboolean refreshing;    /* a request is under way, or waits for its turn */
  gboolean refresh_shown; /* the views show the refresh: asked for, or slow */
  guint show_refresh_id;
  gboolean stopped; /* HTTP 410 */
  char *error;
  GDateTime *failed_at; /* when the last load failed */
  char *status;
  gint64 last_request_us;    /* when the last request ended, monotonic; 0 for none */
  gboolean manual;           /* the request under way (or waiting) was asked for by the person */
  gboolean manual_unchanged; /* and the server said nothing changed */
  guint manual_id;

  char *save_error;      /* why the last save failed; NULL once one works */
  gboolean pending_told; /* what an earlier run left pending was taken up */
  GPtrArray *retell;     /* its items, announced again once a save works */
  gboolean retell_first_run;

  char *name;                     /* what the person calls the feed; NULL for its own title */
  guint first_poll_delay_seconds; /* keeps the feeds of a set from polling at once */
  guint first_poll_wait_seconds;  /* and feeds added together, saved copy or not */
  LwnFetchQueue *fetch_queue;     /* gives the requests their turns; NULL: each goes at once */
  gboolean quiet_first_run;       /* the first run records its headlines as announced, and announces none */

  LwnReaderNowFunc now_func;
  gpointer now_data;
};

/* clang-format off */
/* For tests: @func (NULL for the real clock) tells the reader what time it is. */
void lwn_reader_set_now_func (LwnReader        *self,
                              LwnReaderNowFunc  func,
                              gpointer          user_data);
/* For tests: a poll as the timer makes it. */
void lwn_reader_refresh_due  (LwnReader        *self);
/* clang-format on */

G_END_DECLS
