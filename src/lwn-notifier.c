/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Desktop notifications for new headlines, shown with libnotify: one per headline, or one per feed that
 * groups many and is updated in place while it is shown, withdrawn once read or once its feed is no
 * longer followed; one per subscriber-only article
 * a reminder was set for, once it is free to read; what no server could show yet
 * waits, within bounds, for the next server that appears, and what a server showed is told. Each
 * note moves by the state table in lwn-notifier-private.h. The notifier owns the conversation with
 * the server (lwn-notifier-server.c) and calls it one way; the conversation reports back through a
 * callback, and nothing here waits for the server. A headline is known by its key, its feed and id
 * together (lwn_headline_key_new()): what one feed announces never updates, withdraws or opens a
 * notification of another's, whatever ids the two share. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-headline.h"
#include "lwn-notifier-private.h"
#include "lwn-str-hash.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* A vendor category: the spec reserves "presence" for contacts coming online. */
#define HEADLINE_CATEGORY "x-lwn-tray.headline"
/* Titles the grouped notification lists before "and N more". */
#define GROUP_TITLES 5
/* Headlines the grouped notification knows by id, so that reading one takes it out of the count;
 * older ones are still counted, no longer by id. */
#define GROUP_MAX_TRACKED 200
/* Headline and reminder notifications kept to be closed or acted on later: a server that never says
 * it closed one must not make either list grow without end. */
#define MAX_ITEM_NOTES 100
/* A reminder's is about a headline too, but in a category of its own. */
#define REMINDER_CATEGORY "x-lwn-tray.reminder"
/* Headlines the grouped notification keeps by id until a server shows it, so as to say then which
 * it showed (::shown); beyond, the oldest are forgotten: the reading model then takes them for not
 * shown yet, and a restart may announce them again. */
#define GROUP_MAX_UNSHOWN 10000

/* A headline the grouped notification counts. */
typedef struct
{
  char *item_id;
  char *title;
} Grouped;

G_DEFINE_FINAL_TYPE (LwnNotifier, lwn_notifier, G_TYPE_OBJECT)

/* Notes */

static LwnNote *
note_new (LwnNoteKind kind,
          const char *item_id)
{
  LwnNote *note = g_new0 (LwnNote, 1);

  note->kind = kind;
  note->item_id = g_strdup (item_id);
  note->unshown = g_ptr_array_new_with_free_func (g_free);
  note->showing = g_ptr_array_new_with_free_func (g_free);
  if (kind == LWN_NOTE_ITEM)
    note->feeds = g_ptr_array_new_with_free_func (g_free);
  return note;
}

static void
note_free (LwnNote *note)
{
  g_ptr_array_unref (note->unshown);
  g_ptr_array_unref (note->showing);
  g_clear_pointer (&note->feeds, g_ptr_array_unref);
  g_free (note->item_id);
  g_free (note->summary);
  g_free (note->body);
  g_free (note->url);
  g_free (note);
}

static void
grouped_free (Grouped *grouped)
{
  g_free (grouped->item_id);
  g_free (grouped->title);
  g_free (grouped);
}

/* Every note, in no particular order; the array does not own them. */
static GPtrArray *
list_notes (LwnNotifier *self)
{
  GPtrArray *notes = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (notes, value);
  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (notes, ((LwnGroup *) value)->note);
  if (self->message != NULL)
    g_ptr_array_add (notes, self->message);
  if (self->notice != NULL)
    g_ptr_array_add (notes, self->notice);
  g_hash_table_iter_init (&iter, self->reminders);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (notes, value);
  return notes;
}

static LwnNote *
find_note (LwnNotifier *self,
           LwnNoteKind kind,
           const char *item_id)
{
  switch (kind)
    {
      case LWN_NOTE_ITEM:
        return g_hash_table_lookup (self->items, item_id);
      case LWN_NOTE_GROUP:
        {
          LwnGroup *group = item_id != NULL ? g_hash_table_lookup (self->groups, item_id) : NULL;

          return group != NULL ? group->note : NULL;
        }
      case LWN_NOTE_MESSAGE:
        return self->message;
      case LWN_NOTE_NOTICE:
        return self->notice;
      case LWN_NOTE_REMINDER:
        return g_hash_table_lookup (self->reminders, item_id);
      default:
        return NULL;
    }
}

/* Whether the note's content has still to go to the notification thread. */
static gboolean
note_is_waiting (const LwnNote *note)
{
  return note->state == LWN_NOTE_WAITING || note->state == LWN_NOTE_SHOWN_CHANGED;
}

/* Whether the notification thread is showing the note, the server's answer not in yet. */
static gboolean
note_is_sending (const LwnNote *note)
{
  return note->state == LWN_NOTE_SENDING || note->state == LWN_NOTE_SENDING_CHANGED
         || note->state == LWN_NOTE_SENDING_WITHDRAWN;
}

static gboolean
lwn_notifier_has_waiting (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = list_notes (self);

  for (guint i = 0; i < notes->len; i++)
    if (note_is_waiting (g_ptr_array_index (notes, i)))
      return TRUE;
  return FALSE;
}

static void
group_free (LwnGroup *group)
{
  g_clear_pointer (&group->note, note_free);
  g_hash_table_unref (group->grouped_ids);
  g_ptr_array_unref (group->grouped);
  g_free (group->key);
  g_free (group->site_name);
  g_free (group);
}

