/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The applet: options, single instance, the application actions, and the wiring of the reading model and its views. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LWN_TYPE_APPLICATION (lwn_application_get_type ())
G_DECLARE_FINAL_TYPE (LwnApplication, lwn_application, LWN, APPLICATION, GtkApplication)

LwnApplication *lwn_application_new (void);

G_END_DECLS
