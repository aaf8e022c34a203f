/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The applet: reads the configuration, owns the reading model and its views, and turns the views'
 * clicks into the application's actions. It decides nothing about the feed. Main thread only. */

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "lwn-application.h"
#include "lwn-autostart.h"
#include "lwn-cli.h"
#include "lwn-desktop.h"
#include "lwn-feed-set.h"
#include "lwn-headline.h"
#include "lwn-headline-row.h"
#include "lwn-headlines-window.h"
#include "lwn-launcher.h"
#include "lwn-locations.h"
#include "lwn-notifier.h"
#include "lwn-preferences-window.h"
#include "lwn-reader-settings.h"
#include "lwn-reader.h"
#include "lwn-store.h"
#include "lwn-search-provider.h"
#include "lwn-tray-host.h"
#include "lwn-tray.h"

/* Where the desktop's search finds the headlines: the files in data/search
 * name these paths. */
#define SEARCH_PROVIDER_PATH "/io/github/lwntray/LwnTray/SearchProvider"
#define KRUNNER_PATH "/io/github/lwntray/LwnTray/KRunner"
#define SEARCH_PROVIDER_KEY "search-provider"

/* How long quitting waits for the last saves of feeds removed. */
#define FEEDS_DRAIN_MS 5000
/* How long quitting waits for a "Start at login" write under way. */
#define AUTOSTART_DRAIN_MS 2000
/* How long quitting waits for a notification server to answer what is being shown. */
#define NOTIFIER_DRAIN_MS 1000

struct _LwnApplication
{
  GtkApplication parent_instance;

  GSettings *settings; /* NULL when the schema is not installed */
  LwnReaderSettings *reader_settings;
  LwnLauncher *launcher;

  GDBusConnection *session_bus;
  LwnFeedSet *feeds;
  LwnTray *tray;
  LwnNotifier *notifier;
  LwnHeadlinesWindow *headlines_window; /* while open; it destroys itself on close */
  LwnAutostartSwitch *autostart;
  LwnSearchProvider *search_provider; /* exported while the application is registered */

  /* Actions for the application's own windows alone. GApplication exports
   * its action map on the session bus to every process: "open-link" opens
   * any http(s) URL and raises the browser, which no other process may ask. */
  GSimpleActionGroup *window_actions;

  LwnTrayHost *tray_host;
  guint sigterm_id;
  guint sigint_id;
  gulong prepare_window_handler; /* until the first feed has headlines */
  guint prepare_window_id;       /* the headlines window prepared, once, soon */
  GCancellable *launches;        /* browsers being started, stopped at quit */
  gboolean started;
  gboolean quitting; /* the inputs are stopped: nothing opens or marks read any more */
  gboolean saved;    /* the last save is done */
};

G_DEFINE_FINAL_TYPE (LwnApplication, lwn_application, GTK_TYPE_APPLICATION)

static void
launch_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  g_autoptr (LwnApplication) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *message = NULL;

  if (lwn_launcher_open_finish (LWN_LAUNCHER (source), result, &error))
    return;
  /* Stopped by quitting, which no one needs to hear about. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    {
      g_warning ("%s", error->message);
      return;
    }
  message = g_strdup_printf (_ ("Could not open the browser: %s"), error->message);
  g_warning ("%s", message);
  if (self->notifier != NULL)
    lwn_notifier_show_message (self->notifier, g_get_application_name (), message);
}

/* @activation_token: (nullable): one a notification server sent with the
 * action; without it, the launcher asks the display for one. */
static void
open_url (LwnApplication *self,
          const char *url,
          const char *activation_token)
{
  /* After Quit, no browser starts: the person asked for the program to go. */
  if (self->quitting)
    return;
  lwn_launcher_open_async (self->launcher, url, activation_token, self->launches, launch_cb, g_object_ref (self));
}

/* Actions: what the menu, the notifications and the command line ask for */

static void
open_headline_activated (GSimpleAction *action,
                         GVariant *parameter,
                         gpointer user_data)
{
  LwnApplication *self = user_data;
  const char *feed;
  const char *item_id;
  g_autofree char *url = NULL;

  g_variant_get (parameter, "(&s&s)", &feed, &item_id);
  url = lwn_feed_set_open (self->feeds, feed, item_id);
  if (url != NULL)
    open_url (self, url, NULL);
}

static void
refresh_activated (GSimpleAction *action,
                   GVariant *parameter,
                   gpointer user_data)
{
  LwnApplication *self = user_data;

  lwn_feed_set_refresh (self->feeds);
}

static void
mark_all_read_activated (GSimpleAction *action,
                         GVariant *parameter,
                         gpointer user_data)
{
  LwnApplication *self = user_data;

  lwn_feed_set_mark_all_read (self->feeds);
}

static void
open_site_activated (GSimpleAction *action,
                     GVariant *parameter,
                     gpointer user_data)
{
  LwnApplication *self = user_data;
  LwnReader *first = lwn_feed_set_get_reader (self->feeds, 0);
  g_autofree char *url = first != NULL ? lwn_reader_dup_site_url (first) : NULL;

  if (url != NULL)
    open_url (self, url, NULL);
}

static void
open_link_activated (GSimpleAction *action,
                     GVariant *parameter,
                     gpointer user_data)
{
  open_url (user_data, g_variant_get_string (parameter, NULL), NULL);
}

