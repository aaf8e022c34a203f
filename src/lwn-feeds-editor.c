/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feeds part of the preferences: the feeds followed, searched, added by address, moved, removed one or
 * many at a time with undo, and OPML in and out. Every change is written to the settings at once, in one
 * write; the rows show what the settings hold. A row is made once for each address (lwn-feed-row.c) and
 * updated in place when the settings change, so that a list of two hundred feeds opens at once and keeps its
 * focus, selection and scroll position while one feed changes. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-feed-find.h"
#include "lwn-feed-row.h"
#include "lwn-feeds-editor.h"
#include "lwn-settings-row.h"
#include "lwn-opml.h"
#include "lwn-reader-settings.h"
#include "lwn-search.h"
#include "lwn-str-hash.h"
#include "lwn-url.h"

#define FEEDS_KEY "feeds"
/* A shorter list fits in a glance; Ctrl+F shows the search for it too. */
#define SEARCH_FROM_FEEDS 10

/* A feed taken out of the list, and where it was, for Undo. */
typedef struct
{
  guint position;
  GVariant *entry; /* (ssb) */
} Removed;

struct _LwnFeedsEditor
{
  GtkBox parent_instance;

  GSettings *settings;
  gboolean locked;
  guint sync_id;
  /* feed URL → its LwnFeedRow (unowned: the list owns its rows); the key
   * is the row's own copy of the URL */
  GHashTable *rows;
  guint n_rows;
  char *focus_url; /* after the next sync, the row whose control takes the focus */
  LwnFeedRowControl focus_control;

  LwnSearchQuery *query;
  gboolean search_wanted; /* Ctrl+F asked for the search of a short list */

  gboolean selecting;
  gboolean ticking_range; /* rows are being ticked for a Shift+click */
  char *anchor_url;       /* the row last ticked by hand, where a Shift+click range starts */

  GCancellable *finding; /* the address being looked at, while it is */
  GCancellable *files;   /* OPML being read, parsed or written; cancelled in dispose */
  GtkFileChooserNative *chooser;
  char *import_name; /* the name of the list being imported, while it is */
  /* The feeds the last import added, while they can be removed together:
   * URL → NULL, with the URLs' own copies as keys. */
  GHashTable *imported;
  gboolean imported_into_default; /* the list was empty (LWN's feed alone) before that import */

  GArray *removed; /* of Removed, by position: the feeds last removed, while they can be put back */
  guint undo_id;

  GSimpleActionGroup *actions;

  GtkWidget *select_button;
  GtkLabel *locked_label;
  GtkRevealer *undo_revealer;
  GtkInfoBar *undo_bar;
  GtkLabel *undo_label;
  GtkWidget *search_box;
  GtkSearchEntry *search_entry;
  GtkLabel *search_count;
  GtkScrolledWindow *feed_scroller;
  GtkListBox *feed_list;
  GtkWidget *no_match_list;
  GtkLabel *no_match_label;
  GtkWidget *add_row;
  GtkLabel *add_title;
  GtkEntry *add_entry;
  GtkStack *add_stack;
  GtkWidget *add_button;
  GtkSpinner *add_spinner;
  GtkLabel *add_status;
  GtkRevealer *selection_revealer;
  GtkLabel *selection_label;
  GtkWidget *select_all_button;
  GtkWidget *remove_selected_button;
  GtkLabel *opml_status;
  GtkWidget *remove_imported_button;
  GtkWidget *import_button;
  GtkWidget *export_button;
};

G_DEFINE_FINAL_TYPE (LwnFeedsEditor, lwn_feeds_editor, GTK_TYPE_BOX)

/* The list, as settings values ------------------------------------------------ */

static GVariant *
dup_feeds (LwnFeedsEditor *self)
{
  return g_settings_get_value (self->settings, FEEDS_KEY);
}

