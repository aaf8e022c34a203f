/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Decides when to poll the feed next and says so with "refresh-due", one timer at a time. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Seconds between refreshes unless configured otherwise. */
#define LWN_DEFAULT_INTERVAL 1800
/* Shorter intervals are accepted, with a warning, for testing. */
#define LWN_MIN_INTERVAL 60

#define LWN_TYPE_SCHEDULER (lwn_scheduler_get_type ())

G_DECLARE_FINAL_TYPE (LwnScheduler, lwn_scheduler, LWN, SCHEDULER, GObject)

/* clang-format off */
LwnScheduler *lwn_scheduler_new                      (guint            interval_seconds,
                                                      gboolean         interval_forced);
void          lwn_scheduler_set_interval             (LwnScheduler    *self,
                                                      guint            interval_seconds,
                                                      gboolean         interval_forced);
void          lwn_scheduler_start                    (LwnScheduler    *self,
                                                      guint            first_delay_seconds);
guint         lwn_scheduler_record_success           (LwnScheduler    *self,
                                                      guint            feed_hint_seconds,
                                                      gint64           max_age_seconds);
guint         lwn_scheduler_record_failure           (LwnScheduler    *self,
                                                      gint64           retry_after_seconds);
void          lwn_scheduler_stop_polling             (LwnScheduler    *self);
void          lwn_scheduler_resume_polling           (LwnScheduler    *self);
void          lwn_scheduler_forget_feed              (LwnScheduler    *self);
guint         lwn_scheduler_get_consecutive_failures (LwnScheduler    *self);

/* Pure maths, exposed for the tests. */
guint         lwn_scheduler_compute_success_delay    (guint            interval_seconds,
                                                      gboolean         interval_forced,
                                                      guint            feed_hint_seconds,
                                                      gint64           max_age_seconds);
guint         lwn_scheduler_compute_failure_delay    (guint            interval_seconds,
                                                      guint            consecutive_failures,
                                                      gint64           retry_after_seconds,
                                                      guint32          jitter_seed);
/* clang-format on */

G_END_DECLS
