/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Makes the network monitor GLib's default would be, in a worker thread: its NetworkManager
 * implementation asks the system bus synchronously, and waits 25 s for one that does not answer. */

#include "config.h"

#include "lwn-network-monitor.h"

/* Names the tasks this file starts; its address is what matters. */
static char new_source_tag;

static gboolean
drop_failed_cb (gpointer user_data)
{
  g_object_unref (user_data);
  return G_SOURCE_REMOVE;
}

static void
new_thread (GTask *task,
            gpointer source_object,
            gpointer task_data,
            GCancellable *cancellable)
{
  GArray *types = task_data;

  for (guint i = 0; i < types->len; i++)
    {
      GType type = g_array_index (types, GType, i);
      g_autoptr (GError) error = NULL;
      GObject *monitor = g_object_new (type, NULL);

      if (!G_IS_INITABLE (monitor) || g_initable_init (G_INITABLE (monitor), cancellable, &error))
        {
          g_task_return_pointer (task, monitor, g_object_unref);
          return;
        }

      /* GLib's NetworkManager monitor sets up its netlink parent first, whose
       * socket source this thread, having no context of its own, attached to
       * the main one; then it finds no NetworkManager and fails. The main
       * thread may be in that source's callback right now: the failed monitor
       * is let go there, between two callbacks, not here. */
      g_idle_add_full (G_PRIORITY_DEFAULT, drop_failed_cb, monitor, NULL);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_debug ("No network monitor from %s: %s", g_type_name (type), error != NULL ? error->message : "");
    }

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "No network monitor could be made");
}

/* The implementations GLib would try for its default, in its order:
 * GIO_USE_NETWORK_MONITOR's first, then the others by priority. */
static GArray *
dup_implementations (void)
{
  GArray *types = g_array_new (FALSE, FALSE, sizeof (GType));
  const char *wanted = g_getenv ("GIO_USE_NETWORK_MONITOR");
  GIOExtensionPoint *point;
  GIOExtension *preferred = NULL;

  /* GIO registers its extension points with its first default lookup;
   * GTK has made the VFS long before, so this one costs nothing. */
  g_vfs_get_default ();
  point = g_io_extension_point_lookup (G_NETWORK_MONITOR_EXTENSION_POINT_NAME);
  if (point == NULL)
    return types;

  if (wanted != NULL)
    preferred = g_io_extension_point_get_extension_by_name (point, wanted);
  if (preferred != NULL)
    {
      GType type = g_io_extension_get_type (preferred);

      g_array_append_val (types, type);
    }
  for (GList *l = g_io_extension_point_get_extensions (point); l != NULL; l = l->next)
    {
      GType type = g_io_extension_get_type (l->data);

      if (l->data != preferred)
        g_array_append_val (types, type);
    }
  return types;
}

/**
 * lwn_network_monitor_new_async:
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: called on the caller's thread-default main context once the
 *   monitor is made
 * @user_data: data for @callback
 *
 * Makes a network monitor of the implementation g_network_monitor_get_default()
 * would choose, trying the same ones in the same order, in a worker thread.
 *
 * Not g_network_monitor_get_default() itself, even in a worker: GIO makes
 * its default while holding the one lock it takes for every default
 * lookup, even of one made already, so that anything asking GIO for a
 * default meanwhile (the fetcher's proxy resolver, a GSettings backend), on
 * any thread, would wait as long as NetworkManager does. The list of
 * implementations is read here, on the calling thread; the worker only
 * constructs them. The monitor is this caller's own, not GLib's default.
 */
void
lwn_network_monitor_new_async (GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &new_source_tag);
  g_task_set_name (task, "[lwn-tray] network monitor");
  g_task_set_task_data (task, dup_implementations (), (GDestroyNotify) g_array_unref);
  /* A monitor made after a cancel must come out of the task in _finish, on
   * the caller's thread. GTask would otherwise keep it as an unread result
   * and free it with the task, which may happen on the worker thread when
   * the worker drops its reference after the callback has run. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, new_thread);
}

/**
 * lwn_network_monitor_new_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Returns: (transfer full): the monitor, or %NULL with @error set when none
 *   of the implementations could be made (%G_IO_ERROR_NOT_SUPPORTED) or the
 *   operation was cancelled. A monitor made although the operation was
 *   cancelled is released here, on the caller's thread.
 */
GNetworkMonitor *
lwn_network_monitor_new_finish (GAsyncResult *result,
                                GError **error)
{
  GNetworkMonitor *monitor;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &new_source_tag, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  monitor = g_task_propagate_pointer (G_TASK (result), error);
  if (monitor != NULL && g_cancellable_set_error_if_cancelled (g_task_get_cancellable (G_TASK (result)), error))
    g_clear_object (&monitor);
  return monitor;
}
