/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feeds followed: one reading model per feed, each with its own state, cache, timing and error, in the person's
 * order; their requests take turns in one fetch queue. */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "lwn-feed-set-private.h"
#include "lwn-fetch-queue.h"
#include "lwn-headline.h"
#include "lwn-network-monitor.h"
#include "lwn-scheduler.h"
#include "lwn-str-hash.h"

/* One followed feed. Its store holds what was read of it alone, in a
 * folder of its own, so that a feed that fails, moves or leaves touches no
 * other feed's marks. */
typedef struct
{
  LwnFeedSet *set;
  char *url;
  gboolean notify;
  LwnStore *store;
  LwnReader *reader;
  GHashTable *links; /* the set's keys of entry_by_link under which this feed is listed */
} Entry;

struct _LwnFeedSet
{
  GObject parent_instance;

  char *state_dir;
  char *cache_dir;
  char *first_feed_url; /* its state stays in state_dir itself, where it was before there were several */
  GPtrArray *entries;   /* Entry*, in the person's order */
  GHashTable *closing;  /* feed URL → LwnStore* of a feed removed, while its last save is written */
  guint n_last_saves;   /* those saves under way */
  /* feed URL → Forget* of a feed removed, whose files go once it can no longer be taken back */
  GHashTable *forgetting;
  GPtrArray *drains; /* GTask* of lwn_feed_set_drain_async(), waiting for the saves and the forgetting */
  /* Full-article address → one Entry* whose headlines open it, and for an address that several feeds
   * open, → GPtrArray of the other Entry* (keyed by the first table's keys): an article opened is read
   * in those feeds alone, without a look at every headline of every feed. Most addresses are in one
   * feed only, and cost no array. */
  GHashTable *entry_by_link;
  GHashTable *more_entries_by_link;

  guint interval;
  gboolean interval_forced;
  gboolean notify;
  gboolean notify_security_lists;
  guint n_unread;
  guint spread_seconds;
  guint forget_seconds;
  gboolean started;

  GNetworkMonitor *monitor;
  LwnFetchQueue *queue; /* the feeds' requests take turns in it */
  GCancellable *cancellable;
};

static void lwn_feed_set_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LwnFeedSet, lwn_feed_set, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, lwn_feed_set_list_model_init))

enum
{
  PROP_0,
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
  SIGNAL_FEED_REMOVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
lwn_feed_set_get_item_type (GListModel *model)
{
  return LWN_TYPE_READER;
}

static guint
lwn_feed_set_get_n_items (GListModel *model)
{
  return LWN_FEED_SET (model)->entries->len;
}

static gpointer
lwn_feed_set_get_item (GListModel *model,
                       guint position)
{
  LwnFeedSet *self = LWN_FEED_SET (model);

  if (position >= self->entries->len)
    return NULL;
  return g_object_ref (((Entry *) g_ptr_array_index (self->entries, position))->reader);
}

static void
lwn_feed_set_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = lwn_feed_set_get_item_type;
  iface->get_n_items = lwn_feed_set_get_n_items;
  iface->get_item = lwn_feed_set_get_item;
}

static void
count_unread (LwnFeedSet *self)
{
  guint n_unread = 0;

  for (guint i = 0; i < self->entries->len; i++)
    n_unread += lwn_reader_get_n_unread (((Entry *) g_ptr_array_index (self->entries, i))->reader);

  if (n_unread != self->n_unread)
    {
      self->n_unread = n_unread;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_UNREAD]);
    }
}

/* The readers' news, passed on with the reader it is about. */

static void
reader_changed_cb (LwnReader *reader,
                   Entry *entry)
{
  g_signal_emit (entry->set, signals[SIGNAL_CHANGED], 0);
}

static void
reader_n_unread_cb (LwnReader *reader,
                    GParamSpec *pspec,
                    Entry *entry)
{
  count_unread (entry->set);
}

static void
reader_announce_cb (LwnReader *reader,
                    GPtrArray *items,
                    guint max_single,
                    Entry *entry)
{
  g_signal_emit (entry->set, signals[SIGNAL_ANNOUNCE], 0, reader, items, max_single);
}

static void
reader_alert_cb (LwnReader *reader,
                 const char *summary,
                 const char *body,
                 Entry *entry)
{
  g_signal_emit (entry->set, signals[SIGNAL_ALERT], 0, reader, summary, body);
}

static void
reader_read_cb (LwnReader *reader,
                const char *item_id,
                Entry *entry)
{
  g_signal_emit (entry->set, signals[SIGNAL_READ], 0, reader, item_id);
}

static void
reader_reminder_due_cb (LwnReader *reader,
                        const char *item_id,
                        const char *title,
                        const char *url,
                        Entry *entry)
{
  g_signal_emit (entry->set, signals[SIGNAL_REMINDER_DUE], 0, reader, item_id, title, url);
}

/**
 * lwn_feed_set_dup_state_dir:
 * @self: a #LwnFeedSet
 * @url: a feed's configured address
 *
 * The folder of the feed's `state.ini`: the set's own folder for the feed
 * followed before there were several (so that its read marks, announcements
 * and reminders are there as they were), `feeds/` and a digest of @url
 * under it for any other.
 *
 * Returns: (transfer full): the folder
 */
