/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for the reading model's reminders, against a local HTTP server and with a clock the tests set: what can
 * have one, told once when due at a poll, a wake-up or a start (also after the applet was not running), never
 * twice, ended by reading, bounded, kept when the article leaves the feed, and held while the state cannot be
 * written. */

#include "config.h"

#include <glib/gstdio.h>

#include "reader-fixture.h"

/* The tests' present: items are dated relative to it. */
#define NOW_ISO "2023-07-10T12:00:00Z"

/* What "reminder-due" told, and the clock; one test at a time. */
static GDateTime *clock_now;
static GPtrArray *told; /* "id|title|url" */

static GDateTime *
test_now (gpointer user_data)
{
  return g_date_time_ref (clock_now);
}

static void
set_clock (GDateTime *now)
{
  g_clear_pointer (&clock_now, g_date_time_unref);
  clock_now = g_date_time_ref (now);
}

/* @seconds after the tests' present. */
static GDateTime *
at (gint64 seconds)
{
  g_autoptr (GDateTime) now = g_date_time_new_from_iso8601 (NOW_ISO, NULL);

  return g_date_time_add_seconds (now, (gdouble) seconds);
}

static void
reminder_due_cb (LwnReader *reader,
                 const char *item_id,
                 const char *title,
                 const char *url,
                 gpointer user_data)
{
  g_ptr_array_add (told, g_strdup_printf ("%s|%s|%s", item_id, title, url));
}

/* The fixture's reader, on the tests' clock, with its reminders heard. */
static void
watch (Fixture *fixture)
{
  lwn_reader_set_now_func (fixture->reader, test_now, NULL);
  g_signal_connect (fixture->reader, "reminder-due", G_CALLBACK (reminder_due_cb), NULL);
}

static void
reopen (Fixture *fixture)
{
  lwn_reader_shutdown (fixture->reader);
  open_reader (fixture);
  watch (fixture);
}

static void
set_up (Fixture *fixture,
        gconstpointer data)
{
  g_autoptr (GDateTime) now = at (0);

  fixture_set_up (fixture, data);
  set_clock (now);
  told = g_ptr_array_new_with_free_func (g_free);
  watch (fixture);
}

static void
tear_down (Fixture *fixture,
           gconstpointer data)
{
  fixture_tear_down (fixture, data);
  g_clear_pointer (&told, g_ptr_array_unref);
  g_clear_pointer (&clock_now, g_date_time_unref);
}

/* One item of a served feed: a subscriber-only article @age_seconds old at
 * the tests' present, or without a date for G_MININT64; or a plain one. */
typedef struct
{
  guint number;
  gboolean paywalled;
  gint64 age_seconds;
} Item;

#define UNDATED G_MININT64

static char *
article (guint number)
{
  return g_strdup_printf ("https://lwn.net/Articles/%u/", number);
}

/* Serves @items, each answer after @delay_ms. */
static void
serve_items_slowly (Fixture *fixture,
                    const Item *items,
                    guint n,
                    guint delay_ms)
{
  GString *feed = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>"
                                "<title>LWN.net</title><link>https://lwn.net/</link><description>Tests</description>\n");
  g_autofree char *body = NULL;
  LwnTestRoute route = { .content_type = "application/rss+xml", .delay_ms = delay_ms };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *date = NULL;

      g_string_append_printf (feed, "<item><title>%s Article %u</title><link>https://lwn.net/Articles/%u/rss</link>"
                                    "<guid>https://lwn.net/Articles/%u/</guid>",
                              items[i].paywalled ? "[$]" : "A plain", items[i].number, items[i].number,
                              items[i].number);
      if (items[i].age_seconds != UNDATED)
        {
          g_autoptr (GDateTime) when = at (-items[i].age_seconds);

          date = g_date_time_format (when, "%a, %d %b %Y %H:%M:%S +0000");
          g_string_append_printf (feed, "<pubDate>%s</pubDate>", date);
        }
      g_string_append (feed, "</item>\n");
    }
  g_string_append (feed, "</channel></rss>\n");
  body = g_string_free (feed, FALSE);
  route.body = body;
  lwn_test_server_add_route (fixture->server, FEED_PATH, &route);
}

static void
serve_items (Fixture *fixture,
             const Item *items,
             guint n)
{
  serve_items_slowly (fixture, items, n, 0);
}

/* Polls as the timer would, and waits for the answer and the save after it. */
static void
poll_and_settle (Fixture *fixture)
{
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, not_refreshing, "the poll");
  settle ();
}