static gboolean
is_followed (LwnFeedsEditor *self,
             const char *url)
{
  g_autoptr (GVariant) feeds = dup_feeds (self);

  for (gsize i = 0; i < g_variant_n_children (feeds); i++)
    {
      const char *followed;

      g_variant_get_child (feeds, i, "(&s&sb)", &followed, NULL, NULL);
      if (g_strcmp0 (followed, url) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Writes the list with @children in place of the present one's. Every
 * change the editor makes is one write, however many feeds it touches: the
 * applet follows each write at once. */
static void
write_feeds (LwnFeedsEditor *self,
             GPtrArray *children)
{
  GVariant *value = g_variant_new_array (G_VARIANT_TYPE ("(ssb)"), (GVariant **) children->pdata, children->len);

  g_debug ("Writing a list of %u feeds", children->len);
  g_settings_set_value (self->settings, FEEDS_KEY, value);
}

/* The present list's entries, each a reference. */
static GPtrArray *
list_children (LwnFeedsEditor *self)
{
  g_autoptr (GVariant) feeds = dup_feeds (self);
  GPtrArray *children = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  for (gsize i = 0; i < g_variant_n_children (feeds); i++)
    g_ptr_array_add (children, g_variant_get_child_value (feeds, i));
  return children;
}

/* The place of the feed at @url in @children, or G_MAXUINT. */
static guint
find_child (GPtrArray *children,
            const char *url)
{
  for (guint i = 0; i < children->len; i++)
    {
      const char *followed;

      g_variant_get (g_ptr_array_index (children, i), "(&s&sb)", &followed, NULL, NULL);
      if (g_str_equal (followed, url))
        return i;
    }
  return G_MAXUINT;
}

static const char *
child_url (GVariant *child)
{
  const char *url;

  g_variant_get (child, "(&s&sb)", &url, NULL, NULL);
  return url;
}

static void
show_status (GtkLabel *label,
             const char *text,
             gboolean is_error)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (label));

  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
  if (is_error)
    {
      gtk_style_context_add_class (context, GTK_STYLE_CLASS_ERROR);
      gtk_style_context_remove_class (context, GTK_STYLE_CLASS_DIM_LABEL);
    }
  else
    {
      gtk_style_context_remove_class (context, GTK_STYLE_CLASS_ERROR);
      gtk_style_context_add_class (context, GTK_STYLE_CLASS_DIM_LABEL);
    }
}

/* The rows --------------------------------------------------------------------- */

static void update_search (LwnFeedsEditor *self);
static void update_selection (LwnFeedsEditor *self);
static void update_imported (LwnFeedsEditor *self);

static void
request_focus (LwnFeedsEditor *self,
               const char *url,
               LwnFeedRowControl control)
{
  g_free (self->focus_url);
  self->focus_url = g_strdup (url);
  self->focus_control = control;
}

/* Gives the focus asked for by the last change to the control of that
 * feed's row, or to the next one that can take it: at an end of the list,
 * the button that moves the feed back. */
static void
restore_focus (LwnFeedsEditor *self)
{
  g_autofree char *url = g_steal_pointer (&self->focus_url);
  LwnFeedRow *row = url != NULL ? g_hash_table_lookup (self->rows, url) : NULL;
  LwnFeedRowControl wanted = self->focus_control;
  const LwnFeedRowControl order[] = { wanted, wanted == LWN_FEED_ROW_UP ? LWN_FEED_ROW_DOWN : LWN_FEED_ROW_UP,
                                      LWN_FEED_ROW_REMOVE, LWN_FEED_ROW_SWITCH };

  if (row == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      GtkWidget *target = lwn_feed_row_get_control (row, order[i]);

      if (gtk_widget_is_visible (target) && gtk_widget_is_sensitive (target))
        {
          gtk_widget_grab_focus (target);
          return;
        }
    }
}

static void
row_selected_cb (LwnFeedRow *row,
                 GParamSpec *pspec,
                 LwnFeedsEditor *self);

static LwnFeedRow *
make_row (LwnFeedsEditor *self,
          const char *url)
{
  LwnFeedRow *row = lwn_feed_row_new (url);

  lwn_feed_row_set_editable (row, !self->locked);
  lwn_feed_row_set_selecting (row, self->selecting);
  g_signal_connect_object (row, "notify::selected", G_CALLBACK (row_selected_cb), self, 0);
  return row;
}

/* Brings the rows in line with the settings: a row goes only with its feed,
 * a new feed gets a new row, and the others are updated in place and keep
 * their widgets. The list is sorted again only when kept feeds changed
 * places among themselves. */
static void
sync_rows (LwnFeedsEditor *self)
{
  g_autoptr (GVariant) feeds = dup_feeds (self);
  gsize n_children = g_variant_n_children (feeds);
  g_autoptr (GHashTable) listed = lwn_str_hash_table_new (NULL, NULL);
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (gsize), n_children);
  g_autoptr (GPtrArray) made = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  gboolean resort = FALSE;
  gint64 last_kept = -1;

  /* An address listed twice shows once; an empty one follows nothing. */
  for (gsize i = 0; i < n_children; i++)
    {
      const char *url;

      g_variant_get_child (feeds, i, "(&s&sb)", &url, NULL, NULL);
      if (*url != '\0' && g_hash_table_add (listed, (gpointer) url))
        g_array_append_val (order, i);
    }

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (listed, key))
      {
        g_hash_table_iter_remove (&iter);
        gtk_widget_destroy (value);
      }

  for (guint position = 0; position < order->len; position++)
    {
      const char *url;
      const char *name;
      gboolean notify;
      LwnFeedRow *row;

      g_variant_get_child (feeds, g_array_index (order, gsize, position), "(&s&sb)", &url, &name, &notify);
      row = g_hash_table_lookup (self->rows, url);
      if (row == NULL)
        {
          row = make_row (self, url);
          g_hash_table_insert (self->rows, (gpointer) lwn_feed_row_get_url (row), row);
          g_ptr_array_add (made, row);
        }
      else
        {
          gint64 was = lwn_feed_row_get_position (row);

          resort |= was < last_kept;
          last_kept = was;
        }
      lwn_feed_row_set_name (row, name);
      lwn_feed_row_set_notify (row, notify);
      lwn_feed_row_set_position (row, position, order->len);
    }
  self->n_rows = order->len;

  /* The new rows go in sorted, which needs the kept ones in order first. */
  if (resort)
    gtk_list_box_invalidate_sort (self->feed_list);
  for (guint i = 0; i < made->len; i++)
    gtk_list_box_insert (self->feed_list, g_ptr_array_index (made, i), -1);
  if (made->len > 0)
    g_debug ("Made %u rows for the feeds list", made->len);
  /* A renamed feed may match the search, or no longer. */
  if (self->query != NULL && !lwn_search_query_is_empty (self->query))
    gtk_list_box_invalidate_filter (self->feed_list);

  update_search (self);
  update_selection (self);
  update_imported (self);
  restore_focus (self);
}

static gboolean
sync_cb (gpointer user_data)
{
  LwnFeedsEditor *self = user_data;

  self->sync_id = 0;
  sync_rows (self);
  return G_SOURCE_REMOVE;
}

/* Never at once: the change may come from a row's own switch or button,
 * and the row may go with it. */
static void
schedule_sync (LwnFeedsEditor *self)
{
  if (self->sync_id == 0)
    self->sync_id = g_idle_add (sync_cb, self);
}

static void
feeds_changed_cb (GSettings *settings,
                  const char *key,
                  LwnFeedsEditor *self)
{
  schedule_sync (self);
}

static int
sort_rows (GtkListBoxRow *a,
           GtkListBoxRow *b,
           gpointer user_data)
{
  guint position_a = lwn_feed_row_get_position (LWN_FEED_ROW (a));
  guint position_b = lwn_feed_row_get_position (LWN_FEED_ROW (b));

  return position_a < position_b ? -1 : position_a > position_b;
}

static gboolean
filter_row (GtkListBoxRow *row,
            gpointer user_data)
{
  LwnFeedsEditor *self = user_data;

  return self->query == NULL || lwn_feed_row_matches (LWN_FEED_ROW (row), self->query);
}