static void
show_headlines_activated (GSimpleAction *action,
                          GVariant *parameter,
                          gpointer user_data)
{
  LwnApplication *self = user_data;

  g_debug ("Showing the headlines window");
  if (self->headlines_window == NULL)
    {
      self->headlines_window = lwn_headlines_window_new (GTK_APPLICATION (self), self->feeds, self->settings);
      /* Under a prefix of its own on the widget: not exported as a window's
       * "win." actions are. */
      gtk_widget_insert_action_group (GTK_WIDGET (self->headlines_window), LWN_HEADLINE_ROW_ACTIONS,
                                      G_ACTION_GROUP (self->window_actions));
      lwn_headlines_window_set_in_tray (self->headlines_window, lwn_tray_is_connected (self->tray));
      g_object_add_weak_pointer (G_OBJECT (self->headlines_window), (gpointer *) &self->headlines_window);
    }
  gtk_window_present (GTK_WINDOW (self->headlines_window));
}

/* The Feeds submenu of the tray's menu: the window, on one feed. */
static void
show_feed_activated (GSimpleAction *action,
                     GVariant *parameter,
                     gpointer user_data)
{
  LwnApplication *self = user_data;

  show_headlines_activated (action, NULL, self);
  if (self->headlines_window != NULL)
    lwn_headlines_window_show_feed (self->headlines_window, g_variant_get_string (parameter, NULL));
}

/* The last entry of that submenu when not every feed fits in it: the
 * window, with its list of every feed open at the first the submenu left
 * out. */
static void
choose_feed_activated (GSimpleAction *action,
                       GVariant *parameter,
                       gpointer user_data)
{
  LwnApplication *self = user_data;

  show_headlines_activated (action, NULL, self);
  if (self->headlines_window != NULL)
    lwn_headlines_window_choose_feed (self->headlines_window, g_variant_get_string (parameter, NULL));
}

