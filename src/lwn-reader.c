/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model: loads the feed when the scheduler says so, decides what is new, what is read and
 * what to announce, and tells its views. It owns the scheduler and the saver, and calls them, the store, the
 * feed loader and the reminder helper one way: they answer through signals, callbacks and return values.
 * Main thread only. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-feed-load.h"
#include "lwn-feed-parser.h"
#include "lwn-reader-private.h"
#include "lwn-reader-reminders.h"
#include "lwn-scheduler-private.h"
#include "lwn-str-hash.h"
#include "lwn-url.h"

G_DEFINE_FINAL_TYPE (LwnReader, lwn_reader, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STATE,
  PROP_REFRESHING,
  PROP_STATUS,
  PROP_ERROR,
  PROP_N_UNREAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_CHANGED,
  SIGNAL_ANNOUNCE,
  SIGNAL_ALERT,
  SIGNAL_READ,
  SIGNAL_REMINDER_DUE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
current_url (LwnReader *self)
{
  const char *moved = lwn_store_get_moved_url (self->store, self->feed_url);

  return moved != NULL ? moved : self->feed_url;
}

/* The present by the reader's clock, which tests may set. */
static GDateTime *
dup_now (LwnReader *self)
{
  if (self->now_func != NULL)
    return self->now_func (self->now_data);
  return g_date_time_new_now_utc ();
}

void
lwn_reader_set_now_func (LwnReader *self,
                         LwnReaderNowFunc func,
                         gpointer user_data)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->now_func = func;
  self->now_data = user_data;
}

static void
emit_changed (LwnReader *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static char *
format_time (GDateTime *when)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (when);

  return g_date_time_format (local, "%H:%M");
}

static char *
compute_status (LwnReader *self)
{
  GDateTime *last_success = lwn_store_get_last_success (self->store);

  if (self->stopped)
    /* Translators: HTTP 410 Gone: the server says the feed was removed for good. */
    return g_strdup (_ ("The feed is gone (HTTP 410); updates stopped"));

  if (self->error != NULL)
    {
      g_autofree char *when = format_time (self->failed_at);

      /* Translators: the first %s is the reason, the second the time, e.g. 14:05. */
      return g_strdup_printf (_ ("Last update failed: %s (%s)"), self->error, when);
    }

  if (self->save_error != NULL)
    /* Translators: %s says why the state file could not be written. */
    return g_strdup_printf (_ ("Notifications paused: %s"), self->save_error);

  if (self->manual_unchanged && last_success != NULL)
    {
      g_autofree char *when = format_time (last_success);

      /* Translators: the answer to "Refresh now" when nothing changed; %s is a time, e.g. 14:05. */
      return g_strdup_printf (_ ("Up to date — checked %s"), when);
    }

  if (last_success != NULL)
    {
      g_autofree char *when = format_time (last_success);

      /* Translators: %s is a time, e.g. 14:05. */
      return g_strdup_printf (_ ("Updated %s"), when);
    }

  return NULL;
}

static void
set_error (LwnReader *self,
           const char *error)
{
  /* The status line says when it failed, not when it was last drawn. */
  g_clear_pointer (&self->failed_at, g_date_time_unref);
  if (error != NULL)
    self->failed_at = g_date_time_new_now_utc ();

  if (g_strcmp0 (self->error, error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* Recomputes the status line and tells the views that something changed. */
static void
update (LwnReader *self)
{
  g_autofree char *status = compute_status (self);

  if (g_strcmp0 (status, self->status) != 0)
    {
      g_free (self->status);
      self->status = g_steal_pointer (&status);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
  emit_changed (self);
}

static void
show_refresh (LwnReader *self)
{
  g_clear_handle_id (&self->show_refresh_id, g_source_remove);
  if (self->refresh_shown)
    return;
  self->refresh_shown = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
}

static gboolean
show_refresh_cb (gpointer user_data)
{
  LwnReader *self = user_data;

  self->show_refresh_id = 0;
  show_refresh (self);
  emit_changed (self);
  return G_SOURCE_REMOVE;
}

/* A refresh the person asked for shows at once. One the timer started shows
 * only when it is slow: most polls end within milliseconds, and showing
 * them would change the menu (and redraw the panel) twice a poll for a
 * flicker nobody can read. */
static void
set_refreshing (LwnReader *self,
                gboolean refreshing)
{
  if (self->refreshing == refreshing)
    return;

  self->refreshing = refreshing;
  if (refreshing && self->manual)
    show_refresh (self);
  else if (refreshing)
    self->show_refresh_id = g_timeout_add (LWN_READER_SHOW_REFRESH_AFTER_MS, show_refresh_cb, self);
  else
    {
      g_clear_handle_id (&self->show_refresh_id, g_source_remove);
      if (self->refresh_shown)
        {
          self->refresh_shown = FALSE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
        }
    }
}

static void
count_unread (LwnReader *self)
{
  guint n_unread = 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->headlines));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (self->headlines), i);

      n_unread += lwn_headline_get_unread (headline) ? 1 : 0;
    }

  if (n_unread != self->n_unread)
    {
      self->n_unread = n_unread;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_UNREAD]);
    }
}

/* Everything changed in one main-loop iteration (a click, Mark all as read,
 * a new feed) goes into one write, after the one in flight if there is one. */