char *
lwn_feed_set_dup_state_dir (LwnFeedSet *self,
                            const char *url)
{
  g_autofree char *digest = NULL;

  g_return_val_if_fail (LWN_IS_FEED_SET (self), NULL);
  g_return_val_if_fail (url != NULL, NULL);

  if (g_strcmp0 (url, self->first_feed_url) == 0)
    return g_strdup (self->state_dir);

  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, url, -1);
  digest[16] = '\0';
  return g_build_filename (self->state_dir, "feeds", digest, NULL);
}

/* Lists @entry under @link; returns the table's own copy of @link. */
static const char *
link_entry (LwnFeedSet *self,
            Entry *entry,
            const char *link)
{
  gpointer key;
  GPtrArray *more;

  if (!g_hash_table_lookup_extended (self->entry_by_link, link, &key, NULL))
    {
      key = g_strdup (link);
      g_hash_table_insert (self->entry_by_link, key, entry);
      return key;
    }
  more = g_hash_table_lookup (self->more_entries_by_link, key);
  if (more == NULL)
    {
      more = g_ptr_array_sized_new (1);
      g_hash_table_insert (self->more_entries_by_link, key, more);
    }
  g_ptr_array_add (more, entry);
  return key;
}

/* Takes @entry off the feeds of @link, which goes when no feed is left on it. */
static void
unlink_entry (LwnFeedSet *self,
              Entry *entry,
              const char *link)
{
  gpointer key;
  gpointer first;
  GPtrArray *more;

  if (!g_hash_table_lookup_extended (self->entry_by_link, link, &key, &first))
    return;
  more = g_hash_table_lookup (self->more_entries_by_link, key);
  if (first == entry && more == NULL)
    {
      g_hash_table_remove (self->entry_by_link, key);
      return;
    }
  if (first == entry)
    {
      /* Another feed takes its place; the key stays, which the other table holds. */
      g_hash_table_steal (self->entry_by_link, key);
      g_hash_table_insert (self->entry_by_link, key, g_ptr_array_steal_index_fast (more, more->len - 1));
    }
  else if (more != NULL)
    g_ptr_array_remove_fast (more, entry);
  if (more != NULL && more->len == 0)
    g_hash_table_remove (self->more_entries_by_link, key);
}

/* The feed's headlines changed: its addresses are listed again, those
 * that left taken off and those that came added, so that the index always
 * says which feeds open an address. The walk is over this feed alone, as
 * the change was. */
static void
entry_headlines_changed_cb (GListModel *headlines,
                            guint position,
                            guint removed,
                            guint added,
                            Entry *entry)
{
  LwnFeedSet *self = entry->set;
  guint n = g_list_model_get_n_items (headlines);
  /* Its keys belong to the headlines, which the reader's list holds meanwhile. */
  g_autoptr (GHashTable) now = lwn_str_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer link;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);
      const char *url = lwn_headline_get_url (headline);

      if (url != NULL)
        g_hash_table_add (now, (gpointer) url);
    }

  g_hash_table_iter_init (&iter, entry->links);
  while (g_hash_table_iter_next (&iter, &link, NULL))
    {
      if (!g_hash_table_contains (now, link))
        {
          /* Out of the entry's set first: the set's key may go with the last feed on it. */
          g_hash_table_iter_remove (&iter);
          unlink_entry (self, entry, link);
        }
    }
  g_hash_table_iter_init (&iter, now);
  while (g_hash_table_iter_next (&iter, &link, NULL))
    {
      if (!g_hash_table_contains (entry->links, link))
        g_hash_table_add (entry->links, (gpointer) link_entry (self, entry, link));
    }
}

static void
entry_apply_notify (Entry *entry)
{
  lwn_reader_set_notify (entry->reader, entry->set->notify && entry->notify);
}

static Entry *
entry_new (LwnFeedSet *self,
           const LwnFeedSpec *spec)
{
  Entry *entry = g_new0 (Entry, 1);
  g_autofree char *state_dir = lwn_feed_set_dup_state_dir (self, spec->url);
  g_autoptr (GError) error = NULL;

  entry->set = self;
  entry->url = g_strdup (spec->url);
  entry->notify = spec->notify;
  entry->links = lwn_str_hash_table_new (NULL, NULL);
  /* Added back in time: what was read of it stays. */
  g_hash_table_remove (self->forgetting, spec->url);
  entry->store = g_hash_table_lookup (self->closing, spec->url);
  if (entry->store != NULL)
    g_object_ref (entry->store);
  else
    {
      entry->store = lwn_store_new (state_dir, self->cache_dir);
      /* A corrupt file is moved aside and the feed starts afresh; it says so. */
      if (!lwn_store_load (entry->store, &error))
        g_warning ("%s", error->message);
    }

  entry->reader = lwn_reader_new (entry->store, spec->url);
  lwn_reader_set_name (entry->reader, spec->name);
  lwn_reader_set_interval (entry->reader, self->interval, self->interval_forced);
  lwn_reader_set_notify_security_lists (entry->reader, self->notify_security_lists);
  entry_apply_notify (entry);
  /* One monitor for all; until it is made the network counts as there. */
  lwn_reader_set_network_monitor (entry->reader, self->monitor);
  lwn_reader_set_fetch_queue (entry->reader, self->queue);

  g_signal_connect (entry->reader, "changed", G_CALLBACK (reader_changed_cb), entry);
  g_signal_connect (entry->reader, "notify::n-unread", G_CALLBACK (reader_n_unread_cb), entry);
  g_signal_connect (entry->reader, "announce", G_CALLBACK (reader_announce_cb), entry);
  g_signal_connect (entry->reader, "alert", G_CALLBACK (reader_alert_cb), entry);
  g_signal_connect (entry->reader, "read", G_CALLBACK (reader_read_cb), entry);
  g_signal_connect (entry->reader, "reminder-due", G_CALLBACK (reader_reminder_due_cb), entry);
  g_signal_connect (lwn_reader_get_headlines (entry->reader), "items-changed",
                    G_CALLBACK (entry_headlines_changed_cb), entry);
  return entry;
}

