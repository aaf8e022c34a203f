/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnHeadlineList: the headlines as rows of a GtkListBox in a scrolled viewport. A row of a long summary takes
 * about a millisecond to make and lay out, so rows are made only as far as the person can see or will soon
 * scroll to, in small steps between which the main loop answers; End far down makes the last rows only, and
 * those between come as the person scrolls towards them. A new feed keeps the rows of the headlines it still
 * has, with their focus and their place on the screen. */

#include "config.h"

#include <string.h>

#include "lwn-headline-list.h"

/* Each step runs in a main-loop iteration of its own, below GTK's input and
 * drawing priorities, and is laid out in the frame after it; laying out
 * takes about three times as long as making, a millisecond for every 400
 * characters of summary or so. */
#define FIRST_ROWS 3    /* made at once for a new model */
#define MORE_ROWS 4     /* asked for at a time when the rows end too soon */
#define SEARCH_ROWS 12  /* shown at once for a new search: about a screen */
#define STEP_ROWS 6     /* at most per step… */
#define STEP_CHARS 4000 /* …and this much markup… */
#define STEP_USEC 3000  /* …and this long */
#define AHEAD_PAGES 1   /* the rows reach this far below what shows */
/* A worker makes the summaries of this many headlines at a time, from the
 * first row missing one: some milliseconds' work for LWN's descriptions. */
#define TEXT_ROWS 32
/* End with more matching headlines than this below the reach makes rows for
 * the last SEARCH_ROWS of them only, after a gap: making every row between
 * would take seconds for thousands, and leave the list box so many rows that
 * every later change of them stalls the window. */
#define TAIL_GAP 100
/* Rows whose summaries lwn_headline_list_prepare_async() makes: about a
 * screenful. */
#define PREPARED_ROWS 8
#define MAX_HELD_MOVES 16 /* lines or pages a held movement adds up to */

/* Up to this many rows that start or stop showing are told to the list box
 * one by one; more, and it filters every row again. */
#define REFILTER_ROWS 64

struct _LwnHeadlineList
{
  GtkListBox parent_instance;

  GListModel *headlines;
  /* The rows of the first rows->len headlines, by position; NULL for one
   * not made yet. */
  GPtrArray *rows;
  /* Only the matching headlines above this position show, and those from
   * tail on, and each has its row or soon will. Rows made elsewhere wait,
   * hidden: a search starts again from the top with a screenful, whatever an
   * earlier one made. tail is n without a gap, else End's: the rows between
   * come as the person scrolls towards them, from either side. */
  guint reach;
  guint tail;
  guint fill_id;
  gboolean to_end; /* End was pressed before the last row was made */
  /* A cursor movement held back until rows in the gap are made, or until
   * the next layout. */
  GtkMovementStep pending_step;
  int pending_count;
  /* Rows were added, shown, hidden or sorted since the last layout. Until
   * the next one, GtkListBox finds a page's row by the rows' old places, in
   * which a row just made sits at the top: Page Up or Down would land on the
   * first or the last row. */
  gboolean layout_stale;
  GtkAdjustment *vadjustment;
  /* A row to keep where it shows on the screen across the next layout. */
  GtkWidget *anchor;
  int anchor_offset;
  double anchor_value;
  guint ages_id;
  /* The search, and whether each headline matches it, by position. */
  LwnSearchQuery *query; /* NULL: no search */
  GArray *matching;
  guint n_matching;
  /* A worker folds the search text of headlines that lack it; the matches
   * wait for it, and a search waiting starts when it is done. */
  GCancellable *folding;
  /* A worker makes the summaries of the next rows, which wait for it. */
  GCancellable *making_text;
  gboolean matches_waiting;
  gboolean search_waiting;
  gboolean matches_found; /* ::matches-changed is due at the end of the event */
  gboolean subscriber;    /* for the rows: see lwn_headline_row_set_subscriber() */
  /* Names each row's feed when the model holds several feeds' headlines. */
  LwnHeadlineSourceFunc source_func;
  gpointer source_data;
  GDestroyNotify source_destroy;
};

G_DEFINE_FINAL_TYPE (LwnHeadlineList, lwn_headline_list, GTK_TYPE_LIST_BOX)

enum
{
  SIGNAL_MATCHES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* What can happen to the list. Every change of its state goes through
 * apply_event(), which follows the table in lwn-headline-list.h. */
typedef enum
{
  LIST_EVENT_MODEL_SET,     /* lwn_headline_list_set_model() with a model */
  LIST_EVENT_MODEL_CLEARED, /* lwn_headline_list_set_model() with NULL */
  LIST_EVENT_ITEMS_CHANGED, /* the model changed: a new feed */
  LIST_EVENT_SEARCH,        /* lwn_headline_list_set_search() */
  LIST_EVENT_TEXT_FOLDED,   /* the worker made the search text the matches wait for */
  LIST_EVENT_TEXT_MADE,     /* the worker made the summaries the next rows wait for */
  LIST_EVENT_FILL_STEP,     /* the idle step that makes rows */
  LIST_EVENT_VIEW_MOVED,    /* scrolled or mapped: the rows may end too soon */
  LIST_EVENT_LAID_OUT,      /* a new layout: the anchor goes back in place */
  LIST_EVENT_END,           /* the End key */
  LIST_EVENT_TO_GAP,        /* a cursor movement into the gap before the tail */
  LIST_EVENT_PAGE_EARLY,    /* Page Up or Down before the layout of new rows */
  LIST_EVENT_CURSOR,        /* any other cursor movement */
} ListEvent;

/* A cursor movement, as move-cursor gives it. */
typedef struct
{
  GtkMovementStep step;
  int count;
} CursorMove;

static void apply_event (LwnHeadlineList *self,
                         ListEvent event,
                         gpointer data);
static void schedule_ages (LwnHeadlineList *self);
static void schedule_fill (LwnHeadlineList *self);

static LwnHeadlineRow *
row_at (LwnHeadlineList *self,
        guint position)
{
  return g_ptr_array_index (self->rows, position);
}

static gboolean
is_match (LwnHeadlineList *self,
          guint position)
{
  return position < self->matching->len && g_array_index (self->matching, gboolean, position);
}

/* Whether the headline at @position may show: above the reach or in the tail. */
static gboolean
in_range (LwnHeadlineList *self,
          guint position)
{
  return position < self->reach || (position >= self->tail && position < self->rows->len);
}

/* The first position from @position on that is in range; past them all,
 * at least rows->len. */
static guint
next_in_range (LwnHeadlineList *self,
               guint position)
{
  return position < self->reach || position >= self->tail ? position : MAX (self->tail, position);
}

/* Whether the headline at @position shows, once it has its row. */
static gboolean
is_shown (LwnHeadlineList *self,
          guint position)
{
  return in_range (self, position) && is_match (self, position);
}

static guint
n_headlines (LwnHeadlineList *self)
{
  return self->headlines != NULL ? g_list_model_get_n_items (self->headlines) : 0;
}

static void
text_folded_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  /* Cancelled: the list may be gone, or wants another fold. */
  if (lwn_feed_items_prepare_search_finish (result, NULL))
    apply_event (user_data, LIST_EVENT_TEXT_FOLDED, NULL);
}

