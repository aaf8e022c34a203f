/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Keeps the applet's state in a key file and the last good feed body in the cache, both written atomically. */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "lwn-store.h"

#define STATE_VERSION 1
#define STATE_FILE_NAME "state.ini"
#define BODY_FILE_NAME "feed"

/* Enough for any feed we would remember; older ids are dropped first. */
#define MAX_IDS 1000
#define MAX_ID_BYTES 4096
/* URLs, validators and content types; anything longer on disk is not ours. */
#define MAX_VALUE_BYTES 8192
/* Two full id lists where every byte needed escaping, plus room for the
 * other keys: a larger file was not written by us. */
#define MAX_STATE_FILE_BYTES (2 * MAX_IDS * (2 * MAX_ID_BYTES + 1) + 1024 * 1024)
/* Well above any feed the fetcher accepts by default. */
#define MAX_BODY_BYTES (32 * 1024 * 1024)

#define GROUP_STATE "state"
#define GROUP_READ "read"
#define GROUP_ANNOUNCED "announced"
#define GROUP_VALIDATORS "validators"
#define GROUP_REDIRECT "redirect"
#define GROUP_FEED_CACHE "feed-cache"

/* clang-format off */
G_DEFINE_QUARK (lwn-store-error-quark, lwn_store_error)
/* clang-format on */

/* Ids in the order they were first marked, with a hash set over the same
 * strings for constant-time lookups. The queue owns the strings. */
typedef struct
{
  GHashTable *index;
  GQueue order;
} IdSet;

struct _LwnStore
{
  GObject parent_instance;

  char *state_dir;
  char *cache_dir;
  char *state_path;
  char *body_path;

  IdSet read;
  IdSet announced;

  char *validators_url;
  char *etag;
  char *last_modified;

  char *configured_url;
  char *moved_to_url;

  char *body_url;
  char *body_content_type;

  GDateTime *last_success;
};