typedef struct
{
  GWeakRef set;
  char *url;
  LwnStore *store;
} Closing;

/* A removed feed's files: its state folder and its saved copy. */
typedef struct
{
  LwnFeedSet *set; /* (unowned): the set removes its forgets before it goes */
  char *url;
  char *state_dir;
  char *cache_path;
  guint timeout_id;
} Forget;

static void finish_drains (LwnFeedSet *self);

static void
destroy_source (GSource *source)
{
  g_source_destroy (source);
  g_source_unref (source);
}
static void forget_files_async (LwnFeedSet *self,
                                GPtrArray *forgets);

static void
closing_free (Closing *closing)
{
  g_weak_ref_clear (&closing->set);
  g_free (closing->url);
  g_clear_object (&closing->store);
  g_free (closing);
}

static void
closing_saved_cb (GObject *source,
                  GAsyncResult *result,
                  gpointer user_data)
{
  Closing *closing = user_data;
  g_autoptr (LwnFeedSet) self = g_weak_ref_get (&closing->set);
  g_autoptr (GError) error = NULL;

  if (!lwn_store_save_finish (LWN_STORE (source), result, &error))
    g_warning ("Could not save what was read of a feed no longer followed: %s", error->message);
  /* Added back meanwhile, the feed took this store again. */
  if (self != NULL && g_hash_table_lookup (self->closing, closing->url) == closing->store)
    g_hash_table_remove (self->closing, closing->url);
  if (self != NULL)
    {
      self->n_last_saves--;
      finish_drains (self);
    }
  closing_free (closing);
}

static void
forget_free (Forget *forget)
{
  g_clear_handle_id (&forget->timeout_id, g_source_remove);
  g_free (forget->url);
  g_free (forget->state_dir);
  g_free (forget->cache_path);
  g_free (forget);
}

/* Runs in a worker: the files of feeds no longer followed go. A folder
 * holds only what the store wrote there; what cannot go stays, and says so. */
static void
forget_files_thread (GTask *task,
                     gpointer source_object,
                     gpointer task_data,
                     GCancellable *cancellable)
{
  GPtrArray *forgets = task_data;

  for (guint i = 0; i < forgets->len; i++)
    {
      Forget *forget = g_ptr_array_index (forgets, i);
      g_autoptr (GDir) dir = g_dir_open (forget->state_dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (forget->state_dir, name, NULL);

          if (g_remove (path) != 0)
            g_message ("Could not remove %s: %s", path, g_strerror (errno));
        }
      if (dir != NULL && g_rmdir (forget->state_dir) != 0)
        g_message ("Could not remove %s: %s", forget->state_dir, g_strerror (errno));
      if (forget->cache_path != NULL && g_remove (forget->cache_path) != 0 && errno != ENOENT)
        g_message ("Could not remove %s: %s", forget->cache_path, g_strerror (errno));
      g_debug ("Forgot %s", forget->url);
    }
  g_task_return_boolean (task, TRUE);
}

static void
forget_files_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  LwnFeedSet *self = LWN_FEED_SET (source);

  self->n_last_saves--;
  finish_drains (self);
}

/* Counted as a last save: a drain waits for the files to go too. */
static void
forget_files_async (LwnFeedSet *self,
                    GPtrArray *forgets)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, forget_files_cb, NULL);

  self->n_last_saves++;
  g_task_set_task_data (task, g_ptr_array_ref (forgets), (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, forget_files_thread);
}

/* Takes the forgets out of the table and has their files removed. */
static void
forget_now (LwnFeedSet *self,
            const char *url)
{
  g_autoptr (GPtrArray) forgets = g_ptr_array_new_with_free_func ((GDestroyNotify) forget_free);
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  g_hash_table_iter_init (&iter, self->forgetting);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Forget *forget = value;

      /* Its last save first: the files it writes go after it. */
      if ((url == NULL || g_str_equal (forget->url, url)) && !g_hash_table_contains (self->closing, forget->url))
        {
          g_clear_handle_id (&forget->timeout_id, g_source_remove);
          g_hash_table_iter_steal (&iter);
          g_free (key);
          g_ptr_array_add (forgets, forget);
        }
    }
  if (forgets->len > 0)
    forget_files_async (self, forgets);
}