static LwnGroup *
group_new (const char *key,
           const char *site_name)
{
  LwnGroup *group = g_new0 (LwnGroup, 1);

  group->key = g_strdup (key);
  group->site_name = g_strdup (site_name);
  group->grouped = g_ptr_array_new_with_free_func ((GDestroyNotify) grouped_free);
  group->grouped_ids = lwn_str_hash_table_new (NULL, NULL);
  group->note = note_new (LWN_NOTE_GROUP, key);
  return group;
}

/* Whether a notification is being sent, its answer not in yet. */
static gboolean
lwn_notifier_is_sending (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = list_notes (self);

  for (guint i = 0; i < notes->len; i++)
    if (note_is_sending (g_ptr_array_index (notes, i)))
      return TRUE;
  return FALSE;
}

/* The group starts counting from nothing. */
static void
clear_grouped (LwnGroup *group)
{
  g_hash_table_remove_all (group->grouped_ids);
  g_ptr_array_set_size (group->grouped, 0);
  group->n_untracked = 0;
}

/* Frees a note that has gone, and for the group what it counted. The notification thread lets go of
 * its notification: it is not shown any more, or it was shown by a server that has gone. */
static void
drop_note (LwnNotifier *self,
           LwnNote *note)
{
  if (self->server != NULL)
    lwn_notify_server_forget (self->server, note->kind, note->item_id);
  switch (note->kind)
    {
      case LWN_NOTE_ITEM:
        g_hash_table_remove (self->items, note->item_id);
        break;
      case LWN_NOTE_GROUP:
        /* The feed's group goes with its note, and what it counted. */
        g_hash_table_remove (self->groups, note->item_id);
        break;
      case LWN_NOTE_MESSAGE:
        g_clear_pointer (&self->message, note_free);
        break;
      case LWN_NOTE_NOTICE:
        g_clear_pointer (&self->notice, note_free);
        break;
      case LWN_NOTE_REMINDER:
        g_hash_table_remove (self->reminders, note->item_id);
        break;
      default:
        g_assert_not_reached ();
    }
}

/* The state table of lwn-notifier-private.h, with NONE for a blank. */
#define NONE 0xff
#define CLOSE 0x100 /* with LWN_NOTE_GONE: the server closes the notification first */
static const guint note_table[LWN_NOTE_GONE][LWN_NOTE_EVENT_FORGET + 1] = {
  /* clang-format off */
  [LWN_NOTE_WAITING] =           { LWN_NOTE_WAITING,         LWN_NOTE_SENDING, NONE,                   NONE,             NONE,             NONE,          LWN_NOTE_WAITING,           NONE,          LWN_NOTE_GONE,              LWN_NOTE_GONE },
  [LWN_NOTE_SENDING] =           { LWN_NOTE_SENDING_CHANGED, NONE,             LWN_NOTE_SHOWN,         LWN_NOTE_GONE,    LWN_NOTE_WAITING, LWN_NOTE_GONE, LWN_NOTE_SENDING,           NONE,          LWN_NOTE_SENDING_WITHDRAWN, NONE },
  [LWN_NOTE_SENDING_CHANGED] =   { LWN_NOTE_SENDING_CHANGED, NONE,             LWN_NOTE_SHOWN_CHANGED, LWN_NOTE_WAITING, LWN_NOTE_WAITING, LWN_NOTE_GONE, LWN_NOTE_SENDING_CHANGED,   NONE,          LWN_NOTE_SENDING_WITHDRAWN, NONE },
  [LWN_NOTE_SENDING_WITHDRAWN] = { LWN_NOTE_SENDING_CHANGED, NONE,             LWN_NOTE_GONE | CLOSE,  LWN_NOTE_GONE,    LWN_NOTE_GONE,    LWN_NOTE_GONE, LWN_NOTE_SENDING_WITHDRAWN, NONE,          LWN_NOTE_SENDING_WITHDRAWN, NONE },
  [LWN_NOTE_SHOWN] =             { LWN_NOTE_SHOWN_CHANGED,   NONE,             NONE,                   NONE,             NONE,             NONE,          LWN_NOTE_GONE,              LWN_NOTE_GONE, LWN_NOTE_GONE | CLOSE,      LWN_NOTE_GONE },
  [LWN_NOTE_SHOWN_CHANGED] =     { LWN_NOTE_SHOWN_CHANGED,   LWN_NOTE_SENDING, NONE,                   NONE,             NONE,             NONE,          LWN_NOTE_WAITING,           LWN_NOTE_GONE, LWN_NOTE_GONE | CLOSE,      LWN_NOTE_GONE },
  /* clang-format on */
};

static const char *const state_names[] = {
  "waiting",
  "sending",
  "sending-changed",
  "sending-withdrawn",
  "shown",
  "shown-changed",
  "gone",
};
static const char *const event_names[] = {
  "content",
  "send",
  "shown",
  "shown-by-gone",
  "not-shown",
  "refused",
  "server-changed",
  "closed",
  "withdraw",
  "forget",
};

/* The one place a note changes state, by the table in lwn-notifier-private.h. A note that goes is
 * freed here, so the caller must not touch it after LWN_NOTE_GONE. @server_id is the server's id
 * for LWN_NOTE_EVENT_SHOWN, and unused otherwise.
 *
 * Returns: the note's new state, or its old one when the table does not allow @event */
