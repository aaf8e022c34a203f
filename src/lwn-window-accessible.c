/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The accessible of the applet's windows: GTK 3's, safe to ask after its window has gone.
 *
 * A window's accessible can outlive the window: the accessibility bridge and
 * a screen reader may still hold it after the window closed. GTK 3's window
 * accessible then has no widget, and its child count and child lookup pass
 * that NULL widget to gtk_container_forall(), which logs a critical (a crash
 * under G_DEBUG=fatal-criticals). GTK's other container accessibles check
 * for the missing widget first. This subclass does the same for windows: a
 * window that has gone has no children. */

#include "config.h"

#include "lwn-window-accessible.h"

struct _LwnWindowAccessible
{
  GtkWindowAccessible parent_instance;
};

G_DEFINE_FINAL_TYPE (LwnWindowAccessible, lwn_window_accessible, GTK_TYPE_WINDOW_ACCESSIBLE)

static gboolean
has_window (AtkObject *accessible)
{
  return gtk_accessible_get_widget (GTK_ACCESSIBLE (accessible)) != NULL;
}

static int
lwn_window_accessible_get_n_children (AtkObject *accessible)
{
  if (!has_window (accessible))
    return 0;
  return ATK_OBJECT_CLASS (lwn_window_accessible_parent_class)->get_n_children (accessible);
}

static AtkObject *
lwn_window_accessible_ref_child (AtkObject *accessible,
                                 int index)
{
  if (!has_window (accessible))
    return NULL;
  return ATK_OBJECT_CLASS (lwn_window_accessible_parent_class)->ref_child (accessible, index);
}

static void
lwn_window_accessible_class_init (LwnWindowAccessibleClass *klass)
{
  AtkObjectClass *object_class = ATK_OBJECT_CLASS (klass);

  object_class->get_n_children = lwn_window_accessible_get_n_children;
  object_class->ref_child = lwn_window_accessible_ref_child;
}

static void
lwn_window_accessible_init (LwnWindowAccessible *self)
{
}