static gboolean
forget_due_cb (gpointer user_data)
{
  Forget *forget = user_data;

  forget->timeout_id = 0;
  /* Still being saved: a second more. */
  if (g_hash_table_contains (forget->set->closing, forget->url))
    forget->timeout_id = g_timeout_add_seconds (1, forget_due_cb, forget);
  else
    forget_now (forget->set, forget->url);
  return G_SOURCE_REMOVE;
}

/* A feed removed can be added back for LWN_FEED_SET_FORGET_SECONDS (the
 * preferences' undo), and finds what was read of it as it was; after that,
 * its state and its saved copy go, or they would stay on the disk for ever.
 * The first feed keeps its state where there was a single feed before, in
 * the state folder itself, which stays. */
static void
schedule_forget (LwnFeedSet *self,
                 Entry *entry)
{
  Forget *forget;

  if (g_strcmp0 (entry->url, self->first_feed_url) == 0)
    return;
  forget = g_new0 (Forget, 1);
  forget->set = self;
  forget->url = g_strdup (entry->url);
  forget->state_dir = lwn_feed_set_dup_state_dir (self, entry->url);
  forget->cache_path = lwn_store_dup_feed_cache_path (entry->store, entry->url);
  forget->timeout_id = g_timeout_add_seconds (self->forget_seconds, forget_due_cb, forget);
  g_hash_table_replace (self->forgetting, g_strdup (entry->url), forget);
}

/* Stops the feed and writes what was read of it, in a worker. Until that
 * write ends, the store stays at hand: a feed added back meanwhile takes it
 * as it is, rather than read the file being written. */
static void
entry_free (Entry *entry)
{
  LwnFeedSet *self = entry->set;
  GHashTableIter iter;
  gpointer link;

  g_signal_handlers_disconnect_by_data (entry->reader, entry);
  g_signal_handlers_disconnect_by_data (lwn_reader_get_headlines (entry->reader), entry);
  g_hash_table_iter_init (&iter, entry->links);
  while (g_hash_table_iter_next (&iter, &link, NULL))
    {
      g_hash_table_iter_remove (&iter);
      unlink_entry (self, entry, link);
    }
  if (self->started)
    {
      Closing *closing = g_new0 (Closing, 1);

      lwn_reader_close (entry->reader);
      g_weak_ref_init (&closing->set, self);
      closing->url = g_strdup (entry->url);
      closing->store = g_object_ref (entry->store);
      g_hash_table_insert (self->closing, g_strdup (entry->url), g_object_ref (entry->store));
      self->n_last_saves++;
      lwn_store_save_async (entry->store, NULL, closing_saved_cb, closing);
      schedule_forget (self, entry);
    }
  g_clear_object (&entry->reader);
  g_clear_object (&entry->store);
  g_hash_table_unref (entry->links);
  g_free (entry->url);
  g_free (entry);
}

static Entry *
find_entry (LwnFeedSet *self,
            const char *url,
            guint *position)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (g_str_equal (entry->url, url))
        {
          if (position != NULL)
            *position = i;
          return entry;
        }
    }
  return NULL;
}

/* Feeds without history that arrive in one change of the list (an import,
 * several added at once, a start with none of them saved), more than
 * LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS of them, take their first headlines
 * without a notification: each first run would group its feed's headlines,
 * and their first polls, coming in turn, would raise one notification a
 * second for as many feeds as the list brought. The person chose them all at
 * once, and sees their headlines unread in the menu and the window. */
static void
quiet_many_first_runs (GPtrArray *entries)
{
  guint n_fresh = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      if (!lwn_store_has_history (((Entry *) g_ptr_array_index (entries, i))->store))
        n_fresh++;
    }
  if (n_fresh <= LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS)
    return;
  g_debug ("%u feeds arrive without history: their first runs are quiet", n_fresh);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (entries, i);

      if (!lwn_store_has_history (entry->store))
        lwn_reader_set_quiet_first_run (entry->reader, TRUE);
    }
}

/**
 * lwn_feed_set_new:
 * @state_dir: (nullable): the folder for the state files, or %NULL for
 *   `$XDG_STATE_HOME/lwn-tray`
 * @cache_dir: (nullable): the folder for the cached feed bodies, or %NULL
 *   for `$XDG_CACHE_HOME/lwn-tray`
 * @first_feed_url: the feed followed before there were several, whose
 *   state stays in @state_dir itself
 *
 * Returns: (transfer full): a new, empty set
 */
LwnFeedSet *
lwn_feed_set_new (const char *state_dir,
                  const char *cache_dir,
                  const char *first_feed_url)
{
  LwnFeedSet *self;

  g_return_val_if_fail (first_feed_url != NULL, NULL);

  self = g_object_new (LWN_TYPE_FEED_SET, NULL);
  self->state_dir = state_dir != NULL ? g_strdup (state_dir) : g_build_filename (g_get_user_state_dir (), PACKAGE_NAME, NULL);
  self->cache_dir = cache_dir != NULL ? g_strdup (cache_dir) : g_build_filename (g_get_user_cache_dir (), PACKAGE_NAME, NULL);
  self->first_feed_url = g_strdup (first_feed_url);
  return self;
}

