/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnHeadline: an immutable feed item plus its "unread" mark, which views watch with notify::unread. */

#include "config.h"

#include "lwn-headline.h"

struct _LwnHeadline
{
  GObject parent_instance;

  LwnFeedItem *item;
  gboolean unread;
};

G_DEFINE_FINAL_TYPE (LwnHeadline, lwn_headline, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_UNREAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
lwn_headline_finalize (GObject *object)
{
  LwnHeadline *self = LWN_HEADLINE (object);

  g_clear_pointer (&self->item, lwn_feed_item_unref);

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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lwn_headline_init (LwnHeadline *self)
{
}

/**
 * lwn_headline_new:
 * @item: the feed item
 * @unread: whether it is unread
 *
 * Returns: (transfer full): a new headline holding a reference to @item
 */
LwnHeadline *
lwn_headline_new (LwnFeedItem *item,
                  gboolean unread)
{
  LwnHeadline *self;

  g_return_val_if_fail (item != NULL, NULL);

  self = g_object_new (LWN_TYPE_HEADLINE, NULL);
  self->item = lwn_feed_item_ref (item);
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
 * For the reading model: notifies #LwnHeadline:unread on a change.
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