static void
about_activated (GSimpleAction *action,
                 GVariant *parameter,
                 gpointer user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkAboutDialog *about = GTK_ABOUT_DIALOG (gtk_about_dialog_new ());
  const char *authors[] = { "The lwn-tray authors", NULL };

  gtk_about_dialog_set_program_name (about, _ ("LWN.net Headlines"));
  gtk_about_dialog_set_logo_icon_name (about, APP_ID);
  gtk_about_dialog_set_version (about, PACKAGE_VERSION);
  gtk_about_dialog_set_comments (about, _ ("The latest LWN.net headlines in the panel, with their summaries."));
  gtk_about_dialog_set_website (about, PACKAGE_URL);
  gtk_about_dialog_set_license_type (about, GTK_LICENSE_GPL_3_0);
  gtk_about_dialog_set_authors (about, authors);
  /* Translators: put your names here, one per line. */
  gtk_about_dialog_set_translator_credits (about, _ ("translator-credits"));

  /* One of the application's windows, so that quitting closes it too. */
  gtk_window_set_application (GTK_WINDOW (about), GTK_APPLICATION (user_data));
  gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  gtk_window_set_modal (GTK_WINDOW (about), parent != NULL);
  g_signal_connect (about, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void lwn_application_begin_quit (LwnApplication *self);

static void
quit_activated (GSimpleAction *action,
                GVariant *parameter,
                gpointer user_data)
{
  lwn_application_begin_quit (user_data);
}

static void
autostart_change_state (GSimpleAction *action,
                        GVariant *state,
                        gpointer user_data)
{
  LwnApplication *self = user_data;

  /* Every view first shows what was asked, then, once it is written, what
   * is true on disk (autostart_settled_cb). */
  g_simple_action_set_state (action, state);
  lwn_autostart_switch_request (self->autostart, g_variant_get_boolean (state));
}

/* Never inside the change_state above, so never under a GtkSwitch still in
 * its state-set emission, which would ask again if its state changed there. */
static void
autostart_settled_cb (LwnAutostartSwitch *autostart,
                      gboolean enabled,
                      const GError *error,
                      LwnApplication *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "autostart");

  if (error != NULL)
    {
      g_warning ("Could not change Start at login: %s", error->message);
      lwn_notifier_show_message (self->notifier, _ ("Could not change Start at login"), error->message);
    }
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (enabled));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant *parameter,
                       gpointer user_data)
{
  LwnApplication *self = user_data;
  LwnPreferencesWindow *window = NULL;

  g_debug ("Showing the preferences window");
  /* One window at most: asking again raises it. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (LWN_IS_PREFERENCES_WINDOW (l->data))
      window = l->data;

  if (window == NULL)
    {
      window = lwn_preferences_window_new (GTK_APPLICATION (self), self->settings);
      lwn_preferences_window_set_overridden (window, "feed-url",
                                             lwn_reader_settings_is_overridden (self->reader_settings, "feed-url"));
      lwn_preferences_window_set_overridden (window, "refresh-interval",
                                             lwn_reader_settings_is_overridden (self->reader_settings, "refresh-interval"));
      lwn_preferences_window_set_overridden (window, "notifications",
                                             lwn_reader_settings_is_overridden (self->reader_settings, "notifications"));
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
add_actions (LwnApplication *self)
{
  const GActionEntry entries[] = {
    { .name = "open-headline", .activate = open_headline_activated, .parameter_type = "(ss)" },
    { .name = "show-headlines", .activate = show_headlines_activated },
    { .name = "show-feed", .activate = show_feed_activated, .parameter_type = "s" },
    { .name = "choose-feed", .activate = choose_feed_activated, .parameter_type = "s" },
    { .name = "about", .activate = about_activated },
    { .name = "preferences", .activate = preferences_activated },
    { .name = "refresh", .activate = refresh_activated },
    { .name = "mark-all-read", .activate = mark_all_read_activated },
    { .name = "open-site", .activate = open_site_activated },
    { .name = "quit", .activate = quit_activated },
    { .name = "autostart", .state = "false", .change_state = autostart_change_state },
  };
  const GActionEntry window_entries[] = {
    { .name = "open-link", .activate = open_link_activated, .parameter_type = "s" },
  };
  const char *refresh_accels[] = { "<Control>r", NULL };
  const char *quit_accels[] = { "<Control>q", NULL };
  GAction *autostart;

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  self->window_actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->window_actions), window_entries, G_N_ELEMENTS (window_entries), self);
  autostart = g_action_map_lookup_action (G_ACTION_MAP (self), "autostart");
  g_simple_action_set_state (G_SIMPLE_ACTION (autostart),
                             g_variant_new_boolean (lwn_autostart_switch_get_enabled (self->autostart)));
  /* Without a settings schema there is nothing the preferences could show. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "preferences")),
                               self->settings != NULL);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.refresh", refresh_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
}

static void
feeds_n_unread_cb (LwnFeedSet *feeds,
                   GParamSpec *pspec,
                   LwnApplication *self)
{
  GAction *mark_all_read = g_action_map_lookup_action (G_ACTION_MAP (self), "mark-all-read");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (mark_all_read), lwn_feed_set_get_n_unread (feeds) > 0);
}

/* Two seconds after the first feed has headlines, unless a window is open,
 * a worker makes its first rows' summaries, so that a window opened later
 * shows them at once. */
#define PREPARE_WINDOW_DELAY_S 2

static gboolean
prepare_window_cb (gpointer user_data)
{
  LwnApplication *self = user_data;

  self->prepare_window_id = 0;
  if (!self->quitting && self->headlines_window == NULL)
    lwn_headlines_window_prepare (self->feeds);
  return G_SOURCE_REMOVE;
}

static void
feeds_changed_prepare_cb (LwnFeedSet *feeds,
                          LwnApplication *self)
{
  LwnReader *first = lwn_feed_set_get_n_feeds (feeds) > 0 ? lwn_feed_set_get_reader (feeds, 0) : NULL;

  if (first == NULL || g_list_model_get_n_items (lwn_reader_get_headlines (first)) == 0)
    return;
  g_clear_signal_handler (&self->prepare_window_handler, feeds);
  self->prepare_window_id
      = g_timeout_add_seconds_full (G_PRIORITY_LOW, PREPARE_WINDOW_DELAY_S, prepare_window_cb, self, NULL);
}

/* The reading model's news, for the notifier */

static void
reader_announce_cb (LwnFeedSet *feeds,
                    LwnReader *reader,
                    GPtrArray *items,
                    guint max_single,
                    LwnApplication *self)
{
  g_autofree char *site_name = lwn_reader_dup_name (reader);
  g_autofree char *site_url = lwn_reader_dup_site_url (reader);

  lwn_notifier_announce (self->notifier, items, max_single, lwn_reader_get_feed_url (reader), site_name, site_url);
}

static void
reader_alert_cb (LwnFeedSet *feeds,
                 LwnReader *reader,
                 const char *summary,
                 const char *body,
                 LwnApplication *self)
{
  lwn_notifier_show_message (self->notifier, summary, body);
}

static void
reader_read_cb (LwnFeedSet *feeds,
                LwnReader *reader,
                const char *item_id,
                LwnApplication *self)
{
  g_autofree char *key = NULL;

  if (item_id == NULL)
    {
      /* All of one feed's read: its notifications go; another feed's stay. */
      lwn_notifier_withdraw_feed (self->notifier, lwn_reader_get_feed_url (reader));
      return;
    }
  key = lwn_headline_key_new (lwn_reader_get_feed_url (reader), item_id);
  lwn_notifier_withdraw (self->notifier, key);
}

/* Its notifications go with it: shown later, they would be recorded by no
 * reading model, and announced again if the feed came back. */
static void
feed_removed_cb (LwnFeedSet *feeds,
                 const char *url,
                 LwnApplication *self)
{
  lwn_notifier_withdraw_feed (self->notifier, url);
}

static void
reader_reminder_due_cb (LwnFeedSet *feeds,
                        LwnReader *reader,
                        const char *item_id,
                        const char *title,
                        const char *url,
                        LwnApplication *self)
{
  /* The reminder ends as it is told: its action must still know its feed, which its key holds. */
  g_autofree char *key = lwn_headline_key_new (lwn_reader_get_feed_url (reader), item_id);

  lwn_notifier_remind (self->notifier, key, title, url);
}

static void
notifier_open_cb (LwnNotifier *notifier,
                  const char *item_id,
                  const char *url,
                  const char *activation_token,
                  LwnApplication *self)
{
  g_autofree char *feed = NULL;
  g_autofree char *id = NULL;
  g_autofree char *article_url = NULL;

  if (lwn_headline_key_split (item_id, &feed, &id))
    article_url = lwn_feed_set_open (self->feeds, feed, id);
  /* An item that left the feed since it was announced is opened all the same. */
  open_url (self, article_url != NULL ? article_url : url, activation_token);
}

static void
notifier_open_reminder_cb (LwnNotifier *notifier,
                           const char *item_id,
                           const char *url,
                           const char *activation_token,
                           LwnApplication *self)
{
  g_autofree char *feed = NULL;
  g_autofree char *id = NULL;
  g_autofree char *article_url = NULL;
  LwnReader *holder;

  if (!lwn_headline_key_split (item_id, &feed, &id))
    {
      open_url (self, url, activation_token);
      return;
    }
  holder = lwn_feed_set_find_url (self->feeds, feed);
  article_url = lwn_feed_set_open (self->feeds, feed, id);
  /* Asked for on its own: read, also when it left the feed since, in the
   * feed whose reminder it was. */
  if (article_url == NULL && holder != NULL)
    lwn_reader_mark_read (holder, id);
  open_url (self, article_url != NULL ? article_url : url, activation_token);
}

/* Shown, a headline counts as announced: the next start does not announce it again. */
static void
notifier_shown_cb (LwnNotifier *notifier,
                   const char *const *item_ids,
                   LwnApplication *self)
{
  lwn_feed_set_mark_shown (self->feeds, item_ids);
}

static void
notifier_show_all_cb (LwnNotifier *notifier,
                      const char *url,
                      const char *activation_token,
                      LwnApplication *self)
{
  g_action_group_activate_action (G_ACTION_GROUP (self), "show-headlines", NULL);
}

/* Tray host */

#define NO_TRAY_NOTICE_KEY "no-tray-notice-shown"

/* Where the person can go instead of the icon, in their desktop's words. */
static const char *
no_tray_advice (void)
{
  switch (lwn_desktop_get_current ())
    {
      case LWN_DESKTOP_GNOME:
        return _ ("GNOME Shell shows panel icons only with the AppIndicator extension. Open LWN.net Headlines "
                  "from Activities at any time; new headlines still arrive as notifications.");
      case LWN_DESKTOP_KDE:
        return _ ("No panel holds a System Tray widget. Add one to see the icon, or open LWN.net Headlines "
                  "from the application launcher at any time; new headlines still arrive as notifications.");
      case LWN_DESKTOP_OTHER:
      default:
        return _ ("No panel shows StatusNotifierItem icons. Open LWN.net Headlines from the applications menu "
                  "at any time; new headlines still arrive as notifications.");
    }
}

static gboolean
has_setting (LwnApplication *self,
             const char *key)
{
  g_autoptr (GSettingsSchema) schema = NULL;

  if (self->settings == NULL)
    return FALSE;
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  return g_settings_schema_has_key (schema, key);
}

/* Told once per installation: at every login on a desktop without a tray,
 * the same notice would only be noise. */
static void
tray_host_missing_cb (LwnTrayHost *tray_host,
                      LwnApplication *self)
{
  gboolean remembered = has_setting (self, NO_TRAY_NOTICE_KEY);

  g_message ("No system tray (StatusNotifierItem host) found; the window and notifications remain");
  if (remembered && g_settings_get_boolean (self->settings, NO_TRAY_NOTICE_KEY))
    return;

  lwn_notifier_show_notice (self->notifier, _ ("LWN.net Headlines runs without a panel icon"), no_tray_advice ());
  if (remembered)
    g_settings_set_boolean (self->settings, NO_TRAY_NOTICE_KEY, TRUE);
}

static void
tray_host_found_cb (LwnTrayHost *tray_host,
                    LwnApplication *self)
{
  lwn_notifier_withdraw_notice (self->notifier);
}

static void
tray_connection_changed_cb (LwnTray *tray,
                            gboolean connected,
                            LwnApplication *self)
{
  if (self->headlines_window != NULL)
    lwn_headlines_window_set_in_tray (self->headlines_window, connected);
}

static gboolean
quit_signal_cb (gpointer user_data)
{
  LwnApplication *self = user_data;

  /* A second signal means the first one's wait is too long. */
  if (self->quitting)
    {
      g_debug ("Quitting at once on a second signal");
      g_application_quit (G_APPLICATION (self));
      return G_SOURCE_CONTINUE;
    }
  g_debug ("Quitting on a signal");
  lwn_application_begin_quit (self);
  return G_SOURCE_CONTINUE;
}

/* Settings: those of the reading model are lwn-reader-settings' */

static void
max_items_changed_cb (GSettings *settings,
                      const char *key,
                      LwnApplication *self)
{
  lwn_tray_set_max_items (self->tray, g_settings_get_uint (settings, key));
}

static gboolean
desktop_wants_symbolic (void)
{
  return lwn_desktop_wants_symbolic (lwn_desktop_get_current ());
}

static void
icon_style_changed_cb (GSettings *settings,
                       const char *key,
                       LwnApplication *self)
{
  g_autofree char *style = g_settings_get_string (settings, key);

  lwn_tray_set_symbolic (self->tray, g_str_equal (style, "symbolic") || (g_str_equal (style, "auto") && desktop_wants_symbolic ()));
}

static void
follow_view_settings (LwnApplication *self)
{
  g_autoptr (GSettingsSchema) schema = NULL;

  if (self->settings == NULL)
    {
      lwn_tray_set_symbolic (self->tray, desktop_wants_symbolic ());
      return;
    }
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  if (g_settings_schema_has_key (schema, "max-items"))
    {
      max_items_changed_cb (self->settings, "max-items", self);
      g_signal_connect (self->settings, "changed::max-items", G_CALLBACK (max_items_changed_cb), self);
    }
  if (g_settings_schema_has_key (schema, "tray-icon-style"))
    {
      icon_style_changed_cb (self->settings, "tray-icon-style", self);
      g_signal_connect (self->settings, "changed::tray-icon-style", G_CALLBACK (icon_style_changed_cb), self);
    }
  else
    lwn_tray_set_symbolic (self->tray, desktop_wants_symbolic ());
}

/* The desktop's search */

static void
search_open_cb (LwnSearchProvider *provider,
                const char *feed,
                const char *item_id,
                const char *activation_token,
                LwnApplication *self)
{
  g_autofree char *url = NULL;

  if (self->quitting || self->feeds == NULL)
    return;
  url = lwn_feed_set_open (self->feeds, feed, item_id);
  if (url != NULL)
    open_url (self, url, activation_token);
}

static void
search_launch_cb (LwnSearchProvider *provider,
                  const char *text,
                  LwnApplication *self)
{
  if (self->quitting)
    return;
  g_action_group_activate_action (G_ACTION_GROUP (self), "show-headlines", NULL);
  if (self->headlines_window != NULL)
    lwn_headlines_window_start_search (self->headlines_window, text);
}

static void
search_provider_setting_cb (GSettings *settings,
                            const char *key,
                            LwnApplication *self)
{
  lwn_search_provider_set_enabled (self->search_provider, g_settings_get_boolean (settings, SEARCH_PROVIDER_KEY));
}

/* Exported before the application takes its name on the bus: a desktop that
 * started it to search asks at once. */
static gboolean
lwn_application_dbus_register (GApplication *application,
                               GDBusConnection *connection,
                               const char *object_path,
                               GError **error)
{
  LwnApplication *self = LWN_APPLICATION (application);
  g_autoptr (GError) search_error = NULL;

  if (!G_APPLICATION_CLASS (lwn_application_parent_class)->dbus_register (application, connection, object_path, error))
    return FALSE;
  self->search_provider = lwn_search_provider_new ();
  if (!lwn_search_provider_register (self->search_provider, connection, SEARCH_PROVIDER_PATH, KRUNNER_PATH,
                                     &search_error))
    {
      /* The applet is worth running without: only the desktop's search misses it. */
      g_warning ("The desktop's search cannot ask for headlines: %s", search_error->message);
      g_clear_object (&self->search_provider);
    }
  return TRUE;
}

static void
lwn_application_dbus_unregister (GApplication *application,
                                 GDBusConnection *connection,
                                 const char *object_path)
{
  LwnApplication *self = LWN_APPLICATION (application);

  if (self->search_provider != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->search_provider, self);
      lwn_search_provider_unregister (self->search_provider);
    }
  g_clear_object (&self->search_provider);
  G_APPLICATION_CLASS (lwn_application_parent_class)->dbus_unregister (application, connection, object_path);
}