/**
 * lwn_feed_set_set_feeds:
 * @self: a #LwnFeedSet
 * @specs: (array length=n_specs): the feeds to follow, in order
 * @n_specs: how many; a feed given twice is followed once, where it first comes
 *
 * Follows @specs from now on. A feed followed already keeps its reading
 * model, headlines and timing, and takes the new name and notification
 * choice; a new one loads its state and, once the set is started, starts:
 * the first new one polls at once, and each next one
 * %LWN_FEED_SET_ADD_SPREAD_SECONDS after the one before it, so that a list
 * imported at once does not send all its requests together. More than
 * %LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS new feeds without history have
 * quiet first runs (lwn_reader_set_quiet_first_run()). A feed no
 * longer listed stops and saves, and #LwnFeedSet::feed-removed tells it.
 */
void
lwn_feed_set_set_feeds (LwnFeedSet *self,
                        const LwnFeedSpec *specs,
                        guint n_specs)
{
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) removed = NULL;
  g_autoptr (GPtrArray) added = NULL;
  gboolean same = TRUE;

  g_return_if_fail (LWN_IS_FEED_SET (self));
  g_return_if_fail (specs != NULL || n_specs == 0);

  entries = g_ptr_array_new ();
  added = g_ptr_array_new ();
  before = g_ptr_array_copy (self->entries, NULL, NULL);

  for (guint i = 0; i < n_specs; i++)
    {
      Entry *entry = find_entry (self, specs[i].url, NULL);
      gboolean listed = FALSE;

      for (guint j = 0; j < entries->len && !listed; j++)
        listed = g_str_equal (((Entry *) g_ptr_array_index (entries, j))->url, specs[i].url);
      if (listed)
        continue;

      if (entry != NULL)
        {
          entry->notify = specs[i].notify;
          entry_apply_notify (entry);
          lwn_reader_set_name (entry->reader, specs[i].name);
        }
      else
        {
          entry = entry_new (self, &specs[i]);
          g_ptr_array_add (added, entry);
        }
      g_ptr_array_add (entries, entry);
    }
  /* Before the set starts, its start decides for all its feeds at once. */
  if (self->started)
    {
      quiet_many_first_runs (added);
      for (guint i = 0; i < added->len; i++)
        {
          Entry *entry = g_ptr_array_index (added, i);

          lwn_reader_set_first_poll_wait (entry->reader, i * LWN_FEED_SET_ADD_SPREAD_SECONDS);
          lwn_reader_start (entry->reader);
        }
    }

  same = entries->len == before->len;
  for (guint i = 0; same && i < entries->len; i++)
    same = g_ptr_array_index (entries, i) == g_ptr_array_index (before, i);

  g_ptr_array_unref (self->entries);
  self->entries = g_ptr_array_ref (entries);
  removed = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < before->len; i++)
    {
      Entry *entry = g_ptr_array_index (before, i);

      if (g_ptr_array_find (entries, entry, NULL))
        continue;
      g_ptr_array_add (removed, g_strdup (entry->url));
      entry_free (entry);
    }

  if (!same)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before->len, entries->len);
  count_unread (self);
  for (guint i = 0; i < removed->len; i++)
    g_signal_emit (self, signals[SIGNAL_FEED_REMOVED], 0, g_ptr_array_index (removed, i));
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
monitor_made_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GNetworkMonitor) monitor = lwn_network_monitor_new_finish (result, &error);
  LwnFeedSet *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  if (monitor == NULL)
    {
      g_debug ("%s: the network counts as always available", error->message);
      return;
    }
  self->monitor = g_steal_pointer (&monitor);
  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_set_network_monitor (((Entry *) g_ptr_array_index (self->entries, i))->reader, self->monitor);
}

/**
 * lwn_feed_set_start:
 * @self: a #LwnFeedSet
 *
 * Starts every feed: each shows its saved copy at once, and polls
 * %LWN_FEED_SET_SPREAD_SECONDS (or lwn_feed_set_set_spread()'s) after the
 * one before it, so that the feeds
 * do not all wake together at every interval; a feed without a saved copy
 * polls at once. Every request of the set waits for its turn: at most
 * %LWN_FETCH_QUEUE_MAX_REQUESTS at once, and
 * %LWN_FETCH_QUEUE_MAX_PER_HOST at a time to one server. One network
 * monitor, made in a worker, serves them all. More than
 * %LWN_FEED_SET_MAX_ANNOUNCED_FIRST_RUNS feeds without history have quiet
 * first runs, as when they are added together.
 */
void
lwn_feed_set_start (LwnFeedSet *self)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  if (self->started)
    return;
  self->started = TRUE;

  self->cancellable = g_cancellable_new ();
  lwn_network_monitor_new_async (self->cancellable, monitor_made_cb, self);
  quiet_many_first_runs (self->entries);
  for (guint i = 0; i < self->entries->len; i++)
    {
      LwnReader *reader = ((Entry *) g_ptr_array_index (self->entries, i))->reader;

      lwn_reader_set_first_poll_delay (reader, i * self->spread_seconds);
      lwn_reader_start (reader);
    }
}

/**
 * lwn_feed_set_shutdown:
 * @self: a #LwnFeedSet
 *
 * Stops every feed and writes what is not saved yet, as lwn_reader_shutdown() does.
 */
void
lwn_feed_set_shutdown (LwnFeedSet *self)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  g_cancellable_cancel (self->cancellable);
  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_shutdown (((Entry *) g_ptr_array_index (self->entries, i))->reader);
}

