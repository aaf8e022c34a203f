/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnHeadlineList: one row per headline across model changes, and the search's highlights on the rows
 * that show. Runs under build-aux/test-session.sh, which gives it a display. */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "lwn-headline-list.h"

#define N_HEADLINES 5

/* An item with its summary made, as the window's worker makes it before a
 * row shows: the rows of these tests are made at once. */
static LwnFeedItem *
new_item (const char *id,
          const char *title,
          const char *url)
{
  LwnFeedItem *item = lwn_feed_item_new (id, title, url, url, "Author", "<p>Summary</p>", NULL, FALSE);

  lwn_feed_item_get_summary (item);
  lwn_feed_item_get_summary_markup (item);
  return item;
}

static void
append_headlines (GListStore *store,
                  const char *feed,
                  const char *prefix,
                  guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("%s-%u", prefix, i);
      g_autofree char *title = g_strdup_printf ("Headline %s number %u of %s", prefix, i, feed);
      g_autofree char *url = g_strdup_printf ("%s/%s%u/", feed, prefix, i);
      g_autoptr (LwnFeedItem) item = new_item (id, title, url);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, feed, TRUE);

      g_list_store_append (store, headline);
    }
}

static GListStore *
make_headlines (const char *prefix,
                guint n)
{
  GListStore *store = g_list_store_new (LWN_TYPE_HEADLINE);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("%s-%u", prefix, i);
      g_autofree char *title = g_strdup_printf ("Headline %s number %u", prefix, i);
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%s%u/", prefix, i);
      g_autoptr (LwnFeedItem) item = new_item (id, title, url);
      g_autoptr (LwnHeadline) headline = NULL;

      headline = lwn_headline_new (item, "https://lwn.net/headlines/rss", TRUE);
      g_list_store_append (store, headline);
    }
  return store;
}

/* Every row of the list, whether it shows or not, and checks that no two
 * rows stand for the same headline or the same position. */
static guint
count_rows (LwnHeadlineList *list)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (list));
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) positions = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (GList *l = children; l != NULL; l = l->next)
    {
      LwnHeadlineRow *row = LWN_HEADLINE_ROW (l->data);
      char *key = lwn_headline_dup_key (lwn_headline_row_get_headline (row));

      g_assert_false (g_hash_table_contains (keys, key));
      g_hash_table_add (keys, key);
      g_assert_false (g_hash_table_contains (positions, GUINT_TO_POINTER (lwn_headline_row_get_position (row))));
      g_hash_table_add (positions, GUINT_TO_POINTER (lwn_headline_row_get_position (row)));
    }
  return g_list_length (children);
}

static LwnHeadlineList *
new_list (void)
{
  return g_object_ref_sink (g_object_new (LWN_TYPE_HEADLINE_LIST, NULL));
}

static void
matches_changed_cb (LwnHeadlineList *list,
                    guint *n_signals)
{
  (*n_signals)++;
}

/* Searches for @text as a keystroke does, then waits for the matches, which
 * wait for a worker to fold the search text of headlines that lack it. */
static guint
search (LwnHeadlineList *list,
        const char *text)
{
  guint n_signals = 0;
  gulong handler = g_signal_connect (list, "matches-changed", G_CALLBACK (matches_changed_cb), &n_signals);

  lwn_headline_list_set_search (list, text);
  while (n_signals == 0)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (list, handler);
  g_assert_false (lwn_headline_list_get_matches_waiting (list));
  return lwn_headline_list_get_n_matching (list);
}

/* A model, none, then the same model again: the list shows each headline
 * once, as it did the first time. */