/* Answers the desktop's search from the feeds, unless the settings say not to. */
static void
start_search_provider (LwnApplication *self)
{
  if (self->search_provider == NULL)
    return;
  lwn_search_provider_set_feeds (self->search_provider, self->feeds);
  g_signal_connect (self->search_provider, "open", G_CALLBACK (search_open_cb), self);
  g_signal_connect (self->search_provider, "launch-search", G_CALLBACK (search_launch_cb), self);
  /* A schema from before the setting: the search stays on. */
  if (has_setting (self, SEARCH_PROVIDER_KEY))
    {
      g_signal_connect (self->settings, "changed::" SEARCH_PROVIDER_KEY, G_CALLBACK (search_provider_setting_cb), self);
      search_provider_setting_cb (self->settings, SEARCH_PROVIDER_KEY, self);
    }
}

static void
lwn_application_startup (GApplication *application)
{
  LwnApplication *self = LWN_APPLICATION (application);
  g_autofree char *feed_url = NULL;
  g_autofree char *icons = lwn_locations_dup_icon_theme_path ();
  g_autofree char *exe = NULL;

  G_APPLICATION_CLASS (lwn_application_parent_class)->startup (application);

  /* A tray applet needs no window: keep running until Quit. */
  g_application_hold (application);

  self->settings = lwn_reader_settings_open_schema (APP_ID);
  lwn_reader_settings_migrate (self->settings);
  /* The feed of before there were several keeps its state where it was. */
  feed_url = lwn_reader_settings_dup_feed_url (self->settings, DEFAULT_FEED_URL);
  self->feeds = lwn_feed_set_new (NULL, NULL, feed_url);
  self->reader_settings = lwn_reader_settings_new (self->settings, self->feeds, DEFAULT_FEED_URL);
  self->launcher = lwn_launcher_new ();
  self->launches = g_cancellable_new ();
  self->notifier = lwn_notifier_new (self->session_bus);
  g_signal_connect (self->feeds, "announce", G_CALLBACK (reader_announce_cb), self);
  g_signal_connect (self->feeds, "alert", G_CALLBACK (reader_alert_cb), self);
  g_signal_connect (self->feeds, "read", G_CALLBACK (reader_read_cb), self);
  g_signal_connect (self->feeds, "reminder-due", G_CALLBACK (reader_reminder_due_cb), self);
  g_signal_connect (self->feeds, "feed-removed", G_CALLBACK (feed_removed_cb), self);
  g_signal_connect (self->notifier, "open", G_CALLBACK (notifier_open_cb), self);
  g_signal_connect (self->notifier, "open-reminder", G_CALLBACK (notifier_open_reminder_cb), self);
  g_signal_connect (self->notifier, "show-all", G_CALLBACK (notifier_show_all_cb), self);
  g_signal_connect (self->notifier, "shown", G_CALLBACK (notifier_shown_cb), self);

  exe = lwn_locations_dup_uninstalled_binary ();
  self->autostart = lwn_autostart_switch_new (exe);
  g_signal_connect (self->autostart, "settled", G_CALLBACK (autostart_settled_cb), self);

  add_actions (self);
  g_signal_connect (self->feeds, "notify::n-unread", G_CALLBACK (feeds_n_unread_cb), self);
  feeds_n_unread_cb (self->feeds, NULL, self);
  self->prepare_window_handler = g_signal_connect (self->feeds, "changed", G_CALLBACK (feeds_changed_prepare_cb), self);
  self->tray = lwn_tray_new (G_ACTION_GROUP (self), self->feeds, self->session_bus, icons);
  g_signal_connect (self->tray, "connection-changed", G_CALLBACK (tray_connection_changed_cb), self);

  self->tray_host = lwn_tray_host_new (self->session_bus, self->tray);
  g_signal_connect (self->tray_host, "missing", G_CALLBACK (tray_host_missing_cb), self);
  g_signal_connect (self->tray_host, "found", G_CALLBACK (tray_host_found_cb), self);

  start_search_provider (self);

  self->sigterm_id = g_unix_signal_add (SIGTERM, quit_signal_cb, self);
  self->sigint_id = g_unix_signal_add (SIGINT, quit_signal_cb, self);
}

