/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The state file: loading state.ini, moving a corrupt one aside, and saving in order, in place or on a worker. */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "lwn-store-private.h"

#define STATE_VERSION 1
/* Room for what this version writes and what versions that kept 1,000
 * ids of up to 4 KiB to a set wrote: a larger file is not ours. */
#define MAX_STATE_FILE_BYTES MAX (LWN_STORE_MAX_STATE_BYTES, LWN_STORE_MAX_OLD_STATE_BYTES)

#define GROUP_STATE "state"
#define GROUP_READ "read"
#define GROUP_ANNOUNCED "announced"
#define GROUP_PENDING "pending"
#define GROUP_VALIDATORS "validators"
#define GROUP_REDIRECT "redirect"
#define GROUP_REMINDERS "reminders"
/* A reminder is a list of its fields, in this order. */
enum
{
  REMINDER_ID,
  REMINDER_TITLE,
  REMINDER_URL,
  REMINDER_FREE_ON,
  N_REMINDER_FIELDS
};

/* Moves an unusable state file out of the way, so the next save does not
 * destroy what a person may want to inspect, and explains it in @error. */
static gboolean
quarantine_state_file (LwnStore *self,
                       const char *reason,
                       GError **error)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *base = g_strdup_printf ("%s.corrupt-%s", self->state_path, stamp);
  g_autofree char *target = g_strdup (base);
  /* GLib quotes the offending line, which may be any bytes. */
  g_autofree char *valid_reason = g_utf8_make_valid (reason, -1);
  GStatBuf st;

  lwn_store_reset (self);

  /* Two failures within a second must not overwrite the first copy. */
  for (guint n = 1; g_lstat (target, &st) == 0 && n < 100; n++)
    {
      g_free (target);
      target = g_strdup_printf ("%s-%u", base, n);
    }

  if (g_rename (self->state_path, target) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
                   /* Translators: the first %s is a file name, the second why it
                    * is unusable, the third why it could not be renamed. */
                   _ ("The state file “%s” is unusable (%s) and could not be moved aside: %s. Starting with an empty state."),
                   self->state_path, valid_reason, g_strerror (saved_errno));
      return FALSE;
    }

  g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
               /* Translators: the first %s is a file name, the second why it
                * is unusable, the third the name it was renamed to. */
               _ ("The state file “%s” is unusable (%s); it was moved to “%s”. Starting with an empty state."),
               self->state_path, valid_reason, target);
  return FALSE;
}

/* Whether the raw value of @key ends in a backslash that escapes nothing.
 * GLib 2.74 rejects such a value, but when it also holds an unknown escape
 * such as "\q", g_key_file_parse_value_as_string() sets its GError twice and
 * warns on stderr (https://gitlab.gnome.org/GNOME/glib/-/blob/2.74.6/glib/gkeyfile.c),
 * so such values are refused before GLib unescapes them. */
static gboolean
value_ends_in_lone_backslash (GKeyFile *key_file,
                              const char *group,
                              const char *key)
{
  g_autofree char *raw = g_key_file_get_value (key_file, group, key, NULL);
  gsize length;
  gsize backslashes = 0;

  if (raw == NULL)
    return FALSE;

  length = strlen (raw);
  while (backslashes < length && raw[length - 1 - backslashes] == '\\')
    backslashes++;

  return backslashes % 2 == 1;
}

/* An optional string value: absent, empty, overlong or not UTF-8 reads as NULL. */
static char *
dup_optional_string (GKeyFile *key_file,
                     const char *group,
                     const char *key)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *value = NULL;

  if (value_ends_in_lone_backslash (key_file, group, key))
    {
      g_debug ("Ignoring %s/%s in the state file: it ends in a lone backslash", group, key);
      return NULL;
    }

  value = g_key_file_get_string (key_file, group, key, &local_error);
  if (value == NULL)
    {
      if (!g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND) && !g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
        g_debug ("Ignoring %s/%s in the state file: %s", group, key, local_error->message);
      return NULL;
    }

  if (!lwn_store_file_value_is_storable (value))
    {
      g_debug ("Ignoring %s/%s in the state file: empty or too long", group, key);
      return NULL;
    }

  return g_steal_pointer (&value);
}

