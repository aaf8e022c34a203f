/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnFetchQueue on its own: which server a URL counts as, the limits, the order of the turns,
 * cancelled waits, turns that end after the queue's owner has gone, and a thousand waiters. */

#include "config.h"

#include "lwn-fetch-queue.h"

#define WAIT_SECONDS 30

/* What the turns of one test did, and the limits they were checked against. */
typedef struct
{
  guint max_requests;
  guint max_per_host;
  GHashTable *running;  /* host → turns under way, counted by the test */
  guint n_running;      /* turns under way */
  guint max_running;    /* the most there were */
  GPtrArray *order;     /* Turn*, in the order their turns came */
  gboolean end_at_once; /* each turn ends as soon as it comes */
} Log;

typedef struct
{
  Log *log;
  char *url;
  char *host;
  GCancellable *cancellable;
  LwnFetchSlot *slot;
  GError *error;
  gboolean done;
  GCancellable *cancel_on_turn; /* (nullable) another wait to cancel when this turn comes */
} Turn;

static void
log_init (Log *log,
          guint max_requests,
          guint max_per_host)
{
  log->max_requests = max_requests;
  log->max_per_host = max_per_host;
  log->running = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  log->order = g_ptr_array_new ();
}

static void
log_clear (Log *log)
{
  g_hash_table_unref (log->running);
  g_ptr_array_unref (log->order);
}

static Turn *
turn_new (Log *log,
          const char *url)
{
  Turn *turn = g_new0 (Turn, 1);

  turn->log = log;
  turn->url = g_strdup (url);
  turn->host = lwn_fetch_queue_dup_host_key (url);
  turn->cancellable = g_cancellable_new ();
  return turn;
}

/* Ends the turn, as a request that has ended does. */
static void
turn_end (Turn *turn)
{
  Log *log = turn->log;

  g_assert_nonnull (turn->slot);
  log->n_running--;
  if (turn->host != NULL)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (log->running, turn->host));

      g_hash_table_replace (log->running, g_strdup (turn->host), GUINT_TO_POINTER (n - 1));
    }
  g_clear_pointer (&turn->slot, lwn_fetch_slot_free);
}

/* The log may be gone: a turn still under way just ends. */
static void
turn_free (Turn *turn)
{
  g_clear_pointer (&turn->slot, lwn_fetch_slot_free);
  g_free (turn->url);
  g_free (turn->host);
  g_object_unref (turn->cancellable);
  g_clear_error (&turn->error);
  g_free (turn);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Turn, turn_free)

/* Each turn, as it comes, is checked against the limits. */
static void
turn_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  Turn *turn = user_data;
  Log *log = turn->log;

  g_assert_false (turn->done);
  turn->done = TRUE;
  turn->slot = lwn_fetch_queue_acquire_finish (LWN_FETCH_QUEUE (source), result, &turn->error);
  if (turn->slot == NULL)
    {
      g_assert_error (turn->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      return;
    }
  g_assert_no_error (turn->error);

  log->n_running++;
  log->max_running = MAX (log->max_running, log->n_running);
  g_assert_cmpuint (log->n_running, <=, log->max_requests);
  if (turn->host != NULL)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (log->running, turn->host)) + 1;

      g_assert_cmpuint (n, <=, log->max_per_host);
      g_hash_table_replace (log->running, g_strdup (turn->host), GUINT_TO_POINTER (n));
    }
  g_ptr_array_add (log->order, turn);
  if (turn->cancel_on_turn != NULL)
    g_cancellable_cancel (turn->cancel_on_turn);
  if (log->end_at_once)
    turn_end (turn);
}

static void
acquire (LwnFetchQueue *queue,
         Turn *turn)
{
  lwn_fetch_queue_acquire_async (queue, turn->url, turn->cancellable, turn_cb, turn);
}

/* Runs the main loop until nothing more is ready to run. */
static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

typedef struct
{
  const char *url;
  const char *key;
} KeyCase;

static const KeyCase key_cases[] = {
  { "https://lwn.net/headlines/rss", "https://lwn.net:443" },
  { "https://LWN.net:443/other", "https://lwn.net:443" },
  { "HTTPS://Lwn.Net/x", "https://lwn.net:443" },
  { "http://lwn.net/headlines/rss", "http://lwn.net:80" },
  { "http://lwn.net:80/", "http://lwn.net:80" },
  { "https://lwn.net:8443/", "https://lwn.net:8443" },
  { "http://127.0.0.1:8080/feed", "http://127.0.0.1:8080" },
  { "http://[::1]:8080/feed", "http://[::1]:8080" },
  { "http://user@example.org/feed?x=1#y", "http://example.org:80" },
  { "file:///tmp/feed.xml", NULL },
  { "file://localhost/tmp/feed.xml", NULL },
  { "not a url", NULL },
  { "", NULL },
};

