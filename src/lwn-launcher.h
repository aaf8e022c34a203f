/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opens a web page in the person's browser, brought to the front, without the main loop waiting. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LWN_TYPE_LAUNCHER (lwn_launcher_get_type ())
G_DECLARE_FINAL_TYPE (LwnLauncher, lwn_launcher, LWN, LAUNCHER, GObject)

/* clang-format off */
LwnLauncher *lwn_launcher_new         (void);
void         lwn_launcher_open_async  (LwnLauncher         *self,
                                       const char          *url,
                                       const char          *activation_token,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
gboolean     lwn_launcher_open_finish (LwnLauncher         *self,
                                       GAsyncResult        *result,
                                       GError             **error);
/* clang-format on */

G_END_DECLS