G_DEFINE_FINAL_TYPE (LwnStore, lwn_store, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STATE_DIR,
  PROP_CACHE_DIR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
id_set_init (IdSet *set)
{
  set->index = g_hash_table_new (g_str_hash, g_str_equal);
  g_queue_init (&set->order);
}

static void
id_set_clear (IdSet *set)
{
  g_hash_table_remove_all (set->index);
  g_queue_clear_full (&set->order, g_free);
}

static void
id_set_destroy (IdSet *set)
{
  id_set_clear (set);
  g_clear_pointer (&set->index, g_hash_table_unref);
}

static gboolean
id_set_contains (IdSet *set,
                 const char *id)
{
  return id != NULL && g_hash_table_contains (set->index, id);
}

static gboolean
id_set_add (IdSet *set,
            const char *id)
{
  char *copy;

  if (g_hash_table_contains (set->index, id))
    return FALSE;

  copy = g_strdup (id);
  g_queue_push_tail (&set->order, copy);
  g_hash_table_add (set->index, copy);

  while (set->order.length > MAX_IDS)
    {
      char *oldest = g_queue_pop_head (&set->order);

      g_hash_table_remove (set->index, oldest);
      g_free (oldest);
    }

  return TRUE;
}

/* A NULL-terminated view of the ids, oldest first; the strings stay owned by @set. */
static const char **
id_set_to_strv (IdSet *set,
                gsize *out_length)
{
  const char **strv = g_new (const char *, set->order.length + 1);
  gsize i = 0;

  for (GList *l = set->order.head; l != NULL; l = l->next)
    strv[i++] = l->data;
  strv[i] = NULL;

  *out_length = i;
  return strv;
}

/* Ids must come back exactly as given, so only what a key file holds
 * faithfully is kept: non-empty, bounded, valid UTF-8. */
static gboolean
id_is_storable (const char *id)
{
  gsize length;

  if (id == NULL || *id == '\0')
    return FALSE;

  length = strnlen (id, MAX_ID_BYTES + 1);
  return length <= MAX_ID_BYTES && g_utf8_validate (id, length, NULL);
}

static gboolean
value_is_storable (const char *value)
{
  return value != NULL && *value != '\0' && strnlen (value, MAX_VALUE_BYTES + 1) <= MAX_VALUE_BYTES;
}

static void
replace_string (char **field,
                const char *value)
{
  char *copy = value_is_storable (value) ? g_strdup (value) : NULL;

  g_free (*field);
  *field = copy;
}

static void
lwn_store_reset (LwnStore *self)
{
  id_set_clear (&self->read);
  id_set_clear (&self->announced);
  g_clear_pointer (&self->validators_url, g_free);
  g_clear_pointer (&self->etag, g_free);
  g_clear_pointer (&self->last_modified, g_free);
  g_clear_pointer (&self->configured_url, g_free);
  g_clear_pointer (&self->moved_to_url, g_free);
  g_clear_pointer (&self->body_url, g_free);
  g_clear_pointer (&self->body_content_type, g_free);
  g_clear_pointer (&self->last_success, g_date_time_unref);
}

static void
lwn_store_constructed (GObject *object)
{
  LwnStore *self = LWN_STORE (object);

  G_OBJECT_CLASS (lwn_store_parent_class)->constructed (object);

  if (self->state_dir == NULL)
    self->state_dir = g_build_filename (g_get_user_state_dir (), PACKAGE_NAME, NULL);
  if (self->cache_dir == NULL)
    self->cache_dir = g_build_filename (g_get_user_cache_dir (), PACKAGE_NAME, NULL);

  self->state_path = g_build_filename (self->state_dir, STATE_FILE_NAME, NULL);
  self->body_path = g_build_filename (self->cache_dir, BODY_FILE_NAME, NULL);
}

static void
lwn_store_finalize (GObject *object)
{
  LwnStore *self = LWN_STORE (object);

  lwn_store_reset (self);
  id_set_destroy (&self->read);
  id_set_destroy (&self->announced);
  g_free (self->state_dir);
  g_free (self->cache_dir);
  g_free (self->state_path);
  g_free (self->body_path);

  G_OBJECT_CLASS (lwn_store_parent_class)->finalize (object);
}

static void
lwn_store_get_property (GObject *object,
                        guint prop_id,
                        GValue *value,
                        GParamSpec *pspec)
{
  LwnStore *self = LWN_STORE (object);

  switch (prop_id)
    {
      case PROP_STATE_DIR:
        g_value_set_string (value, self->state_dir);
        break;
      case PROP_CACHE_DIR:
        g_value_set_string (value, self->cache_dir);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_store_set_property (GObject *object,
                        guint prop_id,
                        const GValue *value,
                        GParamSpec *pspec)
{
  LwnStore *self = LWN_STORE (object);

  switch (prop_id)
    {
      case PROP_STATE_DIR:
        g_free (self->state_dir);
        self->state_dir = g_value_dup_string (value);
        break;
      case PROP_CACHE_DIR:
        g_free (self->cache_dir);
        self->cache_dir = g_value_dup_string (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_store_class_init (LwnStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = lwn_store_constructed;
  object_class->finalize = lwn_store_finalize;
  object_class->get_property = lwn_store_get_property;
  object_class->set_property = lwn_store_set_property;

  /**
   * LwnStore:state-dir:
   *
   * The folder holding `state.ini`; %NULL at construction means
   * `$XDG_STATE_HOME/lwn-tray`.
   */
  properties[PROP_STATE_DIR] = g_param_spec_string ("state-dir", NULL, NULL, NULL,
                                                    G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * LwnStore:cache-dir:
   *
   * The folder holding the last good feed body; %NULL at construction
   * means `$XDG_CACHE_HOME/lwn-tray`.
   */
  properties[PROP_CACHE_DIR] = g_param_spec_string ("cache-dir", NULL, NULL, NULL,
                                                    G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lwn_store_init (LwnStore *self)
{
  id_set_init (&self->read);
  id_set_init (&self->announced);
}

/**
 * lwn_store_new:
 * @state_dir: (nullable): the folder for `state.ini`, or %NULL for
 *   `$XDG_STATE_HOME/lwn-tray`
 * @cache_dir: (nullable): the folder for the cached feed body, or %NULL for
 *   `$XDG_CACHE_HOME/lwn-tray`
 *
 * Creates an empty store. Nothing is read or created on disk until
 * lwn_store_load() or a save.
 *
 * Returns: (transfer full): a new #LwnStore
 */
LwnStore *
lwn_store_new (const char *state_dir,
               const char *cache_dir)
{
  return g_object_new (LWN_TYPE_STORE,
                       "state-dir", state_dir,
                       "cache-dir", cache_dir,
                       NULL);
}

/**
 * lwn_store_get_state_path:
 * @self: a #LwnStore
 *
 * Returns: (transfer none): the full path of `state.ini`
 */
const char *
lwn_store_get_state_path (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->state_path;
}

/**
 * lwn_store_get_cache_path:
 * @self: a #LwnStore
 *
 * Returns: (transfer none): the full path of the cached feed body
 */
const char *
lwn_store_get_cache_path (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->body_path;
}

typedef enum
{
  READ_OK,
  READ_MISSING,
  READ_TOO_LARGE,
  READ_FAILED,
} ReadResult;

/* Reads a whole file unless it is larger than @max_bytes, so that a file
 * we did not write cannot make us allocate without bound. */
static ReadResult
read_bounded (const char *path,
              gsize max_bytes,
              char **out_contents,
              gsize *out_length,
              GError **error)
{
  GStatBuf st;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      /* ENOTDIR: a file stands where a folder on the path should be, so
       * there is nothing to read; saving will report the real problem. */
      if (saved_errno == ENOENT || saved_errno == ENOTDIR)
        return READ_MISSING;

      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return READ_FAILED;
    }

  if (st.st_size < 0 || (guint64) st.st_size > max_bytes)
    return READ_TOO_LARGE;

  if (!g_file_get_contents (path, &contents, &length, error))
    return READ_FAILED;

  if (length > max_bytes)
    return READ_TOO_LARGE;

  *out_contents = g_steal_pointer (&contents);
  *out_length = length;
  return READ_OK;
}

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
                   _("The state file “%s” is unusable (%s) and could not be moved aside: %s. Starting with an empty state."),
                      self->state_path, valid_reason, g_strerror (saved_errno));
      return FALSE;
    }

  g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
               /* Translators: the first %s is a file name, the second why it
                * is unusable, the third the name it was renamed to. */
               _("The state file “%s” is unusable (%s); it was moved to “%s”. Starting with an empty state."),
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

  if (!value_is_storable (value))
    {
      g_debug ("Ignoring %s/%s in the state file: empty or too long", group, key);
      return NULL;
    }

  return g_steal_pointer (&value);
}

/* Fills @set from a string list, oldest first, so that capping keeps the newest. */
static gboolean
load_id_list (GKeyFile *key_file,
              const char *group,
              IdSet *set,
              GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_auto (GStrv) ids = NULL;

  if (value_ends_in_lone_backslash (key_file, group, "ids"))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   /* Translators: %s is a section name of the state file, such as “read”. */
                   _("the list in [%s] ends in a lone backslash"), group);
      return FALSE;
    }

  ids = g_key_file_get_string_list (key_file, group, "ids", NULL, &local_error);
  if (ids == NULL)
    {
      if (g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND) || g_error_matches (local_error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
        return TRUE;

      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  for (gsize i = 0; ids[i] != NULL; i++)
    {
      if (id_is_storable (ids[i]))
        id_set_add (set, ids[i]);
      else
        g_debug ("Skipping an unusable id in [%s] of the state file", group);
    }

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
 * and usable. Within a usable file, ids and values that are too long or not
 * UTF-8 are skipped, and each id list keeps only its newest 1,000 entries.
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
  g_autofree char *when = NULL;
  gsize length = 0;
  gint version;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  lwn_store_reset (self);

  switch (read_bounded (self->state_path, MAX_STATE_FILE_BYTES, &contents, &length, &local_error))
    {
      case READ_OK:
        break;
      case READ_MISSING:
        return TRUE;
      case READ_TOO_LARGE:
        return quarantine_state_file (self, _("it is far larger than any state lwn-tray writes"), error);
      case READ_FAILED:
      default:
        return quarantine_state_file (self, local_error->message, error);
    }

  key_file = g_key_file_new ();
  if (!g_key_file_load_from_data (key_file, contents, length, G_KEY_FILE_NONE, &local_error))
    return quarantine_state_file (self, local_error->message, error);

  version = g_key_file_get_integer (key_file, GROUP_STATE, "version", &local_error);
  if (local_error != NULL)
    return quarantine_state_file (self, _("it has no valid version number"), error);
  if (version != STATE_VERSION)
    {
      /* Translators: %d is a file format version number. */
      g_autofree char *reason = g_strdup_printf (_("its version %d is not supported"), version);

      return quarantine_state_file (self, reason, error);
    }

  if (!load_id_list (key_file, GROUP_READ, &self->read, &local_error) || !load_id_list (key_file, GROUP_ANNOUNCED, &self->announced, &local_error))
    return quarantine_state_file (self, local_error->message, error);

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

  self->body_url = dup_optional_string (key_file, GROUP_FEED_CACHE, "url");
  self->body_content_type = dup_optional_string (key_file, GROUP_FEED_CACHE, "content-type");
  if (self->body_url == NULL)
    g_clear_pointer (&self->body_content_type, g_free);

  when = dup_optional_string (key_file, GROUP_STATE, "last-success");
  if (when != NULL)
    {
      self->last_success = g_date_time_new_from_iso8601 (when, NULL);
      if (self->last_success == NULL)
        g_debug ("Ignoring an unparsable last-success time in the state file");
    }

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

static void
set_id_list (GKeyFile *key_file,
             const char *group,
             IdSet *set)
{
  gsize length;
  g_autofree const char **ids = id_set_to_strv (set, &length);

  g_key_file_set_string_list (key_file, group, "ids", ids, length);
}

/* Writes @length bytes to @path through a temporary file and a rename, so
 * readers see either the old or the new contents, never a mix. */
static gboolean
write_atomically (const char *dir,
                  const char *path,
                  const char *data,
                  gsize length,
                  GError **error)
{
  g_autoptr (GError) local_error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                   /* Translators: %s are a folder name and the system's reason. */
                   _("Could not create the folder “%s”: %s"),
                      dir, g_strerror (saved_errno));
      return FALSE;
    }

  if (!g_file_set_contents_full (path, data, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
                                 &local_error))
    {
      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                   /* Translators: %s are a file name and the system's reason. */
                   _("Could not save “%s”: %s"),
                      path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/**
 * lwn_store_save:
 * @self: a #LwnStore
 * @error: return location for a #GError
 *
 * Writes the whole state to `state.ini` atomically, creating its folder
 * (mode 0700) if needed. On failure nothing on disk changes and the
 * in-memory state is kept, so a later save can still succeed.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO, naming the
 *   path and the reason, otherwise
 */
gboolean
lwn_store_save (LwnStore *self,
                GError **error)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_key_file_set_comment (key_file, NULL, NULL,
                          " lwn-tray state: rewritten by the program, edits are lost", NULL);
  g_key_file_set_integer (key_file, GROUP_STATE, "version", STATE_VERSION);
  if (self->last_success != NULL)
    {
      g_autofree char *when = g_date_time_format_iso8601 (self->last_success);

      g_key_file_set_string (key_file, GROUP_STATE, "last-success", when);
    }

  set_id_list (key_file, GROUP_READ, &self->read);
  set_id_list (key_file, GROUP_ANNOUNCED, &self->announced);

  if (self->validators_url != NULL)
    {
      g_key_file_set_string (key_file, GROUP_VALIDATORS, "url", self->validators_url);
      set_optional_string (key_file, GROUP_VALIDATORS, "etag", self->etag);
      set_optional_string (key_file, GROUP_VALIDATORS, "last-modified", self->last_modified);
    }

  if (self->configured_url != NULL)
    {
      g_key_file_set_string (key_file, GROUP_REDIRECT, "from", self->configured_url);
      g_key_file_set_string (key_file, GROUP_REDIRECT, "to", self->moved_to_url);
    }

  if (self->body_url != NULL)
    {
      g_key_file_set_string (key_file, GROUP_FEED_CACHE, "url", self->body_url);
      set_optional_string (key_file, GROUP_FEED_CACHE, "content-type", self->body_content_type);
    }

  data = g_key_file_to_data (key_file, &length, NULL);
  return write_atomically (self->state_dir, self->state_path, data, length, error);
}

/**
 * lwn_store_is_read:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Returns: %TRUE if @id was marked read and is among the newest 1,000
 */
gboolean
lwn_store_is_read (LwnStore *self,
                   const char *id)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return id_set_contains (&self->read, id);
}

/**
 * lwn_store_mark_read:
 * @self: a #LwnStore
 * @id: an item id: any non-empty UTF-8 string up to 4 KiB
 *
 * Remembers @id as read, dropping the oldest read id beyond 1,000. Ids
 * that could not be stored faithfully (empty, longer than 4 KiB, not
 * UTF-8) are ignored.
 *
 * Returns: %TRUE if @id was not read before and now is
 */
gboolean
lwn_store_mark_read (LwnStore *self,
                     const char *id)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return id_is_storable (id) && id_set_add (&self->read, id);
}

/**
 * lwn_store_is_announced:
 * @self: a #LwnStore
 * @id: (nullable): an item id
 *
 * Returns: %TRUE if @id was already announced and is among the newest 1,000
 */
gboolean
lwn_store_is_announced (LwnStore *self,
                        const char *id)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return id_set_contains (&self->announced, id);
}

/**
 * lwn_store_mark_announced:
 * @self: a #LwnStore
 * @id: an item id: any non-empty UTF-8 string up to 4 KiB
 *
 * Remembers that @id was announced, dropping the oldest announced id
 * beyond 1,000. Ids that could not be stored faithfully are ignored.
 *
 * Returns: %TRUE if @id was not announced before and now is
 */
gboolean
lwn_store_mark_announced (LwnStore *self,
                          const char *id)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return id_is_storable (id) && id_set_add (&self->announced, id);
}

/**
 * lwn_store_has_history:
 * @self: a #LwnStore
 *
 * Tells a first run (or a run after the state was lost) from a normal
 * one, so that the applet does not announce a whole feed at once.
 *
 * Returns: %TRUE if any item has been announced
 */
gboolean
lwn_store_has_history (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);

  return self->announced.order.length > 0;
}

