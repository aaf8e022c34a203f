/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnFeedRow shows one followed feed in the preferences. The feeds editor makes a row once for each address
 * and updates it in place when the feed's name, switch or place changes, so that the focus, the selection and
 * what a screen reader has found stay with the feed. The row changes nothing itself: its buttons and switch
 * activate the editor's actions (LWN_FEED_ROW_ACTIONS) with the feed's address. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-feed-row.h"
#include "lwn-settings-row.h"
#include "lwn-url.h"

struct _LwnFeedRow
{
  GtkListBoxRow parent_instance;

  char *url;
  char *name;   /* as the settings give it, "" for none */
  char *title;  /* what the row shows: the name, or the address's host */
  char *folded; /* title and address as a search compares them, made when first searched */
  guint position;
  guint n_feeds;
  gboolean selecting;
  gboolean syncing; /* the switch is being set from the settings */

  GtkWidget *box;
  GtkToggleButton *check;
  GtkLabel *title_label;
  GtkLabel *subtitle;
  GtkSwitch *notify_switch;
  GtkWidget *up_button;
  GtkWidget *down_button;
  GtkWidget *remove_button;
};

G_DEFINE_FINAL_TYPE (LwnFeedRow, lwn_feed_row, GTK_TYPE_LIST_BOX_ROW)

enum
{
  PROP_0,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_accessible_name (GtkWidget *widget,
                     const char *name)
{
  atk_object_set_name (gtk_widget_get_accessible (widget), name);
}

/* Every control is named after the feed, so that a screen reader that lands
 * on a switch among two hundred says whose it is. */
static void
name_controls (LwnFeedRow *self)
{
  /* Translators: the accessible names of a feed's controls in the preferences; %s is the feed's name. */
  g_autofree char *notify_name = g_strdup_printf (_ ("Notifications from %s"), self->title);
  g_autofree char *up_name = g_strdup_printf (_ ("Move %s up"), self->title);
  g_autofree char *down_name = g_strdup_printf (_ ("Move %s down"), self->title);
  g_autofree char *remove_name = g_strdup_printf (_ ("Remove %s"), self->title);
  g_autofree char *select_name = g_strdup_printf (_ ("Select %s"), self->title);

  set_accessible_name (GTK_WIDGET (self), self->title);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self)), self->url);
  set_accessible_name (GTK_WIDGET (self->notify_switch), notify_name);
  set_accessible_name (self->up_button, up_name);
  set_accessible_name (self->down_button, down_name);
  set_accessible_name (self->remove_button, remove_name);
  set_accessible_name (GTK_WIDGET (self->check), select_name);
}

static void
check_toggled_cb (GtkToggleButton *check,
                  LwnFeedRow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
switch_active_cb (GtkSwitch *control,
                  GParamSpec *pspec,
                  LwnFeedRow *self)
{
  GActionGroup *actions;

  if (self->syncing)
    return;
  actions = gtk_widget_get_action_group (GTK_WIDGET (self), LWN_FEED_ROW_ACTIONS);
  if (actions != NULL)
    g_action_group_activate_action (actions, "set-notify", g_variant_new ("(sb)", self->url, gtk_switch_get_active (control)));
}

/* Only rows that are being selected do anything when clicked: the click
 * ticks their box. */
static void
update_activatable (LwnFeedRow *self)
{
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (self), self->selecting && gtk_widget_get_sensitive (self->box));
}

/**
 * lwn_feed_row_new:
 * @url: the feed's address, which the row stands for as long as it lives
 *
 * Returns: (transfer full): a row showing the host of @url until
 *   lwn_feed_row_set_name() names it
 */
LwnFeedRow *
lwn_feed_row_new (const char *url)
{
  LwnFeedRow *self;
  GVariant *target;

  g_return_val_if_fail (url != NULL, NULL);

  self = g_object_new (LWN_TYPE_FEED_ROW, NULL);
  self->url = g_strdup (url);
  target = g_variant_ref_sink (g_variant_new_string (url));
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->up_button), target);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->down_button), target);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->remove_button), target);
  g_variant_unref (target);
  gtk_label_set_text (self->subtitle, url);
  lwn_feed_row_set_name (self, "");
  return self;
}