static LwnNoteState
note_move (LwnNotifier *self,
           LwnNote *note,
           LwnNoteEvent event,
           guint32 server_id)
{
  guint next;

  g_return_val_if_fail (note->state < LWN_NOTE_GONE, LWN_NOTE_GONE);

  next = note_table[note->state][event];
  if (next == NONE)
    {
      g_critical ("A %s notification cannot take the event %s", state_names[note->state], event_names[event]);
      return note->state;
    }

  if (next & CLOSE)
    {
      if (self->server != NULL)
        lwn_notify_server_close (self->server, note->kind, note->item_id);
      next &= ~CLOSE;
    }
  if (next == LWN_NOTE_GONE)
    {
      drop_note (self, note);
      return LWN_NOTE_GONE;
    }

  /* What a server that has gone showed went with it: a note waiting for the next one is new. */
  if (next == LWN_NOTE_WAITING)
    note->server_id = 0;
  else if (event == LWN_NOTE_EVENT_SHOWN)
    note->server_id = server_id;
  note->state = next;
  return note->state;
}
#undef NONE
#undef CLOSE

static void
dup_group_text (const LwnGroup *group,
                char **summary,
                char **body)
{
  guint count = group->grouped->len + group->n_untracked;
  guint listed = MIN (group->grouped->len, GROUP_TITLES);
  GString *text = g_string_new (NULL);

  /* Translators: the first %u is a number, %s the feed's name, e.g. "7 new headlines from LWN.net". */
  *summary = g_strdup_printf (ngettext ("%u new headline from %s", "%u new headlines from %s", count),
                              count, group->site_name);
  for (guint i = 0; i < listed; i++)
    {
      Grouped *grouped = g_ptr_array_index (group->grouped, i);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, "• %s", grouped->title);
    }
  if (count > listed)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("and %u more", "and %u more", count - listed), count - listed);
    }
  *body = g_string_free (text, FALSE);
}

static gint
compare_order (gconstpointer a,
               gconstpointer b)
{
  const LwnNote *first = *(LwnNote *const *) a;
  const LwnNote *second = *(LwnNote *const *) b;

  return first->order < second->order ? -1 : first->order > second->order;
}

static gint
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  return compare_order (b, a);
}

/* The conversation with the server */

/* What the note's action says, NULL for none. Headlines and reminders open
 * their article; the notice opens the headlines window. */
static const char *
action_label (const LwnNote *note)
{
  if (note->kind == LWN_NOTE_NOTICE)
    /* Translators: a button on the notice that there is no tray; it opens the headlines window. */
    return _ ("Show Headlines");
  return lwn_url_is_launchable (note->url) ? _ ("Open") : NULL;
}

/* Hands the note's content to the notification thread. */
static void
send_note (LwnNotifier *self,
           LwnNote *note)
{
  g_autofree char *group_summary = NULL;
  g_autofree char *group_body = NULL;
  const char *summary = note->summary;
  const char *plain_body = note->body;

  if (note->kind == LWN_NOTE_GROUP)
    {
      dup_group_text (g_hash_table_lookup (self->groups, note->item_id), &group_summary, &group_body);
      summary = group_summary;
      plain_body = group_body;
    }

  if (note_move (self, note, LWN_NOTE_EVENT_SEND, 0) != LWN_NOTE_SENDING)
    return;
  g_ptr_array_extend_and_steal (note->showing, g_steal_pointer (&note->unshown));
  note->unshown = g_ptr_array_new_with_free_func (g_free);
  /* The note's server id updates a shown one in place. */
  lwn_notify_server_show (self->server, note->kind, note->item_id, note->server_id, summary, plain_body,
                          action_label (note), note->kind == LWN_NOTE_NOTICE ? "show-headlines" : NULL,
                          note->category);
}

/* Sends what the server has not got yet, oldest first, as much as the server takes now: the one way
 * to the notification thread for showing. */
static void
deliver_waiting (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = NULL;
  guint sendable;

  /* Disposed of: the thread has gone, and what is announced now is never shown. */
  if (self->server == NULL || !lwn_notifier_has_waiting (self))
    return;

  sendable = lwn_notify_server_count_sendable (self->server, lwn_notifier_is_sending (self));
  if (sendable == 0)
    return;

  notes = list_notes (self);
  g_ptr_array_sort (notes, compare_order);
  for (guint i = 0; i < notes->len && sendable > 0; i++)
    {
      LwnNote *note = g_ptr_array_index (notes, i);

      if (note_is_waiting (note))
        {
          send_note (self, note);
          sendable--;
        }
    }
}

/* A new server (or none) knows none of our ids: what the old one showed is forgotten, what waits
 * stays, and what is being sent is settled by its answer. */
static void
server_changed (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = list_notes (self);

  for (guint i = 0; i < notes->len; i++)
    note_move (self, g_ptr_array_index (notes, i), LWN_NOTE_EVENT_SERVER_CHANGED, 0);
}

