/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the parts of the reading model share: its fields, and the helpers that keep views informed. */
#pragma once

#include "lwn-reader.h"
#include "lwn-scheduler.h"

G_BEGIN_DECLS

struct _LwnReader
{
  GObject parent_instance;

  LwnStore *store;
  LwnScheduler *scheduler;
  char *feed_url; /* as configured; the store knows where it moved */
  gboolean notify;
  gboolean notify_security_lists;

  LwnFeed *feed; /* NULL until the first result */
  GListStore *headlines;
  GHashTable *headline_by_id; /* id → LwnHeadline*, owned by headlines */
  guint n_unread;
  GCancellable *cancellable; /* loads of the current feed URL */
  gboolean started;
  gboolean polling; /* the scheduler runs */
  gboolean refreshing;
  gboolean stopped; /* HTTP 410 */
  char *error;
  GDateTime *failed_at; /* when the last load failed */
  char *status;
  gint64 last_request_us;    /* when the last request ended, monotonic; 0 for none */
  gboolean manual;           /* the request under way (or waiting) was asked for by the person */
  gboolean manual_unchanged; /* and the server said nothing changed */
  guint manual_id;

  /* Saving: one write at a time, later changes coalesced into the next one. */
  GCancellable *save_cancellable;
  gboolean saving;
  gboolean save_wanted;
  guint save_idle_id;
  char *save_error;
  GPtrArray *unannounced; /* items recorded as announced, not yet saved to disk */
  gboolean unannounced_first_run;
  GPtrArray *announcing; /* the items of the save in flight */
  gboolean announcing_first_run;
};

/* lwn-reader.c */
/* clang-format off */
const char *lwn_reader_get_current_url     (LwnReader  *self);
void        lwn_reader_emit_changed        (LwnReader  *self);
void        lwn_reader_update              (LwnReader  *self);
void        lwn_reader_notify_state        (LwnReader  *self);
void        lwn_reader_set_error           (LwnReader  *self,
                                            const char *error);
void        lwn_reader_set_refreshing      (LwnReader  *self,
                                            gboolean    refreshing);
void        lwn_reader_show_feed           (LwnReader  *self,
                                            LwnFeed    *feed);

/* lwn-reader.c: for the tests, a poll as the timer makes it */
void        lwn_reader_refresh_due         (LwnReader  *self);

/* lwn-reader-load.c: asking the server, and the saved copy at start-up */
void        lwn_reader_load_refresh        (LwnReader  *self);
void        lwn_reader_load_cache          (LwnReader  *self);

/* lwn-reader-save.c: recording on disk, and announcing what was recorded */
void        lwn_reader_save_schedule       (LwnReader  *self);
void        lwn_reader_save_take_new_items (LwnReader  *self,
                                            LwnFeed    *feed);
/* clang-format on */

G_END_DECLS
