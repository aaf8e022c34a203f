/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines window: a view of the reading model, with every headline's details and summary; clicks
 * become the application's actions. It never fetches, parses or saves anything itself. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-headlines-window.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* Rows made before the window first shows, then per idle callback: a
 * 1,000-item feed must not hold the main loop while its rows are built. */
#define FIRST_ROWS 40
#define ROWS_PER_CHUNK 25

/* A label marks only the first line of a wrapped paragraph with
 * LWN_TEXT_QUOTE_PREFIX, so the window draws quotes as blocks instead. */

/* A rule between headlines, and a rule beside quotes; currentColor keeps
 * both visible in dark themes and high contrast. */
static const char window_css[] = ".lwn-headlines > row { border-bottom: 1px solid alpha(currentColor, 0.12); }\n"
                                 ".lwn-quote { border-left: 3px solid alpha(currentColor, 0.3);"
                                 " padding-left: 10px; }\n";

struct _LwnHeadlinesWindow
{
  GtkApplicationWindow parent_instance;

  LwnReader *reader;
  GSettings *settings; /* NULL without the schema */
  GListStore *rows;    /* the part of the reader's headlines that has rows yet */
  guint fill_id;
  guint next_row;
  int width;
  int height;
  gboolean maximized;

  GtkHeaderBar *header_bar;
  GtkStack *refresh_stack;
  GtkSpinner *refresh_spinner;
  GtkStack *stack;
  GtkWidget *loading_page;
  GtkSpinner *loading_spinner;
  GtkWidget *error_page;
  GtkLabel *error_label;
  GtkListBox *list_box;
};

G_DEFINE_FINAL_TYPE (LwnHeadlinesWindow, lwn_headlines_window, GTK_TYPE_APPLICATION_WINDOW)

static void
activate_app_action (LwnHeadlinesWindow *self,
                     const char *name,
                     GVariant *parameter)
{
  GApplication *application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (application != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (application), name, parameter);
}

static gboolean
summary_activate_link_cb (GtkLabel *label,
                          const char *uri,
                          LwnHeadlinesWindow *self)
{
  /* Handled here in any case: GTK's own handler would open any scheme. */
  if (lwn_url_is_launchable (uri))
    activate_app_action (self, "open-link", g_variant_new_string (uri));
  return TRUE;
}

/* What a sighted person reads first, and then the rest, for screen readers. */
static void
describe_row (GtkWidget *row,
              LwnHeadline *headline,
              const char *details)
{
  AtkObject *accessible = gtk_widget_get_accessible (row);
  const char *title = lwn_headline_get_title (headline);
  const char *summary = lwn_feed_item_get_summary (lwn_headline_get_item (headline));
  g_autofree char *name = NULL;
  g_autofree char *description = NULL;

  /* Translators: the name a screen reader gives an unread headline. */
  name = lwn_headline_get_unread (headline) ? g_strdup_printf (_ ("%s, unread"), title) : g_strdup (title);
  atk_object_set_name (accessible, name);

  if (*details != '\0' && *summary != '\0')
    description = g_strdup_printf ("%s. %s", details, summary);
  else
    description = g_strconcat (details, summary, NULL);
  atk_object_set_description (accessible, description);
}

static void
show_title (GtkLabel *label,
            LwnHeadline *headline)
{
  g_autofree char *escaped = lwn_text_escape_markup (lwn_headline_get_title (headline));
  g_autofree char *markup = lwn_headline_get_unread (headline) ? g_strdup_printf ("<b>%s</b>", escaped)
                                                               : g_strdup (escaped);

  gtk_label_set_markup (label, markup);
}

static void
headline_unread_changed_cb (LwnHeadline *headline,
                            GParamSpec *pspec,
                            GtkWidget *row)
{
  GtkLabel *title = g_object_get_data (G_OBJECT (row), "lwn-title");
  const char *details = g_object_get_data (G_OBJECT (row), "lwn-details");

  show_title (title, headline);
  describe_row (row, headline, details);
}

static GtkWidget *
new_label (const char *style_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (style_class != NULL)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), style_class);
  gtk_widget_show (label);
  return label;
}

