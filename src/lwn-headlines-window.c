/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines window: a view of the reading model, with every headline's details and summary; clicks
 * become the application's actions. It never fetches, parses or saves anything itself. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-headline-list.h"
#include "lwn-all-headlines.h"
#include "lwn-headlines-window.h"
#include "lwn-window-accessible.h"

#define SAVE_DELAY_MS 500 /* the size is saved once it rests this long */
#define BACKGROUND_NOTICE_KEY "background-notice-shown"
#define BACKGROUND_RESPONSE_QUIT 1
/* What the info bar's own Escape binding answers: Escape there closes the
 * window, as it does everywhere else in it. */
#define BACKGROUND_RESPONSE_KEEP_RUNNING GTK_RESPONSE_CANCEL
#define FEED_LIST_WIDTH 300 /* px: the list of feeds in the header bar's popover */

/* A rule between headlines, and a rule beside quotes; currentColor keeps
 * both visible in dark themes and high contrast. */
static const char window_css[] = ".lwn-headlines > row { border-bottom: 1px solid alpha(currentColor, 0.12); }\n"
                                 ".lwn-quote { border-left: 3px solid alpha(currentColor, 0.3);"
                                 " padding-left: 10px; }\n";

struct _LwnHeadlinesWindow
{
  GtkApplicationWindow parent_instance;

  LwnFeedSet *feeds;
  LwnReader *reader;    /* the feed shown, one of feeds'; the first one while all are */
  LwnAllHeadlines *all; /* while every feed's headlines are shown */
  GSettings *settings;  /* NULL without the schema */

  int width; /* the size to come back to: the unmaximized one */
  int height;
  gboolean maximized;
  int saved_width;
  int saved_height;
  gboolean saved_maximized;
  guint save_id;
  gboolean in_tray;

  GtkHeaderBar *header_bar;
  /* The header bar's title with more than one feed: a button naming the feed
   * shown, whose popover lists every feed. A list of 200 feeds costs no widget
   * of its own per feed, as a combo box's menu would: a row is text in a store,
   * drawn by the tree view only where it shows. The list and its store are
   * made when the popover first opens (NULL until then), not on the way to the
   * window's first frame, and kept up to date from then on. */
  GtkWidget *feed_chooser; /* owned */
  GtkLabel *feed_label;
  GtkPopover *feed_popover;
  GtkTreeView *feed_list;
  GtkListStore *feed_store; /* FEED_COLUMN_LABEL, FEED_COLUMN_ID */
  char *feed_list_start;    /* the feed the list opens at next, at its top; NULL: the one shown */
  int feed_list_scroll_row; /* the row the list scrolls to once it has its size, or -1 */
  gboolean feed_list_scroll_to_top;
  GtkInfoBar *background_bar;
  GtkToggleButton *search_button;
  GtkSearchBar *search_bar;
  GtkSearchEntry *search_entry;
  GtkLabel *search_count;
  GtkLabel *no_matches_label;
  gboolean searching_in_vain; /* a search that nothing matches */
  GtkWidget *background_keep_button;
  GtkStack *refresh_stack;
  GtkSpinner *refresh_spinner;
  GtkStack *stack;
  GtkWidget *loading_page;
  GtkSpinner *loading_spinner;
  GtkWidget *error_page;
  GtkLabel *error_label;
  LwnHeadlineList *list_box;
};

G_DEFINE_FINAL_TYPE (LwnHeadlinesWindow, lwn_headlines_window, GTK_TYPE_APPLICATION_WINDOW)

static gboolean has_key (GSettings *settings,
                         const char *key);

static void
row_activated_cb (GtkListBox *list_box,
                  GtkListBoxRow *row,
                  LwnHeadlinesWindow *self)
{
  GApplication *application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  LwnHeadline *headline = lwn_headline_row_get_headline (LWN_HEADLINE_ROW (row));

  if (application != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (application), "open-headline",
                                    g_variant_new ("(ss)", lwn_headline_get_feed (headline),
                                                   lwn_headline_get_id (headline)));
}

/* Searching ----------------------------------------------------------------- */

static void show_state (LwnHeadlinesWindow *self);

/* What the list shows, said where the eye and the screen reader are: beside
 * the entry, in the entry's description, and in the empty list. */
static void
show_search_result (LwnHeadlinesWindow *self)
{
  const char *text = gtk_entry_get_text (GTK_ENTRY (self->search_entry));
  g_autofree char *words = g_strstrip (g_strdup (text));
  gboolean searching = gtk_search_bar_get_search_mode (self->search_bar) && *words != '\0';
  guint n = lwn_headline_list_get_n_matching (self->list_box);
  g_autofree char *count = NULL;
  g_autofree char *empty = NULL;

  /* What shows stays until the list knows the matches (::matches-changed). */
  if (lwn_headline_list_get_matches_waiting (self->list_box))
    return;

  if (searching)
    {
      /* Translators: how many headlines a search found. */
      count = n == 0 ? g_strdup (_ ("No matches"))
                     : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u headline", "%u headlines", n), n);
      /* Translators: the empty list's text; %s is what was searched for. */
      empty = g_strdup_printf (_ ("No headlines match “%s”"), text);
    }
  gtk_label_set_text (self->search_count, count != NULL ? count : "");
  if (empty != NULL)
    gtk_label_set_text (self->no_matches_label, empty);
  self->searching_in_vain = searching && n == 0;
  show_state (self);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->search_entry)),
                              count != NULL ? count : "");
}

static void
headlines_changed_cb (LwnHeadlinesWindow *self)
{
  show_search_result (self);
}

static void
search_changed_cb (GtkSearchEntry *entry,
                   LwnHeadlinesWindow *self)
{
  const char *text = gtk_search_bar_get_search_mode (self->search_bar) ? gtk_entry_get_text (GTK_ENTRY (entry)) : NULL;

  lwn_headline_list_set_search (self->list_box, text);
  show_search_result (self);
}

