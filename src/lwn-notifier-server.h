/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The conversation with the notification server, which the notifier owns and calls one way: which
 * server has the name, what it takes, whether it answers, and showing and closing notifications
 * through the notification thread (lwn-notifier-thread.h). It knows nothing of the notifier's notes:
 * it reports what the server did through one callback. */
#pragma once

#include <gio/gio.h>

#include "lwn-notifier-thread.h"

G_BEGIN_DECLS

typedef struct _LwnNotifyServer LwnNotifyServer;

typedef enum
{
  LWN_NOTIFY_SERVER_APPEARED,      /* a server has the name: what waits may go to it */
  LWN_NOTIFY_SERVER_CHANGED,       /* another server, or none, has the name: no id of the old one means anything */
  LWN_NOTIFY_SERVER_READY,         /* the server said what it takes: what waits may go now */
  LWN_NOTIFY_SERVER_RETRY,         /* the server may be asked again what it takes, if anything waits */
  LWN_NOTIFY_SERVER_SHOWN,         /* the current server showed @result's notification, with its id */
  LWN_NOTIFY_SERVER_SHOWN_BY_GONE, /* a server that has gone since showed it */
  LWN_NOTIFY_SERVER_NOT_SHOWN,     /* no server that answers got it: it is for the next attempt */
  LWN_NOTIFY_SERVER_REFUSED,       /* the current server answered with an error */
  LWN_NOTIFY_SERVER_ACTION,        /* the person acted on @result's notification */
  LWN_NOTIFY_SERVER_CLOSED,        /* the server closed @result's notification */
} LwnNotifyServerEvent;

/* @result is the notification thread's, for the events about one notification, and %NULL for the
 * others. */
typedef void (*LwnNotifyServerFunc) (LwnNotifyServerEvent event,
                                     const LwnNotifyResult *result,
                                     gpointer user_data);

/* clang-format off */
LwnNotifyServer *lwn_notify_server_new                (GDBusConnection     *bus,
                                                       LwnNotifyServerFunc  func,
                                                       gpointer             user_data);
void             lwn_notify_server_free               (LwnNotifyServer     *self);
gboolean         lwn_notify_server_is_ready           (LwnNotifyServer     *self);
guint            lwn_notify_server_count_sendable     (LwnNotifyServer     *self,
                                                       gboolean             sending);
void             lwn_notify_server_show               (LwnNotifyServer     *self,
                                                       guint                kind,
                                                       const char          *item_id,
                                                       guint32              replaces_id,
                                                       const char          *summary,
                                                       const char          *plain_body,
                                                       const char          *action_label,
                                                       const char          *action_key,
                                                       const char          *category);
void             lwn_notify_server_close              (LwnNotifyServer     *self,
                                                       guint                kind,
                                                       const char          *item_id);
void             lwn_notify_server_forget             (LwnNotifyServer     *self,
                                                       guint                kind,
                                                       const char          *item_id);
void             lwn_notify_server_set_retry_interval (LwnNotifyServer     *self,
                                                       gint64               interval);
gboolean         lwn_notify_server_sync               (LwnNotifyServer     *self);
/* clang-format on */

G_END_DECLS