static void
add_summary_block (LwnHeadlinesWindow *self,
                   GtkContainer *box,
                   guint depth,
                   gboolean new_paragraph,
                   const char *markup)
{
  GtkWidget *label = new_label (NULL);
  GtkWidget *child = label;

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_track_visited_links (GTK_LABEL (label), FALSE);
  g_signal_connect_object (label, "activate-link", G_CALLBACK (summary_activate_link_cb), self, 0);

  /* A box per level, so that a quote in a quote has a rule of its own. */
  for (guint i = 0; i < depth; i++)
    {
      GtkWidget *quote = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      gtk_style_context_add_class (gtk_widget_get_style_context (quote), "lwn-quote");
      gtk_container_add (GTK_CONTAINER (quote), child);
      gtk_widget_show (quote);
      child = quote;
    }
  /* About the blank line that sets paragraphs apart inside a label. */
  if (new_paragraph)
    gtk_widget_set_margin_top (child, 12);
  gtk_container_add (box, child);
}

typedef struct
{
  guint depth;
  gboolean new_paragraph;
  char *markup;
} SummaryBlock;

static void
summary_block_clear (SummaryBlock *block)
{
  g_free (block->markup);
}

/* Whether @markup is well-formed on its own; the tags are the converter's,
 * and pango_parse_markup() would refuse the links a GtkLabel takes out first. */
static gboolean
is_well_formed (const char *markup)
{
  const GMarkupParser parser = { 0 };
  g_autoptr (GMarkupParseContext) context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, NULL, NULL);

  return g_markup_parse_context_parse (context, "<markup>", -1, NULL)
         && g_markup_parse_context_parse (context, markup, -1, NULL)
         && g_markup_parse_context_parse (context, "</markup>", -1, NULL)
         && g_markup_parse_context_end_parse (context, NULL);
}

/* Splits the summary into blocks: the running text, and each block quote by
 * its depth, without its line markers. Returns FALSE if a block is not
 * markup of its own, which lwn_text_markup_from_html() rules out by closing
 * every tag before a line break. */
static gboolean
split_summary (const char *summary,
               GArray *blocks)
{
  g_auto (GStrv) lines = g_strsplit (summary, "\n", -1);
  g_autoptr (GString) text = g_string_new (NULL);
  SummaryBlock block = { 0 };
  gboolean blank = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      guint depth = 0;

      if (*line == '\0')
        {
          blank = text->len > 0;
          continue;
        }
      while (g_str_has_prefix (line, LWN_TEXT_QUOTE_PREFIX))
        {
          line += strlen (LWN_TEXT_QUOTE_PREFIX);
          depth++;
        }

      if (text->len > 0 && depth != block.depth)
        {
          block.markup = g_strdup (text->str);
          g_array_append_val (blocks, block);
          g_string_truncate (text, 0);
          block.new_paragraph = blank;
        }
      else if (text->len > 0)
        g_string_append (text, blank ? "\n\n" : "\n");
      g_string_append (text, line);
      block.depth = depth;
      blank = FALSE;
    }
  if (text->len > 0)
    {
      block.markup = g_strdup (text->str);
      g_array_append_val (blocks, block);
    }

  for (guint i = 0; i < blocks->len; i++)
    {
      if (!is_well_formed (g_array_index (blocks, SummaryBlock, i).markup))
        return FALSE;
    }
  return TRUE;
}

static void
add_summary (LwnHeadlinesWindow *self,
             GtkContainer *box,
             const char *summary)
{
  g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (SummaryBlock));

  g_array_set_clear_func (blocks, (GDestroyNotify) summary_block_clear);
  if (strstr (summary, LWN_TEXT_QUOTE_PREFIX) == NULL || !split_summary (summary, blocks))
    {
      add_summary_block (self, box, 0, FALSE, summary);
      return;
    }

  for (guint i = 0; i < blocks->len; i++)
    {
      SummaryBlock *block = &g_array_index (blocks, SummaryBlock, i);

      add_summary_block (self, box, block->depth, block->new_paragraph, block->markup);
    }
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  LwnHeadlinesWindow *self = user_data;
  LwnHeadline *headline = item;
  LwnFeedItem *feed_item = lwn_headline_get_item (headline);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *details = lwn_headline_dup_details (headline, now);
  const char *summary = lwn_feed_item_get_summary_markup (feed_item);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *title = new_label (NULL);
  GtkWidget *details_label = new_label ("dim-label");

  g_object_set (box, "margin-start", 18, "margin-end", 18, "margin-top", 12, "margin-bottom", 12, NULL);
  show_title (GTK_LABEL (title), headline);
  gtk_container_add (GTK_CONTAINER (box), title);

  gtk_label_set_text (GTK_LABEL (details_label), details);
  gtk_widget_set_visible (details_label, *details != '\0');
  gtk_container_add (GTK_CONTAINER (box), details_label);

  if (*summary != '\0')
    add_summary (self, GTK_CONTAINER (box), summary);

  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_widget_show (box);
  gtk_widget_set_sensitive (row, lwn_headline_get_url (headline) != NULL);
  g_object_set_data_full (G_OBJECT (row), "lwn-headline", g_object_ref (headline), g_object_unref);
  g_object_set_data (G_OBJECT (row), "lwn-title", title);
  g_object_set_data_full (G_OBJECT (row), "lwn-details", g_steal_pointer (&details), g_free);
  describe_row (row, headline, g_object_get_data (G_OBJECT (row), "lwn-details"));
  g_signal_connect_object (headline, "notify::unread", G_CALLBACK (headline_unread_changed_cb), row, 0);
  return row;
}

