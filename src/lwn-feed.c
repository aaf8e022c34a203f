/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnFeed and LwnFeedItem are reference-counted values that never change after construction. */

#include "config.h"

#include <string.h>

#include "lwn-feed.h"
#include "lwn-search.h"
#include "lwn-str-hash.h"
#include "lwn-text.h"

struct _LwnFeedItem
{
  gatomicrefcount ref_count;
  /* These point into text, after the struct: one block per item, where six
   * strings each of their own cost a thousand-item feed 0.15 MiB more in
   * allocator headers and holes. */
  const char *id;
  const char *title;
  const char *link;
  const char *url;
  const char *author;
  const char *description_html;
  GDateTime *date;
  gboolean paywalled;
  /* These fields are computed once, when a view first needs them: the
   * headlines window has a worker make them (lwn_feed_items_prepare_display_async()),
   * a notification makes the summary of its own item. At rest only the menu's
   * titles are needed, and the text of a feed's items would weigh more than
   * the items themselves. They are set with an atomic exchange, so that two
   * threads computing the same field at once keep one answer. */
  char *summary;
  char *summary_markup;
  char *search_text;
  char text[];
};

struct _LwnFeed
{
  gatomicrefcount ref_count;
  char *title;
  char *link;
  guint refresh_seconds;
  GPtrArray *items;
};

static gsize
text_size (const char *text)
{
  return text != NULL ? strlen (text) + 1 : 0;
}

/* Copies @text to *@next and moves *@next past it; NULL stays NULL. */
static const char *
copy_text (char **next,
           const char *text)
{
  char *copy = *next;
  gsize size = text_size (text);

  if (text == NULL)
    return NULL;
  memcpy (copy, text, size);
  *next += size;
  return copy;
}

/**
 * lwn_feed_item_new:
 * @id: a stable identifier, unique within the feed
 * @title: the plain-text title
 * @link: (nullable): the item's link as resolved by the parser
 * @url: (nullable): the launchable full-article URL, or %NULL when the link is unsafe
 * @author: (nullable): the author's name
 * @description_html: (nullable): the description or content, as HTML
 * @date: (nullable): when it was published or updated
 * @paywalled: whether LWN marks it as subscriber-only
 *
 * Returns: (transfer full): a new item holding copies of every argument
 */
LwnFeedItem *
lwn_feed_item_new (const char *id,
                   const char *title,
                   const char *link,
                   const char *url,
                   const char *author,
                   const char *description_html,
                   GDateTime *date,
                   gboolean paywalled)
{
  g_autofree char *valid_description = NULL;
  LwnFeedItem *item;
  char *next;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (title != NULL, NULL);

  /* libxml2 2.14 (Debian 13) can hand back content that is not UTF-8 after
   * an encoding error in the document; what an item keeps is UTF-8. */
  if (description_html != NULL && !g_utf8_validate (description_html, -1, NULL))
    description_html = valid_description = g_utf8_make_valid (description_html, -1);

  item = g_malloc0 (sizeof (LwnFeedItem) + text_size (id) + text_size (title) + text_size (link) + text_size (url)
                    + text_size (author) + text_size (description_html));
  g_atomic_ref_count_init (&item->ref_count);
  next = item->text;
  item->id = copy_text (&next, id);
  item->title = copy_text (&next, title);
  item->link = copy_text (&next, link);
  item->url = copy_text (&next, url);
  item->author = copy_text (&next, author);
  item->description_html = copy_text (&next, description_html);
  item->date = date != NULL ? g_date_time_ref (date) : NULL;
  item->paywalled = paywalled;
  return item;
}

/**
 * lwn_feed_item_ref:
 * @item: an item
 *
 * Returns: (transfer full): @item
 */
LwnFeedItem *
lwn_feed_item_ref (LwnFeedItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  g_atomic_ref_count_inc (&item->ref_count);
  return item;
}

/**
 * lwn_feed_item_unref:
 * @item: (transfer full): an item
 *
 * Drops a reference to @item, and frees the item when that reference was
 * the last one.
 */
void
lwn_feed_item_unref (LwnFeedItem *item)
{
  g_return_if_fail (item != NULL);

  if (!g_atomic_ref_count_dec (&item->ref_count))
    return;

  g_free (item->summary);
  g_free (item->summary_markup);
  g_free (item->search_text);
  g_clear_pointer (&item->date, g_date_time_unref);
  g_free (item);
}

