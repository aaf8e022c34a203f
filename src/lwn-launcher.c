/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opens a web page in the default browser. Finding the browser runs in a worker thread; then the main thread asks the
 * display for the token that lets the browser come to the front (an X11 startup-notification id, a Wayland activation
 * token), unless the caller brings one, such as the token a notification server sends with an action. A helper
 * program (lwn-launch-helper.c), started from another worker thread with nothing open but stdin, stdout, stderr and a
 * pipe for its answer, then starts the browser, so that the browser inherits no other descriptor, whatever this
 * process's threads open meanwhile. */

#include "config.h"

/* For posix_spawn_file_actions_addclosefrom_np(), a GNU extension of glibc 2.34. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gio/gdesktopappinfo.h>
#include <gtk/gtk.h>

#include "lwn-launcher-private.h"
#include "lwn-launcher.h"
#include "lwn-url.h"

/* Longer than any token a desktop makes: GNOME Shell's and KWin's are a few
 * dozen characters, X11 startup ids under a hundred. */
#define MAX_TOKEN_LENGTH 256

/* A data address, not the function's: ISO C has no conversion between a
 * function pointer and the gpointer that GTask keeps. */
static char open_source_tag;

struct _LwnLauncher
{
  GObject parent_instance;

  char *helper; /* the program that starts the browser */
};

G_DEFINE_FINAL_TYPE (LwnLauncher, lwn_launcher, G_TYPE_OBJECT)

typedef struct
{
  char *url;
  char *token;                        /* for the browser, or NULL */
  guint32 timestamp;                  /* of the click, for X11's startup notification */
  GAppInfo *handler;                  /* the scheme's default; NULL: GIO decides at launch */
  char *desktop_file;                 /* the handler's desktop entry, or NULL */
  GAppLaunchContext *display_context; /* the display's, when it made the token */
  GMainContext *owner_context;        /* where the helper's exit is collected */
  GPid helper_pid;                    /* the helper, once started */
  int report_fd;                      /* the read end of its report pipe, or -1 */
} Launch;

static void
launch_free (gpointer data)
{
  Launch *launch = data;

  g_free (launch->url);
  g_free (launch->token);
  g_clear_object (&launch->handler);
  g_free (launch->desktop_file);
  g_clear_object (&launch->display_context);
  g_clear_pointer (&launch->owner_context, g_main_context_unref);
  if (launch->report_fd >= 0)
    close (launch->report_fd);
  g_free (launch);
}

/* Reads mimeapps.list and desktop entries: the disk, so not on the main thread. */
static void
find_handler_thread (GTask *task,
                     gpointer source_object,
                     gpointer task_data,
                     GCancellable *cancellable)
{
  Launch *launch = task_data;
  const char *scheme = g_uri_peek_scheme (launch->url);

  if (scheme != NULL)
    launch->handler = g_app_info_get_default_for_uri_scheme (scheme);
  /* The helper is told which entry this is, so that it starts the browser
   * this display's token was made for. Without a file (an entry made in
   * memory), GIO in the helper finds the scheme's handler again. */
  if (G_IS_DESKTOP_APP_INFO (launch->handler))
    launch->desktop_file = g_strdup (g_desktop_app_info_get_filename (G_DESKTOP_APP_INFO (launch->handler)));
  g_task_return_boolean (task, TRUE);
}

/* GDK's launch contexts live on the main thread: X11's sends the startup
 * message and times it out, Wayland's asks the compositor. No files are
 * named: GDK would query each for its icon, on this thread. */
static void
ask_display_for_token (Launch *launch)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkAppLaunchContext *context;

  if (display == NULL || launch->handler == NULL)
    return;
  /* As GLib's own launch: a program that never says it started would leave
   * the desktop's busy cursor on until it times out. */
  if (G_IS_DESKTOP_APP_INFO (launch->handler)
      && !g_desktop_app_info_get_boolean (G_DESKTOP_APP_INFO (launch->handler), "StartupNotify"))
    return;

  context = gdk_display_get_app_launch_context (display);
  gdk_app_launch_context_set_timestamp (context, launch->timestamp);
  launch->token = g_app_launch_context_get_startup_notify_id (G_APP_LAUNCH_CONTEXT (context), launch->handler, NULL);
  if (launch->token != NULL)
    launch->display_context = G_APP_LAUNCH_CONTEXT (context);
  else
    g_object_unref (context);
}

