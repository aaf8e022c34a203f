/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for lwn-launcher: a stand-in browser, the http(s) handler of the test's own XDG folders, records what each
 * launch handed it (the URL, the activation token, its open descriptors). */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "lwn-launcher-private.h"
#include "lwn-launcher.h"

#define BROWSER_ID "lwn-test-browser.desktop"
/* Seconds to wait for the stand-in browser to write down a launch. */
#define RECORD_TIMEOUT 30

typedef struct
{
  char *records; /* the stand-in's files, named after the last part of each URL */
  char *script;
} Browser;

static void
browser_free (Browser *browser)
{
  g_free (browser->records);
  g_free (browser->script);
  g_free (browser);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Browser, browser_free)

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

/* Registers a shell script as the http and https handler. For each launch it
 * writes the descriptors it holds, its two token variables, and last the URL,
 * moved into place so that the URL's file marks the launch done. The shell's
 * stdout goes to the listing for good (exec) before ls runs: a redirection
 * of ls alone would have the shell keep a copy of its stdout meanwhile, and
 * the listing would show it. */
static Browser *
browser_install (void)
{
  g_autoptr (Browser) browser = g_new0 (Browser, 1);
  g_autofree char *script_text = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *entry_path = NULL;
  g_autofree char *mimeapps_path = NULL;

  browser->records = g_build_filename (g_get_user_cache_dir (), "opened", NULL);
  browser->script = g_build_filename (g_get_user_data_dir (), "record-url", NULL);
  g_assert_cmpint (g_mkdir_with_parents (browser->records, 0700), ==, 0);

  script_text = g_strdup_printf ("#!/bin/sh\n"
                                 "name=${1%%/}\n"
                                 "name=\"%s/${name##*/}\"\n"
                                 "exec > \"$name.fds\"\n"
                                 "ls -l /proc/$$/fd/\n"
                                 "printf '%%s\\n%%s\\n' \"${XDG_ACTIVATION_TOKEN-}\" \"${DESKTOP_STARTUP_ID-}\" > \"$name.env\"\n"
                                 "printf '%%s\\n' \"$1\" > \"$name.part\"\n"
                                 "mv \"$name.part\" \"$name.url\"\n",
                                 browser->records);
  write_file (browser->script, script_text);
  g_assert_cmpint (g_chmod (browser->script, 0700), ==, 0);

  entry = g_strdup_printf ("[Desktop Entry]\n"
                           "Type=Application\n"
                           "Name=LWN test browser\n"
                           "Exec=%s %%u\n"
                           "StartupNotify=true\n"
                           "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n"
                           "NoDisplay=true\n",
                           browser->script);
  entry_path = g_build_filename (g_get_user_data_dir (), "applications", BROWSER_ID, NULL);
  write_file (entry_path, entry);

  mimeapps_path = g_build_filename (g_get_user_config_dir (), "mimeapps.list", NULL);
  write_file (mimeapps_path, "[Default Applications]\n"
                             "x-scheme-handler/http=" BROWSER_ID "\n"
                             "x-scheme-handler/https=" BROWSER_ID "\n");
  return g_steal_pointer (&browser);
}

static char *
record_path (Browser *browser,
             const char *name,
             const char *extension)
{
  g_autofree char *file = g_strconcat (name, ".", extension, NULL);

  return g_build_filename (browser->records, file, NULL);
}

/* Runs the main context (where the launches' ends are collected) until
 * @path exists. Returns whether it came in time. */
static gboolean
wait_for_file (const char *path)
{
  gint64 deadline = g_get_monotonic_time () + RECORD_TIMEOUT * G_USEC_PER_SEC;

  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_test_message ("No %s after %d s", path, RECORD_TIMEOUT);
          return FALSE;
        }
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  return TRUE;
}

