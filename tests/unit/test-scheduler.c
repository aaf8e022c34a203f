/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnScheduler: the delay maths, the timer, throttling, and network and resume triggers. */

#include "config.h"

#include "lwn-scheduler-private.h"

#define DAY (24 * 60 * 60)

/* A network monitor the tests switch on and off. */
#define TEST_TYPE_NETWORK_MONITOR (test_network_monitor_get_type ())
G_DECLARE_FINAL_TYPE (TestNetworkMonitor, test_network_monitor, TEST, NETWORK_MONITOR, GObject)

struct _TestNetworkMonitor
{
  GObject parent_instance;
  gboolean available;
};

enum
{
  MONITOR_PROP_0,
  MONITOR_PROP_NETWORK_AVAILABLE,
  MONITOR_PROP_NETWORK_METERED,
  MONITOR_PROP_CONNECTIVITY,
};

/* GIO makes its default monitor with g_initable_new(), never the tests'
 * test_network_monitor_new(): made that way, by a test that asked for it
 * with use_gated_default_monitor(), the monitor keeps its maker waiting
 * until the test opens the gate, and remembers which thread made it. */
static struct
{
  GMutex lock;
  GCond cond;
  gboolean open;
  GThread *maker;
  TestNetworkMonitor *made;
} gate;

static gboolean
test_network_monitor_initable_init (GInitable *initable,
                                    GCancellable *cancellable,
                                    GError **error)
{
  TestNetworkMonitor *self = TEST_NETWORK_MONITOR (initable);
  /* Bounded: a scheduler that waits for the monitor on its own thread then
   * fails its test instead of hanging it. */
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_mutex_lock (&gate.lock);
  gate.maker = g_thread_self ();
  while (!gate.open && g_cond_wait_until (&gate.cond, &gate.lock, deadline))
    ;
  gate.made = self;
  g_mutex_unlock (&gate.lock);

  /* The network is down when it arrives, so that the tests can bring it up. */
  self->available = FALSE;
  return TRUE;
}

static void
test_network_monitor_initable_iface_init (GInitableIface *iface)
{
  iface->init = test_network_monitor_initable_init;
}

static void
test_network_monitor_iface_init (GNetworkMonitorInterface *iface)
{
}

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (TestNetworkMonitor, test_network_monitor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, test_network_monitor_initable_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_NETWORK_MONITOR, test_network_monitor_iface_init))
/* clang-format on */

