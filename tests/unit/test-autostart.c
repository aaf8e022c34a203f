/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for lwn-autostart: the user entry it writes, and how user and system entries combine. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "lwn-autostart.h"

#define ENTRY_NAME APP_ID ".desktop"
#define GROUP G_KEY_FILE_DESKTOP_GROUP

static char *
user_entry_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "autostart", ENTRY_NAME, NULL);
}

static char *
system_entry_path (void)
{
  return g_build_filename (g_get_system_config_dirs ()[0], "autostart", ENTRY_NAME, NULL);
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static GKeyFile *
load_user_entry (void)
{
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = g_key_file_new ();
  g_autoptr (GError) error = NULL;

  g_key_file_load_from_file (entry, path, G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&entry);
}

static void
assert_user_entry_exists (gboolean exists)
{
  g_autofree char *path = user_entry_path ();

  g_assert_cmpint (g_file_test (path, G_FILE_TEST_EXISTS), ==, exists);
}

static void
assert_boolean_key (GKeyFile *entry,
                    const char *key,
                    gboolean expected)
{
  g_autoptr (GError) error = NULL;
  gboolean value = g_key_file_get_boolean (entry, GROUP, key, &error);

  g_assert_no_error (error);
  g_assert_cmpint (value, ==, expected);
}

static void
set_enabled (const char *exec_path,
             gboolean enabled)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (lwn_autostart_set_enabled (exec_path, enabled, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lwn_autostart_is_enabled (), ==, enabled);
}

/* The Exec value as a launcher would run it: string unescaping by GKeyFile,
 * then the quoting rules (which match the shell's inside double quotes),
 * then %% turned back into %. */
static char *
dup_exec_program (GKeyFile *entry)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *exec = g_key_file_get_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, &error);
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) parts = NULL;
  int argc = 0;

  g_assert_no_error (error);
  g_shell_parse_argv (exec, &argc, &argv, &error);
  g_assert_no_error (error);
  g_assert_cmpint (argc, ==, 1);

  parts = g_strsplit (argv[0], "%%", -1);
  return g_strjoinv ("%", parts);
}

static void
assert_valid_desktop_entry (const char *path)
{
  g_autofree char *validator = g_find_program_in_path ("desktop-file-validate");
  g_autofree char *output = NULL;
  const char *argv[] = { NULL, path, NULL };
  g_autoptr (GError) error = NULL;
  int status = -1;

  if (validator == NULL)
    {
      g_test_message ("desktop-file-validate is not installed; checked the keys only");
      return;
    }

  argv[0] = validator;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &output, NULL, &status, &error);
  g_assert_no_error (error);
  g_test_message ("desktop-file-validate: %s", output);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  /* It exits with 0 on mere hints too; a clean entry prints nothing. */
  g_assert_cmpstr (output, ==, "");
}

static void
test_enable_writes_entry (void)
{
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *type = NULL;
  g_autofree char *name = NULL;
  g_autofree char *program = NULL;

  g_test_summary ("Switching on writes a valid user autostart entry that runs the given program");

  g_assert_true (!lwn_autostart_is_enabled ());
  set_enabled ("/opt/lwn-tray/bin/lwn-tray", TRUE);

  entry = load_user_entry ();
  type = g_key_file_get_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_TYPE, NULL);
  g_assert_cmpstr (type, ==, "Application");
  name = g_key_file_get_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, NULL);
  g_assert_cmpstr (name, ==, "LWN.net Headlines");
  program = dup_exec_program (entry);
  g_assert_cmpstr (program, ==, "/opt/lwn-tray/bin/lwn-tray");
  assert_boolean_key (entry, "X-GNOME-Autostart-enabled", TRUE);
  g_assert_true (!g_key_file_has_key (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, NULL));
  assert_valid_desktop_entry (path);
}

static void
test_enable_default_exec (void)
{
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *exec = NULL;

  g_test_summary ("Without a path, the entry runs lwn-tray from PATH");

  set_enabled (NULL, TRUE);
  entry = load_user_entry ();
  exec = g_key_file_get_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, NULL);
  g_assert_cmpstr (exec, ==, "lwn-tray");
}

