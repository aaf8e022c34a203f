/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file holds LwnReminder, a reference-counted value that never changes after construction, and
 * LwnReminders, the set of reminders in the order they were set, which keeps only the newest
 * LWN_REMINDERS_MAX. The set belongs to the main thread; a save's worker only holds references to
 * reminders. */

#include "config.h"

#include <string.h>

#include "lwn-reminders.h"
#include "lwn-str-hash.h"
#include "lwn-url.h"

struct _LwnReminder
{
  gatomicrefcount ref_count;
  char *item_id;
  char *title;
  char *url;
  GDateTime *free_on; /* UTC */
};

struct _LwnReminders
{
  GPtrArray *order;  /* LwnReminder*, in the order they were set, the one set longest ago first */
  GHashTable *by_id; /* item id → LwnReminder*, owned by order */
};

/* Tells whether the state file can hold @text faithfully: @text must be
 * non-empty valid UTF-8 of at most @max_bytes, without control characters.
 * GKeyFile drops a leading form feed, and an id or a link has no business
 * holding any control character. */
static gboolean
is_storable (const char *text,
             gsize max_bytes)
{
  gsize length = strnlen (text, max_bytes + 1);

  if (length == 0 || length > max_bytes || !g_utf8_validate (text, (gssize) length, NULL))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      if (g_ascii_iscntrl (text[i]))
        return FALSE;
    }
  return TRUE;
}

/* Returns @title as valid UTF-8, shortened to at most
 * LWN_REMINDER_MAX_TITLE_CHARS characters. */
static char *
dup_short_title (const char *title)
{
  g_autofree char *valid = g_utf8_make_valid (title, -1);
  g_autofree char *start = NULL;

  if (g_utf8_strlen (valid, -1) <= LWN_REMINDER_MAX_TITLE_CHARS)
    return g_steal_pointer (&valid);

  start = g_utf8_substring (valid, 0, LWN_REMINDER_MAX_TITLE_CHARS - 1);
  return g_strconcat (start, "…", NULL);
}

/**
 * lwn_reminder_new:
 * @item_id: the headline's id, valid UTF-8 of at most %LWN_REMINDER_MAX_ID_BYTES,
 *   without control characters
 * @title: its title, in plain text; shortened to %LWN_REMINDER_MAX_TITLE_CHARS
 *   characters, and made valid UTF-8
 * @url: the full-article URL to open once the article is free: http(s), at most
 *   %LWN_REMINDER_MAX_URL_BYTES
 * @free_on: when the article becomes free to read
 *
 * Returns: (transfer full) (nullable): a new reminder, or %NULL when @item_id
 *   or @url cannot be kept (empty, too long, not UTF-8, with control
 *   characters, or @url not http(s))
 */
LwnReminder *
lwn_reminder_new (const char *item_id,
                  const char *title,
                  const char *url,
                  GDateTime *free_on)
{
  LwnReminder *self;

  g_return_val_if_fail (item_id != NULL, NULL);
  g_return_val_if_fail (title != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (free_on != NULL, NULL);

  if (!is_storable (item_id, LWN_REMINDER_MAX_ID_BYTES) || !is_storable (url, LWN_REMINDER_MAX_URL_BYTES)
      || !lwn_url_is_launchable (url))
    return NULL;

  self = g_new0 (LwnReminder, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->item_id = g_strdup (item_id);
  self->title = dup_short_title (title);
  self->url = g_strdup (url);
  self->free_on = g_date_time_to_utc (free_on);
  return self;
}

LwnReminder *
lwn_reminder_ref (LwnReminder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
lwn_reminder_unref (LwnReminder *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->item_id);
  g_free (self->title);
  g_free (self->url);
  g_date_time_unref (self->free_on);
  g_free (self);
}

const char *
lwn_reminder_get_item_id (const LwnReminder *self)
{
  return self->item_id;
}

const char *
lwn_reminder_get_title (const LwnReminder *self)
{
  return self->title;
}

const char *
lwn_reminder_get_url (const LwnReminder *self)
{
  return self->url;
}

/**
 * lwn_reminder_get_free_on:
 * @self: a reminder
 *
 * Returns: (transfer none): when the article becomes free, in UTC
 */
GDateTime *
lwn_reminder_get_free_on (const LwnReminder *self)
{
  return self->free_on;
}

/**
 * lwn_reminder_is_due:
 * @self: a reminder
 * @now: the present
 *
 * Returns: %TRUE from the moment the article becomes free
 */
gboolean
lwn_reminder_is_due (const LwnReminder *self,
                     GDateTime *now)
{
  return g_date_time_compare (self->free_on, now) <= 0;
}

/* The set */

LwnReminders *
lwn_reminders_new (void)
{
  LwnReminders *self = g_new0 (LwnReminders, 1);

  self->order = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);
  self->by_id = lwn_str_hash_table_new (NULL, NULL);
  return self;
}

void
lwn_reminders_free (LwnReminders *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->by_id);
  g_ptr_array_unref (self->order);
  g_free (self);
}