static void
finish_drains (LwnFeedSet *self)
{
  if (self->n_last_saves > 0)
    return;
  /* A removed feed's files go with the last saves: its undo ends with the program. */
  if (self->drains->len > 0 && g_hash_table_size (self->forgetting) > 0)
    {
      forget_now (self, NULL);
      if (self->n_last_saves > 0)
        return;
    }
  while (self->drains->len > 0)
    {
      g_autoptr (GTask) task = g_ptr_array_steal_index (self->drains, 0);

      g_task_return_boolean (task, TRUE);
    }
}

/* Names the drain's tasks; its address is what matters. */
static char drain_source_tag;

static gboolean
drain_timed_out_cb (gpointer user_data)
{
  GTask *task = user_data;
  LwnFeedSet *self = g_task_get_source_object (task);
  guint index;

  if (g_ptr_array_find (self->drains, task, &index))
    {
      g_autoptr (GTask) owned = g_ptr_array_steal_index (self->drains, index);

      g_task_return_new_error (owned, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               "The feeds no longer followed were still being saved");
    }
  return G_SOURCE_REMOVE;
}

/**
 * lwn_feed_set_drain_async:
 * @self: a #LwnFeedSet, shut down (lwn_feed_set_shutdown())
 * @timeout_ms: how long to wait at most
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the last saves of the feeds removed are written
 *   and the files of those no longer followed are gone, or the time is up
 * @user_data: for @callback
 *
 * For quitting: a feed removed while the program ran writes its last save
 * in a worker, which the process must not end before. The feeds whose undo
 * had not run out yet are forgotten now, as the undo goes with the program.
 */
void
lwn_feed_set_drain_async (LwnFeedSet *self,
                          guint timeout_ms,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GSource) timeout = NULL;

  g_return_if_fail (LWN_IS_FEED_SET (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &drain_source_tag);
  timeout = g_timeout_source_new (timeout_ms);
  g_source_set_callback (timeout, drain_timed_out_cb, task, NULL);
  g_source_attach (timeout, g_main_context_get_thread_default ());
  /* The source goes with the task, so that it never fires for a task that has ended. */
  g_task_set_task_data (task, g_source_ref (timeout), (GDestroyNotify) destroy_source);
  g_ptr_array_add (self->drains, g_steal_pointer (&task));
  finish_drains (self);
}

/**
 * lwn_feed_set_drain_finish:
 * @self: a #LwnFeedSet
 * @result: the result
 * @error: return location for a #GError: %G_IO_ERROR_TIMED_OUT
 *
 * Returns: whether everything was written before the time was up
 */
gboolean
lwn_feed_set_drain_finish (LwnFeedSet *self,
                           GAsyncResult *result,
                           GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * lwn_feed_set_set_forget:
 * @self: a #LwnFeedSet
 * @seconds: how long a feed removed keeps its files
 *
 * For tests.
 */
void
lwn_feed_set_set_forget (LwnFeedSet *self,
                         guint seconds)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  self->forget_seconds = seconds;
}

/**
 * lwn_feed_set_set_spread:
 * @self: a #LwnFeedSet
 * @seconds: how far apart the feeds first poll
 *
 * For tests and benchmarks; call before lwn_feed_set_start().
 */
void
lwn_feed_set_set_spread (LwnFeedSet *self,
                         guint seconds)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  self->spread_seconds = seconds;
}

void
lwn_feed_set_set_interval (LwnFeedSet *self,
                           guint seconds,
                           gboolean forced)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  self->interval = seconds;
  self->interval_forced = forced;
  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_set_interval (((Entry *) g_ptr_array_index (self->entries, i))->reader, seconds, forced);
}

/**
 * lwn_feed_set_set_notify:
 * @self: a #LwnFeedSet
 * @notify: whether any feed raises notifications
 *
 * The switch over every feed's own: a feed notifies when both are on.
 */
void
lwn_feed_set_set_notify (LwnFeedSet *self,
                         gboolean notify)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  self->notify = notify;
  for (guint i = 0; i < self->entries->len; i++)
    entry_apply_notify (g_ptr_array_index (self->entries, i));
}

void
lwn_feed_set_set_notify_security_lists (LwnFeedSet *self,
                                        gboolean notify)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  self->notify_security_lists = notify;
  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_set_notify_security_lists (((Entry *) g_ptr_array_index (self->entries, i))->reader, notify);
}

guint
lwn_feed_set_get_n_feeds (LwnFeedSet *self)
{
  g_return_val_if_fail (LWN_IS_FEED_SET (self), 0);

  return self->entries->len;
}

/**
 * lwn_feed_set_get_reader:
 * @self: a #LwnFeedSet
 * @position: a feed's place in the set
 *
 * Returns: (transfer none) (nullable): its reading model
 */
LwnReader *
lwn_feed_set_get_reader (LwnFeedSet *self,
                         guint position)
{
  g_return_val_if_fail (LWN_IS_FEED_SET (self), NULL);

  if (position >= self->entries->len)
    return NULL;
  return ((Entry *) g_ptr_array_index (self->entries, position))->reader;
}

/**
 * lwn_feed_set_find_url:
 * @self: a #LwnFeedSet
 * @url: a feed's configured address
 *
 * Returns: (transfer none) (nullable): that feed's reading model
 */