/* Enter in the entry opens the first match, as a click on it would. */
static void
search_activate_cb (GtkSearchEntry *entry,
                    LwnHeadlinesWindow *self)
{
  LwnHeadlineRow *row = lwn_headline_list_get_first_match (self->list_box);

  if (row != NULL)
    g_signal_emit_by_name (self->list_box, "row-activated", row);
}

static void
search_stop_cb (GtkSearchEntry *entry,
                LwnHeadlinesWindow *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

static void
search_mode_changed_cb (GtkSearchBar *bar,
                        GParamSpec *pspec,
                        LwnHeadlinesWindow *self)
{
  if (gtk_search_bar_get_search_mode (bar))
    {
      /* The text a search reads is made while the first word is typed. */
      lwn_headline_list_prepare_search (self->list_box);
      return;
    }
  /* Closed: every headline again, and the focus back in the list. */
  gtk_entry_set_text (GTK_ENTRY (self->search_entry), "");
  search_changed_cb (self->search_entry, self);
  if (gtk_widget_has_focus (GTK_WIDGET (self->search_entry)) || gtk_window_get_focus (GTK_WINDOW (self)) == NULL)
    {
      LwnHeadlineRow *row = lwn_headline_list_get_first_match (self->list_box);

      if (row != NULL)
        gtk_widget_grab_focus (GTK_WIDGET (row));
    }
}

static void
lwn_headlines_window_search (LwnHeadlinesWindow *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  /* The bar is revealed in the next frames, but the keys that follow go to
   * the focus at once: the entry must take them already. */
  gtk_widget_realize (GTK_WIDGET (self->search_entry));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Typing where no entry takes it starts a search, as in GNOME's lists. The
 * character goes in the entry by hand: gtk_search_bar_handle_event() hands
 * every key to the entry, realized or not, modifiers and all. */
static gboolean
lwn_headlines_window_key_press_event (GtkWidget *widget,
                                      GdkEventKey *event)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);
  gunichar c;
  char text[8] = { 0 };

  if (GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->key_press_event (widget, event))
    return GDK_EVENT_STOP;
  if ((event->state & (GDK_CONTROL_MASK | GDK_MOD1_MASK | GDK_SUPER_MASK)) != 0
      || gtk_search_bar_get_search_mode (self->search_bar)
      || !gtk_widget_get_mapped (GTK_WIDGET (self->list_box)))
    return GDK_EVENT_PROPAGATE;
  c = gdk_keyval_to_unicode (event->keyval);
  if (c == 0 || !g_unichar_isgraph (c))
    return GDK_EVENT_PROPAGATE;

  g_unichar_to_utf8 (c, text);
  lwn_headlines_window_search (self);
  gtk_entry_set_text (GTK_ENTRY (self->search_entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
  return GDK_EVENT_STOP;
}

/* The rows' "Remind Me When Free" toggles ask here: a view only forwards clicks. */
static void
set_reminder_activated (GSimpleAction *action,
                        GVariant *parameter,
                        gpointer user_data)
{
  LwnHeadlinesWindow *self = user_data;
  const char *feed;
  const char *item_id;
  gboolean remind;
  LwnReader *reader;

  g_variant_get (parameter, "(&s&sb)", &feed, &item_id, &remind);
  reader = lwn_feed_set_find_url (self->feeds, feed);
  if (reader != NULL)
    lwn_reader_set_reminder (reader, item_id, remind);
}

/* "Mark All as Read" marks what the window shows: one feed, or every feed with "All feeds". */
static void
mark_all_read_activated (GSimpleAction *action,
                         GVariant *parameter,
                         gpointer user_data)
{
  LwnHeadlinesWindow *self = user_data;

  if (self->all != NULL)
    lwn_feed_set_mark_all_read (self->feeds);
  else if (self->reader != NULL)
    lwn_reader_mark_all_read (self->reader);
}

static void
show_mark_all_read (LwnHeadlinesWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "mark-all-read");
  guint n_unread = self->all != NULL      ? lwn_feed_set_get_n_unread (self->feeds)
                   : self->reader != NULL ? lwn_reader_get_n_unread (self->reader)
                                          : 0;

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), n_unread > 0);
}

static void
show_subscriber (LwnHeadlinesWindow *self)
{
  gboolean subscriber = has_key (self->settings, "lwn-subscriber") && g_settings_get_boolean (self->settings, "lwn-subscriber");

  lwn_headline_list_set_subscriber (self->list_box, subscriber);
}

static void
settings_subscriber_changed_cb (GSettings *settings,
                                const char *key,
                                LwnHeadlinesWindow *self)
{
  show_subscriber (self);
}

/* The header bar and the page ----------------------------------------------- */

/* With every feed shown: headlines as soon as one feed has some, and the
 * first failure's reason when all failed. */
static LwnReaderState
shown_state (LwnHeadlinesWindow *self,
             const char **error,
             gboolean *refreshing)
{
  guint n = lwn_feed_set_get_n_feeds (self->feeds);
  gboolean all_failed = n > 0;
  gboolean any_ready = FALSE;

  if (self->all == NULL)
    {
      *error = lwn_reader_get_error (self->reader);
      *refreshing = lwn_reader_get_refreshing (self->reader);
      return lwn_reader_get_state (self->reader);
    }

  *error = NULL;
  *refreshing = FALSE;
  for (guint i = 0; i < n; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);
      LwnReaderState state = lwn_reader_get_state (reader);

      any_ready |= state == LWN_READER_STATE_READY;
      all_failed &= state == LWN_READER_STATE_FAILED;
      *refreshing |= lwn_reader_get_refreshing (reader);
      if (*error == NULL)
        *error = lwn_reader_get_error (reader);
    }
  return any_ready ? LWN_READER_STATE_READY : all_failed ? LWN_READER_STATE_FAILED
                                                         : LWN_READER_STATE_LOADING;
}

