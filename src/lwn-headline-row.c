/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnHeadlineRow shows a headline's title (bold while unread), details line and summary, and draws quotes as
 * blocks. For a subscriber-only article that is not free yet, the row adds a "Remind Me When Free" toggle, which
 * the row's context menu offers too. The same widget follows the headline across refreshes, so that focus and
 * screen readers stay with it. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-headline-row.h"
#include "lwn-text.h"
#include "lwn-url.h"

/* GTK finds the least width of a wrapped label by laying the text out as
 * narrow as it goes. For a long summary, that means one word a line and
 * milliseconds of shaping per label. A floor of this many characters makes
 * the layout a few times faster, and its only other effect is that the
 * window cannot be made narrower than a column of text. */
#define LABEL_MIN_CHARS 20

struct _LwnHeadlineRow
{
  GtkListBoxRow parent_instance;

  LwnHeadline *headline;
  gulong unread_id;
  gulong reminder_id;
  guint position;
  char *details;
  char *source;        /* the feed's name, when the list shows several feeds' headlines */
  gboolean subscriber; /* a subscriber sees no reminders and no "free on" day */
  gboolean free_later; /* a subscriber-only article that was not free yet when last looked at */
  gboolean syncing;    /* the toggles are being set from the headline */

  LwnSearchQuery *query; /* the search whose matches the title shows, or NULL */

  GtkWidget *box;
  GtkLabel *title;
  GtkLabel *details_label;
  GtkToggleButton *remind_button;
  GtkWidget *menu; /* the context menu, made when first asked for */
  GtkCheckMenuItem *remind_item;
};

G_DEFINE_FINAL_TYPE (LwnHeadlineRow, lwn_headline_row, GTK_TYPE_LIST_BOX_ROW)

static gboolean
summary_activate_link_cb (GtkLabel *label,
                          const char *uri,
                          LwnHeadlineRow *self)
{
  /* GTK looks in the row's ancestors too. */
  GActionGroup *actions = gtk_widget_get_action_group (GTK_WIDGET (self), LWN_HEADLINE_ROW_ACTIONS);

  /* The row handles every link itself, because GTK's own handler would open
   * any scheme. */
  if (actions != NULL && lwn_url_is_launchable (uri))
    g_action_group_activate_action (actions, "open-link", g_variant_new_string (uri));
  return TRUE;
}

/* Gives screen readers what a sighted person reads first as the name, and
 * the rest as the description. Each is set only when it changes, because
 * each change is an event for a screen reader. */
static void
describe (LwnHeadlineRow *self)
{
  AtkObject *accessible = gtk_widget_get_accessible (GTK_WIDGET (self));
  const char *title = lwn_headline_get_title (self->headline);
  const char *summary = lwn_feed_item_get_summary (lwn_headline_get_item (self->headline));
  g_autofree char *name = NULL;
  g_autofree char *description = NULL;

  /* Translators: the name a screen reader gives an unread headline. */
  name = lwn_headline_get_unread (self->headline) ? g_strdup_printf (_ ("%s, unread"), title) : g_strdup (title);
  if (g_strcmp0 (atk_object_get_name (accessible), name) != 0)
    atk_object_set_name (accessible, name);

  if (*self->details != '\0' && *summary != '\0')
    description = g_strdup_printf ("%s. %s", self->details, summary);
  else
    description = g_strconcat (self->details, summary, NULL);
  if (g_strcmp0 (atk_object_get_description (accessible), description) != 0)
    atk_object_set_description (accessible, description);
}

/* The details line: the headline's own, and after them its feed's name when
 * headlines of several feeds share the list. */
static char *
dup_details (LwnHeadlineRow *self,
             LwnHeadline *headline,
             GDateTime *now)
{
  g_autofree char *details = lwn_headline_dup_details (headline, now, self->subscriber);

  if (self->source == NULL)
    return g_steal_pointer (&details);
  if (*details == '\0')
    return g_strdup (self->source);
  /* The separator of the details' own parts (lwn_headline_dup_details()). */
  return g_strconcat (details, _ (" · "), self->source, NULL);
}