static void
test_network_monitor_get_property (GObject *object,
                                   guint prop_id,
                                   GValue *value,
                                   GParamSpec *pspec)
{
  TestNetworkMonitor *self = TEST_NETWORK_MONITOR (object);

  switch (prop_id)
    {
      case MONITOR_PROP_NETWORK_AVAILABLE:
        g_value_set_boolean (value, self->available);
        break;
      case MONITOR_PROP_NETWORK_METERED:
        g_value_set_boolean (value, FALSE);
        break;
      case MONITOR_PROP_CONNECTIVITY:
        g_value_set_enum (value, self->available ? G_NETWORK_CONNECTIVITY_FULL : G_NETWORK_CONNECTIVITY_LOCAL);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
test_network_monitor_class_init (TestNetworkMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = test_network_monitor_get_property;
  g_object_class_override_property (object_class, MONITOR_PROP_NETWORK_AVAILABLE, "network-available");
  g_object_class_override_property (object_class, MONITOR_PROP_NETWORK_METERED, "network-metered");
  g_object_class_override_property (object_class, MONITOR_PROP_CONNECTIVITY, "connectivity");
}

static void
test_network_monitor_init (TestNetworkMonitor *self)
{
  self->available = TRUE;
}

static TestNetworkMonitor *
test_network_monitor_new (gboolean available)
{
  TestNetworkMonitor *monitor = g_object_new (TEST_TYPE_NETWORK_MONITOR, NULL);

  monitor->available = available;
  return monitor;
}

static void
test_network_monitor_set_available (TestNetworkMonitor *self,
                                    gboolean available)
{
  self->available = available;
  g_signal_emit_by_name (self, "network-changed", available);
}

/* From here on, g_network_monitor_get_default() makes a gated TestNetworkMonitor.
 * For subprocesses: GIO makes the default monitor once per process. */
static void
use_gated_default_monitor (void)
{
  g_io_extension_point_register (G_NETWORK_MONITOR_EXTENSION_POINT_NAME);
  g_io_extension_point_implement (G_NETWORK_MONITOR_EXTENSION_POINT_NAME, TEST_TYPE_NETWORK_MONITOR,
                                  "lwn-test-gated", 0);
  g_setenv ("GIO_USE_NETWORK_MONITOR", "lwn-test-gated", TRUE);
}

static void
gate_open (void)
{
  g_mutex_lock (&gate.lock);
  gate.open = TRUE;
  g_cond_broadcast (&gate.cond);
  g_mutex_unlock (&gate.lock);
}

static TestNetworkMonitor *
gate_get_made (void)
{
  TestNetworkMonitor *made;

  g_mutex_lock (&gate.lock);
  made = gate.made;
  g_mutex_unlock (&gate.lock);
  return made;
}

static GNetworkMonitor *
scheduler_dup_monitor (LwnScheduler *scheduler)
{
  GNetworkMonitor *monitor = NULL;

  g_object_get (scheduler, "network-monitor", &monitor, NULL);
  return monitor;
}

static gboolean
wake_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop for up to five seconds until predicate() holds. */
static gboolean
iterate_until (gboolean (*predicate) (gpointer),
               gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (20, wake_cb, NULL);
  gboolean holds;

  while (!(holds = predicate (data)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_id);
  return holds;
}

static gboolean
has_monitor (gpointer data)
{
  g_autoptr (GNetworkMonitor) monitor = scheduler_dup_monitor (data);

  return monitor != NULL;
}

static gboolean
default_made (gpointer data)
{
  return gate_get_made () != NULL;
}

static LwnScheduler *
scheduler_new_with_monitor (guint interval_seconds,
                            TestNetworkMonitor *monitor)
{
  return g_object_new (LWN_TYPE_SCHEDULER,
                       "interval-seconds", interval_seconds,
                       "network-monitor", monitor,
                       NULL);
}

/* Counts "refresh-due" and runs the main loop until enough arrived or time ran out. */
typedef struct
{
  GMainLoop *loop;
  guint count;
  guint wanted;
  guint timeout_id;
} Waiter;

static void
scheduler_refresh_due_cb (LwnScheduler *scheduler,
                          gpointer user_data)
{
  Waiter *waiter = user_data;

  waiter->count++;
  if (waiter->count >= waiter->wanted)
    g_main_loop_quit (waiter->loop);
}

static void
waiter_init (Waiter *waiter,
             LwnScheduler *scheduler)
{
  waiter->loop = g_main_loop_new (NULL, FALSE);
  waiter->count = 0;
  waiter->wanted = 0;
  waiter->timeout_id = 0;
  g_signal_connect (scheduler, "refresh-due", G_CALLBACK (scheduler_refresh_due_cb), waiter);
}

static void
waiter_clear (Waiter *waiter)
{
  g_clear_pointer (&waiter->loop, g_main_loop_unref);
}

static gboolean
waiter_timeout_cb (gpointer user_data)
{
  Waiter *waiter = user_data;

  waiter->timeout_id = 0;
  g_main_loop_quit (waiter->loop);
  return G_SOURCE_REMOVE;
}

static void
waiter_run (Waiter *waiter,
            guint wanted,
            guint timeout_seconds)
{
  if (waiter->count >= wanted)
    return;

  waiter->wanted = wanted;
  waiter->timeout_id = g_timeout_add_seconds (timeout_seconds, waiter_timeout_cb, waiter);
  g_main_loop_run (waiter->loop);
  g_clear_handle_id (&waiter->timeout_id, g_source_remove);
}

typedef struct
{
  guint interval;
  gboolean forced;
  guint hint;
  gint64 max_age;
  guint expected;
} SuccessCase;

static const SuccessCase success_cases[] = {
  { 1800, FALSE, 0, -1, 1800 },
  { 1800, FALSE, 0, 0, 1800 },
  { 1800, FALSE, 600, 300, 1800 },
  { 1800, FALSE, 3600, -1, 3600 },
  { 1800, FALSE, 0, 7200, 7200 },
  { 1800, FALSE, 3600, 7200, 7200 },
  { 1800, FALSE, 7200, 3600, 7200 },
  { 1800, TRUE, 3600, 7200, 1800 },
  { 60, TRUE, 0, -1, 60 },
  /* What a server or feed asks for is capped at a day... */
  { 1800, FALSE, 0, 10 * DAY, DAY },
  { 1800, FALSE, 0, G_MAXINT64, DAY },
  { 1800, FALSE, 3 * DAY, -1, DAY },
  /* ...but the user's own interval is not. */
  { 2 * DAY, FALSE, 0, 10 * DAY, 2 * DAY },
};

static void
test_success_delay (gconstpointer data)
{
  const SuccessCase *c = data;

  g_test_summary ("After a good response: the interval, never sooner than feed hint or max-age (capped at a day) unless forced.");

  g_assert_cmpuint (lwn_scheduler_compute_success_delay (c->interval, c->forced, c->hint, c->max_age),
                    ==, c->expected);
}

typedef struct
{
  const char *name;
  guint interval;
  guint failures;
  gint64 retry_after;
  guint min;
  guint max;
} FailureCase;

static const FailureCase failure_cases[] = {
  { "first", 600, 1, -1, 600, 600 },
  { "none-yet", 600, 0, -1, 600, 600 },
  { "second", 600, 2, -1, 1080, 1320 },
  { "third", 600, 3, -1, 2160, 2640 },
  { "capped", 600, 4, -1, 3240, 3600 },
  { "capped-many", 600, 1000, -1, 3240, 3600 },
  { "capped-max", 600, G_MAXUINT, -1, 3240, 3600 },
  { "cap-never-below-interval", 3000, 2, -1, 3240, 3600 },
  { "long-interval-first", 7200, 1, -1, 7200, 7200 },
  { "long-interval-capped", 7200, 5, -1, 7200, 7200 },
  { "retry-after", 600, 1, 5000, 5000, 5000 },
  { "retry-after-zero", 600, 1, 0, 600, 600 },
  { "retry-after-shorter", 600, 2, 10, 1080, 1320 },
  { "retry-after-beyond-cap", 600, 4, 7200, 7200, 7200 },
  { "retry-after-capped", 600, 1, 10 * DAY, DAY, DAY },
  { "retry-after-huge", 600, 3, G_MAXINT64, DAY, DAY },
};

static void
test_failure_delay (gconstpointer data)
{
  const FailureCase *c = data;

  g_test_summary ("After a failure: one interval, then doubling ±10%, capped at MAX (1 h, interval); Retry-After honoured up to a day.");

  for (guint32 seed = 0; seed < 200; seed++)
    {
      guint delay = lwn_scheduler_compute_failure_delay (c->interval, c->failures, c->retry_after, seed);

      g_assert_cmpuint (delay, >=, c->min);
      g_assert_cmpuint (delay, <=, c->max);
      g_assert_cmpuint (lwn_scheduler_compute_failure_delay (c->interval, c->failures, c->retry_after, seed),
                        ==, delay);
    }
}

static void
test_failure_jitter (void)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint below = 0;
  guint above = 0;

  g_test_summary ("The back-off jitter spreads retries on both sides of the doubled delay.");

  for (guint32 seed = 0; seed < 200; seed++)
    {
      guint delay = lwn_scheduler_compute_failure_delay (600, 2, -1, seed);

      g_hash_table_add (seen, GUINT_TO_POINTER (delay));
      below += delay < 1200;
      above += delay > 1200;
    }

  g_assert_cmpuint (g_hash_table_size (seen), >, 20);
  g_assert_cmpuint (below, >, 20);
  g_assert_cmpuint (above, >, 20);
}

static void
test_record (void)
{
  g_autoptr (LwnScheduler) scheduler = lwn_scheduler_new (600, FALSE);
  guint delay;

  g_test_summary ("Recording results arms the timer with the computed delay, and a success resets the back-off.");

  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 0);

  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 0, -1), ==, 600);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 600);
  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 3600, 60), ==, 3600);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 3600);

  g_assert_cmpuint (lwn_scheduler_record_failure (scheduler, -1), ==, 600);
  g_assert_cmpuint (lwn_scheduler_get_consecutive_failures (scheduler), ==, 1);
  delay = lwn_scheduler_record_failure (scheduler, -1);
  g_assert_cmpuint (delay, >=, 1080);
  g_assert_cmpuint (delay, <=, 1320);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, delay);
  g_assert_cmpuint (lwn_scheduler_record_failure (scheduler, 5000), ==, 5000);
  g_assert_cmpuint (lwn_scheduler_get_consecutive_failures (scheduler), ==, 3);

  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 0, -1), ==, 600);
  g_assert_cmpuint (lwn_scheduler_get_consecutive_failures (scheduler), ==, 0);
  g_assert_cmpuint (lwn_scheduler_record_failure (scheduler, -1), ==, 600);
}