static void
test_model_cleared_then_set (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  guint first;

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  first = count_rows (list);
  g_assert_cmpuint (first, >, 0);

  lwn_headline_list_set_model (list, NULL);
  g_assert_cmpuint (count_rows (list), ==, 0);
  g_assert_null (lwn_headline_list_get_first_match (list));

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  g_assert_cmpuint (count_rows (list), ==, first);
  g_assert_nonnull (lwn_headline_list_get_first_match (list));
  g_assert_cmpuint (lwn_headline_row_get_position (lwn_headline_list_get_first_match (list)), ==, 0);

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* A model, none, then another model: only the second model's headlines. */
static void
test_model_cleared_then_other (void)
{
  g_autoptr (GListStore) first = make_headlines ("a", N_HEADLINES);
  g_autoptr (GListStore) second = make_headlines ("b", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (GList) children = NULL;

  lwn_headline_list_set_model (list, G_LIST_MODEL (first));
  lwn_headline_list_set_model (list, NULL);
  lwn_headline_list_set_model (list, G_LIST_MODEL (second));
  count_rows (list);

  children = gtk_container_get_children (GTK_CONTAINER (list));
  for (GList *l = children; l != NULL; l = l->next)
    g_assert_true (g_str_has_prefix (lwn_headline_get_id (lwn_headline_row_get_headline (l->data)), "b-"));

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* One model replaced by another with some of the same headlines: the rows
 * of the kept headlines stay, and none is doubled. */
static void
test_model_replaced (void)
{
  g_autoptr (GListStore) first = make_headlines ("a", N_HEADLINES);
  g_autoptr (GListStore) second = make_headlines ("a", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  guint before;

  lwn_headline_list_set_model (list, G_LIST_MODEL (first));
  before = count_rows (list);
  lwn_headline_list_set_model (list, G_LIST_MODEL (second));
  g_assert_cmpuint (count_rows (list), ==, before);

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* A new feed in the same model, with none of the old headlines: the old
 * rows go. */
static void
test_items_changed (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", N_HEADLINES);
  g_autoptr (GListStore) fresh = make_headlines ("c", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GList) children = NULL;
  guint before;

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  before = count_rows (list);
  for (guint i = 0; i < N_HEADLINES; i++)
    g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (fresh), i));
  g_list_store_splice (headlines, 0, N_HEADLINES, items->pdata, items->len);
  g_assert_cmpuint (count_rows (list), <=, MAX (before, 1));

  children = gtk_container_get_children (GTK_CONTAINER (list));
  g_assert_nonnull (children);
  for (GList *l = children; l != NULL; l = l->next)
    g_assert_true (g_str_has_prefix (lwn_headline_get_id (lwn_headline_row_get_headline (l->data)), "c-"));

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* Rows are made a few at a time, as the window lays them out: how many
 * there are once @expected are there, or once five seconds have passed. */
static guint
count_rows_settled (LwnHeadlineList *list,
                    guint expected)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (count_rows (list) != expected && g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10000);
    }
  /* A row too many would come in the layouts after. */
  for (guint i = 0; i < 10; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10000);
    }
  return count_rows (list);
}

/* "All feeds" where two feeds send the same ids: each feed's headline keeps a
 * row of its own, and however the model changes there is one row per
 * headline, never one left over. */
static void
test_shared_ids (void)
{
  g_autoptr (GListStore) all = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (GListStore) again = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (LwnHeadline) moved = NULL;
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *scrolled;

  g_test_summary ("With two feeds that send the same ids, the list keeps one row per headline of each feed "
                  "through several model changes: as many rows as headlines, never an orphan");

  /* On a screen tall enough for every row, the list makes them all. */
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 1600);
  scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (list));
  gtk_container_add (GTK_CONTAINER (window), scrolled);
  gtk_widget_show_all (window);
  append_headlines (all, "https://lwn.net/headlines/rss", "a", 4);
  append_headlines (all, "https://look-alike.example/feed", "a", 4);
  lwn_headline_list_set_model (list, G_LIST_MODEL (all));
  g_assert_cmpuint (count_rows_settled (list, 8), ==, 8);

  /* The second feed's first headline moves to the top, as a newer date would put it. */
  moved = g_list_model_get_item (G_LIST_MODEL (all), 4);
  g_list_store_remove (all, 4);
  g_list_store_insert (all, 0, moved);
  g_assert_cmpuint (count_rows_settled (list, 8), ==, 8);

  /* A refresh of each feed: new headline objects, the same feeds and ids. */
  append_headlines (again, "https://look-alike.example/feed", "a", 4);
  append_headlines (again, "https://lwn.net/headlines/rss", "a", 4);
  for (guint round = 0; round < 3; round++)
    {
      g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < 8; i++)
        g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (round % 2 == 0 ? again : all), i));
      g_list_store_splice (all, 0, g_list_model_get_n_items (G_LIST_MODEL (all)), items->pdata, items->len);
      g_assert_cmpuint (count_rows_settled (list, 8), ==, 8);
    }

  /* One feed goes: its rows go with it, the other's stay. */
  g_list_store_splice (all, 0, 4, NULL, 0);
  g_assert_cmpuint (count_rows_settled (list, 4), ==, 4);

  gtk_widget_destroy (window);
}

/* The rows that show match the search, and only they show. */
static void
test_search_shows_matches (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (GList) children = NULL;
  LwnHeadlineRow *first;

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  g_assert_cmpuint (search (list, "number 3"), ==, 1);
  first = lwn_headline_list_get_first_match (list);
  g_assert_nonnull (first);
  g_assert_cmpuint (lwn_headline_row_get_position (first), ==, 3);

  children = gtk_container_get_children (GTK_CONTAINER (list));
  for (GList *l = children; l != NULL; l = l->next)
    g_assert_cmpint (gtk_widget_get_child_visible (l->data), ==, l->data == (gpointer) first);

  g_assert_cmpuint (search (list, NULL), ==, N_HEADLINES);
  g_assert_cmpuint (lwn_headline_row_get_position (lwn_headline_list_get_first_match (list)), ==, 0);

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* The label that shows @row's title, found by its text. */
static GtkLabel *
find_title (GtkWidget *widget,
            const char *title)
{
  g_autoptr (GList) children = NULL;

  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), title) == 0)
    return GTK_LABEL (widget);
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l != NULL; l = l->next)
    {
      GtkLabel *label = find_title (l->data, title);

      if (label != NULL)
        return label;
    }
  return NULL;
}

