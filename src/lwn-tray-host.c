/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file watches the name of the StatusNotifierWatcher, so that the tray learns when a host comes and
 * goes. When no host has taken the indicator some seconds after there was none to take it, ::missing says
 * so, once in a run; a registry that restarts within those seconds does not count as missing. After that,
 * ::found says when an icon shows. */

#include "config.h"

#include "lwn-tray-host.h"

/* A tray host may take this long to appear, or to come back after it left,
 * before the person is told there is none. Plasma's registry restarts in
 * about 2 s. */
#define GRACE_SECONDS 5
#define STATUS_NOTIFIER_WATCHER "org.kde.StatusNotifierWatcher"

struct _LwnTrayHost
{
  GObject parent_instance;

  LwnTray *tray;
  guint watcher_id;
  guint grace_id;
  gboolean told;
};

G_DEFINE_FINAL_TYPE (LwnTrayHost, lwn_tray_host, G_TYPE_OBJECT)

enum
{
  SIGNAL_MISSING,
  SIGNAL_FOUND,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
grace_expired_cb (gpointer user_data)
{
  LwnTrayHost *self = user_data;

  self->grace_id = 0;
  if (lwn_tray_is_connected (self->tray) || self->told)
    return G_SOURCE_REMOVE;

  self->told = TRUE;
  g_signal_emit (self, signals[SIGNAL_MISSING], 0);
  return G_SOURCE_REMOVE;
}

static void
watcher_appeared_cb (GDBusConnection *connection,
                     const char *name,
                     const char *owner,
                     gpointer user_data)
{
  LwnTrayHost *self = user_data;

  g_debug ("Tray host watcher %s appeared", owner);
  g_clear_handle_id (&self->grace_id, g_source_remove);
  lwn_tray_set_host_present (self->tray, TRUE);
}

static void
watcher_vanished_cb (GDBusConnection *connection,
                     const char *name,
                     gpointer user_data)
{
  LwnTrayHost *self = user_data;

  g_debug ("No tray host watcher on the bus");
  lwn_tray_set_host_present (self->tray, FALSE);
  if (self->grace_id == 0 && !self->told)
    self->grace_id = g_timeout_add_seconds (GRACE_SECONDS, grace_expired_cb, self);
}

static void
connection_changed_cb (LwnTray *tray,
                       gboolean connected,
                       LwnTrayHost *self)
{
  if (!connected)
    return;

  g_clear_handle_id (&self->grace_id, g_source_remove);
  if (self->told)
    g_signal_emit (self, signals[SIGNAL_FOUND], 0);
}

static void
lwn_tray_host_dispose (GObject *object)
{
  LwnTrayHost *self = LWN_TRAY_HOST (object);

  g_clear_handle_id (&self->grace_id, g_source_remove);
  g_clear_handle_id (&self->watcher_id, g_bus_unwatch_name);
  if (self->tray != NULL)
    g_signal_handlers_disconnect_by_data (self->tray, self);
  g_clear_object (&self->tray);

  G_OBJECT_CLASS (lwn_tray_host_parent_class)->dispose (object);
}

static void
lwn_tray_host_class_init (LwnTrayHostClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lwn_tray_host_dispose;

  /**
   * LwnTrayHost::missing:
   *
   * Says that no tray host has shown the indicator for some seconds, either
   * since the last host left or since the start. It is emitted at most once.
   */
  signals[SIGNAL_MISSING] = g_signal_new ("missing", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  /**
   * LwnTrayHost::found:
   *
   * Says that a tray host shows the indicator after #LwnTrayHost::missing
   * said there was none. It is emitted each time the icon shows again.
   */
  signals[SIGNAL_FOUND] = g_signal_new ("found", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 0);
}

static void
lwn_tray_host_init (LwnTrayHost *self)
{
}

/**
 * lwn_tray_host_new:
 * @session_bus: the bus that tray hosts are on
 * @tray: the indicator to tell whether a host is present
 *
 * Returns: (transfer full): a watch of the bus, which starts watching at once
 */
LwnTrayHost *
lwn_tray_host_new (GDBusConnection *session_bus,
                   LwnTray *tray)
{
  LwnTrayHost *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (session_bus), NULL);
  g_return_val_if_fail (LWN_IS_TRAY (tray), NULL);

  self = g_object_new (LWN_TYPE_TRAY_HOST, NULL);
  self->tray = g_object_ref (tray);
  g_signal_connect (tray, "connection-changed", G_CALLBACK (connection_changed_cb), self);
  self->watcher_id = g_bus_watch_name_on_connection (session_bus, STATUS_NOTIFIER_WATCHER,
                                                     G_BUS_NAME_WATCHER_FLAGS_NONE, watcher_appeared_cb,
                                                     watcher_vanished_cb, self, NULL);
  return self;
}
