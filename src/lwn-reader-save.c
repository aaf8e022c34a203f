/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's saving: one write at a time off the main thread, later changes coalesced into the
 * next, and new items announced, and due reminders told, only once the write that records them has
 * completed; what no notification server showed before the last run ended is announced again. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-reader-private.h"

static void start_save (LwnReader *self);

/* Whether the settings want @item announced. */
static gboolean
is_wanted (LwnReader *self,
           LwnFeedItem *item)
{
  return self->notify && (self->notify_security_lists || !lwn_feed_item_is_security_list (item));
}

/* Announces what the settings want of @items, which stays pending until a notification server
 * shows it; the rest is not announced, and no longer pending. */
static void
announce (LwnReader *self,
          GPtrArray *items,
          gboolean first_run)
{
  g_autoptr (GPtrArray) wanted = NULL;
  gboolean dropped = FALSE;

  if (items->len == 0)
    return;

  wanted = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  for (guint i = 0; i < items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (items, i);

      if (is_wanted (self, item))
        g_ptr_array_add (wanted, lwn_feed_item_ref (item));
      else
        dropped |= lwn_store_drop_pending (self->store, lwn_feed_item_get_id (item));
    }
  if (dropped)
    lwn_reader_save_schedule (self);
  if (wanted->len == 0)
    return;

  /* A first run announces the feed as a whole: one notification, not a flood. */
  g_signal_emit_by_name (self, "announce", wanted,
                         first_run ? 1u : (guint) LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
}

/* Adds to @items what an earlier run left pending (lwn_reader_save_tell_pending()), once a save
 * shows that the state can be written again: while it cannot, what a server shows cannot be
 * recorded, and would be shown again at every start. Only what is still pending (not read since,
 * still in the feed) goes, after the new items: one announcement, so that the notifier groups them
 * as one. */
static void
take_retell (LwnReader *self,
             GPtrArray *items,
             gboolean *first_run)
{
  guint n = 0;

  for (guint i = 0; i < self->retell->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (self->retell, i);

      if (lwn_store_is_pending (self->store, lwn_feed_item_get_id (item)))
        {
          g_ptr_array_add (items, lwn_feed_item_ref (item));
          n++;
        }
    }
  if (self->retell->len == 0)
    return;
  g_debug ("Announcing again %u headlines that no notification server showed", n);
  if (n > 0)
    *first_run |= self->retell_first_run;
  g_ptr_array_set_size (self->retell, 0);
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
      /* On disk now, as pending: until a notification server shows them,
       * the next start announces them again. */
      take_retell (self, announced, &first_run);
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

/* Marks the items never seen before as announced, in memory, and those the
 * settings want announced as pending until a notification server shows
 * them; they are announced once a save has recorded that. */
void
lwn_reader_save_take_new_items (LwnReader *self,
                                LwnFeed *feed)
{
  gboolean first_run = !lwn_store_has_history (self->store);
  guint first_new = self->unannounced->len;
  gboolean pending = FALSE;

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      if (lwn_store_mark_announced (self->store, lwn_feed_item_get_id (item)))
        g_ptr_array_add (self->unannounced, lwn_feed_item_ref (item));
    }
  if (self->unannounced->len == first_new)
    return;
  self->unannounced_first_run |= first_run;

  /* The oldest first: a full set keeps the newest. Items that arrive while
   * notifications are off count as announced, so that turning them on
   * brings no flood. */
  for (guint i = self->unannounced->len; i-- > first_new;)
    {
      LwnFeedItem *item = g_ptr_array_index (self->unannounced, i);

      if (is_wanted (self, item))
        pending |= lwn_store_mark_pending (self->store, lwn_feed_item_get_id (item));
    }
  if (first_run && pending)
    lwn_store_set_pending_first_run (self->store, TRUE);
}

/* Once per run, when the first feed is shown: takes up what an earlier run
 * recorded as announced and no notification server showed, to announce it
 * again, grouped as a first run's if it was one, as far as it is still in
 * the feed, unread and wanted, once the next save has worked (the first
 * answer of the server asks for one). The rest is not announced any more. */
void
lwn_reader_save_tell_pending (LwnReader *self)
{
  GListModel *headlines = G_LIST_MODEL (self->headlines);
  guint n = g_list_model_get_n_items (headlines);

  if (self->pending_told)
    return;
  self->pending_told = TRUE;
  /* The feed shown has taken what is no longer in it out of the set. */
  if (!lwn_store_has_pending (self->store))
    return;

  self->retell_first_run = lwn_store_get_pending_first_run (self->store);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);
      LwnFeedItem *item = lwn_headline_get_item (headline);
      const char *id = lwn_headline_get_id (headline);

      if (!lwn_store_is_pending (self->store, id))
        continue;
      if (lwn_headline_get_unread (headline) && is_wanted (self, item))
        g_ptr_array_add (self->retell, lwn_feed_item_ref (item));
      else
        lwn_store_drop_pending (self->store, id);
    }
}
