/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one-shot command-line modes: --print and --json, of one feed or several, and OPML in and out. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_CLI_FORMAT_TEXT,
  LWN_CLI_FORMAT_JSON,
} LwnCliFormat;

/* Characters of plain-text summary written by --json. */
#define LWN_CLI_SUMMARY_CHARS 300

/* Takes each piece of the output in turn; FALSE stops the writing. */
typedef gboolean (*LwnCliWriteFunc) (const char *text,
                                     gpointer    user_data);

/* clang-format off */
char     *lwn_cli_render_text   (LwnFeed         *feed);
char     *lwn_cli_render_json   (LwnFeed         *feed);
gboolean  lwn_cli_write_json    (LwnFeed         *feed,
                                 LwnCliWriteFunc  write,
                                 gpointer         user_data);
int       lwn_cli_check_options (GVariantDict    *options);
int       lwn_cli_run           (LwnCliFormat       format,
                                 const char *const *feed_urls);
int       lwn_cli_export_opml   (GSettings         *settings,
                                 const char        *default_feed_url);
int       lwn_cli_import_opml   (GSettings         *settings,
                                 const char        *path);
/* clang-format on */

G_END_DECLS