/* A screen reader hears the feed shown, as a combo box's value, and its
 * status, as the tooltip says it: "LWN.net (3). Updated 5 minutes ago". */
static void
describe_chooser (LwnHeadlinesWindow *self)
{
  const char *status = lwn_reader_get_status (self->reader);
  const char *shown = gtk_label_get_text (self->feed_label);
  g_autofree char *description = status != NULL && *status != '\0' ? g_strdup_printf ("%s. %s", shown, status) : g_strdup (shown);
  AtkObject *accessible = gtk_widget_get_accessible (self->feed_chooser);

  if (g_strcmp0 (atk_object_get_description (accessible), description) != 0)
    atk_object_set_description (accessible, description);
}

static void
show_state (LwnHeadlinesWindow *self)
{
  const char *error = NULL;
  gboolean refreshing = FALSE;
  LwnReaderState state = shown_state (self, &error, &refreshing);
  /* Translators: the headlines window's title when it shows every feed's headlines. */
  g_autofree char *name = self->all != NULL ? g_strdup (_ ("All feeds")) : lwn_reader_dup_name (self->reader);
  const char *page = state == LWN_READER_STATE_READY    ? (self->searching_in_vain ? "no-matches" : "headlines")
                     : state == LWN_READER_STATE_FAILED ? "error"
                                                        : "loading";
  g_autofree char *title = NULL;

  /* Set only when they change: each new text is laid out again, and a
   * window title is a round trip to the X server. */
  if (g_strcmp0 (gtk_header_bar_get_title (self->header_bar), name) != 0)
    gtk_header_bar_set_title (self->header_bar, name);
  /* Translators: the window's title, for window switchers and screen readers; %s is the feed's name. */
  title = g_strdup_printf (_ ("Headlines — %s"), name);
  if (g_strcmp0 (gtk_window_get_title (GTK_WINDOW (self)), title) != 0)
    gtk_window_set_title (GTK_WINDOW (self), title);
  if (g_strcmp0 (gtk_header_bar_get_subtitle (self->header_bar), lwn_reader_get_status (self->reader)) != 0)
    {
      gtk_header_bar_set_subtitle (self->header_bar, lwn_reader_get_status (self->reader));
      gtk_widget_set_tooltip_text (self->feed_chooser, lwn_reader_get_status (self->reader));
      describe_chooser (self);
    }

  if (state == LWN_READER_STATE_FAILED && error != NULL && g_strcmp0 (gtk_label_get_text (self->error_label), error) != 0)
    {
      gtk_label_set_text (self->error_label, error);
      atk_object_set_description (gtk_widget_get_accessible (self->error_page), error);
    }
  if (state == LWN_READER_STATE_LOADING)
    gtk_spinner_start (self->loading_spinner);
  else
    gtk_spinner_stop (self->loading_spinner);
  gtk_stack_set_visible_child_name (self->stack, page);

  gtk_stack_set_visible_child_name (self->refresh_stack, refreshing ? "busy" : "idle");
  if (refreshing)
    gtk_spinner_start (self->refresh_spinner);
  else
    gtk_spinner_stop (self->refresh_spinner);
  show_mark_all_read (self);
}

#define ALL_FEEDS_ID "all"

enum
{
  FEED_COLUMN_LABEL,
  FEED_COLUMN_ID,
  N_FEED_COLUMNS
};

/* The list of feeds shows the entries of @ids and @labels, in that order:
 * an entry whose label changed (an unread count) is set alone; any other
 * change fills the store again, detached from the view meanwhile. */
static void
update_feed_store (LwnHeadlinesWindow *self,
                   GPtrArray *ids,
                   GPtrArray *labels)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->feed_store);
  gboolean same = (guint) gtk_tree_model_iter_n_children (model, NULL) == ids->len;
  GtkTreeIter iter;

  for (gboolean valid = same && gtk_tree_model_get_iter_first (model, &iter); valid; valid = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *id = NULL;
      g_autofree char *label = NULL;
      g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);
      guint i = (guint) gtk_tree_path_get_indices (path)[0];

      gtk_tree_model_get (model, &iter, FEED_COLUMN_LABEL, &label, FEED_COLUMN_ID, &id, -1);
      if (g_strcmp0 (id, g_ptr_array_index (ids, i)) != 0)
        {
          same = FALSE;
          break;
        }
      if (g_strcmp0 (label, g_ptr_array_index (labels, i)) != 0)
        gtk_list_store_set (self->feed_store, &iter, FEED_COLUMN_LABEL, g_ptr_array_index (labels, i), -1);
    }
  if (same)
    return;

  /* A row the list was to scroll to may be another feed's now. */
  self->feed_list_scroll_row = -1;
  gtk_tree_view_set_model (self->feed_list, NULL);
  gtk_list_store_clear (self->feed_store);
  for (guint i = 0; i < ids->len; i++)
    gtk_list_store_insert_with_values (self->feed_store, NULL, -1, FEED_COLUMN_LABEL, g_ptr_array_index (labels, i),
                                       FEED_COLUMN_ID, g_ptr_array_index (ids, i), -1);
  gtk_tree_view_set_model (self->feed_list, model);
}

/* "All feeds" first, then one entry per feed, "LWN.net (3)" with unread
 * headlines; the button names the shown one. */
