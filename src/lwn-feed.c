/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnFeed and LwnFeedItem are reference-counted values that never change after construction. */

#include "config.h"

#include "lwn-feed.h"
#include "lwn-search.h"
#include "lwn-text.h"

struct _LwnFeedItem
{
  gatomicrefcount ref_count;
  char *id;
  char *title;
  char *link;
  char *url;
  char *author;
  char *description_html;
  GDateTime *date;
  gboolean paywalled;
  /* These fields are computed once: by lwn_feed_prepare_display() in the
   * worker that parsed the feed, or on first use by a program that never
   * calls that function. */
  char *summary;
  char *summary_markup;
  char *search_text;
};

struct _LwnFeed
{
  gatomicrefcount ref_count;
  char *title;
  char *link;
  guint refresh_seconds;
  GPtrArray *items;
};

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
  LwnFeedItem *item;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (title != NULL, NULL);

  item = g_new0 (LwnFeedItem, 1);
  g_atomic_ref_count_init (&item->ref_count);
  item->id = g_strdup (id);
  item->title = g_strdup (title);
  item->link = g_strdup (link);
  item->url = g_strdup (url);
  item->author = g_strdup (author);
  item->description_html = g_strdup (description_html);
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

  g_free (item->id);
  g_free (item->title);
  g_free (item->link);
  g_free (item->url);
  g_free (item->author);
  g_free (item->description_html);
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

/**
 * lwn_feed_item_get_summary:
 * @item: an item
 *
 * Gives the description as plain text on one line, at most
 * %LWN_FEED_SUMMARY_CHARS characters. The summary is computed on first use
 * unless lwn_feed_prepare_display() computed it already, so an item shared
 * between threads must have been prepared first.
 *
 * Returns: (transfer none): the summary; "" when the item has none
 */
const char *
lwn_feed_item_get_summary (LwnFeedItem *item)
{
  if (item->summary == NULL)
    item->summary = lwn_text_from_html (item->description_html, LWN_FEED_SUMMARY_CHARS);
  return item->summary;
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
 * links rewritten to the article). The markup is computed when the summary
 * is, as lwn_feed_item_get_summary() describes.
 *
 * Returns: (transfer none): the markup; "" when the item has no description
 */
const char *
lwn_feed_item_get_summary_markup (LwnFeedItem *item)
{
  if (item->summary_markup == NULL)
    item->summary_markup = lwn_text_markup_from_html (item->description_html, item->link);
  return item->summary_markup;
}

/**
 * lwn_feed_item_get_search_text:
 * @item: an item
 *
 * Gives the title, author and summary, folded for
 * lwn_search_query_matches(). The text is computed when the summary is, as
 * lwn_feed_item_get_summary() describes, so that a search never folds text
 * on the main thread.
 *
 * Returns: (transfer none): the folded text
 */
const char *
lwn_feed_item_get_search_text (LwnFeedItem *item)
{
  if (item->search_text == NULL)
    {
      g_autofree char *text = g_strjoin ("\n", item->title, item->author != NULL ? item->author : "",
                                         lwn_feed_item_get_summary (item), NULL);

      item->search_text = lwn_search_fold (text);
    }
  return item->search_text;
}

/**
 * lwn_feed_prepare_display:
 * @feed: a feed that no other thread uses yet
 *
 * Computes, for each item, the text that every view shows or searches, so
 * that the main thread never converts HTML nor folds text. Call it in the
 * worker that built @feed, before the feed is handed over.
 */
void
lwn_feed_prepare_display (LwnFeed *feed)
{
  for (guint i = 0; i < feed->items->len; i++)
    {
      LwnFeedItem *item = g_ptr_array_index (feed->items, i);

      lwn_feed_item_get_summary (item);
      lwn_feed_item_get_summary_markup (item);
      lwn_feed_item_get_search_text (item);
    }
}
