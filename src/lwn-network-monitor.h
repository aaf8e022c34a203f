/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A network monitor of the kind GLib's default would be, made in a worker thread. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* clang-format off */
void             lwn_network_monitor_new_async  (GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
GNetworkMonitor *lwn_network_monitor_new_finish (GAsyncResult        *result,
                                                 GError             **error);
/* clang-format on */

G_END_DECLS
