/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Desktop notifications for new headlines and for articles now free (libnotify), with an action that opens them;
 * never waits for the server. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed.h"

G_BEGIN_DECLS

#define LWN_TYPE_NOTIFIER (lwn_notifier_get_type ())
G_DECLARE_FINAL_TYPE (LwnNotifier, lwn_notifier, LWN, NOTIFIER, GObject)

/* Characters of plain-text summary in a notification body. */
#define LWN_NOTIFIER_BODY_CHARS 200

/* clang-format off */
LwnNotifier *lwn_notifier_new           (GDBusConnection *bus);
void         lwn_notifier_announce      (LwnNotifier *self,
                                         GPtrArray   *items,
                                         guint        max_single,
                                         const char  *feed,
                                         const char  *site_name,
                                         const char  *site_url);
void         lwn_notifier_withdraw      (LwnNotifier *self,
                                         const char  *item_id);
void         lwn_notifier_withdraw_all  (LwnNotifier *self);
void         lwn_notifier_withdraw_feed (LwnNotifier *self,
                                         const char  *feed);
void         lwn_notifier_show_message  (LwnNotifier *self,
                                         const char  *summary,
                                         const char  *body);
void         lwn_notifier_show_notice   (LwnNotifier *self,
                                         const char  *summary,
                                         const char  *body);
void         lwn_notifier_withdraw_notice (LwnNotifier *self);
void         lwn_notifier_remind        (LwnNotifier *self,
                                         const char  *item_id,
                                         const char  *title,
                                         const char  *url);
void         lwn_notifier_drain_async   (LwnNotifier          *self,
                                         guint                 timeout_ms,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean     lwn_notifier_drain_finish  (LwnNotifier          *self,
                                         GAsyncResult         *result,
                                         GError              **error);
/* clang-format on */

G_END_DECLS