/* Command line: the first start's and every later one's, in the running instance */

static gint
lwn_application_command_line (GApplication *application,
                              GApplicationCommandLine *command_line)
{
  LwnApplication *self = LWN_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  gboolean changed;
  gboolean show = g_variant_dict_contains (options, "show");

  /* Quitting already: nothing is refreshed, shown or changed any more. */
  if (self->quitting)
    {
      g_debug ("Started again while quitting: nothing to do");
      return 0;
    }
  /* Options first: they mark what the settings must not override. */
  changed = lwn_reader_settings_apply_options (self->reader_settings, options);
  if (!self->started)
    {
      self->started = TRUE;
      lwn_reader_settings_follow (self->reader_settings);
      follow_view_settings (self);
      lwn_feed_set_start (self->feeds);
    }
  /* Started again: apply what was asked, or refresh, as the README promises. */
  else if (!changed && !show)
    {
      g_debug ("Started again: refreshing");
      lwn_feed_set_refresh (self->feeds);
    }

  if (show)
    g_action_group_activate_action (G_ACTION_GROUP (self), "show-headlines", NULL);
  return 0;
}

/* Drops what startup made, views first: they hold on to the model. Safe to
 * call twice (from shutdown, then from dispose). */
static void
release_services (LwnApplication *self)
{
  GList *windows;

  /* GtkApplication keeps its windows until they are destroyed, and every
   * window holds a reference on the application: quitting with a window
   * open would otherwise dispose of neither, nor of anything below. */
  while ((windows = gtk_application_get_windows (GTK_APPLICATION (self))) != NULL)
    gtk_widget_destroy (windows->data);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  if (self->feeds != NULL)
    g_signal_handlers_disconnect_by_data (self->feeds, self);
  if (self->notifier != NULL)
    g_signal_handlers_disconnect_by_data (self->notifier, self);
  if (self->tray != NULL)
    g_signal_handlers_disconnect_by_data (self->tray, self);
  if (self->autostart != NULL)
    g_signal_handlers_disconnect_by_data (self->autostart, self);
  if (self->search_provider != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->search_provider, self);
      lwn_search_provider_set_feeds (self->search_provider, NULL);
    }
  g_clear_object (&self->tray);
  g_clear_object (&self->window_actions);
  g_clear_object (&self->autostart);
  g_clear_object (&self->reader_settings);
  g_clear_object (&self->launcher);
  g_clear_object (&self->launches);
  g_clear_object (&self->notifier);
  g_clear_object (&self->feeds);
  g_clear_object (&self->settings);
}

