/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the notifier's tests may see beyond its public API: how much it keeps. */
#pragma once

#include "lwn-notifier.h"

G_BEGIN_DECLS

/* clang-format off */
guint lwn_notifier_count_kept (LwnNotifier *self);
/* clang-format on */

G_END_DECLS
