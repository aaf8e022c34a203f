/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks markup the way a GtkLabel with use-markup reads it, for the text tests and the fuzz target. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean lwn_label_markup_check (const char  *markup,
                                 GError     **error);

G_END_DECLS