static void
show_feeds (LwnHeadlinesWindow *self)
{
  guint n = lwn_feed_set_get_n_feeds (self->feeds);
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  const char *active;

  if (n > 1)
    {
      guint n_unread = lwn_feed_set_get_n_unread (self->feeds);

      g_ptr_array_add (ids, g_strdup (ALL_FEEDS_ID));
      /* Translators: the first entry of the headlines window's list of feeds; %u is how many headlines are unread. */
      g_ptr_array_add (labels, n_unread > 0 ? g_strdup_printf (_ ("All feeds (%u)"), n_unread) : g_strdup (_ ("All feeds")));
    }
  for (guint i = 0; i < n; i++)
    {
      LwnReader *reader = lwn_feed_set_get_reader (self->feeds, i);
      g_autofree char *name = lwn_reader_dup_name (reader);
      guint n_unread = lwn_reader_get_n_unread (reader);

      g_ptr_array_add (ids, g_strdup (lwn_reader_get_feed_url (reader)));
      /* Translators: a feed in the headlines window's list of feeds: its name and how many headlines are unread. */
      g_ptr_array_add (labels, n_unread > 0 ? g_strdup_printf (_ ("%s (%u)"), name, n_unread) : g_steal_pointer (&name));
    }

  if (self->feed_store != NULL)
    update_feed_store (self, ids, labels);
  active = self->all != NULL ? ALL_FEEDS_ID : lwn_reader_get_feed_url (self->reader);
  for (guint i = 0; i < ids->len; i++)
    {
      if (g_strcmp0 (g_ptr_array_index (ids, i), active) == 0
          && g_strcmp0 (gtk_label_get_text (self->feed_label), g_ptr_array_index (labels, i)) != 0)
        gtk_label_set_text (self->feed_label, g_ptr_array_index (labels, i));
    }
  describe_chooser (self);

  /* One feed is named by the title; several by the chooser in its place,
   * which also says the shown feed's status. */
  if (n > 1 && gtk_header_bar_get_custom_title (self->header_bar) == NULL)
    gtk_header_bar_set_custom_title (self->header_bar, GTK_WIDGET (self->feed_chooser));
  else if (n <= 1 && gtk_header_bar_get_custom_title (self->header_bar) != NULL)
    gtk_header_bar_set_custom_title (self->header_bar, NULL);
  show_mark_all_read (self);
}

static void
reader_changed_cb (LwnReader *reader,
                   LwnHeadlinesWindow *self)
{
  show_state (self);
}

static void show_reader (LwnHeadlinesWindow *self,
                         LwnReader *reader);
static void show_all (LwnHeadlinesWindow *self);
static void leave_shown (LwnHeadlinesWindow *self);

/* A feed added, removed or renamed, or any feed's unread count. */
static void
feeds_changed_cb (LwnFeedSet *feeds,
                  LwnHeadlinesWindow *self)
{
  /* The feed shown was removed, or all are shown and one of them: the
   * first one takes its place. */
  if (lwn_feed_set_get_n_feeds (feeds) > 0
      && (lwn_feed_set_find_url (feeds, lwn_reader_get_feed_url (self->reader)) != self->reader
          || (self->all != NULL && lwn_feed_set_get_n_feeds (feeds) == 1)))
    show_reader (self, lwn_feed_set_get_reader (feeds, 0));
  show_feeds (self);
  /* Every feed's state makes the one shown with "All feeds", and its rows
   * name their feeds, which may have been renamed. */
  if (self->all != NULL)
    {
      show_state (self);
      lwn_headline_list_update_sources (self->list_box);
    }
}

/* Shows the feed of @id, or every feed for ALL_FEEDS_ID. */
static void
choose_feed (LwnHeadlinesWindow *self,
             const char *id)
{
  LwnReader *reader;

  if (g_strcmp0 (id, ALL_FEEDS_ID) == 0)
    {
      if (self->all == NULL)
        show_all (self);
    }
  else
    {
      reader = lwn_feed_set_find_url (self->feeds, id);
      if (reader != NULL && (reader != self->reader || self->all != NULL))
        show_reader (self, reader);
    }
  show_feeds (self);
}

static void
feed_list_row_activated_cb (GtkTreeView *tree_view,
                            GtkTreePath *path,
                            GtkTreeViewColumn *column,
                            LwnHeadlinesWindow *self)
{
  g_autofree char *id = NULL;
  GtkTreeIter iter;

  if (!gtk_tree_model_get_iter (GTK_TREE_MODEL (self->feed_store), &iter, path))
    return;
  gtk_tree_model_get (GTK_TREE_MODEL (self->feed_store), &iter, FEED_COLUMN_ID, &id, -1);
  gtk_popover_popdown (self->feed_popover);
  choose_feed (self, id);
}

static void
scroll_feed_list (LwnHeadlinesWindow *self)
{
  g_autoptr (GtkTreePath) path = NULL;

  /* The list may have been filled anew, shorter, since. */
  if (self->feed_list_scroll_row >= gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->feed_store), NULL))
    return;
  path = gtk_tree_path_new_from_indices (self->feed_list_scroll_row, -1);
  gtk_tree_view_scroll_to_cell (self->feed_list, path, NULL, self->feed_list_scroll_to_top, 0, 0);
}

/* A popover's list scrolls by the height it had when it last showed, or by
 * none at its first: it scrolls again once it has its size. */
static void
feed_list_size_allocate_cb (GtkWidget *widget,
                            GdkRectangle *allocation,
                            LwnHeadlinesWindow *self)
{
  if (self->feed_list_scroll_row < 0)
    return;
  scroll_feed_list (self);
  self->feed_list_scroll_row = -1;
}

/* The popover's list of every feed: a click or Return on one shows it;
 * typing finds one by name. */