/* Every row that shows marks the matches of @text in its (unread, so bold)
 * title; returns how many rows show. */
static guint
check_highlights (LwnHeadlineList *list,
                  const char *text)
{
  g_autoptr (LwnSearchQuery) query = lwn_search_query_new (text);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (list));
  guint shown = 0;

  for (GList *l = children; l != NULL; l = l->next)
    {
      const char *title = lwn_headline_get_title (lwn_headline_row_get_headline (l->data));
      g_autofree char *marked = lwn_search_query_highlight (query, title);
      g_autofree char *expected = g_strdup_printf ("<b>%s</b>", marked);
      GtkLabel *label = find_title (l->data, title);

      if (!gtk_widget_get_child_visible (l->data))
        continue;
      shown++;
      g_assert_nonnull (label);
      g_assert_cmpstr (gtk_label_get_label (label), ==, expected);
    }
  return shown;
}

/* Rows hidden by one search and shown again by the next mark the next
 * one's matches, not those of the search they were made under. */
static void
test_search_highlights (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  g_assert_cmpuint (search (list, "number"), ==, N_HEADLINES);
  g_assert_cmpuint (check_highlights (list, "number"), >, 0);
  g_assert_cmpuint (search (list, "3"), ==, 1);
  g_assert_cmpuint (check_highlights (list, "3"), ==, 1);
  g_assert_cmpuint (search (list, "headline"), ==, N_HEADLINES);
  g_assert_cmpuint (check_highlights (list, "headline"), >, 1);

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* The first search on headlines without search text leaves the rows as
 * they are and the main thread free; a worker folds the text, and the
 * matches follow. A second keystroke meanwhile waits for the same text. */
static void
test_search_text_made_by_a_worker (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", N_HEADLINES);
  g_autoptr (LwnHeadlineList) list = new_list ();
  guint shown;

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  shown = count_rows (list);
  /* None has its search text yet: none matches until the worker is done. */
  g_assert_cmpuint (lwn_headline_list_set_search (list, "number"), ==, 0);
  g_assert_true (lwn_headline_list_get_matches_waiting (list));
  g_assert_cmpuint (count_rows (list), ==, shown);
  g_assert_cmpuint (search (list, "number 3"), ==, 1);
  for (guint i = 0; i < N_HEADLINES; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (headlines), i);

      g_assert_true (lwn_feed_item_has_search_text (lwn_headline_get_item (headline)));
    }
  g_assert_cmpuint (lwn_headline_row_get_position (lwn_headline_list_get_first_match (list)), ==, 3);

  /* Text made once: the next search answers at once. */
  g_assert_cmpuint (lwn_headline_list_set_search (list, "number 4"), ==, 1);
  g_assert_false (lwn_headline_list_get_matches_waiting (list));

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* Whether every row of the list, shown or not, has its summary: no row is
 * made before a worker made it. */
static gboolean
rows_have_text (LwnHeadlineList *list)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (list));

  for (GList *l = children; l != NULL; l = l->next)
    {
      LwnHeadline *headline = lwn_headline_row_get_headline (LWN_HEADLINE_ROW (l->data));

      if (!lwn_feed_item_has_display_text (lwn_headline_get_item (headline)))
        return FALSE;
    }
  return TRUE;
}

/* Headlines whose summaries are not made yet (at rest, only the menu's
 * titles are): no row until a worker has made them, the main thread never
 * converting HTML, and then the rows as for any other model. */
static void
test_rows_wait_for_their_text (void)
{
  g_autoptr (GListStore) headlines = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (LwnHeadlineList) list = new_list ();
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  for (guint i = 0; i < N_HEADLINES; i++)
    {
      g_autofree char *id = g_strdup_printf ("bare-%u", i);
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", i);
      g_autoptr (LwnFeedItem) item = lwn_feed_item_new (id, "Bare", url, url, NULL, "<p>Made <b>later</b></p>", NULL, FALSE);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, "https://lwn.net/headlines/rss", TRUE);

      g_list_store_append (headlines, headline);
    }

  for (guint i = 0; i < N_HEADLINES; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (headlines), i);

      g_assert_false (lwn_feed_item_has_display_text (lwn_headline_get_item (headline)));
    }
  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  /* The worker may have made the first summaries already, between two looks
   * of the list at them: a row there has its summary. */
  g_assert_true (rows_have_text (list));

  while (count_rows (list) == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (count_rows (list), >, 0);
  g_assert_cmpuint (lwn_headline_row_get_position (lwn_headline_list_get_first_match (list)), ==, 0);
  for (guint i = 0; i < N_HEADLINES; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (headlines), i);
      LwnFeedItem *item = lwn_headline_get_item (headline);

      g_assert_true (lwn_feed_item_has_display_text (item));
      g_assert_cmpstr (lwn_feed_item_get_summary (item), ==, "Made later");
    }

  gtk_widget_destroy (GTK_WIDGET (list));
}