/* The string list @key of @group, or NULL with no error when there is none. */
static char **
get_list (GKeyFile *key_file,
          const char *group,
          const char *key,
          GError **error)
{
  g_autoptr (GError) local_error = NULL;
  char **list;

  if (value_ends_in_lone_backslash (key_file, group, key))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   /* Translators: %s is a section name of the state file, such as “read”. */
                   _ ("the list in [%s] ends in a lone backslash"), group);
      return NULL;
    }

  list = g_key_file_get_string_list (key_file, group, key, NULL, &local_error);
  if (list == NULL && !g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND)
      && !g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
    g_propagate_error (error, g_steal_pointer (&local_error));

  return list;
}

/* Fills @set from the lists of @group, each the id seen longest ago first,
 * so that a full set keeps those seen last. The digests of ids that could
 * not be kept as they are come first: a file does not say when they were
 * seen among the others, and a feed shown again tells. Ids that older
 * versions kept as they are and this one does not are taken as their
 * digests, so that their marks hold. */
static gboolean
load_id_list (GKeyFile *key_file,
              const char *group,
              LwnStoreIds *set,
              guint keep,
              GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_auto (GStrv) ids = NULL;
  g_auto (GStrv) digests = NULL;

  digests = get_list (key_file, group, "digests", &local_error);
  if (local_error == NULL)
    ids = get_list (key_file, group, "ids", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  for (gsize i = 0; digests != NULL && digests[i] != NULL; i++)
    {
      char key[LWN_STORE_DIGEST_KEY_BYTES];

      if (!lwn_store_digest_is_valid (digests[i]))
        {
          g_debug ("Skipping an unusable digest in [%s] of the state file", group);
          continue;
        }
      key[0] = LWN_STORE_DIGEST_MARK;
      memcpy (key + 1, digests[i], LWN_STORE_DIGEST_HEX_BYTES + 1);
      lwn_store_ids_add_key (set, key, keep);
    }

  for (gsize i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      char buffer[LWN_STORE_DIGEST_KEY_BYTES];

      if (ids[i][0] != '\0' && strnlen (ids[i], LWN_STORE_MAX_OLD_ID_BYTES + 1) <= LWN_STORE_MAX_OLD_ID_BYTES)
        lwn_store_ids_add_key (set, lwn_store_ids_key (ids[i], NULL, buffer), keep);
      else
        g_debug ("Skipping an unusable id in [%s] of the state file", group);
    }

  return TRUE;
}

/* One reminder of the file: NULL, and a note in the debug log, for one that
 * is not a list of its fields or whose fields cannot be used. */
static LwnReminder *
load_reminder (GKeyFile *key_file,
               const char *key)
{
  g_autoptr (GError) local_error = NULL;
  g_auto (GStrv) fields = NULL;
  g_autoptr (GDateTime) free_on = NULL;
  LwnReminder *reminder;

  if (value_ends_in_lone_backslash (key_file, GROUP_REMINDERS, key))
    {
      g_debug ("Skipping reminder %s of the state file: it ends in a lone backslash", key);
      return NULL;
    }

  fields = g_key_file_get_string_list (key_file, GROUP_REMINDERS, key, NULL, &local_error);
  if (fields == NULL)
    {
      g_debug ("Skipping reminder %s of the state file: %s", key, local_error->message);
      return NULL;
    }
  if (g_strv_length (fields) != N_REMINDER_FIELDS)
    {
      g_debug ("Skipping reminder %s of the state file: it has %u fields", key, g_strv_length (fields));
      return NULL;
    }

  free_on = g_date_time_new_from_iso8601 (fields[REMINDER_FREE_ON], NULL);
  reminder = free_on != NULL ? lwn_reminder_new (fields[REMINDER_ID], fields[REMINDER_TITLE], fields[REMINDER_URL], free_on)
                             : NULL;
  if (reminder == NULL)
    g_debug ("Skipping reminder %s of the state file: its id, link or time cannot be used", key);
  return reminder;
}

/* The reminders, the one set longest ago first. Each that cannot be used is
 * skipped on its own: a damaged reminder costs nothing else. */
static void
load_reminders (LwnStore *self,
                GKeyFile *key_file)
{
  g_auto (GStrv) keys = g_key_file_get_keys (key_file, GROUP_REMINDERS, NULL, NULL);

  for (gsize i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autoptr (LwnReminder) reminder = load_reminder (key_file, keys[i]);

      if (reminder != NULL)
        lwn_reminders_add (self->reminders, reminder, NULL);
    }
}

/* Fills the store from a key file of the current version: what is
 * unusable in it is skipped, and only a broken id list fails. */
static gboolean
load_key_file (LwnStore *self,
               GKeyFile *key_file,
               GError **error)
{
  g_autoptr (GError) pending_error = NULL;
  g_autofree char *when = NULL;
  /* Absent in files of older versions, which kept 1,000 ids. */
  gint64 keep = g_key_file_get_int64 (key_file, GROUP_STATE, "id-limit", NULL);

  if (keep > 0)
    lwn_store_keep_at_least (self, (guint) MIN (keep, LWN_STORE_MAX_IDS_LIMIT));

  if (!load_id_list (key_file, GROUP_READ, &self->read, self->keep_ids, error)
      || !load_id_list (key_file, GROUP_ANNOUNCED, &self->announced, self->keep_ids, error))
    return FALSE;

  /* Absent in files of older versions, which took every announcement as shown. A damaged list
   * costs only the announcements it held. */
  if (!load_id_list (key_file, GROUP_PENDING, &self->pending, LWN_STORE_PENDING_KEEP (self->keep_ids), &pending_error))
    {
      g_debug ("Ignoring the pending announcements of the state file: %s", pending_error->message);
      lwn_store_ids_clear (&self->pending);
    }
  self->pending_first_run = self->pending.order.length > 0
                            && g_key_file_get_boolean (key_file, GROUP_PENDING, "first-run", NULL);

  self->validators_url = dup_optional_string (key_file, GROUP_VALIDATORS, "url");
  self->etag = dup_optional_string (key_file, GROUP_VALIDATORS, "etag");
  self->last_modified = dup_optional_string (key_file, GROUP_VALIDATORS, "last-modified");
  if (self->validators_url == NULL)
    {
      g_clear_pointer (&self->etag, g_free);
      g_clear_pointer (&self->last_modified, g_free);
    }

  self->configured_url = dup_optional_string (key_file, GROUP_REDIRECT, "from");
  self->moved_to_url = dup_optional_string (key_file, GROUP_REDIRECT, "to");
  if (self->configured_url == NULL || self->moved_to_url == NULL)
    {
      g_clear_pointer (&self->configured_url, g_free);
      g_clear_pointer (&self->moved_to_url, g_free);
    }

  when = dup_optional_string (key_file, GROUP_STATE, "last-success");
  if (when != NULL)
    {
      self->last_success = g_date_time_new_from_iso8601 (when, NULL);
      if (self->last_success == NULL)
        g_debug ("Ignoring an unparsable last-success time in the state file");
    }

  /* Absent in files of older versions. */
  load_reminders (self, key_file);
  return TRUE;
}

/**
 * lwn_store_load:
 * @self: a #LwnStore
 * @error: return location for a #GError
 *
 * Replaces the in-memory state with the contents of `state.ini`. A missing
 * file is a first run: the state is empty and this succeeds.
 *
 * A file that cannot be read, is not a key file, has no or another
 * `version`, or is larger than any state we write is renamed to
 * `state.ini.corrupt-YYYYMMDD-HHMMSS` next to it; the store is then empty
 * and usable. Within a usable file, ids longer than 4 KiB and values that
 * are too long or not UTF-8 are skipped; ids longer than 256 bytes, which
 * older versions kept as they are, are kept as their SHA-256 from now on.
 * Each id set keeps as many ids as the file says it kept (1,000 in files of
 * older versions), those seen last. Files of older versions hold no
 * pending announcement: those versions took every one as shown. A damaged
 * list of pending announcements costs only those.
 *
 * Returns: %TRUE on success or a missing file; %FALSE with
 *   %LWN_STORE_ERROR_CORRUPT, naming the file and where it went, otherwise
 */
gboolean
lwn_store_load (LwnStore *self,
                GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GKeyFile) key_file = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  gint version;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  lwn_store_reset (self);

  switch (lwn_store_file_read_bounded (self->state_path, MAX_STATE_FILE_BYTES, &contents, &length, &local_error))
    {
      case LWN_STORE_READ_OK:
        break;
      case LWN_STORE_READ_MISSING:
        return TRUE;
      case LWN_STORE_READ_TOO_LARGE:
        return quarantine_state_file (self, _ ("it is far larger than any state lwn-tray writes"), error);
      case LWN_STORE_READ_FAILED:
      default:
        return quarantine_state_file (self, local_error->message, error);
    }

  key_file = g_key_file_new ();
  if (!g_key_file_load_from_data (key_file, contents, length, G_KEY_FILE_NONE, &local_error))
    return quarantine_state_file (self, local_error->message, error);

  version = g_key_file_get_integer (key_file, GROUP_STATE, "version", &local_error);
  if (local_error != NULL)
    return quarantine_state_file (self, _ ("it has no valid version number"), error);
  if (version != STATE_VERSION)
    {
      /* Translators: %d is a file format version number. */
      g_autofree char *reason = g_strdup_printf (_ ("its version %d is not supported"), version);

      return quarantine_state_file (self, reason, error);
    }

  if (!load_key_file (self, key_file, &local_error))
    return quarantine_state_file (self, local_error->message, error);

  return TRUE;
}