/* Waits for the launch recorded as @name; returns the URL it was given. */
static char *
wait_for_url (Browser *browser,
              const char *name)
{
  g_autofree char *path = record_path (browser, name, "url");
  g_autoptr (GError) error = NULL;
  char *url = NULL;

  g_assert_true (wait_for_file (path));
  g_file_get_contents (path, &url, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (url);
  return url;
}

/* The two token variables the launch @name had, as "XDG_ACTIVATION_TOKEN
 * DESKTOP_STARTUP_ID" (empty when unset). */
static char *
recorded_tokens (Browser *browser,
                 const char *name)
{
  g_autofree char *path = record_path (browser, name, "env");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", 3);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  return g_strdup_printf ("%s %s", lines[0], lines[1]);
}

/* The descriptors above stderr that the launch @name held, as "number ->
 * target" lines, less the shell's own descriptor of its script. */
static char *
recorded_descriptors (Browser *browser,
                      const char *name)
{
  g_autofree char *path = record_path (browser, name, "fds");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  GString *found = g_string_new (NULL);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (char **line = lines; *line != NULL; line++)
    {
      const char *arrow = strstr (*line, " -> ");
      const char *number;

      if (arrow == NULL)
        continue;
      number = g_strrstr_len (*line, arrow - *line, " ") + 1;
      if (g_ascii_strtoll (number, NULL, 10) <= 2 || strcmp (arrow + 4, browser->script) == 0)
        continue;
      g_string_append_printf (found, "%s: %.*s -> %s\n", name, (int) (arrow - number), number, arrow + 4);
    }
  return g_string_free (found, FALSE);
}

typedef struct
{
  gboolean done;
  gboolean opened;
  GError *error;
} Opened;

static void
opened_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  Opened *opened = user_data;

  opened->opened = lwn_launcher_open_finish (LWN_LAUNCHER (source), result, &opened->error);
  opened->done = TRUE;
}

/* Opens @url as the application does, and waits for the launcher's answer. */
static gboolean
open_url (LwnLauncher *launcher,
          const char *url,
          const char *token,
          GError **error)
{
  Opened opened = { 0 };

  lwn_launcher_open_async (launcher, url, token, NULL, opened_cb, &opened);
  while (!opened.done)
    g_main_context_iteration (NULL, TRUE);
  if (opened.error != NULL)
    g_propagate_error (error, opened.error);
  return opened.opened;
}

/* The children of this process that ended and were not collected. */
static guint
count_zombies (void)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *entry;
  guint zombies = 0;

  g_assert_nonnull (proc);
  while ((entry = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat = NULL;
      const char *after_name;
      char state;
      int parent;

      if (!g_ascii_isdigit (entry[0]))
        continue;
      path = g_build_filename ("/proc", entry, "stat", NULL);
      if (!g_file_get_contents (path, &stat, NULL, NULL) || (after_name = strrchr (stat, ')')) == NULL)
        continue;
      if (sscanf (after_name, ") %c %d", &state, &parent) == 2 && state == 'Z' && parent == getpid ())
        zombies++;
    }
  return zombies;
}

/* Runs the main context until every ended child is collected; fails
 * if one is still there after RECORD_TIMEOUT seconds. */
static void
assert_no_zombies (void)
{
  gint64 deadline = g_get_monotonic_time () + RECORD_TIMEOUT * G_USEC_PER_SEC;
  guint zombies;

  while ((zombies = count_zombies ()) > 0 && g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  g_assert_cmpuint (zombies, ==, 0);
}

static void
test_url_and_token (void)
{
  g_autoptr (Browser) browser = browser_install ();
  g_autoptr (LwnLauncher) launcher = lwn_launcher_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *tokens = NULL;
  g_autofree char *descriptors = NULL;
  gboolean opened;

  g_test_summary ("The browser gets the URL, the caller's token under both names, and no descriptor");

  opened = open_url (launcher, "https://lwn.net/Articles/937631/", "lwn-test-token-937631", &error);
  g_assert_no_error (error);
  g_assert_true (opened);
  url = wait_for_url (browser, "937631");
  g_assert_cmpstr (url, ==, "https://lwn.net/Articles/937631/");
  tokens = recorded_tokens (browser, "937631");
  g_assert_cmpstr (tokens, ==, "lwn-test-token-937631 lwn-test-token-937631");
  descriptors = recorded_descriptors (browser, "937631");
  g_assert_cmpstr (descriptors, ==, "");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&tokens, g_free);

  /* No display here, so without the caller's token the browser gets none. */
  opened = open_url (launcher, "http://lwn.net/Articles/937416/", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (opened);
  url = wait_for_url (browser, "937416");
  g_assert_cmpstr (url, ==, "http://lwn.net/Articles/937416/");
  tokens = recorded_tokens (browser, "937416");
  g_assert_cmpstr (tokens, ==, " ");

  assert_no_zombies ();
}

static void
test_unsafe_token (void)
{
  /* NULL stands for one character too many. */
  const char *tokens[] = { "a=b", "two\nlines", "with space", "\x01", NULL };
  g_autoptr (Browser) browser = browser_install ();
  g_autoptr (LwnLauncher) launcher = lwn_launcher_new ();
  g_autofree char *long_token = g_strnfill (257, 'x');

  g_test_summary ("A token that could bring in another variable, a line or control characters is not passed on");

  for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      const char *token = tokens[i] != NULL ? tokens[i] : long_token;
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/90000%u/", i);
      g_autofree char *name = g_strdup_printf ("90000%u", i);
      g_autofree char *recorded = NULL;
      g_autoptr (GError) error = NULL;
      gboolean opened;

      opened = open_url (launcher, url, token, &error);
      g_assert_no_error (error);
      g_assert_true (opened);
      g_free (wait_for_url (browser, name));
      recorded = recorded_tokens (browser, name);
      g_assert_cmpstr (recorded, ==, " ");
    }
  assert_no_zombies ();
}