static void
test_host_key (void)
{
  g_test_summary ("A request's server is its URL's scheme, host in any case and port (the scheme's own when the "
                  "URL names none); a file: URL, or one without a host, has none");

  for (guint i = 0; i < G_N_ELEMENTS (key_cases); i++)
    {
      g_autofree char *key = lwn_fetch_queue_dup_host_key (key_cases[i].url);

      g_test_message ("%s", key_cases[i].url);
      g_assert_cmpstr (key, ==, key_cases[i].key);
    }
}

/* Ten servers, three requests each: four turns at once, one per server. */
static void
test_limits (void)
{
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (4, 1);
  g_autoptr (GPtrArray) turns = g_ptr_array_new_with_free_func ((GDestroyNotify) turn_free);
  Log log = { 0 };

  g_test_summary ("Thirty requests to ten servers: four turns at once, never two to one server, and each ended "
                  "turn lets the next waiter go");

  log_init (&log, 4, 1);
  for (guint round = 0; round < 3; round++)
    for (guint host = 0; host < 10; host++)
      {
        g_autofree char *url = g_strdup_printf ("https://host-%u.example/feed-%u", host, round);

        g_ptr_array_add (turns, turn_new (&log, url));
        acquire (queue, g_ptr_array_index (turns, turns->len - 1));
      }
  /* A turn comes from the main loop, never inside the call. */
  g_assert_cmpuint (log.order->len, ==, 0);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 30);

  settle ();
  g_assert_cmpuint (log.order->len, ==, 4);
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 4);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 26);

  /* Each turn that ends lets exactly one more go. */
  for (guint i = 0; i < 26; i++)
    {
      turn_end (g_ptr_array_index (log.order, i));
      settle ();
      g_assert_cmpuint (log.order->len, ==, 5 + i);
      g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 4);
    }
  for (guint i = 26; i < 30; i++)
    turn_end (g_ptr_array_index (log.order, i));
  settle ();
  g_assert_cmpuint (log.order->len, ==, 30);
  g_assert_cmpuint (log.max_running, ==, 4);
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 0);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  log_clear (&log);
}

/* One turn at a time: the turns come in the order they were asked for, across servers. */
static void
test_fifo (void)
{
  const char *const urls[] = {
    "https://a.example/1",
    "https://b.example/1",
    "https://a.example/2",
    "http://a.example/3",
    "https://c.example/1",
    "https://b.example/2",
    "file:///tmp/1",
    "https://A.example:443/4",
  };
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (1, 1);
  g_autoptr (GPtrArray) turns = g_ptr_array_new_with_free_func ((GDestroyNotify) turn_free);
  Log log = { 0 };

  g_test_summary ("With one turn at a time, requests to several servers get their turns in the order they "
                  "asked for them");

  log_init (&log, 1, 1);
  log.end_at_once = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_ptr_array_add (turns, turn_new (&log, urls[i]));
      acquire (queue, g_ptr_array_index (turns, i));
    }
  settle ();
  g_assert_cmpuint (log.order->len, ==, G_N_ELEMENTS (urls));
  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    g_assert_true (g_ptr_array_index (log.order, i) == g_ptr_array_index (turns, i));
  log_clear (&log);
}

/* A busy server's waiters let the others go first, and keep their own order. */
static void
test_busy_host (void)
{
  const char *const urls[] = {
    "https://busy.example/1",
    "https://busy.example/2",
    "https://busy.example/3",
    "https://other.example/1",
    "https://third.example/1",
    "https://busy.example/4",
  };
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (4, 1);
  g_autoptr (GPtrArray) turns = g_ptr_array_new_with_free_func ((GDestroyNotify) turn_free);
  Log log = { 0 };

  g_test_summary ("Requests to a busy server wait behind its request under way without holding up later "
                  "requests to other servers, and then go in the order they asked");

  log_init (&log, 4, 1);
  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_ptr_array_add (turns, turn_new (&log, urls[i]));
      acquire (queue, g_ptr_array_index (turns, i));
    }
  settle ();
  /* busy/1, then the two other servers, though asked for after busy/2 and busy/3. */
  g_assert_cmpuint (log.order->len, ==, 3);
  g_assert_true (g_ptr_array_index (log.order, 0) == g_ptr_array_index (turns, 0));
  g_assert_true (g_ptr_array_index (log.order, 1) == g_ptr_array_index (turns, 3));
  g_assert_true (g_ptr_array_index (log.order, 2) == g_ptr_array_index (turns, 4));
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 3);

  /* busy/1 ends, then each busy turn that came after it. */
  for (guint i = 0; i < 3; i++)
    {
      turn_end (g_ptr_array_index (log.order, i == 0 ? 0 : log.order->len - 1));
      settle ();
    }
  g_assert_cmpuint (log.order->len, ==, 6);
  g_assert_true (g_ptr_array_index (log.order, 3) == g_ptr_array_index (turns, 1));
  g_assert_true (g_ptr_array_index (log.order, 4) == g_ptr_array_index (turns, 2));
  g_assert_true (g_ptr_array_index (log.order, 5) == g_ptr_array_index (turns, 5));
  log_clear (&log);
}

