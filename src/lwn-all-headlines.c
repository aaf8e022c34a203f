/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every feed's headlines as one list model, feed after feed in the set's order, kept up to date as feeds change. */

#include "config.h"

#include "lwn-all-headlines.h"
#include "lwn-headline.h"

struct _LwnAllHeadlines
{
  GObject parent_instance;

  LwnFeedSet *feeds;
  GPtrArray *parts; /* GListModel* of LwnHeadline, one per feed, referenced */
};

static void lwn_all_headlines_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LwnAllHeadlines, lwn_all_headlines, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, lwn_all_headlines_list_model_init))

static GType
lwn_all_headlines_get_item_type (GListModel *model)
{
  return LWN_TYPE_HEADLINE;
}

static guint
count (LwnAllHeadlines *self,
       guint up_to)
{
  guint n = 0;

  for (guint i = 0; i < up_to && i < self->parts->len; i++)
    n += g_list_model_get_n_items (g_ptr_array_index (self->parts, i));
  return n;
}

static guint
lwn_all_headlines_get_n_items (GListModel *model)
{
  LwnAllHeadlines *self = LWN_ALL_HEADLINES (model);

  return count (self, self->parts->len);
}

static gpointer
lwn_all_headlines_get_item (GListModel *model,
                            guint position)
{
  LwnAllHeadlines *self = LWN_ALL_HEADLINES (model);

  for (guint i = 0; i < self->parts->len; i++)
    {
      GListModel *part = g_ptr_array_index (self->parts, i);
      guint n = g_list_model_get_n_items (part);

      if (position < n)
        return g_list_model_get_item (part, position);
      position -= n;
    }
  return NULL;
}

static void
lwn_all_headlines_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = lwn_all_headlines_get_item_type;
  iface->get_n_items = lwn_all_headlines_get_n_items;
  iface->get_item = lwn_all_headlines_get_item;
}

/* A feed's list changed: the same change, where that feed's part begins. */
static void
part_changed_cb (GListModel *part,
                 guint position,
                 guint removed,
                 guint added,
                 LwnAllHeadlines *self)
{
  guint index;

  if (!g_ptr_array_find (self->parts, part, &index))
    return;
  g_list_model_items_changed (G_LIST_MODEL (self), count (self, index) + position, removed, added);
}

static void
drop_parts (LwnAllHeadlines *self)
{
  for (guint i = 0; i < self->parts->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->parts, i), self);
  g_ptr_array_set_size (self->parts, 0);
}

/* Feeds added, moved or removed: the parts are taken anew. */
static void
take_parts (LwnAllHeadlines *self)
{
  drop_parts (self);
  for (guint i = 0; i < lwn_feed_set_get_n_feeds (self->feeds); i++)
    {
      GListModel *part = lwn_reader_get_headlines (lwn_feed_set_get_reader (self->feeds, i));

      g_ptr_array_add (self->parts, g_object_ref (part));
      g_signal_connect (part, "items-changed", G_CALLBACK (part_changed_cb), self);
    }
}

static void
feeds_changed_cb (GListModel *feeds,
                  guint position,
                  guint removed,
                  guint added,
                  LwnAllHeadlines *self)
{
  guint before = count (self, self->parts->len);

  take_parts (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, before, count (self, self->parts->len));
}

static void
lwn_all_headlines_dispose (GObject *object)
{
  LwnAllHeadlines *self = LWN_ALL_HEADLINES (object);

  if (self->parts != NULL)
    drop_parts (self);
  if (self->feeds != NULL)
    g_signal_handlers_disconnect_by_data (self->feeds, self);
  g_clear_object (&self->feeds);

  G_OBJECT_CLASS (lwn_all_headlines_parent_class)->dispose (object);
}

static void
lwn_all_headlines_finalize (GObject *object)
{
  g_ptr_array_unref (LWN_ALL_HEADLINES (object)->parts);

  G_OBJECT_CLASS (lwn_all_headlines_parent_class)->finalize (object);
}

static void
lwn_all_headlines_class_init (LwnAllHeadlinesClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lwn_all_headlines_dispose;
  G_OBJECT_CLASS (klass)->finalize = lwn_all_headlines_finalize;
}

static void
lwn_all_headlines_init (LwnAllHeadlines *self)
{
  self->parts = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * lwn_all_headlines_new:
 * @feeds: the feeds whose headlines to list
 *
 * Returns: (transfer full): a list model of every feed's #LwnHeadline, the
 *   first feed's first; an article two feeds carry is there twice
 */
LwnAllHeadlines *
lwn_all_headlines_new (LwnFeedSet *feeds)
{
  LwnAllHeadlines *self;

  g_return_val_if_fail (LWN_IS_FEED_SET (feeds), NULL);

  self = g_object_new (LWN_TYPE_ALL_HEADLINES, NULL);
  self->feeds = g_object_ref (feeds);
  take_parts (self);
  g_signal_connect (feeds, "items-changed", G_CALLBACK (feeds_changed_cb), self);
  return self;
}

/**
 * lwn_all_headlines_dup_feed_name:
 * @self: a #LwnAllHeadlines
 * @position: a position in the list
 *
 * Returns: (transfer full) (nullable): the name of the feed of the headline
 *   at @position, or %NULL past the end
 */
char *
lwn_all_headlines_dup_feed_name (LwnAllHeadlines *self,
                                 guint position)
{
  g_return_val_if_fail (LWN_IS_ALL_HEADLINES (self), NULL);

  for (guint i = 0; i < self->parts->len && i < lwn_feed_set_get_n_feeds (self->feeds); i++)
    {
      guint n = g_list_model_get_n_items (g_ptr_array_index (self->parts, i));

      if (position < n)
        return lwn_reader_dup_name (lwn_feed_set_get_reader (self->feeds, i));
      position -= n;
    }
  return NULL;
}