/* A worker makes the search text of @missing; LIST_EVENT_TEXT_FOLDED
 * follows. The main thread never folds text: for 1,000 headlines that
 * would cost a frame. A fold under way for older headlines stops. */
static void
fold_search_text (LwnHeadlineList *self,
                  GPtrArray *missing)
{
  g_cancellable_cancel (self->folding);
  g_clear_object (&self->folding);
  self->folding = g_cancellable_new ();
  lwn_feed_items_prepare_search_async (missing, self->folding, text_folded_cb, self);
}

static GPtrArray *
new_item_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
}

static void
text_made_cb (GObject *source,
              GAsyncResult *result,
              gpointer user_data)
{
  /* Cancelled: the list is gone. */
  if (lwn_feed_items_prepare_display_finish (result, NULL))
    apply_event (user_data, LIST_EVENT_TEXT_MADE, NULL);
}

/* Adds the item of the headline at @position to @missing if it lacks its
 * summary. */
static void
add_missing_text (LwnHeadlineList *self,
                  GPtrArray *missing,
                  guint position)
{
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (self->headlines, position);
  LwnFeedItem *item = lwn_headline_get_item (headline);

  if (!lwn_feed_item_has_display_text (item))
    g_ptr_array_add (missing, lwn_feed_item_ref (item));
}

/* Whether the row of the headline at @position can be made now. A row shows
 * its headline's summary, which the items get only when a view needs it
 * (lwn_feed_prepare_display()), and the main thread never converts HTML: a
 * worker makes the summaries of this headline and of the next ones that
 * lack theirs, and LIST_EVENT_TEXT_MADE follows. A row of End's tail waits
 * for its summary as one above the reach does. The worker takes the
 * headlines that may show from @position on first, across End's gap, then
 * those the rows grow into next: below the reach, or above the tail for a
 * row of the tail. */
static gboolean
has_text (LwnHeadlineList *self,
          guint position)
{
  g_autoptr (LwnHeadline) headline = g_list_model_get_item (self->headlines, position);
  g_autoptr (GPtrArray) missing = NULL;
  guint n = n_headlines (self);

  if (lwn_feed_item_has_display_text (lwn_headline_get_item (headline)))
    return TRUE;
  if (self->making_text != NULL)
    return FALSE;

  missing = new_item_array ();
  for (guint i = position; i < n && missing->len < TEXT_ROWS; i = next_in_range (self, i + 1))
    add_missing_text (self, missing, i);
  if (position >= self->tail)
    {
      for (guint i = self->tail; i > self->reach && missing->len < TEXT_ROWS; i--)
        add_missing_text (self, missing, i - 1);
    }
  else
    {
      for (guint i = self->reach; i < self->tail && missing->len < TEXT_ROWS; i++)
        add_missing_text (self, missing, i);
    }
  self->making_text = g_cancellable_new ();
  lwn_feed_items_prepare_display_async (missing, self->making_text, text_made_cb, self);
  return FALSE;
}

/* Once per search and per feed. A headline whose search text is not made
 * yet matches nothing until the worker has made it; the others match as
 * they should, whatever their new position. */
static void
find_matches (LwnHeadlineList *self)
{
  guint n = n_headlines (self);
  gboolean all = self->query == NULL || lwn_search_query_is_empty (self->query);
  g_autoptr (GPtrArray) missing = all ? NULL : new_item_array ();

  g_array_set_size (self->matching, n);
  self->n_matching = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = all ? NULL : g_list_model_get_item (self->headlines, i);
      LwnFeedItem *item = headline != NULL ? lwn_headline_get_item (headline) : NULL;
      gboolean match = all;

      if (item != NULL && lwn_feed_item_has_search_text (item))
        match = lwn_search_query_matches (self->query, lwn_feed_item_get_search_text (item));
      else if (item != NULL)
        g_ptr_array_add (missing, lwn_feed_item_ref (item));
      g_array_index (self->matching, gboolean, i) = match;
      self->n_matching += match;
    }
  self->matches_waiting = missing != NULL && missing->len > 0;
  if (self->matches_waiting)
    fold_search_text (self, missing);
  self->matches_found |= !self->matches_waiting;
}

/* The rows changed: a layout is due, and the movements that need it wait for
 * it (LIST_EVENT_LAID_OUT). */