/**
 * lwn_store_set_validators:
 * @self: a #LwnStore
 * @feed_url: the URL the validators were received for
 * @etag: (nullable): the `ETag` of the last good response
 * @last_modified: (nullable): the `Last-Modified` of the last good response
 *
 * Replaces the remembered validators. With neither @etag nor
 * @last_modified, forgets them.
 */
void
lwn_store_set_validators (LwnStore *self,
                          const char *feed_url,
                          const char *etag,
                          const char *last_modified)
{
  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (feed_url != NULL);

  replace_string (&self->etag, etag);
  replace_string (&self->last_modified, last_modified);

  if (self->etag == NULL && self->last_modified == NULL)
    replace_string (&self->validators_url, NULL);
  else
    replace_string (&self->validators_url, feed_url);
}

static gboolean
validators_match (LwnStore *self,
                  const char *feed_url)
{
  return feed_url != NULL && g_strcmp0 (self->validators_url, feed_url) == 0;
}

/**
 * lwn_store_get_etag:
 * @self: a #LwnStore
 * @feed_url: the URL about to be fetched
 *
 * Returns: (transfer none) (nullable): the `ETag` stored for @feed_url, or
 *   %NULL if there is none or it belongs to another URL
 */
const char *
lwn_store_get_etag (LwnStore *self,
                    const char *feed_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return validators_match (self, feed_url) ? self->etag : NULL;
}

