/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module keeps reminders to read a subscriber-only article once it is free: each reminder is an immutable value, and their set is bounded. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The set keeps at most this many reminders, the ones set last. */
#define LWN_REMINDERS_MAX            200
/* Longer ids and URLs get no reminder; longer titles are shortened. These
 * bound what the reminders add to the state file. */
#define LWN_REMINDER_MAX_ID_BYTES    2048
#define LWN_REMINDER_MAX_URL_BYTES   2048
#define LWN_REMINDER_MAX_TITLE_CHARS 200
/* This is the most that a full set can take in the state file. It counts
 * each field escaped (at most two bytes for each byte), a title of four-byte
 * characters, the time and the separators. */
#define LWN_REMINDERS_MAX_SAVED_BYTES \
  (LWN_REMINDERS_MAX * (2 * (LWN_REMINDER_MAX_ID_BYTES + LWN_REMINDER_MAX_URL_BYTES + 4 * (LWN_REMINDER_MAX_TITLE_CHARS + 1)) + 256))

typedef struct _LwnReminder  LwnReminder;
typedef struct _LwnReminders LwnReminders;

/* clang-format off */
LwnReminder  *lwn_reminder_new         (const char        *item_id,
                                        const char        *title,
                                        const char        *url,
                                        GDateTime         *free_on);
LwnReminder  *lwn_reminder_ref         (LwnReminder       *self);
void          lwn_reminder_unref       (LwnReminder       *self);
const char   *lwn_reminder_get_item_id (const LwnReminder *self);
const char   *lwn_reminder_get_title   (const LwnReminder *self);
const char   *lwn_reminder_get_url     (const LwnReminder *self);
GDateTime    *lwn_reminder_get_free_on (const LwnReminder *self);
gboolean      lwn_reminder_is_due      (const LwnReminder *self,
                                        GDateTime         *now);

LwnReminders *lwn_reminders_new        (void);
void          lwn_reminders_free       (LwnReminders      *self);
gboolean      lwn_reminders_add        (LwnReminders      *self,
                                        LwnReminder       *reminder,
                                        LwnReminder      **evicted);
gboolean      lwn_reminders_remove     (LwnReminders      *self,
                                        const char        *item_id);
LwnReminder  *lwn_reminders_lookup     (LwnReminders      *self,
                                        const char        *item_id);
guint         lwn_reminders_get_n      (LwnReminders      *self);
GPtrArray    *lwn_reminders_take_due   (LwnReminders      *self,
                                        GDateTime         *now);
GPtrArray    *lwn_reminders_dup_all    (LwnReminders      *self);
void          lwn_reminders_clear      (LwnReminders      *self);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnReminder, lwn_reminder_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnReminders, lwn_reminders_free)

G_END_DECLS
