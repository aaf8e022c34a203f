/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnReminder and LwnReminders: what a reminder can hold, the bound and order of the set, and what is due. */

#include "config.h"

#include <string.h>

#include "lwn-reminders.h"

#define URL "https://lwn.net/Articles/937001/"

static GDateTime *
day (int day_of_month)
{
  return g_date_time_new_utc (2023, 7, day_of_month, 12, 0, 0);
}

static LwnReminder *
reminder_on (guint number,
             int day_of_month)
{
  g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", number);
  g_autoptr (GDateTime) free_on = day (day_of_month);

  return lwn_reminder_new (url, "Title", url, free_on);
}

static void
test_values (void)
{
  g_autoptr (GTimeZone) zone = g_time_zone_new_offset (2 * 3600);
  g_autoptr (GDateTime) local = g_date_time_new (zone, 2023, 7, 13, 14, 0, 0);
  g_autoptr (GDateTime) at_free = day (13);
  g_autoptr (GDateTime) after = g_date_time_new_utc (2023, 7, 13, 12, 0, 1);
  g_autoptr (LwnReminder) reminder = lwn_reminder_new (URL, "[$] A title", URL, local);
  g_autofree char *long_id = g_strnfill (LWN_REMINDER_MAX_ID_BYTES + 1, 'x');
  g_autofree char *long_title = g_strnfill (LWN_REMINDER_MAX_TITLE_CHARS * 2, 'y');
  g_autoptr (LwnReminder) shortened = lwn_reminder_new (URL, long_title, URL, local);
  g_autoptr (LwnReminder) mended = lwn_reminder_new (URL, "Bad \xff byte", URL, local);

  g_test_summary ("A reminder keeps its fields, its time in UTC, and is due from that moment on; ids and links "
                  "that cannot be kept give none, and a long or broken title is shortened or mended");

  g_assert_nonnull (reminder);
  g_assert_cmpstr (lwn_reminder_get_item_id (reminder), ==, URL);
  g_assert_cmpstr (lwn_reminder_get_title (reminder), ==, "[$] A title");
  g_assert_cmpstr (lwn_reminder_get_url (reminder), ==, URL);
  g_assert_true (g_date_time_equal (lwn_reminder_get_free_on (reminder), local));
  g_assert_cmpint (g_date_time_get_utc_offset (lwn_reminder_get_free_on (reminder)), ==, 0);
  g_assert_true (lwn_reminder_is_due (reminder, at_free));
  g_assert_true (lwn_reminder_is_due (reminder, after));

  g_assert_null (lwn_reminder_new ("", "Title", URL, local));
  g_assert_null (lwn_reminder_new (long_id, "Title", URL, local));
  g_assert_null (lwn_reminder_new ("bad \xff id", "Title", URL, local));
  g_assert_null (lwn_reminder_new ("\fform feed", "Title", URL, local));
  g_assert_null (lwn_reminder_new ("new\nline", "Title", URL, local));
  g_assert_null (lwn_reminder_new (URL, "Title", "javascript:alert(1)", local));
  g_assert_null (lwn_reminder_new (URL, "Title", "file:///etc/passwd", local));

  g_assert_nonnull (shortened);
  g_assert_cmpint (g_utf8_strlen (lwn_reminder_get_title (shortened), -1), ==, LWN_REMINDER_MAX_TITLE_CHARS);
  g_assert_true (g_str_has_suffix (lwn_reminder_get_title (shortened), "…"));
  g_assert_true (g_utf8_validate (lwn_reminder_get_title (mended), -1, NULL));
}

static void
test_not_due_before (void)
{
  g_autoptr (LwnReminder) reminder = reminder_on (1, 13);
  g_autoptr (GDateTime) free_on = day (13);
  g_autoptr (GDateTime) before = g_date_time_add_seconds (free_on, -1);

  g_test_summary ("A reminder is not due a second before its article is free");

  g_assert_false (lwn_reminder_is_due (reminder, before));
}

