/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Poll timing (interval, feed hints, back-off, Retry-After) behind one timer, plus network and resume triggers. */

#include "config.h"

#include "lwn-network-monitor.h"
#include "lwn-scheduler-private.h"

/* Whatever a server or feed asks for, poll at least daily. */
#define MAX_SERVER_DELAY_SECONDS (24 * 60 * 60)
/* Back-off stops growing here, unless the user's interval is longer. */
#define BACKOFF_CAP_SECONDS (60 * 60)
/* Spread retries so that many clients failing together do not retry together. */
#define BACKOFF_JITTER 0.1
/* Give a network that just came up a moment to get DNS and routes in place. */
#define NETWORK_SETTLE_SECONDS 2
/* Interfaces, Wi-Fi and DHCP need a few seconds after a resume. */
#define RESUME_SETTLE_SECONDS 5
/* A flapping network or a resume storm triggers at most one refresh per window. */
#define TRIGGER_MIN_GAP_SECONDS 10

#define LOGIND_BUS_NAME "org.freedesktop.login1"
#define LOGIND_PATH "/org/freedesktop/login1"
#define LOGIND_INTERFACE "org.freedesktop.login1.Manager"

typedef enum
{
  TIMER_NONE,
  TIMER_FIRST,
  TIMER_SUCCESS,
  TIMER_FAILURE,
} TimerKind;

struct _LwnScheduler
{
  GObject parent_instance;

  guint interval;
  gboolean forced;

  /* The one poll timer. period_start is when its delay began to count,
   * kept across reschedules so a new interval applies from then. */
  guint timer_id;
  TimerKind timer_kind;
  guint next_delay;
  guint first_delay; /* the delay the last start armed its first poll with */
  gint64 period_start_us;

  guint last_hint;
  gint64 last_max_age;
  gint64 last_retry_after;
  guint failures;

  gboolean started;
  gboolean stopped;

  /* Network-back and resume triggers share one debounced source. */
  guint trigger_id;
  gboolean trigger_done;
  gint64 last_trigger_us;

  /* NULL until one is handed over, or until the default one is made: the
   * network then counts as available. */
  GNetworkMonitor *monitor;
  gulong network_changed_id;
  gboolean network_available;
  GCancellable *monitor_cancellable; /* while the default monitor is being made */
  gboolean monitor_handed;           /* set by the owner: never replaced by the default */

  GCancellable *bus_cancellable;
  GDBusConnection *system_bus;
  guint sleep_subscription_id;
};

G_DEFINE_FINAL_TYPE (LwnScheduler, lwn_scheduler, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_INTERVAL_SECONDS,
  PROP_INTERVAL_FORCED,
  PROP_NETWORK_MONITOR,
  PROP_STOPPED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  REFRESH_DUE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * lwn_scheduler_compute_success_delay:
 * @interval_seconds: the user's refresh interval
 * @interval_forced: whether the user insists on exactly that interval
 * @feed_hint_seconds: the feed's own update period (RSS `ttl`,
 *   `sy:updatePeriod`), 0 for none
 * @max_age_seconds: the response's `Cache-Control: max-age`, -1 for none
 *
 * The delay before the next poll after a good response: the interval, but
 * never sooner than the feed or the server ask (their wish capped at 24
 * hours), unless the interval is forced.
 *
 * Returns: the delay in seconds
 */
guint
lwn_scheduler_compute_success_delay (guint interval_seconds,
                                     gboolean interval_forced,
                                     guint feed_hint_seconds,
                                     gint64 max_age_seconds)
{
  guint64 server_wish = feed_hint_seconds;

  if (interval_forced)
    return interval_seconds;

  if (max_age_seconds > 0)
    server_wish = MAX (server_wish, (guint64) max_age_seconds);
  server_wish = MIN (server_wish, MAX_SERVER_DELAY_SECONDS);

  return MAX (interval_seconds, (guint) server_wish);
}

