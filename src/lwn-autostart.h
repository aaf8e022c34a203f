/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-user "Start at login" switch: an XDG autostart entry in $XDG_CONFIG_HOME/autostart. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LWN_AUTOSTART_ERROR (lwn_autostart_error_quark ())

typedef enum
{
  LWN_AUTOSTART_ERROR_WRITE,     /* the folder or the entry could not be written */
  LWN_AUTOSTART_ERROR_REMOVE,    /* the entry could not be deleted */
  LWN_AUTOSTART_ERROR_EXEC_PATH, /* the program's path cannot be written in a desktop entry */
} LwnAutostartError;

/* clang-format off */
GQuark   lwn_autostart_error_quark (void);

gboolean lwn_autostart_is_enabled  (void);
gboolean lwn_autostart_set_enabled (const char *exec_path,
                                    gboolean    enabled,
                                    GError    **error);
/* clang-format on */

G_END_DECLS
