/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn_feed_parse(): every format and charset path, and every getter of the feed it returns. */

#include "config.h"

#include <stdint.h>

#include <libxml/parser.h>

#include "fuzz-common.h"
#include "lwn-cli.h"
#include "lwn-feed-parser.h"
#include "lwn-url.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

/* The first input byte picks one, so that a single corpus reaches the
 * sniffing, the HTTP charset override, JSON Feed and the web-page check. */
static const char *const content_types[] = {
  NULL,
  "application/rss+xml; charset=iso-8859-1",
  "application/feed+json",
  "text/html",
};

#define DOCUMENT_URL "https://lwn.net/headlines/rss"

/* Everything a feed hands to GTK, libnotify, json-glib or a terminal must be
 * UTF-8; anything else is a parser bug, so stop right here. */
static void
check_string (const char *text)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    __builtin_trap ();
}

static void
check_date (GDateTime *when)
{
  g_autofree char *text = NULL;

  if (when == NULL)
    return;

  text = g_date_time_format_iso8601 (when);
  if (text == NULL)
    __builtin_trap ();
}

static void
check_item (const LwnFeedItem *item)
{
  const char *url = lwn_feed_item_get_url (item);

  check_string (lwn_feed_item_get_id (item));
  check_string (lwn_feed_item_get_title (item));
  check_string (lwn_feed_item_get_link (item));
  check_string (lwn_feed_item_get_author (item));
  check_string (lwn_feed_item_get_description (item));
  check_date (lwn_feed_item_get_date (item));
  (void) lwn_feed_item_get_paywalled (item);

  /* The URL is what a click hands to the browser. */
  check_string (url);
  if (url != NULL && !lwn_url_is_launchable (url))
    __builtin_trap ();
}

static void
check_feed (LwnFeed *feed)
{
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;

  check_string (lwn_feed_get_title (feed));
  check_string (lwn_feed_get_link (feed));
  (void) lwn_feed_get_refresh_seconds (feed);

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    check_item (lwn_feed_get_item (feed, i));

  text = lwn_cli_render_text (feed);
  check_string (text);
  json = lwn_cli_render_json (feed);
  check_string (json);
}

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  xmlInitParser ();
  lwn_fuzz_init_logging ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autoptr (GBytes) body = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;
  const char *content_type;

  if (size == 0)
    return 0;

  content_type = content_types[data[0] % G_N_ELEMENTS (content_types)];
  body = g_bytes_new (data + 1, size - 1);

  feed = lwn_feed_parse (body, content_type, DOCUMENT_URL, &error);
  if (feed == NULL)
    {
      /* A failure must say why, in the parser's own domain, in UTF-8. */
      if (error == NULL || error->domain != LWN_PARSE_ERROR)
        __builtin_trap ();
      check_string (error->message);
      return 0;
    }

  if (error != NULL)
    __builtin_trap ();
  check_feed (feed);
  return 0;
}