static GListStore *
make_bare_headlines (guint n)
{
  GListStore *headlines = g_list_store_new (LWN_TYPE_HEADLINE);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("bare-%u", i);
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", i);
      g_autoptr (LwnFeedItem) item = lwn_feed_item_new (id, "Bare", url, url, NULL, "<p>Made <b>early</b></p>", NULL, FALSE);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, "https://lwn.net/headlines/rss", TRUE);

      g_list_store_append (headlines, headline);
    }
  return headlines;
}

static gboolean
has_display_text (GListModel *headlines,
                  guint position)
{
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, position);

  return lwn_feed_item_has_display_text (lwn_headline_get_item (headline));
}

static void
prepared_cb (GObject *source,
             GAsyncResult *result,
             gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Prepares @headlines and waits for the answer; returns the error, if any. */
static GError *
prepare (GListModel *headlines,
         GCancellable *cancellable)
{
  g_autoptr (GAsyncResult) result = NULL;
  GError *error = NULL;

  lwn_headline_list_prepare_async (headlines, cancellable, prepared_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (lwn_headline_list_prepare_finish (result, &error))
    g_assert_no_error (error);
  else
    g_assert_nonnull (error);
  return error;
}

/* The headlines window's first frame: the summaries of the first rows made
 * beforehand, a list given the headlines shows its first row at once,
 * where it would otherwise wait for a worker. */
static void
test_prepared_first_row_at_once (void)
{
  g_autoptr (GListStore) headlines = make_bare_headlines (20);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (GError) error = NULL;

  g_test_summary ("Prepared headlines have their first summaries made, not all, and a list given them has its "
                  "first row at once");

  error = prepare (G_LIST_MODEL (headlines), NULL);
  g_assert_no_error (error);
  g_assert_true (has_display_text (G_LIST_MODEL (headlines), 0));
  g_assert_true (has_display_text (G_LIST_MODEL (headlines), 7));
  g_assert_false (has_display_text (G_LIST_MODEL (headlines), 19));

  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  g_assert_cmpuint (count_rows (list), >, 0);
  g_assert_cmpuint (lwn_headline_row_get_position (lwn_headline_list_get_first_match (list)), ==, 0);

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* The window may open, take the headlines and close, or the feed change,
 * before the worker answers: the preparation holds what it needs, and its
 * answer touches no list. A stopped one answers that it was cancelled. */
static void
test_prepare_outlives_list (void)
{
  g_autoptr (GListStore) headlines = make_bare_headlines (4);
  g_autoptr (GListStore) empty = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  LwnHeadlineList *list = new_list ();

  g_test_summary ("A preparation whose list and headlines went before its answer ends cleanly; a stopped one "
                  "says so; one of no headlines ends at once");

  lwn_headline_list_prepare_async (G_LIST_MODEL (headlines), NULL, prepared_cb, &result);
  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  gtk_widget_destroy (GTK_WIDGET (list));
  g_object_unref (list);
  g_list_store_remove_all (headlines);
  g_clear_object (&headlines);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (lwn_headline_list_prepare_finish (result, &error));
  g_assert_no_error (error);

  headlines = make_bare_headlines (4);
  g_cancellable_cancel (cancellable);
  error = prepare (G_LIST_MODEL (headlines), cancellable);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  error = prepare (G_LIST_MODEL (empty), NULL);
  g_assert_no_error (error);
}

/* A feed that edits a headline's text (same id, another description): the
 * main thread does not convert the new HTML for the row it keeps, a worker
 * does, and the row then shows the new text. */
static void
test_edited_item_text_by_worker (void)
{
  g_autoptr (GListStore) headlines = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (LwnFeedItem) edited = NULL;
  g_autoptr (LwnHeadline) replacement = NULL;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_test_summary ("An edited item's row is made again after a worker made its summary: never HTML on the main thread");

  for (guint i = 0; i < N_HEADLINES; i++)
    {
      g_autofree char *id = g_strdup_printf ("edit-%u", i);
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", i);
      g_autoptr (LwnFeedItem) item = lwn_feed_item_new (id, "Before", url, url, NULL, "<p>Old <b>text</b></p>", NULL, FALSE);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, "https://lwn.net/headlines/rss", TRUE);

      g_list_store_append (headlines, headline);
    }
  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  while (count_rows (list) == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (count_rows (list), >, 0);

  edited = lwn_feed_item_new ("edit-0", "After", "https://lwn.net/Articles/0/", "https://lwn.net/Articles/0/", NULL,
                              "<p>New <b>text</b></p>", NULL, FALSE);
  replacement = lwn_headline_new (edited, "https://lwn.net/headlines/rss", TRUE);
  g_list_store_splice (headlines, 0, 1, (gpointer *) &replacement, 1);
  /* The list took the change in at once, without making the new text. */
  g_assert_false (lwn_feed_item_has_display_text (edited));

  while (!(lwn_feed_item_has_display_text (edited) && lwn_headline_list_get_first_match (list) != NULL
           && lwn_headline_row_get_headline (lwn_headline_list_get_first_match (list)) == replacement)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (lwn_headline_row_get_headline (lwn_headline_list_get_first_match (list)) == replacement);
  g_assert_cmpstr (lwn_feed_item_get_summary (edited), ==, "New text");

  gtk_widget_destroy (GTK_WIDGET (list));
}

/* Checks that the rows that show are the first headlines with @text (one
 * word) in their titles, in order, at least one, and that no other row shows. */
static void
assert_shows_first_matches (LwnHeadlineList *list,
                            GListModel *headlines,
                            const char *text)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (list));
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) matching = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < g_list_model_get_n_items (headlines); i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);

      if (text == NULL || strstr (lwn_headline_get_title (headline), text) != NULL)
        g_array_append_val (matching, i);
    }
  for (GList *l = children; l != NULL; l = l->next)
    {
      guint position = lwn_headline_row_get_position (l->data);

      if (gtk_widget_get_child_visible (l->data))
        g_array_append_val (shown, position);
    }
  g_assert_cmpuint (shown->len, >, 0);
  g_assert_cmpuint (shown->len, <=, matching->len);
  for (guint i = 0; i < shown->len; i++)
    g_assert_cmpuint (g_array_index (shown, guint, i), ==, g_array_index (matching, guint, i));
}