static void
ensure_feed_list (LwnHeadlinesWindow *self)
{
  GtkWidget *scrolled;
  GtkCellRenderer *renderer;
  GtkTreeViewColumn *column;

  if (self->feed_list != NULL)
    return;

  scrolled = gtk_scrolled_window_new (NULL, NULL);
  renderer = gtk_cell_renderer_text_new ();
  self->feed_store = gtk_list_store_new (N_FEED_COLUMNS, G_TYPE_STRING, G_TYPE_STRING);
  self->feed_list = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->feed_store)));
  gtk_tree_view_set_headers_visible (self->feed_list, FALSE);
  gtk_tree_view_set_activate_on_single_click (self->feed_list, TRUE);
  gtk_tree_view_set_search_column (self->feed_list, FEED_COLUMN_LABEL);
  g_object_set (renderer, "ellipsize", PANGO_ELLIPSIZE_END, "xpad", 6, "ypad", 4, NULL);
  column = gtk_tree_view_column_new_with_attributes (NULL, renderer, "text", FEED_COLUMN_LABEL, NULL);
  /* Every row as high as the first: the view measures no other. A fixed
   * column is as wide as it is told, and the list as wide as its column:
   * the scrolled window's minimum counts only where it scrolls sideways. */
  gtk_tree_view_column_set_sizing (column, GTK_TREE_VIEW_COLUMN_FIXED);
  gtk_tree_view_column_set_fixed_width (column, FEED_LIST_WIDTH);
  gtk_tree_view_append_column (self->feed_list, column);
  gtk_tree_view_set_fixed_height_mode (self->feed_list, TRUE);
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self->feed_list)), _ ("Feeds"));
  g_signal_connect (self->feed_list, "row-activated", G_CALLBACK (feed_list_row_activated_cb), self);
  g_signal_connect_after (self->feed_list, "size-allocate", G_CALLBACK (feed_list_size_allocate_cb), self);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 480);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->feed_list));
  gtk_widget_show_all (scrolled);
  gtk_container_add (GTK_CONTAINER (self->feed_popover), scrolled);
}

/* The list opens at the feed shown, which has the cursor, or at the top at
 * the one it was asked to start at. */
static void
feed_popover_show_cb (GtkPopover *popover,
                      LwnHeadlinesWindow *self)
{
  g_autofree char *start = g_steal_pointer (&self->feed_list_start);
  const char *active = start != NULL ? start : self->all != NULL ? ALL_FEEDS_ID
                                                                 : lwn_reader_get_feed_url (self->reader);
  GtkTreeModel *model;
  GtkTreeIter iter;

  if (self->feed_list == NULL)
    {
      ensure_feed_list (self);
      show_feeds (self);
    }
  model = GTK_TREE_MODEL (self->feed_store);

  for (gboolean valid = gtk_tree_model_get_iter_first (model, &iter); valid; valid = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *id = NULL;

      gtk_tree_model_get (model, &iter, FEED_COLUMN_ID, &id, -1);
      if (g_strcmp0 (id, active) == 0)
        {
          g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);

          gtk_tree_view_set_cursor (self->feed_list, path, NULL, FALSE);
          self->feed_list_scroll_row = gtk_tree_path_get_indices (path)[0];
          self->feed_list_scroll_to_top = start != NULL;
          scroll_feed_list (self);
          break;
        }
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->feed_list));
}

/* What the list was asked to open at, or scroll to, is for that opening. */
static void
feed_popover_closed_cb (GtkPopover *popover,
                        LwnHeadlinesWindow *self)
{
  self->feed_list_scroll_row = -1;
  g_clear_pointer (&self->feed_list_start, g_free);
}

/* The window's size ------------------------------------------------------- */

static gboolean
has_key (GSettings *settings,
         const char *key)
{
  g_autoptr (GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return g_settings_schema_has_key (schema, key);
}

static void
restore_size (LwnHeadlinesWindow *self)
{
  gtk_window_get_default_size (GTK_WINDOW (self), &self->width, &self->height);
  if (has_key (self->settings, "headlines-window-width"))
    {
      int width = g_settings_get_int (self->settings, "headlines-window-width");
      int height = g_settings_get_int (self->settings, "headlines-window-height");

      /* -1, never saved, keeps the template's size: the natural size of a
       * scrolled list is a few lines high. */
      if (width > 0 && height > 0)
        {
          self->width = width;
          self->height = height;
          gtk_window_set_default_size (GTK_WINDOW (self), width, height);
        }
      self->maximized = g_settings_get_boolean (self->settings, "headlines-window-maximized");
      if (self->maximized)
        gtk_window_maximize (GTK_WINDOW (self));
    }
  self->saved_width = self->width;
  self->saved_height = self->height;
  self->saved_maximized = self->maximized;
}

static void
save_size (LwnHeadlinesWindow *self)
{
  g_clear_handle_id (&self->save_id, g_source_remove);
  if (!has_key (self->settings, "headlines-window-width") || self->width <= 0 || self->height <= 0)
    return;

  g_settings_set_int (self->settings, "headlines-window-width", self->width);
  g_settings_set_int (self->settings, "headlines-window-height", self->height);
  g_settings_set_boolean (self->settings, "headlines-window-maximized", self->maximized);
  self->saved_width = self->width;
  self->saved_height = self->height;
  self->saved_maximized = self->maximized;
}

static gboolean
save_size_cb (gpointer user_data)
{
  LwnHeadlinesWindow *self = user_data;

  self->save_id = 0;
  save_size (self);
  return G_SOURCE_REMOVE;
}

/* Saved when it has rested a moment, not when the window goes: the
 * application may quit with the window open. */
static void
schedule_save_size (LwnHeadlinesWindow *self)
{
  g_clear_handle_id (&self->save_id, g_source_remove);
  if (self->width != self->saved_width || self->height != self->saved_height
      || self->maximized != self->saved_maximized)
    self->save_id = g_timeout_add (SAVE_DELAY_MS, save_size_cb, self);
}

static void
lwn_headlines_window_size_allocate (GtkWidget *widget,
                                    GtkAllocation *allocation)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);
  int width;
  int height;

  GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->size_allocate (widget, allocation);
  if (self->maximized)
    return;
  gtk_window_get_size (GTK_WINDOW (self), &width, &height);
  if (width != self->width || height != self->height)
    {
      self->width = width;
      self->height = height;
      schedule_save_size (self);
    }
}