static void
test_refused (void)
{
  const char *urls[] = { "file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", "ftp://lwn.net/", "https://lwn .net/", "" };
  g_autoptr (Browser) browser = browser_install ();
  g_autoptr (LwnLauncher) launcher = lwn_launcher_new ();
  g_autoptr (GDir) records = NULL;

  g_test_summary ("Nothing but an http or https URL reaches a browser");

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (open_url (launcher, urls[i], NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    }
  records = g_dir_open (browser->records, 0, NULL);
  g_assert_nonnull (records);
  g_assert_null (g_dir_read_name (records));
}

static void
test_no_browser (void)
{
  g_autoptr (LwnLauncher) launcher = lwn_launcher_new ();
  g_autoptr (GError) error = NULL;

  g_test_summary ("Without a browser for http(s), the caller gets an error saying so");

  g_assert_false (open_url (launcher, "https://lwn.net/Articles/937631/", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "No web browser"));
  assert_no_zombies ();
}

/* Runs the helper as the launcher finds it (beside this program), with a
 * report pipe on its descriptor 3; returns its exit status and sets
 * @report to what it wrote there. */
static int
run_helper (const char *const *arguments,
            char **report)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *folder = g_path_get_dirname (program);
  g_autofree char *helper = g_build_filename (folder, "lwn-tray-launch-helper", NULL);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) helper_process = NULL;
  g_autoptr (GInputStream) reader = NULL;
  g_autoptr (GError) error = NULL;
  char buffer[LWN_LAUNCH_REPORT_MAX + 1];
  gsize length = 0;
  int ends[2];

  g_assert_true (g_unix_open_pipe (ends, FD_CLOEXEC, &error));
  g_assert_no_error (error);
  g_subprocess_launcher_take_fd (launcher, ends[1], LWN_LAUNCH_REPORT_FD);
  g_ptr_array_add (argv, helper);
  for (const char *const *argument = arguments; *argument != NULL; argument++)
    g_ptr_array_add (argv, (char *) *argument);
  g_ptr_array_add (argv, NULL);
  helper_process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  /* With the launcher's copy of the write end closed, reading ends when the helper does. */
  g_clear_object (&launcher);
  reader = g_unix_input_stream_new (ends[0], TRUE);
  g_input_stream_read_all (reader, buffer, sizeof buffer - 1, &length, NULL, &error);
  g_assert_no_error (error);
  buffer[length] = '\0';
  *report = g_strdup (buffer);
  g_subprocess_wait (helper_process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (helper_process));
  return g_subprocess_get_exit_status (helper_process);
}

static void
test_helper (void)
{
  const char *usage[] = { NULL };
  const char *no_entry[] = { LWN_LAUNCH_OPTION_DESKTOP_FILE, "/nonexistent/lwn-test-browser.desktop", "https://lwn.net/", NULL };
  const char *no_browser[] = { "https://lwn.net/", NULL };
  g_autofree char *gio_error = g_strdup_printf ("%s\n%d\n", g_quark_to_string (G_IO_ERROR), G_IO_ERROR_NOT_SUPPORTED);
  g_autofree char *report = NULL;

  g_test_summary ("The helper's exit status and report say why a launch failed");

  g_assert_cmpint (run_helper (usage, &report), ==, LWN_LAUNCH_EXIT_USAGE);
  g_assert_cmpstr (report, ==, "");
  g_clear_pointer (&report, g_free);

  g_assert_cmpint (run_helper (no_entry, &report), ==, LWN_LAUNCH_EXIT_NO_ENTRY);
  g_assert_cmpstr (report, ==, "");
  g_clear_pointer (&report, g_free);

  /* No handler here: GIO's error, as domain, code and message. */
  g_assert_cmpint (run_helper (no_browser, &report), ==, LWN_LAUNCH_EXIT_FAILED);
  g_assert_true (g_str_has_prefix (report, gio_error));
  g_assert_cmpuint (strlen (report), >, strlen (gio_error));
}

