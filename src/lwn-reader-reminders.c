/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model's reminders: a person asks to be told when a subscriber-only article becomes free, and
 * this file decides whether a headline can have a reminder and what the reminder keeps. It knows the headline
 * and the reminder types, and nothing of the reader. */

#include "config.h"

#include <string.h>

#include "lwn-reader-reminders.h"

/* The title a reminder keeps is the article's without LWN's "[$]" mark:
 * the mark says that the article is not free yet, which no longer holds
 * once the reminder is due. */
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

/**
 * lwn_reader_reminders_make_for:
 * @headline: a headline of the current feed
 * @now: the present, by the reader's clock
 *
 * Only a subscriber-only article with a link and a date later than @now
 * can have a reminder.
 *
 * Returns: (transfer full) (nullable): a reminder that falls due when the
 *   article of @headline becomes free, or %NULL when it cannot have one
 */
LwnReminder *
lwn_reader_reminders_make_for (LwnHeadline *headline,
                               GDateTime *now)
{
  const char *item_id;
  g_autoptr (GDateTime) free_on = NULL;
  g_autofree char *title = NULL;
  LwnReminder *reminder;

  g_return_val_if_fail (LWN_IS_HEADLINE (headline), NULL);
  g_return_val_if_fail (now != NULL, NULL);

  item_id = lwn_headline_get_id (headline);
  free_on = lwn_headline_dup_free_on (headline);
  if (free_on == NULL || g_date_time_compare (free_on, now) <= 0 || lwn_headline_get_url (headline) == NULL)
    {
      g_debug ("No reminder for %s: it is not a subscriber-only article that becomes free later", item_id);
      return NULL;
    }

  title = dup_reminder_title (headline);
  reminder = lwn_reminder_new (item_id, title, lwn_headline_get_url (headline), free_on);
  if (reminder == NULL)
    g_debug ("No reminder for %s: its id or link is too long to keep", item_id);
  return reminder;
}