LwnReader *
lwn_feed_set_find_url (LwnFeedSet *self,
                       const char *url)
{
  Entry *entry;

  g_return_val_if_fail (LWN_IS_FEED_SET (self), NULL);

  entry = url != NULL ? find_entry (self, url, NULL) : NULL;
  return entry != NULL ? entry->reader : NULL;
}

/**
 * lwn_feed_set_get_feed_notify:
 * @self: a #LwnFeedSet
 * @reader: one of its feeds
 *
 * Returns: whether that feed's own notification switch is on
 */
gboolean
lwn_feed_set_get_feed_notify (LwnFeedSet *self,
                              LwnReader *reader)
{
  g_return_val_if_fail (LWN_IS_FEED_SET (self), FALSE);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (entry->reader == reader)
        return entry->notify;
    }
  return FALSE;
}

guint
lwn_feed_set_get_n_unread (LwnFeedSet *self)
{
  g_return_val_if_fail (LWN_IS_FEED_SET (self), 0);

  return self->n_unread;
}

void
lwn_feed_set_refresh (LwnFeedSet *self)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_refresh (((Entry *) g_ptr_array_index (self->entries, i))->reader);
}

void
lwn_feed_set_mark_all_read (LwnFeedSet *self)
{
  g_return_if_fail (LWN_IS_FEED_SET (self));

  for (guint i = 0; i < self->entries->len; i++)
    lwn_reader_mark_all_read (((Entry *) g_ptr_array_index (self->entries, i))->reader);
}

/**
 * lwn_feed_set_open:
 * @self: a #LwnFeedSet
 * @feed: the address of the feed the person chose the headline in
 * @item_id: the headline's id in that feed
 *
 * Opens the headline as lwn_reader_open() does, in its own feed only: an
 * id means something only there. The article it opens is then read in
 * every feed that links to that very article (its full-article address,
 * once rewritten, is the same): what was read is the page, whichever feed
 * led to it. Another feed's headline with the same id and another address
 * stays as it is.
 *
 * Returns: (transfer full) (nullable): the URL to launch
 */
char *
lwn_feed_set_open (LwnFeedSet *self,
                   const char *feed,
                   const char *item_id)
{
  LwnReader *reader;
  char *url;
  Entry *first;
  GPtrArray *more;
  g_autoptr (GPtrArray) others = NULL;

  g_return_val_if_fail (LWN_IS_FEED_SET (self), NULL);

  reader = lwn_feed_set_find_url (self, feed);
  url = reader != NULL && item_id != NULL ? lwn_reader_open (reader, item_id) : NULL;
  if (url == NULL)
    return NULL;

  /* Only the feeds that link to the article are asked. Each mark tells the
   * views, which could change the list of feeds: the readers are taken
   * first. */
  others = g_ptr_array_new_with_free_func (g_object_unref);
  first = g_hash_table_lookup (self->entry_by_link, url);
  more = g_hash_table_lookup (self->more_entries_by_link, url);
  if (first != NULL && first->reader != reader)
    g_ptr_array_add (others, g_object_ref (first->reader));
  for (guint i = 0; more != NULL && i < more->len; i++)
    {
      LwnReader *other = ((Entry *) g_ptr_array_index (more, i))->reader;

      if (other != reader)
        g_ptr_array_add (others, g_object_ref (other));
    }
  for (guint i = 0; i < others->len; i++)
    lwn_reader_mark_read_url (g_ptr_array_index (others, i), url);
  return url;
}

/**
 * lwn_feed_set_count_link_feeds:
 * @self: a #LwnFeedSet
 * @url: a full-article address
 *
 * For tests: the index lwn_feed_set_open() reads.
 *
 * Returns: how many feeds have a headline that opens @url
 */
guint
lwn_feed_set_count_link_feeds (LwnFeedSet *self,
                               const char *url)
{
  GPtrArray *more;

  g_return_val_if_fail (LWN_IS_FEED_SET (self), 0);
  g_return_val_if_fail (url != NULL, 0);

  if (!g_hash_table_contains (self->entry_by_link, url))
    return 0;
  more = g_hash_table_lookup (self->more_entries_by_link, url);
  return 1 + (more != NULL ? more->len : 0);
}

/**
 * lwn_feed_set_mark_shown:
 * @self: a #LwnFeedSet
 * @keys: the headlines a notification server showed, by their keys
 *   (lwn_headline_key_new())
 *
 * Records each as announced in its own feed, if that feed waited to
 * announce it.
 */
void
lwn_feed_set_mark_shown (LwnFeedSet *self,
                         const char *const *keys)
{
  g_autoptr (GHashTable) by_feed = NULL;
  GHashTableIter iter;
  gpointer feed;
  gpointer ids;

  g_return_if_fail (LWN_IS_FEED_SET (self));
  g_return_if_fail (keys != NULL);

  by_feed = lwn_str_hash_table_new (g_free, (GDestroyNotify) g_ptr_array_unref);
  for (gsize i = 0; keys[i] != NULL; i++)
    {
      char *key_feed = NULL;
      char *key_id = NULL;
      GPtrArray *feed_ids;

      if (!lwn_headline_key_split (keys[i], &key_feed, &key_id))
        continue;
      feed_ids = g_hash_table_lookup (by_feed, key_feed);
      if (feed_ids == NULL)
        {
          feed_ids = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (by_feed, g_steal_pointer (&key_feed), feed_ids);
        }
      g_free (key_feed);
      g_ptr_array_add (feed_ids, key_id);
    }

  g_hash_table_iter_init (&iter, by_feed);
  while (g_hash_table_iter_next (&iter, &feed, &ids))
    {
      LwnReader *reader = lwn_feed_set_find_url (self, feed);
      GPtrArray *feed_ids = ids;

      g_ptr_array_add (feed_ids, NULL);
      if (reader != NULL)
        lwn_reader_mark_shown (reader, (const char *const *) feed_ids->pdata);
    }
}