static gboolean
lwn_headlines_window_window_state_event (GtkWidget *widget,
                                         GdkEventWindowState *event)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);
  gboolean maximized = (event->new_window_state & GDK_WINDOW_STATE_MAXIMIZED) != 0;

  if (maximized != self->maximized)
    {
      self->maximized = maximized;
      schedule_save_size (self);
    }
  return GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->window_state_event (widget, event);
}

/* Closing --------------------------------------------------------------------- */

/* A key binding, not an application accelerator: those run before the
 * focused widget, so Escape would close the window under an open menu. */
static void
lwn_headlines_window_close (LwnHeadlinesWindow *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

/* Escape closes the search first, then the window. */
static void
lwn_headlines_window_escape (LwnHeadlinesWindow *self)
{
  if (gtk_search_bar_get_search_mode (self->search_bar))
    gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  else
    gtk_window_close (GTK_WINDOW (self));
}

/* Without a schema there is nowhere to remember it across runs: once per
 * run, then. */
static gboolean background_notice_shown_this_run;

static gboolean
background_notice_shown (LwnHeadlinesWindow *self)
{
  if (has_key (self->settings, BACKGROUND_NOTICE_KEY))
    return g_settings_get_boolean (self->settings, BACKGROUND_NOTICE_KEY);
  return background_notice_shown_this_run;
}

static void
set_background_notice_shown (LwnHeadlinesWindow *self)
{
  background_notice_shown_this_run = TRUE;
  if (has_key (self->settings, BACKGROUND_NOTICE_KEY))
    g_settings_set_boolean (self->settings, BACKGROUND_NOTICE_KEY, TRUE);
}

/* With no tray icon, a closed window leaves nothing on screen of an applet
 * that still runs: the first time, the window says so, and how to quit,
 * before it goes. */
static gboolean
lwn_headlines_window_delete_event (GtkWidget *widget,
                                   GdkEventAny *event)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);
  GtkWidgetClass *parent_class = GTK_WIDGET_CLASS (lwn_headlines_window_parent_class);

  if (!self->in_tray && !gtk_widget_get_visible (GTK_WIDGET (self->background_bar)) && !background_notice_shown (self))
    {
      set_background_notice_shown (self);
      gtk_widget_show (GTK_WIDGET (self->background_bar));
      gtk_widget_grab_focus (self->background_keep_button);
      return GDK_EVENT_STOP;
    }
  return parent_class->delete_event != NULL ? parent_class->delete_event (widget, event) : GDK_EVENT_PROPAGATE;
}

static void
background_bar_response_cb (GtkInfoBar *bar,
                            int response,
                            LwnHeadlinesWindow *self)
{
  GApplication *application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (response == BACKGROUND_RESPONSE_QUIT && application != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (application), "quit", NULL);
  else if (response == BACKGROUND_RESPONSE_KEEP_RUNNING)
    gtk_window_close (GTK_WINDOW (self));
}

/* The window itself --------------------------------------------------------- */

static void
lwn_headlines_window_dispose (GObject *object)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (object);

  /* GtkWidget's dispose emits ::destroy and takes the children down after
   * this: nothing of theirs may call back into a half-gone window. */
  if (self->save_id != 0)
    save_size (self);
  leave_shown (self);
  if (self->feeds != NULL)
    g_signal_handlers_disconnect_by_data (self->feeds, self);
  /* Dispose may run twice: the second time, these went with the chooser. */
  if (self->feed_list != NULL)
    g_signal_handlers_disconnect_by_data (self->feed_list, self);
  if (self->feed_popover != NULL)
    g_signal_handlers_disconnect_by_data (self->feed_popover, self);
  self->feed_list = NULL;
  self->feed_popover = NULL;
  self->feed_label = NULL;
  if (self->search_bar != NULL)
    g_signal_handlers_disconnect_by_data (self->search_bar, self);
  if (self->search_entry != NULL)
    g_signal_handlers_disconnect_by_data (self->search_entry, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  if (self->list_box != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->list_box, self);
      lwn_headline_list_set_model (self->list_box, NULL);
    }
  g_clear_object (&self->reader);
  g_clear_object (&self->feeds);
  g_clear_object (&self->settings);
  g_clear_object (&self->feed_chooser);
  g_clear_pointer (&self->feed_list_start, g_free);
  g_clear_object (&self->feed_store);

  G_OBJECT_CLASS (lwn_headlines_window_parent_class)->dispose (object);
}

static void
lwn_headlines_window_class_init (LwnHeadlinesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkBindingSet *binding_set;

  object_class->dispose = lwn_headlines_window_dispose;
  widget_class->size_allocate = lwn_headlines_window_size_allocate;
  widget_class->window_state_event = lwn_headlines_window_window_state_event;
  widget_class->delete_event = lwn_headlines_window_delete_event;
  widget_class->key_press_event = lwn_headlines_window_key_press_event;
  gtk_widget_class_set_accessible_type (widget_class, LWN_TYPE_WINDOW_ACCESSIBLE);

  /**
   * LwnHeadlinesWindow::close:
   *
   * A keybinding signal (Escape, Ctrl+W) that closes the window.
   */
  g_signal_new_class_handler ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                              G_CALLBACK (lwn_headlines_window_close), NULL, NULL, NULL, G_TYPE_NONE, 0);
  binding_set = gtk_binding_set_by_class (klass);
  /**
   * LwnHeadlinesWindow::escape:
   *
   * A keybinding signal (Escape) that closes the search, or else the window.
   */
  g_signal_new_class_handler ("escape", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                              G_CALLBACK (lwn_headlines_window_escape), NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * LwnHeadlinesWindow::search:
   *
   * A keybinding signal (Ctrl+F) that opens the search.
   */
  g_signal_new_class_handler ("search", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                              G_CALLBACK (lwn_headlines_window_search), NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_Escape, 0, "escape", 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_f, GDK_CONTROL_MASK, "search", 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_w, GDK_CONTROL_MASK, "close", 0);

  g_type_ensure (LWN_TYPE_HEADLINE_LIST);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-headlines-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, background_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, search_count);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, no_matches_label);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, background_keep_button);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, refresh_stack);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, refresh_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, list_box);
  gtk_widget_class_bind_template_callback (widget_class, background_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
}