/* The notification thread showed a note, or could not. */
static void
shown (LwnNotifier *self,
       LwnNotifyServerEvent event,
       const LwnNotifyResult *result)
{
  static const LwnNoteEvent note_events[] = {
    [LWN_NOTIFY_SERVER_SHOWN] = LWN_NOTE_EVENT_SHOWN,
    [LWN_NOTIFY_SERVER_SHOWN_BY_GONE] = LWN_NOTE_EVENT_SHOWN_BY_GONE,
    [LWN_NOTIFY_SERVER_NOT_SHOWN] = LWN_NOTE_EVENT_NOT_SHOWN,
    [LWN_NOTIFY_SERVER_REFUSED] = LWN_NOTE_EVENT_REFUSED,
  };
  LwnNote *note = find_note (self, result->kind, result->item_id);
  g_autoptr (GPtrArray) carried = NULL;

  g_return_if_fail (note != NULL && note_is_sending (note));

  carried = g_steal_pointer (&note->showing);
  note->showing = g_ptr_array_new_with_free_func (g_free);
  /* Not shown: what it carried goes again with it, if it goes again. */
  if (result->error != NULL)
    g_ptr_array_extend_and_steal (note->unshown, g_steal_pointer (&carried));

  note_move (self, note, note_events[event], result->id);
  deliver_waiting (self);

  /* Told last: the notifier's books are in order for whatever the handlers do. */
  if (carried != NULL && carried->len > 0)
    {
      g_ptr_array_add (carried, NULL);
      g_signal_emit_by_name (self, "shown", carried->pdata);
    }
}

/* The person acted on a notification that the current server shows. */
static void
action_invoked (LwnNotifier *self,
                const LwnNotifyResult *result)
{
  LwnNote *note = find_note (self, result->kind, result->item_id);

  if (note == NULL || note->server_id == 0 || note->server_id != result->id)
    return;

  if (note->kind == LWN_NOTE_NOTICE)
    g_signal_emit_by_name (self, "show-all", NULL, result->activation_token);
  else if (!lwn_url_is_launchable (note->url))
    return;
  else if (note->kind == LWN_NOTE_GROUP)
    g_signal_emit_by_name (self, "show-all", note->url, result->activation_token);
  else if (note->kind == LWN_NOTE_ITEM)
    g_signal_emit_by_name (self, "open", note->item_id, note->url, result->activation_token);
  else if (note->kind == LWN_NOTE_REMINDER)
    g_signal_emit_by_name (self, "open-reminder", note->item_id, note->url, result->activation_token);
}

/* Expired, dismissed or closed: a group's next batch counts from nothing. */
static void
notification_closed (LwnNotifier *self,
                     const LwnNotifyResult *result)
{
  LwnNote *note = find_note (self, result->kind, result->item_id);

  if (note != NULL && (note->state == LWN_NOTE_SHOWN || note->state == LWN_NOTE_SHOWN_CHANGED)
      && note->server_id == result->id)
    note_move (self, note, LWN_NOTE_EVENT_CLOSED, 0);
}

static void
server_event_cb (LwnNotifyServerEvent event,
                 const LwnNotifyResult *result,
                 gpointer user_data)
{
  LwnNotifier *self = user_data;

  switch (event)
    {
      case LWN_NOTIFY_SERVER_APPEARED:
      case LWN_NOTIFY_SERVER_READY:
      case LWN_NOTIFY_SERVER_RETRY:
        deliver_waiting (self);
        break;
      case LWN_NOTIFY_SERVER_CHANGED:
        server_changed (self);
        break;
      case LWN_NOTIFY_SERVER_SHOWN:
      case LWN_NOTIFY_SERVER_SHOWN_BY_GONE:
      case LWN_NOTIFY_SERVER_NOT_SHOWN:
      case LWN_NOTIFY_SERVER_REFUSED:
        shown (self, event, result);
        break;
      case LWN_NOTIFY_SERVER_ACTION:
        action_invoked (self, result);
        break;
      case LWN_NOTIFY_SERVER_CLOSED:
        notification_closed (self, result);
        break;
      default:
        g_assert_not_reached ();
    }
}

/* Showing and withdrawing */

/* Gives @note new content, and sends it once the server can take it. */
static void
update_note (LwnNotifier *self,
             LwnNote *note,
             const char *summary,
             const char *plain_body,
             const char *url,
             const char *category)
{
  g_free (note->summary);
  note->summary = g_strdup (summary);
  g_free (note->body);
  note->body = g_strdup (plain_body);
  g_free (note->url);
  note->url = g_strdup (url);
  note->category = category;
  note->order = ++self->next_order;

  /* A note being sent goes again, with its id, once the server answers. */
  note_move (self, note, LWN_NOTE_EVENT_CONTENT, 0);
  if (note_is_waiting (note))
    deliver_waiting (self);
}

static void
withdraw_note (LwnNotifier *self,
               LwnNote *note)
{
  if (note->kind == LWN_NOTE_GROUP)
    clear_grouped (g_hash_table_lookup (self->groups, note->item_id));
  note_move (self, note, LWN_NOTE_EVENT_WITHDRAW, 0);
}

/* Forgets the oldest notification of @notes that a server showed, or if none, the oldest that
 * waits: a server that does not answer must not make @notes grow without end. A note being sent
 * stays until the server answers. */