const char *
lwn_feed_item_get_id (const LwnFeedItem *item)
{
  return item->id;
}

const char *
lwn_feed_item_get_title (const LwnFeedItem *item)
{
  return item->title;
}

const char *
lwn_feed_item_get_link (const LwnFeedItem *item)
{
  return item->link;
}

/**
 * lwn_feed_item_get_url:
 * @item: an item
 *
 * Returns: (nullable): the full-article http(s) URL to open, or %NULL when
 *   the item has no link that is safe to launch
 */
const char *
lwn_feed_item_get_url (const LwnFeedItem *item)
{
  return item->url;
}

const char *
lwn_feed_item_get_author (const LwnFeedItem *item)
{
  return item->author;
}

const char *
lwn_feed_item_get_description (const LwnFeedItem *item)
{
  return item->description_html;
}

GDateTime *
lwn_feed_item_get_date (const LwnFeedItem *item)
{
  return item->date;
}

gboolean
lwn_feed_item_get_paywalled (const LwnFeedItem *item)
{
  return item->paywalled;
}

/**
 * lwn_feed_item_is_security_list:
 * @item: an item
 *
 * Returns: whether @item is one of LWN's daily lists of distributions'
 *   security updates ("Security updates for Monday")
 */
gboolean
lwn_feed_item_is_security_list (const LwnFeedItem *item)
{
  static const char prefix[] = "Security updates for ";

  return g_ascii_strncasecmp (item->title, prefix, sizeof prefix - 1) == 0;
}

/* Keeps the first of two answers computed at once by two threads, without
 * the spare room the string grew with: it lives as long as the item. */
static const char *
keep_computed (char **field,
               char *computed)
{
  computed = g_realloc (computed, strlen (computed) + 1);
  if (!g_atomic_pointer_compare_and_exchange (field, NULL, computed))
    g_free (computed);
  return g_atomic_pointer_get (field);
}

/**
 * lwn_feed_item_get_summary:
 * @item: an item
 *
 * Gives the description as plain text on one line, at most
 * %LWN_FEED_SUMMARY_CHARS characters. The summary is computed on first use
 * unless lwn_feed_items_prepare_display_async() made it already; two threads
 * may ask at once, and both get the same text.
 *
 * Returns: (transfer none): the summary; "" when the item has none
 */
const char *
lwn_feed_item_get_summary (LwnFeedItem *item)
{
  const char *summary = g_atomic_pointer_get (&item->summary);

  if (summary != NULL)
    return summary;
  return keep_computed (&item->summary, lwn_text_from_html (item->description_html, LWN_FEED_SUMMARY_CHARS));
}

/**
 * lwn_feed_new:
 * @title: the feed's title
 * @link: (nullable): the site the feed belongs to
 * @refresh_seconds: the feed's own minimum refresh interval, 0 for none
 * @items: (transfer container) (element-type LwnFeedItem): the items in feed order;
 *   the array must free its elements with lwn_feed_item_unref()
 *
 * Returns: (transfer full): a new feed
 */
LwnFeed *
lwn_feed_new (const char *title,
              const char *link,
              guint refresh_seconds,
              GPtrArray *items)
{
  LwnFeed *feed;

  g_return_val_if_fail (title != NULL, NULL);
  g_return_val_if_fail (items != NULL, NULL);

  feed = g_new0 (LwnFeed, 1);
  g_atomic_ref_count_init (&feed->ref_count);
  feed->title = g_strdup (title);
  feed->link = g_strdup (link);
  feed->refresh_seconds = refresh_seconds;
  feed->items = items;
  return feed;
}

LwnFeed *
lwn_feed_ref (LwnFeed *feed)
{
  g_return_val_if_fail (feed != NULL, NULL);

  g_atomic_ref_count_inc (&feed->ref_count);
  return feed;
}

void
lwn_feed_unref (LwnFeed *feed)
{
  g_return_if_fail (feed != NULL);

  if (!g_atomic_ref_count_dec (&feed->ref_count))
    return;

  g_free (feed->title);
  g_free (feed->link);
  g_ptr_array_unref (feed->items);
  g_free (feed);
}

const char *
lwn_feed_get_title (const LwnFeed *feed)
{
  return feed->title;
}

