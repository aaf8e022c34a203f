/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's reminders: the person asks to be told when a subscriber-only article becomes free; at the
 * first start, poll or wake-up from that moment on, the reminder is taken out of the state and, once a save has
 * recorded that, told once with "reminder-due". */

#include "config.h"

#include <string.h>

#include "lwn-reader-private.h"

/* The title a reminder keeps: the article's, without LWN's "[$]" mark,
 * which says what the reminder is about and no longer holds once it is due. */
static char *
dup_reminder_title (LwnHeadline *headline)
{
  const char *title = lwn_headline_get_title (headline);

  if (g_str_has_prefix (title, "[$]"))
    title += strlen ("[$]");
  while (g_ascii_isspace (*title))
    title++;
  return g_strdup (*title != '\0' ? title : lwn_headline_get_title (headline));
}

static void
show_reminder (LwnReader *self,
               const char *item_id,
               gboolean reminder)
{
  LwnHeadline *headline = g_hash_table_lookup (self->headline_by_id, item_id);

  if (headline != NULL)
    lwn_headline_set_reminder (headline, reminder);
}

/* Takes out the reminders due now; they are told once the save that
 * records that has completed. */
void
lwn_reader_reminders_check (LwnReader *self)
{
  g_autoptr (GDateTime) now = lwn_reader_dup_now (self);
  g_autoptr (GPtrArray) due = lwn_reminders_take_due (lwn_store_get_reminders (self->store), now);

  if (due->len == 0)
    return;

  g_debug ("%u reminder(s) due", due->len);
  for (guint i = 0; i < due->len; i++)
    show_reminder (self, lwn_reminder_get_item_id (g_ptr_array_index (due, i)), FALSE);
  g_ptr_array_extend_and_steal (self->due_reminders, g_steal_pointer (&due));
  lwn_reader_save_schedule (self);
  lwn_reader_emit_changed (self);
}

/* Reading a headline ends its reminder. Returns whether it had one. */
gboolean
lwn_reader_reminders_forget (LwnReader *self,
                             const char *item_id)
{
  if (!lwn_reminders_remove (lwn_store_get_reminders (self->store), item_id))
    return FALSE;

  show_reminder (self, item_id, FALSE);
  lwn_reader_save_schedule (self);
  return TRUE;
}

/* Tells the reminders a save has recorded as gone. */
void
lwn_reader_reminders_tell (LwnReader *self,
                           GPtrArray *reminders)
{
  for (guint i = 0; i < reminders->len; i++)
    {
      LwnReminder *reminder = g_ptr_array_index (reminders, i);

      g_signal_emit_by_name (self, "reminder-due", lwn_reminder_get_item_id (reminder),
                             lwn_reminder_get_title (reminder), lwn_reminder_get_url (reminder));
    }
}

static gboolean
add_reminder (LwnReader *self,
              const char *item_id)
{
  LwnReminders *reminders = lwn_store_get_reminders (self->store);
  LwnHeadline *headline = g_hash_table_lookup (self->headline_by_id, item_id);
  g_autoptr (GDateTime) now = lwn_reader_dup_now (self);
  g_autoptr (GDateTime) free_on = NULL;
  g_autoptr (LwnReminder) reminder = NULL;
  g_autoptr (LwnReminder) evicted = NULL;
  g_autofree char *title = NULL;

  if (headline == NULL || lwn_reminders_lookup (reminders, item_id) != NULL)
    return FALSE;

  free_on = lwn_headline_dup_free_on (headline);
  if (free_on == NULL || g_date_time_compare (free_on, now) <= 0 || lwn_headline_get_url (headline) == NULL)
    {
      g_debug ("No reminder for %s: it is not a subscriber-only article that becomes free later", item_id);
      return FALSE;
    }

  title = dup_reminder_title (headline);
  reminder = lwn_reminder_new (item_id, title, lwn_headline_get_url (headline), free_on);
  if (reminder == NULL)
    {
      g_debug ("No reminder for %s: its id or link is too long to keep", item_id);
      return FALSE;
    }

  lwn_reminders_add (reminders, reminder, &evicted);
  if (evicted != NULL)
    show_reminder (self, lwn_reminder_get_item_id (evicted), FALSE);
  lwn_headline_set_reminder (headline, TRUE);
  return TRUE;
}

/**
 * lwn_reader_set_reminder:
 * @self: a #LwnReader
 * @item_id: an item of the current feed
 * @remind: whether to be told when it becomes free
 *
 * Asks to be told, with #LwnReader::reminder-due, when a subscriber-only
 * article of the feed becomes free to everyone, or takes that back. Only
 * articles with a date that are not free yet can have a reminder, and only
 * the %LWN_REMINDERS_MAX set last are kept: a new one beyond them takes the
 * place of the one set longest ago. A reminder outlives the article's
 * leaving the feed, and ends when it is due, when the headline is read on
 * its own (opened, or marked read from a notification), or here. "Mark all
 * as read" leaves reminders alone: they were asked for one by one. The
 * change is saved soon, off the main thread, and shown by the headline's
 * #LwnHeadline:reminder.
 *
 * Returns: %TRUE if the reminder was set or taken back; %FALSE if nothing
 *   changed: it was already so, or the item cannot have one
 */
gboolean
lwn_reader_set_reminder (LwnReader *self,
                         const char *item_id,
                         gboolean remind)
{
  gboolean changed;

  g_return_val_if_fail (LWN_IS_READER (self), FALSE);
  g_return_val_if_fail (item_id != NULL, FALSE);

  if (remind)
    changed = add_reminder (self, item_id);
  else
    changed = lwn_reminders_remove (lwn_store_get_reminders (self->store), item_id);

  if (!changed)
    return FALSE;

  show_reminder (self, item_id, remind);
  lwn_reader_save_schedule (self);
  lwn_reader_emit_changed (self);
  return TRUE;
}

/**
 * lwn_reader_has_reminder:
 * @self: a #LwnReader
 * @item_id: (nullable): an item, in the current feed or not
 *
 * Returns: %TRUE if a reminder is set for @item_id and was not taken as due yet
 */
gboolean
lwn_reader_has_reminder (LwnReader *self,
                         const char *item_id)
{
  g_return_val_if_fail (LWN_IS_READER (self), FALSE);

  return lwn_reminders_lookup (lwn_store_get_reminders (self->store), item_id) != NULL;
}
