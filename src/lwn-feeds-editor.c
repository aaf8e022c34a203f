/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The feeds part of the preferences: the feeds followed, added by address, moved, removed with undo, and OPML in and out.
 * Every change is written to the settings at once; the rows show what the settings hold, never a state of their own. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-feed-find.h"
#include "lwn-feeds-editor.h"
#include "lwn-settings-row.h"
#include "lwn-opml.h"
#include "lwn-reader-settings.h"
#include "lwn-url.h"

#define FEEDS_KEY "feeds"

struct _LwnFeedsEditor
{
  GtkBox parent_instance;

  GSettings *settings;
  gboolean locked;
  guint rebuild_id;
  int focus_row;         /* after a rebuild, the row whose button to focus, or -1 */
  const char *focus_key; /* and which of its buttons */

  GCancellable *finding; /* the address being looked at, while it is */
  GCancellable *files;   /* OPML being read, parsed or written; cancelled in dispose */
  GtkFileChooserNative *chooser;
  char *import_name; /* the name of the list being imported, while it is */

  GVariant *removed; /* (ssb) of the feed last removed, while it can be undone */
  guint removed_position;
  guint undo_id;

  GtkLabel *locked_label;
  GtkRevealer *undo_revealer;
  GtkInfoBar *undo_bar;
  GtkLabel *undo_label;
  GtkListBox *feed_list;
  GtkWidget *add_row;
  GtkLabel *add_title;
  GtkEntry *add_entry;
  GtkStack *add_stack;
  GtkWidget *add_button;
  GtkSpinner *add_spinner;
  GtkLabel *add_status;
  GtkLabel *opml_status;
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

/* Writes the list with @children in place of the present one's. */
static void
write_feeds (LwnFeedsEditor *self,
             GPtrArray *children)
{
  GVariant *value = g_variant_new_array (G_VARIANT_TYPE ("(ssb)"), (GVariant **) children->pdata, children->len);

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

/* Rows ----------------------------------------------------------------------- */

static void schedule_rebuild (LwnFeedsEditor *self);

/* The place in the list now of the feed whose row @widget is in: the rows
 * may be older than the list until they are made again. G_MAXUINT when
 * the feed is no longer there. */
static guint
row_index (LwnFeedsEditor *self,
           GtkWidget *widget)
{
  const char *url = g_object_get_data (G_OBJECT (widget), "lwn-feed-url");
  g_autoptr (GVariant) feeds = dup_feeds (self);

  for (gsize i = 0; url != NULL && i < g_variant_n_children (feeds); i++)
    {
      const char *followed;

      g_variant_get_child (feeds, i, "(&s&sb)", &followed, NULL, NULL);
      if (g_str_equal (followed, url))
        return (guint) i;
    }
  return G_MAXUINT;
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

static void
notify_switch_cb (GtkSwitch *control,
                  GParamSpec *pspec,
                  LwnFeedsEditor *self)
{
  g_autoptr (GPtrArray) children = list_children (self);
  guint index = row_index (self, GTK_WIDGET (control));
  const char *url;
  const char *name;
  gboolean notify;

  if (index >= children->len)
    return;
  self->focus_row = (int) index;
  self->focus_key = "switch";
  g_variant_get (g_ptr_array_index (children, index), "(&s&sb)", &url, &name, &notify);
  if (notify == gtk_switch_get_active (control))
    return;
  g_ptr_array_add (children, g_variant_ref_sink (g_variant_new ("(ssb)", url, name, gtk_switch_get_active (control))));
  g_ptr_array_remove_index (children, index);
  g_ptr_array_insert (children, (int) index, g_ptr_array_steal_index (children, children->len - 1));
  write_feeds (self, children);
}

static void
move_feed (LwnFeedsEditor *self,
           guint index,
           int delta,
           const char *focus_key)
{
  g_autoptr (GPtrArray) children = list_children (self);
  guint other = index + delta;
  gpointer moved;

  if (index >= children->len || other >= children->len)
    return;
  moved = children->pdata[index];
  children->pdata[index] = children->pdata[other];
  children->pdata[other] = moved;
  /* The focus follows the feed, on the same button while it can move on. */
  self->focus_row = (int) other;
  self->focus_key = focus_key;
  write_feeds (self, children);
}

static void
up_clicked_cb (GtkButton *button,
               LwnFeedsEditor *self)
{
  move_feed (self, row_index (self, GTK_WIDGET (button)), -1, "up");
}

static void
down_clicked_cb (GtkButton *button,
                 LwnFeedsEditor *self)
{
  move_feed (self, row_index (self, GTK_WIDGET (button)), 1, "down");
}

static void
hide_undo (LwnFeedsEditor *self)
{
  g_clear_handle_id (&self->undo_id, g_source_remove);
  g_clear_pointer (&self->removed, g_variant_unref);
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

static void
remove_clicked_cb (GtkButton *button,
                   LwnFeedsEditor *self)
{
  g_autoptr (GPtrArray) children = list_children (self);
  guint index = row_index (self, GTK_WIDGET (button));
  g_autofree char *text = NULL;
  const char *url;
  const char *name;

  if (index >= children->len || children->len < 2)
    return;

  hide_undo (self);
  self->removed = g_variant_ref (g_ptr_array_index (children, index));
  self->removed_position = index;
  g_variant_get (self->removed, "(&s&sb)", &url, &name, NULL);
  /* Translators: shown with an Undo button once a feed is removed; %s is its name or address. */
  text = g_strdup_printf (_ ("“%s” removed"), *name != '\0' ? name : url);
  gtk_label_set_text (self->undo_label, text);
  gtk_revealer_set_reveal_child (self->undo_revealer, TRUE);
  self->undo_id = g_timeout_add_seconds (LWN_FEEDS_EDITOR_UNDO_SECONDS, undo_expired_cb, self);

  g_ptr_array_remove_index (children, index);
  self->focus_row = (int) MIN (index, children->len - 1);
  self->focus_key = "remove";
  write_feeds (self, children);
}

static void
undo_bar_response_cb (GtkInfoBar *bar,
                      int response,
                      LwnFeedsEditor *self)
{
  g_autoptr (GPtrArray) children = NULL;
  const char *url;

  if (response != 1 || self->removed == NULL)
    {
      hide_undo (self);
      return;
    }

  g_variant_get (self->removed, "(&s&sb)", &url, NULL, NULL);
  if (!is_followed (self, url))
    {
      children = list_children (self);
      g_ptr_array_insert (children, (int) MIN (self->removed_position, children->len), g_variant_ref (self->removed));
      self->focus_row = (int) MIN (self->removed_position, children->len - 1);
      self->focus_key = "remove";
      write_feeds (self, children);
    }
  hide_undo (self);
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip,
             const char *accessible_name,
             const char *url,
             GCallback callback,
             LwnFeedsEditor *self)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  atk_object_set_name (gtk_widget_get_accessible (button), accessible_name);
  g_object_set_data_full (G_OBJECT (button), "lwn-feed-url", g_strdup (url), g_free);
  g_signal_connect (button, "clicked", callback, self);
  gtk_style_context_add_class (gtk_widget_get_style_context (button), "flat");
  return button;
}

static GtkWidget *
feed_row (LwnFeedsEditor *self,
          guint index,
          guint n_feeds,
          const char *url,
          const char *name,
          gboolean notify)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *host = lwn_url_dup_host (url);
  const char *shown_name = *name != '\0' ? name : host != NULL ? host
                                                               : url;
  GtkWidget *title = gtk_label_new (shown_name);
  GtkWidget *subtitle = gtk_label_new (url);
  GtkWidget *notify_switch = gtk_switch_new ();
  /* Translators: the accessible names of a feed's controls in the preferences; %s is the feed's name. */
  g_autofree char *notify_name = g_strdup_printf (_ ("Notifications from %s"), shown_name);
  g_autofree char *up_name = g_strdup_printf (_ ("Move %s up"), shown_name);
  g_autofree char *down_name = g_strdup_printf (_ ("Move %s down"), shown_name);
  g_autofree char *remove_name = g_strdup_printf (_ ("Remove %s"), shown_name);
  GtkWidget *up;
  GtkWidget *down;
  GtkWidget *remove;
  PangoAttrList *small = pango_attr_list_new ();

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_can_focus (row, FALSE);
  g_signal_connect (row, "focus", G_CALLBACK (lwn_settings_row_focus_controls), NULL);
  g_object_set (box, "margin-start", 12, "margin-end", 6, "margin-top", 6, "margin-bottom", 6, NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_MIDDLE);
  pango_attr_list_insert (small, pango_attr_scale_new (0.9));
  gtk_label_set_attributes (GTK_LABEL (subtitle), small);
  pango_attr_list_unref (small);
  gtk_style_context_add_class (gtk_widget_get_style_context (subtitle), GTK_STYLE_CLASS_DIM_LABEL);
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_widget_set_valign (labels, GTK_ALIGN_CENTER);
  gtk_container_add (GTK_CONTAINER (labels), title);
  gtk_container_add (GTK_CONTAINER (labels), subtitle);
  gtk_container_add (GTK_CONTAINER (box), labels);

  gtk_switch_set_active (GTK_SWITCH (notify_switch), notify);
  gtk_widget_set_valign (notify_switch, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (notify_switch, _ ("Notify about its new headlines"));
  atk_object_set_name (gtk_widget_get_accessible (notify_switch), notify_name);
  g_object_set_data_full (G_OBJECT (notify_switch), "lwn-feed-url", g_strdup (url), g_free);
  g_signal_connect (notify_switch, "notify::active", G_CALLBACK (notify_switch_cb), self);
  gtk_container_add (GTK_CONTAINER (box), notify_switch);

  up = icon_button ("go-up-symbolic", _ ("Move up"), up_name, url, G_CALLBACK (up_clicked_cb), self);
  down = icon_button ("go-down-symbolic", _ ("Move down"), down_name, url, G_CALLBACK (down_clicked_cb), self);
  remove = icon_button ("user-trash-symbolic", _ ("Remove"), remove_name, url, G_CALLBACK (remove_clicked_cb), self);
  gtk_widget_set_sensitive (up, index > 0);
  gtk_widget_set_sensitive (down, index + 1 < n_feeds);
  /* The last feed stays: an applet that follows nothing would be an icon that never changes. */
  gtk_widget_set_sensitive (remove, n_feeds > 1);
  g_object_set_data (G_OBJECT (row), "up", up);
  g_object_set_data (G_OBJECT (row), "down", down);
  g_object_set_data (G_OBJECT (row), "remove", remove);
  g_object_set_data (G_OBJECT (row), "switch", notify_switch);
  gtk_container_add (GTK_CONTAINER (box), up);
  gtk_container_add (GTK_CONTAINER (box), down);
  gtk_container_add (GTK_CONTAINER (box), remove);

  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_widget_set_sensitive (box, !self->locked);
  gtk_widget_show_all (row);
  return row;
}

static void
rebuild (LwnFeedsEditor *self)
{
  g_autoptr (GVariant) feeds = dup_feeds (self);
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->feed_list));
  guint n = (guint) g_variant_n_children (feeds);

  for (GList *l = rows; l != NULL; l = l->next)
    if (l->data != self->add_row)
      gtk_widget_destroy (l->data);

  for (guint i = 0; i < n; i++)
    {
      const char *url;
      const char *name;
      gboolean notify;
      GtkWidget *row;

      g_variant_get_child (feeds, i, "(&s&sb)", &url, &name, &notify);
      row = feed_row (self, i, n, url, name, notify);
      gtk_list_box_insert (self->feed_list, row, (int) i);
      if ((int) i == self->focus_row)
        {
          /* At the end of the list, the button that moves it back. */
          const char *const keys[] = { self->focus_key, g_strcmp0 (self->focus_key, "up") == 0 ? "down" : "up", "remove",
                                       i > 0 ? "up" : "down" };

          for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
            {
              GtkWidget *target = g_object_get_data (G_OBJECT (row), keys[k]);

              if (target != NULL && gtk_widget_get_sensitive (target))
                {
                  gtk_widget_grab_focus (target);
                  break;
                }
            }
        }
    }
  self->focus_row = -1;
}

static gboolean
rebuild_cb (gpointer user_data)
{
  LwnFeedsEditor *self = user_data;

  self->rebuild_id = 0;
  rebuild (self);
  return G_SOURCE_REMOVE;
}

/* Never at once: the change may come from a row's own switch or button,
 * which must not be destroyed inside its own signal. */
static void
schedule_rebuild (LwnFeedsEditor *self)
{
  if (self->rebuild_id == 0)
    self->rebuild_id = g_idle_add (rebuild_cb, self);
}

static void
feeds_changed_cb (GSettings *settings,
                  const char *key,
                  LwnFeedsEditor *self)
{
  schedule_rebuild (self);
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

/* Every callback of an import checks for cancellation before it touches
 * @user_data: dispose cancels self->files, and the editor may be gone. */
static void
opml_parsed_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) listed = NULL;
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
  if (!lwn_reader_settings_import_feeds (self->settings, listed, &import))
    {
      show_status (self->opml_status, _ ("Could not change the feeds followed"), TRUE);
      return;
    }
  text = lwn_opml_describe_import (&import);
  show_status (self->opml_status, text, FALSE);
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
  rebuild (self);
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
  g_return_if_fail (LWN_IS_FEEDS_EDITOR (self));

