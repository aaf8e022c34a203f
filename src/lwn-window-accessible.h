/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The accessible of the applet's windows: GTK 3's, safe to ask after its window has gone. */
#pragma once

#include <gtk/gtk.h>
#include <gtk/gtk-a11y.h>

G_BEGIN_DECLS

/* Declared by hand because GTK 3 defines no autoptr cleanup function for
 * GtkWindowAccessible, which G_DECLARE_FINAL_TYPE would need. */
#define LWN_TYPE_WINDOW_ACCESSIBLE (lwn_window_accessible_get_type ())
typedef struct _LwnWindowAccessible LwnWindowAccessible;
typedef struct
{
  GtkWindowAccessibleClass parent_class;
} LwnWindowAccessibleClass;

GType lwn_window_accessible_get_type (void) G_GNUC_CONST;

G_END_DECLS