/* For the whole screen, once: the rules name only this window's own style
 * classes, and a provider on a widget would not reach its rows. */
static void
add_window_css (GtkWidget *widget)
{
  GdkScreen *screen = gtk_widget_get_screen (widget);
  g_autoptr (GtkCssProvider) provider = NULL;

  if (g_object_get_data (G_OBJECT (screen), "lwn-headlines-css") != NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (provider, window_css, -1, NULL);
  gtk_style_context_add_provider_for_screen (screen, GTK_STYLE_PROVIDER (provider),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data (G_OBJECT (screen), "lwn-headlines-css", GINT_TO_POINTER (TRUE));
}

/* The button that names the feed shown, and its popover, empty until it
 * first opens. */
static void
init_feed_chooser (LwnHeadlinesWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->feed_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->feed_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (self->feed_label, 32);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->feed_label));
  gtk_container_add (GTK_CONTAINER (box), gtk_image_new_from_icon_name ("pan-down-symbolic", GTK_ICON_SIZE_BUTTON));

  self->feed_chooser = g_object_ref_sink (gtk_menu_button_new ());
  gtk_widget_set_valign (self->feed_chooser, GTK_ALIGN_CENTER);
  gtk_button_set_relief (GTK_BUTTON (self->feed_chooser), GTK_RELIEF_NONE);
  gtk_container_add (GTK_CONTAINER (self->feed_chooser), box);
  gtk_widget_show_all (self->feed_chooser);
  atk_object_set_name (gtk_widget_get_accessible (self->feed_chooser), _ ("Feed"));

  self->feed_popover = GTK_POPOVER (gtk_popover_new (self->feed_chooser));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->feed_chooser), GTK_WIDGET (self->feed_popover));
  g_signal_connect (self->feed_popover, "show", G_CALLBACK (feed_popover_show_cb), self);
  g_signal_connect (self->feed_popover, "closed", G_CALLBACK (feed_popover_closed_cb), self);
}

static void
lwn_headlines_window_init (LwnHeadlinesWindow *self)
{
  const GActionEntry entries[] = {
    { .name = "set-reminder", .activate = set_reminder_activated, .parameter_type = "(ssb)" },
    { .name = "mark-all-read", .activate = mark_all_read_activated },
  };
  GtkWidget *placeholder;

  self->feed_list_scroll_row = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  add_window_css (GTK_WIDGET (self));

  /* Screen readers announce these when they appear. */
  atk_object_set_role (gtk_widget_get_accessible (self->error_page), ATK_ROLE_ALERT);
  atk_object_set_name (gtk_widget_get_accessible (self->error_page), _ ("Could not load headlines"));
  atk_object_set_role (gtk_widget_get_accessible (self->loading_page), ATK_ROLE_NOTIFICATION);
  atk_object_set_name (gtk_widget_get_accessible (self->loading_page), _ ("Loading headlines…"));
  atk_object_set_role (gtk_widget_get_accessible (GTK_WIDGET (self->background_bar)), ATK_ROLE_ALERT);
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self->background_bar)),
                       _ ("LWN.net Headlines keeps running"));

  placeholder = gtk_label_new (_ ("No headlines"));
  gtk_style_context_add_class (gtk_widget_get_style_context (placeholder), "dim-label");
  gtk_widget_show (placeholder);
  gtk_list_box_set_placeholder (GTK_LIST_BOX (self->list_box), placeholder);

  g_object_bind_property (self->search_button, "active", self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_ENTRY (self->search_entry));
  g_signal_connect (self->search_bar, "notify::search-mode-enabled", G_CALLBACK (search_mode_changed_cb), self);
  g_signal_connect (self->list_box, "row-activated", G_CALLBACK (row_activated_cb), self);
  g_signal_connect_swapped (self->list_box, "matches-changed", G_CALLBACK (show_search_result), self);
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);

  init_feed_chooser (self);
}

/* Stops following what is shown now. */
static void
leave_shown (LwnHeadlinesWindow *self)
{
  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_signal_handlers_disconnect_by_data (lwn_reader_get_headlines (self->reader), self);
    }
  if (self->all != NULL)
    g_signal_handlers_disconnect_by_data (self->all, self);
  g_clear_object (&self->all);
}

static void
show_model (LwnHeadlinesWindow *self,
            GListModel *model)
{
  lwn_headline_list_set_model (self->list_box, model);
  /* After the list's own handler: a new feed may match the search otherwise. */
  g_signal_connect_object (model, "items-changed", G_CALLBACK (headlines_changed_cb), self,
                           G_CONNECT_AFTER | G_CONNECT_SWAPPED);
  show_search_result (self);
  show_state (self);
}

/* Shows @reader's headlines and state from now on. */
static void
show_reader (LwnHeadlinesWindow *self,
             LwnReader *reader)
{
  leave_shown (self);
  g_set_object (&self->reader, reader);
  g_signal_connect_object (reader, "changed", G_CALLBACK (reader_changed_cb), self, 0);
  lwn_headline_list_set_source_func (self->list_box, NULL, NULL, NULL);
  show_model (self, lwn_reader_get_headlines (reader));
}

static char *
dup_feed_name (guint position,
               gpointer user_data)
{
  return lwn_all_headlines_dup_feed_name (user_data, position);
}