/* Quitting: the inputs stop first, then the last save, and only then is the
 * application released. Nothing runs a main loop of its own meanwhile: what
 * quitting waits for holds the application and ends from its callback. */

/* Everything that could open a page or mark a headline read stops here: the
 * actions (the menu's, the windows' and those other processes activate over
 * D-Bus), the windows, the tray, the notifications' buttons, loading, and
 * browsers still being started. */
static void
stop_inputs (LwnApplication *self)
{
  g_auto (GStrv) names = g_action_group_list_actions (G_ACTION_GROUP (self));
  GList *windows;

  self->quitting = TRUE;
  g_cancellable_cancel (self->launches);
  if (self->search_provider != NULL)
    lwn_search_provider_set_enabled (self->search_provider, FALSE);

  /* No notice about the tray is posted while quitting. */
  if (self->tray_host != NULL)
    g_signal_handlers_disconnect_by_data (self->tray_host, self);
  g_clear_object (&self->tray_host);

  for (guint i = 0; names[i] != NULL; i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);

      if (G_IS_SIMPLE_ACTION (action))
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), FALSE);
    }
  if (self->window_actions != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self->window_actions), "open-link")),
                                 FALSE);

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (self))) != NULL)
    gtk_widget_destroy (windows->data);

  /* The indicator goes with the tray, so the tray host drops the icon. */
  if (self->tray != NULL)
    g_signal_handlers_disconnect_by_data (self->tray, self);
  g_clear_object (&self->tray);

  /* The notifier still says what a server showed, for the last save. */
  if (self->notifier != NULL)
    {
      const char *inputs[] = { "open", "open-reminder", "show-all" };

      for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
        g_signal_handlers_disconnect_matched (self->notifier, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                              g_signal_lookup (inputs[i], LWN_TYPE_NOTIFIER), 0, NULL, NULL, self);
    }

  /* Stops loading and saves what was read up to now; the last save comes
   * after the notification server's answers. */
  if (self->feeds != NULL)
    lwn_feed_set_shutdown (self->feeds);
}

