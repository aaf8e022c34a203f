/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This module reads the dates that feeds write, in W3C-DTF (ISO 8601) or RFC 822 form, and reads them leniently. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GDateTime  *lwn_date_parse_iso8601          (const char *text);
GDateTime  *lwn_date_parse_rfc822           (const char *text);
GDateTime  *lwn_date_parse                  (const char *text);

G_END_DECLS