static void
test_enable_twice (void)
{
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *program = NULL;

  g_test_summary ("Switching on again replaces the entry with the new program path");

  set_enabled ("/build/old/lwn-tray", TRUE);
  set_enabled ("/usr/bin/lwn-tray", TRUE);
  entry = load_user_entry ();
  program = dup_exec_program (entry);
  g_assert_cmpstr (program, ==, "/usr/bin/lwn-tray");
}

static const char *const exec_paths[] = {
  "/usr/local/bin/lwn-tray",
  "/home/ana/my builds/lwn-tray",
  "/home/ana/100%/lwn-tray",
  "/home/ana/a$HOME/lwn-tray",
  "/home/ana/say \"hi\"/lwn-tray",
  "/home/ana/back\\slash/lwn-tray",
  "/home/ana/`tick`/lwn-tray",
  "/home/ana/it's; (odd) & *weird*?/lwn-tray",
  "/home/ana/\xc3\xa9t\xc3\xa9/lwn-tray",
};

static void
test_exec_quoting (gconstpointer data)
{
  const char *exec_path = data;
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *program = NULL;

  g_test_summary ("A program path with reserved characters survives the Exec quoting rules");

  set_enabled (exec_path, TRUE);
  entry = load_user_entry ();
  program = dup_exec_program (entry);
  g_assert_cmpstr (program, ==, exec_path);
  assert_valid_desktop_entry (path);
}

static void
test_disable_removes_entry (void)
{
  g_autofree char *dir = NULL;

  g_test_summary ("Switching off removes the entry that switching on wrote");

  set_enabled ("/usr/bin/lwn-tray", TRUE);
  assert_user_entry_exists (TRUE);
  set_enabled ("/usr/bin/lwn-tray", FALSE);
  assert_user_entry_exists (FALSE);

  dir = g_build_filename (g_get_user_config_dir (), "autostart", NULL);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
}

static void
test_disable_when_absent (void)
{
  g_test_summary ("Switching off with no entry anywhere succeeds and writes nothing");

  set_enabled (NULL, FALSE);
  assert_user_entry_exists (FALSE);
}

typedef struct
{
  const char *name;
  const char *contents;
  gboolean enabled;
} EntryCase;

#define ENTRY_HEAD "[Desktop Entry]\nType=Application\nName=LWN.net Headlines\nExec=lwn-tray\n"

static const EntryCase entry_cases[] = {
  { "plain", ENTRY_HEAD, TRUE },
  { "hidden", ENTRY_HEAD "Hidden=true\n", FALSE },
  { "hidden-false", ENTRY_HEAD "Hidden=false\n", TRUE },
  { "gnome-disabled", ENTRY_HEAD "X-GNOME-Autostart-enabled=false\n", FALSE },
  { "gnome-enabled", ENTRY_HEAD "X-GNOME-Autostart-enabled=true\n", TRUE },
  { "gnome-misspelt", ENTRY_HEAD "X-GNOME-Autostart-enabled=nope\n", TRUE },
  { "hidden-wins", ENTRY_HEAD "Hidden=true\nX-GNOME-Autostart-enabled=true\n", FALSE },
  { "not-a-key-file", "this is not a desktop entry\n", FALSE },
  { "no-desktop-group", "[Something Else]\nExec=lwn-tray\n", FALSE },
  { "empty", "", FALSE },
};

static void
test_user_entry_state (gconstpointer data)
{
  const EntryCase *test = data;
  g_autofree char *path = user_entry_path ();

  g_test_summary ("A user entry is reported as on unless Hidden or X-GNOME-Autostart-enabled turns it off");

  write_file (path, test->contents);
  g_assert_cmpint (lwn_autostart_is_enabled (), ==, test->enabled);
}

static void
test_system_entry_state (gconstpointer data)
{
  const EntryCase *test = data;
  g_autofree char *path = system_entry_path ();

  g_test_summary ("With no user entry, the system entry decides by the same rules");

  write_file (path, test->contents);
  g_assert_cmpint (lwn_autostart_is_enabled (), ==, test->enabled);
}