static void
rows_changed (LwnHeadlineList *self)
{
  self->layout_stale = TRUE;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* GtkListBox asks for every row at each invalidation. The filter only
 * decides what shows: show_highlights() marks the matches. */
static gboolean
filter_row (GtkListBoxRow *row,
            gpointer user_data)
{
  LwnHeadlineList *self = user_data;

  return is_shown (self, lwn_headline_row_get_position (LWN_HEADLINE_ROW (row)));
}

/* The list box shows again what filter_row() says. GTK's own refiltering
 * looks, for each of its rows, for the one that shows before it, through
 * every hidden row between: with thousands of rows made and a dozen showing,
 * that is millions of steps for each key of a search. A few rows whose
 * showing changed are told one by one instead, each costing one such look.
 * A row's child visibility is the filter's last answer for it. */
static void
refilter (LwnHeadlineList *self)
{
  guint changed = 0;

  for (guint i = 0; i < self->rows->len && changed <= REFILTER_ROWS; i++)
    {
      if (row_at (self, i) != NULL && gtk_widget_get_child_visible (GTK_WIDGET (row_at (self, i))) != is_shown (self, i))
        changed++;
    }
  if (changed > 0)
    rows_changed (self);
  if (changed > REFILTER_ROWS)
    {
      gtk_list_box_invalidate_filter (GTK_LIST_BOX (self));
      return;
    }
  for (guint i = 0; i < self->rows->len && changed > 0; i++)
    {
      LwnHeadlineRow *row = row_at (self, i);

      if (row != NULL && gtk_widget_get_child_visible (GTK_WIDGET (row)) != is_shown (self, i))
        {
          gtk_list_box_row_changed (GTK_LIST_BOX_ROW (row));
          changed--;
        }
    }
}

/* The rows that show mark the current search's matches. A hidden row keeps
 * what it had until it shows again, because marking a title costs a new
 * layout of that row, and a search may hide hundreds of rows. */
static void
show_highlights (LwnHeadlineList *self)
{
  for (guint i = next_in_range (self, 0); i < self->rows->len; i = next_in_range (self, i + 1))
    {
      if (row_at (self, i) != NULL && is_match (self, i))
        lwn_headline_row_set_query (row_at (self, i), self->query);
    }
}

/* No gap any more: the reach and the tail met. */
static void
close_gap (LwnHeadlineList *self)
{
  guint n = n_headlines (self);

  if (self->reach < self->tail)
    return;
  self->reach = MAX (self->reach, self->tail < n ? n : self->reach);
  self->tail = n;
  if (self->rows->len < self->reach)
    g_ptr_array_set_size (self->rows, self->reach);
}

/* Moves the reach down past @more matching headlines, or to the end;
 * returns whether rows made there earlier are to show now (the caller
 * invalidates the filter). */
static gboolean
extend_reach (LwnHeadlineList *self,
              guint more)
{
  guint n = n_headlines (self);
  gboolean reveals = FALSE;

  while (self->reach < MIN (self->tail, n) && more > 0)
    {
      guint position = self->reach++;

      if (!is_match (self, position))
        continue;
      more--;
      reveals |= position < self->rows->len && row_at (self, position) != NULL;
    }
  if (self->rows->len < self->reach)
    g_ptr_array_set_size (self->rows, self->reach);
  close_gap (self);
  return reveals;
}

/* Moves the tail up past @more matching headlines; returns whether rows
 * made there earlier are to show now. */
static gboolean
extend_tail (LwnHeadlineList *self,
             guint more)
{
  gboolean reveals = FALSE;

  while (self->tail > self->reach && more > 0)
    {
      guint position = --self->tail;

      if (!is_match (self, position))
        continue;
      more--;
      reveals |= row_at (self, position) != NULL;
    }
  close_gap (self);
  return reveals;
}

/* End: the last matching headlines shown after a gap, when many lie below
 * the reach; returns whether it opened one. */
static gboolean
open_tail (LwnHeadlineList *self)
{
  guint n = n_headlines (self);
  guint beyond = 0;
  guint tail = n;
  guint found = 0;

  if (self->tail < n)
    return FALSE;
  for (guint i = self->reach; i < n && beyond <= TAIL_GAP; i++)
    beyond += is_match (self, i);
  if (beyond <= TAIL_GAP)
    return FALSE;
  while (tail > self->reach && found < SEARCH_ROWS)
    found += is_match (self, --tail);
  g_ptr_array_set_size (self->rows, n);
  self->tail = tail;
  return TRUE;
}

/* Rows sort by where their headline is in the feed. */
static int
compare_rows (GtkListBoxRow *a,
              GtkListBoxRow *b,
              gpointer user_data)
{
  guint position_a = lwn_headline_row_get_position (LWN_HEADLINE_ROW (a));
  guint position_b = lwn_headline_row_get_position (LWN_HEADLINE_ROW (b));

  return position_a < position_b ? -1 : position_a > position_b;
}

/* The row that has the keyboard focus, or holds it in one of its links. */
static LwnHeadlineRow *
focused_row (LwnHeadlineList *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkWidget *focus = GTK_IS_WINDOW (toplevel) ? gtk_window_get_focus (GTK_WINDOW (toplevel)) : NULL;
  GtkWidget *row = focus != NULL ? gtk_widget_get_ancestor (focus, LWN_TYPE_HEADLINE_ROW) : NULL;

  return row != NULL && gtk_widget_get_parent (row) == GTK_WIDGET (self) ? LWN_HEADLINE_ROW (row) : NULL;
}

/* Notes the row to keep in place when rows above it come, go or change: the
 * focused row if it shows, else the first that shows. At the top of the list
 * nothing is kept, so that new headlines come into view. */
static void
anchor_capture (LwnHeadlineList *self)
{
  GtkWidget *anchor = GTK_WIDGET (focused_row (self));
  GtkAllocation allocation;
  double top;
  double bottom;

  if (self->anchor != NULL || self->vadjustment == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  top = gtk_adjustment_get_value (self->vadjustment);
  bottom = top + gtk_adjustment_get_page_size (self->vadjustment);
  if (top <= 0)
    return;

  if (anchor != NULL)
    {
      gtk_widget_get_allocation (anchor, &allocation);
      if (allocation.y + allocation.height <= top || allocation.y >= bottom)
        anchor = NULL;
    }
  for (guint i = 0; anchor == NULL && i < self->rows->len; i++)
    {
      GtkWidget *row = GTK_WIDGET (row_at (self, i));

      if (row == NULL || !gtk_widget_get_child_visible (row))
        continue;
      gtk_widget_get_allocation (row, &allocation);
      if (allocation.y + allocation.height > top)
        anchor = row;
    }
  if (anchor == NULL)
    return;

  gtk_widget_get_allocation (anchor, &allocation);
  self->anchor = g_object_ref (anchor);
  self->anchor_offset = allocation.y - (int) top;
  self->anchor_value = top;
}

static void
anchor_restore (LwnHeadlineList *self)
{
  g_autoptr (GtkWidget) anchor = g_steal_pointer (&self->anchor);
  GtkAllocation allocation;
  double value;
  double end;

  if (anchor == NULL || gtk_widget_get_parent (anchor) != GTK_WIDGET (self) || self->vadjustment == NULL)
    return;
  /* Scrolled meanwhile, by the person or by the keyboard focus: where they
   * went wins. A list that got shorter moves the view up by itself. */
  value = gtk_adjustment_get_value (self->vadjustment);
  end = gtk_adjustment_get_upper (self->vadjustment) - gtk_adjustment_get_page_size (self->vadjustment);
  if (value != self->anchor_value && value < end)
    return;
  gtk_widget_get_allocation (anchor, &allocation);
  gtk_adjustment_set_value (self->vadjustment, allocation.y - self->anchor_offset);
}

static gboolean
has_made_match (LwnHeadlineList *self)
{
  for (guint i = next_in_range (self, 0); i < self->rows->len; i = next_in_range (self, i + 1))
    {
      if (row_at (self, i) != NULL && is_match (self, i))
        return TRUE;
    }
  return FALSE;
}

/* Whether a headline that should show has no row yet. */
static gboolean
has_holes (LwnHeadlineList *self)
{
  for (guint i = next_in_range (self, 0); i < self->rows->len; i = next_in_range (self, i + 1))
    {
      if (row_at (self, i) == NULL && is_match (self, i))
        return TRUE;
    }
  return FALSE;
}

typedef enum
{
  WANT_NONE,
  WANT_REACH, /* rows below the reach */
  WANT_TAIL,  /* rows above the tail */
} Want;

/* Where the rows below the reach end: the end of the list without a gap,
 * else the bottom of the last row above the gap that shows. */
static int
gap_y (LwnHeadlineList *self)
{
  if (self->tail >= n_headlines (self))
    return gtk_widget_get_allocated_height (GTK_WIDGET (self));
  for (guint i = self->reach; i > 0; i--)
    {
      GtkWidget *row = GTK_WIDGET (row_at (self, i - 1));

      if (row != NULL && gtk_widget_get_child_visible (row))
        {
          GtkAllocation allocation;

          gtk_widget_get_allocation (row, &allocation);
          return allocation.y + allocation.height;
        }
    }
  return 0;
}

/* Which rows the view wants next: below the reach when the rows there end
 * before AHEAD_PAGES below what shows, above the tail when the gap is less
 * than AHEAD_PAGES above what shows. */
static Want
needs_more_rows (LwnHeadlineList *self)
{
  double page;
  double top;
  int gap;

  if (self->vadjustment == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)) || self->reach >= self->tail)
    return WANT_NONE;
  page = gtk_adjustment_get_page_size (self->vadjustment);
  top = gtk_adjustment_get_value (self->vadjustment);
  gap = gap_y (self);
  if (gap >= top || self->tail >= n_headlines (self))
    return gap < top + page * (1 + AHEAD_PAGES) ? WANT_REACH : WANT_NONE;
  return gap > top - page * AHEAD_PAGES ? WANT_TAIL : WANT_NONE;
}

