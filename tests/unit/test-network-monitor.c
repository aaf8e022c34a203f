/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of lwn-network-monitor: GLib's choice of monitor, made in a worker, and what a failed one leaves behind. */

#include "config.h"

#include "lwn-network-monitor.h"

/* A monitor that sets up a source on the thread-default main context, as
 * GLib's netlink monitor does, and then fails, as GLib's NetworkManager
 * monitor (built on the netlink one) does where NetworkManager is not
 * running. It remembers the thread that let it go. */
#define TEST_TYPE_FAILING_MONITOR (test_failing_monitor_get_type ())
G_DECLARE_FINAL_TYPE (TestFailingMonitor, test_failing_monitor, TEST, FAILING_MONITOR, GObject)

struct _TestFailingMonitor
{
  GObject parent_instance;

  GSource *source;
};

static GMutex finalized_lock;
static GThread *finalized_on;
static guint source_ran;

enum
{
  PROP_0,
  PROP_NETWORK_AVAILABLE,
  PROP_NETWORK_METERED,
  PROP_CONNECTIVITY,
};

static gboolean
failing_monitor_source_cb (gpointer user_data)
{
  TestFailingMonitor *self = user_data;

  /* What a netlink callback does: it reads the monitor it was given. */
  g_assert_true (TEST_IS_FAILING_MONITOR (self));
  g_atomic_int_inc (&source_ran);
  return G_SOURCE_CONTINUE;
}

static gboolean
test_failing_monitor_initable_init (GInitable *initable,
                                    GCancellable *cancellable,
                                    GError **error)
{
  TestFailingMonitor *self = TEST_FAILING_MONITOR (initable);
  g_autoptr (GMainContext) context = g_main_context_ref_thread_default ();

  self->source = g_timeout_source_new (1);
  g_source_set_callback (self->source, failing_monitor_source_cb, self, NULL);
  g_source_attach (self->source, context);

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "NetworkManager not running");
  return FALSE;
}

static void
test_failing_monitor_initable_iface_init (GInitableIface *iface)
{
  iface->init = test_failing_monitor_initable_init;
}

static void
test_failing_monitor_iface_init (GNetworkMonitorInterface *iface)
{
}

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (TestFailingMonitor, test_failing_monitor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, test_failing_monitor_initable_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_NETWORK_MONITOR, test_failing_monitor_iface_init))
/* clang-format on */

static void
test_failing_monitor_finalize (GObject *object)
{
  TestFailingMonitor *self = TEST_FAILING_MONITOR (object);

  if (self->source != NULL)
    {
      g_source_destroy (self->source);
      g_source_unref (self->source);
    }
  g_mutex_lock (&finalized_lock);
  finalized_on = g_thread_self ();
  g_mutex_unlock (&finalized_lock);

  G_OBJECT_CLASS (test_failing_monitor_parent_class)->finalize (object);
}

static void
test_failing_monitor_get_property (GObject *object,
                                   guint prop_id,
                                   GValue *value,
                                   GParamSpec *pspec)
{
  switch (prop_id)
    {
      case PROP_NETWORK_AVAILABLE:
        g_value_set_boolean (value, FALSE);
        break;
      case PROP_NETWORK_METERED:
        g_value_set_boolean (value, FALSE);
        break;
      case PROP_CONNECTIVITY:
        g_value_set_enum (value, G_NETWORK_CONNECTIVITY_LOCAL);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
test_failing_monitor_class_init (TestFailingMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = test_failing_monitor_finalize;
  object_class->get_property = test_failing_monitor_get_property;
  g_object_class_override_property (object_class, PROP_NETWORK_AVAILABLE, "network-available");
  g_object_class_override_property (object_class, PROP_NETWORK_METERED, "network-metered");
  g_object_class_override_property (object_class, PROP_CONNECTIVITY, "connectivity");
}

static void
test_failing_monitor_init (TestFailingMonitor *self)
{
}

static void
monitor_made_cb (GObject *source_object,
                 GAsyncResult *result,
                 gpointer user_data)
{
  GNetworkMonitor **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = lwn_network_monitor_new_finish (result, &error);
  g_assert_no_error (error);
}

static GThread *
get_finalized_on (void)
{
  GThread *thread;

  g_mutex_lock (&finalized_lock);
  thread = finalized_on;
  g_mutex_unlock (&finalized_lock);
  return thread;
}

static void
test_failed_dropped_on_main (void)
{
  g_autoptr (GNetworkMonitor) monitor = NULL;
  gint64 deadline;

  g_test_summary ("A monitor that fails after attaching a source to the main context (GLib's NetworkManager "
                  "monitor without NetworkManager) is let go on the main thread, between that source's "
                  "callbacks, and the next implementation is made instead");

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }

  /* For this process alone: GIO's extension points are the process's. */
  g_io_extension_point_register (G_NETWORK_MONITOR_EXTENSION_POINT_NAME);
  g_io_extension_point_implement (G_NETWORK_MONITOR_EXTENSION_POINT_NAME, TEST_TYPE_FAILING_MONITOR,
                                  "lwn-test-failing", 0);
  g_setenv ("GIO_USE_NETWORK_MONITOR", "lwn-test-failing", TRUE);

  lwn_network_monitor_new_async (NULL, monitor_made_cb, &monitor);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while ((monitor == NULL || get_finalized_on () == NULL) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_assert_nonnull (monitor);
  g_assert_false (TEST_IS_FAILING_MONITOR (monitor));
  g_assert_true (get_finalized_on () == g_thread_self ());
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/network-monitor/failed-dropped-on-main", test_failed_dropped_on_main);

  return g_test_run ();
}