/**
 * lwn_store_get_last_modified:
 * @self: a #LwnStore
 * @feed_url: the URL about to be fetched
 *
 * Returns: (transfer none) (nullable): the `Last-Modified` stored for
 *   @feed_url, or %NULL if there is none or it belongs to another URL
 */
const char *
lwn_store_get_last_modified (LwnStore *self,
                             const char *feed_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return validators_match (self, feed_url) ? self->last_modified : NULL;
}

/**
 * lwn_store_set_moved_url:
 * @self: a #LwnStore
 * @configured_url: the feed URL the user configured
 * @moved_to_url: (nullable): where a 301 or 308 said it now lives, or %NULL
 *   to forget the move
 *
 * Remembers a permanent redirect for @configured_url, replacing any
 * earlier one.
 */
void
lwn_store_set_moved_url (LwnStore *self,
                         const char *configured_url,
                         const char *moved_to_url)
{
  g_return_if_fail (LWN_IS_STORE (self));
  g_return_if_fail (configured_url != NULL);

  if (!value_is_storable (moved_to_url) || g_strcmp0 (configured_url, moved_to_url) == 0)
    {
      if (g_strcmp0 (self->configured_url, configured_url) == 0)
        {
          g_clear_pointer (&self->configured_url, g_free);
          g_clear_pointer (&self->moved_to_url, g_free);
        }
      return;
    }

  replace_string (&self->configured_url, configured_url);
  replace_string (&self->moved_to_url, self->configured_url != NULL ? moved_to_url : NULL);
}

