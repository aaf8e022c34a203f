/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file builds the preferences window. Every control is bound to a GSettings key, applies at
 * once and follows changes made elsewhere; the window holds no state of its own. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-feeds-editor.h"
#include "lwn-preferences-window.h"
#include "lwn-settings-row.h"
#include "lwn-window-accessible.h"
#include "lwn-url.h"

struct _LwnPreferencesWindow
{
  GtkWindow parent_instance;

  GSettings *settings;
  char *interval_note;     /* the refresh row's own subtitle */
  char *extra_interval_id; /* a refresh interval set elsewhere that is not a choice */

  LwnFeedsEditor *feeds_editor;
  GtkLabel *interval_title;
  GtkLabel *interval_subtitle;
  GtkComboBoxText *interval_combo;
  GtkLabel *notify_title;
  GtkLabel *notify_subtitle;
  GtkSwitch *notify_switch;
  GtkLabel *security_title;
  GtkLabel *security_subtitle;
  GtkLabel *search_provider_title;
  GtkLabel *search_provider_subtitle;
  GtkSwitch *security_switch;
  GtkSwitch *search_provider_switch;
  GtkLabel *max_items_title;
  GtkSpinButton *max_items_spin;
  GtkLabel *icon_style_title;
  GtkComboBoxText *icon_style_combo;
  GtkLabel *subscriber_title;
  GtkLabel *subscriber_subtitle;
  GtkSwitch *subscriber_switch;
  GtkLabel *autostart_title;
};

G_DEFINE_FINAL_TYPE (LwnPreferencesWindow, lwn_preferences_window, GTK_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_CLOSE,
  SIGNAL_SEARCH,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const guint interval_choices[] = { 15 * 60, 30 * 60, 3600, 2 * 3600, 4 * 3600, 12 * 3600, 86400 };

static char *
format_interval (guint seconds)
{
  guint n;

  if (seconds % 86400 == 0)
    {
      n = seconds / 86400;
      return g_strdup_printf (ngettext ("%u day", "%u days", n), n);
    }
  if (seconds % 3600 == 0)
    {
      n = seconds / 3600;
      return g_strdup_printf (ngettext ("%u hour", "%u hours", n), n);
    }
  if (seconds % 60 == 0)
    {
      n = seconds / 60;
      return g_strdup_printf (ngettext ("%u minute", "%u minutes", n), n);
    }
  return g_strdup_printf (ngettext ("%u second", "%u seconds", seconds), seconds);
}

/* Returns the position of the item with @id in a GtkComboBoxText, or -1. */
static int
combo_find (GtkComboBoxText *combo,
            const char *id)
{
  GtkTreeModel *model = gtk_combo_box_get_model (GTK_COMBO_BOX (combo));
  int id_column = gtk_combo_box_get_id_column (GTK_COMBO_BOX (combo));
  GtkTreeIter iter;
  int position = 0;

  if (!gtk_tree_model_get_iter_first (model, &iter))
    return -1;
  do
    {
      g_autofree char *item_id = NULL;

      gtk_tree_model_get (model, &iter, id_column, &item_id, -1);
      if (g_strcmp0 (item_id, id) == 0)
        return position;
      position++;
    }
  while (gtk_tree_model_iter_next (model, &iter));
  return -1;
}

static void
find_toggle_button (GtkWidget *widget,
                    gpointer user_data)
{
  GtkWidget **button = user_data;

  if (GTK_IS_TOGGLE_BUTTON (widget))
    *button = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_toggle_button, button);
}

static void
set_description (GtkWidget *control,
                 const char *text)
{
  atk_object_set_description (gtk_widget_get_accessible (control), text);
  if (GTK_IS_COMBO_BOX (control))
    {
      GtkWidget *button = NULL;

      gtk_container_forall (GTK_CONTAINER (control), find_toggle_button, &button);
      if (button != NULL)
        atk_object_set_description (gtk_widget_get_accessible (button), text);
    }
}

static void
set_subtitle (GtkLabel *subtitle,
              GtkWidget *control,
              const char *text)
{
  gboolean shown = text != NULL && *text != '\0';

  gtk_label_set_text (subtitle, shown ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (subtitle), shown);
  set_description (control, shown ? text : "");
}

