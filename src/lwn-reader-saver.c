/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's saver: writes the store off the main thread, one write at a time, and coalesces later
 * changes into the next write. New items and due reminders wait here until a write that records them ends;
 * the saver then hands them back through its callback. It calls only the store. */

#include "config.h"

#include "lwn-reader-saver.h"
#include "lwn-reminders.h"

struct _LwnReaderSaver
{
  LwnStore *store;
  LwnReaderSaverDoneFunc done;
  gpointer user_data;

  GCancellable *cancellable;
  gboolean saving;
  gboolean wanted; /* a change came after the write in flight began */
  guint idle_id;

  GPtrArray *unannounced; /* items recorded as announced in memory, not yet saved to disk */
  gboolean unannounced_first_run;
  GPtrArray *announcing; /* the items of the write in flight */
  gboolean announcing_first_run;
  GPtrArray *due_reminders; /* LwnReminder*, not saved as gone yet */
  GPtrArray *reminding;     /* those of the write in flight */
};

static void start_save (LwnReaderSaver *self);

static GPtrArray *
new_item_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
}

static GPtrArray *
new_reminder_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);
}

static void
save_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  LwnReaderSaver *self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) announced = NULL;
  g_autoptr (GPtrArray) reminded = NULL;
  gboolean first_run = FALSE;

  if (!lwn_store_save_finish (LWN_STORE (source), result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  self->saving = FALSE;

  if (error != NULL)
    {
      /* Whatever this write was to record stays unannounced until a write works. */
      g_ptr_array_extend_and_steal (self->unannounced, g_steal_pointer (&self->announcing));
      self->announcing = new_item_array ();
      self->unannounced_first_run |= self->announcing_first_run;
      self->announcing_first_run = FALSE;
      /* The due reminders wait too, before those that fell due since. */
      g_ptr_array_extend_and_steal (self->reminding, g_steal_pointer (&self->due_reminders));
      self->due_reminders = g_steal_pointer (&self->reminding);
      self->reminding = new_reminder_array ();
      announced = new_item_array ();
      reminded = new_reminder_array ();
    }
  else
    {
      announced = g_steal_pointer (&self->announcing);
      first_run = self->announcing_first_run;
      self->announcing = new_item_array ();
      self->announcing_first_run = FALSE;
      reminded = g_steal_pointer (&self->reminding);
      self->reminding = new_reminder_array ();
    }

  self->done (error, announced, first_run, reminded, self->user_data);

  if (self->wanted)
    start_save (self);
}

static void
start_save (LwnReaderSaver *self)
{
  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->saving)
    return;

  self->wanted = FALSE;
  self->saving = TRUE;
  g_ptr_array_extend_and_steal (self->announcing, g_steal_pointer (&self->unannounced));
  self->unannounced = new_item_array ();
  self->announcing_first_run |= self->unannounced_first_run;
  self->unannounced_first_run = FALSE;
  g_ptr_array_extend_and_steal (self->reminding, g_steal_pointer (&self->due_reminders));
  self->due_reminders = new_reminder_array ();

  /* The saver outlives its writes: lwn_reader_saver_free() cancels them. */
  lwn_store_save_async (self->store, self->cancellable, save_cb, self);
}

static gboolean
save_idle_cb (gpointer user_data)
{
  LwnReaderSaver *self = user_data;

  self->idle_id = 0;
  start_save (self);
  return G_SOURCE_REMOVE;
}

/**
 * lwn_reader_saver_new:
 * @store: the store to write
 * @done: called each time a write ends
 * @user_data: data for @done
 *
 * Returns: (transfer full): a saver that writes nothing until
 *   lwn_reader_saver_schedule()
 */
LwnReaderSaver *
lwn_reader_saver_new (LwnStore *store,
                      LwnReaderSaverDoneFunc done,
                      gpointer user_data)
{
  LwnReaderSaver *self;

  g_return_val_if_fail (LWN_IS_STORE (store), NULL);
  g_return_val_if_fail (done != NULL, NULL);

  self = g_new0 (LwnReaderSaver, 1);
  self->store = g_object_ref (store);
  self->done = done;
  self->user_data = user_data;
  self->cancellable = g_cancellable_new ();
  self->unannounced = new_item_array ();
  self->announcing = new_item_array ();
  self->due_reminders = new_reminder_array ();
  self->reminding = new_reminder_array ();
  return self;
}

