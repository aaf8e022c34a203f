/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads the dates feeds write: W3C-DTF (ISO 8601) and RFC 822, leniently. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GDateTime  *lwn_date_parse_iso8601          (const char *text);
GDateTime  *lwn_date_parse_rfc822           (const char *text);
GDateTime  *lwn_date_parse                  (const char *text);

G_END_DECLS
