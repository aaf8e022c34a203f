/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plain text and Pango markup from feed HTML, safe for menus, tooltips, notifications and labels. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What lwn_text_markup_from_html() puts at the start of each line of a block
 * quote, once per level: "▎ ", a bar that reads as a quote in any GTK theme. */
#define LWN_TEXT_QUOTE_PREFIX "\xe2\x96\x8e "

char *lwn_text_from_html           (const char *html,
                                    gsize       max_chars);
char *lwn_text_markup_from_html    (const char *html,
                                    const char *base_url);
char *lwn_text_collapse_whitespace (const char *text);
char *lwn_text_strip_controls      (const char *text);
char *lwn_text_ellipsize           (const char *text,
                                    gsize       max_chars);
char *lwn_text_escape_markup       (const char *text);
char *lwn_text_escape_mnemonic     (const char *text);

G_END_DECLS