static void
schedule_save (LwnReader *self)
{
  lwn_reader_saver_schedule (self->saver);
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

/* Takes out the reminders due now. The saver hands them back, and the
 * reader tells them, once the save that records that has completed. */
static void
check_reminders (LwnReader *self)
{
  g_autoptr (GDateTime) now = dup_now (self);
  g_autoptr (GPtrArray) due = lwn_reader_saver_take_due_reminders (self->saver, now);

  if (due->len == 0)
    return;

  g_debug ("%u reminder(s) due", due->len);
  for (guint i = 0; i < due->len; i++)
    {
      LwnReminder *reminder = g_ptr_array_index (due, i);
      LwnHeadline *headline = g_hash_table_lookup (self->headline_by_id, lwn_reminder_get_item_id (reminder));

      if (headline != NULL)
        lwn_headline_set_reminder (headline, FALSE);
    }
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Reading a headline ends its reminder. Returns whether it had one. */
static gboolean
forget_reminder (LwnReader *self,
                 const char *item_id)
{
  if (!lwn_reminders_remove (lwn_store_get_reminders (self->store), item_id))
    return FALSE;

  show_reminder (self, item_id, FALSE);
  schedule_save (self);
  return TRUE;
}

/* Tells the reminders a save has recorded as gone. */
static void
tell_reminders (LwnReader *self,
                GPtrArray *reminders)
{
  for (guint i = 0; i < reminders->len; i++)
    {
      LwnReminder *reminder = g_ptr_array_index (reminders, i);

      g_signal_emit (self, signals[SIGNAL_REMINDER_DUE], 0, lwn_reminder_get_item_id (reminder),
                     lwn_reminder_get_title (reminder), lwn_reminder_get_url (reminder));
    }
}

static gboolean
add_reminder (LwnReader *self,
              const char *item_id)
{
  LwnReminders *reminders = lwn_store_get_reminders (self->store);
  LwnHeadline *headline = g_hash_table_lookup (self->headline_by_id, item_id);
  g_autoptr (GDateTime) now = dup_now (self);
  g_autoptr (LwnReminder) reminder = NULL;
  g_autoptr (LwnReminder) evicted = NULL;

  if (headline == NULL || lwn_reminders_lookup (reminders, item_id) != NULL)
    return FALSE;

  reminder = lwn_reader_reminders_make_for (headline, now);
  if (reminder == NULL)
    return FALSE;

  lwn_reminders_add (reminders, reminder, &evicted);
  if (evicted != NULL)
    show_reminder (self, lwn_reminder_get_item_id (evicted), FALSE);
  lwn_headline_set_reminder (headline, TRUE);
  return TRUE;
}

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
    schedule_save (self);
  if (wanted->len == 0)
    return;

  /* A first run announces the feed as a whole: one notification, not a flood. */
  g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, wanted,
                 first_run ? 1u : (guint) LWN_READER_MAX_SINGLE_ANNOUNCEMENTS);
}

/* Adds to @items what an earlier run left pending (take_up_pending()), once a save
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

/* A save ended: what it recorded is announced and told now, or, when it
 * failed, the person learns once that new headlines are not recorded. */
static void
save_done_cb (const GError *error,
              GPtrArray *announced,
              gboolean first_run,
              GPtrArray *reminded,
              gpointer user_data)
{
  LwnReader *self = user_data;

  if (error != NULL)
    {
      gboolean first = self->save_error == NULL;

      g_free (self->save_error);
      self->save_error = g_strdup (error->message);
      if (first)
        {
          g_warning ("Could not save what was read and announced: %s", error->message);
          g_signal_emit (self, signals[SIGNAL_ALERT], 0, _ ("New headlines cannot be recorded"), error->message);
        }
      update (self);
      return;
    }

  if (self->save_error != NULL)
    {
      g_message ("The state can be saved again");
      g_clear_pointer (&self->save_error, g_free);
      update (self);
    }
  /* On disk now, as pending: until a notification server shows them,
   * the next start announces them again. */
  take_retell (self, announced, &first_run);
  announce (self, announced, first_run);
  tell_reminders (self, reminded);
}

/* Marks the items never seen before as announced, in memory, and those the
 * settings want announced as pending until a notification server shows
 * them; they are announced once a save has recorded that. A quiet first
 * run (lwn_reader_set_quiet_first_run()) only marks them: nothing of it is
 * pending, so no later start or server announces it either. */
