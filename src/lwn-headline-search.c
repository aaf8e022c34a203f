/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finds the headlines of every feed followed that match some words, newest
 * first. The words are matched as the headlines window's search matches
 * them (lwn-search.c: case and accents folded, every word somewhere in the
 * title, author or summary). The feeds are immutable once parsed, so the
 * worker reads them without a lock, and the main thread, which a desktop
 * search would otherwise hold for as long as thousands of headlines take,
 * only takes a reference on each. */

#include "config.h"

#include "lwn-feed.h"
#include "lwn-headline-search.h"
#include "lwn-headline.h"
#include "lwn-search.h"
#include "lwn-str-hash.h"

/* How many items the worker looks at between two looks at the cancellable. */
#define CANCEL_CHECK_ITEMS 256

static char headline_search_source_tag;

typedef struct
{
  char *feed_url;
  LwnFeed *feed;
} Source;

typedef struct
{
  GArray *sources; /* Source */
  LwnSearchQuery *query;
  GHashTable *within; /* headline keys, or NULL for every headline */
  guint max_results;
} Search;

typedef struct
{
  char *key;
  LwnFeedItem *item; /* the search's source holds it */
  gint64 date;       /* G_MININT64 without one: after every dated headline */
  guint source;
  guint position;
} Match;

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_free (source->feed_url);
  g_clear_pointer (&source->feed, lwn_feed_unref);
}

static void
match_clear (gpointer data)
{
  g_free (((Match *) data)->key);
}

static void
search_free (Search *search)
{
  g_array_unref (search->sources);
  lwn_search_query_unref (search->query);
  g_clear_pointer (&search->within, g_hash_table_unref);
  g_free (search);
}

static int
compare_newest (gconstpointer a,
                gconstpointer b)
{
  const Match *x = a;
  const Match *y = b;

  if (x->date != y->date)
    return x->date > y->date ? -1 : 1;
  if (x->source != y->source)
    return x->source < y->source ? -1 : 1;
  return x->position < y->position ? -1 : (x->position > y->position);
}

static void
search_thread (GTask *task,
               gpointer source_object,
               gpointer task_data,
               GCancellable *cancellable)
{
  Search *search = task_data;
  g_autoptr (GArray) matches = g_array_new (FALSE, FALSE, sizeof (Match));
  g_autoptr (GHashTable) seen = lwn_str_hash_table_new (NULL, NULL);
  g_autoptr (GStrvBuilder) keys = g_strv_builder_new ();
  guint looked = 0;

  g_array_set_clear_func (matches, match_clear);
  for (guint s = 0; s < search->sources->len; s++)
    {
      Source *source = &g_array_index (search->sources, Source, s);
      guint n = lwn_feed_get_n_items (source->feed);

      for (guint i = 0; i < n; i++)
        {
          LwnFeedItem *item = lwn_feed_get_item (source->feed, i);
          GDateTime *date = lwn_feed_item_get_date (item);
          Match match = { 0 };

          if (++looked % CANCEL_CHECK_ITEMS == 0 && g_task_return_error_if_cancelled (task))
            return;
          match.key = lwn_headline_key_new (source->feed_url, lwn_feed_item_get_id (item));
          /* A feed that repeats an id shows its first item only. */
          if (g_hash_table_contains (seen, match.key)
              || (search->within != NULL && !g_hash_table_contains (search->within, match.key))
              || !lwn_search_query_matches (search->query, lwn_feed_item_get_search_text (item)))
            {
              g_free (match.key);
              continue;
            }
          match.item = item;
          match.date = date != NULL ? g_date_time_to_unix (date) : G_MININT64;
          match.source = s;
          match.position = i;
          g_array_append_val (matches, match);
          g_hash_table_add (seen, match.key);
        }
    }

  g_array_sort (matches, compare_newest);
  for (guint i = 0; i < matches->len && i < search->max_results; i++)
    {
      Match *match = &g_array_index (matches, Match, i);

      /* The results' summaries, which their descriptions start with, are
       * made here rather than on the main thread. */
      lwn_feed_item_get_summary (match->item);
      g_strv_builder_add (keys, match->key);
    }
  g_task_return_pointer (task, g_strv_builder_end (keys), (GDestroyNotify) g_strfreev);
}

/**
 * lwn_headline_search_async:
 * @feeds: the feeds followed
 * @terms: the words to find, as the desktop's search splits them
 * @within: (nullable): headline keys (lwn_headline_key_new()) the results
 *   must be among, for a search refined by more words; %NULL for any
 * @max_results: how many results at most
 * @cancellable: (nullable): stops the search
 *
 * Looks for the headlines that have every word, in every feed that has
 * headlines to show, in a worker thread.
 */
void
lwn_headline_search_async (LwnFeedSet *feeds,
                           const char *const *terms,
                           const char *const *within,
                           guint max_results,
                           GCancellable *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *text = NULL;
  Search *search;

  g_return_if_fail (LWN_IS_FEED_SET (feeds));
  g_return_if_fail (terms != NULL);

  /* No source object: the worker reads its own references, and the feeds
   * must never be let go of in a worker. */
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &headline_search_source_tag);
  g_task_set_name (task, "headline search");

  text = g_strjoinv (" ", (char **) terms);
  search = g_new0 (Search, 1);
  search->query = lwn_search_query_new (text);
  search->max_results = max_results;
  search->sources = g_array_new (FALSE, FALSE, sizeof (Source));
  g_array_set_clear_func (search->sources, source_clear);
  if (within != NULL)
    {
      search->within = lwn_str_hash_table_new (g_free, NULL);
      for (guint i = 0; within[i] != NULL; i++)
        g_hash_table_add (search->within, g_strdup (within[i]));
    }
  g_task_set_task_data (task, search, (GDestroyNotify) search_free);

  /* No words, no results: a search for nothing is no search. */
  if (lwn_search_query_is_empty (search->query))
    {
      g_task_return_pointer (task, g_new0 (char *, 1), (GDestroyNotify) g_strfreev);
      return;
    }

  for (guint i = 0; i < lwn_feed_set_get_n_feeds (feeds); i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (feeds, i);
      LwnFeed *feed = lwn_reader_get_feed (reader);
      Source source;

      if (feed == NULL)
        continue;
      source.feed_url = g_strdup (lwn_reader_get_feed_url (reader));
      source.feed = lwn_feed_ref (feed);
      g_array_append_val (search->sources, source);
    }
  g_task_run_in_thread (task, search_thread);
}

/**
 * lwn_headline_search_finish:
 *
 * Returns: (transfer full): the keys of the headlines found, newest first, or
 *   %NULL with @error set (cancelled)
 */
char **
lwn_headline_search_finish (GAsyncResult *result,
                            GError **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &headline_search_source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