/* The rows' actions -------------------------------------------------------------- */

static void
move_activated (GSimpleAction *action,
                GVariant *parameter,
                gpointer user_data)
{
  LwnFeedsEditor *self = user_data;
  gboolean up = g_str_equal (g_action_get_name (G_ACTION (action)), "move-up");
  const char *url = g_variant_get_string (parameter, NULL);
  g_autoptr (GPtrArray) children = list_children (self);
  guint index = find_child (children, url);
  guint other = up ? index - 1 : index + 1;
  gpointer moved;

  if (index >= children->len || other >= children->len)
    return;
  moved = children->pdata[index];
  children->pdata[index] = children->pdata[other];
  children->pdata[other] = moved;
  /* The focus stays on the button while the feed can move on. */
  request_focus (self, url, up ? LWN_FEED_ROW_UP : LWN_FEED_ROW_DOWN);
  write_feeds (self, children);
}

static void
set_notify_activated (GSimpleAction *action,
                      GVariant *parameter,
                      gpointer user_data)
{
  LwnFeedsEditor *self = user_data;
  g_autoptr (GPtrArray) children = list_children (self);
  GVariant *replaced;
  const char *url;
  const char *name;
  gboolean notify;
  gboolean was;
  guint index;

  g_variant_get (parameter, "(&sb)", &url, &notify);
  index = find_child (children, url);
  if (index >= children->len)
    return;
  replaced = g_ptr_array_index (children, index);
  g_variant_get (replaced, "(&s&sb)", NULL, &name, &was);
  if (was == notify)
    return;
  g_ptr_array_index (children, index) = g_variant_ref_sink (g_variant_new ("(ssb)", url, name, notify));
  g_variant_unref (replaced);
  write_feeds (self, children);
}

/* Removing and undoing ------------------------------------------------------------- */

static void
removed_clear (Removed *removed)
{
  g_clear_pointer (&removed->entry, g_variant_unref);
}

static void
hide_undo (LwnFeedsEditor *self)
{
  g_clear_handle_id (&self->undo_id, g_source_remove);
  g_clear_pointer (&self->removed, g_array_unref);
  gtk_revealer_set_reveal_child (self->undo_revealer, FALSE);
}

static gboolean
undo_expired_cb (gpointer user_data)
{
  LwnFeedsEditor *self = user_data;

  self->undo_id = 0;
  hide_undo (self);
  return G_SOURCE_REMOVE;
}

/* Takes the feeds at @urls out of the list in one write, and offers to put
 * them back as long as the applet keeps what was read of them
 * (LWN_FEEDS_EDITOR_UNDO_SECONDS). The last feed stays: an applet that
 * follows nothing would be an icon that never changes. With
 * @back_to_default, a list left with LWN's feed alone becomes the empty list
 * again. Returns how many were removed. */
static guint
remove_feeds (LwnFeedsEditor *self,
              GHashTable *urls,
              gboolean back_to_default)
{
  g_autoptr (GPtrArray) children = list_children (self);
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_autoptr (GArray) removed = g_array_new (FALSE, FALSE, sizeof (Removed));
  g_autofree char *text = NULL;
  const char *url;
  const char *name;
  guint n;

  g_array_set_clear_func (removed, (GDestroyNotify) removed_clear);
  for (guint i = 0; i < children->len; i++)
    {
      GVariant *child = g_ptr_array_index (children, i);

      if (g_hash_table_contains (urls, child_url (child)))
        {
          Removed entry = { .position = i, .entry = g_variant_ref (child) };

          g_array_append_val (removed, entry);
        }
      else
        g_ptr_array_add (kept, g_variant_ref (child));
    }
  n = removed->len;
  if (n == 0 || kept->len == 0)
    return 0;

  hide_undo (self);
  g_variant_get (g_array_index (removed, Removed, 0).entry, "(&s&sb)", &url, &name, NULL);
  if (n == 1)
    /* Translators: shown with an Undo button once a feed is removed; %s is its name or address. */
    text = g_strdup_printf (_ ("“%s” removed"), *name != '\0' ? name : url);
  else
    /* Translators: shown with an Undo button once several feeds are removed at once. */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u feed removed", "%u feeds removed", n), n);
  gtk_label_set_text (self->undo_label, text);
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self->undo_bar)),
                       g_dngettext (GETTEXT_PACKAGE, "Feed removed", "Feeds removed", n));
  gtk_revealer_set_reveal_child (self->undo_revealer, TRUE);
  self->undo_id = g_timeout_add_seconds (LWN_FEEDS_EDITOR_UNDO_SECONDS, undo_expired_cb, self);

  /* The focus goes to the feed that took the first one's place. */
  request_focus (self, child_url (g_ptr_array_index (kept, MIN (g_array_index (removed, Removed, 0).position, kept->len - 1))),
                 LWN_FEED_ROW_REMOVE);
  self->removed = g_steal_pointer (&removed);

  if (back_to_default && kept->len == 1 && g_str_equal (child_url (g_ptr_array_index (kept, 0)), DEFAULT_FEED_URL))
    {
      g_debug ("Writing the empty list of feeds");
      g_settings_reset (self->settings, FEEDS_KEY);
    }
  else
    write_feeds (self, kept);
  return n;
}

static void
remove_activated (GSimpleAction *action,
                  GVariant *parameter,
                  gpointer user_data)
{
  LwnFeedsEditor *self = user_data;
  g_autoptr (GHashTable) urls = lwn_str_hash_table_new (NULL, NULL);

  g_hash_table_add (urls, (gpointer) g_variant_get_string (parameter, NULL));
  remove_feeds (self, urls, FALSE);
}

/* Puts the feeds last removed back where they were, in one write; a feed
 * added again since stays where it is now. */