static void
take_new_items (LwnReader *self,
                LwnFeed *feed)
{
  gboolean first_run = !lwn_store_has_history (self->store);
  g_autoptr (GPtrArray) fresh = g_ptr_array_new ();
  gboolean pending = FALSE;

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      if (lwn_store_mark_announced (self->store, lwn_feed_item_get_id (item)))
        g_ptr_array_add (fresh, item);
    }
  if (fresh->len == 0)
    return;
  if (first_run && self->quiet_first_run)
    {
      g_debug ("First run of %s: %u headlines taken without a notification", self->feed_url, fresh->len);
      return;
    }
  for (guint i = 0; i < fresh->len; i++)
    lwn_reader_saver_add_item (self->saver, g_ptr_array_index (fresh, i));
  if (first_run)
    lwn_reader_saver_set_first_run (self->saver);

  /* The oldest first: a full set keeps the newest. Items that arrive while
   * notifications are off count as announced, so that turning them on
   * brings no flood. */
  for (guint i = fresh->len; i-- > 0;)
    {
      LwnFeedItem *item = g_ptr_array_index (fresh, i);

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
static void
take_up_pending (LwnReader *self)
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

/* Replaces only the part of the list that changed, so that the views redo
 * only that part. */
static void
splice_changed (GListStore *store,
                GPtrArray *headlines)
{
  GListModel *shown = G_LIST_MODEL (store);
  guint n_before = g_list_model_get_n_items (shown);
  guint n_after = headlines->len;
  guint same_first = 0;
  guint same_last = 0;

  while (same_first < MIN (n_before, n_after))
    {
      g_autoptr (GObject) before = g_list_model_get_object (shown, same_first);

      if (before != g_ptr_array_index (headlines, same_first))
        break;
      same_first++;
    }
  while (same_last < MIN (n_before, n_after) - same_first)
    {
      g_autoptr (GObject) before = g_list_model_get_object (shown, n_before - 1 - same_last);

      if (before != g_ptr_array_index (headlines, n_after - 1 - same_last))
        break;
      same_last++;
    }
  if (same_first == n_before && same_first == n_after)
    return;
  g_list_store_splice (store, same_first, n_before - same_first - same_last, headlines->pdata + same_first,
                       n_after - same_first - same_last);
}

static void
show_feed (LwnReader *self,
           LwnFeed *feed)
{
  LwnReaderState old_state = lwn_reader_get_state (self);
  LwnReminders *reminders = lwn_store_get_reminders (self->store);
  guint n = lwn_feed_get_n_items (feed);
  g_autoptr (GPtrArray) headlines = g_ptr_array_new_full (n, g_object_unref);
  g_autofree const char **ids = g_new (const char *, n + 1);
  /* Its keys are ids of the headlines the list holds until the splice. */
  g_autoptr (GHashTable) shown_before = g_steal_pointer (&self->headline_by_id);

  self->headline_by_id = lwn_str_hash_table_new (NULL, NULL);
  g_clear_pointer (&self->feed, lwn_feed_unref);
  self->feed = lwn_feed_ref (feed);

  /* What is shown is what the store must remember last of all; told
   * first, it works out the keys of long ids once for the calls below. */
  for (guint i = 0; i < n; i++)
    ids[i] = lwn_feed_item_get_id (lwn_feed_get_item (feed, i));
  lwn_store_note_shown_ids (self->store, ids, n);

  for (guint i = 0; i < n; i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);
      const char *id = ids[i];
      gboolean unread = !lwn_store_is_read (self->store, id);
      LwnHeadline *before;
      LwnHeadline *headline;

      /* A feed that repeats an id: the first one is the headline, in every
       * view, and the one a click means. */
      if (g_hash_table_contains (self->headline_by_id, id))
        continue;
      /* The worker passed an unchanged item on as the same one: its
       * headline stays, and so does every view's row of it. */
      before = g_hash_table_lookup (shown_before, id);
      if (before != NULL && lwn_headline_get_item (before) == item)
        {
          headline = g_object_ref (before);
          lwn_headline_set_unread (headline, unread);
        }
      else
        headline = lwn_headline_new (item, self->feed_url, unread);
      lwn_headline_set_reminder (headline, lwn_reminders_lookup (reminders, id) != NULL);
      g_ptr_array_add (headlines, headline);
      g_hash_table_insert (self->headline_by_id, (gpointer) id, headline);
    }

  splice_changed (self->headlines, headlines);
  count_unread (self);
  if (lwn_reader_get_state (self) != old_state)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  take_up_pending (self);
}