static void
show_title (LwnHeadlineRow *self)
{
  const char *title = lwn_headline_get_title (self->headline);
  g_autofree char *escaped = self->query != NULL && !lwn_search_query_is_empty (self->query)
                                 ? lwn_search_query_highlight (self->query, title)
                                 : lwn_text_escape_markup (title);
  g_autofree char *markup = lwn_headline_get_unread (self->headline) ? g_strdup_printf ("<b>%s</b>", escaped)
                                                                     : g_strdup (escaped);

  /* The next letter of a search often leaves a title as it was, and then the
   * label needs no new layout. */
  if (g_strcmp0 (gtk_label_get_label (self->title), markup) != 0)
    gtk_label_set_markup (self->title, markup);
}

static void
headline_unread_changed_cb (LwnHeadline *headline,
                            GParamSpec *pspec,
                            LwnHeadlineRow *self)
{
  show_title (self);
  describe (self);
}

/* Reminders ------------------------------------------------------------------ */

static gboolean
can_remind (LwnHeadlineRow *self)
{
  return self->free_later && !self->subscriber;
}

/* The toggles show what the reading model holds. */
static void
show_reminder (LwnHeadlineRow *self)
{
  gboolean reminder = lwn_headline_get_reminder (self->headline);

  self->syncing = TRUE;
  if (self->remind_button != NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->remind_button), can_remind (self));
      gtk_toggle_button_set_active (self->remind_button, reminder);
      /* Translators: a toggle button on a subscriber-only headline, on and off. */
      gtk_button_set_label (GTK_BUTTON (self->remind_button), reminder ? _ ("Reminder Set") : _ ("Remind Me When Free"));
    }
  if (self->remind_item != NULL)
    gtk_check_menu_item_set_active (self->remind_item, reminder);
  self->syncing = FALSE;
}

/* Sends the request to the window's "set-reminder" action, which the reading
 * model serves. The toggles then show what the model made of the request. */
static void
request_reminder (LwnHeadlineRow *self,
                  gboolean remind)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));

  if (G_IS_ACTION_GROUP (toplevel))
    g_action_group_activate_action (G_ACTION_GROUP (toplevel), "set-reminder",
                                    g_variant_new ("(ssb)", lwn_headline_get_feed (self->headline),
                                                   lwn_headline_get_id (self->headline), remind));
  show_reminder (self);
}

static void
remind_button_toggled_cb (GtkToggleButton *button,
                          LwnHeadlineRow *self)
{
  if (!self->syncing)
    request_reminder (self, gtk_toggle_button_get_active (button));
}

static void
remind_item_toggled_cb (GtkCheckMenuItem *item,
                        LwnHeadlineRow *self)
{
  if (!self->syncing)
    request_reminder (self, gtk_check_menu_item_get_active (item));
}

static void
headline_reminder_changed_cb (LwnHeadline *headline,
                              GParamSpec *pspec,
                              LwnHeadlineRow *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  /* When a reminder goes because it was due, the toggle goes with it at once,
   * rather than at the next tick that updates the ages. */
  self->free_later = lwn_headline_is_free_later (headline, now);
  show_reminder (self);
}

static GtkWidget *
new_remind_button (LwnHeadlineRow *self)
{
  GtkWidget *button = gtk_toggle_button_new ();

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _ ("Get a notification when this article is free to read"));
  g_signal_connect_object (button, "toggled", G_CALLBACK (remind_button_toggled_cb), self, 0);
  return button;
}

static void
ensure_menu (LwnHeadlineRow *self)
{
  GtkWidget *item;

  if (self->menu != NULL)
    return;

  self->menu = gtk_menu_new ();
  gtk_menu_attach_to_widget (GTK_MENU (self->menu), GTK_WIDGET (self), NULL);
  item = gtk_check_menu_item_new_with_label (_ ("Remind Me When Free"));
  self->remind_item = GTK_CHECK_MENU_ITEM (item);
  g_signal_connect_object (item, "toggled", G_CALLBACK (remind_item_toggled_cb), self, 0);
  gtk_widget_show (item);
  gtk_menu_shell_append (GTK_MENU_SHELL (self->menu), item);
}

/**
 * lwn_headline_row_popup_menu:
 * @self: a #LwnHeadlineRow
 * @event: (nullable): the click that asks for it, or %NULL for the keyboard
 *
 * Opens the row's context menu, at the pointer for a click and under the row
 * for the keyboard (Shift+F10, the Menu key). Only a headline that can have
 * a reminder has one.
 *
 * Returns: %TRUE if the menu opened
 */
