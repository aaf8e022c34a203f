/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The notifier's insides, and what its tests may see of them. lwn-notifier.c keeps the notes and
 * owns the conversation with the server (lwn-notifier-server.c), which talks to the server through
 * the notification thread (lwn-notifier-thread.c). */
#pragma once

#include "lwn-notifier.h"
#include "lwn-notifier-server.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_NOTE_ITEM,
  LWN_NOTE_GROUP,
  LWN_NOTE_MESSAGE,
  LWN_NOTE_NOTICE,
  LWN_NOTE_REMINDER,
} LwnNoteKind;

/* What a note's notification is doing. lwn-notifier.c moves a note from one state to the next in
 * one function, note_move(), by this table; it refuses, with a critical, an event that the table
 * leaves blank ("-") for the note's state. A note starts in LWN_NOTE_WAITING, and GONE means that
 * the notifier forgets the note ("GONE+close": it asks the server to close the notification
 * first).
 *
 * state \ event     CONTENT          SEND     SHOWN          SHOWN_BY_GONE NOT_SHOWN REFUSED SERVER_CHANGED    CLOSED WITHDRAW          FORGET
 * WAITING           WAITING          SENDING  -              -             -         -       WAITING           -      GONE              GONE
 * SENDING           SENDING_CHANGED  -        SHOWN          GONE          WAITING   GONE    SENDING           -      SENDING_WITHDRAWN -
 * SENDING_CHANGED   SENDING_CHANGED  -        SHOWN_CHANGED  WAITING       WAITING   GONE    SENDING_CHANGED   -      SENDING_WITHDRAWN -
 * SENDING_WITHDRAWN SENDING_CHANGED  -        GONE+close     GONE          GONE      GONE    SENDING_WITHDRAWN -      SENDING_WITHDRAWN -
 * SHOWN             SHOWN_CHANGED    -        -              -             -         -       GONE              GONE   GONE+close        GONE
 * SHOWN_CHANGED     SHOWN_CHANGED    SENDING  -              -             -         -       WAITING           GONE   GONE+close        GONE
 *
 * The events: CONTENT, the note got new content; SEND, the content goes to the notification
 * thread; SHOWN, the current server answered with its id; SHOWN_BY_GONE, a server that has gone
 * since answered with its id; NOT_SHOWN, no server that answers got the call; REFUSED, the current
 * server answered with an error; SERVER_CHANGED, another server or none has the name; CLOSED, the
 * server closed the notification; WITHDRAW, what the note announced was read or is no longer
 * needed; FORGET, the notifier lets go of the note to stay within its bounds. A note being sent
 * stays until the server answers: the answer tells whether its headlines were shown. */
typedef enum
{
  LWN_NOTE_WAITING,           /* its content has not reached the current server yet */
  LWN_NOTE_SENDING,           /* the notification thread is showing it */
  LWN_NOTE_SENDING_CHANGED,   /* being shown, and newer content goes once the server answers */
  LWN_NOTE_SENDING_WITHDRAWN, /* being shown, and closed once the server answers */
  LWN_NOTE_SHOWN,             /* the current server shows it */
  LWN_NOTE_SHOWN_CHANGED,     /* shown, and newer content waits to update it in place */
  LWN_NOTE_GONE,              /* forgotten: no note is ever left in this state */
} LwnNoteState;

typedef enum
{
  LWN_NOTE_EVENT_CONTENT,
  LWN_NOTE_EVENT_SEND,
  LWN_NOTE_EVENT_SHOWN,
  LWN_NOTE_EVENT_SHOWN_BY_GONE,
  LWN_NOTE_EVENT_NOT_SHOWN,
  LWN_NOTE_EVENT_REFUSED,
  LWN_NOTE_EVENT_SERVER_CHANGED,
  LWN_NOTE_EVENT_CLOSED,
  LWN_NOTE_EVENT_WITHDRAW,
  LWN_NOTE_EVENT_FORGET,
} LwnNoteEvent;

/* One notification: a headline's, a feed's group, the applet's own message, its notice of how to
 * reach it without a tray, or a reminder's. Each kind has a place of its own in the notifier, so
 * that no feed's ids can name another kind. */
typedef struct
{
  LwnNoteKind kind;
  char *item_id; /* the headline of LWN_NOTE_ITEM and LWN_NOTE_REMINDER, the feed of LWN_NOTE_GROUP */
  char *summary; /* the group's is made when it is sent */
  char *body;    /* plain text; the group's is made when it is sent */
  char *url;
  const char *category;
  guint64 order; /* when its content last changed: what waits goes out in this order */
  LwnNoteState state;
  /* The current server's id for the notification, which a new content replaces in place. It is
   * 0 in LWN_NOTE_WAITING, and in the sending states until a server first showed the note. */
  guint32 server_id;
  /* The headlines whose announcement it carries and no server has shown yet, by id: those of
   * the content still to send, and those of the content being sent. */
  GPtrArray *unshown;
  GPtrArray *showing;
  /* LWN_NOTE_ITEM's: the feeds whose announcement it carries, by address; a feed no longer
   * followed takes it with it unless another feed announced it too. */
  GPtrArray *feeds;
} LwnNote;

/* The grouped notification of one feed, and the headlines it counts. */
typedef struct
{
  LwnNote *note;           /* LWN_NOTE_GROUP, whose item_id is the key */
  char *key;               /* the feed's */
  GPtrArray *grouped;      /* what it counts by id, newest first */
  GHashTable *grouped_ids; /* item id → element of grouped */
  guint n_untracked;       /* what it counts beyond those */
  char *site_name;
} LwnGroup;

struct _LwnNotifier
{
  GObject parent_instance;

  /* The conversation with the server; NULL once disposed of, when nothing is shown any more. */
  LwnNotifyServer *server;

  GHashTable *items;  /* item id → LwnNote* */
  GHashTable *groups; /* feed → LwnGroup*, while its grouped notification is kept */
  LwnNote *message;
  LwnNote *notice;
  GHashTable *reminders; /* item id → LwnNote* */
  guint64 next_order;
};

/* clang-format off */
/* For tests: notifications kept, waiting or shown, and headlines the groups count by id. */
guint      lwn_notifier_count_kept          (LwnNotifier *self);
/* For tests: runs the thread-default main context (the notifier's) until the notification thread
 * has handled what the bus brought it before, and this thread what it answered. Returns %FALSE if
 * the thread did not answer within 10 s, or has stopped. */
gboolean   lwn_notifier_sync                (LwnNotifier *self);
/* For tests: how long (in microseconds) a server that left a call unanswered is left alone. */
void       lwn_notifier_set_retry_interval  (LwnNotifier *self,
                                             gint64       interval);
/* clang-format on */

G_END_DECLS