/* Shows every feed's headlines, feed after feed, and their state together;
 * a search looks through all of them. */
static void
show_all (LwnHeadlinesWindow *self)
{
  LwnReader *first = lwn_feed_set_get_reader (self->feeds, 0);

  leave_shown (self);
  g_set_object (&self->reader, first);
  self->all = lwn_all_headlines_new (self->feeds);
  /* Feed after feed, each headline says which. */
  lwn_headline_list_set_source_func (self->list_box, dup_feed_name, g_object_ref (self->all), g_object_unref);
  show_model (self, G_LIST_MODEL (self->all));
}

/**
 * lwn_headlines_window_new:
 * @application: the application, whose actions the window's commands are
 * @feeds: the feeds to show, one at a time, the first one first
 * @settings: (nullable): where the window's size is kept, and whether the
 *   person subscribes to LWN
 *
 * Returns: (transfer full): a new window, not shown yet
 */
LwnHeadlinesWindow *
lwn_headlines_window_new (GtkApplication *application,
                          LwnFeedSet *feeds,
                          GSettings *settings)
{
  LwnHeadlinesWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (LWN_IS_FEED_SET (feeds), NULL);
  g_return_val_if_fail (lwn_feed_set_get_n_feeds (feeds) > 0, NULL);

  self = g_object_new (LWN_TYPE_HEADLINES_WINDOW, "application", application, NULL);
  self->feeds = g_object_ref (feeds);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  restore_size (self);

  if (has_key (settings, "lwn-subscriber"))
    g_signal_connect_object (settings, "changed::lwn-subscriber", G_CALLBACK (settings_subscriber_changed_cb), self, 0);
  show_subscriber (self);
  show_reader (self, lwn_feed_set_get_reader (feeds, 0));
  g_signal_connect_object (feeds, "changed", G_CALLBACK (feeds_changed_cb), self, 0);
  show_feeds (self);
  return self;
}

/**
 * lwn_headlines_window_prepare:
 * @feeds: the feeds the window will show
 *
 * Makes ready beforehand, without a window, what the first frame of the
 * process's first headlines window would otherwise wait for: the summaries
 * of the first feed's first rows, made in a worker (see
 * lwn_headline_list_prepare_async()). Call it once the
 * first feed has its headlines, when nothing else is happening; it leaves
 * nothing to run later but the worker's answer.
 */
void
lwn_headlines_window_prepare (LwnFeedSet *feeds)
{
  g_return_if_fail (LWN_IS_FEED_SET (feeds));

  if (lwn_feed_set_get_n_feeds (feeds) == 0)
    return;
  /* The window opens on the first feed. */
  lwn_headline_list_prepare_async (lwn_reader_get_headlines (lwn_feed_set_get_reader (feeds, 0)), NULL, NULL, NULL);
}

/**
 * lwn_headlines_window_set_in_tray:
 * @in_tray: whether the applet's icon is in a tray, where it can be found
 *   again once the window closes
 */
void
lwn_headlines_window_set_in_tray (LwnHeadlinesWindow *self,
                                  gboolean in_tray)
{
  g_return_if_fail (LWN_IS_HEADLINES_WINDOW (self));

  self->in_tray = in_tray;
  if (in_tray)
    gtk_widget_hide (GTK_WIDGET (self->background_bar));
}

/**
 * lwn_headlines_window_show_feed:
 * @feed_url: the address of one of the feeds followed
 *
 * Shows that feed's headlines, as choosing it in the window does; an address
 * no longer followed changes nothing.
 */
void
lwn_headlines_window_show_feed (LwnHeadlinesWindow *self,
                                const char *feed_url)
{
  LwnReader *reader;

  g_return_if_fail (LWN_IS_HEADLINES_WINDOW (self));
  g_return_if_fail (feed_url != NULL);

  reader = lwn_feed_set_find_url (self->feeds, feed_url);
  if (reader == NULL || (reader == self->reader && self->all == NULL))
    return;
  show_reader (self, reader);
  show_feeds (self);
}

/**
 * lwn_headlines_window_choose_feed:
 * @start_url: (nullable): the address of the feed the list opens at, at its
 *   top, with the cursor; %NULL (or one not followed) for the feed shown
 *
 * Opens the list of feeds, for a person to pick one, as the button that
 * names the feed shown does. One feed has no list, and nothing opens.
 */
void
lwn_headlines_window_choose_feed (LwnHeadlinesWindow *self,
                                  const char *start_url)
{
  g_return_if_fail (LWN_IS_HEADLINES_WINDOW (self));

  if (lwn_feed_set_get_n_feeds (self->feeds) <= 1)
    return;
  g_free (self->feed_list_start);
  self->feed_list_start = start_url != NULL && lwn_feed_set_find_url (self->feeds, start_url) != NULL ? g_strdup (start_url) : NULL;
  /* An open list, or one still fading out with its button already up, gets
   * no "show": it is moved to the feed here. */
  if (gtk_widget_get_visible (GTK_WIDGET (self->feed_popover)))
    feed_popover_show_cb (self->feed_popover, self);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->feed_chooser), TRUE);
}

/**
 * lwn_headlines_window_start_search:
 * @text: the words to look for
 *
 * Opens the search with @text in it, across every feed, as the desktop's
 * search asks when a person wants more than its few results.
 */
void
lwn_headlines_window_start_search (LwnHeadlinesWindow *self,
                                   const char *text)
{
  g_return_if_fail (LWN_IS_HEADLINES_WINDOW (self));
  g_return_if_fail (text != NULL);

  if (self->all == NULL && lwn_feed_set_get_n_feeds (self->feeds) > 1)
    {
      show_all (self);
      show_feeds (self);
    }
  lwn_headlines_window_search (self);
  gtk_entry_set_text (GTK_ENTRY (self->search_entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
}