/**
 * lwn_reminders_add:
 * @self: a set of reminders
 * @reminder: the reminder to add; the set takes a reference
 * @evicted: (out) (optional) (transfer full) (nullable): the reminder set
 *   longest ago, when the set was full and dropped that reminder to make
 *   room for @reminder
 *
 * Adds @reminder as the reminder set last, replacing any reminder for the
 * same item. When the set is full, it forgets the reminder set longest ago.
 *
 * Returns: %TRUE (the set always changes)
 */
gboolean
lwn_reminders_add (LwnReminders *self,
                   LwnReminder *reminder,
                   LwnReminder **evicted)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (reminder != NULL, FALSE);

  if (evicted != NULL)
    *evicted = NULL;

  lwn_reminders_remove (self, reminder->item_id);
  if (self->order->len >= LWN_REMINDERS_MAX)
    {
      LwnReminder *oldest = g_ptr_array_steal_index (self->order, 0);

      g_hash_table_remove (self->by_id, oldest->item_id);
      if (evicted != NULL)
        *evicted = oldest;
      else
        lwn_reminder_unref (oldest);
    }
  g_ptr_array_add (self->order, lwn_reminder_ref (reminder));
  g_hash_table_insert (self->by_id, reminder->item_id, reminder);
  return TRUE;
}

/**
 * lwn_reminders_remove:
 * @self: a set of reminders
 * @item_id: (nullable): an item id
 *
 * Returns: %TRUE if the item had a reminder, which is gone now
 */
gboolean
lwn_reminders_remove (LwnReminders *self,
                      const char *item_id)
{
  LwnReminder *reminder;

  g_return_val_if_fail (self != NULL, FALSE);

  reminder = item_id != NULL ? g_hash_table_lookup (self->by_id, item_id) : NULL;
  if (reminder == NULL)
    return FALSE;

  g_hash_table_remove (self->by_id, item_id);
  g_ptr_array_remove (self->order, reminder);
  return TRUE;
}

/**
 * lwn_reminders_lookup:
 * @self: a set of reminders
 * @item_id: (nullable): an item id
 *
 * Returns: (transfer none) (nullable): the item's reminder, if it has one
 */
LwnReminder *
lwn_reminders_lookup (LwnReminders *self,
                      const char *item_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  return item_id != NULL ? g_hash_table_lookup (self->by_id, item_id) : NULL;
}

guint
lwn_reminders_get_n (LwnReminders *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->order->len;
}

static gint
compare_free_on (gconstpointer a,
                 gconstpointer b)
{
  const LwnReminder *first = *(LwnReminder *const *) a;
  const LwnReminder *second = *(LwnReminder *const *) b;

  return g_date_time_compare (first->free_on, second->free_on);
}

/**
 * lwn_reminders_take_due:
 * @self: a set of reminders
 * @now: the present
 *
 * Takes the reminders whose article is free at @now out of the set.
 *
 * Returns: (transfer full) (element-type LwnReminder): those reminders, in
 *   the order they became free, earliest first; empty when none is due
 */
GPtrArray *
lwn_reminders_take_due (LwnReminders *self,
                        GDateTime *now)
{
  GPtrArray *due = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);

  g_return_val_if_fail (self != NULL, due);
  g_return_val_if_fail (now != NULL, due);

  for (guint i = 0; i < self->order->len;)
    {
      LwnReminder *reminder = g_ptr_array_index (self->order, i);

      if (!lwn_reminder_is_due (reminder, now))
        {
          i++;
          continue;
        }
      g_hash_table_remove (self->by_id, reminder->item_id);
      g_ptr_array_add (due, g_ptr_array_steal_index (self->order, i));
    }
  /* The sort is stable, so reminders that become free at the same moment keep
   * the order they were set in. */
  g_ptr_array_sort (due, compare_free_on);
  return due;
}

/**
 * lwn_reminders_dup_all:
 * @self: a set of reminders
 *
 * Returns: (transfer full) (element-type LwnReminder): every reminder, the
 *   one set longest ago first. The array holds references, so it is safe to
 *   hand to another thread.
 */
GPtrArray *
lwn_reminders_dup_all (LwnReminders *self)
{
  GPtrArray *all;

  g_return_val_if_fail (self != NULL, NULL);

  all = g_ptr_array_new_full (self->order->len, (GDestroyNotify) lwn_reminder_unref);
  for (guint i = 0; i < self->order->len; i++)
    g_ptr_array_add (all, lwn_reminder_ref (g_ptr_array_index (self->order, i)));
  return all;
}

void
lwn_reminders_clear (LwnReminders *self)
{
  g_return_if_fail (self != NULL);

  g_hash_table_remove_all (self->by_id);
  g_ptr_array_set_size (self->order, 0);
}