static void
test_system_overridden (void)
{
  g_autofree char *system_path = system_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *user_path = user_entry_path ();

  g_test_summary ("Switching off over a system entry writes a user entry with Hidden=true; switching on removes it");

  write_file (system_path, ENTRY_HEAD);
  g_assert_true (lwn_autostart_is_enabled ());

  set_enabled ("/usr/bin/lwn-tray", FALSE);
  entry = load_user_entry ();
  assert_boolean_key (entry, G_KEY_FILE_DESKTOP_KEY_HIDDEN, TRUE);
  assert_boolean_key (entry, "X-GNOME-Autostart-enabled", FALSE);
  assert_valid_desktop_entry (user_path);
  g_assert_true (g_file_test (system_path, G_FILE_TEST_EXISTS));

  set_enabled ("/usr/bin/lwn-tray", TRUE);
  assert_user_entry_exists (FALSE);
  g_assert_true (g_file_test (system_path, G_FILE_TEST_EXISTS));
}

static void
test_system_disabled (void)
{
  g_autofree char *system_path = system_entry_path ();

  g_test_summary ("Over a system entry that is off, switching on writes a user entry and switching off removes it");

  write_file (system_path, ENTRY_HEAD "X-GNOME-Autostart-enabled=false\n");
  g_assert_true (!lwn_autostart_is_enabled ());

  set_enabled ("/usr/bin/lwn-tray", TRUE);
  assert_user_entry_exists (TRUE);
  set_enabled ("/usr/bin/lwn-tray", FALSE);
  assert_user_entry_exists (FALSE);
}

static void
test_foreign_entry_kept (void)
{
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;
  g_autofree char *exec = NULL;
  g_autofree char *name = NULL;
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;

  g_test_summary ("An entry written by hand keeps its command line, comments and translations when switched");

  write_file (path,
              "# Started without notifications, on purpose.\n" ENTRY_HEAD
              "Name[de]=LWN.net-Schlagzeilen\n"
              "Exec=lwn-tray --no-notify --interval 3600\n");

  set_enabled ("/usr/bin/lwn-tray", FALSE);
  entry = load_user_entry ();
  assert_boolean_key (entry, G_KEY_FILE_DESKTOP_KEY_HIDDEN, TRUE);
  g_clear_pointer (&entry, g_key_file_unref);

  set_enabled ("/usr/bin/lwn-tray", TRUE);
  entry = load_user_entry ();
  g_assert_true (!g_key_file_has_key (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, NULL));
  exec = g_key_file_get_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_EXEC, NULL);
  g_assert_cmpstr (exec, ==, "lwn-tray --no-notify --interval 3600");
  name = g_key_file_get_locale_string (entry, GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, "de", NULL);
  g_assert_cmpstr (name, ==, "LWN.net-Schlagzeilen");

  g_file_get_contents (path, &data, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strstr (data, "# Started without notifications, on purpose.") != NULL);
}

static void
test_foreign_gnome_key_switched (void)
{
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;

  g_test_summary ("Switching on a hand-written entry that X-GNOME-Autostart-enabled=false turned off turns it on");

  write_file (path, ENTRY_HEAD "X-GNOME-Autostart-enabled=false\n");
  g_assert_true (!lwn_autostart_is_enabled ());

  set_enabled (NULL, TRUE);
  entry = load_user_entry ();
  assert_boolean_key (entry, "X-GNOME-Autostart-enabled", TRUE);
}

static void
test_unreadable_entry_replaced (void)
{
  g_autofree char *path = user_entry_path ();
  g_autoptr (GKeyFile) entry = NULL;

  g_test_summary ("A user entry that does not parse is replaced when switching on");

  write_file (path, "garbage\n");
  set_enabled ("/usr/bin/lwn-tray", TRUE);
  entry = load_user_entry ();
  assert_boolean_key (entry, "X-GNOME-Autostart-enabled", TRUE);
}

static void
test_error_not_a_folder (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "autostart", NULL);
  g_autoptr (GError) error = NULL;

  g_test_summary ("When the autostart folder cannot be made, the error names it");

  /* A file where the folder should be fails even for root, unlike a chmod. */
  write_file (dir, "not a folder\n");
  g_assert_true (!lwn_autostart_set_enabled ("/usr/bin/lwn-tray", TRUE, &error));
  g_assert_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_assert_true (strstr (error->message, dir) != NULL);
  g_assert_true (!lwn_autostart_is_enabled ());
}