static void
clear_feed (LwnReader *self)
{
  g_clear_pointer (&self->feed, lwn_feed_unref);
  g_hash_table_remove_all (self->headline_by_id);
  g_list_store_remove_all (self->headlines);
  count_unread (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
apply_success (LwnReader *self,
               LwnFeed *feed,
               LwnFetchResponse *response)
{
  const char *url = current_url (self);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  guint delay;

  self->stopped = FALSE;
  set_error (self, NULL);
  lwn_store_set_last_success (self->store, now);

  if (feed != NULL)
    {
      lwn_store_set_validators (self->store, url, lwn_fetch_response_get_etag (response),
                                lwn_fetch_response_get_last_modified (response));
      show_feed (self, feed);
      take_new_items (self, feed);
      schedule_save (self);
    }
  else if (self->feed == NULL)
    /* 304 to a request without validators: a confused server; forget them
     * anyway, so that the next poll cannot be conditional. */
    lwn_store_set_validators (self->store, url, NULL, NULL);
  else if (self->save_error != NULL || lwn_reader_saver_has_items (self->saver))
    /* A 304 changes only the time of success, not worth a write at every
     * poll; but a save that failed is retried at each chance. */
    schedule_save (self);

  delay = lwn_scheduler_record_success (self->scheduler,
                                        self->feed != NULL ? lwn_feed_get_refresh_seconds (self->feed) : 0,
                                        lwn_fetch_response_get_max_age (response));
  g_debug ("Refreshed %s; next in %u s", feed != NULL ? "with a new feed" : "(not modified)", delay);
}

static void
apply_failure (LwnReader *self,
               const GError *error,
               LwnFetchResponse *response)
{
  guint status = response != NULL ? lwn_fetch_response_get_status (response) : 0;
  LwnReaderState old_state = lwn_reader_get_state (self);

  g_message ("Could not load %s: %s", current_url (self), error->message);
  set_error (self, error->message);

  if (status == 410)
    {
      self->stopped = TRUE;
      lwn_scheduler_stop_polling (self->scheduler);
    }
  else
    {
      gint64 retry_after = (status == 429 || status == 503) ? lwn_fetch_response_get_retry_after (response) : -1;
      guint delay = lwn_scheduler_record_failure (self->scheduler, retry_after);

      g_debug ("Next attempt in %u s", delay);
    }

  if (self->save_error != NULL)
    schedule_save (self);
  if (lwn_reader_get_state (self) != old_state)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* One load under way. The reader is not held: it cancels its loads when it
 * goes, and a cancelled load's callback never looks at it. */
typedef struct
{
  LwnReader *reader;
  LwnFetchSlot *slot; /* the queue's turn, when the reader has a queue */
} ReaderLoad;

static void
reader_load_free (ReaderLoad *load)
{
  g_clear_pointer (&load->slot, lwn_fetch_slot_free);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ReaderLoad, reader_load_free)

static void
load_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  g_autoptr (ReaderLoad) load = user_data;
  LwnReader *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  ok = lwn_feed_load_finish (result, &feed, &response, &error);
  /* The request has ended, whatever became of it: the next may go. */
  g_clear_pointer (&load->slot, lwn_fetch_slot_free);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = load->reader;
  set_refreshing (self, FALSE);
  self->last_request_us = g_get_monotonic_time ();
  self->manual_unchanged = self->manual && ok && feed == NULL;
  self->manual = FALSE;

  /* Before anything is stored: validators and the cache belong to the new address. */
  if (response != NULL && lwn_fetch_response_get_moved_to_url (response) != NULL)
    {
      g_message ("The feed moved permanently to %s", lwn_fetch_response_get_moved_to_url (response));
      lwn_store_set_moved_url (self->store, self->feed_url, lwn_fetch_response_get_moved_to_url (response));
      schedule_save (self);
    }

  if (ok)
    apply_success (self, feed, response);
  else
    apply_failure (self, error, response);
  /* What an earlier run left to announce goes out with the save of the first
   * answer, whatever it is, as what a refresh brings does. */
  if (self->retell->len > 0)
    schedule_save (self);
  /* Any answer, or none, is a moment to look at the clock. */
  check_reminders (self);
  update (self);
}

/* Sends the request, with what is known when it goes: a wait for a turn
 * may have brought the saved copy in meanwhile. */
static void
start_load (LwnReader *self,
            LwnFetchSlot *slot)
{
  const char *url = current_url (self);
  g_autofree char *cache_path = lwn_store_dup_feed_cache_path (self->store, url);
  LwnFetchRequest request = {
    .url = url,
    .etag = lwn_store_get_etag (self->store, url),
    .last_modified = lwn_store_get_last_modified (self->store, url),
  };
  ReaderLoad *load = g_new0 (ReaderLoad, 1);

  /* Without something to show, a 304 would leave the views empty. */
  if (self->feed == NULL)
    request.etag = request.last_modified = NULL;

  load->reader = self;
  load->slot = slot;
  g_debug ("Refreshing %s", url);
  lwn_feed_load_async (&request, cache_path, self->feed, self->cancellable, load_cb, load);
}

static void
turn_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  LwnFetchSlot *slot = lwn_fetch_queue_acquire_finish (LWN_FETCH_QUEUE (source), result, NULL);

  /* Cancelled, the only way a wait ends without a turn: the reader may be gone. */
  if (slot == NULL)
    return;
  start_load (user_data, slot);
}

static void
load_refresh (LwnReader *self)
{
  /* Never two at once: a timer or click during a refresh is already served. */
  if (self->refreshing)
    return;

  g_clear_handle_id (&self->manual_id, g_source_remove);
  /* Waiting for its turn counts as refreshing: the person sees it coming. */
  set_refreshing (self, TRUE);
  if (self->fetch_queue != NULL)
    lwn_fetch_queue_acquire_async (self->fetch_queue, current_url (self), self->cancellable, turn_cb, self);
  else
    start_load (self, NULL);
  emit_changed (self);
}

/* The first poll waits for the saved copy: with it shown, the request can be
 * conditional, and an unchanged feed costs a 304. */
static void
start_polling (LwnReader *self)
{
  if (self->polling)
    return;

  self->polling = TRUE;
  /* A feed with nothing to show asks at once, unless it waits behind the
   * feeds added with it; one shown from its saved copy can wait its turn. */
  lwn_scheduler_start (self->scheduler,
                       MAX (self->feed != NULL ? self->first_poll_delay_seconds : 0, self->first_poll_wait_seconds));
}

static void
cache_parsed_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  LwnReader *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;

  feed = lwn_feed_parse_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  if (feed == NULL)
    g_warning ("Ignoring the saved copy of the feed: %s", error->message);
  else if (self->feed == NULL)
    {
      g_debug ("Showing %u saved headlines", lwn_feed_get_n_items (feed));
      show_feed (self, feed);
      update (self);
    }
  start_polling (self);
}

static void
cache_read_cb (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  LwnReader *self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) body = NULL;
  g_autofree char *content_type = NULL;

  body = lwn_store_load_feed_body_finish (LWN_STORE (source), result, &content_type, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  if (body == NULL)
    {
      if (error != NULL)
        g_warning ("Could not read the saved copy of the feed: %s", error->message);
      start_polling (self);
      return;
    }

  /* A network answer that came first is newer. */
  if (self->feed == NULL)
    lwn_feed_parse_async (body, content_type, current_url (self), self->cancellable, cache_parsed_cb, self);
  else
    start_polling (self);
}

/* The timer, the network coming back or a resume: a wake-up, at which
 * reminders are due as at a poll's result. */
static void
scheduler_refresh_due_cb (LwnScheduler *scheduler,
                          LwnReader *self)
{
  check_reminders (self);
  load_refresh (self);
}

static void
lwn_reader_dispose (GObject *object)
{
  LwnReader *self = LWN_READER (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->manual_id, g_source_remove);
  g_clear_handle_id (&self->show_refresh_id, g_source_remove);
  if (self->scheduler != NULL)
    g_signal_handlers_disconnect_by_data (self->scheduler, self);
  g_clear_object (&self->scheduler);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->saver, lwn_reader_saver_free);
  g_clear_object (&self->store);
  g_clear_pointer (&self->headline_by_id, g_hash_table_unref);
  g_clear_object (&self->headlines);
  g_clear_pointer (&self->feed, lwn_feed_unref);
  g_clear_pointer (&self->retell, g_ptr_array_unref);
  /* A turn granted, or a load under way, holds the queue itself. */
  g_clear_object (&self->fetch_queue);

  G_OBJECT_CLASS (lwn_reader_parent_class)->dispose (object);
}

static void
lwn_reader_finalize (GObject *object)
{
  LwnReader *self = LWN_READER (object);

  g_free (self->feed_url);
  g_free (self->name);
  g_free (self->error);
  g_clear_pointer (&self->failed_at, g_date_time_unref);
  g_free (self->status);
  g_free (self->save_error);

  G_OBJECT_CLASS (lwn_reader_parent_class)->finalize (object);
}