/* Shows @list, on @headlines, in a scrolled window @height pixels tall;
 * returns the window. */
static GtkWidget *
show_list (LwnHeadlineList *list,
           GListModel *headlines,
           int height)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 600, height);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (list));
  gtk_container_add (GTK_CONTAINER (window), scrolled);
  gtk_widget_show_all (window);
  lwn_headline_list_set_model (list, headlines);
  return window;
}

/* Scrolls to the bottom of the list again and again, as one who drags the
 * scroll bar down, until @expected rows are made or five seconds have passed;
 * returns how many there are. */
static guint
scroll_until_made (LwnHeadlineList *list,
                   guint expected)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gtk_widget_get_parent (GTK_WIDGET (list))));
  /* Only a failure waits this long: rows come four to a frame under a sanitizer. */
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (count_rows (list) < expected && g_get_monotonic_time () < deadline)
    {
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  return count_rows (list);
}

/* With a row made for each of 200 headlines, searches that hide most of
 * them, then a few of them, then none: whichever way the list box learns
 * which rows show, the ones that show are the first matches and only they. */
static void
test_search_many_rows (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 200);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;

  g_test_summary ("With 200 rows made, a search that hides most of them, one that changes a few, and none "
                  "again: the rows that show are the first matches, in order, and no other");

  window = show_list (list, G_LIST_MODEL (headlines), 800);
  g_assert_cmpuint (scroll_until_made (list, 200), ==, 200);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), NULL);

  /* Numbers with a 1 in them: most rows hide at once. */
  g_assert_cmpuint (search (list, "1"), ==, 119);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), "1");
  /* 19, 119 and 190 to 199: a few rows change. */
  g_assert_cmpuint (search (list, "19"), ==, 12);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), "19");
  g_assert_cmpuint (search (list, "199"), ==, 1);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), "199");
  g_assert_cmpuint (search (list, NULL), ==, 200);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), NULL);
  g_assert_cmpuint (count_rows (list), ==, 200);

  gtk_widget_destroy (window);
}

/* The position of the focused row once it is @position (@at) or another
 * (!@at), or after five seconds. */
static guint
wait_focused_position (LwnHeadlineList *list,
                       guint position,
                       gboolean at)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  GtkWidget *focus = NULL;

  do
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
      focus = gtk_container_get_focus_child (GTK_CONTAINER (list));
    }
  while ((focus == NULL || (lwn_headline_row_get_position (LWN_HEADLINE_ROW (focus)) == position) != at)
         && g_get_monotonic_time () < deadline);
  g_assert_nonnull (focus);
  return lwn_headline_row_get_position (LWN_HEADLINE_ROW (focus));
}

/* The position of the row that has the focus once the list has settled:
 * after @expected, or after five seconds. */
static guint
focused_position_settled (LwnHeadlineList *list,
                          guint expected)
{
  return wait_focused_position (list, expected, TRUE);
}