static void
save_last (LwnApplication *self)
{
  if (self->saved)
    return;
  self->saved = TRUE;
  if (self->feeds != NULL)
    lwn_feed_set_shutdown (self->feeds);
  if (self->notifier != NULL)
    {
      lwn_notifier_withdraw_all (self->notifier);
      /* Its button would show a window that has gone with the process. */
      lwn_notifier_withdraw_notice (self->notifier);
    }
}

static void
notifier_drained_cb (GObject *source,
                     GAsyncResult *result,
                     gpointer user_data)
{
  g_autoptr (LwnApplication) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!lwn_notifier_drain_finish (LWN_NOTIFIER (source), result, &error))
    g_message ("The notification server did not answer in time: the next start may announce again what it was asked to show");
  /* What a server is showing now is known as shown before the last save:
   * otherwise the next start would announce it again. */
  save_last (self);
  g_application_release (G_APPLICATION (self));
}

static void
autostart_drained_cb (GObject *source,
                      GAsyncResult *result,
                      gpointer user_data)
{
  g_autoptr (LwnApplication) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!lwn_autostart_switch_drain_finish (LWN_AUTOSTART_SWITCH (source), result, &error))
    g_warning ("Start at login: the entry was still being written at quit; it may not match the last choice");
  g_application_release (G_APPLICATION (self));
}

static void
feeds_drained_cb (GObject *source,
                  GAsyncResult *result,
                  gpointer user_data)
{
  g_autoptr (LwnApplication) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!lwn_feed_set_drain_finish (LWN_FEED_SET (source), result, &error))
    g_warning ("%s: what was read of a feed removed may not be saved", error->message);
  g_application_release (G_APPLICATION (self));
}

/* Quit, from the menu, the keyboard or a signal. */
static void
lwn_application_begin_quit (LwnApplication *self)
{
  if (self->quitting)
    return;

  g_debug ("Quitting");
  stop_inputs (self);
  if (self->notifier != NULL)
    {
      g_application_hold (G_APPLICATION (self));
      lwn_notifier_drain_async (self->notifier, NOTIFIER_DRAIN_MS, NULL, notifier_drained_cb, g_object_ref (self));
    }
  else
    save_last (self);
  /* A feed removed just before writes its last save in a worker, which the
   * process must not end before. */
  if (self->feeds != NULL)
    {
      g_application_hold (G_APPLICATION (self));
      lwn_feed_set_drain_async (self->feeds, FEEDS_DRAIN_MS, NULL, feeds_drained_cb, g_object_ref (self));
    }
  /* "Start at login" clicked just before quitting is written before the
   * process goes, or it would be lost with the worker that writes it. */
  if (self->autostart != NULL)
    {
      g_application_hold (G_APPLICATION (self));
      lwn_autostart_switch_drain_async (self->autostart, AUTOSTART_DRAIN_MS, NULL, autostart_drained_cb,
                                        g_object_ref (self));
    }
  /* The hold startup took: once the waits above end, so does the program. */
  g_application_release (G_APPLICATION (self));
}

static void
lwn_application_shutdown (GApplication *application)
{
  LwnApplication *self = LWN_APPLICATION (application);

  /* Quit by other means than lwn_application_begin_quit() (a second
   * signal, or GApplication itself): nothing waits any longer. */
  if (!self->quitting)
    stop_inputs (self);
  save_last (self);
  if (self->autostart != NULL && lwn_autostart_switch_is_busy (self->autostart))
    g_warning ("Start at login: the entry was still being written at quit; it may not match the last choice");

  g_clear_handle_id (&self->sigterm_id, g_source_remove);
  g_clear_handle_id (&self->sigint_id, g_source_remove);
  g_clear_signal_handler (&self->prepare_window_handler, self->feeds);
  g_clear_handle_id (&self->prepare_window_id, g_source_remove);
  release_services (self);

  G_APPLICATION_CLASS (lwn_application_parent_class)->shutdown (application);
}

/* Whether an lwn-tray instance owns the application's name on the session bus. */
static gboolean
applet_is_running (void)
{
  g_autoptr (GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr (GVariant) reply = NULL;
  gboolean owned = FALSE;

  if (bus == NULL)
    return FALSE;
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", g_variant_new ("(s)", APP_ID), G_VARIANT_TYPE ("(b)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &owned);
  return owned;
}

/* Checks what can be checked before any instance is asked: a bad value is
 * refused here, with one line, whether or not the applet already runs. */