  self->locked = reason != NULL;
  show_status (self->locked_label, reason, FALSE);
  gtk_widget_set_sensitive (self->add_row, !self->locked);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self->add_entry)), reason != NULL ? reason : "");
  gtk_widget_set_sensitive (self->import_button, !self->locked);
  schedule_rebuild (self);
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
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_handle_id (&self->undo_id, g_source_remove);
  g_clear_pointer (&self->removed, g_variant_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lwn_feeds_editor_parent_class)->dispose (object);
}

static void
lwn_feeds_editor_class_init (LwnFeedsEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lwn_feeds_editor_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-feeds-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, locked_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_revealer);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, undo_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, feed_list);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_row);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_title);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_entry);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_stack);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, add_status);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, opml_status);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, import_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedsEditor, export_button);
  gtk_widget_class_bind_template_callback (widget_class, undo_bar_response_cb);
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
  AtkObject *entry = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->focus_row = -1;
  self->files = g_cancellable_new ();

  /* GTK 3 leaves an entry nameless without this; the label is its name. */
  entry = gtk_widget_get_accessible (GTK_WIDGET (self->add_entry));
  atk_object_set_name (entry, _ ("Add a feed"));
  atk_object_add_relationship (entry, ATK_RELATION_DESCRIBED_BY, gtk_widget_get_accessible (GTK_WIDGET (self->add_status)));
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self->undo_bar)), _ ("Feed removed"));
  atk_object_set_role (gtk_widget_get_accessible (GTK_WIDGET (self->undo_bar)), ATK_ROLE_NOTIFICATION);
  g_signal_connect (self->add_row, "focus", G_CALLBACK (lwn_settings_row_focus_controls), NULL);
}
