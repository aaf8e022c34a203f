/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's saver: one write of the store at a time, off the main thread, with what waits on it. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"
#include "lwn-store.h"

G_BEGIN_DECLS

typedef struct _LwnReaderSaver LwnReaderSaver;

/**
 * LwnReaderSaverDoneFunc:
 * @error: (nullable): why the save failed, or %NULL when it worked
 * @announced: (element-type LwnFeedItem): the items the save recorded as
 *   announced, in the order they were added; empty when it failed
 * @first_run: whether any of @announced came from the first run's feed
 * @reminded: (element-type LwnReminder): the due reminders the save
 *   recorded as gone; empty when it failed
 * @user_data: the data given to lwn_reader_saver_new()
 *
 * Called on the main thread when a save ends, but not when it was
 * cancelled. A failed save keeps its items and reminders for the next one.
 * The saver owns both arrays and drops them once the callback returns; the
 * callback may add to @announced what it wants to announce with them.
 */
typedef void (*LwnReaderSaverDoneFunc) (const GError *error,
                                        GPtrArray *announced,
                                        gboolean first_run,
                                        GPtrArray *reminded,
                                        gpointer user_data);

/* clang-format off */
LwnReaderSaver *lwn_reader_saver_new           (LwnStore               *store,
                                                LwnReaderSaverDoneFunc  done,
                                                gpointer                user_data);
void            lwn_reader_saver_free          (LwnReaderSaver         *self);
void            lwn_reader_saver_schedule      (LwnReaderSaver         *self);
void            lwn_reader_saver_stop          (LwnReaderSaver         *self);
void            lwn_reader_saver_add_item      (LwnReaderSaver         *self,
                                                LwnFeedItem            *item);
void            lwn_reader_saver_set_first_run (LwnReaderSaver         *self);
gboolean        lwn_reader_saver_has_items     (LwnReaderSaver         *self);
gboolean        lwn_reader_saver_is_idle       (LwnReaderSaver         *self);
GPtrArray      *lwn_reader_saver_take_due_reminders (LwnReaderSaver    *self,
                                                     GDateTime         *now);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnReaderSaver, lwn_reader_saver_free)

G_END_DECLS