static void
set_optional_string (GKeyFile *key_file,
                     const char *group,
                     const char *key,
                     const char *value)
{
  if (value != NULL)
    g_key_file_set_string (key_file, group, key, value);
}

/* Writes the keys of a set as the list of ids kept as they are and, if
 * any, the list of digests, each the one seen longest ago first. */
static void
set_id_list (GKeyFile *key_file,
             const char *group,
             GPtrArray *keys)
{
  g_autofree const char **ids = g_new (const char *, keys->len + 1);
  g_autofree const char **digests = g_new (const char *, keys->len + 1);
  gsize n_ids = 0;
  gsize n_digests = 0;

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = keys->pdata[i];

      if (key[0] == LWN_STORE_DIGEST_MARK)
        digests[n_digests++] = key + 1;
      else
        ids[n_ids++] = key;
    }
  ids[n_ids] = digests[n_digests] = NULL;

  g_key_file_set_string_list (key_file, group, "ids", ids, n_ids);
  if (n_digests > 0)
    g_key_file_set_string_list (key_file, group, "digests", digests, n_digests);
}

/* Writes each reminder as the list of its fields, under its number. */
static void
set_reminders (GKeyFile *key_file,
               GPtrArray *reminders)
{
  for (guint i = 0; i < reminders->len; i++)
    {
      LwnReminder *reminder = g_ptr_array_index (reminders, i);
      g_autofree char *key = g_strdup_printf ("%u", i + 1);
      g_autofree char *free_on = g_date_time_format_iso8601 (lwn_reminder_get_free_on (reminder));
      const char *fields[N_REMINDER_FIELDS] = {
        [REMINDER_ID] = lwn_reminder_get_item_id (reminder),
        [REMINDER_TITLE] = lwn_reminder_get_title (reminder),
        [REMINDER_URL] = lwn_reminder_get_url (reminder),
        [REMINDER_FREE_ON] = free_on,
      };

      g_key_file_set_string_list (key_file, GROUP_REMINDERS, key, fields, N_REMINDER_FIELDS);
    }
}