static void
stopped_notify_cb (GObject *object,
                   GParamSpec *pspec,
                   gpointer user_data)
{
  guint *notifications = user_data;

  (*notifications)++;
}

static void
test_stop_polling (void)
{
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (TRUE);
  g_autoptr (LwnScheduler) scheduler = scheduler_new_with_monitor (600, monitor);
  guint notifications = 0;

  g_test_summary ("Stopping (HTTP 410) leaves no timer until polling is resumed, the interval is set, or a refresh succeeds.");

  g_signal_connect (scheduler, "notify::stopped", G_CALLBACK (stopped_notify_cb), &notifications);
  lwn_scheduler_start (scheduler, 30);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 30);

  lwn_scheduler_stop_polling (scheduler);
  g_assert_true (lwn_scheduler_is_stopped (scheduler));
  g_assert_cmpuint (notifications, ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 0);
  g_assert_cmpuint (lwn_scheduler_record_failure (scheduler, -1), ==, 0);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 0);
  lwn_scheduler_start (scheduler, 0);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 0);
  g_assert_true (lwn_scheduler_is_stopped (scheduler));

  lwn_scheduler_resume_polling (scheduler);
  g_assert_true (!lwn_scheduler_is_stopped (scheduler));
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 600);

  lwn_scheduler_stop_polling (scheduler);
  lwn_scheduler_set_interval (scheduler, 900, FALSE);
  g_assert_true (!lwn_scheduler_is_stopped (scheduler));
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 900);

  lwn_scheduler_stop_polling (scheduler);
  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 0, -1), ==, 900);
  g_assert_true (!lwn_scheduler_is_stopped (scheduler));
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 900);
  g_assert_cmpuint (notifications, ==, 6);
}