static void
undo_bar_response_cb (GtkInfoBar *bar,
                      int response,
                      LwnFeedsEditor *self)
{
  g_autoptr (GPtrArray) children = NULL;
  g_autoptr (GHashTable) followed = NULL;
  const char *first = NULL;

  if (response != 1 || self->removed == NULL)
    {
      hide_undo (self);
      return;
    }

  children = list_children (self);
  /* The empty list follows LWN's feed, which stays when others join. */
  if (children->len == 0)
    g_ptr_array_add (children, g_variant_ref_sink (g_variant_new ("(ssb)", DEFAULT_FEED_URL, "LWN.net", TRUE)));
  followed = lwn_str_hash_table_new (NULL, NULL);
  for (guint i = 0; i < children->len; i++)
    g_hash_table_add (followed, (gpointer) child_url (g_ptr_array_index (children, i)));
  for (guint i = 0; i < self->removed->len; i++)
    {
      Removed *removed = &g_array_index (self->removed, Removed, i);
      const char *url = child_url (removed->entry);

      if (!g_hash_table_add (followed, (gpointer) url))
        continue;
      g_ptr_array_insert (children, (int) MIN (removed->position, children->len), g_variant_ref (removed->entry));
      if (first == NULL)
        first = url;
    }
  if (first != NULL)
    {
      request_focus (self, first, LWN_FEED_ROW_REMOVE);
      write_feeds (self, children);
    }
  hide_undo (self);
}

/* Searching ------------------------------------------------------------------------ */

static guint
count_matches (LwnFeedsEditor *self)
{
  GHashTableIter iter;
  gpointer row;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    n += filter_row (row, self);
  return n;
}

/* The search shows for a long list, or once asked for; what it finds is
 * said beside it and in its description, where a screen reader finds it. */
static void
update_search (LwnFeedsEditor *self)
{
  gboolean searching = self->query != NULL && !lwn_search_query_is_empty (self->query);
  guint n = searching ? count_matches (self) : self->n_rows;
  g_autofree char *count = NULL;
  g_autofree char *empty = NULL;

  gtk_widget_set_visible (self->search_box, self->n_rows >= SEARCH_FROM_FEEDS || self->search_wanted || searching);
  gtk_widget_set_visible (self->no_match_list, searching && n == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->feed_scroller), n > 0);
  if (searching)
    {

      /* Translators: how many feeds a search of the feeds list found, of how many. */
      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u feed", "%u of %u feeds", self->n_rows), n, self->n_rows);
      /* Translators: the feeds list when a search finds nothing; %s is what was searched for. */
      empty = g_strdup_printf (_ ("No feeds match “%s”"), gtk_entry_get_text (GTK_ENTRY (self->search_entry)));
      gtk_label_set_text (self->no_match_label, empty);
    }
  else
    /* Translators: how many feeds the list holds, beside its search. */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u feed", "%u feeds", self->n_rows), self->n_rows);
  gtk_label_set_text (self->search_count, count);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->search_entry)), count);
}

static void
search_changed_cb (GtkSearchEntry *entry,
                   LwnFeedsEditor *self)
{
  g_clear_pointer (&self->query, lwn_search_query_unref);
  self->query = lwn_search_query_new (gtk_entry_get_text (GTK_ENTRY (entry)));
  gtk_list_box_invalidate_filter (self->feed_list);
  update_search (self);
}

/**
 * lwn_feeds_editor_search:
 * @self: a #LwnFeedsEditor
 *
 * Shows the search of the feeds, however short the list, and gives it the
 * keyboard focus: the window's Ctrl+F.
 */
void
lwn_feeds_editor_search (LwnFeedsEditor *self)
{
  g_return_if_fail (LWN_IS_FEEDS_EDITOR (self));

  self->search_wanted = TRUE;
  update_search (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Escape takes back a selection, then the search's words; the next one
 * closes the window, as Escape does elsewhere in it. */
static gboolean
search_key_press_cb (GtkWidget *entry,
                     GdkEventKey *event,
                     LwnFeedsEditor *self)
{
  GtkWidget *toplevel;

  if (event->keyval != GDK_KEY_Escape || (event->state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  if (self->selecting)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->select_button), FALSE);
  else if (*gtk_entry_get_text (GTK_ENTRY (entry)) != '\0')
    gtk_entry_set_text (GTK_ENTRY (entry), "");
  else
    {
      /* GtkSearchEntry keeps Escape to itself; the window's own binding
       * closes it. */
      toplevel = gtk_widget_get_toplevel (entry);
      if (gtk_widget_is_toplevel (toplevel))
        gtk_bindings_activate_event (G_OBJECT (toplevel), event);
    }
  return GDK_EVENT_STOP;
}

/* Selecting ------------------------------------------------------------------------- */

static void
update_selection (LwnFeedsEditor *self)
{
  GHashTableIter iter;
  gpointer row;
  guint n = 0;
  g_autofree char *count = NULL;
  g_autofree char *remove = NULL;
  gboolean all = FALSE;

  gtk_widget_set_visible (self->select_button, self->n_rows > 1 || self->selecting);
  gtk_widget_set_sensitive (self->select_button, !self->locked);
  if (!self->selecting)
    return;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    n += lwn_feed_row_get_selected (row);
  all = n > 0 && n >= self->n_rows;

  /* Translators: how many feeds are selected, in the bar under the feeds list. */
  count = n > 0 ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u selected", "%u selected", n), n)
                : g_strdup (_ ("Tick the feeds to remove"));
  gtk_label_set_text (self->selection_label, count);
  /* Translators: the button that removes the selected feeds; %u is how many. */
  remove = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Remo_ve %u Feed", "Remo_ve %u Feeds", n), n);
  gtk_button_set_label (GTK_BUTTON (self->remove_selected_button), n > 0 ? remove : _ ("Remo_ve"));
  gtk_widget_set_sensitive (self->remove_selected_button, n > 0 && !all && !self->locked);
  gtk_widget_set_tooltip_text (self->remove_selected_button, all ? _ ("One feed must stay: untick one to remove the others") : NULL);
  atk_object_set_description (gtk_widget_get_accessible (self->remove_selected_button),
                              all ? _ ("One feed must stay: untick one to remove the others") : count);
}

static void
set_selecting (LwnFeedsEditor *self,
               gboolean selecting)
{
  GHashTableIter iter;
  gpointer row;

  if (self->selecting == selecting)
    return;
  self->selecting = selecting;
  g_clear_pointer (&self->anchor_url, g_free);
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    lwn_feed_row_set_selecting (row, selecting);
  gtk_revealer_set_reveal_child (self->selection_revealer, selecting);
  update_selection (self);
}

static void
select_button_toggled_cb (GtkToggleButton *button,
                          LwnFeedsEditor *self)
{
  set_selecting (self, gtk_toggle_button_get_active (button));
}

/* Ticks the rows that show between the anchor and @row, as a Shift+click
 * does in a file manager. */
static void
tick_range (LwnFeedsEditor *self,
            LwnFeedRow *row)
{
  LwnFeedRow *anchor = self->anchor_url != NULL ? g_hash_table_lookup (self->rows, self->anchor_url) : NULL;
  guint from;
  guint to;
  GHashTableIter iter;
  gpointer other;

  if (anchor == NULL || anchor == row)
    return;
  from = MIN (lwn_feed_row_get_position (anchor), lwn_feed_row_get_position (row));
  to = MAX (lwn_feed_row_get_position (anchor), lwn_feed_row_get_position (row));
  self->ticking_range = TRUE;
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &other))
    {
      guint position = lwn_feed_row_get_position (other);

      if (position >= from && position <= to && gtk_widget_get_child_visible (other))
        lwn_feed_row_set_selected (other, TRUE);
    }
  self->ticking_range = FALSE;
}