/* file: URLs have no server: only the limit on all turns holds them. */
static void
test_no_host (void)
{
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (4, 1);
  g_autoptr (GPtrArray) turns = g_ptr_array_new_with_free_func ((GDestroyNotify) turn_free);
  Log log = { 0 };

  g_test_summary ("Six file: URLs go four at a time: they have no server to be polite to");

  log_init (&log, 4, 1);
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *url = g_strdup_printf ("file:///tmp/feed-%u.xml", i);

      g_ptr_array_add (turns, turn_new (&log, url));
      acquire (queue, g_ptr_array_index (turns, i));
    }
  settle ();
  g_assert_cmpuint (log.order->len, ==, 4);
  turn_end (g_ptr_array_index (log.order, 0));
  turn_end (g_ptr_array_index (log.order, 1));
  settle ();
  g_assert_cmpuint (log.order->len, ==, 6);
  log_clear (&log);
}

/* Waits cancelled before their turn, before the queue first looked at them, or before the call. */
static void
test_cancel_waiting (void)
{
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (1, 1);
  g_autoptr (Turn) first = NULL;
  g_autoptr (Turn) waiting = NULL;
  g_autoptr (Turn) early = NULL;
  g_autoptr (Turn) already = NULL;
  g_autoptr (Turn) last = NULL;
  Log log = { 0 };

  g_test_summary ("A wait cancelled leaves the queue at once, gets G_IO_ERROR_CANCELLED from the main loop and "
                  "never a turn; the waiters behind it move up");

  log_init (&log, 1, 1);
  first = turn_new (&log, "https://lwn.net/1");
  waiting = turn_new (&log, "https://lwn.net/2");
  early = turn_new (&log, "https://other.example/1");
  already = turn_new (&log, "https://lwn.net/3");
  last = turn_new (&log, "https://lwn.net/4");

  acquire (queue, first);
  acquire (queue, waiting);
  acquire (queue, early);
  /* Cancelled before the queue first granted anything. */
  g_cancellable_cancel (early->cancellable);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 2);
  g_cancellable_cancel (already->cancellable);
  acquire (queue, already);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 2);
  acquire (queue, last);
  settle ();
  g_assert_true (first->done && first->slot != NULL);
  g_assert_true (early->done);
  g_assert_error (early->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (already->done);
  g_assert_error (already->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* Cancelled while it waits behind a turn under way. */
  g_assert_false (waiting->done);
  g_cancellable_cancel (waiting->cancellable);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 1);
  /* Its callback comes from the main loop, not from inside the cancel. */
  g_assert_false (waiting->done);
  settle ();
  g_assert_true (waiting->done);
  g_assert_error (waiting->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  turn_end (first);
  settle ();
  g_assert_true (last->done && last->slot != NULL);
  g_assert_cmpuint (log.order->len, ==, 2);
  /* Cancelled once the turn came: the turn is the holder's to end. */
  g_cancellable_cancel (last->cancellable);
  turn_end (last);
  settle ();
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 0);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  log_clear (&log);
}

/* Turns granted together: the first one's callback cancels the wait of the second, whose turn had come
 * already; the second never gets it, and the turn goes to the next waiter. */
static void
test_cancel_granted (void)
{
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (2, 1);
  g_autoptr (Turn) first = NULL;
  g_autoptr (Turn) second = NULL;
  g_autoptr (Turn) third = NULL;
  Log log = { 0 };

  g_test_summary ("A turn that came for a wait cancelled before its callback ran goes back to the queue by "
                  "itself, and the next waiter gets it");

  log_init (&log, 2, 1);
  first = turn_new (&log, "https://a.example/1");
  second = turn_new (&log, "https://b.example/1");
  third = turn_new (&log, "https://b.example/2");
  first->cancel_on_turn = second->cancellable;
  acquire (queue, first);
  acquire (queue, second);
  acquire (queue, third);
  settle ();

  g_assert_true (first->done && first->slot != NULL);
  g_assert_true (second->done);
  g_assert_error (second->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (second->slot);
  g_assert_true (third->done && third->slot != NULL);
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 2);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  log_clear (&log);
}