static void
test_timer_fires (void)
{
  g_autoptr (LwnScheduler) scheduler = lwn_scheduler_new (1, TRUE);
  Waiter waiter;

  g_test_summary ("\"refresh-due\" is emitted once when a one-second timer expires, and the timer is then gone.");

  waiter_init (&waiter, scheduler);
  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 3600, 3600), ==, 1);

  waiter_run (&waiter, 1, 5);
  g_assert_cmpuint (waiter.count, ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 0);

  waiter_clear (&waiter);
}

static void
test_start_idle (void)
{
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (TRUE);
  g_autoptr (LwnScheduler) scheduler = scheduler_new_with_monitor (600, monitor);
  Waiter waiter;

  g_test_summary ("Starting with no first delay asks for a refresh from an idle callback.");

  waiter_init (&waiter, scheduler);
  lwn_scheduler_start (scheduler, 0);
  g_assert_cmpuint (waiter.count, ==, 0);

  waiter_run (&waiter, 1, 5);
  g_assert_cmpuint (waiter.count, ==, 1);

  waiter_clear (&waiter);
}

static void
test_start_delay_not_early (void)
{
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (TRUE);
  g_autoptr (LwnScheduler) scheduler = scheduler_new_with_monitor (600, monitor);
  Waiter waiter;
  gint64 started;

  g_test_summary ("A first poll delayed by whole seconds fires no earlier than that: feeds that start "
                  "together are promised their first polls a spread apart, and GLib's whole-second "
                  "timers may fire a quarter of a second early. A lower bound holds however busy the machine.");

  waiter_init (&waiter, scheduler);
  /* Each round starts an eighth of a second after the last one fired: on a
   * whole-second timer, that is where GLib rounds down. */
  for (guint round = 0; round < 4; round++)
    {
      started = g_get_monotonic_time ();
      lwn_scheduler_start (scheduler, 1);
      g_assert_cmpuint (lwn_scheduler_get_first_delay (scheduler), ==, 1);
      waiter_run (&waiter, round + 1, 10);
      g_assert_cmpuint (waiter.count, ==, round + 1);
      g_assert_cmpint (g_get_monotonic_time () - started, >=, G_USEC_PER_SEC);
      g_usleep (G_USEC_PER_SEC / 8);
    }

  waiter_clear (&waiter);
}