static void
row_selected_cb (LwnFeedRow *row,
                 GParamSpec *pspec,
                 LwnFeedsEditor *self)
{
  GdkModifierType state = 0;

  if (self->ticking_range || !self->selecting)
    return;
  if (lwn_feed_row_get_selected (row) && gtk_get_current_event_state (&state) && (state & GDK_SHIFT_MASK) != 0)
    tick_range (self, row);
  g_free (self->anchor_url);
  self->anchor_url = g_strdup (lwn_feed_row_get_url (row));
  update_selection (self);
}

static void
feed_list_row_activated_cb (GtkListBox *list,
                            GtkListBoxRow *row,
                            LwnFeedsEditor *self)
{
  if (self->selecting && LWN_IS_FEED_ROW (row))
    lwn_feed_row_set_selected (LWN_FEED_ROW (row), !lwn_feed_row_get_selected (LWN_FEED_ROW (row)));
}

static void
select_shown (LwnFeedsEditor *self,
              gboolean selected)
{
  GHashTableIter iter;
  gpointer row;

  self->ticking_range = TRUE;
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    if (!selected || gtk_widget_get_child_visible (row))
      lwn_feed_row_set_selected (row, selected);
  self->ticking_range = FALSE;
  update_selection (self);
}

/* With a search, "Select All" takes what the search found. */
static void
select_all_clicked_cb (GtkButton *button,
                       LwnFeedsEditor *self)
{
  select_shown (self, TRUE);
}

static void
select_none_clicked_cb (GtkButton *button,
                        LwnFeedsEditor *self)
{
  select_shown (self, FALSE);
}

static void
remove_selected_clicked_cb (GtkButton *button,
                            LwnFeedsEditor *self)
{
  g_autoptr (GHashTable) urls = lwn_str_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer url;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &url, &row))
    if (lwn_feed_row_get_selected (row))
      g_hash_table_add (urls, url);
  if (remove_feeds (self, urls, FALSE) > 0)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->select_button), FALSE);
}

static gboolean
lwn_feeds_editor_key_press_event (GtkWidget *widget,
                                  GdkEventKey *event)
{
  LwnFeedsEditor *self = LWN_FEEDS_EDITOR (widget);

  if (GTK_WIDGET_CLASS (lwn_feeds_editor_parent_class)->key_press_event (widget, event))
    return GDK_EVENT_STOP;
  /* Escape first leaves the selection; only then does it close the window. */
  if (event->keyval == GDK_KEY_Escape && (event->state & gtk_accelerator_get_default_mod_mask ()) == 0 && self->selecting)
    {
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->select_button), FALSE);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

/* Removing what an import added ------------------------------------------------------ */

/* The offer stays while a feed the import added is still followed. */
static void
update_imported (LwnFeedsEditor *self)
{
  GHashTableIter iter;
  gpointer url;
  gboolean any = FALSE;

  if (self->imported != NULL)
    {
      g_hash_table_iter_init (&iter, self->imported);
      while (!any && g_hash_table_iter_next (&iter, &url, NULL))
        any = g_hash_table_contains (self->rows, url);
    }
  if (!any)
    g_clear_pointer (&self->imported, g_hash_table_unref);
  gtk_widget_set_visible (self->remove_imported_button, any);
}

static void
remove_imported_clicked_cb (GtkButton *button,
                            LwnFeedsEditor *self)
{
  g_autofree char *text = NULL;
  guint n;

  if (self->imported == NULL)
    return;
  /* An import into the empty list, which follows LWN's feed, wrote LWN's
   * feed with the imported ones: without them, the list is empty again. */
  n = remove_feeds (self, self->imported, self->imported_into_default);
  if (n == 0)
    {
      show_status (self->opml_status, _ ("Every feed followed came with this import, and one feed must stay"), TRUE);
      return;
    }
  g_clear_pointer (&self->imported, g_hash_table_unref);
  update_imported (self);
  /* Translators: said where the import's result was, once the feeds it added are removed again. */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Removed the %u feed the import added", "Removed the %u feeds the import added", n), n);
  show_status (self->opml_status, text, FALSE);
}

/* Adding ----------------------------------------------------------------------- */