typedef struct
{
  const char *path; /* a file opened again and again */
  int stop;
  guint rounds;
} Churn;

/* Opens descriptors as another thread's library may (libcurl's sockets, a
 * temporary file), none of them close-on-exec. A round's stay open until the
 * next round's are, so that some are always open, and always new. */
static gpointer
churn_thread (gpointer data)
{
  Churn *churn = data;
  int held[5] = { -1, -1, -1, -1, -1 };

  while (!g_atomic_int_get (&churn->stop))
    {
      int fresh[5] = { -1, -1, -1, -1, -1 };
      int ends[2];

      if (pipe (ends) == 0)
        {
          fresh[0] = ends[0];
          fresh[1] = ends[1];
        }
      fresh[2] = socket (AF_INET, SOCK_STREAM, 0);
      fresh[3] = socket (AF_UNIX, SOCK_DGRAM, 0);
      fresh[4] = open (churn->path, O_WRONLY | O_CREAT | O_APPEND, 0600);
      for (guint i = 0; i < G_N_ELEMENTS (held); i++)
        {
          if (held[i] >= 0)
            close (held[i]);
          held[i] = fresh[i];
        }
      g_atomic_int_inc (&churn->rounds);
    }
  for (guint i = 0; i < G_N_ELEMENTS (held); i++)
    if (held[i] >= 0)
      close (held[i]);
  return NULL;
}

static void
test_inherits_nothing (void)
{
  const guint launches = 50;
  g_autoptr (Browser) browser = browser_install ();
  g_autoptr (LwnLauncher) launcher = lwn_launcher_new ();
  g_autofree char *churn_file = g_build_filename (g_get_user_cache_dir (), "churn", NULL);
  g_autoptr (GString) leaked = g_string_new (NULL);
  Churn churn = { .path = churn_file };
  GThread *thread;
  gint64 started;
  gint64 spent = 0;

  g_test_summary ("The browser inherits nothing but stdin, stdout and stderr, while another thread opens "
                  "pipes, sockets and files without close-on-exec");

  thread = g_thread_new ("churn", churn_thread, &churn);
  for (guint i = 0; i < launches; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", 800000 + i);
      g_autoptr (GError) error = NULL;
      gboolean opened;

      started = g_get_monotonic_time ();
      opened = open_url (launcher, url, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (opened);
      spent += g_get_monotonic_time () - started;
    }
  for (guint i = 0; i < launches; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u", 800000 + i);
      g_autofree char *expected = g_strdup_printf ("https://lwn.net/Articles/%s/", name);
      g_autofree char *url = wait_for_url (browser, name);
      g_autofree char *descriptors = recorded_descriptors (browser, name);

      g_assert_cmpstr (url, ==, expected);
      g_string_append (leaked, descriptors);
    }
  g_atomic_int_set (&churn.stop, TRUE);
  g_thread_join (thread);

  g_test_message ("%u launches, %.1f ms each until the launcher answered, while another thread opened %u rounds of descriptors",
                  launches, spent / 1000.0 / launches, churn.rounds);
  g_assert_cmpuint (churn.rounds, >, 0);
  g_assert_cmpstr (leaked->str, ==, "");
  assert_no_zombies ();
}

int
main (int argc,
      char *argv[])
{
  /* No display: the launcher asks none for a token. No session bus: nothing
   * is announced on the person's own. Local files only: GIO asks no
   * GVfs daemon what an http URL is. */
  g_unsetenv ("DISPLAY");
  g_unsetenv ("WAYLAND_DISPLAY");
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  g_setenv ("GIO_USE_VFS", "local", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/launcher/url-and-token", test_url_and_token);
  g_test_add_func ("/launcher/unsafe-token", test_unsafe_token);
  g_test_add_func ("/launcher/refused", test_refused);
  g_test_add_func ("/launcher/no-browser", test_no_browser);
  g_test_add_func ("/launcher/helper", test_helper);
  g_test_add_func ("/launcher/inherits-nothing", test_inherits_nothing);
  return g_test_run ();
}