static void
test_set_interval (void)
{
  g_autoptr (LwnScheduler) scheduler = lwn_scheduler_new (600, FALSE);
  GValue interval = G_VALUE_INIT;
  Waiter waiter;

  g_test_summary ("Changing the interval reschedules the pending poll or retry.");

  waiter_init (&waiter, scheduler);

  g_assert_cmpuint (lwn_scheduler_record_success (scheduler, 0, 3600), ==, 3600);
  lwn_scheduler_set_interval (scheduler, 300, FALSE);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 3600);
  lwn_scheduler_set_interval (scheduler, 300, TRUE);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 300);
  lwn_scheduler_set_interval (scheduler, 7200, FALSE);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 7200);

  g_value_init (&interval, G_TYPE_UINT);
  g_object_get_property (G_OBJECT (scheduler), "interval-seconds", &interval);
  g_assert_cmpuint (g_value_get_uint (&interval), ==, 7200);
  g_value_unset (&interval);

  g_assert_cmpuint (lwn_scheduler_record_failure (scheduler, -1), ==, 7200);
  lwn_scheduler_set_interval (scheduler, 900, FALSE);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 900);

  lwn_scheduler_set_interval (scheduler, 1, TRUE);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 1);
  waiter_run (&waiter, 1, 5);
  g_assert_cmpuint (waiter.count, ==, 1);

  waiter_clear (&waiter);
}

static void
test_network_back (void)
{
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (FALSE);
  g_autoptr (LwnScheduler) scheduler = scheduler_new_with_monitor (600, monitor);
  Waiter waiter;

  g_test_summary ("The network coming back asks for one refresh, however much it flaps, and not again within 10 s.");

  waiter_init (&waiter, scheduler);
  lwn_scheduler_start (scheduler, 3600);

  test_network_monitor_set_available (monitor, TRUE);
  test_network_monitor_set_available (monitor, FALSE);
  test_network_monitor_set_available (monitor, TRUE);
  test_network_monitor_set_available (monitor, TRUE);
  waiter_run (&waiter, 1, 8);
  g_assert_cmpuint (waiter.count, ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 3600);

  test_network_monitor_set_available (monitor, FALSE);
  test_network_monitor_set_available (monitor, TRUE);
  waiter_run (&waiter, 2, 4);
  g_assert_cmpuint (waiter.count, ==, 1);

  waiter_clear (&waiter);
}

