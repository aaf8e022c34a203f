/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads and writes the XDG autostart entry that starts lwn-tray at login, user entry over system one,
 * and keeps the "Start at login" switch: writes in a worker thread, one at a time, the latest wish last. */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "lwn-autostart.h"

/* The rules followed here are those of the Desktop Application Autostart
 * Specification: https://specifications.freedesktop.org/autostart-spec/latest/
 * An entry in $XDG_CONFIG_HOME/autostart hides one of the same name in any
 * $XDG_CONFIG_DIRS/autostart, and Hidden=true means "treat as deleted". */

#define ENTRY_NAME APP_ID ".desktop"
#define GROUP G_KEY_FILE_DESKTOP_GROUP
#define KEY_GNOME_ENABLED "X-GNOME-Autostart-enabled"
/* Marks the entries this module wrote, so that an entry the person wrote by
 * hand (say, with extra options on Exec) is switched, never replaced. */
#define KEY_GENERATED "X-LwnTray-Generated"
#define DEFAULT_EXEC "lwn-tray"

/* Names the tasks this file starts; its address is what matters. */
static char set_enabled_source_tag;

/* The domain's name has dashes, which clang-format would space. */
/* clang-format off */
G_DEFINE_QUARK (lwn-autostart-error-quark, lwn_autostart_error)
/* clang-format on */

typedef enum
{
  ENTRY_ABSENT,
  ENTRY_ENABLED,
  ENTRY_DISABLED,
} EntryState;

static char *
user_entry_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "autostart", ENTRY_NAME, NULL);
}

static gboolean
key_is (GKeyFile *entry,
        const char *key,
        gboolean value_if_unset)
{
  g_autoptr (GError) error = NULL;
  gboolean value = g_key_file_get_boolean (entry, GROUP, key, &error);

  /* An absent or misspelt value counts as unset, as session managers read it. */
  return error == NULL ? value : value_if_unset;
}

static GKeyFile *
load_entry (const char *path,
            GKeyFileFlags flags)
{
  g_autoptr (GKeyFile) entry = g_key_file_new ();

  if (!g_key_file_load_from_file (entry, path, flags, NULL) || !g_key_file_has_group (entry, GROUP))
    return NULL;
  return g_steal_pointer (&entry);
}

static EntryState
entry_state (const char *path)
{
  g_autoptr (GKeyFile) entry = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return ENTRY_ABSENT;

  /* A file that does not parse starts nothing, yet still hides the system
   * entry: session managers look names up before they read the contents. */
  entry = load_entry (path, G_KEY_FILE_NONE);
  if (entry == NULL)
    return ENTRY_DISABLED;

  if (key_is (entry, G_KEY_FILE_DESKTOP_KEY_HIDDEN, FALSE) || !key_is (entry, KEY_GNOME_ENABLED, TRUE))
    return ENTRY_DISABLED;
  return ENTRY_ENABLED;
}

static EntryState
system_entry_state (void)
{
  const char *const *dirs = g_get_system_config_dirs ();

  /* The first directory that has the entry wins; later ones are shadowed. */
  for (gsize i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "autostart", ENTRY_NAME, NULL);
      EntryState state = entry_state (path);

      if (state != ENTRY_ABSENT)
        return state;
    }
  return ENTRY_ABSENT;
}

/**
 * lwn_autostart_is_enabled:
 *
 * Tells whether lwn-tray will be started at the next login: the entry
 * `$XDG_CONFIG_HOME/autostart/io.github.lwntray.LwnTray.desktop` exists and
 * is not switched off by `Hidden=true` or `X-GNOME-Autostart-enabled=false`.
 * Without that file, an entry of the same name in the first of
 * g_get_system_config_dirs() that has one decides in the same way.
 *
 * Returns: %TRUE if an autostart entry will start lwn-tray
 */
gboolean
lwn_autostart_is_enabled (void)
{
  g_autofree char *path = user_entry_path ();
  EntryState state = entry_state (path);

  if (state == ENTRY_ABSENT)
    state = system_entry_state ();
  return state == ENTRY_ENABLED;
}

/* The Exec key quotes an argument with reserved characters in double quotes,
 * inside which ", `, $ and \ take a backslash; % is always doubled. GKeyFile
 * then adds the string-level escaping on top. */