/**
 * lwn_feeds_editor_url_problem:
 * @text: what was typed as a feed's address
 *
 * The check of lwn_url_feed_problem(), which an OPML import makes too, so
 * that no way in takes an address another refuses.
 *
 * Returns: (nullable): why @text cannot be a feed's address, or %NULL when
 *   it can be one
 */
const char *
lwn_feeds_editor_url_problem (const char *text)
{
  return lwn_url_feed_problem (text);
}

static void
show_add_problem (LwnFeedsEditor *self,
                  const char *problem)
{
  gtk_entry_set_icon_from_icon_name (self->add_entry, GTK_ENTRY_ICON_SECONDARY,
                                     problem != NULL ? "dialog-error-symbolic" : NULL);
  gtk_entry_set_icon_tooltip_text (self->add_entry, GTK_ENTRY_ICON_SECONDARY, problem);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->add_entry)), problem != NULL ? problem : "");
  show_status (self->add_status, problem, TRUE);
}

static void
set_finding (LwnFeedsEditor *self,
             gboolean finding)
{
  gtk_stack_set_visible_child_name (self->add_stack, finding ? "busy" : "idle");
  if (finding)
    gtk_spinner_start (self->add_spinner);
  else
    gtk_spinner_stop (self->add_spinner);
  gtk_editable_set_editable (GTK_EDITABLE (self->add_entry), !finding);
}

static void
add_entry_changed_cb (GtkEditable *editable,
                      LwnFeedsEditor *self)
{
  const char *text = gtk_entry_get_text (self->add_entry);

  if (self->finding != NULL)
    return;
  /* An empty field is not yet a mistake; asking to add it is. */
  show_add_problem (self, *text == '\0' ? NULL : lwn_feeds_editor_url_problem (text));
}

static void
found_cb (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *feed_url = NULL;
  g_autofree char *title = NULL;
  g_autoptr (GPtrArray) added = NULL;
  g_autofree char *text = NULL;
  LwnFeedsEditor *self;

  if (!lwn_feed_find_finish (result, &feed_url, &title, &error) && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  g_clear_object (&self->finding);
  set_finding (self, FALSE);
  if (error != NULL)
    {
      show_add_problem (self, error->message);
      return;
    }
  if (is_followed (self, feed_url))
    {
      show_add_problem (self, _ ("You follow this feed already."));
      return;
    }

  added = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_ptr_array_add (added, lwn_opml_feed_new (feed_url, title, NULL));
  if (!lwn_reader_settings_add_feeds (self->settings, added, NULL))
    {
      show_add_problem (self, _ ("Could not change the feeds followed"));
      return;
    }
  gtk_entry_set_text (self->add_entry, "");
  /* Translators: said under the address once its feed is followed; %s is the feed's title or address. */
  text = g_strdup_printf (_ ("Added “%s”"), title != NULL && *title != '\0' ? title : feed_url);
  show_status (self->add_status, text, FALSE);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->add_entry)), text);
}

static void
add_address (LwnFeedsEditor *self)
{
  const char *text = gtk_entry_get_text (self->add_entry);
  const char *problem = lwn_feeds_editor_url_problem (text);

  if (self->finding != NULL || self->locked)
    return;
  if (problem == NULL && is_followed (self, text))
    problem = _ ("You follow this feed already.");
  show_add_problem (self, problem);
  if (problem != NULL)
    return;

  /* Loaded once, in a worker: its title names it, and a web page's own
   * feed is found. */
  self->finding = g_cancellable_new ();
  set_finding (self, TRUE);
  show_status (self->add_status, _ ("Looking for the feed…"), FALSE);
  lwn_feed_find_async (text, self->finding, found_cb, self);
}

static void
add_entry_activate_cb (GtkEntry *entry,
                       LwnFeedsEditor *self)
{
  add_address (self);
}

static void
add_button_clicked_cb (GtkButton *button,
                       LwnFeedsEditor *self)
{
  add_address (self);
}

/* Escape first stops a search or takes back what was typed; only an empty
 * field lets it close the window. */
static gboolean
add_entry_key_press_cb (GtkWidget *entry,
                        GdkEventKey *event,
                        LwnFeedsEditor *self)
{
  if (event->keyval != GDK_KEY_Escape || (event->state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  if (self->finding != NULL)
    {
      g_cancellable_cancel (self->finding);
      g_clear_object (&self->finding);
      set_finding (self, FALSE);
      show_add_problem (self, NULL);
      return GDK_EVENT_STOP;
    }
  if (*gtk_entry_get_text (GTK_ENTRY (entry)) == '\0')
    return GDK_EVENT_PROPAGATE;
  gtk_entry_set_text (GTK_ENTRY (entry), "");
  show_add_problem (self, NULL);
  return GDK_EVENT_STOP;
}

/* OPML ---------------------------------------------------------------------------- */

static GtkFileFilter *
opml_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("OPML subscription lists"));
  gtk_file_filter_add_mime_type (filter, "text/x-opml+xml");
  gtk_file_filter_add_pattern (filter, "*.opml");
  gtk_file_filter_add_pattern (filter, "*.xml");
  return filter;
}

/* A file name as a label can show it: GFile gives names in the file
 * system's encoding, which GTK would refuse unless it is UTF-8. */
static char *
dup_display_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return g_filename_display_name (basename);
}

static void
show_import_failure (LwnFeedsEditor *self,
                     const GError *error)
{
  g_autofree char *text = NULL;

  /* Translators: the first %s is a file name, the second why it could not be read. */
  text = g_strdup_printf (_ ("Could not import %s: %s"), self->import_name, error->message);
  show_status (self->opml_status, text, TRUE);
  g_clear_pointer (&self->import_name, g_free);
}

/* Keeps which feeds an import added, for "Remove All from This Import":
 * those followed now that were not before it. An import into the empty
 * list, which follows LWN's feed, writes LWN's feed too; that one stays. */