/* Tell our GTasks from others, and the internal write from a save_async. */
static char save_source_tag;
static char write_source_tag;

/* What one save writes: taken on the main thread, at the cost of a
 * reference per id, and turned into text on the thread that writes it. */
typedef struct
{
  LwnStoreWriter *writer; /* the store's, alive while a task holds the store */
  guint64 generation;
  char *path;

  guint keep;
  GPtrArray *read; /* keys, shared with the store's sets */
  GPtrArray *announced;
  GPtrArray *pending;
  gboolean pending_first_run;
  char *validators_url;
  char *etag;
  char *last_modified;
  char *configured_url;
  char *moved_to_url;
  GDateTime *last_success;
  GPtrArray *reminders; /* LwnReminder*, shared with the store's set */
} Snapshot;

static Snapshot *
snapshot_new (LwnStore *self)
{
  Snapshot *snapshot = g_new0 (Snapshot, 1);

  snapshot->writer = &self->writer;
  snapshot->generation = ++self->snapshots;
  snapshot->path = g_strdup (self->state_path);
  snapshot->keep = self->keep_ids;
  snapshot->read = lwn_store_ids_dup_keys (&self->read);
  snapshot->announced = lwn_store_ids_dup_keys (&self->announced);
  snapshot->pending = lwn_store_ids_dup_keys (&self->pending);
  snapshot->pending_first_run = self->pending_first_run;
  snapshot->validators_url = g_strdup (self->validators_url);
  snapshot->etag = g_strdup (self->etag);
  snapshot->last_modified = g_strdup (self->last_modified);
  snapshot->configured_url = g_strdup (self->configured_url);
  snapshot->moved_to_url = g_strdup (self->moved_to_url);
  if (self->last_success != NULL)
    snapshot->last_success = g_date_time_ref (self->last_success);
  snapshot->reminders = lwn_reminders_dup_all (self->reminders);
  return snapshot;
}

