/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn_feed_find_in_html(): a web page's bytes searched for the feed it names, with no network. */

#include "config.h"

#include <stdint.h>

#include <libxml/parser.h>

#include "fuzz-common.h"
#include "lwn-feed-find.h"
#include "lwn-url.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

/* The first input byte picks the address the page came from, so that one
 * corpus reaches relative links against a path, a bare host, an IPv6
 * literal with a port, and no address at all. */
static const char *const page_urls[] = {
  "https://example.org/blog/2026/post.html?page=2#comments",
  "http://example.com",
  "http://[2001:db8::1]:8080/a/b/",
  NULL,
};

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
  g_autoptr (GBytes) html = NULL;
  g_autofree char *found = NULL;

  if (size == 0)
    return 0;

  html = g_bytes_new (data + 1, size - 1);
  found = lwn_feed_find_in_html (html, page_urls[data[0] % G_N_ELEMENTS (page_urls)]);

  /* What it finds becomes a feed followed: it must pass the check every
   * address of the list passes. */
  if (found != NULL && lwn_url_feed_problem (found) != NULL)
    __builtin_trap ();
  return 0;
}