static void
lwn_reader_get_property (GObject *object,
                         guint prop_id,
                         GValue *value,
                         GParamSpec *pspec)
{
  LwnReader *self = LWN_READER (object);

  switch (prop_id)
    {
      case PROP_STATE:
        g_value_set_int (value, lwn_reader_get_state (self));
        break;
      case PROP_REFRESHING:
        g_value_set_boolean (value, self->refresh_shown);
        break;
      case PROP_STATUS:
        g_value_set_string (value, self->status);
        break;
      case PROP_ERROR:
        g_value_set_string (value, self->error);
        break;
      case PROP_N_UNREAD:
        g_value_set_uint (value, self->n_unread);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_reader_class_init (LwnReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = lwn_reader_dispose;
  object_class->finalize = lwn_reader_finalize;
  object_class->get_property = lwn_reader_get_property;

  /* An #LwnReaderState. */
  properties[PROP_STATE] = g_param_spec_int ("state", NULL, NULL, LWN_READER_STATE_LOADING,
                                             LWN_READER_STATE_FAILED, LWN_READER_STATE_LOADING, flags);
  properties[PROP_REFRESHING] = g_param_spec_boolean ("refreshing", NULL, NULL, FALSE, flags);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, flags);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  properties[PROP_N_UNREAD] = g_param_spec_uint ("n-unread", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LwnReader::changed:
   *
   * Something a view shows changed: the headlines, a read mark, the state,
   * the status line or whether a refresh runs. Views coalesce their updates.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * LwnReader::announce:
   * @items: (element-type LwnFeedItem): new items, in feed order, already
   *   recorded on disk as announced; they stay pending, and the next start
   *   announces them again, until lwn_reader_mark_shown() says that a
   *   notification server showed them
   * @max_single: up to this many deserve a notification each; group more
   */
  signals[SIGNAL_ANNOUNCE] = g_signal_new ("announce", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_PTR_ARRAY, G_TYPE_UINT);
  /**
   * LwnReader::alert:
   * @summary: one line
   * @body: what went wrong
   *
   * Something the person must be told once, beyond the status line: the
   * state cannot be saved, so new headlines are not announced.
   */
  signals[SIGNAL_ALERT] = g_signal_new ("alert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnReader::read:
   * @item_id: (nullable): the item that was read; %NULL when all were
   */
  signals[SIGNAL_READ] = g_signal_new ("read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * LwnReader::reminder-due:
   * @item_id: the item a reminder was set for
   * @title: its title, without LWN's "[$]"
   * @url: the http(s) full-article URL to open
   *
   * A subscriber-only article the person asked about is free to read now.
   * Emitted once per reminder, once a save has recorded that it is gone,
   * at the first start, poll or wake-up from the moment it is free; also
   * when the article has left the feed since.
   */
  signals[SIGNAL_REMINDER_DUE] = g_signal_new ("reminder-due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                               0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                               G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

static void
lwn_reader_init (LwnReader *self)
{
  self->notify = TRUE;
  self->notify_security_lists = TRUE;
  self->headlines = g_list_store_new (LWN_TYPE_HEADLINE);
  self->headline_by_id = lwn_str_hash_table_new (NULL, NULL);
  self->cancellable = g_cancellable_new ();
  self->retell = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
}

/**
 * lwn_reader_new:
 * @store: the loaded state; the reader saves through it
 * @feed_url: the feed to follow
 *
 * Returns: (transfer full): a reader that does nothing until lwn_reader_start()
 */
LwnReader *
lwn_reader_new (LwnStore *store,
                const char *feed_url)
{
  LwnReader *self;

  g_return_val_if_fail (LWN_IS_STORE (store), NULL);
  g_return_val_if_fail (feed_url != NULL, NULL);

  self = g_object_new (LWN_TYPE_READER, NULL);
  self->store = g_object_ref (store);
  self->saver = lwn_reader_saver_new (store, save_done_cb, self);
  self->feed_url = g_strdup (feed_url);
  self->scheduler = lwn_scheduler_new (LWN_DEFAULT_INTERVAL, FALSE);
  g_signal_connect (self->scheduler, "refresh-due", G_CALLBACK (scheduler_refresh_due_cb), self);
  self->status = compute_status (self);
  return self;
}

/**
 * lwn_reader_start:
 * @self: a #LwnReader
 *
 * Shows the saved copy of the feed as soon as it is read, and starts polling
 * with a request at once. Reminders that fell due while the applet was not
 * running are due now.
 */
void
lwn_reader_start (LwnReader *self)
{
  g_return_if_fail (LWN_IS_READER (self));

  if (self->started)
    return;

  self->started = TRUE;
  check_reminders (self);
  /* Polling starts once the saved copy is shown, or known to be missing.
   * The store finds the copy of a feed that moved by its configured URL. */
  lwn_store_load_feed_body_async (self->store, self->feed_url, self->cancellable, cache_read_cb, self);
}

/**
 * lwn_reader_shutdown:
 * @self: a #LwnReader
 *
 * Stops loading and writes what is not saved yet, waiting for the disk: for
 * the end of the program, when nothing else needs the main loop.
 */
void
lwn_reader_shutdown (LwnReader *self)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (LWN_IS_READER (self));

  g_cancellable_cancel (self->cancellable);
  lwn_reader_saver_stop (self->saver);
  g_clear_handle_id (&self->manual_id, g_source_remove);
  if (!lwn_store_save (self->store, &error))
    g_warning ("Could not save what was read: %s", error->message);
}

/**
 * lwn_reader_close:
 * @self: a #LwnReader
 *
 * Stops loading and the reader's own saves: for a feed the person stops
 * following while the program runs on. The caller writes the store, off
 * the main thread (lwn_store_save_async()).
 */
void
lwn_reader_close (LwnReader *self)
{
  g_return_if_fail (LWN_IS_READER (self));

  g_cancellable_cancel (self->cancellable);
  lwn_reader_saver_stop (self->saver);
  g_clear_handle_id (&self->manual_id, g_source_remove);
}

/**
 * lwn_reader_set_feed_url:
 * @self: a #LwnReader
 * @feed_url: the feed to follow from now on
 *
 * Switches at once: what was shown belongs to the old feed, so the views go
 * back to "Loading" until the new one's cache or first answer arrives.
 */
void
lwn_reader_set_feed_url (LwnReader *self,
                         const char *feed_url)
{
  g_return_if_fail (LWN_IS_READER (self));
  g_return_if_fail (feed_url != NULL);

  if (g_strcmp0 (self->feed_url, feed_url) == 0)
    return;

  g_debug ("Switching to the feed at %s", feed_url);
  g_free (self->feed_url);
  self->feed_url = g_strdup (feed_url);

  /* Cancel and replace: late results of the old feed must not land. */
  g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, g_cancellable_new ());
  set_refreshing (self, FALSE);
  self->stopped = FALSE;
  self->last_request_us = 0;
  self->manual = self->manual_unchanged = FALSE;
  set_error (self, NULL);
  clear_feed (self);
  /* The old feed's back-off and hints say nothing about the new one. */
  lwn_scheduler_forget_feed (self->scheduler);
  lwn_scheduler_resume_polling (self->scheduler);
  update (self);

  if (self->started)
    {
      lwn_store_load_feed_body_async (self->store, self->feed_url, self->cancellable, cache_read_cb, self);
      load_refresh (self);
    }
}

const char *
lwn_reader_get_feed_url (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return self->feed_url;
}

/**
 * lwn_reader_set_interval:
 * @self: a #LwnReader
 * @seconds: the time between two polls
 * @forced: %TRUE when given on the command line: then shorter than a
 *   minute is allowed, for tests
 */
void
lwn_reader_set_interval (LwnReader *self,
                         guint seconds,
                         gboolean forced)
{
  g_return_if_fail (LWN_IS_READER (self));

  lwn_scheduler_set_interval (self->scheduler, seconds, forced);
}

/**
 * lwn_reader_set_notify:
 * @self: a #LwnReader
 * @notify: whether new headlines are announced
 *
 * Items that arrive while this is off are still recorded as announced, so
 * that turning it on again does not bring a flood. Announcements that no
 * notification server showed before the applet quit are made again at the
 * next start only if this is on then.
 */
void
lwn_reader_set_notify (LwnReader *self,
                       gboolean notify)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->notify = notify;
}

/**
 * lwn_reader_set_notify_security_lists:
 * @self: a #LwnReader
 * @notify: whether LWN's daily "Security updates for …" lists are announced
 *
 * Filters notifications only: the lists stay among the headlines.
 */
void
lwn_reader_set_notify_security_lists (LwnReader *self,
                                      gboolean notify)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->notify_security_lists = notify;
}

static gboolean
manual_refresh_cb (gpointer user_data)
{
  LwnReader *self = user_data;

  self->manual_id = 0;
  /* The spinner has been on since the click; now the request is real. */
  self->refreshing = FALSE;
  load_refresh (self);
  return G_SOURCE_REMOVE;
}

/**
 * lwn_reader_refresh:
 * @self: a #LwnReader
 *
 * "Refresh now", "Retry" or a second start: asks the server with a
 * conditional request, at once, or when the last request ended less than
 * %LWN_READER_MANUAL_REFRESH_GAP_SECONDS ago, as soon as that gap is over;
 * meanwhile it counts as refreshing. Never ignored, never a burst of
 * requests. When nothing changed, the status line says so ("Up to date —
 * checked 14:05").
 */
void
lwn_reader_refresh (LwnReader *self)
{
  gint64 gap = LWN_READER_MANUAL_REFRESH_GAP_SECONDS * G_USEC_PER_SEC;
  gint64 wait;

  g_return_if_fail (LWN_IS_READER (self));

  if (!self->started)
    return;

  self->manual = TRUE;
  if (self->refreshing)
    {
      /* A poll under way, not shown yet: now someone waits for it. */
      if (!self->refresh_shown)
        {
          show_refresh (self);
          emit_changed (self);
        }
      return;
    }

  wait = self->last_request_us == 0 ? 0 : self->last_request_us + gap - g_get_monotonic_time ();
  if (wait <= 0)
    {
      load_refresh (self);
      return;
    }

  self->manual_id = g_timeout_add ((guint) (wait / 1000) + 1, manual_refresh_cb, self);
  set_refreshing (self, TRUE);
  emit_changed (self);
}

/**
 * lwn_reader_refresh_due:
 * @self: a #LwnReader
 *
 * Polls now, as the timer would: for the network coming back and the like.
 */
void
lwn_reader_refresh_due (LwnReader *self)
{
  g_return_if_fail (LWN_IS_READER (self));

  if (self->started)
    load_refresh (self);
}

/**
 * lwn_reader_mark_read:
 * @self: a #LwnReader
 * @item_id: an item of the current feed
 *
 * Marks it read and ends its reminder, if it has one, and its announcement
 * if no notification server showed it yet; saves soon (off the main
 * thread) and tells the views. The item need not be in the feed.
 */
void
lwn_reader_mark_read (LwnReader *self,
                      const char *item_id)
{
  LwnHeadline *headline;
  gboolean pending;

  g_return_if_fail (LWN_IS_READER (self));
  g_return_if_fail (item_id != NULL);

  g_signal_emit (self, signals[SIGNAL_READ], 0, item_id);
  /* Read, it needs no announcement any more. */
  pending = lwn_store_drop_pending (self->store, item_id);
  if (!lwn_store_mark_read (self->store, item_id))
    {
      if (pending)
        schedule_save (self);
      /* Read again, once more on its own: the reminder has served. */
      if (forget_reminder (self, item_id))
        emit_changed (self);
      return;
    }
  forget_reminder (self, item_id);

  headline = g_hash_table_lookup (self->headline_by_id, item_id);
  if (headline != NULL)
    lwn_headline_set_unread (headline, FALSE);
  count_unread (self);
  schedule_save (self);
  emit_changed (self);
}

/**
 * lwn_reader_mark_shown:
 * @self: a #LwnReader
 * @item_ids: (array zero-terminated=1): items whose announcement a
 *   notification server showed, alone or in a grouped notification
 *
 * Their announcements are no longer pending: no later start announces
 * them again. Saves soon (off the main thread). Ids that are not pending
 * are ignored.
 */
void
lwn_reader_mark_shown (LwnReader *self,
                       const char *const *item_ids)
{
  gboolean changed = FALSE;

  g_return_if_fail (LWN_IS_READER (self));
  g_return_if_fail (item_ids != NULL);

  for (gsize i = 0; item_ids[i] != NULL; i++)
    changed |= lwn_store_drop_pending (self->store, item_ids[i]);
  if (changed)
    schedule_save (self);
}

/**
 * lwn_reader_open:
 * @self: a #LwnReader
 * @item_id: the item the person chose, by id (never by position: a view may
 *   show an older list than the reader has)
 *
 * Marks the item read and says what to open.
 *
 * Returns: (transfer full) (nullable): the full-article http(s) URL to
 *   open, or %NULL when the item is not in the feed or has no safe link
 */
char *
lwn_reader_open (LwnReader *self,
                 const char *item_id)
{
  LwnHeadline *headline;
  const char *url;

  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  headline = item_id != NULL ? g_hash_table_lookup (self->headline_by_id, item_id) : NULL;
  if (headline == NULL)
    return NULL;

  url = lwn_headline_get_url (headline);
  if (!lwn_url_is_launchable (url))
    return NULL;

  lwn_reader_mark_read (self, item_id);
  return g_strdup (url);
}

/**
 * lwn_reader_mark_read_url:
 * @self: a #LwnReader
 * @url: the full-article address of an article that was opened
 *
 * Marks read each unread headline of the feed whose full-article address
 * is @url exactly: the same page, read through another feed.
 */
void
lwn_reader_mark_read_url (LwnReader *self,
                          const char *url)
{
  g_autoptr (GPtrArray) read = NULL;
  guint n;

  g_return_if_fail (LWN_IS_READER (self));
  g_return_if_fail (url != NULL);

  read = g_ptr_array_new_with_free_func (g_free);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->headlines));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (self->headlines), i);

      if (lwn_headline_get_unread (headline) && g_strcmp0 (lwn_headline_get_url (headline), url) == 0)
        g_ptr_array_add (read, g_strdup (lwn_headline_get_id (headline)));
    }
  /* Marked once the walk is over: each mark tells the views, which may look at the list. */
  for (guint i = 0; i < read->len; i++)
    lwn_reader_mark_read (self, g_ptr_array_index (read, i));
}

