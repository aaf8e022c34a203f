/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A short-lived program that opens one URL in the browser and exits, saying on its exit status and its report pipe
 * how that went. lwn-launcher starts it with nothing open but stdin, stdout, stderr and that pipe, so that the browser
 * it starts can inherit nothing of lwn-tray's, whatever lwn-tray's threads open meanwhile (lwn-launcher-private.h has
 * the command line). It uses GIO only and calls nothing else of lwn-tray. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include <gio/gdesktopappinfo.h>
#include <gio/gio.h>

#include "lwn-launcher-private.h"

/* Writes @error to the report pipe, cut to LWN_LAUNCH_REPORT_MAX bytes: the
 * launcher reads it once this process has ended, so it must fit in the
 * pipe's buffer for this process to end at all. */
static void
write_report (const GError *error)
{
  g_autofree char *report = g_strdup_printf ("%s\n%d\n%s", g_quark_to_string (error->domain), error->code,
                                             error->message);
  gsize length = MIN (strlen (report), LWN_LAUNCH_REPORT_MAX);
  gsize written = 0;

  while (written < length)
    {
      gssize count = write (LWN_LAUNCH_REPORT_FD, report + written, length - written);

      if (count < 0 && errno == EINTR)
        continue;
      if (count <= 0)
        return;
      written += count;
    }
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GAppInfo) browser = NULL;
  g_autoptr (GAppLaunchContext) context = NULL;
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GError) error = NULL;
  const char *desktop_file = NULL;
  const char *url;
  GList uris = { NULL };
  gboolean launched;

  /* GIO's messages are the ones lwn-tray shows: in the person's language. */
  setlocale (LC_ALL, "");

  if (argc == 4 && strcmp (argv[1], LWN_LAUNCH_OPTION_DESKTOP_FILE) == 0)
    {
      desktop_file = argv[2];
      url = argv[3];
    }
  else if (argc == 2)
    url = argv[1];
  else
    {
      g_printerr ("Usage: %s [%s FILE] URL\n", argv[0], LWN_LAUNCH_OPTION_DESKTOP_FILE);
      return LWN_LAUNCH_EXIT_USAGE;
    }
  uris.data = (char *) url;

  /* The report pipe is for this process alone. GLib closes every descriptor
   * above stderr in the programs it starts anyway; this covers any other. */
  fcntl (LWN_LAUNCH_REPORT_FD, F_SETFD, FD_CLOEXEC);

  if (desktop_file != NULL)
    {
      browser = G_APP_INFO (g_desktop_app_info_new_from_filename (desktop_file));
      if (browser == NULL)
        return LWN_LAUNCH_EXIT_NO_ENTRY;
    }

  /* GIO announces a launch on the session bus (or makes it there, for a
   * D-Bus activatable browser) and only queues the message: holding the bus
   * and flushing it lets the message out before this process ends. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

  /* A plain context: the tokens are in this process's environment already,
   * and so in the browser's. GLib closes every descriptor above stderr in
   * the browser, and starts it through an intermediate process of its own
   * that it collects: the browser, orphaned at once, is then collected by
   * init or the session's subreaper, as any program GLib starts that way. */
  context = g_app_launch_context_new ();
  if (browser != NULL)
    launched = g_app_info_launch_uris (browser, &uris, context, &error);
  else
    launched = g_app_info_launch_default_for_uri (url, context, &error);

  if (bus != NULL)
    g_dbus_connection_flush_sync (bus, NULL, NULL);

  if (!launched)
    {
      write_report (error);
      return LWN_LAUNCH_EXIT_FAILED;
    }
  return LWN_LAUNCH_EXIT_OK;
}