/**
 * lwn_scheduler_compute_failure_delay:
 * @interval_seconds: the user's refresh interval
 * @consecutive_failures: failures in a row, this one included
 * @retry_after_seconds: the response's `Retry-After`, -1 for none
 * @jitter_seed: seed for the ±10% jitter; the same seed gives the same delay
 *
 * The delay before retrying after a failure: one interval after the first
 * failure, then doubling with each further one, jittered by ±10% and
 * capped at an hour (or at the interval when that is longer). A
 * `Retry-After` is always honoured, up to 24 hours.
 *
 * Returns: the delay in seconds
 */
guint
lwn_scheduler_compute_failure_delay (guint interval_seconds,
                                     guint consecutive_failures,
                                     gint64 retry_after_seconds,
                                     guint32 jitter_seed)
{
  guint64 cap = MAX (BACKOFF_CAP_SECONDS, interval_seconds);
  guint64 delay = interval_seconds;

  if (consecutive_failures > 1)
    {
      g_autoptr (GRand) rand = g_rand_new_with_seed (jitter_seed);
      guint shift = MIN (consecutive_failures - 1, 32);
      double factor = g_rand_double_range (rand, 1.0 - BACKOFF_JITTER, 1.0 + BACKOFF_JITTER);

      delay = MIN ((guint64) interval_seconds << shift, cap);
      delay = (guint64) (delay * factor + 0.5);
      delay = CLAMP (delay, interval_seconds, cap);
    }

  if (retry_after_seconds >= 0)
    delay = MAX (delay, (guint64) MIN (retry_after_seconds, MAX_SERVER_DELAY_SECONDS));

  return (guint) MIN (delay, G_MAXUINT);
}

static gboolean
timer_fired_cb (gpointer user_data)
{
  LwnScheduler *self = user_data;

  self->timer_id = 0;
  self->timer_kind = TIMER_NONE;
  self->next_delay = 0;

  g_debug ("Refresh timer expired");
  g_signal_emit (self, signals[REFRESH_DUE], 0);

  return G_SOURCE_REMOVE;
}

static void
cancel_timer (LwnScheduler *self)
{
  g_clear_handle_id (&self->timer_id, g_source_remove);
  self->timer_kind = TIMER_NONE;
  self->next_delay = 0;
}

/* Replaces the pending timer. Whole seconds only: g_timeout_add_seconds
 * lets GLib batch our wakeup with others. */
static void
arm_timer (LwnScheduler *self,
           TimerKind kind,
           guint delay)
{
  cancel_timer (self);

  if (delay == 0)
    self->timer_id = g_idle_add (timer_fired_cb, self);
  else if (kind == TIMER_FIRST || (kind == TIMER_FAILURE && self->last_retry_after >= 0))
    /* A server's Retry-After is a lower bound, and feeds that start
     * together are promised their first polls a spread apart; but
     * g_timeout_add_seconds() may fire up to a quarter of a second early
     * as it rounds to GLib's whole-second tick, which can bring two first polls
     * together. A millisecond timer never fires early. */
    self->timer_id = g_timeout_add ((guint) MIN ((guint64) delay * 1000, G_MAXUINT), timer_fired_cb, self);
  else
    self->timer_id = g_timeout_add_seconds (delay, timer_fired_cb, self);
  g_source_set_name_by_id (self->timer_id, "[lwn-tray] refresh timer");

  self->timer_kind = kind;
  self->next_delay = delay;
  g_debug ("Next refresh in %u s", delay);
}

static void
begin_period (LwnScheduler *self,
              TimerKind kind,
              guint delay)
{
  self->period_start_us = g_get_monotonic_time ();
  arm_timer (self, kind, delay);
}

static void
set_stopped (LwnScheduler *self,
             gboolean stopped)
{
  if (self->stopped == stopped)
    return;

  self->stopped = stopped;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPED]);
}

static gboolean
trigger_fired_cb (gpointer user_data)
{
  LwnScheduler *self = user_data;

  self->trigger_id = 0;
  if (self->stopped)
    return G_SOURCE_REMOVE;

  self->trigger_done = TRUE;
  self->last_trigger_us = g_get_monotonic_time ();
  g_signal_emit (self, signals[REFRESH_DUE], 0);

  return G_SOURCE_REMOVE;
}