static char *
dup_source (LwnHeadlineList *self,
            guint position)
{
  return self->source_func != NULL ? self->source_func (position, self->source_data) : NULL;
}

static void
set_row_source (LwnHeadlineList *self,
                LwnHeadlineRow *row,
                guint position,
                GDateTime *now)
{
  g_autofree char *source = dup_source (self, position);

  lwn_headline_row_set_source (row, source, now);
}

/* Makes the missing rows in order, within a step's budget but at least one;
 * returns how many it made. */
static guint
fill_rows (LwnHeadlineList *self,
           guint max_rows)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  gint64 start = g_get_monotonic_time ();
  gsize chars = 0;
  guint made = 0;

  for (guint i = next_in_range (self, 0); i < self->rows->len; i = next_in_range (self, i + 1))
    {
      g_autoptr (LwnHeadline) headline = NULL;
      g_autofree char *source = NULL;
      LwnFeedItem *item;
      LwnHeadlineRow *row;

      if (row_at (self, i) != NULL || !is_match (self, i))
        continue;
      if (made > 0 && (made >= max_rows || chars >= STEP_CHARS || g_get_monotonic_time () - start >= STEP_USEC))
        break;
      if (!has_text (self, i))
        break;

      /* Rows may come above what shows, when a refresh brought new headlines. */
      if (made == 0)
        anchor_capture (self);
      headline = g_list_model_get_item (self->headlines, i);
      item = lwn_headline_get_item (headline);
      source = dup_source (self, i);
      row = lwn_headline_row_new (headline, i, source, now);
      lwn_headline_row_set_query (row, self->query);
      lwn_headline_row_set_subscriber (row, self->subscriber, now);
      gtk_list_box_insert (GTK_LIST_BOX (self), GTK_WIDGET (row), -1);
      g_ptr_array_index (self->rows, i) = row;
      made++;
      chars += strlen (lwn_feed_item_get_summary_markup (item)) + strlen (lwn_feed_item_get_title (item));
    }
  if (made > 0)
    {
      rows_changed (self);
      schedule_ages (self);
    }
  return made;
}

static void
finish_end (LwnHeadlineList *self)
{
  self->to_end = FALSE;
  /* As if End were pressed again, now that the last row is there; unless
   * the focus went elsewhere meanwhile. */
  if (gtk_container_get_focus_child (GTK_CONTAINER (self)) != NULL)
    g_signal_emit_by_name (self, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, 1);
}

/* Which rows should come next: all to the end after End without a gap,
 * else those the view wants. */
static Want
wants_more (LwnHeadlineList *self)
{
  if (self->reach >= MIN (self->tail, n_headlines (self)))
    return WANT_NONE;
  if (self->to_end && self->tail >= n_headlines (self))
    return WANT_REACH;
  return needs_more_rows (self);
}

/* The cursor movement held back for rows above the tail, now that they are
 * there. */
static void
finish_pending_move (LwnHeadlineList *self)
{
  int count = self->pending_count;

  self->pending_count = 0;
  if (gtk_container_get_focus_child (GTK_CONTAINER (self)) != NULL)
    g_signal_emit_by_name (self, "move-cursor", self->pending_step, count);
}

/* A cursor movement kept for later, in place of End; one the same way as the
 * one kept before adds to it, so that keys pressed while rows wait are not
 * lost, up to a few screens' worth. */
static void
hold_move (LwnHeadlineList *self,
           const CursorMove *move)
{
  gboolean same_way = self->pending_count != 0 && self->pending_step == move->step
                      && (self->pending_count < 0) == (move->count < 0);

  self->to_end = FALSE;
  self->pending_step = move->step;
  self->pending_count = same_way ? CLAMP (self->pending_count + move->count, -MAX_HELD_MOVES, MAX_HELD_MOVES) : move->count;
}

/* One step: the rows reach further, or the tail goes up, if no row is
 * missing, then missing rows are made. */
static void
fill_step (LwnHeadlineList *self)
{
  gboolean revealed = FALSE;
  gboolean gap = self->tail < n_headlines (self);
  Want want = WANT_NONE;

  /* End again, or a held movement, find their rows by where the rows are:
   * they wait for the layout of the rows made last. */
  if (self->layout_stale && (self->to_end || self->pending_count != 0))
    return;
  if (!has_holes (self))
    {
      /* End's last rows are there: End again, before any other row. */
      if (self->to_end && gap)
        {
          finish_end (self);
          return;
        }
      want = wants_more (self);
    }
  if (want == WANT_REACH)
    revealed = extend_reach (self, self->to_end && !gap ? G_MAXUINT : MORE_ROWS);
  else if (want == WANT_TAIL)
    revealed = extend_tail (self, MORE_ROWS);
  if (revealed)
    refilter (self);
  /* The next step waits for this one's layout (size_allocate), or for the
   * summaries of the next rows; with no row to make or show, the list may
   * have been laid out meanwhile. */
  if (fill_rows (self, STEP_ROWS) > 0 || revealed || self->making_text != NULL)
    return;
  if (self->to_end)
    finish_end (self);
  else if (self->pending_count != 0)
    finish_pending_move (self);
  else
    schedule_fill (self);
}

static gboolean
fill_idle_cb (gpointer user_data)
{
  LwnHeadlineList *self = user_data;

  self->fill_id = 0;
  apply_event (self, LIST_EVENT_FILL_STEP, NULL);
  return G_SOURCE_REMOVE;
}

/* Asks for the next step if rows are missing, or if the rows end too soon
 * for what shows and more headlines are there. Called during layout, it
 * changes no widget: the step does. */
static void
schedule_fill (LwnHeadlineList *self)
{
  if (self->fill_id != 0 || self->headlines == NULL || self->making_text != NULL)
    return;
  if (!has_holes (self) && wants_more (self) == WANT_NONE && !self->to_end && self->pending_count == 0)
    return;
  self->fill_id = g_idle_add_full (G_PRIORITY_LOW, fill_idle_cb, self, NULL);
}

static void
vadjustment_value_changed_cb (GtkAdjustment *adjustment,
                              LwnHeadlineList *self)
{
  apply_event (self, LIST_EVENT_VIEW_MOVED, NULL);
}

/* How many rows reach @row's headline in the new feed of @n; 0 if it is
 * not there. */
static guint
rows_to_reach (GListModel *headlines,
               guint n,
               LwnHeadlineRow *row)
{
  LwnHeadline *wanted = row != NULL ? lwn_headline_row_get_headline (row) : NULL;

  for (guint i = 0; wanted != NULL && i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);

      if (lwn_headline_equal (headline, wanted))
        return i + 1;
    }
  return 0;
}