static void
forget_oldest (LwnNotifier *self,
               GHashTable *notes)
{
  GHashTableIter iter;
  gpointer value;
  LwnNote *oldest = NULL;

  g_hash_table_iter_init (&iter, notes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      LwnNote *note = value;

      if (note_is_sending (note))
        continue;
      /* A shown note goes before any that waits. */
      if (oldest == NULL || (note->state == LWN_NOTE_SHOWN) > (oldest->state == LWN_NOTE_SHOWN)
          || ((note->state == LWN_NOTE_SHOWN) == (oldest->state == LWN_NOTE_SHOWN) && note->order < oldest->order))
        oldest = note;
    }
  if (oldest != NULL)
    note_move (self, oldest, LWN_NOTE_EVENT_FORGET, 0);
}

static gboolean
has_feed (GPtrArray *feeds,
          const char *feed,
          guint *index)
{
  return g_ptr_array_find_with_equal_func (feeds, feed, g_str_equal, index);
}

static void
announce_one (LwnNotifier *self,
              LwnFeedItem *item,
              const char *feed)
{
  g_autofree char *key = lwn_headline_key_new (feed, lwn_feed_item_get_id (item));
  g_autofree char *summary = lwn_text_strip_controls (lwn_feed_item_get_title (item));
  g_autofree char *body = lwn_text_ellipsize (lwn_feed_item_get_summary (item), LWN_NOTIFIER_BODY_CHARS);
  LwnNote *note = g_hash_table_lookup (self->items, key);

  if (note == NULL)
    {
      if (g_hash_table_size (self->items) >= MAX_ITEM_NOTES)
        forget_oldest (self, self->items);
      note = note_new (LWN_NOTE_ITEM, key);
      g_hash_table_insert (self->items, note->item_id, note);
    }
  if (note->unshown->len == 0)
    g_ptr_array_add (note->unshown, g_strdup (key));
  if (!has_feed (note->feeds, feed, NULL))
    g_ptr_array_add (note->feeds, g_strdup (feed));
  update_note (self, note, summary, body, lwn_feed_item_get_url (item), HEADLINE_CATEGORY);
}

/* @feed's headline notifications that no server has shown and none is being sent, newest first.
 * Only its own: a group says which feed its headlines come from, and goes with that feed. */
static GPtrArray *
list_waiting_items (LwnNotifier *self,
                    const char *feed)
{
  GPtrArray *waiting = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      LwnNote *note = value;

      if (note->state == LWN_NOTE_WAITING && has_feed (note->feeds, feed, NULL))
        g_ptr_array_add (waiting, note);
    }
  g_ptr_array_sort (waiting, compare_newest_first);
  return waiting;
}

/* Adds a headline to the group, after those added before it in this batch, and to @added unless
 * the group counts it already. */
static void
group_add (LwnGroup *group,
           guint *position,
           GPtrArray *added,
           const char *item_id,
           const char *title)
{
  g_autofree char *plain_title = NULL;
  Grouped *grouped;

  if (g_hash_table_contains (group->grouped_ids, item_id))
    return;
  g_ptr_array_add (added, g_strdup (item_id));
  /* A first run of a large feed: what could not be tracked is only counted. */
  if (*position >= GROUP_MAX_TRACKED)
    {
      group->n_untracked++;
      return;
    }

  plain_title = lwn_text_strip_controls (title);
  grouped = g_new0 (Grouped, 1);
  grouped->item_id = g_strdup (item_id);
  grouped->title = lwn_text_ellipsize (plain_title, 80);
  g_ptr_array_insert (group->grouped, (int) (*position)++, grouped);
  g_hash_table_insert (group->grouped_ids, grouped->item_id, grouped);
}

/* @items and then @waiting (headline notifications not shown yet, which
 * the group takes over) join the feed's group, newest first, and it is shown. */
static void
announce_group (LwnNotifier *self,
                GPtrArray *items,
                GPtrArray *waiting,
                const char *feed,
                const char *site_name,
                const char *site_url)
{
  g_autoptr (GPtrArray) added = g_ptr_array_new_with_free_func (g_free);
  LwnGroup *group = g_hash_table_lookup (self->groups, feed);
  gboolean is_new = group == NULL;
  guint position = 0;

  if (is_new)
    group = group_new (feed, site_name);
  for (guint i = 0; i < items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (items, i);
      g_autofree char *key = lwn_headline_key_new (feed, lwn_feed_item_get_id (item));

      group_add (group, &position, added, key, lwn_feed_item_get_title (item));
    }
  for (guint i = 0; waiting != NULL && i < waiting->len; i++)
    {
      LwnNote *note = g_ptr_array_index (waiting, i);

      group_add (group, &position, added, note->item_id, note->summary);
      note_move (self, note, LWN_NOTE_EVENT_FORGET, 0);
    }
  if (added->len == 0 && !is_new)
    return;

  while (group->grouped->len > GROUP_MAX_TRACKED)
    {
      Grouped *oldest = g_ptr_array_index (group->grouped, group->grouped->len - 1);

      g_hash_table_remove (group->grouped_ids, oldest->item_id);
      g_ptr_array_remove_index (group->grouped, group->grouped->len - 1);
      group->n_untracked++;
    }
  if (is_new)
    g_hash_table_insert (self->groups, group->key, group);

  /* The oldest first, and so the first to go. @added is newest first. */
  for (guint i = added->len; i-- > 0;)
    g_ptr_array_add (group->note->unshown, g_steal_pointer (&added->pdata[i]));
  if (group->note->unshown->len > GROUP_MAX_UNSHOWN)
    g_ptr_array_remove_range (group->note->unshown, 0, group->note->unshown->len - GROUP_MAX_UNSHOWN);
  update_note (self, group->note, NULL, NULL, site_url, HEADLINE_CATEGORY);
}

