/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notification thread: the one place libnotify is called. Every libnotify call is synchronous,
 * so they run here, on a thread with a main context of its own, and the notifier on the main thread
 * hands requests in and gets copies of the results back; neither side ever touches the other's
 * objects. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _LwnNotifyThread LwnNotifyThread;

typedef enum
{
  LWN_NOTIFY_CAPS,   /* capabilities, or @error */
  LWN_NOTIFY_SHOWN,  /* the server's @id, or @error */
  LWN_NOTIFY_ACTION, /* the default action of @id, with the server's @activation_token */
  LWN_NOTIFY_CLOSED, /* the server closed @id */
  LWN_NOTIFY_PONG,   /* for tests: everything before was handled */
} LwnNotifyEvent;

/* What the thread tells the main context: copies only. A notification is named by its kind and
 * item, as the notifier names its notes, and by the server generation it was sent for. */
typedef struct
{
  LwnNotifyEvent event;
  guint kind;
  char *item_id;
  guint generation;
  guint32 id;
  GError *error;
  gboolean body_markup;
  gboolean actions;
  char *activation_token;
} LwnNotifyResult;

typedef void (*LwnNotifyResultFunc) (const LwnNotifyResult *result,
                                     gpointer user_data);

/* clang-format off */
LwnNotifyThread *lwn_notify_thread_new           (const char          *app_name,
                                                  const char          *icon_name,
                                                  LwnNotifyResultFunc  func,
                                                  gpointer             user_data);
void             lwn_notify_thread_request_caps  (LwnNotifyThread     *self,
                                                  guint                generation);
void             lwn_notify_thread_show          (LwnNotifyThread     *self,
                                                  guint                kind,
                                                  const char          *item_id,
                                                  guint                generation,
                                                  guint32              replaces_id,
                                                  const char          *summary,
                                                  const char          *body,
                                                  const char          *action_label,
                                                  const char          *action_key,
                                                  const char          *desktop_entry,
                                                  const char          *category);
void             lwn_notify_thread_close         (LwnNotifyThread     *self,
                                                  guint                kind,
                                                  const char          *item_id);
void             lwn_notify_thread_forget        (LwnNotifyThread     *self,
                                                  guint                kind,
                                                  const char          *item_id);
void             lwn_notify_thread_ping          (LwnNotifyThread     *self);
gboolean         lwn_notify_thread_stop          (LwnNotifyThread     *self,
                                                  guint                wait_ms);
/* clang-format on */

G_END_DECLS