const char *
lwn_feed_row_get_url (LwnFeedRow *self)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), NULL);

  return self->url;
}

/**
 * lwn_feed_row_get_title:
 *
 * Returns: what the row calls the feed: its name, or its address's host
 */
const char *
lwn_feed_row_get_title (LwnFeedRow *self)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), NULL);

  return self->title;
}

/**
 * lwn_feed_row_set_name:
 * @name: the name the settings give the feed; "" for none, when the row
 *   shows the address's host
 */
void
lwn_feed_row_set_name (LwnFeedRow *self,
                       const char *name)
{
  g_autofree char *host = NULL;

  g_return_if_fail (LWN_IS_FEED_ROW (self));
  g_return_if_fail (name != NULL);

  if (self->title != NULL && g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_free (self->title);
  if (*name != '\0')
    self->title = g_strdup (name);
  else
    {
      host = lwn_url_dup_host (self->url);
      self->title = g_strdup (host != NULL ? host : self->url);
    }
  g_clear_pointer (&self->folded, g_free);
  gtk_label_set_text (self->title_label, self->title);
  name_controls (self);
}

void
lwn_feed_row_set_notify (LwnFeedRow *self,
                         gboolean notify)
{
  g_return_if_fail (LWN_IS_FEED_ROW (self));

  self->syncing = TRUE;
  gtk_switch_set_active (self->notify_switch, notify);
  self->syncing = FALSE;
}

guint
lwn_feed_row_get_position (LwnFeedRow *self)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), 0);

  return self->position;
}

/* A button bound to an action takes its sensitivity from the action
 * whenever the action group appears or changes, which would undo an
 * insensitive end of the list: the button is bound only when it can act,
 * and the editor's action then says whether the list is locked. */
static void
bind_button (GtkWidget *button,
             const char *action,
             gboolean can_act)
{
  g_autofree char *name = g_strconcat (LWN_FEED_ROW_ACTIONS, ".", action, NULL);

  if (!can_act)
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), NULL);
      gtk_widget_set_sensitive (button, FALSE);
    }
  else if (g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), name) != 0)
    gtk_actionable_set_action_name (GTK_ACTIONABLE (button), name);
}

/**
 * lwn_feed_row_set_position:
 * @position: the feed's place in the list
 * @n_feeds: how many feeds the list holds
 *
 * The list sorts its rows by position. The first row cannot move up, the
 * last cannot move down, and the only feed cannot be removed: an applet
 * that follows nothing would be an icon that never changes.
 */
void
lwn_feed_row_set_position (LwnFeedRow *self,
                           guint position,
                           guint n_feeds)
{
  g_return_if_fail (LWN_IS_FEED_ROW (self));

  self->position = position;
  self->n_feeds = n_feeds;
  bind_button (self->up_button, "move-up", position > 0);
  bind_button (self->down_button, "move-down", position + 1 < n_feeds);
  bind_button (self->remove_button, "remove", n_feeds > 1);
}

/**
 * lwn_feed_row_set_editable:
 * @editable: %FALSE while the command line sets the feeds for this run
 */
void
lwn_feed_row_set_editable (LwnFeedRow *self,
                           gboolean editable)
{
  g_return_if_fail (LWN_IS_FEED_ROW (self));

  gtk_widget_set_sensitive (self->box, editable);
  update_activatable (self);
}

/**
 * lwn_feed_row_set_selecting:
 * @selecting: whether feeds are being selected, which shows the row's
 *   check box in place of its buttons; leaving unticks it
 */