static char *
quote_exec_argument (const char *argument)
{
  static const char reserved[] = " \t\n\"'\\><~|&;$*?#()`";
  GString *quoted = g_string_new (NULL);
  gboolean needs_quotes = strpbrk (argument, reserved) != NULL;

  if (needs_quotes)
    g_string_append_c (quoted, '"');
  for (const char *p = argument; *p != '\0'; p++)
    {
      if (*p == '%')
        g_string_append (quoted, "%%");
      else
        {
          if (needs_quotes && strchr ("\"`$\\", *p) != NULL)
            g_string_append_c (quoted, '\\');
          g_string_append_c (quoted, *p);
        }
    }
  if (needs_quotes)
    g_string_append_c (quoted, '"');

  return g_string_free (quoted, FALSE);
}

static GKeyFile *
new_entry (const char *exec,
           gboolean hidden)
{
  g_autoptr (GKeyFile) entry = g_key_file_new ();

  g_key_file_set_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_TYPE, G_KEY_FILE_DESKTOP_TYPE_APPLICATION);
  g_key_file_set_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, "LWN.net Headlines");
  g_key_file_set_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_COMMENT, "Show the latest LWN.net headlines in the panel");
  g_key_file_set_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, exec);
  g_key_file_set_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_ICON, APP_ID);
  g_key_file_set_boolean (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_TERMINAL, FALSE);
  g_key_file_set_boolean (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_NO_DISPLAY, TRUE);
  if (hidden)
    g_key_file_set_boolean (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, TRUE);
  g_key_file_set_boolean (entry, GROUP, KEY_GNOME_ENABLED, !hidden);
  g_key_file_set_boolean (entry, GROUP, KEY_GENERATED, TRUE);

  return g_steal_pointer (&entry);
}