static void
name_accessible (GtkWidget *widget,
                 GtkLabel *title,
                 GtkLabel *subtitle)
{
  AtkObject *accessible = gtk_widget_get_accessible (widget);

  atk_object_set_name (accessible, gtk_label_get_text (title));
  atk_object_add_relationship (accessible, ATK_RELATION_LABELLED_BY, gtk_widget_get_accessible (GTK_WIDGET (title)));
  if (subtitle != NULL)
    {
      atk_object_set_description (accessible, gtk_label_get_text (subtitle));
      atk_object_add_relationship (accessible, ATK_RELATION_DESCRIBED_BY, gtk_widget_get_accessible (GTK_WIDGET (subtitle)));
    }
}

/* A screen reader names a control after what a sighted person reads next to it,
 * which is the row's title, and describes the control with the subtitle. The mnemonic widget
 * already gives the labelled-by relation; the name is set too because GTK 3
 * leaves switches, spin buttons and entries nameless without it. A combo box
 * takes the keyboard focus on an inner toggle button with an accessible of its
 * own, which is named alike so that the focus never lands on a nameless object. */
static void
label_control (GtkLabel *title,
               GtkLabel *subtitle)
{
  GtkWidget *control = gtk_label_get_mnemonic_widget (title);

  name_accessible (control, title, subtitle);
  if (GTK_IS_COMBO_BOX (control))
    {
      GtkWidget *button = NULL;

      gtk_container_forall (GTK_CONTAINER (control), find_toggle_button, &button);
      if (button != NULL)
        name_accessible (button, title, subtitle);
    }
}

/* Refresh interval ------------------------------------------------------------ */

static gboolean
is_interval_choice (guint seconds)
{
  for (gsize i = 0; i < G_N_ELEMENTS (interval_choices); i++)
    if (interval_choices[i] == seconds)
      return TRUE;
  return FALSE;
}

static void
drop_extra_interval (LwnPreferencesWindow *self)
{
  g_autofree char *id = g_steal_pointer (&self->extra_interval_id);
  int position = id != NULL ? combo_find (self->interval_combo, id) : -1;

  if (position >= 0)
    gtk_combo_box_text_remove (self->interval_combo, position);
}

/* A value set elsewhere that is not one of the choices is shown as it is, in
 * a row of its own, rather than rounded to a choice and written back. */
static void
show_interval (LwnPreferencesWindow *self,
               guint seconds)
{
  g_autofree char *id = g_strdup_printf ("%u", seconds);
  g_autofree char *label = NULL;
  int position = 0;

  if (g_strcmp0 (self->extra_interval_id, id) == 0)
    return;

  drop_extra_interval (self);
  if (is_interval_choice (seconds))
    return;

  while (position < (int) G_N_ELEMENTS (interval_choices) && interval_choices[position] < seconds)
    position++;
  label = format_interval (seconds);
  gtk_combo_box_text_insert (self->interval_combo, position, id, label);
  self->extra_interval_id = g_steal_pointer (&id);
}

/* Once another choice is made here, the odd value is no longer in use. */
static void
interval_combo_changed_cb (GtkComboBox *combo,
                           LwnPreferencesWindow *self)
{
  if (self->extra_interval_id != NULL && g_strcmp0 (gtk_combo_box_get_active_id (combo), self->extra_interval_id) != 0)
    drop_extra_interval (self);
}

static gboolean
interval_get_mapping (GValue *value,
                      GVariant *variant,
                      gpointer user_data)
{
  LwnPreferencesWindow *self = user_data;
  guint seconds = g_variant_get_uint32 (variant);

  show_interval (self, seconds);
  g_value_take_string (value, g_strdup_printf ("%u", seconds));
  return TRUE;
}

static GVariant *
interval_set_mapping (const GValue *value,
                      const GVariantType *expected_type,
                      gpointer user_data)
{
  const char *id = g_value_get_string (value);
  guint64 seconds;

  if (id == NULL || !g_ascii_string_to_unsigned (id, 10, 1, G_MAXUINT32, &seconds, NULL))
    return NULL;
  return g_variant_new_uint32 ((guint32) seconds);
}