/* The object */

static void
lwn_notifier_dispose (GObject *object)
{
  LwnNotifier *self = LWN_NOTIFIER (object);

  g_clear_pointer (&self->server, lwn_notify_server_free);

  G_OBJECT_CLASS (lwn_notifier_parent_class)->dispose (object);
}

static void
lwn_notifier_finalize (GObject *object)
{
  LwnNotifier *self = LWN_NOTIFIER (object);

  g_hash_table_unref (self->items);
  g_hash_table_unref (self->groups);
  g_clear_pointer (&self->message, note_free);
  g_clear_pointer (&self->notice, note_free);
  g_hash_table_unref (self->reminders);

  G_OBJECT_CLASS (lwn_notifier_parent_class)->finalize (object);
}

static void
lwn_notifier_class_init (LwnNotifierClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_notifier_dispose;
  object_class->finalize = lwn_notifier_finalize;

  /**
   * LwnNotifier::open:
   * @item_id: the key (lwn_headline_key_new()) of the headline whose notification was acted on
   * @url: the http(s) URL the notification was about
   * @activation_token: (nullable): the token the server sent with the action, for the window
   *   that opens to take the focus (XDG activation, or a startup notification id)
   *
   * The user asked to read what a notification announced.
   */
  g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnNotifier::open-reminder:
   * @item_id: the key of the headline whose reminder's notification was acted on
   * @url: the http(s) article the reminder was about
   * @activation_token: (nullable): the token the server sent with the action
   *
   * The user asked to read an article a reminder said is free now.
   */
  g_signal_new ("open-reminder", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnNotifier::show-all:
   * @url: the site the grouped notification was about
   * @activation_token: (nullable): the token the server sent with the action
   *
   * The user acted on the notification that groups many new headlines, or on
   * the notice that there is no tray; @url is %NULL for the notice.
   */
  g_signal_new ("show-all", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnNotifier::shown:
   * @item_ids: (array zero-terminated=1): the keys of the headlines whose announcement a notification server
   *   has shown: in a notification of their own, or in the grouped one, whether it lists their
   *   titles, knows them by id to take them out of its count, or only counts them
   *
   * A server answered a notification that announced them with its id. Told once for each
   * announcement (lwn_notifier_announce()) of a headline, at most: not for one withdrawn, or
   * refused by a server, before any server showed it, nor for what waits for a server when the
   * notifier goes.
   */
  g_signal_new ("shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
lwn_notifier_init (LwnNotifier *self)
{
  self->items = lwn_str_hash_table_new (NULL, (GDestroyNotify) note_free);
  self->groups = lwn_str_hash_table_new (NULL, (GDestroyNotify) group_free);
  self->reminders = lwn_str_hash_table_new (NULL, (GDestroyNotify) note_free);
}

/**
 * lwn_notifier_new:
 * @bus: the session bus, the one libnotify talks on
 *
 * Returns: (transfer full): a notifier, with its notification thread; it
 *   asks a server for its capabilities when it first has something to
 *   show, and once more for each server that takes the name after it (or,
 *   when one did not answer, at an announcement a minute later or more)
 */
LwnNotifier *
lwn_notifier_new (GDBusConnection *bus)
{
  LwnNotifier *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (bus), NULL);

  self = g_object_new (LWN_TYPE_NOTIFIER, NULL);
  self->server = lwn_notify_server_new (bus, server_event_cb, self);
  return self;
}

/**
 * lwn_notifier_announce:
 * @self: a #LwnNotifier
 * @items: (element-type LwnFeedItem): the new items, newest first
 * @max_single: up to this many items get a notification each
 * @feed: (nullable): the feed they come from: each feed has a grouped
 *   notification of its own, and lwn_notifier_withdraw_feed() withdraws
 *   what it announced
 * @site_name: the feed's name, for its grouped notification
 * @site_url: (nullable): what the grouped notification is about
 *
 * Shows one notification per item, or a single grouped one when there are
 * more than @max_single. A grouped one still shown is updated in place and
 * counts every headline it announced that is not read yet; once closed,
 * the next group counts from nothing. Without a server that answers, the
 * notifications wait for the next one, and more than @max_single of them
 * wait as one grouped notification. Never waits for the server; failures
 * are logged, never fatal.
 */
void
lwn_notifier_announce (LwnNotifier *self,
                       GPtrArray *items,
                       guint max_single,
                       const char *feed,
                       const char *site_name,
                       const char *site_url)
{
  g_autoptr (GPtrArray) waiting = NULL;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (items->len == 0)
    return;

  if (site_name == NULL)
    site_name = "";
  if (feed == NULL)
    feed = site_name;
  if (items->len > max_single)
    {
      announce_group (self, items, NULL, feed, site_name, site_url);
      return;
    }

  /* What no server showed yet would come all at once when one appears:
   * beyond @max_single it comes as one notification, which also keeps what
   * waits bounded. */
  if (self->server == NULL || !lwn_notify_server_is_ready (self->server))
    {
      waiting = list_waiting_items (self, feed);
      if (waiting->len + items->len > max_single)
        {
          announce_group (self, items, waiting, feed, site_name, site_url);
          return;
        }
    }

  for (guint i = 0; i < items->len; i++)
    announce_one (self, g_ptr_array_index (items, i), feed);
}

/**
 * lwn_notifier_withdraw:
 * @self: a #LwnNotifier
 * @item_id: the key (lwn_headline_key_new()) of a headline that was read
 *
 * Closes the headline's notification and its reminder's, if they are still
 * shown, and takes it out of its feed's grouped notification's count; a grouped notification left
 * with nothing unread is closed too.
 */
void
lwn_notifier_withdraw (LwnNotifier *self,
                       const char *item_id)
{
  g_autoptr (GPtrArray) emptied = NULL;
  LwnNote *note;
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (LWN_IS_NOTIFIER (self));
  g_return_if_fail (item_id != NULL);

  note = g_hash_table_lookup (self->items, item_id);
  if (note != NULL)
    withdraw_note (self, note);
  note = g_hash_table_lookup (self->reminders, item_id);
  if (note != NULL)
    withdraw_note (self, note);

  /* A group's text stays as it is: changing it would show it again. */
  emptied = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      LwnGroup *group = value;
      Grouped *grouped = g_hash_table_lookup (group->grouped_ids, item_id);

      if (grouped == NULL)
        continue;
      g_hash_table_remove (group->grouped_ids, item_id);
      g_ptr_array_remove (group->grouped, grouped);
      if (group->grouped->len == 0 && group->n_untracked == 0)
        g_ptr_array_add (emptied, group->note);
    }
  /* Withdrawn once the walk is over: a note that goes takes its group. */
  for (guint i = 0; i < emptied->len; i++)
    withdraw_note (self, g_ptr_array_index (emptied, i));
}

/**
 * lwn_notifier_withdraw_all:
 * @self: a #LwnNotifier
 *
 * Closes every headline and reminder notification still shown (after "Mark
 * all as read", and when quitting: no action of theirs could be answered).
 */
void
lwn_notifier_withdraw_all (LwnNotifier *self)
{
  g_autoptr (GPtrArray) notes = NULL;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  notes = list_notes (self);
  for (guint i = 0; i < notes->len; i++)
    {
      LwnNote *note = g_ptr_array_index (notes, i);

      if (note->kind != LWN_NOTE_MESSAGE && note->kind != LWN_NOTE_NOTICE)
        withdraw_note (self, note);
    }
}

/**
 * lwn_notifier_withdraw_feed:
 * @self: a #LwnNotifier
 * @feed: a feed no longer followed, as lwn_notifier_announce() was given it
 *
 * Closes the feed's grouped notification and its headlines' own, or drops them if they wait for
 * a server: no reading model is left to record them as shown (#LwnNotifier::shown), and the
 * feed, if followed again, announces what it had not shown yet once more. A group only ever takes
 * over its own feed's waiting notifications, so another feed loses nothing. Reminders stay: each
 * was asked for article by article, its reading model let go of it once it was told, so that
 * nothing would tell it again, and its action opens the article without the feed.
 */
void
lwn_notifier_withdraw_feed (LwnNotifier *self,
                            const char *feed)
{
  g_autoptr (GPtrArray) gone = NULL;
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (LWN_IS_NOTIFIER (self));
  g_return_if_fail (feed != NULL);

  gone = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      LwnNote *note = value;
      guint index;

      if (!has_feed (note->feeds, feed, &index))
        continue;
      g_ptr_array_remove_index (note->feeds, index);
      if (note->feeds->len == 0)
        g_ptr_array_add (gone, note);
    }
  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      LwnGroup *group = value;

      if (g_str_equal (group->key, feed))
        g_ptr_array_add (gone, group->note);
    }
  /* Withdrawn once the walks are over: a note that goes leaves its table. */
  for (guint i = 0; i < gone->len; i++)
    withdraw_note (self, g_ptr_array_index (gone, i));
}

