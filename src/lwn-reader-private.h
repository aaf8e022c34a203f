/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the parts of the reading model share: its fields, and the helpers that keep views informed. */
#pragma once

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
  gboolean pending_told;   /* what an earlier run left pending was taken up */
  GPtrArray *retell;       /* its items, announced again once a save works */
  gboolean retell_first_run;

  /* Reminders: those due, taken out of the store's set and told once a save
   * has recorded that, as new items are announced. */
  LwnReaderNowFunc now_func;
  gpointer now_data;
  GPtrArray *due_reminders; /* LwnReminder*, not saved as gone yet */
  GPtrArray *reminding;     /* those of the save in flight */
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
GDateTime  *lwn_reader_dup_now             (LwnReader  *self);
/* For tests: @func (NULL for the real clock) tells the reader what time it is. */
void        lwn_reader_set_now_func        (LwnReader        *self,
                                            LwnReaderNowFunc  func,
                                            gpointer          user_data);

/* lwn-reader.c: for the tests, a poll as the timer makes it */
void        lwn_reader_refresh_due         (LwnReader  *self);

/* lwn-reader-load.c: asking the server, and the saved copy at start-up */
void        lwn_reader_load_refresh        (LwnReader  *self);
void        lwn_reader_load_cache          (LwnReader  *self);

/* lwn-reader-save.c: recording on disk, and announcing what was recorded */
void        lwn_reader_save_schedule       (LwnReader  *self);
void        lwn_reader_save_take_new_items (LwnReader  *self,
                                            LwnFeed    *feed);
void        lwn_reader_save_tell_pending   (LwnReader  *self);

/* lwn-reader-reminders.c: asking to be told when a subscriber-only article is free */
void        lwn_reader_reminders_check     (LwnReader  *self);
gboolean    lwn_reader_reminders_forget    (LwnReader  *self,
                                            const char *item_id);
void        lwn_reader_reminders_tell      (LwnReader  *self,
                                            GPtrArray  *reminders);
/* clang-format on */

G_END_DECLS
