/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's saving: one write at a time off the main thread, later changes coalesced into the
 * next, and new items announced, and due reminders told, only once the write that records them has
 * completed. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-reader-private.h"

static void start_save (LwnReader *self);

static void
announce (LwnReader *self,
          GPtrArray *items,
          gboolean first_run)
{
  g_autoptr (GPtrArray) wanted = NULL;

  if (!self->notify || items->len == 0)
    return;

  wanted = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  for (guint i = 0; i < items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (items, i);

      if (self->notify_security_lists || !lwn_feed_item_is_security_list (item))
        g_ptr_array_add (wanted, lwn_feed_item_ref (item));
    }
  if (wanted->len == 0)
    return;

  /* A first run announces the feed as a whole: one notification, not a flood. */
  g_signal_emit_by_name (self, "announce", wanted,
                         first_run ? 1u : (guint) LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
}

static void
save_failed (LwnReader *self,
             const GError *error)
{
  gboolean first = self->save_error == NULL;

  g_free (self->save_error);
  self->save_error = g_strdup (error->message);

  /* Whatever this save was to record stays unannounced until a save works. */
  g_ptr_array_extend_and_steal (self->unannounced, g_steal_pointer (&self->announcing));
  self->announcing = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  self->unannounced_first_run |= self->announcing_first_run;
  self->announcing_first_run = FALSE;
  /* And so do the due reminders, before those that fell due since. */
  g_ptr_array_extend_and_steal (self->reminding, g_steal_pointer (&self->due_reminders));
  self->due_reminders = g_steal_pointer (&self->reminding);
  self->reminding = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);

  if (first)
    {
      g_warning ("Could not save what was read and announced: %s", error->message);
      g_signal_emit_by_name (self, "alert", _ ("New headlines cannot be recorded"), error->message);
    }
  lwn_reader_update (self);
}

static void
save_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  LwnReader *self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) announced = NULL;
  g_autoptr (GPtrArray) reminded = NULL;
  gboolean first_run;

  if (!lwn_store_save_finish (LWN_STORE (source), result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  self->saving = FALSE;

  if (error != NULL)
    save_failed (self, error);
  else
    {
      announced = g_steal_pointer (&self->announcing);
      first_run = self->announcing_first_run;
      self->announcing = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
      self->announcing_first_run = FALSE;
      reminded = g_steal_pointer (&self->reminding);
      self->reminding = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);
      if (self->save_error != NULL)
        {
          g_message ("The state can be saved again");
          g_clear_pointer (&self->save_error, g_free);
          lwn_reader_update (self);
        }
      /* On disk now: a crash from here on loses a notification rather than
       * repeating it at every start. */
      announce (self, announced, first_run);
      lwn_reader_reminders_tell (self, reminded);
    }

  if (self->save_wanted)
    start_save (self);
}

static void
start_save (LwnReader *self)
{
  g_clear_handle_id (&self->save_idle_id, g_source_remove);
  if (self->saving)
    return;

  self->save_wanted = FALSE;
  self->saving = TRUE;
  g_ptr_array_extend_and_steal (self->announcing, g_steal_pointer (&self->unannounced));
  self->unannounced = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  self->announcing_first_run |= self->unannounced_first_run;
  self->unannounced_first_run = FALSE;
  g_ptr_array_extend_and_steal (self->reminding, g_steal_pointer (&self->due_reminders));
  self->due_reminders = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);

  /* The reader outlives its saves: dispose cancels them. */
  lwn_store_save_async (self->store, self->save_cancellable, save_cb, self);
}

static gboolean
save_idle_cb (gpointer user_data)
{
  LwnReader *self = user_data;

  self->save_idle_id = 0;
  start_save (self);
  return G_SOURCE_REMOVE;
}

/* Everything changed in one main-loop iteration (a click, Mark all as read,
 * a new feed) goes into one write, after the one in flight if there is one. */
void
lwn_reader_save_schedule (LwnReader *self)
{
  self->save_wanted = TRUE;
  if (!self->saving && self->save_idle_id == 0)
    self->save_idle_id = g_idle_add (save_idle_cb, self);
}

/* Marks the items never seen before as announced, in memory; they are
 * announced once a save has recorded that. */
void
lwn_reader_save_take_new_items (LwnReader *self,
                                LwnFeed *feed)
{
  gboolean first_run = !lwn_store_has_history (self->store);
  guint n_new = 0;

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      if (lwn_store_mark_announced (self->store, lwn_feed_item_get_id (item)))
        {
          g_ptr_array_add (self->unannounced, lwn_feed_item_ref (item));
          n_new++;
        }
    }
  if (n_new > 0)
    self->unannounced_first_run |= first_run;
}