/* End pressed on the first headline's row: the focus settles on @last. */
static void
press_end_from_top (LwnHeadlineList *list,
                    guint last)
{
  gtk_widget_grab_focus (GTK_WIDGET (lwn_headline_list_get_first_match (list)));
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, 1);
  g_assert_cmpuint (focused_position_settled (list, last), ==, last);
}

/* The position of the focused row once it is another than @previous, or
 * after five seconds. */
static guint
focused_position_moved (LwnHeadlineList *list,
                        guint previous)
{
  return wait_focused_position (list, previous, FALSE);
}

/* End in a long list: the last headline's row, without the rows between;
 * then Up from the first of End's rows goes to the headline just above it,
 * never over the gap to the rows at the top; Home to the first again, and
 * Page Down from there a page at a time, never over the gap to the end. */
static void
test_end_leaves_a_gap (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 1000);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;
  guint made;
  guint page_up;

  g_test_summary ("End in a list of 1,000 headlines shows the last one with a few rows before it, not "
                  "1,000 rows; Up from there goes one headline at a time across the rows not made yet, "
                  "Home to the first headline, and Page Down from there a page at a time");

  window = show_list (list, G_LIST_MODEL (headlines), 800);
  press_end_from_top (list, 999);
  made = count_rows (list);
  g_assert_cmpuint (made, <, 200);

  for (guint expected = 998; expected > 970; expected--)
    {
      g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_DISPLAY_LINES, -1);
      g_assert_cmpuint (focused_position_settled (list, expected), ==, expected);
    }
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, -1);
  page_up = focused_position_moved (list, 971);
  g_assert_cmpuint (page_up, <, 971);
  g_assert_cmpuint (page_up, >, 900);

  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, -1);
  g_assert_cmpuint (focused_position_settled (list, 0), ==, 0);
  g_assert_cmpuint (count_rows (list), <, 300);

  for (guint i = 0, position = 0; i < 12; i++)
    {
      guint next;

      g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, 1);
      next = focused_position_moved (list, position);
      g_assert_cmpuint (next, >, position);
      g_assert_cmpuint (next, <, position + 40);
      position = next;
    }

  gtk_widget_destroy (window);
}

/* The rows once none has come for a second, or after ten seconds. */
static guint
count_rows_at_rest (LwnHeadlineList *list)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  gint64 still_since = g_get_monotonic_time ();
  guint rows = count_rows (list);

  while (g_get_monotonic_time () < deadline && g_get_monotonic_time () - still_since < G_USEC_PER_SEC)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
      if (count_rows (list) != rows)
        {
          rows = count_rows (list);
          still_since = g_get_monotonic_time ();
        }
    }
  return rows;
}

/* Holds the frame clock of @window, as a busy machine may, or lets it go:
 * while held, nothing is laid out or drawn. */
static void
hold_frames (GtkWidget *window,
             gboolean hold)
{
  GdkWindow *toplevel = gtk_widget_get_window (window);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (hold)
    gdk_window_freeze_toplevel_updates_libgtk_only (toplevel);
  else
    gdk_window_thaw_toplevel_updates_libgtk_only (toplevel);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* Scrolls @adjustment by @pixels @times, the main loop running after each,
 * as a mouse wheel turned a notch at a time. */
static void
turn_wheel (GtkAdjustment *adjustment,
            double pixels,
            guint times)
{
  for (guint i = 0; i < times; i++)
    {
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + pixels);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
}

/* Page Up from End's rows while the rows it makes wait for their layout: a
 * window whose frame clock is held (a busy machine's), and a view that moves
 * meanwhile (a wheel), so that steps run between the rows made and their
 * layout. Page Up finds its row by the rows' places, and a row not laid out
 * yet has none: the movement waits for the layout, and goes a page up, not to
 * the first headline. */
static void
test_page_up_before_layout (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 1000);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;
  GtkAdjustment *adjustment;
  guint page_up;

  g_test_summary ("Page Up from the rows End made, while new rows wait for a layout a busy frame clock "
                  "holds back and the view moves meanwhile, goes a page up, not to the first headline");

  window = show_list (list, G_LIST_MODEL (headlines), 800);
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gtk_widget_get_parent (GTK_WIDGET (list))));
  press_end_from_top (list, 999);
  for (guint expected = 998; expected > 970; expected--)
    {
      g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_DISPLAY_LINES, -1);
      g_assert_cmpuint (focused_position_settled (list, expected), ==, expected);
    }
  count_rows_at_rest (list);

  hold_frames (window, TRUE);
  /* The wheel, up: rows come above the tail, and wait for a layout. */
  turn_wheel (adjustment, -60, 20);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, -1);
  for (guint i = 0; i < 20; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  hold_frames (window, FALSE);

  page_up = focused_position_moved (list, 971);
  g_assert_cmpuint (page_up, <, 971);
  g_assert_cmpuint (page_up, >, 900);

  gtk_widget_destroy (window);
}