/**
 * lwn_store_get_moved_url:
 * @self: a #LwnStore
 * @configured_url: the feed URL the user configured
 *
 * Returns: (transfer none) (nullable): the URL @configured_url moved to
 *   permanently, or %NULL if none is known
 */
const char *
lwn_store_get_moved_url (LwnStore *self,
                         const char *configured_url)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  if (configured_url == NULL || g_strcmp0 (self->configured_url, configured_url) != 0)
    return NULL;

  return self->moved_to_url;
}

/**
 * lwn_store_save_feed_body:
 * @self: a #LwnStore
 * @feed_url: the URL @body was fetched from
 * @body: the raw bytes of the last good response
 * @content_type: (nullable): its `Content-Type`
 * @error: return location for a #GError
 *
 * Writes @body to the cache file atomically (creating the cache folder,
 * mode 0700) and records @feed_url and @content_type in the in-memory
 * state; call lwn_store_save() afterwards to keep that record. On failure
 * the previous cache, file and record, stays as it was.
 *
 * Returns: %TRUE on success; %FALSE with %LWN_STORE_ERROR_IO otherwise
 */
gboolean
lwn_store_save_feed_body (LwnStore *self,
                          const char *feed_url,
                          GBytes *body,
                          const char *content_type,
                          GError **error)
{
  gsize length = 0;
  const char *data;

  g_return_val_if_fail (LWN_IS_STORE (self), FALSE);
  g_return_val_if_fail (feed_url != NULL, FALSE);
  g_return_val_if_fail (body != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = g_bytes_get_data (body, &length);
  if (length > MAX_BODY_BYTES || !value_is_storable (feed_url))
    {
      g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                   /* Translators: %s is a file name. */
                   _("Not caching the feed in “%s”: it is too large."),
                      self->body_path);
      return FALSE;
    }

  if (!write_atomically (self->cache_dir, self->body_path, data != NULL ? data : "", length, error))
    return FALSE;

  replace_string (&self->body_url, feed_url);
  replace_string (&self->body_content_type, content_type);
  return TRUE;
}