static gboolean
was_told (Fixture *fixture)
{
  return told->len > 0;
}

static LwnHeadline *
headline (Fixture *fixture,
          guint number)
{
  g_autofree char *id = article (number);
  GListModel *headlines = lwn_reader_get_headlines (fixture->reader);

  for (guint i = 0; i < g_list_model_get_n_items (headlines); i++)
    {
      g_autoptr (LwnHeadline) found = g_list_model_get_item (headlines, i);

      if (g_str_equal (lwn_headline_get_id (found), id))
        return found;
    }
  g_error ("no headline for %s", id);
}

static gboolean
set_reminder (Fixture *fixture,
              guint number,
              gboolean remind)
{
  g_autofree char *id = article (number);

  return lwn_reader_set_reminder (fixture->reader, id, remind);
}

static gboolean
has_reminder (Fixture *fixture,
              guint number)
{
  g_autofree char *id = article (number);

  return lwn_reader_has_reminder (fixture->reader, id);
}

/* A store loaded afresh from the state file says whether @number has a reminder. */
static gboolean
saved_reminder (Fixture *fixture,
                guint number)
{
  g_autoptr (LwnStore) store = lwn_store_new (fixture->state_dir, fixture->cache_dir);
  g_autoptr (GError) error = NULL;
  g_autofree char *id = article (number);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  return lwn_reminders_lookup (lwn_store_get_reminders (store), id) != NULL;
}

static void
assert_told (guint index,
             guint number)
{
  g_autofree char *expected = g_strdup_printf ("https://lwn.net/Articles/%u/|Article %u|https://lwn.net/Articles/%u/",
                                               number, number, number);

  g_assert_cmpuint (index, <, told->len);
  g_assert_cmpstr (g_ptr_array_index (told, index), ==, expected);
}

/* Two days old: free in five days. */
#define AGE (2 * G_TIME_SPAN_DAY / G_USEC_PER_SEC)
#define FREE_IN (5 * G_TIME_SPAN_DAY / G_USEC_PER_SEC)

static void
test_set (Fixture *fixture,
          gconstpointer data)
{
  const Item items[] = {
    { 1, TRUE, AGE },
    { 2, FALSE, AGE },
    { 3, TRUE, UNDATED },
    { 4, TRUE, 8 * G_TIME_SPAN_DAY / G_USEC_PER_SEC },
  };

  g_test_summary ("A reminder can be set for a dated subscriber-only article that is not free yet, and for no "
                  "other; setting it twice changes nothing; the headline shows it, and it can be taken back");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);

  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1)));
  g_assert_true (set_reminder (fixture, 1, TRUE));
  g_assert_true (lwn_headline_get_reminder (headline (fixture, 1)));
  g_assert_true (has_reminder (fixture, 1));
  g_assert_false (set_reminder (fixture, 1, TRUE));

  g_assert_false (set_reminder (fixture, 2, TRUE));
  g_assert_false (set_reminder (fixture, 3, TRUE));
  g_assert_false (set_reminder (fixture, 4, TRUE));
  g_assert_false (set_reminder (fixture, 99, TRUE));
  g_assert_false (has_reminder (fixture, 2) || has_reminder (fixture, 3) || has_reminder (fixture, 4));
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 4)));

  settle ();
  g_assert_true (saved_reminder (fixture, 1));
  g_assert_true (set_reminder (fixture, 1, FALSE));
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1)));
  g_assert_false (set_reminder (fixture, 1, FALSE));
  settle ();
  g_assert_false (saved_reminder (fixture, 1));
}

static void
test_due_at_poll (Fixture *fixture,
                  gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE }, { 2, TRUE, AGE - 3600 } };
  g_autoptr (GDateTime) before = at (FREE_IN - 1);
  g_autoptr (GDateTime) free_on = at (FREE_IN);
  g_autoptr (GDateTime) later = at (FREE_IN + 3600);

  g_test_summary ("A reminder is told at the first poll from the moment the article is free, once it is saved as "
                  "gone, without LWN's [$]; not a second earlier, and never twice");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));
  g_assert_true (set_reminder (fixture, 2, TRUE));

  set_clock (before);
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 0);
  g_assert_true (has_reminder (fixture, 1));

  set_clock (free_on);
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, was_told, "the reminder");
  settle ();
  g_assert_cmpuint (told->len, ==, 1);
  assert_told (0, 1);
  g_assert_false (has_reminder (fixture, 1));
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1)));
  g_assert_false (saved_reminder (fixture, 1));
  /* The other one is free an hour later. */
  g_assert_true (has_reminder (fixture, 2));

  set_clock (later);
  poll_and_settle (fixture);
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 2);
  assert_told (1, 2);
}