gboolean
lwn_headline_row_popup_menu (LwnHeadlineRow *self,
                             const GdkEvent *event)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_ROW (self), FALSE);

  if (!can_remind (self))
    return FALSE;

  ensure_menu (self);
  show_reminder (self);
  if (event != NULL)
    gtk_menu_popup_at_pointer (GTK_MENU (self->menu), event);
  else
    gtk_menu_popup_at_widget (GTK_MENU (self->menu), GTK_WIDGET (self), GDK_GRAVITY_SOUTH_WEST,
                              GDK_GRAVITY_NORTH_WEST, NULL);
  gtk_menu_shell_select_first (GTK_MENU_SHELL (self->menu), FALSE);
  return TRUE;
}

static gboolean
lwn_headline_row_popup_menu_vfunc (GtkWidget *widget)
{
  return lwn_headline_row_popup_menu (LWN_HEADLINE_ROW (widget), NULL);
}

/* Building --------------------------------------------------------------------- */

static GtkWidget *
new_label (const char *style_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), LABEL_MIN_CHARS);
  if (style_class != NULL)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), style_class);
  gtk_widget_show (label);
  return label;
}

static void
add_summary_block (LwnHeadlineRow *self,
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

  /* Each level gets a box, so that a quote in a quote has a rule of its own. */
  for (guint i = 0; i < depth; i++)
    {
      GtkWidget *quote = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      gtk_style_context_add_class (gtk_widget_get_style_context (quote), "lwn-quote");
      gtk_container_add (GTK_CONTAINER (quote), child);
      gtk_widget_show (quote);
      child = quote;
    }
  /* The margin is about the height of the blank line that sets paragraphs
   * apart inside a label. */
  if (new_paragraph)
    gtk_widget_set_margin_top (child, 12);
  gtk_container_add (box, child);
}

/* A label marks only the first line of a wrapped paragraph with
 * LWN_TEXT_QUOTE_PREFIX, so the row draws quotes as blocks instead. */
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

/* Tells whether @markup is well-formed on its own. GMarkup checks it because
 * the tags are the converter's, and pango_parse_markup() would refuse the
 * links that a GtkLabel takes out first. */
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

/* Splits the summary into blocks: the running text, and each block quote
 * with its depth but without the quote's line markers. It returns FALSE if a
 * block is not well-formed markup on its own; lwn_text_markup_from_html()
 * rules that out by closing every tag before a line break. */
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
add_summary (LwnHeadlineRow *self,
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

/* Builds a new box with the title, details and summary of the current headline. */
static void
build (LwnHeadlineRow *self)
{
  const char *summary = lwn_feed_item_get_summary_markup (lwn_headline_get_item (self->headline));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *details_box;

  if (self->box != NULL)
    gtk_widget_destroy (self->box);
  self->box = box;
  self->remind_button = NULL;

  g_object_set (box, "margin-start", 18, "margin-end", 18, "margin-top", 12, "margin-bottom", 12, NULL);
  self->title = GTK_LABEL (new_label (NULL));
  show_title (self);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->title));

  self->details_label = GTK_LABEL (new_label ("dim-label"));
  gtk_label_set_text (self->details_label, self->details);
  gtk_widget_set_visible (GTK_WIDGET (self->details_label), *self->details != '\0');
  /* Only an article that becomes free later can have a reminder. The other
   * rows, which are most of them, cost no toggle, because the present only
   * moves on and they will never need one. */
  if (!self->free_later)
    gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->details_label));
  else
    {
      /* The toggle ends the details line, and comes before the summary's
       * links when Tab enters the row. */
      details_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      gtk_widget_set_hexpand (GTK_WIDGET (self->details_label), TRUE);
      gtk_container_add (GTK_CONTAINER (details_box), GTK_WIDGET (self->details_label));
      self->remind_button = GTK_TOGGLE_BUTTON (new_remind_button (self));
      gtk_container_add (GTK_CONTAINER (details_box), GTK_WIDGET (self->remind_button));
      show_reminder (self);
      gtk_widget_show (details_box);
      gtk_container_add (GTK_CONTAINER (box), details_box);
    }

  if (*summary != '\0')
    add_summary (self, GTK_CONTAINER (box), summary);

  gtk_container_add (GTK_CONTAINER (self), box);
  gtk_widget_show (box);
  gtk_widget_set_sensitive (GTK_WIDGET (self), lwn_headline_get_url (self->headline) != NULL);
}

