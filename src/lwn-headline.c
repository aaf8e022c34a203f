/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnHeadline pairs an immutable feed item with the item's "unread" mark and with whether a reminder is set
 * for the item. Views watch both with notify::unread and notify::reminder.
 *
 * A headline is its feed's item: an id means something only within the feed that sent it, since any
 * feed can send any id. Wherever headlines of several feeds meet (a menu, a window, notifications,
 * actions), a headline is named by its feed and its id together, or by the key that holds both. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "lwn-headline.h"
#include "lwn-str-hash.h"

struct _LwnHeadline
{
  GObject parent_instance;

  LwnFeedItem *item;
  char *feed; /* GRefString: the address its feed is followed by, shared by the feed's headlines */
  gboolean unread;
  gboolean reminder;
};

G_DEFINE_FINAL_TYPE (LwnHeadline, lwn_headline, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_UNREAD,
  PROP_REMINDER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
lwn_headline_finalize (GObject *object)
{
  LwnHeadline *self = LWN_HEADLINE (object);

  g_clear_pointer (&self->item, lwn_feed_item_unref);
  g_clear_pointer (&self->feed, g_ref_string_release);

  G_OBJECT_CLASS (lwn_headline_parent_class)->finalize (object);
}

static void
lwn_headline_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  LwnHeadline *self = LWN_HEADLINE (object);

  switch (prop_id)
    {
      case PROP_UNREAD:
        g_value_set_boolean (value, self->unread);
        break;
      case PROP_REMINDER:
        g_value_set_boolean (value, self->reminder);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_headline_class_init (LwnHeadlineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lwn_headline_finalize;
  object_class->get_property = lwn_headline_get_property;

  /**
   * LwnHeadline:unread:
   *
   * Whether the person has not opened this headline yet. Only the reading
   * model changes it.
   */
  properties[PROP_UNREAD] = g_param_spec_boolean ("unread", NULL, NULL, FALSE,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * LwnHeadline:reminder:
   *
   * Whether the person asked to be told when this subscriber-only article
   * becomes free. Only the reading model changes it.
   */
  properties[PROP_REMINDER] = g_param_spec_boolean ("reminder", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lwn_headline_init (LwnHeadline *self)
{
}

/**
 * lwn_headline_new:
 * @item: the feed item
 * @feed: the address its feed is followed by (kept once, for every headline
 *   of the feed)
 * @unread: whether it is unread
 *
 * Returns: (transfer full): a new headline holding a reference to @item
 */
LwnHeadline *
lwn_headline_new (LwnFeedItem *item,
                  const char *feed,
                  gboolean unread)
{
  LwnHeadline *self;

  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (feed != NULL, NULL);

  self = g_object_new (LWN_TYPE_HEADLINE, NULL);
  self->item = lwn_feed_item_ref (item);
  self->feed = g_ref_string_new_intern (feed);
  self->unread = unread;
  return self;
}

/**
 * lwn_headline_get_item:
 * @self: a #LwnHeadline
 *
 * Returns: (transfer none): the feed item: title, links, date, author, summary
 */
LwnFeedItem *
lwn_headline_get_item (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return self->item;
}

const char *
lwn_headline_get_id (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return lwn_feed_item_get_id (self->item);
}

/**
 * lwn_headline_get_feed:
 * @self: a #LwnHeadline
 *
 * Returns: the address of the feed the headline belongs to, as the feed is
 *   followed: with lwn_headline_get_id(), what names the headline
 */
const char *
lwn_headline_get_feed (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return self->feed;
}

/**
 * lwn_headline_dup_key:
 * @self: a #LwnHeadline
 *
 * Returns: (transfer full): the key that names the headline among every
 *   feed's (lwn_headline_key_new())
 */
char *
lwn_headline_dup_key (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return lwn_headline_key_new (self->feed, lwn_feed_item_get_id (self->item));
}

/**
 * lwn_headline_hash:
 * @headline: (type LwnHeadline): a headline
 *
 * A #GHashFunc for tables keyed by headlines that stand for their feed and
 * id, with lwn_headline_equal(): another headline of the same item finds
 * the same entry.
 *
 * Returns: the hash of its feed and id
 */
guint
lwn_headline_hash (gconstpointer headline)
{
  LwnHeadline *self = (LwnHeadline *) headline;

  return lwn_str_hash (lwn_feed_item_get_id (self->item)) * 31 + lwn_str_hash (self->feed);
}

/**
 * lwn_headline_equal:
 * @a: (type LwnHeadline): a headline
 * @b: (type LwnHeadline): another
 *
 * Returns: whether both name the same item of the same feed
 */
gboolean
lwn_headline_equal (gconstpointer a,
                    gconstpointer b)
{
  LwnHeadline *x = (LwnHeadline *) a;
  LwnHeadline *y = (LwnHeadline *) b;

  return (x->feed == y->feed || strcmp (x->feed, y->feed) == 0)
         && strcmp (lwn_feed_item_get_id (x->item), lwn_feed_item_get_id (y->item)) == 0;
}

/**
 * lwn_headline_key_new:
 * @feed: a feed's address, as it is followed
 * @item_id: an item id of that feed
 *
 * The string that names one feed's item where headlines of every feed meet
 * (the notifications, the menu): the feed's length, a colon, the feed and
 * the id. No two pairs give the same key, whatever a feed's ids hold.
 *
 * Returns: (transfer full): the key
 */
char *
lwn_headline_key_new (const char *feed,
                      const char *item_id)
{
  g_return_val_if_fail (feed != NULL, NULL);
  g_return_val_if_fail (item_id != NULL, NULL);

  return g_strdup_printf ("%" G_GSIZE_FORMAT ":%s%s", strlen (feed), feed, item_id);
}

/**
 * lwn_headline_key_split:
 * @key: a key from lwn_headline_key_new()
 * @feed: (out) (optional): its feed
 * @item_id: (out) (optional): its item id
 *
 * Returns: whether @key is such a key; the outputs are set only then
 */
gboolean
lwn_headline_key_split (const char *key,
                        char **feed,
                        char **item_id)
{
  const char *colon;
  char *end;
  guint64 length;

  g_return_val_if_fail (key != NULL, FALSE);

  colon = strchr (key, ':');
  if (colon == NULL || colon == key || !g_ascii_isdigit (*key))
    return FALSE;
  length = g_ascii_strtoull (key, &end, 10);
  if (end != colon || length > strlen (colon + 1))
    return FALSE;

  if (feed != NULL)
    *feed = g_strndup (colon + 1, length);
  if (item_id != NULL)
    *item_id = g_strdup (colon + 1 + length);
  return TRUE;
}

const char *
lwn_headline_get_title (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return lwn_feed_item_get_title (self->item);
}

/**
 * lwn_headline_get_url:
 * @self: a #LwnHeadline
 *
 * Returns: (nullable): the full-article http(s) URL, or %NULL when the item
 *   has none that is safe to open
 */
const char *
lwn_headline_get_url (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  return lwn_feed_item_get_url (self->item);
}

gboolean
lwn_headline_get_unread (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), FALSE);

  return self->unread;
}

/**
 * lwn_headline_set_unread:
 * @self: a #LwnHeadline
 * @unread: the new state
 *
 * Only the reading model calls this. It notifies #LwnHeadline:unread when
 * the state changes.
 */
void
lwn_headline_set_unread (LwnHeadline *self,
                         gboolean unread)
{
  g_return_if_fail (LWN_IS_HEADLINE (self));

  unread = !!unread;
  if (self->unread == unread)
    return;

  self->unread = unread;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNREAD]);
}

gboolean
lwn_headline_get_reminder (LwnHeadline *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE (self), FALSE);

  return self->reminder;
}