static void
test_due_at_wake_up (Fixture *fixture,
                     gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE } };
  g_autoptr (GDateTime) free_on = at (FREE_IN);

  g_test_summary ("A wake-up (the timer, the network back, a resume) tells a due reminder at once, before the "
                  "poll it starts has an answer");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));
  settle ();

  /* The same feed, slow to come. */
  serve_items_slowly (fixture, items, G_N_ELEMENTS (items), 5000);
  set_clock (free_on);
  g_signal_emit_by_name (fixture->reader->scheduler, "refresh-due");
  wait_until (fixture, was_told, "the reminder");
  g_assert_true (lwn_reader_get_loading (fixture->reader));
  assert_told (0, 1);
  wait_until (fixture, not_refreshing, "the slow poll");
  settle ();
  g_assert_cmpuint (told->len, ==, 1);
}

static void
test_due_while_not_running (Fixture *fixture,
                            gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE } };
  g_autoptr (GDateTime) days_later = at (FREE_IN + 3 * G_TIME_SPAN_DAY / G_USEC_PER_SEC);
  g_autoptr (GDateTime) week_later = at (FREE_IN + 7 * G_TIME_SPAN_DAY / G_USEC_PER_SEC);

  g_test_summary ("A reminder that fell due while the applet was not running is told at the next start, as soon "
                  "as the state is loaded, whether or not the feed answers; and a later start tells it no more");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));
  settle ();

  /* Days later; the feed is gone meanwhile. */
  serve_status (fixture, FEED_PATH, 500, NULL);
  set_clock (days_later);
  reopen (fixture);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, was_told, "the reminder at start");
  assert_told (0, 1);
  wait_until (fixture, is_failed, "the failed poll");
  settle ();
  g_assert_cmpuint (told->len, ==, 1);
  g_assert_false (saved_reminder (fixture, 1));

  set_clock (week_later);
  reopen (fixture);
  lwn_reader_start (fixture->reader);
  wait_until (fixture, is_failed, "the failed poll after another start");
  settle ();
  g_assert_cmpuint (told->len, ==, 1);
}

static void
test_ended_by_reading (Fixture *fixture,
                       gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE }, { 2, TRUE, AGE }, { 3, TRUE, AGE } };
  g_autoptr (GDateTime) free_on = at (FREE_IN);
  g_autofree char *first = article (1);
  g_autofree char *second = article (2);
  g_autofree char *url = NULL;

  g_test_summary ("Opening a headline, or marking it read on its own, ends its reminder, also when it was read "
                  "before the reminder was set; Mark all as read leaves reminders alone");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);

  g_assert_true (set_reminder (fixture, 1, TRUE));
  url = lwn_reader_open (fixture->reader, first);
  g_assert_cmpstr (url, ==, first);
  g_assert_false (has_reminder (fixture, 1));
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1)));

  /* Read, then asked about: opened again, it ends. */
  g_assert_true (set_reminder (fixture, 1, TRUE));
  lwn_reader_mark_read (fixture->reader, first);
  g_assert_false (has_reminder (fixture, 1));

  g_assert_true (set_reminder (fixture, 2, TRUE));
  g_assert_true (set_reminder (fixture, 3, TRUE));
  lwn_reader_mark_all_read (fixture->reader);
  g_assert_true (has_reminder (fixture, 2));
  g_assert_true (lwn_headline_get_reminder (headline (fixture, 2)));
  lwn_reader_mark_read (fixture->reader, second);
  g_assert_false (has_reminder (fixture, 2));
  settle ();
  g_assert_false (saved_reminder (fixture, 2));
  g_assert_true (saved_reminder (fixture, 3));

  set_clock (free_on);
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 1);
  assert_told (0, 3);
}

static void
test_bounded (Fixture *fixture,
              gconstpointer data)
{
  g_autofree Item *items = g_new0 (Item, LWN_REMINDERS_MAX + 1);

  g_test_summary ("Only the 200 reminders set last are kept: the 201st takes the place of the first, whose "
                  "headline shows it, also across a restart");

  for (guint i = 0; i <= LWN_REMINDERS_MAX; i++)
    items[i] = (Item){ 1000 + i, TRUE, AGE };
  serve_items (fixture, items, LWN_REMINDERS_MAX + 1);
  start_and_load (fixture);

  for (guint i = 0; i <= LWN_REMINDERS_MAX; i++)
    g_assert_true (set_reminder (fixture, 1000 + i, TRUE));
  g_assert_false (has_reminder (fixture, 1000));
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1000)));
  g_assert_true (has_reminder (fixture, 1001));
  g_assert_true (has_reminder (fixture, 1000 + LWN_REMINDERS_MAX));
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (fixture->store)), ==, LWN_REMINDERS_MAX);

  settle ();
  reopen (fixture);
  start_and_load (fixture);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (fixture->store)), ==, LWN_REMINDERS_MAX);
  g_assert_false (lwn_headline_get_reminder (headline (fixture, 1000)));
  g_assert_true (lwn_headline_get_reminder (headline (fixture, 1001)));
}

