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
 *   reach      the rows show only for matching headlines above this position
 *   rows       rows[i] is the row of headline i, or NULL while it is not made
 *   to_end     End was pressed while rows were still to make
 *   anchor     a row to keep in place on the screen across the next layout
 *   fill_id    the idle step that makes rows, when one is due
 *   making_text  a worker makes the summaries of the next rows to make (the
 *              items get them only when a view needs them); no step is due
 *              meanwhile, and none makes a row whose summary is missing
 *
 * These hold between any two events:
 *
 *   I1  matching has n flags; n_matching counts those set. While waiting,
 *       the flag of a headline without search text is unset.
 *   I2  reach <= rows->len <= n.
 *   I3  The list's children are exactly the rows in rows, once each, and
 *       rows[i] stands for headline i of the model (its position is i).
 *   I4  A row shows if and only if its position is below reach and matches.
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
 *   FILLING   a model; a matching headline below reach has no row, or the
 *             rows end less than a page below the view: a step is due
 *   SETTLED   a model; every row that should show exists, and the rows
 *             reach far enough below the view
 *   ENDING    FILLING with to_end: each step does four times as much,
 *             and reach goes to n
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
 *                  → EMPTY            matches from the top     → FILLING/SETTLED     as SETTLED
 *                                     → FILLING/SETTLED;
 *                                     while waiting, the rows
 *                                     stay until text folded
 *   text folded    matches only       matches found again; a   as SETTLED            as SETTLED
 *                                     waiting search as search
 *                                     → FILLING/SETTLED
 *   fill step      —                  —                        reach grows or rows   as FILLING, larger;
 *                                                              are made, up to the   when done, End is
 *                                                              first without its     pressed again if the
 *                                                              summary, whose        list has the focus
 *                                                              worker starts         → SETTLED
 *                                                              → FILLING/SETTLED
 *   text made      worker done        worker done              the next step is due  as FILLING
 *   view moved     —                  → FILLING if the rows    FILLING               ENDING
 *                                     end too soon
 *   laid out       —                  anchor restored          anchor restored       anchor restored
 *   End            —                  → ENDING if reach < n    → ENDING if reach < n ENDING
 *                                                              or a row is missing
 *   other cursor   —                  SETTLED                  FILLING               → FILLING
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