static void
row_activated_cb (GtkListBox *list_box,
                  GtkListBoxRow *row,
                  LwnHeadlinesWindow *self)
{
  LwnHeadline *headline = g_object_get_data (G_OBJECT (row), "lwn-headline");

  activate_app_action (self, "open-headline", g_variant_new_string (lwn_headline_get_id (headline)));
}

/* Appends up to @count more rows; returns whether some are left. */
static gboolean
fill_rows (LwnHeadlinesWindow *self,
           guint count)
{
  GListModel *headlines = lwn_reader_get_headlines (self->reader);
  guint n = g_list_model_get_n_items (headlines);
  guint end = MIN (n, self->next_row + count);
  g_autoptr (GPtrArray) chunk = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = self->next_row; i < end; i++)
    g_ptr_array_add (chunk, g_list_model_get_item (headlines, i));
  g_list_store_splice (self->rows, self->next_row, 0, chunk->pdata, chunk->len);
  self->next_row = end;
  return end < n;
}

static gboolean
fill_idle_cb (gpointer user_data)
{
  LwnHeadlinesWindow *self = user_data;

  if (fill_rows (self, ROWS_PER_CHUNK))
    return G_SOURCE_CONTINUE;

  self->fill_id = 0;
  return G_SOURCE_REMOVE;
}

static void
rebuild_rows (LwnHeadlinesWindow *self)
{
  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_list_store_remove_all (self->rows);
  self->next_row = 0;
  /* Below GTK's drawing and input priorities, so the window answers between chunks. */
  if (fill_rows (self, FIRST_ROWS))
    self->fill_id = g_idle_add_full (G_PRIORITY_LOW, fill_idle_cb, self, NULL);
}

static void
headlines_changed_cb (GListModel *headlines,
                      guint position,
                      guint removed,
                      guint added,
                      LwnHeadlinesWindow *self)
{
  rebuild_rows (self);
}

static void
show_state (LwnHeadlinesWindow *self)
{
  LwnReaderState state = lwn_reader_get_state (self->reader);
  gboolean refreshing = lwn_reader_get_refreshing (self->reader);
  g_autofree char *site = lwn_reader_dup_site_name (self->reader);
  const char *page = state == LWN_READER_STATE_READY ? "headlines" : state == LWN_READER_STATE_FAILED ? "error"
                                                                                                      : "loading";
  g_autofree char *title = NULL;

  gtk_header_bar_set_title (self->header_bar, site);
  /* Translators: the window's title, for window switchers and screen readers; %s is the feed's name. */
  title = g_strdup_printf (_ ("Headlines — %s"), site);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_header_bar_set_subtitle (self->header_bar, lwn_reader_get_status (self->reader));

  if (state == LWN_READER_STATE_FAILED)
    {
      gtk_label_set_text (self->error_label, lwn_reader_get_error (self->reader));
      atk_object_set_description (gtk_widget_get_accessible (self->error_page), lwn_reader_get_error (self->reader));
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
}

static void
reader_changed_cb (LwnReader *reader,
                   LwnHeadlinesWindow *self)
{
  show_state (self);
}

/* A key binding, not an application accelerator: those run before the
 * focused widget, so Escape would close the window under an open menu. */
static void
lwn_headlines_window_close (LwnHeadlinesWindow *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

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
  if (!has_key (self->settings, "headlines-window-width"))
    return;

  self->width = g_settings_get_int (self->settings, "headlines-window-width");
  self->height = g_settings_get_int (self->settings, "headlines-window-height");
  self->maximized = g_settings_get_boolean (self->settings, "headlines-window-maximized");
  /* -1, never saved, keeps the template's size: the natural size of a
   * scrolled list is a few lines high. */
  if (self->width > 0 && self->height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), self->width, self->height);
  if (self->maximized)
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
save_size (LwnHeadlinesWindow *self)
{
  if (!has_key (self->settings, "headlines-window-width") || self->width <= 0)
    return;

  g_settings_set_int (self->settings, "headlines-window-width", self->width);
  g_settings_set_int (self->settings, "headlines-window-height", self->height);
  g_settings_set_boolean (self->settings, "headlines-window-maximized", self->maximized);
}

static void
lwn_headlines_window_size_allocate (GtkWidget *widget,
                                    GtkAllocation *allocation)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);

  GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->size_allocate (widget, allocation);
  /* The unmaximized size is the one to come back to. */
  if (!self->maximized)
    gtk_window_get_size (GTK_WINDOW (self), &self->width, &self->height);
}