/* Starts the helper, which starts the browser and ends. posix_spawn() makes
 * the helper without a fork of this process: glibc's clone shares this
 * process's memory until the helper's exec, instead of copying this large
 * process's page tables, which stalled the menu's main loop and the D-Bus
 * threads for tens of milliseconds. The file actions run in the new process
 * on its own copy of the descriptor table, taken at the clone: they close
 * every descriptor above the report pipe's, whatever this process's other
 * threads (GTK, GDBus, dconf, libcurl...) open, with or without
 * close-on-exec, before or after. */
static gboolean
start_helper (const char *helper,
              Launch *launch,
              GError **error)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  sigset_t no_signals;
  sigset_t defaults;
  int report[2];
  pid_t pid;
  int status;

  g_ptr_array_add (argv, (char *) helper);
  if (launch->desktop_file != NULL)
    {
      g_ptr_array_add (argv, (char *) LWN_LAUNCH_OPTION_DESKTOP_FILE);
      g_ptr_array_add (argv, launch->desktop_file);
    }
  g_ptr_array_add (argv, launch->url);
  g_ptr_array_add (argv, NULL);

  /* Both names, whichever the display: a browser reads the one its toolkit
   * knows. The helper passes its environment on to the browser. */
  if (launch->token != NULL)
    {
      envp = g_environ_setenv (envp, "XDG_ACTIVATION_TOKEN", launch->token, TRUE);
      envp = g_environ_setenv (envp, "DESKTOP_STARTUP_ID", launch->token, TRUE);
    }

  if (!g_unix_open_pipe (report, FD_CLOEXEC, error))
    return FALSE;

  /* The helper starts with the signals this process blocks or ignores
   * (SIGPIPE, for libcurl) as a new program expects them, as GLib's own
   * spawn leaves them. */
  sigemptyset (&no_signals);
  sigemptyset (&defaults);
  sigaddset (&defaults, SIGCHLD);
  sigaddset (&defaults, SIGHUP);
  sigaddset (&defaults, SIGINT);
  sigaddset (&defaults, SIGPIPE);
  sigaddset (&defaults, SIGTERM);

  posix_spawn_file_actions_init (&actions);
  posix_spawnattr_init (&attributes);
  /* When the pipe's write end already is descriptor 3, glibc clears its
   * close-on-exec flag instead (Austin Group issue 411). */
  status = posix_spawn_file_actions_adddup2 (&actions, report[1], LWN_LAUNCH_REPORT_FD);
  if (status == 0)
    status = posix_spawn_file_actions_addclosefrom_np (&actions, LWN_LAUNCH_REPORT_FD + 1);
  if (status == 0)
    status = posix_spawnattr_setsigmask (&attributes, &no_signals);
  if (status == 0)
    status = posix_spawnattr_setsigdefault (&attributes, &defaults);
  if (status == 0)
    status = posix_spawnattr_setflags (&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (status == 0)
    status = posix_spawn (&pid, helper, &actions, &attributes, (char **) argv->pdata, envp);
  posix_spawnattr_destroy (&attributes);
  posix_spawn_file_actions_destroy (&actions);
  close (report[1]);

  if (status != 0)
    {
      close (report[0]);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (status), _ ("Could not run %s: %s"), helper,
                   g_strerror (status));
      return FALSE;
    }
  /* Read on the main thread once the helper has ended, which never waits. */
  g_unix_set_fd_nonblocking (report[0], TRUE, NULL);
  launch->helper_pid = pid;
  launch->report_fd = report[0];
  return TRUE;
}