/**
 * lwn_reader_has_item:
 * @self: a #LwnReader
 * @item_id: an item id
 *
 * Returns: whether the feed shown holds @item_id
 */
gboolean
lwn_reader_has_item (LwnReader *self,
                     const char *item_id)
{
  g_return_val_if_fail (LWN_IS_READER (self), FALSE);

  return item_id != NULL && g_hash_table_contains (self->headline_by_id, item_id);
}

/**
 * lwn_reader_mark_all_read:
 * @self: a #LwnReader
 *
 * Marks every headline of the feed read, and ends the announcements of
 * those that no notification server showed yet. Reminders stay: each was
 * asked for on its own, and a bulk action does not take them back.
 */
void
lwn_reader_mark_all_read (LwnReader *self)
{
  gboolean changed = FALSE;
  guint n;

  g_return_if_fail (LWN_IS_READER (self));

  g_signal_emit (self, signals[SIGNAL_READ], 0, NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->headlines));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (self->headlines), i);

      changed |= lwn_store_mark_read (self->store, lwn_headline_get_id (headline));
      changed |= lwn_store_drop_pending (self->store, lwn_headline_get_id (headline));
      lwn_headline_set_unread (headline, FALSE);
    }

  if (!changed)
    return;

  count_unread (self);
  schedule_save (self);
  emit_changed (self);
}