static void
focus_near (LwnHeadlineList *self,
            guint position)
{
  for (guint i = MIN (position + 1, self->rows->len); i > 0; i--)
    {
      if (row_at (self, i - 1) != NULL && is_shown (self, i - 1))
        {
          gtk_widget_grab_focus (GTK_WIDGET (row_at (self, i - 1)));
          return;
        }
    }
}

/* A new feed: each row whose headline is still there stays, with its
 * focus, and follows it; rows whose headline went go; the others are made
 * in later steps. The rows reach as far down as before, and as far as the
 * focused row and the one kept in place went. */
static void
update_rows (LwnHeadlineList *self)
{
  guint n = n_headlines (self);
  /* Rows by their headline's feed and id: two feeds may send one id, and each keeps its row. */
  g_autoptr (GHashTable) by_headline = g_hash_table_new (lwn_headline_hash, lwn_headline_equal);
  g_autoptr (GPtrArray) gone = g_ptr_array_new ();
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  LwnHeadlineRow *focused = focused_row (self);
  guint focused_position = focused != NULL ? lwn_headline_row_get_position (focused) : 0;
  guint wanted = self->rows->len;
  guint reach = self->reach;
  /* A gap End left stays, before the first of its rows that is kept. */
  gboolean gap = self->tail < self->rows->len;
  guint tail = n;
  guint focused_now = G_MAXUINT;
  guint anchor_now = G_MAXUINT;
  gboolean had_focus = focused != NULL;
  guint kept = 0;
  guint last = 0;
  gboolean reorder = FALSE;
  GHashTableIter iter;
  gpointer left;

  anchor_capture (self);
  find_matches (self);
  for (guint i = 0; i < self->rows->len; i++)
    {
      LwnHeadlineRow *row = row_at (self, i);

      if (row == NULL)
        continue;
      /* No two rows may stand for one headline: a second would be in no table, and stay. */
      if (g_hash_table_contains (by_headline, lwn_headline_row_get_headline (row)))
        g_ptr_array_add (gone, row);
      else
        g_hash_table_insert (by_headline, lwn_headline_row_get_headline (row), row);
    }

  if (gap)
    wanted = n;
  else
    {
      reach = MAX (reach, rows_to_reach (self->headlines, n, focused));
      if (self->anchor != NULL)
        reach = MAX (reach, rows_to_reach (self->headlines, n, LWN_HEADLINE_ROW (self->anchor)));
    }
  reach = MIN (reach, n);
  wanted = MIN (MAX (wanted, reach), n);

  rows = g_ptr_array_new_full (wanted, NULL);
  for (guint i = 0; i < wanted; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (self->headlines, i);
      LwnHeadlineRow *row = g_hash_table_lookup (by_headline, headline);
      LwnFeedItem *item = lwn_headline_get_item (headline);

      /* An item edited since (the same id, another text) whose summary no
       * worker made yet: its row is made again, after a worker made it, as
       * the main thread never converts HTML. */
      if (row != NULL && lwn_headline_get_item (lwn_headline_row_get_headline (row)) != item
          && !lwn_feed_item_has_display_text (item))
        {
          g_hash_table_remove (by_headline, headline);
          g_ptr_array_add (gone, row);
          row = NULL;
        }
      if (row != NULL)
        {
          /* Out of the table first: its key is the headline replaced here. */
          g_hash_table_remove (by_headline, headline);
          reorder |= kept > 0 && lwn_headline_row_get_position (row) < last;
          last = lwn_headline_row_get_position (row);
          if (gap && last >= self->tail)
            tail = MIN (tail, i);
          if (row == focused)
            focused_now = i;
          if (self->anchor != NULL && row == LWN_HEADLINE_ROW (self->anchor))
            anchor_now = i;
          lwn_headline_row_set_headline (row, headline, now);
          lwn_headline_row_set_position (row, i);
          set_row_source (self, row, i, now);
          kept++;
        }
      g_ptr_array_add (rows, row);
    }

  g_hash_table_iter_init (&iter, by_headline);
  while (g_hash_table_iter_next (&iter, NULL, &left))
    g_ptr_array_add (gone, left);
  if (gone->len > 0)
    rows_changed (self);
  for (guint i = 0; i < gone->len; i++)
    gtk_widget_destroy (g_ptr_array_index (gone, i));
  g_ptr_array_unref (self->rows);
  self->rows = g_steal_pointer (&rows);
  /* Above the gap, the rows reach as far as the focused row and the one
   * kept in place; below it they are in the tail. */
  if (gap && focused_now < tail)
    reach = MAX (reach, focused_now + 1);
  if (gap && anchor_now < tail)
    reach = MAX (reach, anchor_now + 1);
  self->reach = MIN (reach, n);
  self->tail = tail;
  close_gap (self);
  if (kept == 0)
    {
      /* A feed all new: from the top, as when the window opens. */
      g_clear_object (&self->anchor);
      self->to_end = FALSE;
      self->pending_count = 0;
      g_ptr_array_set_size (self->rows, MIN (n, FIRST_ROWS));
      self->reach = self->rows->len;
      self->tail = n;
      if (self->vadjustment != NULL)
        gtk_adjustment_set_value (self->vadjustment, 0);
      /* Never "No headlines" for a moment; the rest in the next steps. */
      fill_rows (self, 1);
    }
  if (reorder)
    {
      rows_changed (self);
      gtk_list_box_invalidate_sort (GTK_LIST_BOX (self));
    }
  /* The kept rows' headlines may match the search or not now, and may have
   * moved out of the reach or into it. */
  if (kept > 0)
    refilter (self);

  /* The focused row went, or no longer matches: the focus goes to the one
   * in its place. */
  focused = focused_row (self);
  if (focused != NULL && !is_match (self, lwn_headline_row_get_position (focused)))
    focus_near (self, lwn_headline_row_get_position (focused));
  else if (focused == NULL && had_focus)
    focus_near (self, focused_position);
  schedule_fill (self);
  schedule_ages (self);
}

static void
headlines_changed_cb (GListModel *headlines,
                      guint position,
                      guint removed,
                      guint added,
                      LwnHeadlineList *self)
{
  apply_event (self, LIST_EVENT_ITEMS_CHANGED, NULL);
}

/* No model: the rows go with the headlines they showed, so that the next
 * model starts from an empty list rather than beside rows nobody follows. */
static void
clear_rows (LwnHeadlineList *self)
{
  g_autoptr (GPtrArray) rows = g_steal_pointer (&self->rows);

  self->rows = g_ptr_array_new ();
  self->reach = 0;
  self->tail = 0;
  self->to_end = FALSE;
  self->pending_count = 0;
  g_clear_object (&self->anchor);
  find_matches (self);
  for (guint i = 0; i < rows->len; i++)
    {
      if (g_ptr_array_index (rows, i) != NULL)
        gtk_widget_destroy (g_ptr_array_index (rows, i));
    }
}

static void
take_model (LwnHeadlineList *self,
            GListModel *headlines)
{
  if (self->headlines != NULL)
    g_signal_handlers_disconnect_by_data (self->headlines, self);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_clear_object (&self->anchor);
  g_set_object (&self->headlines, headlines);
  if (headlines != NULL)
    g_signal_connect_object (headlines, "items-changed", G_CALLBACK (headlines_changed_cb), self, 0);
}