/* Asks for a refresh after @settle_seconds, folding requests into one
 * pending source and keeping TRIGGER_MIN_GAP_SECONDS between them. */
static void
schedule_trigger (LwnScheduler *self,
                  guint settle_seconds,
                  const char *reason)
{
  guint delay = settle_seconds;

  if (self->stopped || self->trigger_id != 0)
    return;

  if (self->trigger_done)
    {
      gint64 since = (g_get_monotonic_time () - self->last_trigger_us) / G_USEC_PER_SEC;

      if (since < TRIGGER_MIN_GAP_SECONDS)
        delay = MAX (delay, (guint) (TRIGGER_MIN_GAP_SECONDS - since));
    }

  g_debug ("Refresh in %u s: %s", delay, reason);
  self->trigger_id = g_timeout_add_seconds (delay, trigger_fired_cb, self);
  g_source_set_name_by_id (self->trigger_id, "[lwn-tray] refresh trigger");
}

static void
monitor_network_changed_cb (GNetworkMonitor *monitor,
                            gboolean available,
                            gpointer user_data)
{
  LwnScheduler *self = user_data;
  gboolean was_available = self->network_available;

  self->network_available = available;
  /* Before lwn_scheduler_start() nothing polls yet, so nothing is due. */
  if (!available || !self->started)
    return;

  if (!was_available)
    schedule_trigger (self, NETWORK_SETTLE_SECONDS, "the network is back");
  else if (self->failures > 0)
    schedule_trigger (self, NETWORK_SETTLE_SECONDS, "the network changed after a failure");
}

/* Follows @monitor (or none) from now on. Swapping monitors says nothing
 * about the network itself, so it never asks for a refresh. */
static void
follow_monitor (LwnScheduler *self,
                GNetworkMonitor *monitor)
{
  if (self->monitor == monitor)
    return;

  if (self->monitor != NULL)
    g_clear_signal_handler (&self->network_changed_id, self->monitor);
  g_set_object (&self->monitor, monitor);
  if (monitor != NULL)
    {
      self->network_available = g_network_monitor_get_network_available (monitor);
      self->network_changed_id = g_signal_connect (monitor, "network-changed",
                                                   G_CALLBACK (monitor_network_changed_cb), self);
    }
  else
    self->network_available = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NETWORK_MONITOR]);
}

static void
monitor_made_cb (GObject *source_object,
                 GAsyncResult *result,
                 gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GNetworkMonitor) monitor = lwn_network_monitor_new_finish (result, &error);
  LwnScheduler *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  g_clear_object (&self->monitor_cancellable);
  if (monitor == NULL)
    {
      g_debug ("%s: the network counts as always available", error->message);
      return;
    }

  g_debug ("Following the network with %s", G_OBJECT_TYPE_NAME (monitor));
  follow_monitor (self, monitor);
}

static void
logind_prepare_for_sleep_cb (GDBusConnection *connection,
                             const char *sender_name,
                             const char *object_path,
                             const char *interface_name,
                             const char *signal_name,
                             GVariant *parameters,
                             gpointer user_data)
{
  LwnScheduler *self = user_data;
  gboolean going_to_sleep;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(b)")))
    return;

  g_variant_get (parameters, "(b)", &going_to_sleep);
  if (going_to_sleep)
    return;

  /* The monotonic clock behind our timer stood still while suspended, so
   * the pending poll would come late: refresh soon instead. */
  schedule_trigger (self, RESUME_SETTLE_SECONDS, "resumed from suspend");
}

