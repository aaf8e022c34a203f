/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the store's tests share: reloading a store from what it saved, and writing a state file by hand. */
#pragma once

#include "lwn-store-private.h"

G_BEGIN_DECLS

/* clang-format off */
LwnStore *reload     (LwnStore   *store);
void      write_file (const char *path,
                      const char *contents,
                      gssize      length);
/* clang-format on */

G_END_DECLS