static void
test_error_read_only_folder (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "autostart", NULL);
  g_autofree char *path = user_entry_path ();
  g_autoptr (GError) error = NULL;

  g_test_summary ("When the autostart folder is read-only, the error names the entry");

  if (geteuid () == 0)
    {
      g_test_skip ("root can write to read-only folders");
      return;
    }

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0500), ==, 0);
  g_assert_true (!lwn_autostart_set_enabled ("/usr/bin/lwn-tray", TRUE, &error));
  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);

  g_assert_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_assert_true (strstr (error->message, path) != NULL);
}

static void
test_error_remove (void)
{
  g_autofree char *path = user_entry_path ();
  g_autofree char *inside = g_build_filename (path, "keep", NULL);
  g_autoptr (GError) error = NULL;

  g_test_summary ("When the entry cannot be removed, the error names it");

  /* A non-empty folder by the entry's name cannot be removed, even by root. */
  write_file (inside, "");
  g_assert_true (!lwn_autostart_set_enabled (NULL, FALSE, &error));
  g_assert_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_REMOVE);
  g_test_message ("%s", error->message);
  g_assert_true (strstr (error->message, path) != NULL);
}

/* Asynchronous writes and the switch */

static void
store_result_cb (GObject *source_object,
                 GAsyncResult *result,
                 gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static void
test_async_enable_disable (void)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gboolean enabled = FALSE;

  g_test_summary ("The asynchronous pair writes and removes the entry and reads the state back");

  lwn_autostart_set_enabled_async ("/usr/bin/lwn-tray", TRUE, NULL, store_result_cb, &result);
  g_assert_true (lwn_autostart_set_enabled_finish (wait_result (&result), &enabled, &error));
  g_assert_no_error (error);
  g_assert_true (enabled);
  assert_user_entry_exists (TRUE);
  g_clear_object (&result);

  lwn_autostart_set_enabled_async (NULL, FALSE, NULL, store_result_cb, &result);
  g_assert_true (lwn_autostart_set_enabled_finish (wait_result (&result), &enabled, &error));
  g_assert_no_error (error);
  g_assert_false (enabled);
  assert_user_entry_exists (FALSE);
}

static void
test_async_error (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "autostart", NULL);
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gboolean enabled = TRUE;

  g_test_summary ("A failed asynchronous write says why and still tells the state on disk");

  write_file (dir, "not a folder\n");
  lwn_autostart_set_enabled_async ("/usr/bin/lwn-tray", TRUE, NULL, store_result_cb, &result);
  g_assert_false (lwn_autostart_set_enabled_finish (wait_result (&result), &enabled, &error));
  g_assert_error (error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE);
  g_assert_true (strstr (error->message, dir) != NULL);
  g_assert_false (enabled);
}

static void
test_async_off_thread (void)
{
  g_autofree char *path = user_entry_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gboolean enabled = FALSE;
  gint64 deadline;
  int fd = -1;

  g_test_summary ("The entry is read and written off the calling thread: a reader blocked on a named pipe "
                  "where the entry should be does not hold the caller");

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);

  /* Reading the entry opens the pipe, which waits for a writer. */
  lwn_autostart_set_enabled_async ("/usr/bin/lwn-tray", TRUE, NULL, store_result_cb, &result);
  g_assert_null (result);

  /* Opening the pipe without blocking only works once a reader waits on it. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while ((fd = open (path, O_WRONLY | O_NONBLOCK)) < 0 && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_cmpint (fd, >=, 0);
  g_assert_null (result);
  close (fd);

  /* What is no file starts nothing and is replaced by a generated entry. */
  g_assert_true (lwn_autostart_set_enabled_finish (wait_result (&result), &enabled, &error));
  g_assert_no_error (error);
  g_assert_true (enabled);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

typedef struct
{
  guint count;
  gboolean enabled;
  GError *error;
} Settled;