static void
test_network_after_failure (void)
{
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (TRUE);
  g_autoptr (LwnScheduler) scheduler = scheduler_new_with_monitor (600, monitor);
  Waiter waiter;

  g_test_summary ("A network change while online asks for a refresh only after a failure, and never when stopped.");

  waiter_init (&waiter, scheduler);
  lwn_scheduler_start (scheduler, 3600);

  test_network_monitor_set_available (monitor, TRUE);
  waiter_run (&waiter, 1, 4);
  g_assert_cmpuint (waiter.count, ==, 0);

  lwn_scheduler_record_failure (scheduler, -1);
  lwn_scheduler_stop_polling (scheduler);
  test_network_monitor_set_available (monitor, FALSE);
  test_network_monitor_set_available (monitor, TRUE);
  waiter_run (&waiter, 1, 4);
  g_assert_cmpuint (waiter.count, ==, 0);

  lwn_scheduler_resume_polling (scheduler);
  lwn_scheduler_record_failure (scheduler, -1);
  test_network_monitor_set_available (monitor, TRUE);
  waiter_run (&waiter, 1, 8);
  g_assert_cmpuint (waiter.count, ==, 1);

  waiter_clear (&waiter);
}

static void
test_network_late_default (void)
{
  g_autoptr (LwnScheduler) scheduler = NULL;
  g_autoptr (GNetworkMonitor) monitor = NULL;
  gint64 started;
  Waiter waiter;

  g_test_summary ("The default network monitor is made in a worker thread (GLib's NetworkManager monitor waits "
                  "for the system bus): the scheduler polls before it arrives and follows it once it is there.");

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }

  use_gated_default_monitor ();
  scheduler = lwn_scheduler_new (600, FALSE);
  waiter_init (&waiter, scheduler);

  started = g_get_monotonic_time ();
  lwn_scheduler_start (scheduler, 0);
  g_assert_cmpint (g_get_monotonic_time () - started, <, G_USEC_PER_SEC);

  /* Polling does not wait for the monitor. */
  waiter_run (&waiter, 1, 5);
  g_assert_cmpuint (waiter.count, ==, 1);
  monitor = scheduler_dup_monitor (scheduler);
  g_assert_null (monitor);

  gate_open ();
  g_assert_true (iterate_until (has_monitor, scheduler));
  monitor = scheduler_dup_monitor (scheduler);
  g_assert_true (monitor == G_NETWORK_MONITOR (gate_get_made ()));
  g_assert_true (gate.maker != g_thread_self ());

  /* It arrived saying the network is down; the network coming back asks for a refresh. */
  test_network_monitor_set_available (TEST_NETWORK_MONITOR (monitor), TRUE);
  waiter_run (&waiter, 2, 8);
  g_assert_cmpuint (waiter.count, ==, 2);

  waiter_clear (&waiter);
}

static void
test_network_handed_later (void)
{
  g_autoptr (TestNetworkMonitor) handed = test_network_monitor_new (FALSE);
  g_autoptr (LwnScheduler) scheduler = NULL;
  g_autoptr (GNetworkMonitor) monitor = NULL;
  Waiter waiter;

  g_test_summary ("A monitor handed to a running scheduler is followed, and the default one arriving after it "
                  "does not replace it; without any, the network counts as available.");

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }

  use_gated_default_monitor ();
  scheduler = lwn_scheduler_new (600, FALSE);
  waiter_init (&waiter, scheduler);
  lwn_scheduler_start (scheduler, 3600);

  lwn_scheduler_set_network_monitor (scheduler, G_NETWORK_MONITOR (handed));
  gate_open ();
  g_assert_true (iterate_until (default_made, NULL));
  /* Whatever the worker's answer does, it has done it by now. */
  waiter_run (&waiter, 1, 1);
  monitor = scheduler_dup_monitor (scheduler);
  g_assert_true (monitor == G_NETWORK_MONITOR (handed));

  test_network_monitor_set_available (handed, TRUE);
  waiter_run (&waiter, 1, 8);
  g_assert_cmpuint (waiter.count, ==, 1);

  /* Dropping the monitor: polling goes on as it was. */
  lwn_scheduler_set_network_monitor (scheduler, NULL);
  g_clear_object (&monitor);
  monitor = scheduler_dup_monitor (scheduler);
  g_assert_null (monitor);
  test_network_monitor_set_available (handed, FALSE);
  test_network_monitor_set_available (handed, TRUE);
  waiter_run (&waiter, 2, 4);
  g_assert_cmpuint (waiter.count, ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 3600);

  waiter_clear (&waiter);
}

