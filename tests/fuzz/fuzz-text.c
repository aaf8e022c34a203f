/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn-text: HTML to text, ellipsizing, escaping and control stripping of any bytes. */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <libxml/parser.h>

#include "fuzz-common.h"
#include "lwn-text.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

static void
check_utf8 (const char *text)
{
  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    __builtin_trap ();
}

/* Whether @text fits in @max_chars characters, 0 meaning no limit. */
static void
check_fits (const char *text,
            gsize max_chars)
{
  if (max_chars > 0 && (gsize) g_utf8_strlen (text, -1) > max_chars)
    __builtin_trap ();
}

/* Control characters are what would reach a terminal or a label as escape
 * sequences; @allowed lists the ones a function documents it keeps. */
static void
check_no_controls (const char *text,
                   const char *allowed)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 || (c >= 0x7F && c <= 0x9F)) && (c == 0 || strchr (allowed, (int) c) == NULL))
        __builtin_trap ();
    }
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
  g_autofree char *input = NULL;
  g_autofree char *from_html = NULL;
  g_autofree char *ellipsized = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *mnemonic = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *collapsed = NULL;
  gsize max_chars;

  if (size == 0)
    return 0;

  /* 0 is "no limit"; small limits are where the cutting logic is tested. */
  max_chars = data[0];
  input = g_strndup ((const char *) data + 1, size - 1);

  from_html = lwn_text_from_html (input, max_chars);
  check_utf8 (from_html);
  check_fits (from_html, max_chars);
  check_no_controls (from_html, "\n");

  ellipsized = lwn_text_ellipsize (input, max_chars);
  check_utf8 (ellipsized);
  check_fits (ellipsized, max_chars);

  markup = lwn_text_escape_markup (input);
  check_utf8 (markup);

  mnemonic = lwn_text_escape_mnemonic (input);
  check_utf8 (mnemonic);

  stripped = lwn_text_strip_controls (input);
  check_utf8 (stripped);
  check_no_controls (stripped, "");

  collapsed = lwn_text_collapse_whitespace (input);
  check_utf8 (collapsed);
  if (strchr (collapsed, '\n') != NULL || strchr (collapsed, '\t') != NULL)
    __builtin_trap ();

  return 0;
}