/**
 * lwn_store_load_feed_body:
 * @self: a #LwnStore
 * @feed_url: the URL whose cached body is wanted
 * @out_content_type: (out) (optional) (nullable) (transfer full): the
 *   recorded `Content-Type`, or %NULL if none was recorded
 * @error: return location for a #GError
 *
 * Reads back the body saved by lwn_store_save_feed_body(), for showing
 * headlines before the first fetch completes or while offline.
 *
 * Returns: (transfer full) (nullable): the body; %NULL without an error
 *   when nothing is cached or the cache belongs to another URL; %NULL with
 *   %LWN_STORE_ERROR_IO when the file cannot be read, or
 *   %LWN_STORE_ERROR_CORRUPT when it is larger than anything we cache
 */
GBytes *
lwn_store_load_feed_body (LwnStore *self,
                          const char *feed_url,
                          char **out_content_type,
                          GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (LWN_IS_STORE (self), NULL);
  g_return_val_if_fail (feed_url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (out_content_type != NULL)
    *out_content_type = NULL;

  if (g_strcmp0 (self->body_url, feed_url) != 0)
    return NULL;

  switch (read_bounded (self->body_path, MAX_BODY_BYTES, &contents, &length, &local_error))
    {
      case READ_OK:
        break;
      case READ_MISSING:
        g_debug ("The cached feed body %s is gone", self->body_path);
        return NULL;
      case READ_TOO_LARGE:
        g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT,
                     /* Translators: %s is a file name. */
                     _("The cached feed “%s” is larger than any feed lwn-tray saves."),
                        self->body_path);
        return NULL;
      case READ_FAILED:
      default:
        g_set_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO,
                     /* Translators: %s are a file name and the system's reason. */
                     _("Could not read the cached feed “%s”: %s"),
                        self->body_path, local_error->message);
        return NULL;
    }

  if (out_content_type != NULL)
    *out_content_type = g_strdup (self->body_content_type);

  return g_bytes_new_take (g_steal_pointer (&contents), length);
}

/**
 * lwn_store_set_last_success:
 * @self: a #LwnStore
 * @when: (nullable): when the feed was last fetched successfully, or %NULL
 *   to forget it
 */
void
lwn_store_set_last_success (LwnStore *self,
                            GDateTime *when)
{
  g_return_if_fail (LWN_IS_STORE (self));

  if (when != NULL)
    g_date_time_ref (when);
  g_clear_pointer (&self->last_success, g_date_time_unref);
  self->last_success = when;
}

/**
 * lwn_store_get_last_success:
 * @self: a #LwnStore
 *
 * Returns: (transfer none) (nullable): when the feed was last fetched
 *   successfully, or %NULL if never
 */
GDateTime *
lwn_store_get_last_success (LwnStore *self)
{
  g_return_val_if_fail (LWN_IS_STORE (self), NULL);

  return self->last_success;
}
