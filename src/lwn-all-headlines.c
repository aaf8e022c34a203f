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
  /* Where each part begins, and after the last, where the list ends: made
   * again at the first look after a change. With 200 feeds, a view that asks
   * for every headline would otherwise count through the feeds for each. */
  GArray *starts; /* guint, parts->len + 1 of them */
  gboolean starts_valid;
};

static void lwn_all_headlines_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LwnAllHeadlines, lwn_all_headlines, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, lwn_all_headlines_list_model_init))

static GType
lwn_all_headlines_get_item_type (GListModel *model)
{
  return LWN_TYPE_HEADLINE;
}

static const guint *
starts (LwnAllHeadlines *self)
{
  if (!self->starts_valid)
    {
      guint n = 0;

      g_array_set_size (self->starts, 0);
      for (guint i = 0; i < self->parts->len; i++)
        {
          g_array_append_val (self->starts, n);
          n += g_list_model_get_n_items (g_ptr_array_index (self->parts, i));
        }
      g_array_append_val (self->starts, n);
      self->starts_valid = TRUE;
    }
  return (const guint *) (gpointer) self->starts->data;
}

/* How many headlines the first @up_to parts hold. */
static guint
count (LwnAllHeadlines *self,
       guint up_to)
{
  return starts (self)[MIN (up_to, self->parts->len)];
}

/* The part that holds @position, or parts->len past the end. */
static guint
find_part (LwnAllHeadlines *self,
           guint position)
{
  const guint *begin = starts (self);
  guint low = 0;
  guint high = self->parts->len;

  if (position >= begin[high])
    return high;
  /* The last part that begins at or before @position: empty parts before it
   * begin where it does. */
  while (high - low > 1)
    {
      guint middle = low + (high - low) / 2;

      if (begin[middle] <= position)
        low = middle;
      else
        high = middle;
    }
  return low;
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
  guint index = find_part (self, position);

  if (index >= self->parts->len)
    return NULL;
  return g_list_model_get_item (g_ptr_array_index (self->parts, index), position - starts (self)[index]);
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
  guint start;

  if (!g_ptr_array_find (self->parts, part, &index))
    return;
  /* The parts before this one did not change: where it begins still holds. */
  start = count (self, index);
  self->starts_valid = FALSE;
  g_list_model_items_changed (G_LIST_MODEL (self), start + position, removed, added);
}

static void
drop_parts (LwnAllHeadlines *self)
{
  for (guint i = 0; i < self->parts->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->parts, i), self);
  g_ptr_array_set_size (self->parts, 0);
  self->starts_valid = FALSE;
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
  self->starts_valid = FALSE;
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
  g_array_unref (LWN_ALL_HEADLINES (object)->starts);

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
  self->starts = g_array_new (FALSE, FALSE, sizeof (guint));
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
  guint index;

  g_return_val_if_fail (LWN_IS_ALL_HEADLINES (self), NULL);

  index = find_part (self, position);
  if (index >= self->parts->len || index >= lwn_feed_set_get_n_feeds (self->feeds))
    return NULL;
  return lwn_reader_dup_name (lwn_feed_set_get_reader (self->feeds, index));
}
