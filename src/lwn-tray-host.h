/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether a tray host is on the session bus to show the indicator, and saying once when none is. */
#pragma once

#include "lwn-tray.h"

G_BEGIN_DECLS

#define LWN_TYPE_TRAY_HOST (lwn_tray_host_get_type ())
G_DECLARE_FINAL_TYPE (LwnTrayHost, lwn_tray_host, LWN, TRAY_HOST, GObject)

/* clang-format off */
LwnTrayHost *lwn_tray_host_new (GDBusConnection *session_bus,
                                LwnTray         *tray);
/* clang-format on */

G_END_DECLS