/**
 * lwn_notifier_show_message:
 * @self: a #LwnNotifier
 * @summary: one line
 * @body: plain text
 *
 * Shows a notification about the applet itself (not a headline), even when
 * headline notifications are turned off; a message still shown is replaced.
 */
void
lwn_notifier_show_message (LwnNotifier *self,
                           const char *summary,
                           const char *body)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (self->message == NULL)
    self->message = note_new (LWN_NOTE_MESSAGE, NULL);
  update_note (self, self->message, summary, body, NULL, NULL);
}

/**
 * lwn_notifier_show_notice:
 * @self: a #LwnNotifier
 * @summary: one line
 * @body: plain text
 *
 * Shows how to reach the applet when no tray shows its icon, with a "Show
 * Headlines" action that emits #LwnNotifier::show-all; unlike a message, it
 * stays until lwn_notifier_withdraw_notice().
 */
void
lwn_notifier_show_notice (LwnNotifier *self,
                          const char *summary,
                          const char *body)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (self->notice == NULL)
    self->notice = note_new (LWN_NOTE_NOTICE, NULL);
  update_note (self, self->notice, summary, body, NULL, NULL);
}

/**
 * lwn_notifier_withdraw_notice:
 * @self: a #LwnNotifier
 *
 * Closes the notice, shown or on its way, if there is one.
 */
