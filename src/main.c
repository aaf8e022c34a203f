/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Process set-up done once (locale, SIGPIPE, libcurl, libxml2), then the command line. */

#include "config.h"

#include <locale.h>
#include <signal.h>

#include <curl/curl.h>
#include <glib/gi18n.h>
#include <libxml/parser.h>

#include "lwn-cli.h"

int
main (int   argc,
      char *argv[])
{
  gboolean print = FALSE;
  gboolean json = FALSE;
  gboolean version = FALSE;
  g_autofree char *feed_url = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "print", 'p', 0, G_OPTION_ARG_NONE, &print, N_("Print the headlines (title, tab, URL) and exit"), NULL },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, N_("Print the feed as JSON and exit"), NULL },
    { "feed-url", 'f', 0, G_OPTION_ARG_STRING, &feed_url, N_("Load this feed instead of LWN.net's headlines"), N_("URL") },
    { "version", 'v', 0, G_OPTION_ARG_NONE, &version, N_("Show the version and exit"), NULL },
    { NULL },
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* libcurl may write to a socket the peer closed; that must be an error, not death. */
  signal (SIGPIPE, SIG_IGN);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Shows the latest LWN.net headlines."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("lwn-tray: %s\n", error->message);
      return 1;
    }

  if (version)
    {
      g_print ("lwn-tray %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (curl_global_init (CURL_GLOBAL_DEFAULT) != CURLE_OK)
    {
      g_printerr ("lwn-tray: %s\n", _("could not initialise libcurl"));
      return 1;
    }
  xmlInitParser ();

  status = lwn_cli_run (json ? LWN_CLI_FORMAT_JSON : LWN_CLI_FORMAT_TEXT,
                        feed_url != NULL ? feed_url : DEFAULT_FEED_URL);

  xmlCleanupParser ();
  curl_global_cleanup ();
  return status;
}