static void
test_left_feed (Fixture *fixture,
                gconstpointer data)
{
  const Item first[] = { { 1, TRUE, AGE }, { 2, FALSE, 0 } };
  const Item second[] = { { 2, FALSE, 0 } };
  g_autoptr (GDateTime) free_on = at (FREE_IN);
  g_autofree char *id = article (1);

  g_test_summary ("A reminder outlives its article's leaving the feed, across a restart, and is told with the "
                  "title and link it was set with; marking it read then needs no headline");

  serve_items (fixture, first, G_N_ELEMENTS (first));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));

  serve_items (fixture, second, G_N_ELEMENTS (second));
  poll_and_settle (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (lwn_reader_get_headlines (fixture->reader)), ==, 1);
  g_assert_true (has_reminder (fixture, 1));

  reopen (fixture);
  start_and_load (fixture);
  g_assert_true (has_reminder (fixture, 1));

  set_clock (free_on);
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 1);
  assert_told (0, 1);

  /* What a notification's action does for an item gone from the feed. */
  lwn_reader_mark_read (fixture->reader, id);
  g_assert_true (lwn_store_is_read (fixture->store, id));
}

static void
test_save_failure (Fixture *fixture,
                   gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE } };
  g_autoptr (GDateTime) free_on = at (FREE_IN);
  g_autofree char *moved = g_strconcat (fixture->state_dir, ".away", NULL);

  g_test_summary ("A due reminder is told only once the state that records it gone is on disk: not while "
                  "saves fail, and once when one works");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));
  settle_saves (fixture);

  g_assert_cmpint (g_rename (fixture->state_dir, moved), ==, 0);
  g_assert_true (g_file_set_contents (fixture->state_dir, "not a folder", -1, NULL));
  set_clock (free_on);
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, "Could not save what was read and announced: *");
  lwn_reader_refresh_due (fixture->reader);
  wait_until (fixture, has_alert, "the alert");
  g_test_assert_expected_messages ();
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 0);
  g_assert_false (has_reminder (fixture, 1));

  g_assert_cmpint (g_unlink (fixture->state_dir), ==, 0);
  g_assert_cmpint (g_rename (moved, fixture->state_dir), ==, 0);
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 1);
  assert_told (0, 1);
  g_assert_false (saved_reminder (fixture, 1));
  poll_and_settle (fixture);
  g_assert_cmpuint (told->len, ==, 1);
}

static void
test_reader_gone (Fixture *fixture,
                  gconstpointer data)
{
  const Item items[] = { { 1, TRUE, AGE } };
  g_autoptr (GDateTime) free_on = at (FREE_IN);

  g_test_summary ("A reader that goes with a due reminder's save still to come tells nothing and leaves "
                  "nothing behind");

  serve_items (fixture, items, G_N_ELEMENTS (items));
  start_and_load (fixture);
  g_assert_true (set_reminder (fixture, 1, TRUE));
  settle ();

  set_clock (free_on);
  g_signal_emit_by_name (fixture->reader->scheduler, "refresh-due");
  g_clear_object (&fixture->reader);
  settle ();
  g_assert_cmpuint (told->len, ==, 0);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, set_up, func, tear_down)
  ADD ("/reader/reminders/set", test_set);
  ADD ("/reader/reminders/due/poll", test_due_at_poll);
  ADD ("/reader/reminders/due/wake-up", test_due_at_wake_up);
  ADD ("/reader/reminders/due/not-running", test_due_while_not_running);
  ADD ("/reader/reminders/ended-by-reading", test_ended_by_reading);
  ADD ("/reader/reminders/bounded", test_bounded);
  ADD ("/reader/reminders/left-feed", test_left_feed);
  ADD ("/reader/reminders/save-failure", test_save_failure);
  ADD ("/reader/reminders/reader-gone", test_reader_gone);
#undef ADD

  return g_test_run ();
}
