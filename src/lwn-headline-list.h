/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The list of the headlines window: a row per headline, made as the person scrolls and kept by headline. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-headline-row.h"

G_BEGIN_DECLS

/* The list's state, kept in the fields of LwnHeadlineList:
 *
 *   n          how many headlines the model holds (0 without a model)
 *   matching   one flag per headline: whether it matches the search (all do without one)
 *   waiting    the matches wait for a worker to fold the search text of some
 *              headlines (the main thread never folds text); search_waiting:
 *              a search waits with them
 *   reach      the rows show only for matching headlines above this position…
 *   tail       …and from this one on: n, or after End far down, the last
 *              matching headlines, after a gap of headlines without rows yet
 *   rows       rows[i] is the row of headline i, or NULL while it is not made
 *   to_end     End was pressed while rows were still to make
 *   pending    a cursor movement into the gap, held back until rows there are
 *              made on the side it comes from, or a Page Up or Down held back
 *              until the layout of the rows made last
 *   stale      rows were made, shown, hidden or sorted since the last layout:
 *              GtkListBox finds a page's row by the rows' last places, and
 *              the rows made since have none
 *   anchor     a row to keep in place on the screen across the next layout
 *   fill_id    the idle step that makes rows, when one is due
 *   making_text  a worker makes the summaries of the next rows to make, above
 *              reach or in the tail (the items get them only when a view
 *              needs them); no step is due meanwhile, and none makes a row
 *              whose summary is missing
 *
 * These hold between any two events:
 *
 *   I1  matching has n flags; n_matching counts those set. While waiting,
 *       the flag of a headline without search text is unset.
 *   I2  reach <= rows->len <= n, and reach <= tail <= n; with a gap
 *       (reach < tail < n), rows->len = n.
 *   I3  The list's children are exactly the rows in rows, once each, and
 *       rows[i] stands for headline i of the model (its position is i).
 *   I4  A row shows if and only if its position is below reach or at tail
 *       or after, and matches.
 *   I5  Every row that shows marks the current search's matches; a hidden
 *       row may still mark an older search's.
 *   I6  Without a model there are no rows, reach is 0, to_end is FALSE and
 *       no step is due.
 *   I7  The anchor, when set, is one of the rows, and goes at the next
 *       layout or at the next search or model.
 *
 * The states, read from those fields:
 *
 *   EMPTY     no model
 *   FILLING   a model; a matching headline below reach or in the tail has
 *             no row, the rows end less than a page below the view, the gap
 *             is less than a page above it, or a movement is held: a step
 *             is due, or the worker makes the summaries it waits for
 *   SETTLED   a model; every row that should show exists, and the rows
 *             reach far enough below the view
 *   ENDING    FILLING with to_end: reach goes to n, or with a gap the tail's
 *             rows are made
 *
 * Every event goes through one function, apply_event() in
 * lwn-headline-list.c, which moves the list as follows:
 *
 *   event          EMPTY              SETTLED                  FILLING               ENDING
 *   ----------------------------------------------------------------------------------------------------
 *   model set      first rows made    rows of kept headlines   as SETTLED            as SETTLED; a model
 *                  → FILLING/SETTLED  stay, the others go      (step restarted)      with no headline kept
 *                                                                                    clears to_end
 *                                     → FILLING/SETTLED
 *   model cleared  EMPTY              rows destroyed → EMPTY   → EMPTY               → EMPTY
 *   items changed  (not followed)     as model set             as model set          as model set
 *   search         matches only       reach = a screenful of   as SETTLED            to_end cleared,
 *                  → EMPTY            matches from the top,    → FILLING/SETTLED     as SETTLED
 *                                     no gap
 *                                     → FILLING/SETTLED;
 *                                     while waiting, the rows
 *                                     stay until text folded
 *   text folded    matches only       matches found again; a   as SETTLED            as SETTLED
 *                                     waiting search as search
 *                                     → FILLING/SETTLED
 *   fill step      —                  —                        reach grows, or the   as FILLING; when
 *                                                              tail up, or rows are  done, End is pressed
 *                                                              made (in the tail     again if the list has
 *                                                              too) up to the first  the focus → SETTLED
 *                                                              without its summary,
 *                                                              whose worker starts
 *                                                              → FILLING/SETTLED;
 *                                                              then a held movement
 *                                                              is made, End pressed
 *                                                              again or a held
 *                                                              movement made only
 *                                                              once laid out
 *   text made      worker done        worker done              the next step is due  as FILLING
 *   view moved     —                  → FILLING if the rows    FILLING               ENDING
 *                                     end too soon, or the gap
 *                                     is less than a page above
 *   laid out       —                  anchor restored, not     anchor restored, not  anchor restored, not
 *                                     stale                    stale                 stale
 *   End            —                  → ENDING if reach < n    → ENDING if reach < n ENDING
 *                                     (more than TAIL_GAP      or a row is missing
 *                                     matches below reach:
 *                                     a gap, the tail the last
 *                                     SEARCH_ROWS of them)
 *   to the gap     —                  held back; the tail up,  as SETTLED            to_end cleared,
 *   (Up, Page Up                      or reach down → FILLING                        as SETTLED
 *   from the tail,
 *   Down, Page Down
 *   to it)
 *   Page Up or     —                  held back while stale    as SETTLED            to_end cleared,
 *   Down, stale                       → FILLING                                      as SETTLED
 *   other cursor   —                  SETTLED                  FILLING               → FILLING
 *
 * A movement held back the same way as the one held before adds to it; End
 * and any other cursor movement drop what was held.
 *
 * After an event that can change which rows show or what they match (model
 * set, items changed, search, text folded, fill step), the rows that show
 * take the current search's highlights (I5). The filter function only
 * decides which rows show (I4). Whenever the matches are known again, the
 * list emits ::matches-changed. */

/* Returns (transfer full, nullable) the name of the feed of the headline at @position. */
typedef char *(*LwnHeadlineSourceFunc) (guint position,
                                        gpointer user_data);

#define LWN_TYPE_HEADLINE_LIST (lwn_headline_list_get_type ())
G_DECLARE_FINAL_TYPE (LwnHeadlineList, lwn_headline_list, LWN, HEADLINE_LIST, GtkListBox)

/* clang-format off */
void            lwn_headline_list_set_model       (LwnHeadlineList *self,
                                                   GListModel      *headlines);
void            lwn_headline_list_set_subscriber  (LwnHeadlineList *self,
                                                   gboolean         subscriber);
void            lwn_headline_list_set_source_func (LwnHeadlineList      *self,
                                                   LwnHeadlineSourceFunc func,
                                                   gpointer              user_data,
                                                   GDestroyNotify        destroy);
void            lwn_headline_list_update_sources  (LwnHeadlineList *self);
guint           lwn_headline_list_set_search      (LwnHeadlineList *self,
                                                   const char      *text);
guint           lwn_headline_list_get_n_matching  (LwnHeadlineList *self);
gboolean        lwn_headline_list_get_matches_waiting (LwnHeadlineList *self);
void            lwn_headline_list_prepare_search  (LwnHeadlineList *self);
LwnHeadlineRow *lwn_headline_list_get_first_match (LwnHeadlineList *self);
void            lwn_headline_list_prepare_async   (GListModel          *headlines,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean        lwn_headline_list_prepare_finish  (GAsyncResult *result,
                                                   GError      **error);
/* clang-format on */

G_END_DECLS
