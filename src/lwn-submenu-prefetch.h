/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Has a tray host that fetches a submenu's entries only as it opens the submenu fetch them when the menu opens. */
#pragma once

#include <libayatana-appindicator/app-indicator.h>

G_BEGIN_DECLS

typedef struct _LwnSubmenuPrefetch LwnSubmenuPrefetch;

/* clang-format off */
LwnSubmenuPrefetch *lwn_submenu_prefetch_new  (AppIndicator       *indicator,
                                               GDBusConnection    *session_bus);
void                lwn_submenu_prefetch_free (LwnSubmenuPrefetch *self);
/* clang-format on */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LwnSubmenuPrefetch, lwn_submenu_prefetch_free)

G_END_DECLS