const char *
lwn_feed_get_link (const LwnFeed *feed)
{
  return feed->link;
}

guint
lwn_feed_get_refresh_seconds (const LwnFeed *feed)
{
  return feed->refresh_seconds;
}

guint
lwn_feed_get_n_items (const LwnFeed *feed)
{
  return feed->items->len;
}

/**
 * lwn_feed_get_item:
 * @feed: a feed
 * @index: an index below lwn_feed_get_n_items()
 *
 * Returns: (transfer none): the item at @index, in feed order
 */
LwnFeedItem *
lwn_feed_get_item (const LwnFeed *feed,
                   guint index)
{
  g_return_val_if_fail (index < feed->items->len, NULL);

  return g_ptr_array_index (feed->items, index);
}

/**
 * lwn_feed_item_get_summary_markup:
 * @item: an item
 *
 * Gives the description as Pango markup for a label: paragraphs, emphasis,
 * code, lists and quotes, and links that are http(s) only (LWN's RSS-view
 * links rewritten to the article). The markup is computed on first use, as
 * the summary is (see lwn_feed_item_get_summary()).
 *
 * Returns: (transfer none): the markup; "" when the item has no description
 */
const char *
lwn_feed_item_get_summary_markup (LwnFeedItem *item)
{
  const char *markup = g_atomic_pointer_get (&item->summary_markup);

  if (markup != NULL)
    return markup;
  return keep_computed (&item->summary_markup, lwn_text_markup_from_html (item->description_html, item->link));
}

/**
 * lwn_feed_item_get_search_text:
 * @item: an item
 *
 * Gives the title, author and summary, folded for
 * lwn_search_query_matches(). The text is made on first use, so that only
 * a search pays for it: the views have lwn_feed_items_prepare_search_async()
 * make it in a worker, and never fold text on the main thread.
 *
 * Returns: (transfer none): the folded text
 */
const char *
lwn_feed_item_get_search_text (LwnFeedItem *item)
{
  const char *search_text = g_atomic_pointer_get (&item->search_text);
  const char *summary = g_atomic_pointer_get (&item->summary);
  g_autofree char *made_summary = NULL;
  g_autofree char *text = NULL;

  if (search_text != NULL)
    return search_text;
  /* The summary made for the search is not kept: a search of every feed
   * (the desktop's) would otherwise keep every summary, which only the
   * rows shown need. */
  if (summary == NULL)
    summary = made_summary = lwn_text_from_html (item->description_html, LWN_FEED_SUMMARY_CHARS);
  text = g_strjoin ("\n", item->title, item->author != NULL ? item->author : "", summary, NULL);
  return keep_computed (&item->search_text, lwn_search_fold (text));
}

/**
 * lwn_feed_item_has_search_text:
 * @item: an item
 *
 * Returns: whether lwn_feed_item_get_search_text() would answer without
 *   folding any text
 */
gboolean
lwn_feed_item_has_search_text (LwnFeedItem *item)
{
  return g_atomic_pointer_get (&item->search_text) != NULL;
}

/**
 * lwn_feed_item_has_display_text:
 * @item: an item
 *
 * Returns: whether lwn_feed_item_get_summary() and
 *   lwn_feed_item_get_summary_markup() would answer without converting HTML
 */
gboolean
lwn_feed_item_has_display_text (LwnFeedItem *item)
{
  return g_atomic_pointer_get (&item->summary) != NULL && g_atomic_pointer_get (&item->summary_markup) != NULL;
}

static char prepare_search_source_tag;
static char prepare_display_source_tag;

static void
prepare_thread (GTask *task,
                gpointer source_object,
                gpointer task_data,
                GCancellable *cancellable)
{
  GPtrArray *items = task_data;
  gboolean search = g_task_get_source_tag (task) == &prepare_search_source_tag;

  for (guint i = 0; i < items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (items, i);

      if (g_task_return_error_if_cancelled (task))
        return;
      /* A search shows rows of its matches at once: their text is made too. */
      if (search)
        lwn_feed_item_get_search_text (item);
      lwn_feed_item_get_summary (item);
      lwn_feed_item_get_summary_markup (item);
    }
  g_task_return_boolean (task, TRUE);
}

