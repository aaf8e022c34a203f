/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-user "Start at login" switch: an XDG autostart entry in $XDG_CONFIG_HOME/autostart. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LWN_AUTOSTART_ERROR (lwn_autostart_error_quark ())

typedef enum
{
  LWN_AUTOSTART_ERROR_WRITE,     /* the folder or the entry could not be written */
  LWN_AUTOSTART_ERROR_REMOVE,    /* the entry could not be deleted */
  LWN_AUTOSTART_ERROR_EXEC_PATH, /* the program's path cannot be written in a desktop entry */
} LwnAutostartError;

/* clang-format off */
GQuark   lwn_autostart_error_quark        (void);

gboolean lwn_autostart_is_enabled         (void);
gboolean lwn_autostart_set_enabled        (const char          *exec_path,
                                           gboolean             enabled,
                                           GError             **error);
void     lwn_autostart_set_enabled_async  (const char          *exec_path,
                                           gboolean             enabled,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
gboolean lwn_autostart_set_enabled_finish (GAsyncResult        *result,
                                           gboolean            *out_enabled,
                                           GError             **error);
/* clang-format on */

#define LWN_TYPE_AUTOSTART_SWITCH (lwn_autostart_switch_get_type ())
G_DECLARE_FINAL_TYPE (LwnAutostartSwitch, lwn_autostart_switch, LWN, AUTOSTART_SWITCH, GObject)

/* clang-format off */
LwnAutostartSwitch *lwn_autostart_switch_new         (const char         *exec_path);
gboolean            lwn_autostart_switch_get_enabled (LwnAutostartSwitch *self);
gboolean            lwn_autostart_switch_is_busy     (LwnAutostartSwitch *self);
void                lwn_autostart_switch_drain_async  (LwnAutostartSwitch   *self,
                                                       guint                 timeout_ms,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean            lwn_autostart_switch_drain_finish (LwnAutostartSwitch   *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);
void                lwn_autostart_switch_request     (LwnAutostartSwitch *self,
                                                      gboolean            enabled);
/* clang-format on */

G_END_DECLS
