/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Set-up shared by the fuzz targets. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void lwn_fuzz_init_logging (void);

G_END_DECLS