/* Tells whether the two headlines show the same, comparing everything but
 * the read mark. */
static gboolean
same_item (LwnFeedItem *a,
           LwnFeedItem *b)
{
  GDateTime *date_a = lwn_feed_item_get_date (a);
  GDateTime *date_b = lwn_feed_item_get_date (b);

  if (a == b)
    return TRUE;
  return g_strcmp0 (lwn_feed_item_get_title (a), lwn_feed_item_get_title (b)) == 0
         && g_strcmp0 (lwn_feed_item_get_url (a), lwn_feed_item_get_url (b)) == 0
         && g_strcmp0 (lwn_feed_item_get_author (a), lwn_feed_item_get_author (b)) == 0
         && g_strcmp0 (lwn_feed_item_get_description (a), lwn_feed_item_get_description (b)) == 0
         && lwn_feed_item_get_paywalled (a) == lwn_feed_item_get_paywalled (b)
         && (date_a == NULL ? date_b == NULL : date_b != NULL && g_date_time_equal (date_a, date_b));
}

static void
watch_headline (LwnHeadlineRow *self,
                LwnHeadline *headline)
{
  if (self->headline != NULL)
    {
      g_clear_signal_handler (&self->unread_id, self->headline);
      g_clear_signal_handler (&self->reminder_id, self->headline);
    }
  g_set_object (&self->headline, headline);
  if (headline != NULL)
    {
      self->unread_id = g_signal_connect_object (headline, "notify::unread", G_CALLBACK (headline_unread_changed_cb),
                                                 self, 0);
      self->reminder_id = g_signal_connect_object (headline, "notify::reminder",
                                                   G_CALLBACK (headline_reminder_changed_cb), self, 0);
    }
}

static void
lwn_headline_row_dispose (GObject *object)
{
  LwnHeadlineRow *self = LWN_HEADLINE_ROW (object);

  watch_headline (self, NULL);
  self->box = NULL;
  self->remind_button = NULL;
  /* The menu is attached to the row, not a child of it, so it would outlive
   * the row unless it is destroyed here. */
  if (self->menu != NULL)
    gtk_widget_destroy (g_steal_pointer (&self->menu));
  self->remind_item = NULL;

  G_OBJECT_CLASS (lwn_headline_row_parent_class)->dispose (object);
}

static void
lwn_headline_row_finalize (GObject *object)
{
  LwnHeadlineRow *self = LWN_HEADLINE_ROW (object);

  g_free (self->details);
  g_free (self->source);
  g_clear_pointer (&self->query, lwn_search_query_unref);

  G_OBJECT_CLASS (lwn_headline_row_parent_class)->finalize (object);
}

static void
lwn_headline_row_class_init (LwnHeadlineRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_headline_row_dispose;
  object_class->finalize = lwn_headline_row_finalize;
  GTK_WIDGET_CLASS (klass)->popup_menu = lwn_headline_row_popup_menu_vfunc;
}

static void
lwn_headline_row_init (LwnHeadlineRow *self)
{
  self->details = g_strdup ("");
}

/**
 * lwn_headline_row_new:
 * @headline: the headline to show
 * @position: where it is in the reader's headlines, for sorting
 * @source: (nullable): its feed's name, shown after its details where
 *   several feeds' headlines share the list (see lwn_headline_row_set_source())
 * @now: the present, for the headline's age
 *
 * Returns: (transfer floating): a new row, shown
 */
LwnHeadlineRow *
lwn_headline_row_new (LwnHeadline *headline,
                      guint position,
                      const char *source,
                      GDateTime *now)
{
  LwnHeadlineRow *self;

  g_return_val_if_fail (LWN_IS_HEADLINE (headline), NULL);

  self = g_object_new (LWN_TYPE_HEADLINE_ROW, NULL);
  self->position = position;
  self->source = g_strdup (source);
  watch_headline (self, headline);
  g_free (self->details);
  self->details = dup_details (self, headline, now);
  self->free_later = lwn_headline_is_free_later (headline, now);
  build (self);
  describe (self);
  gtk_widget_show (GTK_WIDGET (self));
  return self;
}

LwnHeadline *
lwn_headline_row_get_headline (LwnHeadlineRow *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_ROW (self), NULL);

  return self->headline;
}