static void
start_search (LwnHeadlineList *self,
              LwnSearchQuery *query)
{
  g_clear_pointer (&self->query, lwn_search_query_unref);
  self->query = query;

  find_matches (self);
  /* The rows stay as they are until the search text is there. */
  self->search_waiting = self->matches_waiting;
  if (self->search_waiting)
    return;
  g_clear_object (&self->anchor);
  self->to_end = FALSE;
  self->pending_count = 0;
  /* From the top again, a screenful at first: showing every row an earlier
   * search made would cost the keystroke a layout of them all. End's gap
   * goes with the rows after it. */
  self->reach = 0;
  self->tail = n_headlines (self);
  extend_reach (self, SEARCH_ROWS);
  refilter (self);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  /* The first match in this frame rather than "No headlines" for one. */
  if (self->n_matching > 0 && !has_made_match (self))
    fill_rows (self, 1);
  schedule_fill (self);
}

/* The one place where the list changes state, after the table in
 * lwn-headline-list.h. @data is the model for LIST_EVENT_MODEL_SET and the
 * query (owned, nullable) for LIST_EVENT_SEARCH. The highlights follow
 * every event that can change which rows show or what they match. */
static void
move_state (LwnHeadlineList *self,
            ListEvent event,
            gpointer data)
{
  switch (event)
    {
      case LIST_EVENT_MODEL_SET:
        take_model (self, data);
        update_rows (self);
        fill_rows (self, FIRST_ROWS);
        break;
      case LIST_EVENT_MODEL_CLEARED:
        take_model (self, NULL);
        clear_rows (self);
        return;
      case LIST_EVENT_ITEMS_CHANGED:
        update_rows (self);
        break;
      case LIST_EVENT_SEARCH:
        start_search (self, data);
        break;
      case LIST_EVENT_TEXT_FOLDED:
        g_clear_object (&self->folding);
        if (self->search_waiting)
          start_search (self, g_steal_pointer (&self->query));
        else
          {
            find_matches (self);
            refilter (self);
            schedule_fill (self);
          }
        break;
      case LIST_EVENT_TEXT_MADE:
        g_clear_object (&self->making_text);
        schedule_fill (self);
        return;
      case LIST_EVENT_FILL_STEP:
        fill_step (self);
        break;
      case LIST_EVENT_LAID_OUT:
        self->layout_stale = FALSE;
        anchor_restore (self);
        schedule_fill (self);
        return;
      case LIST_EVENT_VIEW_MOVED:
        schedule_fill (self);
        return;
      case LIST_EVENT_END:
        /* The last headline may have no row yet: the rows are made first,
         * and End is then pressed once more (finish_end()). Far below the
         * reach, only the last rows are made, after a gap. */
        self->pending_count = 0;
        if (open_tail (self))
          refilter (self);
        self->to_end = (self->tail >= n_headlines (self) && self->reach < self->tail) || has_holes (self);
        schedule_fill (self);
        return;
      case LIST_EVENT_TO_GAP:
        /* Held back until rows in the gap, on the side the cursor comes
         * from, are made and laid out (finish_pending_move()). */
        hold_move (self, data);
        if (self->pending_count < 0 ? extend_tail (self, SEARCH_ROWS) : extend_reach (self, SEARCH_ROWS))
          refilter (self);
        schedule_fill (self);
        return;
      case LIST_EVENT_PAGE_EARLY:
        /* Held back until the layout (fill_step()). */
        hold_move (self, data);
        schedule_fill (self);
        return;
      case LIST_EVENT_CURSOR:
        self->to_end = FALSE;
        self->pending_count = 0;
        return;
      default:
        g_return_if_reached ();
    }
  show_highlights (self);
}

static void
apply_event (LwnHeadlineList *self,
             ListEvent event,
             gpointer data)
{
  move_state (self, event, data);
  /* Told once the list is whole again, never from the middle of a change. */
  if (self->matches_found)
    {
      self->matches_found = FALSE;
      g_signal_emit (self, signals[SIGNAL_MATCHES_CHANGED], 0);
    }
}

/* Ages ("5 minutes ago") -------------------------------------------------- */

static void
update_ages (LwnHeadlineList *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  for (guint i = 0; i < self->rows->len; i++)
    {
      if (row_at (self, i) != NULL)
        lwn_headline_row_update_age (row_at (self, i), now);
    }
}

static gboolean
ages_cb (gpointer user_data)
{
  LwnHeadlineList *self = user_data;

  self->ages_id = 0;
  update_ages (self);
  schedule_ages (self);
  return G_SOURCE_REMOVE;
}

static gint64
row_date (LwnHeadlineRow *row)
{
  GDateTime *date = lwn_feed_item_get_date (lwn_headline_get_item (lwn_headline_row_get_headline (row)));

  return date != NULL ? g_date_time_to_unix (date) * G_USEC_PER_SEC + g_date_time_get_microsecond (date) : G_MININT64;
}

/* Once a minute while the list shows, at the moment the newest dated row
 * turns a minute older: its age is the one that counts minutes; the others
 * count hours or days, and a minute late is nothing to them. */
static void
schedule_ages (LwnHeadlineList *self)
{
  gint64 newest = G_MININT64;
  gint64 age;
  gint64 next;

  g_clear_handle_id (&self->ages_id, g_source_remove);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  for (guint i = 0; i < self->rows->len; i++)
    {
      if (row_at (self, i) != NULL)
        newest = MAX (newest, row_date (row_at (self, i)));
    }
  if (newest == G_MININT64)
    return;

  age = MAX (g_get_real_time () - newest, 0);
  next = (age / G_TIME_SPAN_MINUTE + 1) * G_TIME_SPAN_MINUTE;
  /* A little after the minute, never before it. */
  self->ages_id = g_timeout_add ((guint) ((next - age) / 1000) + 50, ages_cb, self);
}

/* The list ------------------------------------------------------------------ */

static void
lwn_headline_list_size_allocate (GtkWidget *widget,
                                 GtkAllocation *allocation)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (widget);

  GTK_WIDGET_CLASS (lwn_headline_list_parent_class)->size_allocate (widget, allocation);
  apply_event (self, LIST_EVENT_LAID_OUT, NULL);
}

static void
watch_vadjustment (LwnHeadlineList *self,
                   GtkAdjustment *vadjustment)
{
  if (vadjustment == self->vadjustment)
    return;
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_set_object (&self->vadjustment, vadjustment);
  if (vadjustment != NULL)
    g_signal_connect (vadjustment, "value-changed", G_CALLBACK (vadjustment_value_changed_cb), self);
}

static void
lwn_headline_list_map (GtkWidget *widget)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (widget);
  GtkWidget *parent = gtk_widget_get_parent (widget);

  GTK_WIDGET_CLASS (lwn_headline_list_parent_class)->map (widget);
  /* The viewport's; the first allocation may have come before this. */
  watch_vadjustment (self, GTK_IS_SCROLLABLE (parent) ? gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (parent)) : NULL);
  apply_event (self, LIST_EVENT_VIEW_MOVED, NULL);
  update_ages (self);
  schedule_ages (self);
}