static void
test_set (void)
{
  g_autoptr (LwnReminders) reminders = lwn_reminders_new ();
  g_autoptr (LwnReminder) again = reminder_on (1, 20);
  g_autoptr (LwnReminder) newcomer = reminder_on (9999, 13);
  g_autoptr (LwnReminder) evicted = NULL;
  g_autoptr (GPtrArray) all = NULL;

  g_test_summary ("The set keeps one reminder per item in the order they were set, a reminder set again "
                  "counting as the newest, and forgets the one set longest ago beyond its bound");

  for (guint i = 1; i <= LWN_REMINDERS_MAX; i++)
    {
      g_autoptr (LwnReminder) reminder = reminder_on (i, 13);
      LwnReminder *none = NULL;

      g_assert_true (lwn_reminders_add (reminders, reminder, &none));
      g_assert_null (none);
    }
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, LWN_REMINDERS_MAX);

  /* Item 1 again: the newest now, so item 2 is the one set longest ago. */
  lwn_reminders_add (reminders, again, NULL);
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, LWN_REMINDERS_MAX);
  g_assert_true (lwn_reminders_lookup (reminders, "https://lwn.net/Articles/1/") == again);

  lwn_reminders_add (reminders, newcomer, &evicted);
  g_assert_nonnull (evicted);
  g_assert_cmpstr (lwn_reminder_get_item_id (evicted), ==, "https://lwn.net/Articles/2/");
  g_assert_null (lwn_reminders_lookup (reminders, "https://lwn.net/Articles/2/"));
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, LWN_REMINDERS_MAX);

  all = lwn_reminders_dup_all (reminders);
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (all, 0)), ==, "https://lwn.net/Articles/3/");
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (all, all->len - 1)), ==,
                   "https://lwn.net/Articles/9999/");

  g_assert_true (lwn_reminders_remove (reminders, "https://lwn.net/Articles/3/"));
  g_assert_false (lwn_reminders_remove (reminders, "https://lwn.net/Articles/3/"));
  g_assert_false (lwn_reminders_remove (reminders, NULL));
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, LWN_REMINDERS_MAX - 1);
  lwn_reminders_clear (reminders);
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, 0);
}

static void
test_take_due (void)
{
  g_autoptr (LwnReminders) reminders = lwn_reminders_new ();
  g_autoptr (GDateTime) now = day (15);
  g_autoptr (GPtrArray) due = NULL;
  g_autoptr (GPtrArray) none = NULL;
  const struct
  {
    guint number;
    int day;
  } set[] = { { 1, 14 }, { 2, 16 }, { 3, 12 }, { 4, 15 }, { 5, 12 } };

  g_test_summary ("Taking the due reminders takes those free by now out of the set, the one free first first and "
                  "those free together in the order they were set; the others stay");

  for (gsize i = 0; i < G_N_ELEMENTS (set); i++)
    {
      g_autoptr (LwnReminder) reminder = reminder_on (set[i].number, set[i].day);

      lwn_reminders_add (reminders, reminder, NULL);
    }

  due = lwn_reminders_take_due (reminders, now);
  g_assert_cmpuint (due->len, ==, 4);
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (due, 0)), ==, "https://lwn.net/Articles/3/");
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (due, 1)), ==, "https://lwn.net/Articles/5/");
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (due, 2)), ==, "https://lwn.net/Articles/1/");
  g_assert_cmpstr (lwn_reminder_get_item_id (g_ptr_array_index (due, 3)), ==, "https://lwn.net/Articles/4/");
  g_assert_cmpuint (lwn_reminders_get_n (reminders), ==, 1);
  g_assert_nonnull (lwn_reminders_lookup (reminders, "https://lwn.net/Articles/2/"));
  g_assert_null (lwn_reminders_lookup (reminders, "https://lwn.net/Articles/4/"));

  none = lwn_reminders_take_due (reminders, now);
  g_assert_cmpuint (none->len, ==, 0);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reminders/values", test_values);
  g_test_add_func ("/reminders/not-due-before", test_not_due_before);
  g_test_add_func ("/reminders/set", test_set);
  g_test_add_func ("/reminders/take-due", test_take_due);

  return g_test_run ();
}