/**
 * lwn_headline_row_set_headline:
 * @self: a #LwnHeadlineRow
 * @headline: the headline with the same id in a newer feed
 * @now: the present, for the headline's age
 *
 * Makes the row follow @headline from now on. Only what differs changes:
 * the title changes for a read mark, and the whole content changes if the
 * item was edited. The row itself stays, and so does the focus.
 */
void
lwn_headline_row_set_headline (LwnHeadlineRow *self,
                               LwnHeadline *headline,
                               GDateTime *now)
{
  gboolean was_unread;
  gboolean same;

  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));
  g_return_if_fail (LWN_IS_HEADLINE (headline));

  if (headline == self->headline)
    return;

  was_unread = lwn_headline_get_unread (self->headline);
  same = same_item (lwn_headline_get_item (self->headline), lwn_headline_get_item (headline));
  watch_headline (self, headline);
  if (!same)
    {
      g_free (self->details);
      self->details = dup_details (self, headline, now);
      self->free_later = lwn_headline_is_free_later (headline, now);
      build (self);
      describe (self);
      return;
    }
  if (was_unread != lwn_headline_get_unread (headline))
    show_title (self);
  show_reminder (self);
  lwn_headline_row_update_age (self, now);
  describe (self);
}

guint
lwn_headline_row_get_position (LwnHeadlineRow *self)
{
  g_return_val_if_fail (LWN_IS_HEADLINE_ROW (self), 0);

  return self->position;
}

void
lwn_headline_row_set_position (LwnHeadlineRow *self,
                               guint position)
{
  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));

  self->position = position;
}

/**
 * lwn_headline_row_update_age:
 * @self: a #LwnHeadlineRow
 * @now: the present
 *
 * Brings the details line ("3 hours ago · …") up to @now, touching the label
 * only if its text changes, and takes the reminder toggle away once the
 * article is free.
 */
void
lwn_headline_row_update_age (LwnHeadlineRow *self,
                             GDateTime *now)
{
  g_autofree char *details = NULL;
  gboolean free_later;

  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));

  free_later = lwn_headline_is_free_later (self->headline, now);
  if (free_later != self->free_later)
    {
      self->free_later = free_later;
      show_reminder (self);
    }

  details = dup_details (self, self->headline, now);
  if (strcmp (details, self->details) == 0)
    return;

  g_free (self->details);
  self->details = g_steal_pointer (&details);
  gtk_label_set_text (self->details_label, self->details);
  gtk_widget_set_visible (GTK_WIDGET (self->details_label), *self->details != '\0');
  describe (self);
}

/**
 * lwn_headline_row_set_query:
 * @query: (nullable): the search whose matches the title shows, or %NULL
 */
void
lwn_headline_row_set_query (LwnHeadlineRow *self,
                            LwnSearchQuery *query)
{
  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));

  if (query == self->query)
    return;
  g_clear_pointer (&self->query, lwn_search_query_unref);
  self->query = query != NULL ? lwn_search_query_ref (query) : NULL;
  show_title (self);
}

/**
 * lwn_headline_row_set_subscriber:
 * @self: a #LwnHeadlineRow
 * @subscriber: whether the person subscribes to LWN
 * @now: the present
 *
 * A subscriber reads every article at once: subscriber-only headlines show
 * no reminder toggle and no day they become free.
 */
void
lwn_headline_row_set_subscriber (LwnHeadlineRow *self,
                                 gboolean subscriber,
                                 GDateTime *now)
{
  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));

  subscriber = !!subscriber;
  if (subscriber == self->subscriber)
    return;

  self->subscriber = subscriber;
  if (self->menu != NULL)
    gtk_menu_shell_deactivate (GTK_MENU_SHELL (self->menu));
  show_reminder (self);
  lwn_headline_row_update_age (self, now);
}

/**
 * lwn_headline_row_set_source:
 * @self: a #LwnHeadlineRow
 * @source: (nullable): the name of the headline's feed, shown after its
 *   details, or %NULL to show none
 * @now: the present, for the headline's age
 *
 * Names the feed of a row in a list that holds several feeds' headlines.
 */
void
lwn_headline_row_set_source (LwnHeadlineRow *self,
                             const char *source,
                             GDateTime *now)
{
  g_return_if_fail (LWN_IS_HEADLINE_ROW (self));

  if (g_strcmp0 (source, self->source) == 0)
    return;
  g_free (self->source);
  self->source = g_strdup (source);
  lwn_headline_row_update_age (self, now);
}