void
lwn_notifier_withdraw_notice (LwnNotifier *self)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (self->notice != NULL)
    withdraw_note (self, self->notice);
}

/**
 * lwn_notifier_remind:
 * @self: a #LwnNotifier
 * @item_id: the key (lwn_headline_key_new()) of the headline a reminder was set for
 * @title: its title, in plain text
 * @url: the http(s) article to open
 *
 * Shows "Now free to read: @title", whose action emits
 * #LwnNotifier::open-reminder for that key and @url, whether or not new headlines are announced and
 * whether or not the item is still in the feed. A reminder's notification
 * is one of its own: the item's announcement, if still shown, stays.
 */
void
lwn_notifier_remind (LwnNotifier *self,
                     const char *item_id,
                     const char *title,
                     const char *url)
{
  g_autofree char *plain_title = NULL;
  g_autofree char *summary = NULL;
  LwnNote *note;

  g_return_if_fail (LWN_IS_NOTIFIER (self));
  g_return_if_fail (item_id != NULL);
  g_return_if_fail (title != NULL);

  plain_title = lwn_text_strip_controls (title);
  /* Translators: a notification's summary; %s is the title of a subscriber-only article LWN has opened to everyone. */
  summary = g_strdup_printf (_ ("Now free to read: %s"), plain_title);
  note = g_hash_table_lookup (self->reminders, item_id);
  if (note == NULL)
    {
      if (g_hash_table_size (self->reminders) >= MAX_ITEM_NOTES)
        forget_oldest (self, self->reminders);
      note = note_new (LWN_NOTE_REMINDER, item_id);
      g_hash_table_insert (self->reminders, note->item_id, note);
    }
  update_note (self, note, summary, "", url, REMINDER_CATEGORY);
}

/* Names the drain's tasks; its address is what matters. */
static char drain_source_tag;

/* How often a drain looks whether the answers are in. */
#define DRAIN_POLL_MS 20

/* The answers come in through lwn-notifier-server.c, and the drain only
 * looks at the notes from time to time: the conversation with the server
 * stays the same whether or not anyone waits for it. */
static gboolean
drain_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  LwnNotifier *self = g_task_get_source_object (task);
  const gint64 *deadline = g_task_get_task_data (task);

  if (!lwn_notifier_is_sending (self))
    g_task_return_boolean (task, TRUE);
  else if (g_get_monotonic_time () >= *deadline)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                             _ ("The notification server did not answer in time"));
  else if (!g_task_return_error_if_cancelled (task))
    return G_SOURCE_CONTINUE;
  return G_SOURCE_REMOVE;
}

/**
 * lwn_notifier_drain_async:
 * @self: a #LwnNotifier
 * @timeout_ms: how long to wait at most
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once every notification being sent has the server's
 *   answer, or @timeout_ms have passed
 * @user_data: for @callback
 *
 * Waits, without blocking the main loop, for the server's answers to what
 * is being shown: for quitting, so that #LwnNotifier::shown tells what a
 * server showed before the state is saved for the last time. A server that
 * holds a call is not waited for longer than @timeout_ms.
 */
void
lwn_notifier_drain_async (LwnNotifier *self,
                          guint timeout_ms,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GSource) poll = NULL;
  gint64 *deadline;

  g_return_if_fail (LWN_IS_NOTIFIER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &drain_source_tag);
  if (!lwn_notifier_is_sending (self))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  deadline = g_new (gint64, 1);
  *deadline = g_get_monotonic_time () + (gint64) timeout_ms * G_TIME_SPAN_MILLISECOND;
  g_task_set_task_data (task, deadline, g_free);
  poll = g_timeout_source_new (DRAIN_POLL_MS);
  g_task_attach_source (task, poll, drain_poll_cb);
}

/**
 * lwn_notifier_drain_finish:
 * @self: a #LwnNotifier
 * @result: the result given to the callback
 * @error: set to %G_IO_ERROR_TIMED_OUT when an answer did not come in time
 *
 * Returns: whether every answer came
 */
gboolean
lwn_notifier_drain_finish (LwnNotifier *self,
                           GAsyncResult *result,
                           GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, &drain_source_tag), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Notifications kept, waiting or shown, and the headlines the group counts by id. */
guint
lwn_notifier_count_kept (LwnNotifier *self)
{
  g_return_val_if_fail (LWN_IS_NOTIFIER (self), 0);

  GHashTableIter iter;
  gpointer value;
  guint n = g_hash_table_size (self->items) + (self->message != NULL) + (self->notice != NULL) + g_hash_table_size (self->reminders);

  g_hash_table_iter_init (&iter, self->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += 1 + ((LwnGroup *) value)->grouped->len;
  return n;
}

gboolean
lwn_notifier_sync (LwnNotifier *self)
{
  g_return_val_if_fail (LWN_IS_NOTIFIER (self), FALSE);

  return self->server != NULL && lwn_notify_server_sync (self->server);
}

void
lwn_notifier_set_retry_interval (LwnNotifier *self,
                                 gint64 interval)
{
  g_return_if_fail (LWN_IS_NOTIFIER (self));

  if (self->server != NULL)
    lwn_notify_server_set_retry_interval (self->server, interval);
}
