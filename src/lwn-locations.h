/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the running program and its icons are: installed, or in a build folder and the source tree. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* clang-format off */
char *lwn_locations_dup_uninstalled_binary (void);
char *lwn_locations_dup_icon_theme_path    (void);
/* clang-format on */

G_END_DECLS