static void
system_bus_get_cb (GObject *source_object,
                   GAsyncResult *result,
                   gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  GDBusConnection *bus = g_bus_get_finish (result, &error);
  LwnScheduler *self;

  if (bus == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      g_debug ("No system bus, so a resume from suspend will not trigger a refresh: %s",
               error->message);
      return;
    }

  self = user_data;
  self->system_bus = bus;
  g_clear_object (&self->bus_cancellable);

  /* The process-wide system bus connection would otherwise exit the
   * applet whenever the system bus restarts. */
  g_dbus_connection_set_exit_on_close (bus, FALSE);

  self->sleep_subscription_id = g_dbus_connection_signal_subscribe (bus, LOGIND_BUS_NAME, LOGIND_INTERFACE,
                                                                    "PrepareForSleep", LOGIND_PATH, NULL,
                                                                    G_DBUS_SIGNAL_FLAGS_NONE,
                                                                    logind_prepare_for_sleep_cb, self, NULL);
}

static void
lwn_scheduler_dispose (GObject *object)
{
  LwnScheduler *self = LWN_SCHEDULER (object);

  cancel_timer (self);
  g_clear_handle_id (&self->trigger_id, g_source_remove);

  if (self->bus_cancellable != NULL)
    g_cancellable_cancel (self->bus_cancellable);
  g_clear_object (&self->bus_cancellable);

  if (self->sleep_subscription_id != 0)
    {
      g_dbus_connection_signal_unsubscribe (self->system_bus, self->sleep_subscription_id);
      self->sleep_subscription_id = 0;
    }
  g_clear_object (&self->system_bus);

  if (self->monitor_cancellable != NULL)
    g_cancellable_cancel (self->monitor_cancellable);
  g_clear_object (&self->monitor_cancellable);
  if (self->monitor != NULL)
    g_clear_signal_handler (&self->network_changed_id, self->monitor);
  g_clear_object (&self->monitor);

  G_OBJECT_CLASS (lwn_scheduler_parent_class)->dispose (object);
}

