/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The few headlines a short list across many feeds has room for: the newest
 * unread ones are picked first, no feed taking every row while others have
 * some, then the newest read ones; all show newest first. A feed that posts
 * fifty items an hour would otherwise fill the list alone. */

#include "config.h"

#include "lwn-headline.h"
#include "lwn-newest-headlines.h"

typedef struct
{
  LwnHeadline *headline; /* owned */
  gint64 date;           /* G_MININT64 without one: after every dated headline */
  guint feed;
  guint position;
  gboolean unread;
  gboolean taken;
} Candidate;

static void
candidate_clear (gpointer data)
{
  Candidate *candidate = data;

  g_clear_object (&candidate->headline);
}

/* Newest first; among equals, the feeds' order and each feed's own. */
static int
compare_newest (gconstpointer a,
                gconstpointer b)
{
  const Candidate *x = a;
  const Candidate *y = b;

  if (x->date != y->date)
    return x->date > y->date ? -1 : 1;
  if (x->feed != y->feed)
    return x->feed < y->feed ? -1 : 1;
  return x->position < y->position ? -1 : (x->position > y->position);
}

static void
add_candidates (GArray *candidates,
                GListModel *headlines,
                guint feed,
                guint budget)
{
  guint n = g_list_model_get_n_items (headlines);
  guint scan = MIN (n, MAX (budget, LWN_NEWEST_HEADLINES_SCAN));

  for (guint position = 0; position < scan; position++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, position);
      gboolean unread = lwn_headline_get_unread (headline);
      GDateTime *date = lwn_feed_item_get_date (lwn_headline_get_item (headline));
      Candidate candidate = {
        .date = date != NULL ? g_date_time_to_unix (date) : G_MININT64,
        .feed = feed,
        .position = position,
        .unread = unread,
      };

      /* Past the rows any list can have, only unread headlines are worth a look. */
      if (position >= budget && !unread)
        continue;
      candidate.headline = g_steal_pointer (&headline);
      g_array_append_val (candidates, candidate);
    }
}

/* Takes, newest first, headlines of the given kind not taken yet, at most
 * @cap from one feed counted with what it has already given. */
static void
take (GArray *candidates,
      guint *per_feed,
      gboolean unread,
      guint cap,
      GPtrArray *picked,
      guint budget)
{
  for (guint i = 0; i < candidates->len && picked->len < budget; i++)
    {
      Candidate *candidate = &g_array_index (candidates, Candidate, i);

      if (candidate->taken || candidate->unread != unread || per_feed[candidate->feed] >= cap)
        continue;
      candidate->taken = TRUE;
      per_feed[candidate->feed]++;
      g_ptr_array_add (picked, candidate);
    }
}

static int
compare_picked (gconstpointer a,
                gconstpointer b)
{
  return compare_newest (*(Candidate *const *) a, *(Candidate *const *) b);
}

/**
 * lwn_newest_headlines_pick:
 * @feeds: (array length=n_feeds): each feed's headlines (#LwnHeadline), its
 *   newest first as the feed lists them
 * @n_feeds: how many
 * @budget: how many rows there are
 *
 * Picks at most @budget headlines across the feeds: unread ones before read
 * ones, the newest first, and a feed gives a third of the rows at most as
 * long as other feeds have headlines of the same kind to give. Looks at the
 * first %LWN_NEWEST_HEADLINES_SCAN headlines of each feed only, so that the
 * work does not grow with the length of a feed.
 *
 * Returns: (transfer full) (element-type LwnHeadline): the headlines picked,
 *   newest first
 */
GPtrArray *
lwn_newest_headlines_pick (GListModel *const *feeds,
                           guint n_feeds,
                           guint budget)
{
  g_autoptr (GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autofree guint *per_feed = g_new0 (guint, MAX (n_feeds, 1));
  g_autoptr (GPtrArray) picked = g_ptr_array_new ();
  GPtrArray *headlines = g_ptr_array_new_with_free_func (g_object_unref);
  guint cap = MAX (2, (budget + 2) / 3);

  g_array_set_clear_func (candidates, candidate_clear);
  for (guint feed = 0; feed < n_feeds; feed++)
    add_candidates (candidates, feeds[feed], feed, budget);
  g_array_sort (candidates, compare_newest);

  take (candidates, per_feed, TRUE, cap, picked, budget);
  take (candidates, per_feed, TRUE, G_MAXUINT, picked, budget);
  take (candidates, per_feed, FALSE, cap, picked, budget);
  take (candidates, per_feed, FALSE, G_MAXUINT, picked, budget);

  g_ptr_array_sort (picked, compare_picked);
  for (guint i = 0; i < picked->len; i++)
    {
      Candidate *candidate = g_ptr_array_index (picked, i);

      g_ptr_array_add (headlines, g_steal_pointer (&candidate->headline));
    }
  return headlines;
}
