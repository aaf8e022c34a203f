/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tray item: libayatana-appindicator's AppIndicator, without its fallback to a GtkStatusIcon. */
#pragma once

#include <libayatana-appindicator/app-indicator.h>

G_BEGIN_DECLS

/* Declared by hand rather than with G_DECLARE_FINAL_TYPE, which needs an
 * autoptr cleanup function for AppIndicator that the library does not define
 * (and a later version might). */
#define LWN_TYPE_INDICATOR (lwn_indicator_get_type ())
typedef struct _LwnIndicator LwnIndicator;
typedef struct
{
  AppIndicatorClass parent_class;
} LwnIndicatorClass;

/* clang-format off */
GType          lwn_indicator_get_type (void) G_GNUC_CONST;
AppIndicator  *lwn_indicator_new      (const char *id,
                                       const char *icon_name);
/* clang-format on */

G_END_DECLS