static void
prepare_async (GPtrArray *items,
               gpointer source_tag,
               GCancellable *cancellable,
               GAsyncReadyCallback callback,
               gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (items != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, g_ptr_array_ref (items), (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, prepare_thread);
}

static gboolean
prepare_finish (GAsyncResult *result,
                gpointer source_tag,
                GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * lwn_feed_items_prepare_display_async:
 * @items: (element-type LwnFeedItem): items whose summary and markup are
 *   made; the array is kept until the end
 * @cancellable: (nullable): stops between two items
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Makes the summary and the summary markup of @items in a worker thread,
 * so that a view never converts HTML on the main thread.
 */
void
lwn_feed_items_prepare_display_async (GPtrArray *items,
                                      GCancellable *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer user_data)
{
  prepare_async (items, &prepare_display_source_tag, cancellable, callback, user_data);
}

gboolean
lwn_feed_items_prepare_display_finish (GAsyncResult *result,
                                       GError **error)
{
  return prepare_finish (result, &prepare_display_source_tag, error);
}

/**
 * lwn_feed_items_prepare_search_async:
 * @items: (element-type LwnFeedItem): items whose search text is made; the
 *   array is kept until the end
 * @cancellable: (nullable): stops between two items
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Makes the search text of @items in a worker thread, and their display
 * text (see lwn_feed_items_prepare_display_async()), so that the rows of
 * the matches can show at once.
 */
void
lwn_feed_items_prepare_search_async (GPtrArray *items,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  prepare_async (items, &prepare_search_source_tag, cancellable, callback, user_data);
}

gboolean
lwn_feed_items_prepare_search_finish (GAsyncResult *result,
                                      GError **error)
{
  return prepare_finish (result, &prepare_search_source_tag, error);
}

static gboolean
dates_equal (GDateTime *a,
             GDateTime *b)
{
  return a == b || (a != NULL && b != NULL && g_date_time_equal (a, b));
}

/* Whether two items say the same: then everything made from one holds for
 * the other. */
static gboolean
items_equal (const LwnFeedItem *a,
             const LwnFeedItem *b)
{
  return a->paywalled == b->paywalled && g_str_equal (a->id, b->id) && g_str_equal (a->title, b->title)
         && g_strcmp0 (a->link, b->link) == 0 && g_strcmp0 (a->url, b->url) == 0
         && g_strcmp0 (a->author, b->author) == 0 && g_strcmp0 (a->description_html, b->description_html) == 0
         && dates_equal (a->date, b->date);
}

/* Puts each item of @previous that @feed repeats unchanged in the place of
 * @feed's copy, with the text already made from it. */
static void
share_unchanged_items (LwnFeed *feed,
                       const LwnFeed *previous)
{
  g_autoptr (GHashTable) by_id = lwn_str_hash_table_new (NULL, NULL);

  for (guint i = 0; i < previous->items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (previous->items, i);

      /* The first of repeated ids is the one every view shows. */
      if (!g_hash_table_contains (by_id, item->id))
        g_hash_table_insert (by_id, (gpointer) item->id, item);
    }
  for (guint i = 0; i < feed->items->len; i++)
    {
      LwnFeedItem **slot = (LwnFeedItem **) &g_ptr_array_index (feed->items, i);
      LwnFeedItem *before = g_hash_table_lookup (by_id, (*slot)->id);

      if (before != NULL && before != *slot && items_equal (before, *slot))
        {
          lwn_feed_item_unref (*slot);
          *slot = lwn_feed_item_ref (before);
        }
    }
}

/**
 * lwn_feed_prepare_display:
 * @feed: a feed that no other thread uses yet
 * @previous: (nullable): the feed shown until now
 *
 * Takes each item that @previous holds unchanged from @previous, with the
 * text made from it so far, in the place of @feed's copy: a refresh costs
 * what changed, and every view keeps what it made of the item. Call it in
 * the worker that built @feed, before the feed is handed over. The text
 * the views show is made only when one needs it: the headlines window has a
 * worker make it (lwn_feed_items_prepare_display_async()), and so does a
 * search (lwn_feed_items_prepare_search_async()); the menu shows titles
 * only. Items become shared between the two feeds, and so between threads:
 * each text is set once, atomically, whichever thread makes it.
 */
void
lwn_feed_prepare_display (LwnFeed *feed,
                          const LwnFeed *previous)
{
  if (previous != NULL && previous != feed)
    share_unchanged_items (feed, previous);
}