/* Two Page Downs while the rows they need wait for a layout the frame clock
 * holds back: the list goes down two pages once laid out, not one. */
static void
test_page_downs_held_add_up (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 1000);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;
  GtkAdjustment *adjustment;
  guint one_page;
  guint two_pages;

  g_test_summary ("Two Page Downs pressed while new rows wait for their layout go down two pages");

  window = show_list (list, G_LIST_MODEL (headlines), 800);
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gtk_widget_get_parent (GTK_WIDGET (list))));
  gtk_widget_grab_focus (GTK_WIDGET (lwn_headline_list_get_first_match (list)));
  count_rows_at_rest (list);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, 1);
  one_page = focused_position_moved (list, 0);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, -1);
  g_assert_cmpuint (focused_position_settled (list, 0), ==, 0);
  count_rows_at_rest (list);

  hold_frames (window, TRUE);
  /* The wheel, down: rows come below the reach, and wait for a layout. */
  turn_wheel (adjustment, 20, 10);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, 1);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_PAGES, 1);
  hold_frames (window, FALSE);

  two_pages = focused_position_moved (list, 0);
  g_test_message ("one Page Down: %u; two held: %u", one_page, two_pages);
  g_assert_cmpuint (two_pages, >, one_page + 1);

  gtk_widget_destroy (window);
}

/* A refresh while End's gap is open (three new headlines on top, one gone
 * from the gap), then a search, then none: the focused headline keeps its
 * row and the focus, Up goes on one headline at a time, the search shows its
 * matches from the top, and Home goes to the first headline. */
static void
test_refresh_and_search_with_a_gap (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 1000);
  g_autoptr (GListStore) fresh = make_headlines ("b", 3);
  g_autoptr (LwnHeadlineList) list = new_list ();
  g_autoptr (LwnHeadline) focused = NULL;
  GtkWidget *window;
  gpointer added[3];

  g_test_summary ("A refresh and a search while End's gap is open keep the focused row, show the search's "
                  "first matches, and Home and Up still go where they should");

  window = show_list (list, G_LIST_MODEL (headlines), 800);
  press_end_from_top (list, 999);
  focused = g_object_ref (lwn_headline_row_get_headline (LWN_HEADLINE_ROW (gtk_container_get_focus_child (GTK_CONTAINER (list)))));

  for (guint i = 0; i < 3; i++)
    added[i] = g_list_model_get_item (G_LIST_MODEL (fresh), i);
  g_list_store_remove (headlines, 500);
  g_list_store_splice (headlines, 0, 0, added, 3);
  for (guint i = 0; i < 3; i++)
    g_object_unref (added[i]);
  g_assert_cmpuint (focused_position_settled (list, 1001), ==, 1001);
  g_assert_true (lwn_headline_row_get_headline (LWN_HEADLINE_ROW (gtk_container_get_focus_child (GTK_CONTAINER (list)))) == focused);
  g_assert_cmpuint (count_rows_at_rest (list), <, 300);
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_DISPLAY_LINES, -1);
  g_assert_cmpuint (focused_position_settled (list, 1000), ==, 1000);

  g_assert_cmpuint (search (list, "99"), ==, 19);
  count_rows_at_rest (list);
  assert_shows_first_matches (list, G_LIST_MODEL (headlines), "99");

  g_assert_cmpuint (search (list, ""), ==, 1002);
  gtk_widget_grab_focus (GTK_WIDGET (lwn_headline_list_get_first_match (list)));
  g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, -1);
  g_assert_cmpuint (focused_position_settled (list, 0), ==, 0);
  g_assert_cmpuint (count_rows (list), <, 400);

  gtk_widget_destroy (window);
}

/* End in a window taller than the rows End makes: the view shows the rows
 * above the gap too, and rows come on the side of the focus until the gap
 * is out of sight, not below the reach, which the rows kept in place would
 * push down as fast as they come, until every row is made. */
static void
test_end_in_a_tall_window (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 1000);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;
  guint rows;

  g_test_summary ("End in 1,000 headlines in a window where End's last rows take less than a page: rows come "
                  "above them until the gap is out of sight, and the other rows are not made");

  window = show_list (list, G_LIST_MODEL (headlines), 3000);
  press_end_from_top (list, 999);
  rows = count_rows_at_rest (list);
  g_test_message ("rows made after End: %u, page %.0f px", rows,
                  gtk_adjustment_get_page_size (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gtk_widget_get_parent (GTK_WIDGET (list))))));
  g_assert_cmpuint (rows, <, 300);

  gtk_widget_destroy (window);
}

/* End in a long list whose summaries no worker made yet: the rows after the
 * gap wait for theirs as the rows at the top do, a worker makes them (the
 * last headline's row comes), and not those of the headlines in the gap;
 * Up from there crosses the gap one headline at a time, each row with its
 * summary. */