/**
 * lwn_reader_saver_free:
 * @self: (nullable): a #LwnReaderSaver
 *
 * Cancels the write in flight, if any: its callback is not called.
 */
void
lwn_reader_saver_free (LwnReaderSaver *self)
{
  if (self == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->unannounced, g_ptr_array_unref);
  g_clear_pointer (&self->announcing, g_ptr_array_unref);
  g_clear_pointer (&self->due_reminders, g_ptr_array_unref);
  g_clear_pointer (&self->reminding, g_ptr_array_unref);
  g_free (self);
}

/**
 * lwn_reader_saver_schedule:
 * @self: a #LwnReaderSaver
 *
 * Asks for a write. Everything changed in one main-loop iteration (a click,
 * Mark all as read, a new feed) goes into one write, after the one in flight
 * if there is one.
 */
void
lwn_reader_saver_schedule (LwnReaderSaver *self)
{
  g_return_if_fail (self != NULL);

  self->wanted = TRUE;
  if (!self->saving && self->idle_id == 0)
    self->idle_id = g_idle_add (save_idle_cb, self);
}

/**
 * lwn_reader_saver_stop:
 * @self: a #LwnReaderSaver
 *
 * Drops the write that waits for the main loop: at the end of the program,
 * the owner saves the store itself, synchronously.
 */
void
lwn_reader_saver_stop (LwnReaderSaver *self)
{
  g_return_if_fail (self != NULL);

  g_clear_handle_id (&self->idle_id, g_source_remove);
}

/**
 * lwn_reader_saver_add_item:
 * @self: a #LwnReaderSaver
 * @item: an item the store now records as announced
 *
 * Keeps @item until a write that records it ends, and then hands it to
 * the callback in @announced.
 */
void
lwn_reader_saver_add_item (LwnReaderSaver *self,
                           LwnFeedItem *item)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (item != NULL);

  g_ptr_array_add (self->unannounced, lwn_feed_item_ref (item));
}

/**
 * lwn_reader_saver_set_first_run:
 * @self: a #LwnReaderSaver
 *
 * Says that the items added since the last write began came from the
 * feed of a first run, which the callback's @first_run then reports.
 */
void
lwn_reader_saver_set_first_run (LwnReaderSaver *self)
{
  g_return_if_fail (self != NULL);

  self->unannounced_first_run = TRUE;
}

/**
 * lwn_reader_saver_has_items:
 * @self: a #LwnReaderSaver
 *
 * Returns: %TRUE if items wait for a write that has not begun yet
 */
gboolean
lwn_reader_saver_has_items (LwnReaderSaver *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->unannounced->len > 0;
}

/**
 * lwn_reader_saver_is_idle:
 * @self: a #LwnReaderSaver
 *
 * Tests wait for this before they change the state folder under the saver,
 * because a write in flight would create the folder again.
 *
 * Returns: %TRUE if no write is in flight and none is scheduled
 */
gboolean
lwn_reader_saver_is_idle (LwnReaderSaver *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return !self->saving && !self->wanted && self->idle_id == 0;
}

/**
 * lwn_reader_saver_take_due_reminders:
 * @self: a #LwnReaderSaver
 * @now: the present, by the reader's clock
 *
 * Takes the reminders due at @now out of the store's set and asks for a
 * write that records that. The saver keeps them until such a write ends,
 * and then hands them to the callback in @reminded, so that each is told
 * once.
 *
 * Returns: (transfer container) (element-type LwnReminder): the reminders
 *   taken, oldest due first; empty when none is due
 */
GPtrArray *
lwn_reader_saver_take_due_reminders (LwnReaderSaver *self,
                                     GDateTime *now)
{
  LwnReminders *reminders;
  g_autoptr (GPtrArray) due = NULL;
  GPtrArray *taken;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (now != NULL, NULL);

  reminders = lwn_store_get_reminders (self->store);
  due = lwn_reminders_take_due (reminders, now);
  taken = g_ptr_array_new_full (due->len, (GDestroyNotify) lwn_reminder_unref);
  for (guint i = 0; i < due->len; i++)
    g_ptr_array_add (taken, lwn_reminder_ref (g_ptr_array_index (due, i)));
  if (due->len > 0)
    {
      g_ptr_array_extend_and_steal (self->due_reminders, g_steal_pointer (&due));
      /* As lwn_reader_saver_schedule() does. */
      self->wanted = TRUE;
      if (!self->saving && self->idle_id == 0)
        self->idle_id = g_idle_add (save_idle_cb, self);
    }
  return taken;
}