LwnReaderState
lwn_reader_get_state (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), LWN_READER_STATE_LOADING);

  if (self->feed != NULL)
    return LWN_READER_STATE_READY;
  return self->error != NULL ? LWN_READER_STATE_FAILED : LWN_READER_STATE_LOADING;
}

/**
 * lwn_reader_get_refreshing:
 * @self: a #LwnReader
 *
 * Returns: whether the views should show a refresh under way: one the
 *   person asked for (also while it waits for its turn), or one the timer
 *   started that has taken %LWN_READER_SHOW_REFRESH_AFTER_MS or more
 */
gboolean
lwn_reader_get_refreshing (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), FALSE);

  return self->refresh_shown;
}

/**
 * lwn_reader_get_loading:
 * @self: a #LwnReader
 *
 * Returns: whether a refresh is under way or waits for its turn, shown or
 *   not (see lwn_reader_get_refreshing())
 */
gboolean
lwn_reader_get_loading (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), FALSE);

  return self->refreshing;
}

/**
 * lwn_reader_get_status:
 * @self: a #LwnReader
 *
 * Returns: (nullable): the one-line status, e.g. "Updated 14:05", or why
 *   updates or notifications stopped; %NULL before anything is known
 */
const char *
lwn_reader_get_status (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return self->status;
}

/**
 * lwn_reader_get_error:
 * @self: a #LwnReader
 *
 * Returns: (nullable): why the last load failed, as a sentence
 */
const char *
lwn_reader_get_error (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return self->error;
}

/**
 * lwn_reader_get_headlines:
 * @self: a #LwnReader
 *
 * Returns: (transfer none): every item of the current feed, in feed order,
 *   as #LwnHeadline objects; empty until a feed is known
 */
GListModel *
lwn_reader_get_headlines (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return G_LIST_MODEL (self->headlines);
}