static void
remember_imported (LwnFeedsEditor *self,
                   GPtrArray *before)
{
  g_autoptr (GPtrArray) after = list_children (self);
  g_autoptr (GHashTable) followed = lwn_str_hash_table_new (NULL, NULL);

  g_clear_pointer (&self->imported, g_hash_table_unref);
  self->imported_into_default = before->len == 0;
  if (self->imported_into_default)
    g_hash_table_add (followed, (gpointer) DEFAULT_FEED_URL);
  for (guint i = 0; i < before->len; i++)
    g_hash_table_add (followed, (gpointer) child_url (g_ptr_array_index (before, i)));
  for (guint i = 0; i < after->len; i++)
    {
      const char *url = child_url (g_ptr_array_index (after, i));

      if (g_hash_table_contains (followed, url))
        continue;
      if (self->imported == NULL)
        self->imported = lwn_str_hash_table_new (g_free, NULL);
      g_hash_table_add (self->imported, g_strdup (url));
    }
  /* The button shows once the rows of the new feeds are made. */
  schedule_sync (self);
}

/* Every callback of an import checks for cancellation before it touches
 * @user_data: dispose cancels self->files, and the editor may be gone. */
static void
opml_parsed_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) listed = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autofree char *text = NULL;
  LwnOpmlImport import = { 0 };
  LwnFeedsEditor *self;

  listed = lwn_opml_parse_finish (result, &import.skipped, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  if (listed == NULL)
    {
      show_import_failure (self, error);
      return;
    }

  g_clear_pointer (&self->import_name, g_free);
  before = list_children (self);
  if (!lwn_reader_settings_import_feeds (self->settings, listed, &import))
    {
      show_status (self->opml_status, _ ("Could not change the feeds followed"), TRUE);
      return;
    }
  text = lwn_opml_describe_import (&import);
  show_status (self->opml_status, text, FALSE);
  remember_imported (self, before);
}

static void
opml_loaded_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = g_file_load_bytes_finish (G_FILE (source), result, NULL, &error);
  LwnFeedsEditor *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  if (bytes == NULL)
    {
      show_import_failure (self, error);
      return;
    }
  /* A list of a few megabytes takes long enough to read to freeze the
   * window, so the parse runs in a worker. */
  lwn_opml_parse_async (bytes, self->files, opml_parsed_cb, self);
}

/* The size is asked first, so that a huge file is refused before it is
 * read into memory; lwn_opml_parse() checks again what was read. */
static void
opml_queried_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileInfo) info = g_file_query_info_finish (G_FILE (source), result, &error);
  LwnFeedsEditor *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    lwn_opml_check_size ((guint64) g_file_info_get_size (info), &error);
  if (error != NULL)
    {
      show_import_failure (self, error);
      return;
    }
  g_file_load_bytes_async (G_FILE (source), self->files, opml_loaded_cb, self);
}

static void
import_file (LwnFeedsEditor *self,
             GFile *file)
{
  g_autofree char *text = NULL;

  g_free (self->import_name);
  self->import_name = dup_display_name (file);
  /* A new import is what "Remove All from This Import" would mean. */
  g_clear_pointer (&self->imported, g_hash_table_unref);
  update_imported (self);
  /* Translators: %s is a file name. */
  text = g_strdup_printf (_ ("Reading %s…"), self->import_name);
  show_status (self->opml_status, text, FALSE);
  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT,
                           self->files, opml_queried_cb, self);
}

static void
opml_saved_cb (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = dup_display_name (G_FILE (source));
  g_autofree char *text = NULL;
  LwnFeedsEditor *self;

  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  if (error != NULL)
    /* Translators: the first %s is a file name, the second why it could not be written. */
    text = g_strdup_printf (_ ("Could not save %s: %s"), name, error->message);
  else
    /* Translators: %s is a file name. */
    text = g_strdup_printf (_ ("Saved the feeds to %s"), name);
  show_status (self->opml_status, text, error != NULL);
}

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int response,
                     LwnFeedsEditor *self)
{
  g_autoptr (GFile) file = NULL;
  gboolean saving = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)) == GTK_FILE_CHOOSER_ACTION_SAVE;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  g_clear_object (&self->chooser);
  if (file == NULL)
    return;

  if (saving)
    {
      g_autoptr (GPtrArray) feeds = lwn_reader_settings_list_feeds (self->settings, DEFAULT_FEED_URL);
      g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
      char *text = lwn_opml_write (feeds, now);
      g_autoptr (GBytes) bytes = g_bytes_new_take (text, strlen (text));

      g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, self->files,
                                           opml_saved_cb, self);
    }
  else
    import_file (self, file);
}

static void
open_chooser (LwnFeedsEditor *self,
              GtkFileChooserAction action)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  gboolean saving = action == GTK_FILE_CHOOSER_ACTION_SAVE;

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (saving ? _ ("Export Feeds") : _ ("Import Feeds"),
                                               GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL, action,
                                               saving ? _ ("_Export") : _ ("_Import"), NULL);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), opml_filter ());
  if (saving)
    {
      gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (self->chooser), TRUE);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), "lwn-tray-feeds.opml");
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
import_clicked_cb (GtkButton *button,
                   LwnFeedsEditor *self)
{
  /* One import at a time: two would count each other's feeds as followed
   * already. The status line says which list is being read. */
  if (self->import_name != NULL)
    return;
  open_chooser (self, GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
export_clicked_cb (GtkButton *button,
                   LwnFeedsEditor *self)
{
  open_chooser (self, GTK_FILE_CHOOSER_ACTION_SAVE);
}

/* The widget -------------------------------------------------------------------- */

/**
 * lwn_feeds_editor_set_settings:
 * @self: a #LwnFeedsEditor
 * @settings: the settings whose `feeds` it edits
 *
 * Makes the rows of the feeds at once, so that the window opens with them.
 */
void
lwn_feeds_editor_set_settings (LwnFeedsEditor *self,
                               GSettings *settings)
{
  g_return_if_fail (LWN_IS_FEEDS_EDITOR (self));
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (self->settings == NULL);

  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::" FEEDS_KEY, G_CALLBACK (feeds_changed_cb), self, 0);
  sync_rows (self);
}

/**
 * lwn_feeds_editor_set_locked:
 * @self: a #LwnFeedsEditor
 * @reason: (nullable): why the feeds cannot be changed here now, or %NULL
 *   when they can
 */
void
lwn_feeds_editor_set_locked (LwnFeedsEditor *self,
                             const char *reason)
{
  static const char *const actions[] = { "move-up", "move-down", "remove", "set-notify" };
  GHashTableIter iter;
  gpointer row;

  g_return_if_fail (LWN_IS_FEEDS_EDITOR (self));

  self->locked = reason != NULL;
  show_status (self->locked_label, reason, FALSE);
  gtk_widget_set_sensitive (self->add_row, !self->locked);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->add_entry)), reason != NULL ? reason : "");
  gtk_widget_set_sensitive (self->import_button, !self->locked);
  gtk_widget_set_sensitive (self->remove_imported_button, !self->locked);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->actions), actions[i])),
                                 !self->locked);
  if (self->locked)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->select_button), FALSE);
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    lwn_feed_row_set_editable (row, !self->locked);
  update_selection (self);
}