/* The queue's owner lets go of it while turns are under way and requests wait. */
static void
test_owner_gone (void)
{
  LwnFetchQueue *queue = lwn_fetch_queue_new (1, 1);
  g_autoptr (Turn) first = NULL;
  g_autoptr (Turn) second = NULL;
  Log log = { 0 };

  g_test_summary ("A turn may end after the queue's owner let go of it: the waiters still get their turns, and "
                  "the queue goes with its last turn");

  log_init (&log, 1, 1);
  first = turn_new (&log, "https://lwn.net/1");
  second = turn_new (&log, "https://lwn.net/2");
  acquire (queue, first);
  acquire (queue, second);
  settle ();
  g_assert_true (first->slot != NULL);
  g_object_add_weak_pointer (G_OBJECT (queue), (gpointer *) &queue);
  g_object_unref (queue);
  g_assert_nonnull (queue);

  turn_end (first);
  settle ();
  g_assert_true (second->slot != NULL);
  g_assert_nonnull (queue);
  turn_end (second);
  g_assert_null (queue);
  log_clear (&log);
}

/* A thousand waiters on twenty servers, a third of them cancelled while they wait. */
static void
test_thousand (void)
{
  g_autoptr (LwnFetchQueue) queue = lwn_fetch_queue_new (LWN_FETCH_QUEUE_MAX_REQUESTS, LWN_FETCH_QUEUE_MAX_PER_HOST);
  g_autoptr (GPtrArray) turns = g_ptr_array_new_with_free_func ((GDestroyNotify) turn_free);
  g_autoptr (GHashTable) last_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_done = 0;
  guint n_cancelled = 0;
  Log log = { 0 };
  gint64 deadline;

  g_test_summary ("A thousand waiters on twenty servers, a third cancelled while they wait: all the others get "
                  "their turns, each server's in the order asked, never more than four at once or two to one "
                  "server");

  log_init (&log, LWN_FETCH_QUEUE_MAX_REQUESTS, LWN_FETCH_QUEUE_MAX_PER_HOST);
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://host-%u.example/feed-%u", i % 20, i);

      g_ptr_array_add (turns, turn_new (&log, url));
      acquire (queue, g_ptr_array_index (turns, i));
    }
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 1000);
  for (guint i = 0; i < 1000; i += 3)
    g_cancellable_cancel (((Turn *) g_ptr_array_index (turns, i))->cancellable);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 666);

  /* The turns under way end one at a time, the oldest first. */
  deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  while (n_done < 666)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      settle ();
      if (n_done < log.order->len)
        turn_end (g_ptr_array_index (log.order, n_done++));
    }
  settle ();

  for (guint i = 0; i < 1000; i++)
    {
      Turn *turn = g_ptr_array_index (turns, i);

      g_assert_true (turn->done);
      n_cancelled += turn->error != NULL;
    }
  g_assert_cmpuint (n_cancelled, ==, 334);
  g_assert_cmpuint (log.order->len, ==, 666);
  g_assert_cmpuint (log.max_running, ==, LWN_FETCH_QUEUE_MAX_REQUESTS);
  for (guint i = 0; i < log.order->len; i++)
    {
      Turn *turn = g_ptr_array_index (log.order, i);
      guint index;
      gpointer before;

      g_assert_true (g_ptr_array_find (turns, turn, &index));
      if (g_hash_table_lookup_extended (last_index, turn->host, NULL, &before))
        g_assert_cmpuint (GPOINTER_TO_UINT (before), <, index);
      g_hash_table_replace (last_index, g_strdup (turn->host), GUINT_TO_POINTER (index));
    }
  g_assert_cmpuint (lwn_fetch_queue_get_n_running (queue), ==, 0);
  g_assert_cmpuint (lwn_fetch_queue_get_n_waiting (queue), ==, 0);
  log_clear (&log);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fetch-queue/host-key", test_host_key);
  g_test_add_func ("/fetch-queue/limits", test_limits);
  g_test_add_func ("/fetch-queue/fifo", test_fifo);
  g_test_add_func ("/fetch-queue/busy-host", test_busy_host);
  g_test_add_func ("/fetch-queue/no-host", test_no_host);
  g_test_add_func ("/fetch-queue/cancel/waiting", test_cancel_waiting);
  g_test_add_func ("/fetch-queue/cancel/granted", test_cancel_granted);
  g_test_add_func ("/fetch-queue/owner-gone", test_owner_gone);
  g_test_add_func ("/fetch-queue/thousand", test_thousand);

  return g_test_run ();
}