/**
 * lwn_headline_set_reminder:
 * @self: a #LwnHeadline
 * @reminder: the new state
 *
 * Only the reading model calls this. It notifies #LwnHeadline:reminder when
 * the state changes.
 */
void
lwn_headline_set_reminder (LwnHeadline *self,
                           gboolean reminder)
{
  g_return_if_fail (LWN_IS_HEADLINE (self));

  reminder = !!reminder;
  if (self->reminder == reminder)
    return;

  self->reminder = reminder;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMINDER]);
}

/**
 * lwn_headline_dup_free_on:
 * @self: a #LwnHeadline
 *
 * Returns: (transfer full) (nullable): when a subscriber-only article
 *   becomes free to everyone, %LWN_HEADLINE_PAYWALL_DAYS after its date;
 *   %NULL for other headlines and for those without a date
 */
GDateTime *
lwn_headline_dup_free_on (LwnHeadline *self)
{
  GDateTime *date;

  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  date = lwn_feed_item_get_date (self->item);
  if (!lwn_feed_item_get_paywalled (self->item) || date == NULL)
    return NULL;
  return g_date_time_add_days (date, LWN_HEADLINE_PAYWALL_DAYS);
}

/**
 * lwn_headline_is_free_later:
 * @self: a #LwnHeadline
 * @now: the present
 *
 * Returns: %TRUE for a subscriber-only article with a date that is not free
 *   yet at @now: one that a reminder can be set for
 */