void
lwn_feed_row_set_selecting (LwnFeedRow *self,
                            gboolean selecting)
{
  g_return_if_fail (LWN_IS_FEED_ROW (self));

  if (self->selecting == selecting)
    return;
  self->selecting = selecting;
  if (!selecting)
    lwn_feed_row_set_selected (self, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->check), selecting);
  gtk_widget_set_visible (self->up_button, !selecting);
  gtk_widget_set_visible (self->down_button, !selecting);
  gtk_widget_set_visible (self->remove_button, !selecting);
  update_activatable (self);
}

gboolean
lwn_feed_row_get_selected (LwnFeedRow *self)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), FALSE);

  return gtk_toggle_button_get_active (self->check);
}

void
lwn_feed_row_set_selected (LwnFeedRow *self,
                           gboolean selected)
{
  g_return_if_fail (LWN_IS_FEED_ROW (self));

  gtk_toggle_button_set_active (self->check, selected);
}

/**
 * lwn_feed_row_matches:
 * @query: a search
 *
 * Returns: whether the feed's name or address has every word of @query,
 *   case and accents set aside
 */
gboolean
lwn_feed_row_matches (LwnFeedRow *self,
                      const LwnSearchQuery *query)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);

  if (lwn_search_query_is_empty (query))
    return TRUE;
  if (self->folded == NULL)
    {
      g_autofree char *text = g_strconcat (self->title, "\n", self->url, NULL);

      self->folded = lwn_search_fold (text);
    }
  return lwn_search_query_matches (query, self->folded);
}

/**
 * lwn_feed_row_get_control:
 *
 * Returns: (transfer none): one of the row's controls, for the editor to
 *   give the focus to
 */
GtkWidget *
lwn_feed_row_get_control (LwnFeedRow *self,
                          LwnFeedRowControl control)
{
  g_return_val_if_fail (LWN_IS_FEED_ROW (self), NULL);

  switch (control)
    {
      case LWN_FEED_ROW_SWITCH:
        return GTK_WIDGET (self->notify_switch);
      case LWN_FEED_ROW_UP:
        return self->up_button;
      case LWN_FEED_ROW_DOWN:
        return self->down_button;
      case LWN_FEED_ROW_REMOVE:
        return self->remove_button;
      case LWN_FEED_ROW_CHECK:
        return GTK_WIDGET (self->check);
      default:
        g_return_val_if_reached (NULL);
    }
}

static void
lwn_feed_row_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  LwnFeedRow *self = LWN_FEED_ROW (object);

  switch (prop_id)
    {
      case PROP_SELECTED:
        g_value_set_boolean (value, lwn_feed_row_get_selected (self));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_feed_row_set_property (GObject *object,
                           guint prop_id,
                           const GValue *value,
                           GParamSpec *pspec)
{
  LwnFeedRow *self = LWN_FEED_ROW (object);

  switch (prop_id)
    {
      case PROP_SELECTED:
        lwn_feed_row_set_selected (self, g_value_get_boolean (value));
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_feed_row_finalize (GObject *object)
{
  LwnFeedRow *self = LWN_FEED_ROW (object);

  g_free (self->url);
  g_free (self->name);
  g_free (self->title);
  g_free (self->folded);

  G_OBJECT_CLASS (lwn_feed_row_parent_class)->finalize (object);
}

static void
lwn_feed_row_class_init (LwnFeedRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = lwn_feed_row_get_property;
  object_class->set_property = lwn_feed_row_set_property;
  object_class->finalize = lwn_feed_row_finalize;

  /**
   * LwnFeedRow:selected:
   *
   * Whether the row's check box is ticked, which it can be only while
   * feeds are being selected.
   */
  properties[PROP_SELECTED] = g_param_spec_boolean ("selected", NULL, NULL, FALSE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-feed-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, box);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, check);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, notify_switch);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, up_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, down_button);
  gtk_widget_class_bind_template_child (widget_class, LwnFeedRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, check_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, switch_active_cb);
  gtk_widget_class_bind_template_callback (widget_class, lwn_settings_row_focus_controls);
}

static void
lwn_feed_row_init (LwnFeedRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
