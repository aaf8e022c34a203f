/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the tests see of the scheduler beyond its API: its state, and a network monitor of their own. */
#pragma once

#include "lwn-scheduler.h"

G_BEGIN_DECLS

/* clang-format off */
void          lwn_scheduler_set_network_monitor (LwnScheduler    *self,
                                                 GNetworkMonitor *monitor);
gboolean      lwn_scheduler_is_stopped          (LwnScheduler    *self);
guint         lwn_scheduler_get_next_delay      (LwnScheduler    *self);
guint         lwn_scheduler_get_first_delay     (LwnScheduler    *self);
/* clang-format on */

G_END_DECLS