static void
lwn_headline_list_unmap (GtkWidget *widget)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (widget);

  g_clear_handle_id (&self->ages_id, g_source_remove);
  GTK_WIDGET_CLASS (lwn_headline_list_parent_class)->unmap (widget);
}

/* A right click on a row opens its context menu; the rows have no window
 * of their own, so the list hears the clicks meant for them. */
static gboolean
lwn_headline_list_button_press_event (GtkWidget *widget,
                                      GdkEventButton *event)
{
  GtkWidget *target = gtk_get_event_widget ((GdkEvent *) event);
  GtkWidget *row = NULL;

  if (gdk_event_triggers_context_menu ((GdkEvent *) event))
    {
      if (target == widget)
        row = GTK_WIDGET (gtk_list_box_get_row_at_y (GTK_LIST_BOX (widget), (int) event->y));
      else if (target != NULL)
        row = gtk_widget_get_ancestor (target, LWN_TYPE_HEADLINE_ROW);
      if (LWN_IS_HEADLINE_ROW (row) && gtk_widget_get_parent (row) == widget
          && lwn_headline_row_popup_menu (LWN_HEADLINE_ROW (row), (GdkEvent *) event))
        return GDK_EVENT_STOP;
    }
  return GTK_WIDGET_CLASS (lwn_headline_list_parent_class)->button_press_event (widget, event);
}

/* The first row of the tail that shows, or NULL without one. */
static GtkWidget *
first_tail_row (LwnHeadlineList *self)
{
  for (guint i = self->tail; i < self->rows->len; i++)
    {
      if (row_at (self, i) != NULL && is_match (self, i))
        return GTK_WIDGET (row_at (self, i));
    }
  return NULL;
}

/* The last row above the gap that shows, or NULL without one. */
static GtkWidget *
last_reach_row (LwnHeadlineList *self)
{
  for (guint i = self->reach; i > 0; i--)
    {
      if (row_at (self, i - 1) != NULL && is_match (self, i - 1))
        return GTK_WIDGET (row_at (self, i - 1));
    }
  return NULL;
}

/* Whether moving the cursor from the focused row, a line or a page, would
 * go over the gap before End's rows, skipping the headlines between: up from
 * the tail, or down from above the gap. */
static gboolean
crosses_gap (LwnHeadlineList *self,
             GtkMovementStep step,
             int count)
{
  LwnHeadlineRow *focused = focused_row (self);
  gboolean up = count < 0;
  GtkWidget *edge;
  GtkAllocation focused_allocation;
  GtkAllocation edge_allocation;
  double page;

  if (count == 0 || focused == NULL || self->reach >= self->tail || self->tail >= n_headlines (self)
      || (step != GTK_MOVEMENT_DISPLAY_LINES && step != GTK_MOVEMENT_PAGES)
      || (lwn_headline_row_get_position (focused) >= self->tail) != up)
    return FALSE;
  /* The row on the cursor's side of the gap, next to it. */
  edge = up ? first_tail_row (self) : last_reach_row (self);
  if (edge == NULL)
    return FALSE;
  if (step == GTK_MOVEMENT_DISPLAY_LINES)
    return GTK_WIDGET (focused) == edge;
  if (self->vadjustment == NULL)
    return FALSE;
  page = gtk_adjustment_get_page_size (self->vadjustment);
  gtk_widget_get_allocation (GTK_WIDGET (focused), &focused_allocation);
  gtk_widget_get_allocation (edge, &edge_allocation);
  return up ? focused_allocation.y - page < edge_allocation.y
            : focused_allocation.y + page > edge_allocation.y + edge_allocation.height;
}

/* End goes to the last headline, which may have no row yet. */
static void
lwn_headline_list_move_cursor (GtkListBox *list_box,
                               GtkMovementStep step,
                               int count)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (list_box);
  CursorMove move = { step, count };

  if (step == GTK_MOVEMENT_BUFFER_ENDS && count > 0)
    apply_event (self, LIST_EVENT_END, NULL);
  else if (step == GTK_MOVEMENT_PAGES && self->layout_stale && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      apply_event (self, LIST_EVENT_PAGE_EARLY, &move);
      return;
    }
  else if (crosses_gap (self, step, count))
    {
      apply_event (self, LIST_EVENT_TO_GAP, &move);
      return;
    }
  else
    apply_event (self, LIST_EVENT_CURSOR, NULL);
  GTK_LIST_BOX_CLASS (lwn_headline_list_parent_class)->move_cursor (list_box, step, count);
}

static void
lwn_headline_list_dispose (GObject *object)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (object);

  g_cancellable_cancel (self->folding);
  g_cancellable_cancel (self->making_text);
  lwn_headline_list_set_model (self, NULL);
  watch_vadjustment (self, NULL);
  g_clear_handle_id (&self->ages_id, g_source_remove);

  G_OBJECT_CLASS (lwn_headline_list_parent_class)->dispose (object);
}

static void
lwn_headline_list_finalize (GObject *object)
{
  LwnHeadlineList *self = LWN_HEADLINE_LIST (object);

  g_ptr_array_unref (self->rows);
  g_array_unref (self->matching);
  g_clear_pointer (&self->query, lwn_search_query_unref);
  g_clear_object (&self->folding);
  g_clear_object (&self->making_text);
  if (self->source_destroy != NULL)
    self->source_destroy (self->source_data);

  G_OBJECT_CLASS (lwn_headline_list_parent_class)->finalize (object);
}

