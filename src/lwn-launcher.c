/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opens a web page in the default browser. Finding the browser and starting it run in worker threads;
 * between the two, the main thread asks the display for the token that lets the browser come to the
 * front (an X11 startup-notification id, a Wayland activation token), unless the caller brings one, such
 * as the token a notification server sends with an action. */

#include "config.h"

#include <fcntl.h>
#include <stdlib.h>

#include <glib/gi18n.h>
#include <gio/gdesktopappinfo.h>
#include <gtk/gtk.h>

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
};

G_DEFINE_FINAL_TYPE (LwnLauncher, lwn_launcher, G_TYPE_OBJECT)

typedef struct
{
  char *url;
  char *token;                        /* for the browser, or NULL */
  guint32 timestamp;                  /* of the click, for X11's startup notification */
  GAppInfo *handler;                  /* the scheme's default; NULL: GIO decides at launch */
  GAppLaunchContext *display_context; /* the display's, when it made the token */
  GMainContext *owner_context;        /* where the browser's exit is collected */
} Launch;

static void
launch_free (gpointer data)
{
  Launch *launch = data;

  g_free (launch->url);
  g_free (launch->token);
  g_clear_object (&launch->handler);
  g_clear_object (&launch->display_context);
  g_clear_pointer (&launch->owner_context, g_main_context_unref);
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

static void
browser_exited_cb (GPid pid,
                   gint wait_status,
                   gpointer user_data)
{
  g_spawn_close_pid (pid);
}

/* Called in the launching thread, with the browser started. */
static void
browser_started_cb (GDesktopAppInfo *info,
                    GPid pid,
                    gpointer user_data)
{
  Launch *launch = user_data;
  g_autoptr (GSource) watch = g_child_watch_source_new (pid);

  /* The browser is this process's child until it ends: its exit must be
   * collected, or it stays a zombie. */
  g_source_set_callback (watch, (GSourceFunc) (GCallback) browser_exited_cb, NULL, NULL);
  g_source_attach (watch, launch->owner_context);
}

/* Marks every descriptor but stdin, stdout and stderr to close when a
 * program starts. GLib and GDK open theirs so already, but not every library
 * does (GLib 2.74's g_file_set_contents() for one), nor does every parent
 * that starts this process. Returns whether every descriptor could be seen. */
static gboolean
close_descriptors_on_exec (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      int fd = atoi (name);
      int flags = fd > 2 ? fcntl (fd, F_GETFD) : -1;

      if (flags >= 0 && !(flags & FD_CLOEXEC))
        fcntl (fd, F_SETFD, flags | FD_CLOEXEC);
    }
  return TRUE;
}

/* GLib starts a program with posix_spawn() only when it keeps the child
 * (no intermediate process), closes no descriptor itself and runs no code
 * in the child. Otherwise it forks: the kernel then copies this whole
 * process's page tables, and every page the process writes until the
 * browser's exec is copied again, so that the menu and D-Bus threads stall
 * for tens of milliseconds. Without posix_spawn(), GLib's own path stays. */
static gboolean
launch_desktop_app (Launch *launch,
                    GDesktopAppInfo *info,
                    GAppLaunchContext *context,
                    GError **error)
{
  GList uris = { .data = launch->url };
  GSpawnFlags flags = G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD;

  if (close_descriptors_on_exec ())
    flags |= G_SPAWN_LEAVE_DESCRIPTORS_OPEN;
  return g_desktop_app_info_launch_uris_as_manager_with_fds (info, &uris, context, flags, NULL, NULL,
                                                             browser_started_cb, launch, -1, -1, -1, error);
}

static void
launch_thread (GTask *task,
               gpointer source_object,
               gpointer task_data,
               GCancellable *cancellable)
{
  Launch *launch = task_data;
  g_autoptr (GAppLaunchContext) context = g_app_launch_context_new ();
  GError *error = NULL;
  gboolean launched;

  /* Both names, whichever the display: a browser reads the one its toolkit
   * knows, and GLib 2.74 passes neither on from a plain context. */
  if (launch->token != NULL)
    {
      g_app_launch_context_setenv (context, "XDG_ACTIVATION_TOKEN", launch->token);
      g_app_launch_context_setenv (context, "DESKTOP_STARTUP_ID", launch->token);
    }

  if (G_IS_DESKTOP_APP_INFO (launch->handler))
    launched = launch_desktop_app (launch, G_DESKTOP_APP_INFO (launch->handler), context, &error);
  else if (launch->handler != NULL)
    {
      GList uris = { .data = launch->url };

      launched = g_app_info_launch_uris (launch->handler, &uris, context, &error);
    }
  else
    launched = g_app_info_launch_default_for_uri (launch->url, context, &error);

  if (launched)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
launched_cb (GObject *source,
             GAsyncResult *result,
             gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  Launch *launch = g_task_get_task_data (task);
  GError *error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Ends the busy cursor the display started for it. */
  if (launch->display_context != NULL)
    g_app_launch_context_launch_failed (launch->display_context, launch->token);
  g_task_return_error (task, error);
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
lwn_launcher_class_init (LwnLauncherClass *klass)
{
}

static void
lwn_launcher_init (LwnLauncher *self)
{
}

LwnLauncher *
lwn_launcher_new (void)
{
  return g_object_new (LWN_TYPE_LAUNCHER, NULL);
}