/* The window ---------------------------------------------------------------- */

static void
lwn_preferences_window_close (LwnPreferencesWindow *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static void
lwn_preferences_window_search (LwnPreferencesWindow *self)
{
  lwn_feeds_editor_search (self->feeds_editor);
}

static void
lwn_preferences_window_constructed (GObject *object)
{
  LwnPreferencesWindow *self = LWN_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (lwn_preferences_window_parent_class)->constructed (object);

  lwn_feeds_editor_set_settings (self->feeds_editor, self->settings);

  g_settings_bind_with_mapping (self->settings, "refresh-interval", self->interval_combo, "active-id",
                                G_SETTINGS_BIND_DEFAULT, interval_get_mapping, interval_set_mapping, self, NULL);
  g_settings_bind (self->settings, "max-items", self->max_items_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "tray-icon-style", self->icon_style_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "notifications", self->notify_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "notify-security-updates", self->security_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "search-provider", self->search_provider_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "lwn-subscriber", self->subscriber_switch, "active", G_SETTINGS_BIND_DEFAULT);
  /* The filter only means something while there are notifications to filter. */
  g_object_bind_property (self->notify_switch, "active", self->security_switch, "sensitive", G_BINDING_SYNC_CREATE);
}

static void
lwn_preferences_window_get_property (GObject *object,
                                     guint prop_id,
                                     GValue *value,
                                     GParamSpec *pspec)
{
  LwnPreferencesWindow *self = LWN_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
      case PROP_SETTINGS:
        g_value_set_object (value, self->settings);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_preferences_window_set_property (GObject *object,
                                     guint prop_id,
                                     const GValue *value,
                                     GParamSpec *pspec)
{
  LwnPreferencesWindow *self = LWN_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
      case PROP_SETTINGS:
        self->settings = g_value_dup_object (value);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lwn_preferences_window_dispose (GObject *object)
{
  LwnPreferencesWindow *self = LWN_PREFERENCES_WINDOW (object);

  /* The settings outlive the window, so no signal or binding of the settings
   * may reach the window's controls once the controls are destroyed. */
  if (self->settings != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->settings, self);
      g_settings_unbind (self->interval_combo, "active-id");
      g_settings_unbind (self->max_items_spin, "value");
      g_settings_unbind (self->icon_style_combo, "active-id");
      g_settings_unbind (self->notify_switch, "active");
      g_settings_unbind (self->security_switch, "active");
      g_settings_unbind (self->search_provider_switch, "active");
      g_settings_unbind (self->subscriber_switch, "active");
    }
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lwn_preferences_window_parent_class)->dispose (object);
}

static void
lwn_preferences_window_finalize (GObject *object)
{
  LwnPreferencesWindow *self = LWN_PREFERENCES_WINDOW (object);

  g_free (self->interval_note);
  g_free (self->extra_interval_id);

  G_OBJECT_CLASS (lwn_preferences_window_parent_class)->finalize (object);
}

static void
lwn_preferences_window_class_init (LwnPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkBindingSet *binding_set;

  object_class->constructed = lwn_preferences_window_constructed;
  object_class->get_property = lwn_preferences_window_get_property;
  object_class->set_property = lwn_preferences_window_set_property;
  object_class->dispose = lwn_preferences_window_dispose;
  object_class->finalize = lwn_preferences_window_finalize;
  gtk_widget_class_set_accessible_type (widget_class, LWN_TYPE_WINDOW_ACCESSIBLE);

  /**
   * LwnPreferencesWindow:settings:
   *
   * The settings the controls are bound to.
   */
  properties[PROP_SETTINGS] = g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LwnPreferencesWindow::close:
   *
   * A keybinding signal (Escape, Ctrl+W) that closes the window.
   */
  signals[SIGNAL_CLOSE] = g_signal_new_class_handler ("close", G_TYPE_FROM_CLASS (klass),
                                                      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                                                      G_CALLBACK (lwn_preferences_window_close),
                                                      NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * LwnPreferencesWindow::search:
   *
   * A keybinding signal (Ctrl+F) that shows the search of the feeds and
   * focuses it.
   */
  signals[SIGNAL_SEARCH] = g_signal_new_class_handler ("search", G_TYPE_FROM_CLASS (klass),
                                                       G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                                                       G_CALLBACK (lwn_preferences_window_search),
                                                       NULL, NULL, NULL, G_TYPE_NONE, 0);
  binding_set = gtk_binding_set_by_class (klass);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_Escape, 0, "close", 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_w, GDK_CONTROL_MASK, "close", 0);
  gtk_binding_entry_add_signal (binding_set, GDK_KEY_f, GDK_CONTROL_MASK, "search", 0);

  g_type_ensure (LWN_TYPE_FEEDS_EDITOR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lwntray/LwnTray/lwn-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, feeds_editor);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, interval_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, interval_subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, interval_combo);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, notify_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, notify_subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, notify_switch);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, security_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, security_subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, search_provider_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, search_provider_subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, security_switch);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, search_provider_switch);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, max_items_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, max_items_spin);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, icon_style_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, icon_style_combo);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, subscriber_title);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, subscriber_subtitle);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, subscriber_switch);
  gtk_widget_class_bind_template_child (widget_class, LwnPreferencesWindow, autostart_title);
  gtk_widget_class_bind_template_callback (widget_class, lwn_settings_row_focus_controls);
  gtk_widget_class_bind_template_callback (widget_class, interval_combo_changed_cb);
}

