/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn-url: a base and a link from a feed, resolved, rewritten and checked before launch. */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "fuzz-common.h"
#include "lwn-url.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  lwn_fuzz_init_logging ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autofree char *input = g_strndup ((const char *) data, size);
  g_autofree char *article = NULL;
  g_autofree char *resolved = NULL;
  char *newline = strchr (input, '\n');
  const char *base = NULL;
  const char *link = input;

  /* "base\nlink"; with no newline there is no base, as for a feed without
   * a link of its own fetched from nowhere. */
  if (newline != NULL)
    {
      *newline = '\0';
      base = input;
      link = newline + 1;
    }

  (void) lwn_url_is_launchable (base);
  (void) lwn_url_is_launchable (link);

  resolved = lwn_url_resolve (base, link);
  (void) lwn_url_is_launchable (resolved);

  /* The promise the tray relies on: what this returns can go to the browser. */
  article = lwn_url_dup_article_url (base, link);
  if (article != NULL)
    {
      if (!g_str_has_prefix (article, "http://") && !g_str_has_prefix (article, "https://"))
        __builtin_trap ();
      if (!lwn_url_is_launchable (article))
        __builtin_trap ();
    }

  return 0;
}