static void
launch_thread (GTask *task,
               gpointer source_object,
               gpointer task_data,
               GCancellable *cancellable)
{
  LwnLauncher *self = source_object;
  Launch *launch = task_data;
  GError *error = NULL;

  if (start_helper (self->helper, launch, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Turns the helper's report (lwn-launcher-private.h) back into its GError.
 * Returns FALSE if there was none to read. */
static gboolean
read_report (int fd,
             GError **error)
{
  char report[LWN_LAUNCH_REPORT_MAX + 1];
  gsize length = 0;
  g_auto (GStrv) fields = NULL;
  g_autofree char *message = NULL;
  gint64 code;
  char *end;

  while (length < LWN_LAUNCH_REPORT_MAX)
    {
      gssize count = read (fd, report + length, LWN_LAUNCH_REPORT_MAX - length);

      if (count < 0 && errno == EINTR)
        continue;
      if (count <= 0)
        break;
      length += count;
    }
  report[length] = '\0';

  fields = g_strsplit (report, "\n", 3);
  if (g_strv_length (fields) != 3 || fields[0][0] == '\0')
    return FALSE;
  code = g_ascii_strtoll (fields[1], &end, 10);
  if (end == fields[1] || *end != '\0' || code < G_MININT || code > G_MAXINT)
    return FALSE;
  message = g_utf8_make_valid (fields[2], -1);
  g_set_error_literal (error, g_quark_from_string (fields[0]), (int) code, message);
  return TRUE;
}

/* How the launch went, from the helper's exit and its report. */
static gboolean
helper_succeeded (Launch *launch,
                  int wait_status,
                  GError **error)
{
  g_autoptr (GError) exit_error = NULL;

  if (WIFEXITED (wait_status))
    switch (WEXITSTATUS (wait_status))
      {
        case LWN_LAUNCH_EXIT_OK:
          return TRUE;
        case LWN_LAUNCH_EXIT_FAILED:
          if (read_report (launch->report_fd, error))
            return FALSE;
          break;
        case LWN_LAUNCH_EXIT_NO_ENTRY:
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _ ("The browser “%s” is no longer installed, or its desktop entry %s cannot be read"),
                       g_app_info_get_display_name (launch->handler), launch->desktop_file);
          return FALSE;
        default:
          break;
      }
  g_spawn_check_wait_status (wait_status, &exit_error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("The program that starts the browser failed: %s"),
               exit_error != NULL ? exit_error->message : _ ("it gave no reason"));
  return FALSE;
}

static void
launch_failed (GTask *task,
               GError *error)
{
  Launch *launch = g_task_get_task_data (task);

  /* What GIO says when no program at all takes http(s) links is only
   * "Operation not supported". */
  if (launch->handler == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
    {
      g_clear_error (&error);
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                   _ ("No web browser is set up to open http and https links"));
    }
  /* Ends the busy cursor the display started for it. */
  if (launch->display_context != NULL)
    g_app_launch_context_launch_failed (launch->display_context, launch->token);
  g_task_return_error (task, error);
}

/* The helper is this process's child: its exit is collected here, on the
 * thread that opened the page, and says how the launch went. The browser
 * is the helper's to start, not this process's child. */
static void
helper_exited_cb (GPid pid,
                  gint wait_status,
                  gpointer user_data)
{
  GTask *task = user_data;
  Launch *launch = g_task_get_task_data (task);
  GError *error = NULL;

  g_spawn_close_pid (pid);
  if (helper_succeeded (launch, wait_status, &error))
    g_task_return_boolean (task, TRUE);
  else
    launch_failed (task, error);
}

static void
launched_cb (GObject *source,
             GAsyncResult *result,
             gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  Launch *launch = g_task_get_task_data (task);
  GSource *watch;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      launch_failed (task, error);
      return;
    }
  watch = g_child_watch_source_new (launch->helper_pid);
  g_source_set_callback (watch, (GSourceFunc) (GCallback) helper_exited_cb, g_steal_pointer (&task), g_object_unref);
  g_source_attach (watch, launch->owner_context);
  g_source_unref (watch);
}

static void
handler_found_cb (GObject *source,
                  GAsyncResult *result,
                  gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  Launch *launch = g_task_get_task_data (task);
  GCancellable *cancellable;
  GTask *start;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (launch->token == NULL)
    ask_display_for_token (launch);

  cancellable = g_task_get_cancellable (task);
  start = g_task_new (source, cancellable, launched_cb, g_steal_pointer (&task));
  g_task_set_task_data (start, launch, NULL);
  g_task_run_in_thread (start, launch_thread);
  g_object_unref (start);
}

/* The token becomes an environment variable of the browser, so what another
 * process sent (a notification server) must not be able to bring in a second
 * variable, a line of its own, or control characters: printable ASCII, without
 * '=' or spaces, of a bounded length. */
static gboolean
is_safe_token (const char *token)
{
  gsize length = 0;

  for (const char *c = token; *c != '\0'; c++, length++)
    if (length >= MAX_TOKEN_LENGTH || !g_ascii_isgraph (*c) || *c == '=')
      return FALSE;
  return length > 0;
}

/**
 * lwn_launcher_open_async:
 * @url: an http or https URL; anything else is refused
 * @activation_token: (nullable): a token the caller was given for this
 *   launch (a notification server's); without one, or with one that is not
 *   printable ASCII without '=' of at most 256 characters, the display
 *   makes one
 *
 * Opens @url in the default browser. The click's time is taken now, so call
 * this from the handler of the click.
 */
void
lwn_launcher_open_async (LwnLauncher *self,
                         const char *url,
                         const char *activation_token,
                         GCancellable *cancellable,
                         GAsyncReadyCallback callback,
                         gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  GTask *find;
  Launch *launch;

  g_return_if_fail (LWN_IS_LAUNCHER (self));
  g_return_if_fail (url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &open_source_tag);

  /* The last line of defence: nothing but http(s) ever reaches a launch. */
  if (!lwn_url_is_launchable (url))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _ ("Refusing to open a link that is not http or https"));
      return;
    }

  launch = g_new0 (Launch, 1);
  launch->report_fd = -1;
  launch->url = g_strdup (url);
  if (activation_token != NULL && *activation_token != '\0' && !is_safe_token (activation_token))
    g_debug ("Ignoring an activation token that is not printable ASCII of at most %d characters", MAX_TOKEN_LENGTH);
  else if (activation_token != NULL && *activation_token != '\0')
    launch->token = g_strdup (activation_token);
  launch->timestamp = gtk_get_current_event_time ();
  launch->owner_context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, launch, launch_free);

  find = g_task_new (self, cancellable, handler_found_cb, g_steal_pointer (&task));
  g_task_set_task_data (find, launch, NULL);
  g_task_run_in_thread (find, find_handler_thread);
  g_object_unref (find);
}