static gboolean
save_entry (GKeyFile *entry,
            const char *path,
            GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *data = NULL;
  gsize length = 0;
  g_autoptr (GError) local_error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (dir);

      /* Translators: %s are a folder name and the system's reason. */
      g_set_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE,
                   _ ("Could not create the folder “%s”: %s"), display, g_strerror (saved_errno));
      return FALSE;
    }

  data = g_key_file_to_data (entry, &length, NULL);
  if (!g_file_set_contents (path, data, (gssize) length, &local_error))
    {
      g_autofree char *display = g_filename_display_name (path);

      /* Translators: the login entry is the file that starts lwn-tray when
       * you log in; %s are its name and why writing it failed. */
      g_set_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE,
                   _ ("Could not write the login entry “%s”: %s"), display, local_error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
remove_entry (const char *path,
              GError **error)
{
  if (g_remove (path) != 0 && errno != ENOENT)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (path);

      /* Translators: %s are a file name and the system's reason. */
      g_set_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_REMOVE,
                   _ ("Could not remove the login entry “%s”: %s"), display, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/* Keeps the comments, translations and Exec of an entry the person wrote
 * and flips only the keys that say whether it runs. */
static gboolean
switch_foreign_entry (GKeyFile *entry,
                      const char *path,
                      gboolean enabled,
                      GError **error)
{
  if (enabled)
    {
      g_key_file_remove_key (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, NULL);
      if (g_key_file_has_key (entry, GROUP, KEY_GNOME_ENABLED, NULL))
        g_key_file_set_boolean (entry, GROUP, KEY_GNOME_ENABLED, TRUE);
    }
  else
    g_key_file_set_boolean (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, TRUE);

  return save_entry (entry, path, error);
}

/**
 * lwn_autostart_set_enabled:
 * @exec_path: (nullable) (type filename): the program to start, as an absolute
 *   path (the running binary, when it is not installed), or %NULL for
 *   `lwn-tray` looked up in `PATH`
 * @enabled: whether lwn-tray should start at login
 * @error: return location for a #GError, or %NULL
 *
 * Switches starting at login on or off for the current user, so that
 * lwn_autostart_is_enabled() then returns @enabled.
 *
 * Switching on writes `$XDG_CONFIG_HOME/autostart/io.github.lwntray.LwnTray.desktop`
 * (creating the folder, replacing the file atomically), unless a system-wide
 * entry already starts lwn-tray: then only a user entry hiding it is removed.
 * Switching off removes the user entry this function wrote, or, when a
 * system-wide entry would still start lwn-tray, writes one with `Hidden=true`
 * that overrides it. A user entry not written by this function (one made by
 * hand) is kept, with only its `Hidden` and `X-GNOME-Autostart-enabled` keys
 * changed, so its own command line survives; one that cannot be read is
 * treated as this function's own.
 *
 * Returns: %TRUE on success; %FALSE with @error set in the
 *   %LWN_AUTOSTART_ERROR domain, its message naming the file or folder
 */
gboolean
lwn_autostart_set_enabled (const char *exec_path,
                           gboolean enabled,
                           GError **error)
{
  g_autofree char *path = user_entry_path ();
  g_autofree char *exec = NULL;
  g_autoptr (GKeyFile) user_entry = NULL;
  g_autoptr (GKeyFile) entry = NULL;
  EntryState system_state;

  g_return_val_if_fail (exec_path == NULL || *exec_path != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  user_entry = load_entry (path, G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS);
  if (user_entry != NULL && !key_is (user_entry, KEY_GENERATED, FALSE))
    return switch_foreign_entry (user_entry, path, enabled, error);

  system_state = system_entry_state ();
  if (enabled == (system_state == ENTRY_ENABLED))
    return remove_entry (path, error);

  /* A hidden entry never runs, so its command line does not matter. */
  if (exec_path == NULL || !enabled)
    exec = g_strdup (DEFAULT_EXEC);
  else
    {
      g_autofree char *utf8 = g_filename_to_utf8 (exec_path, -1, NULL, NULL, NULL);

      if (utf8 == NULL)
        {
          g_autofree char *display = g_filename_display_name (exec_path);

          /* Translators: %s is the path of the lwn-tray program. */
          g_set_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_EXEC_PATH,
                       _ ("The program path “%s” cannot be written in a login entry: it is not valid UTF-8"), display);
          return FALSE;
        }
      exec = quote_exec_argument (utf8);
    }

  entry = new_entry (exec, !enabled);
  return save_entry (entry, path, error);
}

typedef struct
{
  char *exec_path;
  gboolean enabled;
  gboolean now_enabled; /* set by the worker */
} SetEnabledData;

static void
set_enabled_data_free (SetEnabledData *data)
{
  g_free (data->exec_path);
  g_free (data);
}

static void
set_enabled_thread (GTask *task,
                    gpointer source_object,
                    gpointer task_data,
                    GCancellable *cancellable)
{
  SetEnabledData *data = task_data;
  GError *error = NULL;
  gboolean done = lwn_autostart_set_enabled (data->exec_path, data->enabled, &error);

  data->now_enabled = lwn_autostart_is_enabled ();
  if (done)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * lwn_autostart_set_enabled_async:
 * @exec_path: (nullable) (type filename): as for lwn_autostart_set_enabled()
 * @enabled: whether lwn-tray should start at login
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: called on the thread-default main context of the caller once
 *   the entry is written (or could not be)
 * @user_data: data for @callback
 *
 * Does what lwn_autostart_set_enabled() does, in a worker thread: the entry
 * is written and synced to disk there, and read back. Operations started
 * while another is under way may run in any order: callers that switch back
 * and forth start the next one from the previous one's callback, as
 * #LwnAutostartSwitch does.
 */
void
lwn_autostart_set_enabled_async (const char *exec_path,
                                 gboolean enabled,
                                 GCancellable *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  SetEnabledData *data;

  g_return_if_fail (exec_path == NULL || *exec_path != '\0');
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (SetEnabledData, 1);
  data->exec_path = g_strdup (exec_path);
  data->enabled = !!enabled;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &set_enabled_source_tag);
  g_task_set_name (task, "[lwn-tray] autostart entry");
  g_task_set_task_data (task, data, (GDestroyNotify) set_enabled_data_free);
  g_task_run_in_thread (task, set_enabled_thread);
}

/**
 * lwn_autostart_set_enabled_finish:
 * @result: the #GAsyncResult given to the callback
 * @out_enabled: (out) (optional): whether lwn-tray will start at login now,
 *   as lwn_autostart_is_enabled() said right after the attempt; set also
 *   when it failed, unless it was cancelled
 * @error: return location for a #GError, or %NULL
 *
 * Returns: %TRUE on success; %FALSE with @error set as
 *   lwn_autostart_set_enabled() sets it, or to %G_IO_ERROR_CANCELLED
 */
gboolean
lwn_autostart_set_enabled_finish (GAsyncResult *result,
                                  gboolean *out_enabled,
                                  GError **error)
{
  SetEnabledData *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &set_enabled_source_tag, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (out_enabled != NULL)
    *out_enabled = data->now_enabled;
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The switch: what the menu and the preferences show */

struct _LwnAutostartSwitch
{
  GObject parent_instance;

  char *exec_path;
  gboolean enabled; /* on disk, as last read */
  gboolean wanted;  /* what the last request asked for */
  gboolean writing; /* a write is under way... */
  gboolean written; /* ...asking for this */
  GCancellable *cancellable;
  GPtrArray *drains; /* GTask*, waiting for the last request to settle */
};

G_DEFINE_FINAL_TYPE (LwnAutostartSwitch, lwn_autostart_switch, G_TYPE_OBJECT)

enum
{
  SIGNAL_SETTLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void write_wanted (LwnAutostartSwitch *self);

/* Names the drain's tasks; its address is what matters. */
static char drain_source_tag;

/* Ends every drain waiting, with @error or with success. */
static void
finish_drains (LwnAutostartSwitch *self,
               const GError *error)
{
  g_autoptr (GPtrArray) drains = g_steal_pointer (&self->drains);

  self->drains = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < drains->len; i++)
    {
      GTask *task = g_ptr_array_index (drains, i);

      /* The deadline is moot now; it holds no reference to the task. */
      g_source_destroy (g_task_get_task_data (task));
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
written_cb (GObject *source_object,
            GAsyncResult *result,
            gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  gboolean enabled = FALSE;
  gboolean done = lwn_autostart_set_enabled_finish (result, &enabled, &error);
  LwnAutostartSwitch *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  self->writing = FALSE;
  self->enabled = enabled;

  /* Asked to switch again meanwhile: that wish is the one to carry out,
   * and the one whose outcome is told. */
  if (self->wanted != self->written)
    {
      if (!done)
        g_debug ("Start at login: %s (switched again since)", error->message);
      write_wanted (self);
      return;
    }

  g_signal_emit (self, signals[SIGNAL_SETTLED], 0, enabled, error);
  /* The drain waits for the write, not for its success: the settled
   * handler has told a failure already. */
  finish_drains (self, NULL);
}

static void
write_wanted (LwnAutostartSwitch *self)
{
  self->writing = TRUE;
  self->written = self->wanted;
  lwn_autostart_set_enabled_async (self->exec_path, self->wanted, self->cancellable, written_cb, self);
}

static void
lwn_autostart_switch_dispose (GObject *object)
{
  LwnAutostartSwitch *self = LWN_AUTOSTART_SWITCH (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->drains != NULL)
    {
      g_autoptr (GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _ ("Operation was cancelled"));

      finish_drains (self, error);
      g_clear_pointer (&self->drains, g_ptr_array_unref);
    }

  G_OBJECT_CLASS (lwn_autostart_switch_parent_class)->dispose (object);
}

static void
lwn_autostart_switch_finalize (GObject *object)
{
  LwnAutostartSwitch *self = LWN_AUTOSTART_SWITCH (object);

  g_free (self->exec_path);

  G_OBJECT_CLASS (lwn_autostart_switch_parent_class)->finalize (object);
}

static void
lwn_autostart_switch_class_init (LwnAutostartSwitchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_autostart_switch_dispose;
  object_class->finalize = lwn_autostart_switch_finalize;

  /**
   * LwnAutostartSwitch::settled:
   * @self: the #LwnAutostartSwitch
   * @enabled: whether lwn-tray will start at login now, read back from disk
   * @error: (nullable): why the last request could not be carried out, or
   *   %NULL when it was
   *
   * Emitted once the last request is written, or failed: however many came
   * while the entry was being written, once for all of them.
   */
  signals[SIGNAL_SETTLED] = g_signal_new ("settled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_ERROR);
}

static void
lwn_autostart_switch_init (LwnAutostartSwitch *self)
{
  self->cancellable = g_cancellable_new ();
  self->drains = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * lwn_autostart_switch_new:
 * @exec_path: (nullable) (type filename): as for lwn_autostart_set_enabled()
 *
 * Reads whether lwn-tray starts at login (on the calling thread: a file or
 * two of a few hundred bytes) and keeps that state from then on.
 *
 * Returns: (transfer full): a new #LwnAutostartSwitch
 */
LwnAutostartSwitch *
lwn_autostart_switch_new (const char *exec_path)
{
  LwnAutostartSwitch *self;

  g_return_val_if_fail (exec_path == NULL || *exec_path != '\0', NULL);

  self = g_object_new (LWN_TYPE_AUTOSTART_SWITCH, NULL);
  self->exec_path = g_strdup (exec_path);
  self->enabled = lwn_autostart_is_enabled ();
  self->wanted = self->enabled;
  return self;
}

/**
 * lwn_autostart_switch_get_enabled:
 * @self: a #LwnAutostartSwitch
 *
 * Returns: whether lwn-tray starts at login, as last read from disk (at
 *   creation, then after each write)
 */
gboolean
lwn_autostart_switch_get_enabled (LwnAutostartSwitch *self)
{
  g_return_val_if_fail (LWN_IS_AUTOSTART_SWITCH (self), FALSE);

  return self->enabled;
}

/**
 * lwn_autostart_switch_is_busy:
 * @self: a #LwnAutostartSwitch
 *
 * Returns: whether a request has not settled yet
 */
gboolean
lwn_autostart_switch_is_busy (LwnAutostartSwitch *self)
{
  g_return_val_if_fail (LWN_IS_AUTOSTART_SWITCH (self), FALSE);

  return self->writing;
}

static gboolean
drain_expired_cb (gpointer user_data)
{
  GTask *task = user_data;
  LwnAutostartSwitch *self = g_task_get_source_object (task);
  guint index;

  /* Still in the list: finish_drains() destroys this source otherwise. */
  if (g_ptr_array_find (self->drains, task, &index))
    {
      g_autoptr (GTask) expired = g_ptr_array_steal_index (self->drains, index);

      g_task_return_new_error (expired, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               _ ("The entry was still being written"));
    }
  return G_SOURCE_REMOVE;
}

/**
 * lwn_autostart_switch_drain_async:
 * @self: a #LwnAutostartSwitch
 * @timeout_ms: how long to wait at most
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the last request is written, or @timeout_ms have
 *   passed
 * @user_data: for @callback
 *
 * Waits, without blocking the main loop, for the last request to settle:
 * for quitting, so that a choice just made is not lost with the process.
 * The entry is a small file, so this is short; the bound is for a folder
 * that hangs.
 */
void
lwn_autostart_switch_drain_async (LwnAutostartSwitch *self,
                                  guint timeout_ms,
                                  GCancellable *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  GSource *deadline;

  g_return_if_fail (LWN_IS_AUTOSTART_SWITCH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &drain_source_tag);
  if (!self->writing)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  deadline = g_timeout_source_new (timeout_ms);
  g_task_set_task_data (task, deadline, (GDestroyNotify) g_source_unref);
  /* The list holds the task; the source only points at it. */
  g_source_set_callback (deadline, drain_expired_cb, task, NULL);
  g_source_attach (deadline, g_task_get_context (task));
  g_ptr_array_add (self->drains, g_steal_pointer (&task));
}

/**
 * lwn_autostart_switch_drain_finish:
 * @self: a #LwnAutostartSwitch
 * @result: the result given to the callback
 * @error: set to %G_IO_ERROR_TIMED_OUT when the write did not end in time
 *
 * Returns: whether the last request has settled
 */
gboolean
lwn_autostart_switch_drain_finish (LwnAutostartSwitch *self,
                                   GAsyncResult *result,
                                   GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, &drain_source_tag), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * lwn_autostart_switch_request:
 * @self: a #LwnAutostartSwitch
 * @enabled: whether lwn-tray should start at login
 *
 * Switches starting at login on or off, in a worker thread. One write runs
 * at a time: a request made while one is under way waits for it, and of
 * several made meanwhile only the last is carried out, so that the entry
 * on disk ends as the last request asked. #LwnAutostartSwitch::settled
 * then tells the outcome.
 */
void
lwn_autostart_switch_request (LwnAutostartSwitch *self,
                              gboolean enabled)
{
  g_return_if_fail (LWN_IS_AUTOSTART_SWITCH (self));

  self->wanted = !!enabled;
  if (!self->writing)
    write_wanted (self);
}