static void
lwn_headline_list_class_init (LwnHeadlineListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkListBoxClass *list_box_class = GTK_LIST_BOX_CLASS (klass);

  object_class->dispose = lwn_headline_list_dispose;
  object_class->finalize = lwn_headline_list_finalize;
  widget_class->size_allocate = lwn_headline_list_size_allocate;
  widget_class->map = lwn_headline_list_map;
  widget_class->unmap = lwn_headline_list_unmap;
  widget_class->button_press_event = lwn_headline_list_button_press_event;
  list_box_class->move_cursor = lwn_headline_list_move_cursor;

  /**
   * LwnHeadlineList::matches-changed:
   *
   * Emitted once the search's matches are known again: after a search, a
   * new feed, or the worker that folds the search text.
   */
  signals[SIGNAL_MATCHES_CHANGED] = g_signal_new ("matches-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lwn_headline_list_init (LwnHeadlineList *self)
{
  self->rows = g_ptr_array_new ();
  self->matching = g_array_new (FALSE, TRUE, sizeof (gboolean));
  gtk_list_box_set_sort_func (GTK_LIST_BOX (self), compare_rows, NULL, NULL);
  gtk_list_box_set_filter_func (GTK_LIST_BOX (self), filter_row, self, NULL);
}

/**
 * lwn_headline_list_set_model:
 * @self: a #LwnHeadlineList
 * @headlines: (nullable): the #LwnHeadline items to show, or %NULL for none
 *
 * Shows @headlines and follows their changes; the first rows are made at
 * once, so that the list's first frame has them. A new model keeps the rows
 * of the headlines it shares with the one before; %NULL removes every row.
 */
void
lwn_headline_list_set_model (LwnHeadlineList *self,
                             GListModel *headlines)
{
  g_return_if_fail (LWN_IS_HEADLINE_LIST (self));
  g_return_if_fail (headlines == NULL || G_IS_LIST_MODEL (headlines));

  apply_event (self, headlines != NULL ? LIST_EVENT_MODEL_SET : LIST_EVENT_MODEL_CLEARED, headlines);
}

/**
 * lwn_headline_list_set_source_func:
 * @self: a #LwnHeadlineList
 * @func: (nullable): names the feed of the headline at a position of the
 *   model, or %NULL when the model holds one feed's headlines
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data when @func is replaced
 *
 * Makes every row made or kept from the next model on name its feed after
 * its details. Set it before lwn_headline_list_set_model(); after a feed's
 * name changes, lwn_headline_list_update_sources().
 */
void
lwn_headline_list_set_source_func (LwnHeadlineList *self,
                                   LwnHeadlineSourceFunc func,
                                   gpointer user_data,
                                   GDestroyNotify destroy)
{
  g_return_if_fail (LWN_IS_HEADLINE_LIST (self));

  if (self->source_destroy != NULL)
    self->source_destroy (self->source_data);
  self->source_func = func;
  self->source_data = user_data;
  self->source_destroy = destroy;
}

/**
 * lwn_headline_list_update_sources:
 * @self: a #LwnHeadlineList
 *
 * Asks the source function again for every row made: a feed was renamed.
 */
void
lwn_headline_list_update_sources (LwnHeadlineList *self)
{
  g_autoptr (GDateTime) now = NULL;

  g_return_if_fail (LWN_IS_HEADLINE_LIST (self));

  now = g_date_time_new_now_utc ();
  for (guint i = 0; i < self->rows->len; i++)
    if (row_at (self, i) != NULL)
      set_row_source (self, row_at (self, i), i, now);
}

/**
 * lwn_headline_list_set_search:
 * @text: (nullable): what to look for, words apart by spaces; %NULL or no
 *   word shows every headline
 *
 * Shows only the headlines that have every word of @text in their title,
 * author or summary, from the top, their titles marking where.
 *
 * The search text of headlines that lack it is made in a worker first;
 * until then the rows stay as they were, and ::matches-changed tells when
 * the matches are known.
 *
 * Returns: how many headlines match; while the search text is being made
 *   (see lwn_headline_list_get_matches_waiting()), how many of those that
 *   have it already match
 */
guint
lwn_headline_list_set_search (LwnHeadlineList *self,
                              const char *text)
{
  g_autoptr (LwnSearchQuery) query = text != NULL ? lwn_search_query_new (text) : NULL;

  g_return_val_if_fail (LWN_IS_HEADLINE_LIST (self), 0);

  if (query != NULL && lwn_search_query_is_empty (query))
    g_clear_pointer (&query, lwn_search_query_unref);
  apply_event (self, LIST_EVENT_SEARCH, g_steal_pointer (&query));
  return self->n_matching;
}

/**
 * lwn_headline_list_get_matches_waiting:
 *
 * Returns: whether the matches wait for a worker to make the search text
 */
gboolean
lwn_headline_list_get_matches_waiting (LwnHeadlineList *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_LIST (self), FALSE);

  return self->matches_waiting;
}

/**
 * lwn_headline_list_prepare_search:
 *
 * Has a worker make the search text of every headline now, so that the
 * first search, soon to come, finds it made.
 */
void
lwn_headline_list_prepare_search (LwnHeadlineList *self)
{
  g_autoptr (GPtrArray) missing = new_item_array ();
  guint n;

  g_return_if_fail (LWN_IS_HEADLINE_LIST (self));

  n = n_headlines (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (self->headlines, i);

      if (!lwn_feed_item_has_search_text (lwn_headline_get_item (headline)))
        g_ptr_array_add (missing, lwn_feed_item_ref (lwn_headline_get_item (headline)));
    }
  if (missing->len > 0 && self->folding == NULL)
    fold_search_text (self, missing);
}

/**
 * lwn_headline_list_get_n_matching:
 *
 * Returns: how many headlines the search shows: all without one
 */
guint
lwn_headline_list_get_n_matching (LwnHeadlineList *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_LIST (self), 0);

  return self->n_matching;
}

/**
 * lwn_headline_list_get_first_match:
 *
 * Returns: (transfer none) (nullable): the first row that shows, if made
 */
LwnHeadlineRow *
lwn_headline_list_get_first_match (LwnHeadlineList *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_LIST (self), NULL);

  for (guint i = next_in_range (self, 0); i < self->rows->len; i = next_in_range (self, i + 1))
    {
      if (row_at (self, i) != NULL && is_match (self, i))
        return row_at (self, i);
    }
  return NULL;
}

/**
 * lwn_headline_list_set_subscriber:
 * @self: a #LwnHeadlineList
 * @subscriber: whether the person subscribes to LWN
 *
 * Tells every row, and those made later, whether to offer reminders and
 * the day subscriber-only articles become free.
 */
void
lwn_headline_list_set_subscriber (LwnHeadlineList *self,
                                  gboolean subscriber)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  g_return_if_fail (LWN_IS_HEADLINE_LIST (self));

  self->subscriber = !!subscriber;
  for (guint i = 0; i < self->rows->len; i++)
    {
      if (row_at (self, i) != NULL)
        lwn_headline_row_set_subscriber (row_at (self, i), self->subscriber, now);
    }
}

static char prepare_source_tag;

static void
prepare_text_made_cb (GObject *source,
                      GAsyncResult *result,
                      gpointer user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  /* Not the fonts too: the process would hold them at rest all day. */
  if (!lwn_feed_items_prepare_display_finish (result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * lwn_headline_list_prepare_async:
 * @headlines: the headlines a list will show
 * @cancellable: (nullable): stops the worker
 * @callback: (nullable): called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Makes ready, without a list, what a list given @headlines shows in its
 * first frame: a worker makes the summaries of its first rows, as the list
 * would only once it has the model. A list given @headlines afterwards
 * makes its first rows at once.
 */
void
lwn_headline_list_prepare_async (GListModel *headlines,
                                 GCancellable *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GPtrArray) items = NULL;
  guint n;

  g_return_if_fail (G_IS_LIST_MODEL (headlines));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &prepare_source_tag);
  n = MIN (g_list_model_get_n_items (headlines), PREPARED_ROWS);
  if (n == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  items = new_item_array ();
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LwnHeadline) headline = g_list_model_get_item (headlines, i);

      g_ptr_array_add (items, lwn_feed_item_ref (lwn_headline_get_item (headline)));
    }
  lwn_feed_items_prepare_display_async (items, cancellable, prepare_text_made_cb, g_steal_pointer (&task));
}

gboolean
lwn_headline_list_prepare_finish (GAsyncResult *result,
                                  GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &prepare_source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