static void
lwn_feeds_editor_dispose (GObject *object)
{
  LwnFeedsEditor *self = LWN_FEEDS_EDITOR (object);

  if (self->finding != NULL)
    g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  if (self->files != NULL)
    g_cancellable_cancel (self->files);
  g_clear_object (&self->files);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
    }
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->import_name, g_free);
  g_clear_pointer (&self->imported, g_hash_table_unref);
  g_clear_handle_id (&self->sync_id, g_source_remove);
  g_clear_handle_id (&self->undo_id, g_source_remove);
  g_clear_pointer (&self->removed, g_array_unref);
  g_clear_pointer (&self->query, lwn_search_query_unref);
  g_clear_pointer (&self->focus_url, g_free);
  g_clear_pointer (&self->anchor_url, g_free);
  /* The rows go with the list; the table only pointed at them. */
  if (self->rows != NULL)
    g_hash_table_remove_all (self->rows);
  g_clear_object (&self->actions);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lwn_feeds_editor_parent_class)->dispose (object);
}

static void
lwn_feeds_editor_finalize (GObject *object)
{
  LwnFeedsEditor *self = LWN_FEEDS_EDITOR (object);

  g_hash_table_unref (self->rows);

  G_OBJECT_CLASS (lwn_feeds_editor_parent_class)->finalize (object);
}

static void
lwn_feeds_editor_class_init (LwnFeedsEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lwn_feeds_editor_dispose;
  object_class->finalize = lwn_feeds_editor_finalize;
  widget_class->key_press_event = lwn_feeds_editor_key_press_event;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-feeds-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, select_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, locked_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_revealer);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, search_box);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, search_entry);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, search_count);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, feed_scroller);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, feed_list);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, no_match_list);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, no_match_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_row);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_title);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_entry);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_stack);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_status);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, selection_revealer);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, selection_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, select_all_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, remove_selected_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, opml_status);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, remove_imported_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, import_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, export_button);
  gtk_widget_class_bind_template_callback (widget_class, select_button_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, undo_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_key_press_cb);
  gtk_widget_class_bind_template_callback (widget_class, feed_list_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, select_all_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, select_none_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_selected_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_imported_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_entry_key_press_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, import_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
}

static void
lwn_feeds_editor_init (LwnFeedsEditor *self)
{
  static const GActionEntry row_actions[] = {
    { .name = "move-up", .activate = move_activated, .parameter_type = "s" },
    { .name = "move-down", .activate = move_activated, .parameter_type = "s" },
    { .name = "remove", .activate = remove_activated, .parameter_type = "s" },
    { .name = "set-notify", .activate = set_notify_activated, .parameter_type = "(sb)" },
  };
  AtkObject *entry = NULL;
  AtkObject *search = NULL;
  AtkObject *list = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->files = g_cancellable_new ();
  self->rows = lwn_str_hash_table_new (NULL, NULL);

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), row_actions, G_N_ELEMENTS (row_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), LWN_FEED_ROW_ACTIONS, G_ACTION_GROUP (self->actions));

  gtk_list_box_set_sort_func (self->feed_list, sort_rows, NULL, NULL);
  gtk_list_box_set_filter_func (self->feed_list, filter_row, self, NULL);
  /* The Tab key scrolls the long list to the control it reaches. */
  gtk_container_set_focus_vadjustment (GTK_CONTAINER (self->feed_list), gtk_scrolled_window_get_vadjustment (self->feed_scroller));

  /* GTK 3 leaves an entry nameless without this; the label is its name. */
  entry = gtk_widget_get_accessible (GTK_WIDGET (self->add_entry));
  atk_object_set_name (entry, _ ("Add a feed"));
  atk_object_add_relationship (entry, ATK_RELATION_DESCRIBED_BY, gtk_widget_get_accessible (GTK_WIDGET (self->add_status)));
  search = gtk_widget_get_accessible (GTK_WIDGET (self->search_entry));
  atk_object_set_name (search, _ ("Search feeds"));
  atk_object_add_relationship (search, ATK_RELATION_DESCRIBED_BY, gtk_widget_get_accessible (GTK_WIDGET (self->search_count)));
  list = gtk_widget_get_accessible (GTK_WIDGET (self->feed_list));
  atk_object_set_name (list, _ ("Feeds followed"));
  atk_object_set_name (gtk_widget_get_accessible (self->select_button), _ ("Select feeds"));
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self->undo_bar)), _ ("Feed removed"));
  atk_object_set_role (gtk_widget_get_accessible (GTK_WIDGET (self->undo_bar)), ATK_ROLE_NOTIFICATION);
  g_signal_connect (self->add_row, "focus", G_CALLBACK (lwn_settings_row_focus_controls), NULL);
}