/**
 * lwn_reader_get_feed:
 * @self: a #LwnReader
 *
 * Returns: (transfer none) (nullable): the feed shown, immutable, which a
 *   worker thread may read once it holds a reference; %NULL until one is known
 */
LwnFeed *
lwn_reader_get_feed (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return self->feed;
}

/**
 * lwn_reader_lookup_headline:
 * @self: a #LwnReader
 * @item_id: an item id
 *
 * Returns: (transfer none) (nullable): the headline shown for @item_id
 */
LwnHeadline *
lwn_reader_lookup_headline (LwnReader *self,
                            const char *item_id)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return item_id != NULL ? g_hash_table_lookup (self->headline_by_id, item_id) : NULL;
}

guint
lwn_reader_get_n_unread (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), 0);

  return self->n_unread;
}

/**
 * lwn_reader_dup_site_url:
 * @self: a #LwnReader
 *
 * Returns: (transfer full) (nullable): the site the feed belongs to, or
 *   before a feed is known (or when it names none) the root of its server;
 *   always http(s)
 */
char *
lwn_reader_dup_site_url (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  if (self->feed != NULL && lwn_url_is_launchable (lwn_feed_get_link (self->feed)))
    return g_strdup (lwn_feed_get_link (self->feed));

  return lwn_url_dup_site_root (current_url (self));
}

/**
 * lwn_reader_dup_site_name:
 * @self: a #LwnReader
 *
 * Returns: (transfer full): what to call the feed's site: its title, or
 *   before a feed is known the name of its server ("LWN.net" for LWN's)
 */
char *
lwn_reader_dup_site_name (LwnReader *self)
{
  g_autofree char *host = NULL;

  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  if (self->feed != NULL && *lwn_feed_get_title (self->feed) != '\0')
    return g_strdup (lwn_feed_get_title (self->feed));

  host = lwn_url_dup_host (current_url (self));
  if (host == NULL || g_ascii_strcasecmp (host, "lwn.net") == 0 || g_ascii_strcasecmp (host, "www.lwn.net") == 0)
    return g_strdup ("LWN.net");
  return g_steal_pointer (&host);
}

/**
 * lwn_reader_set_name:
 * @self: a #LwnReader
 * @name: (nullable): what the person calls the feed, or %NULL (or "") for
 *   the feed's own title
 *
 * Names the feed in the views, in the status line and in notifications.
 */
void
lwn_reader_set_name (LwnReader *self,
                     const char *name)
{
  g_return_if_fail (LWN_IS_READER (self));

  if (name != NULL && *name == '\0')
    name = NULL;
  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  emit_changed (self);
}

/**
 * lwn_reader_dup_name:
 * @self: a #LwnReader
 *
 * Returns: (transfer full): the name the person gave the feed, else its own
 *   title, as lwn_reader_dup_site_name() gives it
 */
char *
lwn_reader_dup_name (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), NULL);

  return self->name != NULL ? g_strdup (self->name) : lwn_reader_dup_site_name (self);
}

/**
 * lwn_reader_set_network_monitor:
 * @self: a #LwnReader
 * @monitor: (nullable): the monitor to follow
 *
 * Shares one monitor between the feeds of a set, instead of each making its own.
 */
void
lwn_reader_set_network_monitor (LwnReader *self,
                                GNetworkMonitor *monitor)
{
  g_return_if_fail (LWN_IS_READER (self));

  lwn_scheduler_set_network_monitor (self->scheduler, monitor);
}

/**
 * lwn_reader_set_first_poll_delay:
 * @self: a #LwnReader
 * @seconds: how long after its saved copy is shown the feed first polls;
 *   without a saved copy, it polls at once
 *
 * Keeps the feeds of a set from all polling at once; call before
 * lwn_reader_start().
 */
void
lwn_reader_set_first_poll_delay (LwnReader *self,
                                 guint seconds)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->first_poll_delay_seconds = seconds;
}

/**
 * lwn_reader_set_first_poll_wait:
 * @self: a #LwnReader
 * @seconds: how long after its saved copy is shown, or known to be
 *   missing, the feed first polls at the earliest, with a saved copy or
 *   without
 *
 * Keeps feeds added together from all polling at once, although none has
 * anything to show until it polls; call before lwn_reader_start().
 */
void
lwn_reader_set_first_poll_wait (LwnReader *self,
                                guint seconds)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->first_poll_wait_seconds = seconds;
}

/**
 * lwn_reader_set_quiet_first_run:
 * @self: a #LwnReader
 * @quiet: whether the feed's first run is quiet
 *
 * A quiet first run (the first headlines of a feed without any history, as
 * lwn_store_has_history() tells) records them as announced without
 * announcing them: they stay unread, and they are never announced later,
 * at the next start or when a notification server comes. The headlines
 * that come after it are announced as usual. For feeds added many at once,
 * which would otherwise raise a notification each; lwn-feed-set decides.
 */
void
lwn_reader_set_quiet_first_run (LwnReader *self,
                                gboolean quiet)
{
  g_return_if_fail (LWN_IS_READER (self));

  self->quiet_first_run = !!quiet;
}

/**
 * lwn_reader_set_fetch_queue:
 * @self: a #LwnReader
 * @queue: (nullable): the queue that gives the feeds' requests their turns,
 *   or %NULL for none
 *
 * From the next request on, each waits for its turn in @queue, shared by
 * the feeds of a set, and counts as refreshing meanwhile; without a queue
 * each goes at once.
 */
void
lwn_reader_set_fetch_queue (LwnReader *self,
                            LwnFetchQueue *queue)
{
  g_return_if_fail (LWN_IS_READER (self));
  g_return_if_fail (queue == NULL || LWN_IS_FETCH_QUEUE (queue));

  g_set_object (&self->fetch_queue, queue);
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
  schedule_save (self);
  emit_changed (self);
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