static void
lwn_feed_set_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  LwnFeedSet *self = LWN_FEED_SET (object);

  switch (prop_id)
    {
      case PROP_N_UNREAD:
        g_value_set_uint (value, self->n_unread);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_feed_set_dispose (GObject *object)
{
  LwnFeedSet *self = LWN_FEED_SET (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->entries != NULL)
    {
      /* Shut down already, or never started: nothing more to write. */
      self->started = FALSE;
      for (guint i = 0; i < self->entries->len; i++)
        entry_free (g_ptr_array_index (self->entries, i));
      g_clear_pointer (&self->entries, g_ptr_array_unref);
    }
  g_clear_object (&self->monitor);
  g_clear_object (&self->queue);
  /* Each holds the set unowned: none may fire once it goes. */
  g_hash_table_remove_all (self->forgetting);

  G_OBJECT_CLASS (lwn_feed_set_parent_class)->dispose (object);
}

static void
lwn_feed_set_finalize (GObject *object)
{
  LwnFeedSet *self = LWN_FEED_SET (object);

  g_free (self->state_dir);
  g_free (self->cache_dir);
  g_free (self->first_feed_url);
  g_hash_table_unref (self->closing);
  g_hash_table_unref (self->forgetting);
  /* The second table's keys are the first's. */
  g_hash_table_unref (self->more_entries_by_link);
  g_hash_table_unref (self->entry_by_link);
  g_ptr_array_unref (self->drains);

  G_OBJECT_CLASS (lwn_feed_set_parent_class)->finalize (object);
}

static void
lwn_feed_set_class_init (LwnFeedSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = lwn_feed_set_get_property;
  object_class->dispose = lwn_feed_set_dispose;
  object_class->finalize = lwn_feed_set_finalize;

  properties[PROP_N_UNREAD] = g_param_spec_uint ("n-unread", NULL, NULL, 0, G_MAXUINT, 0,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LwnFeedSet::changed:
   *
   * Something any view shows changed: in one feed, or which feeds there are.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
  /**
   * LwnFeedSet::announce:
   * @reader: the feed
   * @items: (element-type LwnFeedItem): as #LwnReader::announce gives them
   * @max_single: as #LwnReader::announce gives it
   */
  signals[SIGNAL_ANNOUNCE] = g_signal_new ("announce", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 3, LWN_TYPE_READER, G_TYPE_PTR_ARRAY, G_TYPE_UINT);
  signals[SIGNAL_ALERT] = g_signal_new ("alert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 3, LWN_TYPE_READER, G_TYPE_STRING, G_TYPE_STRING);
  signals[SIGNAL_READ] = g_signal_new ("read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 2, LWN_TYPE_READER, G_TYPE_STRING);
  signals[SIGNAL_REMINDER_DUE] = g_signal_new ("reminder-due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                               NULL, G_TYPE_NONE, 4, LWN_TYPE_READER, G_TYPE_STRING, G_TYPE_STRING,
                                               G_TYPE_STRING);
  /**
   * LwnFeedSet::feed-removed:
   * @url: the configured address of a feed lwn_feed_set_set_feeds() no
   *   longer follows
   *
   * Told once the set is without it: what it announced has no reading
   * model left to record it as shown. Not told when the set goes.
   */
  signals[SIGNAL_FEED_REMOVED] = g_signal_new ("feed-removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                               NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
lwn_feed_set_init (LwnFeedSet *self)
{
  self->entries = g_ptr_array_new ();
  self->closing = lwn_str_hash_table_new (g_free, g_object_unref);
  self->forgetting = lwn_str_hash_table_new (g_free, (GDestroyNotify) forget_free);
  self->entry_by_link = lwn_str_hash_table_new (g_free, NULL);
  self->more_entries_by_link = lwn_str_hash_table_new (NULL, (GDestroyNotify) g_ptr_array_unref);
  self->drains = g_ptr_array_new_with_free_func (g_object_unref);
  /* A fresh start of a list of hundreds, or Refresh of all of them, sends
   * a few requests at once, and one at a time to each server. */
  self->queue = lwn_fetch_queue_new (LWN_FETCH_QUEUE_MAX_REQUESTS, LWN_FETCH_QUEUE_MAX_PER_HOST);
  self->forget_seconds = LWN_FEED_SET_FORGET_SECONDS;
  self->interval = LWN_DEFAULT_INTERVAL;
  self->spread_seconds = LWN_FEED_SET_SPREAD_SECONDS;
  self->notify = TRUE;
  self->notify_security_lists = TRUE;
}
