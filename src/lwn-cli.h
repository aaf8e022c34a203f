/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one-shot command-line modes: --print and --json. */
#pragma once

#include <glib.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_CLI_FORMAT_TEXT,
  LWN_CLI_FORMAT_JSON,
} LwnCliFormat;

/* Characters of plain-text summary written by --json. */
#define LWN_CLI_SUMMARY_CHARS 300

char *lwn_cli_render_text (LwnFeed *feed);
char *lwn_cli_render_json (LwnFeed *feed);
int   lwn_cli_run         (LwnCliFormat format,
                           const char  *feed_url);

G_END_DECLS