static void
lwn_scheduler_get_property (GObject *object,
                            guint prop_id,
                            GValue *value,
                            GParamSpec *pspec)
{
  LwnScheduler *self = LWN_SCHEDULER (object);

  switch (prop_id)
    {
      case PROP_INTERVAL_SECONDS:
        g_value_set_uint (value, self->interval);
        break;
      case PROP_INTERVAL_FORCED:
        g_value_set_boolean (value, self->forced);
        break;
      case PROP_NETWORK_MONITOR:
        g_value_set_object (value, self->monitor);
        break;
      case PROP_STOPPED:
        g_value_set_boolean (value, self->stopped);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_scheduler_set_property (GObject *object,
                            guint prop_id,
                            const GValue *value,
                            GParamSpec *pspec)
{
  LwnScheduler *self = LWN_SCHEDULER (object);

  switch (prop_id)
    {
      case PROP_INTERVAL_SECONDS:
        self->interval = g_value_get_uint (value);
        break;
      case PROP_INTERVAL_FORCED:
        self->forced = g_value_get_boolean (value);
        break;
      case PROP_NETWORK_MONITOR:
        lwn_scheduler_set_network_monitor (self, g_value_get_object (value));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_scheduler_class_init (LwnSchedulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_scheduler_dispose;
  object_class->get_property = lwn_scheduler_get_property;
  object_class->set_property = lwn_scheduler_set_property;

  /**
   * LwnScheduler:interval-seconds:
   *
   * The user's refresh interval; change it with lwn_scheduler_set_interval().
   */
  properties[PROP_INTERVAL_SECONDS] = g_param_spec_uint ("interval-seconds", NULL, NULL, 1, G_MAXUINT, 30 * 60,
                                                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LwnScheduler:interval-forced:
   *
   * Whether the interval applies even when the feed or server ask for less
   * frequent polling.
   */
  properties[PROP_INTERVAL_FORCED] = g_param_spec_boolean ("interval-forced", NULL, NULL, FALSE,
                                                           G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LwnScheduler:network-monitor:
   *
   * The monitor whose "network-changed" triggers refreshes, or %NULL while
   * there is none (the network then counts as available). When it was never
   * set (not even to %NULL) by then, lwn_scheduler_start() has one made in a
   * worker thread, of the implementation g_network_monitor_get_default()
   * would choose, and sets it once it is there.
   */
  properties[PROP_NETWORK_MONITOR] = g_param_spec_object ("network-monitor", NULL, NULL, G_TYPE_NETWORK_MONITOR,
                                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LwnScheduler:stopped:
   *
   * Whether polling stopped for good (HTTP 410 Gone).
   */
  properties[PROP_STOPPED] = g_param_spec_boolean ("stopped", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LwnScheduler::refresh-due:
   * @self: the #LwnScheduler
   *
   * Emitted on the main context when a refresh should start: the poll timer
   * expired, the network came back (or changed after a failure), or the
   * machine resumed from suspend. The handler is expected to refresh and
   * then call lwn_scheduler_record_success() or
   * lwn_scheduler_record_failure(), which arm the next timer.
   */
  signals[REFRESH_DUE] = g_signal_new ("refresh-due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lwn_scheduler_init (LwnScheduler *self)
{
  self->last_max_age = -1;
  self->last_retry_after = -1;
  self->network_available = TRUE;
}

/**
 * lwn_scheduler_new:
 * @interval_seconds: the user's refresh interval, at least 1
 * @interval_forced: whether to poll at exactly that interval even when the
 *   feed or server ask for less often
 *
 * Creates a scheduler with no timer; lwn_scheduler_start() arms the first.
 *
 * Returns: (transfer full): a new #LwnScheduler
 */
LwnScheduler *
lwn_scheduler_new (guint interval_seconds,
                   gboolean interval_forced)
{
  g_return_val_if_fail (interval_seconds > 0, NULL);

  return g_object_new (LWN_TYPE_SCHEDULER,
                       "interval-seconds", interval_seconds,
                       "interval-forced", interval_forced,
                       NULL);
}

/**
 * lwn_scheduler_set_interval:
 * @self: a #LwnScheduler
 * @interval_seconds: the new refresh interval, at least 1
 * @interval_forced: whether to poll at exactly that interval
 *
 * Changes the interval. A pending poll or retry is rescheduled as if the
 * new interval had applied since it was armed (firing at once if that time
 * has passed); the first poll after lwn_scheduler_start() keeps its delay.
 * This also resumes polling after lwn_scheduler_stop_polling().
 */
void
lwn_scheduler_set_interval (LwnScheduler *self,
                            guint interval_seconds,
                            gboolean interval_forced)
{
  guint full_delay;
  gint64 elapsed;
  gboolean changed;

  g_return_if_fail (LWN_IS_SCHEDULER (self));
  g_return_if_fail (interval_seconds > 0);

  changed = self->interval != interval_seconds || self->forced != !!interval_forced;
  self->interval = interval_seconds;
  self->forced = !!interval_forced;
  if (changed)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL_SECONDS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTERVAL_FORCED]);
    }

  if (self->stopped)
    {
      lwn_scheduler_resume_polling (self);
      return;
    }

  if (!changed || self->timer_id == 0)
    return;

  switch (self->timer_kind)
    {
      case TIMER_SUCCESS:
        full_delay = lwn_scheduler_compute_success_delay (self->interval, self->forced,
                                                          self->last_hint, self->last_max_age);
        break;
      case TIMER_FAILURE:
        full_delay = lwn_scheduler_compute_failure_delay (self->interval, self->failures,
                                                          self->last_retry_after, g_random_int ());
        break;
      case TIMER_FIRST:
      case TIMER_NONE:
      default:
        return;
    }

  elapsed = (g_get_monotonic_time () - self->period_start_us) / G_USEC_PER_SEC;
  arm_timer (self, self->timer_kind,
             (gint64) full_delay > elapsed ? (guint) (full_delay - elapsed) : 0);
}

/**
 * lwn_scheduler_set_network_monitor:
 * @self: a #LwnScheduler
 * @monitor: (nullable): the monitor to follow, or %NULL for none
 *
 * Follows @monitor's "network-changed" from now on instead of the monitor
 * followed so far, if any; with %NULL, the network counts as available.
 * A monitor set this way is never replaced by the one that
 * lwn_scheduler_start() has made, even if that arrives later.
 */
void
lwn_scheduler_set_network_monitor (LwnScheduler *self,
                                   GNetworkMonitor *monitor)
{
  g_return_if_fail (LWN_IS_SCHEDULER (self));
  g_return_if_fail (monitor == NULL || G_IS_NETWORK_MONITOR (monitor));

  self->monitor_handed = TRUE;
  if (self->monitor_cancellable != NULL)
    g_cancellable_cancel (self->monitor_cancellable);
  g_clear_object (&self->monitor_cancellable);
  follow_monitor (self, monitor);
}

/**
 * lwn_scheduler_start:
 * @self: a #LwnScheduler
 * @first_delay_seconds: seconds until the first "refresh-due"; 0 emits it
 *   from an idle callback
 *
 * Arms the first timer and starts watching the network (the
 * #LwnScheduler:network-monitor, or, when none was set, one of the kind
 * GLib's default would be, made in a worker thread) and, when a system bus
 * is there, logind's PrepareForSleep for resumes. Calling it again only
 * re-arms the first timer.
 */
void
lwn_scheduler_start (LwnScheduler *self,
                     guint first_delay_seconds)
{
  g_return_if_fail (LWN_IS_SCHEDULER (self));

  self->first_delay = first_delay_seconds;
  if (!self->stopped)
    begin_period (self, TIMER_FIRST, first_delay_seconds);

  if (self->started)
    return;
  self->started = TRUE;

  /* GLib's NetworkManager monitor may take long to make: never on this
   * thread. Until it is there, the network counts as available. */
  if (self->monitor == NULL && !self->monitor_handed)
    {
      self->monitor_cancellable = g_cancellable_new ();
      lwn_network_monitor_new_async (self->monitor_cancellable, monitor_made_cb, self);
    }

  self->bus_cancellable = g_cancellable_new ();
  g_bus_get (G_BUS_TYPE_SYSTEM, self->bus_cancellable, system_bus_get_cb, self);
}

/**
 * lwn_scheduler_record_success:
 * @self: a #LwnScheduler
 * @feed_hint_seconds: the feed's own update period, 0 for none
 * @max_age_seconds: the response's `Cache-Control: max-age`, -1 for none
 *
 * Records a good response (200 or 304): clears the failure count and
 * schedules the next poll as lwn_scheduler_compute_success_delay() says.
 * A good response after lwn_scheduler_stop_polling() (a manual refresh
 * that worked) resumes polling.
 *
 * Returns: the delay scheduled, in seconds
 */
guint
lwn_scheduler_record_success (LwnScheduler *self,
                              guint feed_hint_seconds,
                              gint64 max_age_seconds)
{
  guint delay;

  g_return_val_if_fail (LWN_IS_SCHEDULER (self), 0);

  self->failures = 0;
  self->last_hint = feed_hint_seconds;
  self->last_max_age = max_age_seconds;
  set_stopped (self, FALSE);

  delay = lwn_scheduler_compute_success_delay (self->interval, self->forced,
                                               feed_hint_seconds, max_age_seconds);
  begin_period (self, TIMER_SUCCESS, delay);
  return delay;
}

/**
 * lwn_scheduler_record_failure:
 * @self: a #LwnScheduler
 * @retry_after_seconds: a 429 or 503 response's `Retry-After`, -1 for none
 *
 * Records a failed refresh and schedules a retry with back-off, as
 * lwn_scheduler_compute_failure_delay() says with a random jitter seed.
 * Nothing is scheduled while polling is stopped.
 *
 * Returns: the delay scheduled, in seconds; 0 when polling is stopped
 */
guint
lwn_scheduler_record_failure (LwnScheduler *self,
                              gint64 retry_after_seconds)
{
  guint delay;

  g_return_val_if_fail (LWN_IS_SCHEDULER (self), 0);

  if (self->failures < G_MAXUINT)
    self->failures++;
  self->last_retry_after = retry_after_seconds;

  if (self->stopped)
    return 0;

  delay = lwn_scheduler_compute_failure_delay (self->interval, self->failures,
                                               retry_after_seconds, g_random_int ());
  begin_period (self, TIMER_FAILURE, delay);
  return delay;
}

/**
 * lwn_scheduler_stop_polling:
 * @self: a #LwnScheduler
 *
 * Stops polling for good, as after HTTP 410 Gone: removes the timer and
 * ignores network and resume events until lwn_scheduler_set_interval(),
 * lwn_scheduler_resume_polling() or a successful manual refresh.
 */
void
lwn_scheduler_stop_polling (LwnScheduler *self)
{
  g_return_if_fail (LWN_IS_SCHEDULER (self));

  cancel_timer (self);
  g_clear_handle_id (&self->trigger_id, g_source_remove);
  set_stopped (self, TRUE);
}

/**
 * lwn_scheduler_resume_polling:
 * @self: a #LwnScheduler
 *
 * Undoes lwn_scheduler_stop_polling(): the next poll comes one interval
 * from now (or as the last good response asked). Does nothing if polling
 * was not stopped.
 */
void
lwn_scheduler_resume_polling (LwnScheduler *self)
{
  g_return_if_fail (LWN_IS_SCHEDULER (self));

  if (!self->stopped)
    return;

  set_stopped (self, FALSE);
  if (self->started)
    begin_period (self, TIMER_SUCCESS,
                  lwn_scheduler_compute_success_delay (self->interval, self->forced,
                                                       self->last_hint, self->last_max_age));
}

/**
 * lwn_scheduler_forget_feed:
 * @self: a #LwnScheduler
 *
 * Forgets what the feed polled so far and its server said: its failures,
 * its update period, its `max-age` and its `Retry-After`, as when another
 * feed is chosen, so that a failure of the next one is retried after one
 * interval rather than after the old one's back-off. The pending timer is
 * kept: the caller is expected to poll now, and its answer re-arms it.
 */
void
lwn_scheduler_forget_feed (LwnScheduler *self)
{
  g_return_if_fail (LWN_IS_SCHEDULER (self));

  self->failures = 0;
  self->last_hint = 0;
  self->last_max_age = -1;
  self->last_retry_after = -1;
}

/**
 * lwn_scheduler_is_stopped:
 * @self: a #LwnScheduler
 *
 * Returns: %TRUE if polling was stopped with lwn_scheduler_stop_polling()
 */
gboolean
lwn_scheduler_is_stopped (LwnScheduler *self)
{
  g_return_val_if_fail (LWN_IS_SCHEDULER (self), FALSE);

  return self->stopped;
}

/**
 * lwn_scheduler_get_next_delay:
 * @self: a #LwnScheduler
 *
 * Returns: the delay, in seconds, the pending poll timer was last armed
 *   with; 0 if none is pending (or it fires from an idle callback)
 */
guint
lwn_scheduler_get_next_delay (LwnScheduler *self)
{
  g_return_val_if_fail (LWN_IS_SCHEDULER (self), 0);

  return self->timer_id != 0 ? self->next_delay : 0;
}

/**
 * lwn_scheduler_get_consecutive_failures:
 * @self: a #LwnScheduler
 *
 * Returns: the failures recorded since the last success
 */
guint
lwn_scheduler_get_consecutive_failures (LwnScheduler *self)
{
  g_return_val_if_fail (LWN_IS_SCHEDULER (self), 0);

  return self->failures;
}

/**
 * lwn_scheduler_get_first_delay:
 * @self: a #LwnScheduler
 *
 * Returns: the delay, in seconds, that the last lwn_scheduler_start() gave
 *   the first poll, also once that poll is done
 */
guint
lwn_scheduler_get_first_delay (LwnScheduler *self)
{
  g_return_val_if_fail (LWN_IS_SCHEDULER (self), 0);

  return self->first_delay;
}
