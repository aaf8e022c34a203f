/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The wording of the parser's errors, shared by the dispatcher, the formats and lwn-xml. */
#pragma once

#include <glib.h>
#include <libxml/xmlerror.h>

#include "lwn-feed-parser.h"

G_BEGIN_DECLS

char       *lwn_parse_error_dup_quoted      (const char *text);
void        lwn_parse_error_keep_first      (void     *data,
                                             xmlError *error);
void        lwn_parse_error_set_xml         (GError         **error,
                                             const xmlError  *first,
                                             const xmlError  *last);

G_END_DECLS