gboolean
lwn_headline_is_free_later (LwnHeadline *self,
                            GDateTime *now)
{
  g_autoptr (GDateTime) free_on = NULL;

  g_return_val_if_fail (LWN_IS_HEADLINE (self), FALSE);
  g_return_val_if_fail (now != NULL, FALSE);

  free_on = lwn_headline_dup_free_on (self);
  return free_on != NULL && g_date_time_compare (free_on, now) > 0;
}

/**
 * lwn_format_age:
 * @when: a moment in the past
 * @now: the present
 *
 * Says how long ago @when was, the way a person says it: "just now", "5 minutes
 * ago", "3 hours ago", "yesterday", "4 days ago", and after a week the
 * date itself ("12 July 2023"). A @when in the future (a clock off by a
 * little) counts as "just now".
 *
 * Returns: (transfer full): the text, translated
 */
char *
lwn_format_age (GDateTime *when,
                GDateTime *now)
{
  GTimeSpan ago = g_date_time_difference (now, when);
  gint64 minutes = ago / G_TIME_SPAN_MINUTE;
  gint64 hours = ago / G_TIME_SPAN_HOUR;
  gint64 days = ago / G_TIME_SPAN_DAY;
  g_autoptr (GDateTime) local = NULL;

  if (minutes < 1)
    return g_strdup (_ ("just now"));
  if (hours < 1)
    return g_strdup_printf (ngettext ("%d minute ago", "%d minutes ago", (gulong) minutes), (int) minutes);
  if (days < 1)
    return g_strdup_printf (ngettext ("%d hour ago", "%d hours ago", (gulong) hours), (int) hours);
  if (days < 2)
    return g_strdup (_ ("yesterday"));
  if (days < 7)
    return g_strdup_printf (ngettext ("%d day ago", "%d days ago", (gulong) days), (int) days);

  local = g_date_time_to_local (when);
  /* Translators: a date, see the strftime() manual; e.g. "12 July 2023". */
  return g_date_time_format (local, _ ("%-d %B %Y"));
}

/**
 * lwn_headline_dup_details:
 * @self: a #LwnHeadline
 * @now: the present, to say how old the headline is
 * @subscriber: whether the person subscribes to LWN, and so reads every
 *   article at once
 *
 * Makes the line shown under a headline's title: the headline's age, its
 * author and, for LWN's subscriber-only articles still within their first
 * week, the day they become free, e.g. "3 hours ago · Jonathan Corbet ·
 * Subscribers only — free on 13 July". A subscriber is told nothing about access.
 *
 * Returns: (transfer full): the details; "" when nothing is known
 */
char *
lwn_headline_dup_details (LwnHeadline *self,
                          GDateTime *now,
                          gboolean subscriber)
{
  LwnFeedItem *item;
  GDateTime *date;
  const char *author;
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (LWN_IS_HEADLINE (self), NULL);

  item = self->item;
  date = lwn_feed_item_get_date (item);
  author = lwn_feed_item_get_author (item);

  if (date != NULL)
    g_ptr_array_add (parts, lwn_format_age (date, now));
  if (author != NULL && *author != '\0')
    g_ptr_array_add (parts, g_strdup (author));
  if (lwn_feed_item_get_paywalled (item) && !subscriber)
    {
      g_autoptr (GDateTime) free_on = lwn_headline_dup_free_on (self);

      if (free_on == NULL)
        g_ptr_array_add (parts, g_strdup (_ ("Subscribers only")));
      else if (g_date_time_compare (free_on, now) > 0)
        {
          g_autoptr (GDateTime) local = g_date_time_to_local (free_on);
          /* Translators: a day, see the strftime() manual; e.g. "13 July". */
          g_autofree char *formatted = g_date_time_format (local, _ ("%-d %B"));
          g_autoptr (GString) day = g_string_new (formatted);

          /* A line may break before the day, never inside it. */
          g_string_replace (day, " ", "\u00a0", 0);
          /* Translators: %s is a day, e.g. "13 July": LWN opens its articles to everyone a week after publication. */
          g_ptr_array_add (parts, g_strdup_printf (_ ("Subscribers only — free on %s"), day->str));
        }
    }

  g_ptr_array_add (parts, NULL);
  /* Translators: the separator between the age, the author and the access of a headline. */
  return g_strjoinv (_ (" · "), (char **) parts->pdata);
}