static void
lwn_preferences_window_init (LwnPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (gsize i = 0; i < G_N_ELEMENTS (interval_choices); i++)
    {
      g_autofree char *id = g_strdup_printf ("%u", interval_choices[i]);
      g_autofree char *label = format_interval (interval_choices[i]);

      gtk_combo_box_text_append (self->interval_combo, id, label);
    }

  self->interval_note = g_strdup (gtk_label_get_text (self->interval_subtitle));

  label_control (self->interval_title, self->interval_subtitle);
  label_control (self->notify_title, NULL);
  label_control (self->security_title, self->security_subtitle);
  label_control (self->search_provider_title, self->search_provider_subtitle);
  label_control (self->max_items_title, NULL);
  label_control (self->icon_style_title, NULL);
  label_control (self->subscriber_title, self->subscriber_subtitle);
  label_control (self->autostart_title, NULL);
}

/**
 * lwn_preferences_window_new:
 * @application: the application that the window belongs to. The
 *   application's "app.autostart" action drives the Start at login switch.
 * @settings: the settings to show and change
 *
 * Creates the preferences window. Every control applies at once; the window
 * keeps following @settings while it is open.
 *
 * Returns: (transfer none): a new, hidden #LwnPreferencesWindow, owned by GTK
 *   like every toplevel and destroyed when it is closed
 */
LwnPreferencesWindow *
lwn_preferences_window_new (GtkApplication *application,
                            GSettings *settings)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (LWN_TYPE_PREFERENCES_WINDOW,
                       "application", application,
                       "settings", settings,
                       NULL);
}

/**
 * lwn_preferences_window_set_overridden:
 * @self: a #LwnPreferencesWindow
 * @key: "feed-url", "refresh-interval" or "notifications"
 * @overridden: whether the command line overrides @key for this run
 *
 * Makes the control of @key insensitive and says why ("Set on the command
 * line for this run"), or undoes that. The control still shows the setting,
 * which applies again from the next run without the override.
 */
void
lwn_preferences_window_set_overridden (LwnPreferencesWindow *self,
                                       const char *key,
                                       gboolean overridden)
{
  const char *note = overridden ? _ ("Set on the command line for this run") : NULL;

  g_return_if_fail (LWN_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (key != NULL);

  if (g_str_equal (key, "feed-url"))
    {
      lwn_feeds_editor_set_locked (self->feeds_editor, note);
    }
  else if (g_str_equal (key, "refresh-interval"))
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->interval_combo), !overridden);
      set_subtitle (self->interval_subtitle, GTK_WIDGET (self->interval_combo), overridden ? note : self->interval_note);
    }
  else if (g_str_equal (key, "notifications"))
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->notify_switch), !overridden);
      set_subtitle (self->notify_subtitle, GTK_WIDGET (self->notify_switch), note);
    }
  else
    g_return_if_reached ();
}
