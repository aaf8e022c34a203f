/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reading model: loads the feed when the scheduler says so, decides what is new, what is read and
 * what to announce, saves through the store off the main thread, and tells its views. Main thread only. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-reader-private.h"
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

const char *
lwn_reader_get_current_url (LwnReader *self)
{
  const char *moved = lwn_store_get_moved_url (self->store, self->feed_url);

  return moved != NULL ? moved : self->feed_url;
}

/* The present by the reader's clock, which tests may set. */
GDateTime *
lwn_reader_dup_now (LwnReader *self)
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

void
lwn_reader_emit_changed (LwnReader *self)
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

/* For the other parts of the reader: the state may have changed. */
void
lwn_reader_notify_state (LwnReader *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
lwn_reader_set_error (LwnReader *self,
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
void
lwn_reader_update (LwnReader *self)
{
  g_autofree char *status = compute_status (self);

  if (g_strcmp0 (status, self->status) != 0)
    {
      g_free (self->status);
      self->status = g_steal_pointer (&status);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
  lwn_reader_emit_changed (self);
}

void
lwn_reader_set_refreshing (LwnReader *self,
                           gboolean refreshing)
{
  if (self->refreshing == refreshing)
    return;

  self->refreshing = refreshing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
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

void
lwn_reader_show_feed (LwnReader *self,
                      LwnFeed *feed)
{
  LwnReaderState old_state = lwn_reader_get_state (self);
  LwnReminders *reminders = lwn_store_get_reminders (self->store);
  guint n = lwn_feed_get_n_items (feed);
  g_autoptr (GPtrArray) headlines = g_ptr_array_new_full (n, g_object_unref);
  g_autofree const char **ids = g_new (const char *, n + 1);

  g_clear_pointer (&self->feed, lwn_feed_unref);
  self->feed = lwn_feed_ref (feed);

  /* What is shown is what the store must remember last of all; told
   * first, it works out the keys of long ids once for the calls below. */
  for (guint i = 0; i < n; i++)
    ids[i] = lwn_feed_item_get_id (lwn_feed_get_item (feed, i));
  lwn_store_note_shown_ids (self->store, ids, n);

  g_hash_table_remove_all (self->headline_by_id);
  for (guint i = 0; i < n; i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);
      const char *id = ids[i];
      LwnHeadline *headline;

      /* A feed that repeats an id: the first one is the headline, in every
       * view, and the one a click means. */
      if (g_hash_table_contains (self->headline_by_id, id))
        continue;
      headline = lwn_headline_new (item, !lwn_store_is_read (self->store, id));
      lwn_headline_set_reminder (headline, lwn_reminders_lookup (reminders, id) != NULL);
      g_ptr_array_add (headlines, headline);
      g_hash_table_insert (self->headline_by_id, (gpointer) id, headline);
    }

  g_list_store_splice (self->headlines, 0, g_list_model_get_n_items (G_LIST_MODEL (self->headlines)),
                       headlines->pdata, headlines->len);
  count_unread (self);
  if (lwn_reader_get_state (self) != old_state)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  lwn_reader_save_tell_pending (self);
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

/* The timer, the network coming back or a resume: a wake-up, at which
 * reminders are due as at a poll's result. */
static void
scheduler_refresh_due_cb (LwnScheduler *scheduler,
                          LwnReader *self)
{
  lwn_reader_reminders_check (self);
  lwn_reader_load_refresh (self);
}

static void
lwn_reader_dispose (GObject *object)
{
  LwnReader *self = LWN_READER (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->save_cancellable != NULL)
    g_cancellable_cancel (self->save_cancellable);
  g_clear_handle_id (&self->save_idle_id, g_source_remove);
  g_clear_handle_id (&self->manual_id, g_source_remove);
  if (self->scheduler != NULL)
    g_signal_handlers_disconnect_by_data (self->scheduler, self);
  g_clear_object (&self->scheduler);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->save_cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->headline_by_id, g_hash_table_unref);
  g_clear_object (&self->headlines);
  g_clear_pointer (&self->feed, lwn_feed_unref);
  g_clear_pointer (&self->unannounced, g_ptr_array_unref);
  g_clear_pointer (&self->announcing, g_ptr_array_unref);
  g_clear_pointer (&self->retell, g_ptr_array_unref);
  g_clear_pointer (&self->due_reminders, g_ptr_array_unref);
  g_clear_pointer (&self->reminding, g_ptr_array_unref);

  G_OBJECT_CLASS (lwn_reader_parent_class)->dispose (object);
}

static void
lwn_reader_finalize (GObject *object)
{
  LwnReader *self = LWN_READER (object);

  g_free (self->feed_url);
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
        g_value_set_boolean (value, self->refreshing);
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
  self->headline_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->cancellable = g_cancellable_new ();
  self->save_cancellable = g_cancellable_new ();
  self->unannounced = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  self->announcing = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  self->retell = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  self->due_reminders = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);
  self->reminding = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_reminder_unref);
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
  lwn_reader_reminders_check (self);
  /* Polling starts once the saved copy is shown, or known to be missing. */
  lwn_reader_load_cache (self);
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
  g_clear_handle_id (&self->save_idle_id, g_source_remove);
  g_clear_handle_id (&self->manual_id, g_source_remove);
  if (!lwn_store_save (self->store, &error))
    g_warning ("Could not save what was read: %s", error->message);
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
  lwn_reader_set_refreshing (self, FALSE);
  self->stopped = FALSE;
  self->last_request_us = 0;
  self->manual = self->manual_unchanged = FALSE;
  lwn_reader_set_error (self, NULL);
  clear_feed (self);
  /* The old feed's back-off and hints say nothing about the new one. */
  lwn_scheduler_forget_feed (self->scheduler);
  lwn_scheduler_resume_polling (self->scheduler);
  lwn_reader_update (self);

  if (self->started)
    {
      lwn_reader_load_cache (self);
      lwn_reader_load_refresh (self);
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
  lwn_reader_load_refresh (self);
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
    return;

  wait = self->last_request_us == 0 ? 0 : self->last_request_us + gap - g_get_monotonic_time ();
  if (wait <= 0)
    {
      lwn_reader_load_refresh (self);
      return;
    }

  self->manual_id = g_timeout_add ((guint) (wait / 1000) + 1, manual_refresh_cb, self);
  lwn_reader_set_refreshing (self, TRUE);
  lwn_reader_emit_changed (self);
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
    lwn_reader_load_refresh (self);
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
        lwn_reader_save_schedule (self);
      /* Read again, once more on its own: the reminder has served. */
      if (lwn_reader_reminders_forget (self, item_id))
        lwn_reader_emit_changed (self);
      return;
    }
  lwn_reader_reminders_forget (self, item_id);

  headline = g_hash_table_lookup (self->headline_by_id, item_id);
  if (headline != NULL)
    lwn_headline_set_unread (headline, FALSE);
  count_unread (self);
  lwn_reader_save_schedule (self);
  lwn_reader_emit_changed (self);
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
    lwn_reader_save_schedule (self);
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
  lwn_reader_save_schedule (self);
  lwn_reader_emit_changed (self);
}

LwnReaderState
lwn_reader_get_state (LwnReader *self)
{
  g_return_val_if_fail (LWN_IS_READER (self), LWN_READER_STATE_LOADING);

  if (self->feed != NULL)
    return LWN_READER_STATE_READY;
  return self->error != NULL ? LWN_READER_STATE_FAILED : LWN_READER_STATE_LOADING;
}

gboolean
lwn_reader_get_refreshing (LwnReader *self)
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

  return lwn_url_dup_site_root (lwn_reader_get_current_url (self));
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

  host = lwn_url_dup_host (lwn_reader_get_current_url (self));
  if (host == NULL || g_ascii_strcasecmp (host, "lwn.net") == 0 || g_ascii_strcasecmp (host, "www.lwn.net") == 0)
    return g_strdup ("LWN.net");
  return g_steal_pointer (&host);
}