static void
snapshot_free (Snapshot *snapshot)
{
  g_free (snapshot->path);
  g_ptr_array_unref (snapshot->read);
  g_ptr_array_unref (snapshot->announced);
  g_ptr_array_unref (snapshot->pending);
  g_free (snapshot->validators_url);
  g_free (snapshot->etag);
  g_free (snapshot->last_modified);
  g_free (snapshot->configured_url);
  g_free (snapshot->moved_to_url);
  g_clear_pointer (&snapshot->last_success, g_date_time_unref);
  g_ptr_array_unref (snapshot->reminders);
  g_free (snapshot);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Snapshot, snapshot_free)

/* The text of `state.ini` for @snapshot. */
static char *
snapshot_to_data (Snapshot *snapshot,
                  gsize *out_length)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();

  g_key_file_set_comment (key_file, NULL, NULL,
                          " lwn-tray state: rewritten by the program, edits are lost", NULL);
  g_key_file_set_integer (key_file, GROUP_STATE, "version", STATE_VERSION);
  if (snapshot->keep > LWN_STORE_MAX_IDS)
    g_key_file_set_integer (key_file, GROUP_STATE, "id-limit", (gint) snapshot->keep);
  if (snapshot->last_success != NULL)
    {
      g_autofree char *when = g_date_time_format_iso8601 (snapshot->last_success);

      g_key_file_set_string (key_file, GROUP_STATE, "last-success", when);
    }

  set_id_list (key_file, GROUP_READ, snapshot->read);
  set_id_list (key_file, GROUP_ANNOUNCED, snapshot->announced);
  if (snapshot->pending->len > 0)
    {
      set_id_list (key_file, GROUP_PENDING, snapshot->pending);
      if (snapshot->pending_first_run)
        g_key_file_set_boolean (key_file, GROUP_PENDING, "first-run", TRUE);
    }

  if (snapshot->validators_url != NULL)
    {
      g_key_file_set_string (key_file, GROUP_VALIDATORS, "url", snapshot->validators_url);
      set_optional_string (key_file, GROUP_VALIDATORS, "etag", snapshot->etag);
      set_optional_string (key_file, GROUP_VALIDATORS, "last-modified", snapshot->last_modified);
    }

  if (snapshot->configured_url != NULL)
    {
      g_key_file_set_string (key_file, GROUP_REDIRECT, "from", snapshot->configured_url);
      g_key_file_set_string (key_file, GROUP_REDIRECT, "to", snapshot->moved_to_url);
    }

  set_reminders (key_file, snapshot->reminders);
  return g_key_file_to_data (key_file, out_length, NULL);
}