/**
 * lwn_launcher_open_finish:
 * @result: the #GAsyncResult passed to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Finishes lwn_launcher_open_async(). The browser inherits no descriptor
 * but stdin, stdout and stderr, and is not this process's child.
 *
 * Returns: %TRUE once the browser has started (or, for a D-Bus activatable
 *   one, was asked to open the page); %FALSE with @error set otherwise:
 *   %G_IO_ERROR_INVALID_ARGUMENT for a URL that is not http(s),
 *   %G_IO_ERROR_CANCELLED, %G_IO_ERROR_NOT_SUPPORTED when no browser is set
 *   up for http(s), or GIO's own error saying why the browser did not start
 */
gboolean
lwn_launcher_open_finish (LwnLauncher *self,
                          GAsyncResult *result,
                          GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, &open_source_tag), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
lwn_launcher_finalize (GObject *object)
{
  LwnLauncher *self = LWN_LAUNCHER (object);

  g_free (self->helper);
  G_OBJECT_CLASS (lwn_launcher_parent_class)->finalize (object);
}

static void
lwn_launcher_class_init (LwnLauncherClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lwn_launcher_finalize;
}

/* Installed, the helper is in libexecdir (LWN_LAUNCH_HELPER, from meson).
 * Run from the build tree, the program finds the one built beside it; an
 * installed program has none beside it in bindir. */
static char *
find_helper (void)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *name = g_path_get_basename (LWN_LAUNCH_HELPER);
  g_autofree char *folder = NULL;
  g_autofree char *beside = NULL;

  if (program == NULL)
    return g_strdup (LWN_LAUNCH_HELPER);
  folder = g_path_get_dirname (program);
  beside = g_build_filename (folder, name, NULL);
  if (g_file_test (beside, G_FILE_TEST_IS_REGULAR) && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&beside);
  return g_strdup (LWN_LAUNCH_HELPER);
}

static void
lwn_launcher_init (LwnLauncher *self)
{
  self->helper = find_helper ();
}

LwnLauncher *
lwn_launcher_new (void)
{
  return g_object_new (LWN_TYPE_LAUNCHER, NULL);
}