static gboolean
emit_resume_cb (gpointer user_data)
{
  GDBusConnection *connection = user_data;
  g_autoptr (GError) error = NULL;

  g_dbus_connection_emit_signal (connection, NULL, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", "PrepareForSleep",
                                 g_variant_new ("(b)", FALSE), &error);
  g_assert_no_error (error);

  return G_SOURCE_CONTINUE;
}

static void
test_resume (void)
{
  g_autoptr (GTestDBus) bus = NULL;
  g_autoptr (GDBusConnection) connection = NULL;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TestNetworkMonitor) monitor = test_network_monitor_new (TRUE);
  g_autoptr (LwnScheduler) scheduler = NULL;
  g_autofree char *dbus_daemon = g_find_program_in_path ("dbus-daemon");
  g_autofree char *old_address = g_strdup (g_getenv ("DBUS_SYSTEM_BUS_ADDRESS"));
  guint emitter_id;
  guint32 request_result;
  Waiter waiter;

  g_test_summary ("logind's PrepareForSleep(false) on the system bus asks for a refresh a few seconds later.");

  if (dbus_daemon == NULL)
    {
      g_test_skip ("dbus-daemon is not installed");
      return;
    }

  /* A fresh process, so that the process-wide system bus connection is
   * not one that earlier tests' schedulers tried, and cancelled, to open. */
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }

  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);

  /* The scheduler gets this same process-wide connection from g_bus_get(). */
  connection = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_set_exit_on_close (connection, FALSE);

  reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.login1", 0),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &request_result);
  g_assert_cmpuint (request_result, ==, 1);

  scheduler = scheduler_new_with_monitor (600, monitor);
  waiter_init (&waiter, scheduler);
  lwn_scheduler_start (scheduler, 3600);

  /* Keep resuming until the subscription is in place; repeats fold into one refresh. */
  emitter_id = g_timeout_add_seconds (1, emit_resume_cb, connection);
  waiter_run (&waiter, 1, 12);
  g_source_remove (emitter_id);
  g_assert_cmpuint (waiter.count, ==, 1);
  g_assert_cmpuint (lwn_scheduler_get_next_delay (scheduler), ==, 3600);

  waiter_clear (&waiter);
  g_clear_object (&scheduler);
  g_dbus_connection_close_sync (connection, NULL, NULL);
  g_clear_object (&connection);
  g_test_dbus_down (bus);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", old_address, TRUE);
}

int
main (int argc,
      char *argv[])
{
  /* Never reach the real system bus, whatever the machine runs. */
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/lwn-tray-test/system_bus_socket", TRUE);

  g_test_init (&argc, &argv, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (success_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/scheduler/success-delay/%" G_GSIZE_FORMAT, i);

      g_test_add_data_func (path, &success_cases[i], test_success_delay);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (failure_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/scheduler/failure-delay/%s", failure_cases[i].name);

      g_test_add_data_func (path, &failure_cases[i], test_failure_delay);
    }
  g_test_add_func ("/scheduler/failure-delay/jitter", test_failure_jitter);
  g_test_add_func ("/scheduler/record", test_record);
  g_test_add_func ("/scheduler/stop-polling", test_stop_polling);
  g_test_add_func ("/scheduler/timer/fires", test_timer_fires);
  g_test_add_func ("/scheduler/timer/start-idle", test_start_idle);
  g_test_add_func ("/scheduler/timer/start-delay-not-early", test_start_delay_not_early);
  g_test_add_func ("/scheduler/timer/set-interval", test_set_interval);
  g_test_add_func ("/scheduler/network/back", test_network_back);
  g_test_add_func ("/scheduler/network/after-failure", test_network_after_failure);
  g_test_add_func ("/scheduler/network/late-default", test_network_late_default);
  g_test_add_func ("/scheduler/network/handed-later", test_network_handed_later);
  g_test_add_func ("/scheduler/resume", test_resume);

  return g_test_run ();
}