static gint
lwn_application_handle_local_options (GApplication *application,
                                      GVariantDict *options)
{
  LwnApplication *self = LWN_APPLICATION (application);
  static const char *const default_feed_urls[] = { DEFAULT_FEED_URL, NULL };
  g_autofree const char **feed_urls = NULL;
  g_autoptr (GError) error = NULL;
  gint status;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("lwn-tray %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* Started by the session bus for the desktop's search: not at all when the
   * person turned that off, whose search then finds nothing here. */
  if (g_variant_dict_contains (options, "search-service"))
    {
      g_autoptr (GSettings) settings = lwn_reader_settings_open_schema (APP_ID);
      g_autoptr (GSettingsSchema) schema = NULL;

      if (settings != NULL)
        g_object_get (settings, "settings-schema", &schema, NULL);
      if (schema != NULL && g_settings_schema_has_key (schema, SEARCH_PROVIDER_KEY)
          && !g_settings_get_boolean (settings, SEARCH_PROVIDER_KEY))
        {
          g_debug ("Started for the desktop's search, which the settings turn off");
          return 0;
        }
    }

  status = lwn_cli_check_options (options);
  if (status >= 0)
    return status;

  if (g_variant_dict_contains (options, "export-opml") || g_variant_dict_contains (options, "import-opml"))
    {
      g_autoptr (GSettings) settings = lwn_reader_settings_open_schema (APP_ID);
      const char *path = NULL;

      if (settings == NULL)
        {
          g_printerr ("lwn-tray: %s\n", _ ("the settings schema is not installed"));
          return 1;
        }
      lwn_reader_settings_migrate (settings);
      if (g_variant_dict_lookup (options, "import-opml", "^&ay", &path))
        return lwn_cli_import_opml (settings, path);
      return lwn_cli_export_opml (settings, DEFAULT_FEED_URL);
    }

  if (!g_variant_dict_lookup (options, "feed-url", "^a&s", &feed_urls))
    feed_urls = g_memdup2 (default_feed_urls, sizeof default_feed_urls);
  if (g_variant_dict_contains (options, "print"))
    return lwn_cli_run (LWN_CLI_FORMAT_TEXT, feed_urls);
  if (g_variant_dict_contains (options, "json"))
    return lwn_cli_run (LWN_CLI_FORMAT_JSON, feed_urls);

  /* Without a display this process cannot be the applet, but it can still
   * hand its options to the applet that runs (from an ssh shell, say): as a
   * launcher, it never becomes the primary instance, whose startup needs
   * the display. */
  if (!gtk_init_check (NULL, NULL) && applet_is_running ())
    {
      g_debug ("No display: handing the options to the running applet");
      g_application_set_flags (application, g_application_get_flags (application) | G_APPLICATION_IS_LAUNCHER);
      return -1;
    }
  /* Fail with one clear line here rather than with a GTK critical later. */
  if (gdk_display_get_default () == NULL)
    {
      /* Uninstalled, no lwn-tray is on PATH: name this very binary. */
      g_autofree char *uninstalled = lwn_locations_dup_uninstalled_binary ();
      g_autofree char *command = uninstalled != NULL ? g_shell_quote (uninstalled) : g_strdup ("lwn-tray");
      /* Translators: %s is the command to run, such as lwn-tray. */
      g_autofree char *hint = g_strdup_printf (_ ("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?); "
                                                  "%s --print lists the headlines in a terminal"),
                                               command);
      g_printerr ("lwn-tray: %s\n", hint);
      return 1;
    }

  /* Made here, before startup and before any other thread: the tray needs
   * the connection made already and its lookups ordered (see
   * lwn_tray_patch_session_bus_init()), and failing here takes one clear line. */
  self->session_bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (self->session_bus == NULL)
    {
      g_printerr ("lwn-tray: %s: %s\n", _ ("cannot connect to the session bus"), error->message);
      return 1;
    }
  lwn_tray_patch_session_bus_init (self->session_bus);

  return -1;
}

static void
lwn_application_dispose (GObject *object)
{
  LwnApplication *self = LWN_APPLICATION (object);

  release_services (self);
  g_clear_object (&self->session_bus);

  G_OBJECT_CLASS (lwn_application_parent_class)->dispose (object);
}

static void
lwn_application_finalize (GObject *object)
{
  g_debug ("Application finalized");

  G_OBJECT_CLASS (lwn_application_parent_class)->finalize (object);
}

static void
lwn_application_class_init (LwnApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = lwn_application_dispose;
  object_class->finalize = lwn_application_finalize;
  application_class->handle_local_options = lwn_application_handle_local_options;
  application_class->startup = lwn_application_startup;
  application_class->dbus_register = lwn_application_dbus_register;
  application_class->dbus_unregister = lwn_application_dbus_unregister;
  application_class->command_line = lwn_application_command_line;
  application_class->shutdown = lwn_application_shutdown;
}

static void
lwn_application_init (LwnApplication *self)
{
  const GOptionEntry entries[] = {
    { "feed-url", 'f', 0, G_OPTION_ARG_STRING_ARRAY, NULL, N_ ("Follow this feed instead of those of the settings; give it again for more feeds"), N_ ("URL") },
    /* A string, not G_OPTION_ARG_INT: GApplication cannot tell "--interval 0" from no option. */
    { "interval", 'i', 0, G_OPTION_ARG_STRING, NULL, N_ ("Seconds between refreshes (default 1800)"), N_ ("SECONDS") },
    { "no-notify", 'n', 0, G_OPTION_ARG_NONE, NULL, N_ ("Do not show notifications for new headlines"), NULL },
    { "show", 's', 0, G_OPTION_ARG_NONE, NULL, N_ ("Show the headlines window"), NULL },
    { "print", 'p', 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the headlines (title, tab, URL) and exit"), NULL },
    { "json", 'j', 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the feed as JSON and exit"), NULL },
    { "import-opml", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_ ("Follow the feeds of an OPML subscription list too, and exit"), N_ ("FILE") },
    { "export-opml", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the feeds followed as an OPML subscription list and exit"), NULL },
    { "version", 'v', 0, G_OPTION_ARG_NONE, NULL, N_ ("Show the version and exit"), NULL },
    /* The D-Bus service file's: start as at login, unless the desktop's search is turned off. */
    { "search-service", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL, NULL, NULL },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_summary (G_APPLICATION (self), _ ("Shows the latest LWN.net headlines in the panel."));
}

/**
 * lwn_application_new:
 *
 * Returns: (transfer full): the applet, ready for g_application_run()
 */
LwnApplication *
lwn_application_new (void)
{
  return g_object_new (LWN_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       NULL);
}