static gboolean
lwn_headlines_window_window_state_event (GtkWidget *widget,
                                         GdkEventWindowState *event)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);

  self->maximized = (event->new_window_state & GDK_WINDOW_STATE_MAXIMIZED) != 0;
  return GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->window_state_event (widget, event);
}

static void
lwn_headlines_window_destroy (GtkWidget *widget)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (widget);

  if (self->reader != NULL)
    {
      save_size (self);
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_signal_handlers_disconnect_by_data (lwn_reader_get_headlines (self->reader), self);
    }
  g_clear_handle_id (&self->fill_id, g_source_remove);

  GTK_WIDGET_CLASS (lwn_headlines_window_parent_class)->destroy (widget);
}

static void
lwn_headlines_window_dispose (GObject *object)
{
  LwnHeadlinesWindow *self = LWN_HEADLINES_WINDOW (object);

  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_clear_object (&self->reader);
  g_clear_object (&self->settings);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (lwn_headlines_window_parent_class)->dispose (object);
}

static void
lwn_headlines_window_class_init (LwnHeadlinesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkBindingSet *binding_set;

  object_class->dispose = lwn_headlines_window_dispose;
  widget_class->destroy = lwn_headlines_window_destroy;
  widget_class->size_allocate = lwn_headlines_window_size_allocate;
  widget_class->window_state_event = lwn_headlines_window_window_state_event;

  /**
   * LwnHeadlinesWindow::close:
   *
   * A keybinding signal (Escape, Ctrl+W) that closes the window.
   */
  g_signal_new_class_handler ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                              G_CALLBACK (lwn_headlines_window_close), NULL, NULL, NULL, G_TYPE_NONE, 0);
  binding_set = gtk_binding_set_by_class (klass);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_Escape, 0, "close", 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_w, GDK_CONTROL_MASK, "close", 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-headlines-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, refresh_stack);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, refresh_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LwnHeadlinesWindow, list_box);
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

static void
lwn_headlines_window_init (LwnHeadlinesWindow *self)
{
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));
  add_window_css (GTK_WIDGET (self));

  /* Screen readers announce these when they appear. */
  atk_object_set_role (gtk_widget_get_accessible (self->error_page), ATK_ROLE_ALERT);
  atk_object_set_name (gtk_widget_get_accessible (self->error_page), _ ("Could not load headlines"));
  atk_object_set_role (gtk_widget_get_accessible (self->loading_page), ATK_ROLE_NOTIFICATION);
  atk_object_set_name (gtk_widget_get_accessible (self->loading_page), _ ("Loading headlines…"));

  placeholder = gtk_label_new (_ ("No headlines"));
  gtk_style_context_add_class (gtk_widget_get_style_context (placeholder), "dim-label");
  gtk_widget_show (placeholder);
  gtk_list_box_set_placeholder (self->list_box, placeholder);
  g_signal_connect (self->list_box, "row-activated", G_CALLBACK (row_activated_cb), self);

  self->rows = g_list_store_new (LWN_TYPE_HEADLINE);
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->rows), create_row_cb, self, NULL);
}

/**
 * lwn_headlines_window_new:
 * @application: the application, whose actions the window's commands are
 * @reader: the reading model to show
 * @settings: (nullable): where the window's size is kept
 *
 * Returns: (transfer full): a new window, not shown yet
 */
LwnHeadlinesWindow *
lwn_headlines_window_new (GtkApplication *application,
                          LwnReader *reader,
                          GSettings *settings)
{
  LwnHeadlinesWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (LWN_IS_READER (reader), NULL);

  self = g_object_new (LWN_TYPE_HEADLINES_WINDOW, "application", application, NULL);
  self->reader = g_object_ref (reader);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  restore_size (self);

  g_signal_connect (reader, "changed", G_CALLBACK (reader_changed_cb), self);
  g_signal_connect (lwn_reader_get_headlines (reader), "items-changed", G_CALLBACK (headlines_changed_cb), self);
  rebuild_rows (self);
  show_state (self);
  return self;
}
