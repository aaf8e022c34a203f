/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notifier's insides, shared by its files (lwn-notifier.c keeps the notifications,
 * lwn-notifier-server.c follows the server and talks to it through the notification thread of
 * lwn-notifier-thread.c), and what its tests may see of them. */
#pragma once

#include "lwn-notifier.h"
#include "lwn-notifier-thread.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_NOTE_ITEM,
  LWN_NOTE_GROUP,
  LWN_NOTE_MESSAGE,
  LWN_NOTE_NOTICE,
  LWN_NOTE_REMINDER,
} LwnNoteKind;

/* One notification: a headline's, the group's, the applet's own message, its notice of how to reach it
 * without a tray, or a reminder's. Each kind
 * has a place of its own in the notifier, so that no feed's ids can name another kind. */
typedef struct
{
  LwnNoteKind kind;
  char *item_id; /* LWN_NOTE_ITEM and LWN_NOTE_REMINDER only */
  char *summary; /* the group's is made when it is sent */
  char *body;    /* plain text; the group's is made when it is sent */
  char *url;
  const char *category;
  guint64 order;      /* when its content last changed: what waits goes out in this order */
  guint32 id;         /* the current server's, 0 until Notify answers */
  gboolean queued;    /* its content has not reached the current server yet */
  gboolean sending;   /* being shown by the notification thread; the note stays until it answers */
  gboolean withdrawn; /* close it as soon as its id is known */
  /* The headlines whose announcement it carries and no server has shown yet, by id: those of
   * the content still to send, and those of the content being sent. */
  GPtrArray *unshown;
  GPtrArray *showing;
} LwnNote;

struct _LwnNotifier
{
  GObject parent_instance;

  GDBusConnection *bus;
  guint watch_id;
  LwnNotifyThread *thread; /* every libnotify call is made there */
  guint n_pongs;

  /* The server's unique name once seen. Capabilities and notification ids
   * are one server's: the generation changes with the server. */
  char *owner;
  guint generation;
  gboolean caps_asked; /* of this generation's server, not answered yet */
  gboolean caps_known;
  gint64 caps_retry_at; /* monotonic time: this server did not answer, so it is not asked before */
  gboolean body_markup;
  gboolean actions;
  gboolean told_no_server;

  GHashTable *items; /* item id → LwnNote* */
  LwnNote *group;
  GPtrArray *grouped;        /* what the group counts by id, newest first */
  GHashTable *grouped_ids;   /* item id → element of grouped */
  guint n_grouped_untracked; /* what it counts beyond those */
  char *site_name;
  LwnNote *message;
  LwnNote *notice;
  GHashTable *reminders; /* item id → LwnNote* */
  guint64 next_order;
};

/* clang-format off */
/* lwn-notifier.c */
GPtrArray *lwn_notifier_list_notes          (LwnNotifier *self);
LwnNote   *lwn_notifier_find_note           (LwnNotifier *self,
                                             LwnNoteKind  kind,
                                             const char  *item_id);
gboolean   lwn_notifier_has_queued          (LwnNotifier *self);
gboolean   lwn_notifier_is_sending          (LwnNotifier *self);
void       lwn_notifier_drop_note           (LwnNotifier *self,
                                             LwnNote     *note);
void       lwn_notifier_dup_group_text      (LwnNotifier *self,
                                             char       **summary,
                                             char       **body);
gint       lwn_note_compare_order           (gconstpointer a,
                                             gconstpointer b);

/* lwn-notifier-server.c */
void       lwn_notifier_watch_server        (LwnNotifier *self);
void       lwn_notifier_unwatch_server      (LwnNotifier *self);
void       lwn_notifier_deliver_queued      (LwnNotifier *self);
void       lwn_notifier_close_notification  (LwnNotifier *self,
                                             LwnNote     *note);
void       lwn_notifier_forget_notification (LwnNotifier *self,
                                             LwnNote     *note);

/* For tests: notifications kept, waiting or shown, and headlines the group counts by id. */
guint      lwn_notifier_count_kept          (LwnNotifier *self);
/* For tests: runs the thread-default main context (the notifier's) until the notification thread
 * has handled what the bus brought it before, and this thread what it answered. Returns %FALSE if
 * the thread did not answer within 10 s, or has stopped. */
gboolean   lwn_notifier_sync                (LwnNotifier *self);
/* clang-format on */

G_END_DECLS