static void
test_end_gap_waits_for_summaries (void)
{
  g_autoptr (GListStore) headlines = g_list_store_new (LWN_TYPE_HEADLINE);
  g_autoptr (LwnHeadlineList) list = new_list ();
  GtkWidget *window;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  guint with_text = 0;

  g_test_summary ("End in 1,000 headlines without their summaries yet: a worker makes those of the last rows, "
                  "which wait for them, not those of the headlines between; Up crosses the gap one at a time");

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *id = g_strdup_printf ("late-%u", i);
      g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", i);
      g_autoptr (LwnFeedItem) item = lwn_feed_item_new (id, "Late", url, url, NULL, "<p>Made <b>later</b></p>", NULL, FALSE);
      g_autoptr (LwnHeadline) headline = lwn_headline_new (item, "https://lwn.net/headlines/rss", TRUE);

      g_list_store_append (headlines, headline);
    }
  window = show_list (list, G_LIST_MODEL (headlines), 800);
  while (lwn_headline_list_get_first_match (list) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (lwn_headline_list_get_first_match (list));
  press_end_from_top (list, 999);
  g_assert_cmpuint (count_rows (list), <, 200);
  g_assert_true (rows_have_text (list));
  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (G_LIST_MODEL (headlines), i);

      with_text += lwn_feed_item_has_display_text (lwn_headline_get_item (headline));
    }
  g_assert_cmpuint (with_text, <, 300);

  for (guint expected = 998; expected > 950; expected--)
    {
      g_signal_emit_by_name (list, "move-cursor", GTK_MOVEMENT_DISPLAY_LINES, -1);
      g_assert_cmpuint (focused_position_settled (list, expected), ==, expected);
    }
  g_assert_true (rows_have_text (list));

  gtk_widget_destroy (window);
}

/* The list goes while the worker folds: the worker holds no reference to
 * it, and its end, which comes later, finds nothing of it (under the
 * sanitizers, a use after free would show). */
static void
test_list_gone_while_folding (void)
{
  g_autoptr (GListStore) headlines = make_headlines ("a", 400);
  LwnHeadlineList *list = new_list ();
  gpointer gone = list;

  g_object_add_weak_pointer (G_OBJECT (list), &gone);
  lwn_headline_list_set_model (list, G_LIST_MODEL (headlines));
  lwn_headline_list_set_search (list, "number 399");
  g_assert_true (lwn_headline_list_get_matches_waiting (list));
  gtk_widget_destroy (GTK_WIDGET (list));
  g_object_unref (list);
  g_assert_null (gone);
  for (guint i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

int
main (int argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_summary ("LwnHeadlineList keeps one row per headline across model changes and shows the search's matches");
  g_test_add_func ("/headline-list/model/cleared-then-set", test_model_cleared_then_set);
  g_test_add_func ("/headline-list/model/cleared-then-other", test_model_cleared_then_other);
  g_test_add_func ("/headline-list/model/replaced", test_model_replaced);
  g_test_add_func ("/headline-list/model/items-changed", test_items_changed);
  g_test_add_func ("/headline-list/model/shared-ids", test_shared_ids);
  g_test_add_func ("/headline-list/model/rows-wait-for-their-text", test_rows_wait_for_their_text);
  g_test_add_func ("/headline-list/model/edited-item-text-by-worker", test_edited_item_text_by_worker);
  g_test_add_func ("/headline-list/prepare/first-row-at-once", test_prepared_first_row_at_once);
  g_test_add_func ("/headline-list/prepare/outlives-list", test_prepare_outlives_list);
  g_test_add_func ("/headline-list/search/matches", test_search_shows_matches);
  g_test_add_func ("/headline-list/search/many-rows", test_search_many_rows);
  g_test_add_func ("/headline-list/keys/end-leaves-a-gap", test_end_leaves_a_gap);
  g_test_add_func ("/headline-list/keys/page-up-before-layout", test_page_up_before_layout);
  g_test_add_func ("/headline-list/keys/page-downs-held-add-up", test_page_downs_held_add_up);
  g_test_add_func ("/headline-list/keys/refresh-and-search-with-a-gap", test_refresh_and_search_with_a_gap);
  g_test_add_func ("/headline-list/keys/end-in-a-tall-window", test_end_in_a_tall_window);
  g_test_add_func ("/headline-list/keys/end-gap-waits-for-summaries", test_end_gap_waits_for_summaries);
  g_test_add_func ("/headline-list/search/highlights", test_search_highlights);
  g_test_add_func ("/headline-list/search/text-made-by-a-worker", test_search_text_made_by_a_worker);
  g_test_add_func ("/headline-list/search/list-gone-while-folding", test_list_gone_while_folding);

  return g_test_run ();
}
