/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn_text_markup_from_html(): any bytes must become markup a GtkLabel shows as it is. */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <libxml/parser.h>

#include "fuzz-common.h"
#include "label-markup.h"
#include "lwn-text.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

/* Relative links resolve against these, chosen by the input's first byte. */
static const char *const base_urls[] = {
  NULL,
  "https://lwn.net/headlines/rss",
  "http://example.com/feed/",
  "not a url",
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
  g_autofree char *input = NULL;
  g_autofree char *markup = NULL;
  g_autoptr (GError) error = NULL;

  if (size == 0)
    return 0;

  input = g_strndup ((const char *) data + 1, size - 1);
  markup = lwn_text_markup_from_html (input, base_urls[data[0] % G_N_ELEMENTS (base_urls)]);

  /* Checks UTF-8, the tags and attributes, that every link is http(s),
   * and that pango_parse_markup() accepts what GtkLabel would pass it. */
  if (markup == NULL || !lwn_label_markup_check (markup, &error))
    __builtin_trap ();

  return 0;
}