/* One write at a time, and never an older snapshot over a newer one. */
static gboolean
snapshot_write (Snapshot *snapshot,
                GError **error)
{
  LwnStoreWriter *writer = snapshot->writer;
  gboolean ok = TRUE;

  g_mutex_lock (&writer->lock);
  if (snapshot->generation > writer->written)
    {
      gsize length;
      g_autofree char *data = snapshot_to_data (snapshot, &length);

      ok = lwn_store_file_write_atomically (snapshot->path, data, length, error);
      if (ok)
        writer->written = snapshot->generation;
    }
  g_mutex_unlock (&writer->lock);

  return ok;
}

/**
 * lwn_store_save:
 * @self: a #LwnStore
 * @error: return location for a #GError
 *
 * Writes the whole state to `state.ini` atomically and durably (fsync),
 * creating its folder (mode 0700) if needed, on the calling thread: for
 * the last save before exit. A write of lwn_store_save_async() in progress
 * is waited for, and one not yet begun will not overwrite this one. On
 * failure nothing on disk changes and the in-memory state is kept, so a
 * later save can still succeed.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO, naming the
 *   path and the reason, otherwise
 */
gboolean
lwn_store_save (LwnStore *self,
                GError **error)
{
  g_autoptr (Snapshot) snapshot = NULL;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  snapshot = snapshot_new (self);
  return snapshot_write (snapshot, error);
}

static void
write_state_thread (GTask *task,
                    gpointer source_object,
                    gpointer task_data,
                    GCancellable *cancellable)
{
  GError *error = NULL;

  if (snapshot_write (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void start_write (LwnStore *self);

static void
state_written_cb (GObject *source,
                  GAsyncResult *result,
                  gpointer user_data)
{
  LwnStore *self = LWN_STORE (source);
  g_autoptr (GPtrArray) served = g_steal_pointer (&self->in_flight);
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  /* Start the next write first, so that a save asked for by a callback
   * below waits for it instead of running beside it. */
  if (self->waiting->len > 0)
    {
      self->in_flight = g_steal_pointer (&self->waiting);
      self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
      start_write (self);
    }

  for (guint i = 0; i < served->len; i++)
    {
      if (ok)
        g_task_return_boolean (served->pdata[i], TRUE);
      else
        g_task_return_error (served->pdata[i], g_error_copy (error));
    }
}

/* Writes a snapshot taken now for the tasks in self->in_flight. */
static void
start_write (LwnStore *self)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, state_written_cb, NULL);

  g_task_set_source_tag (task, &write_source_tag);
  g_task_set_task_data (task, snapshot_new (self), (GDestroyNotify) snapshot_free);
  g_task_run_in_thread (task, write_state_thread);
}

/**
 * lwn_store_save_async:
 * @self: a #LwnStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on this thread's main context when the state is on disk
 * @user_data: data for @callback
 *
 * Like lwn_store_save(), but turning the state into text, the write and
 * its fsync run on a worker thread. A snapshot of the state is taken on the
 * calling thread when the write starts (a reference to each id, no copy),
 * so the store may be changed again at once. Saves are written one at a
 * time, in order: one asked for while another is being written waits for
 * it and is then written from the state as it is then, newer than at the
 * call; all that waited share that one write.
 *
 * Cancelling gives %G_IO_ERROR_CANCELLED but may not stop the write.
 */
void
lwn_store_save_async (LwnStore *self,
                      GCancellable *cancellable,
                      GAsyncReadyCallback callback,
                      gpointer user_data)
{
  GTask *task;

  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &save_source_tag);

  if (self->in_flight != NULL)
    {
      g_ptr_array_add (self->waiting, task);
      return;
    }

  self->in_flight = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->in_flight, task);
  start_write (self);
}

/**
 * lwn_store_save_finish:
 * @self: a #LwnStore
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE once the state, as it was when the write started, is on
 *   disk; %FALSE with %LWN_STORE_ERROR_IO, naming the path and the reason,
 *   or %G_IO_ERROR_CANCELLED otherwise
 */
gboolean
lwn_store_save_finish (LwnStore *self,
                       GAsyncResult *result,
                       GError **error)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, &save_source_tag), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