static void
switch_settled_cb (LwnAutostartSwitch *autostart,
                   gboolean enabled,
                   const GError *error,
                   gpointer user_data)
{
  Settled *settled = user_data;

  settled->count++;
  settled->enabled = enabled;
  g_clear_error (&settled->error);
  settled->error = error != NULL ? g_error_copy (error) : NULL;
}

static void
wait_settled (LwnAutostartSwitch *autostart,
              Settled *settled,
              guint count)
{
  while (settled->count < count || lwn_autostart_switch_is_busy (autostart))
    g_main_context_iteration (NULL, TRUE);
}

static void
drained_cb (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Waits for lwn_autostart_switch_drain_async() as a test can: with a loop of its own. */
static gboolean
drain (LwnAutostartSwitch *autostart,
       guint timeout_ms)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gboolean drained;

  lwn_autostart_switch_drain_async (autostart, timeout_ms, NULL, drained_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  drained = lwn_autostart_switch_drain_finish (autostart, result, &error);
  if (!drained)
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  else
    g_assert_no_error (error);
  return drained;
}

static void
test_switch_drain (void)
{
  g_autoptr (LwnAutostartSwitch) autostart = lwn_autostart_switch_new ("/usr/bin/lwn-tray");

  g_test_summary ("Draining before quitting waits until the last of several requests is written");

  g_assert_true (drain (autostart, 100));

  lwn_autostart_switch_request (autostart, TRUE);
  lwn_autostart_switch_request (autostart, FALSE);
  lwn_autostart_switch_request (autostart, TRUE);
  lwn_autostart_switch_request (autostart, FALSE);
  g_assert_true (lwn_autostart_switch_is_busy (autostart));
  g_assert_true (drain (autostart, 10000));
  g_assert_false (lwn_autostart_switch_is_busy (autostart));
  g_assert_false (lwn_autostart_is_enabled ());
  assert_user_entry_exists (FALSE);

  lwn_autostart_switch_request (autostart, TRUE);
  g_assert_true (drain (autostart, 10000));
  g_assert_true (lwn_autostart_switch_get_enabled (autostart));
  assert_user_entry_exists (TRUE);
}

static void
test_switch_overlapping (void)
{
  g_autoptr (LwnAutostartSwitch) autostart = lwn_autostart_switch_new ("/usr/bin/lwn-tray");
  g_autoptr (GRand) rand = g_rand_new_with_seed (14);
  Settled settled = { 0 };
  gboolean last = FALSE;

  g_test_summary ("Requests made while the entry is being written wait for that write, and the entry ends as "
                  "the last one asked, told once");

  g_signal_connect (autostart, "settled", G_CALLBACK (switch_settled_cb), &settled);
  g_assert_false (lwn_autostart_switch_get_enabled (autostart));

  lwn_autostart_switch_request (autostart, TRUE);
  lwn_autostart_switch_request (autostart, FALSE);
  lwn_autostart_switch_request (autostart, TRUE);
  wait_settled (autostart, &settled, 1);
  g_assert_cmpuint (settled.count, ==, 1);
  g_assert_no_error (settled.error);
  g_assert_true (settled.enabled);
  g_assert_true (lwn_autostart_switch_get_enabled (autostart));
  g_assert_true (lwn_autostart_is_enabled ());
  assert_user_entry_exists (TRUE);

  lwn_autostart_switch_request (autostart, FALSE);
  lwn_autostart_switch_request (autostart, TRUE);
  lwn_autostart_switch_request (autostart, FALSE);
  wait_settled (autostart, &settled, 2);
  g_assert_cmpuint (settled.count, ==, 2);
  g_assert_false (settled.enabled);
  g_assert_false (lwn_autostart_is_enabled ());
  assert_user_entry_exists (FALSE);

  /* Clicks as fast as a person makes them, with the main loop running between some. */
  for (guint i = 0; i < 200; i++)
    {
      last = g_rand_boolean (rand);
      lwn_autostart_switch_request (autostart, last);
      if (g_rand_int_range (rand, 0, 4) == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  wait_settled (autostart, &settled, settled.count + 1);
  g_assert_no_error (settled.error);
  g_assert_cmpint (settled.enabled, ==, last);
  g_assert_cmpint (lwn_autostart_is_enabled (), ==, last);
  assert_user_entry_exists (last);

  g_clear_error (&settled.error);
}

static void
test_switch_failure (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "autostart", NULL);
  g_autoptr (LwnAutostartSwitch) autostart = NULL;
  Settled settled = { 0 };

  g_test_summary ("A request that cannot be carried out settles with the reason and the state on disk");

  write_file (dir, "not a folder\n");
  autostart = lwn_autostart_switch_new ("/usr/bin/lwn-tray");
  g_signal_connect (autostart, "settled", G_CALLBACK (switch_settled_cb), &settled);

  lwn_autostart_switch_request (autostart, TRUE);
  wait_settled (autostart, &settled, 1);
  g_assert_error (settled.error, LWN_AUTOSTART_ERROR, LWN_AUTOSTART_ERROR_WRITE);
  g_assert_true (strstr (settled.error->message, dir) != NULL);
  g_assert_false (settled.enabled);
  g_assert_false (lwn_autostart_switch_get_enabled (autostart));

  g_clear_error (&settled.error);
}

static gboolean
quit_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_switch_disposed_while_writing (void)
{
  LwnAutostartSwitch *autostart = lwn_autostart_switch_new ("/usr/bin/lwn-tray");
  gboolean done = FALSE;

  g_test_summary ("A switch dropped while it writes is not touched when the write ends");

  lwn_autostart_switch_request (autostart, TRUE);
  g_object_unref (autostart);

  /* The write goes on, and its callback comes to this main context once it
   * is done: a second is plenty for a file of a few hundred bytes, and the
   * sanitizers catch a callback that reached the freed switch. */
  g_timeout_add_seconds (1, quit_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  assert_user_entry_exists (TRUE);
}

static void
add_entry_table (const char *prefix,
                 GTestDataFunc func)
{
  for (gsize i = 0; i < G_N_ELEMENTS (entry_cases); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/autostart/%s/%s", prefix, entry_cases[i].name);
      g_test_add_data_func (test_path, &entry_cases[i], func);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/autostart/enable/writes-entry", test_enable_writes_entry);
  g_test_add_func ("/autostart/enable/default-exec", test_enable_default_exec);
  g_test_add_func ("/autostart/enable/twice", test_enable_twice);
  for (gsize i = 0; i < G_N_ELEMENTS (exec_paths); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/autostart/enable/exec-quoting/%" G_GSIZE_FORMAT, i);
      g_test_add_data_func (test_path, exec_paths[i], test_exec_quoting);
    }
  g_test_add_func ("/autostart/disable/removes-entry", test_disable_removes_entry);
  g_test_add_func ("/autostart/disable/absent", test_disable_when_absent);
  add_entry_table ("user-entry", test_user_entry_state);
  add_entry_table ("system-entry", test_system_entry_state);
  g_test_add_func ("/autostart/system-entry/overridden", test_system_overridden);
  g_test_add_func ("/autostart/system-entry/disabled", test_system_disabled);
  g_test_add_func ("/autostart/foreign/kept", test_foreign_entry_kept);
  g_test_add_func ("/autostart/foreign/gnome-key", test_foreign_gnome_key_switched);
  g_test_add_func ("/autostart/foreign/unreadable", test_unreadable_entry_replaced);
  g_test_add_func ("/autostart/error/not-a-folder", test_error_not_a_folder);
  g_test_add_func ("/autostart/error/read-only-folder", test_error_read_only_folder);
  g_test_add_func ("/autostart/error/remove", test_error_remove);
  g_test_add_func ("/autostart/async/enable-disable", test_async_enable_disable);
  g_test_add_func ("/autostart/async/error", test_async_error);
  g_test_add_func ("/autostart/async/off-thread", test_async_off_thread);
  g_test_add_func ("/autostart/switch/overlapping", test_switch_overlapping);
  g_test_add_func ("/autostart/switch/drain", test_switch_drain);
  g_test_add_func ("/autostart/switch/failure", test_switch_failure);
  g_test_add_func ("/autostart/switch/disposed-while-writing", test_switch_disposed_while_writing);

  return g_test_run ();
}
