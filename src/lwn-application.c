/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The applet: owns every service, reacts to their signals, and is the only place that
 * decides what the tray shows and what gets announced. Main thread only. */

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "lwn-application.h"
#include "lwn-autostart.h"
#include "lwn-cli.h"
#include "lwn-feed-loader.h"
#include "lwn-notifier.h"
#include "lwn-preferences-window.h"
#include "lwn-scheduler.h"
#include "lwn-store.h"
#include "lwn-text.h"
#include "lwn-tray.h"
#include "lwn-url.h"

/* Up to this many new items get a notification each; more are grouped. */
#define MAX_SINGLE_NOTIFICATIONS 3
/* How long a tray host may take to appear before the user is told there is none. */
#define TRAY_HOST_GRACE_SECONDS 5
#define TOOLTIP_SUMMARY_CHARS 200
#define STATUS_NOTIFIER_WATCHER "org.kde.StatusNotifierWatcher"

struct _LwnApplication
{
  GtkApplication parent_instance;

  /* Configuration for this run: settings, overridden by the command line */
  GSettings *settings; /* NULL when the schema is not installed */
  char *feed_url;
  gboolean feed_url_forced;
  guint interval;
  gboolean interval_forced;
  gboolean notify;
  gboolean notify_forced;
  guint max_items;

  GDBusConnection *session_bus;
  LwnStore *store;
  LwnScheduler *scheduler;
  LwnTray *tray;
  LwnNotifier *notifier;

  LwnFeed *feed;             /* what the menu shows; NULL until the first result */
  GCancellable *cancellable; /* non-NULL while a refresh or cache load runs */
  gboolean refreshing;
  char *last_error;
  gboolean save_failed;

  guint watcher_id;
  guint tray_grace_id;
  gboolean told_no_tray;
  guint sigterm_id;
  guint sigint_id;
  gboolean started;
};

G_DEFINE_FINAL_TYPE (LwnApplication, lwn_application, GTK_TYPE_APPLICATION)

static void refresh (LwnApplication *self);
static void update_site (LwnApplication *self);

static gboolean
running_uninstalled (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  return exe != NULL && g_str_has_prefix (exe, BUILD_ROOT "/");
}

static const char *
current_feed_url (LwnApplication *self)
{
  const char *moved = lwn_store_get_moved_url (self->store, self->feed_url);

  return moved != NULL ? moved : self->feed_url;
}

static void
save_state (LwnApplication *self)
{
  g_autoptr (GError) error = NULL;

  if (lwn_store_save (self->store, &error))
    {
      self->save_failed = FALSE;
      return;
    }

  /* Once per bad spell, not on every click. */
  if (!self->save_failed)
    g_warning ("Could not save what was read: %s", error->message);
  self->save_failed = TRUE;
}

static char *
format_time (GDateTime *when)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (when);

  return g_date_time_format (local, "%H:%M");
}

static char *
dup_tooltip (LwnFeedItem *item)
{
  g_autofree char *summary = lwn_text_from_html (lwn_feed_item_get_description (item), TOOLTIP_SUMMARY_CHARS);

  if (*summary == '\0')
    return g_strdup (lwn_feed_item_get_title (item));
  return g_strdup_printf ("%s\n\n%s", lwn_feed_item_get_title (item), summary);
}

static guint
n_shown_items (LwnApplication *self)
{
  return MIN (lwn_feed_get_n_items (self->feed), self->max_items);
}

static void
update_tray (LwnApplication *self)
{
  guint n;
  g_autofree LwnTrayHeadline *headlines = NULL;
  g_autoptr (GPtrArray) tooltips = NULL;

  if (self->feed == NULL)
    return;

  n = n_shown_items (self);
  headlines = g_new0 (LwnTrayHeadline, MAX (n, 1));
  tooltips = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (self->feed, i);
      char *tooltip = dup_tooltip (item);

      g_ptr_array_add (tooltips, tooltip);
      headlines[i].title = lwn_feed_item_get_title (item);
      headlines[i].tooltip = tooltip;
      headlines[i].unread = !lwn_store_is_read (self->store, lwn_feed_item_get_id (item));
      headlines[i].openable = lwn_feed_item_get_url (item) != NULL;
    }

  lwn_tray_show_headlines (self->tray, headlines, n);
  update_site (self);
}

static void
update_status (LwnApplication *self)
{
  GDateTime *last_success = lwn_store_get_last_success (self->store);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *now_text = format_time (now);
  g_autofree char *status = NULL;

  if (lwn_scheduler_is_stopped (self->scheduler))
    /* Translators: HTTP 410 Gone: the server says the feed was removed for good. */
    status = g_strdup (_("The feed is gone (HTTP 410); updates stopped"));
  else if (self->last_error != NULL)
    /* Translators: the first %s is the reason, the second the time, e.g. 14:05. */
    status = g_strdup_printf (_("Last update failed: %s (%s)"), self->last_error, now_text);
  else if (last_success != NULL)
    {
      g_autofree char *when = format_time (last_success);
      /* Translators: %s is a time, e.g. 14:05. */
      status = g_strdup_printf (_("Updated %s"), when);
    }

  lwn_tray_set_status (self->tray, status);
}

static void
launch_cb (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  g_autoptr (LwnApplication) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the browser: %s"), error->message);

      g_warning ("%s", message);
      lwn_notifier_show_message (self->notifier, _("LWN.net headlines"), message);
    }
}

static void
open_url (LwnApplication *self,
          const char *url)
{
  g_autoptr (GAppLaunchContext) context = NULL;
  GdkDisplay *display = gdk_display_get_default ();

  /* The last line of defence: nothing but http(s) ever reaches the launcher. */
  if (!lwn_url_is_launchable (url))
    {
      g_warning ("Refusing to open a link that is not http or https");
      return;
    }

  if (display != NULL)
    context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (display));

  g_app_info_launch_default_for_uri_async (url, context, NULL, launch_cb, g_object_ref (self));
}

static LwnFeedItem *
find_item (LwnApplication *self,
           const char *item_id)
{
  if (self->feed == NULL || item_id == NULL)
    return NULL;

  for (guint i = 0; i < lwn_feed_get_n_items (self->feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (self->feed, i);

      if (g_strcmp0 (lwn_feed_item_get_id (item), item_id) == 0)
        return item;
    }
  return NULL;
}

static void
mark_read (LwnApplication *self,
           const char *item_id)
{
  lwn_notifier_withdraw (self->notifier, item_id);
  if (!lwn_store_mark_read (self->store, item_id))
    return;

  save_state (self);
  update_tray (self);
}

static void
tray_headline_activated_cb (LwnTray *tray,
                            guint index,
                            LwnApplication *self)
{
  LwnFeedItem *item;

  if (self->feed == NULL || index >= n_shown_items (self))
    return;

  item = lwn_feed_get_item (self->feed, index);
  if (lwn_feed_item_get_url (item) == NULL)
    return;

  open_url (self, lwn_feed_item_get_url (item));
  mark_read (self, lwn_feed_item_get_id (item));
}

static void
notifier_open_cb (LwnNotifier *notifier,
                  const char *item_id,
                  const char *url,
                  LwnApplication *self)
{
  open_url (self, url);
  if (item_id != NULL && find_item (self, item_id) != NULL)
    mark_read (self, item_id);
}

static void
tray_mark_all_read_cb (LwnTray *tray,
                       LwnApplication *self)
{
  gboolean changed = FALSE;

  if (self->feed == NULL)
    return;

  for (guint i = 0; i < lwn_feed_get_n_items (self->feed); i++)
    changed |= lwn_store_mark_read (self->store, lwn_feed_item_get_id (lwn_feed_get_item (self->feed, i)));

  lwn_notifier_withdraw_all (self->notifier);
  if (changed)
    {
      save_state (self);
      update_tray (self);
    }
}

static char *
dup_site_url (LwnApplication *self)
{
  g_autoptr (GUri) uri = NULL;

  if (self->feed != NULL && lwn_url_is_launchable (lwn_feed_get_link (self->feed)))
    return g_strdup (lwn_feed_get_link (self->feed));

  /* No site link in the feed: the root of the server it comes from. */
  uri = g_uri_parse (current_feed_url (self), G_URI_FLAGS_NONE, NULL);
  if (uri != NULL && lwn_url_is_launchable (current_feed_url (self)))
    return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                       g_uri_get_port (uri), "/", NULL, NULL);
  return NULL;
}

/* "Open …" names the feed's site, or before any feed the server it comes from. */
static void
update_site (LwnApplication *self)
{
  g_autofree char *url = dup_site_url (self);
  g_autoptr (GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *name = NULL;

  if (self->feed != NULL)
    name = lwn_feed_get_title (self->feed);
  else if (uri != NULL && g_ascii_strcasecmp (g_uri_get_host (uri), "lwn.net") != 0 && g_ascii_strcasecmp (g_uri_get_host (uri), "www.lwn.net") != 0)
    name = g_uri_get_host (uri);

  lwn_tray_set_site (self->tray, name, url != NULL);
}

static void
tray_open_site_cb (LwnTray *tray,
                   LwnApplication *self)
{
  g_autofree char *url = dup_site_url (self);

  if (url != NULL)
    open_url (self, url);
}

static void
tray_refresh_cb (LwnTray *tray,
                 LwnApplication *self)
{
  if (!lwn_scheduler_try_manual_refresh (self->scheduler))
    {
      g_debug ("Manual refresh ignored: the last one was less than a minute ago");
      return;
    }
  refresh (self);
}

static gboolean
autostart_show_disk_state_cb (gpointer user_data)
{
  LwnApplication *self = user_data;
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "autostart");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (lwn_autostart_is_enabled ()));
  return G_SOURCE_REMOVE;
}

static void
autostart_change_state_cb (GSimpleAction *action,
                           GVariant *value,
                           gpointer user_data)
{
  LwnApplication *self = user_data;
  g_autoptr (GError) error = NULL;
  /* Run from the build tree, start that binary; installed, the one on PATH. */
  g_autofree char *exe = running_uninstalled () ? g_file_read_link ("/proc/self/exe", NULL) : NULL;

  if (!lwn_autostart_set_enabled (exe, g_variant_get_boolean (value), &error))
    {
      g_warning ("Could not change Start at login: %s", error->message);
      lwn_notifier_show_message (self->notifier, _("Could not change Start at login"), error->message);
    }

  /* Every view first shows what was asked, then what is true on disk. The
   * second step waits for an idle: a GtkSwitch that asked is still inside its
   * state-set emission, and a state changed under it there makes it ask again. */
  g_simple_action_set_state (action, value);
  if (lwn_autostart_is_enabled () != g_variant_get_boolean (value))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, autostart_show_disk_state_cb, g_object_ref (self), g_object_unref);
}

static void
autostart_state_changed_cb (GSimpleAction *action,
                            GParamSpec *pspec,
                            LwnApplication *self)
{
  g_autoptr (GVariant) state = g_action_get_state (G_ACTION (action));

  lwn_tray_set_autostart (self->tray, g_variant_get_boolean (state));
}

static void
tray_autostart_toggled_cb (LwnTray *tray,
                           gboolean enabled,
                           LwnApplication *self)
{
  g_action_group_change_action_state (G_ACTION_GROUP (self), "autostart", g_variant_new_boolean (enabled));
}

/* "app.autostart": Start at login as one boolean state, shown by the tray's
 * check item and the preferences window's switch alike. */
static void
add_autostart_action (LwnApplication *self)
{
  g_autoptr (GSimpleAction) action = NULL;

  action = g_simple_action_new_stateful ("autostart", NULL, g_variant_new_boolean (lwn_autostart_is_enabled ()));
  g_signal_connect (action, "change-state", G_CALLBACK (autostart_change_state_cb), self);
  g_signal_connect (action, "notify::state", G_CALLBACK (autostart_state_changed_cb), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));

  g_signal_connect (self->tray, "autostart-toggled", G_CALLBACK (tray_autostart_toggled_cb), self);
  lwn_tray_set_autostart (self->tray, lwn_autostart_is_enabled ());
}

static void
preferences_activate_cb (GSimpleAction *action,
                         GVariant *parameter,
                         gpointer user_data)
{
  LwnApplication *self = user_data;
  LwnPreferencesWindow *window = NULL;

  /* One window at most: asking again raises it. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (LWN_IS_PREFERENCES_WINDOW (l->data))
      window = l->data;

  if (window == NULL)
    {
      window = lwn_preferences_window_new (GTK_APPLICATION (self), self->settings);
      lwn_preferences_window_set_overridden (window, "feed-url", self->feed_url_forced);
      lwn_preferences_window_set_overridden (window, "refresh-interval", self->interval_forced);
      lwn_preferences_window_set_overridden (window, "notifications", self->notify_forced);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
tray_preferences_cb (LwnTray *tray,
                     LwnApplication *self)
{
  g_action_group_activate_action (G_ACTION_GROUP (self), "preferences", NULL);
}

/* "app.preferences" presents the preferences window; without a settings
 * schema there is nothing it could show. */
static void
add_preferences_action (LwnApplication *self)
{
  g_autoptr (GSimpleAction) action = g_simple_action_new ("preferences", NULL);

  g_signal_connect (action, "activate", G_CALLBACK (preferences_activate_cb), self);
  g_simple_action_set_enabled (action, self->settings != NULL);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));

  g_signal_connect (self->tray, "preferences", G_CALLBACK (tray_preferences_cb), self);
}

static void
tray_quit_cb (LwnTray *tray,
              LwnApplication *self)
{
  g_application_quit (G_APPLICATION (self));
}

/* Marks the items of @feed never seen before as announced, in memory; the
 * caller saves the state before it shows them (see announce_items()). */
static GPtrArray *
take_new_items (LwnApplication *self,
                LwnFeed *feed)
{
  GPtrArray *fresh = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      if (lwn_store_mark_announced (self->store, lwn_feed_item_get_id (item)))
        g_ptr_array_add (fresh, lwn_feed_item_ref (item));
    }
  return fresh;
}

/* Called after the state with @fresh marked as announced was saved: a crash
 * between the two loses a notification rather than repeating it at every start. */
static void
announce_items (LwnApplication *self,
                GPtrArray *fresh,
                gboolean first_run)
{
  g_autofree char *site_url = NULL;

  if (fresh->len == 0)
    return;

  /* save_state() has warned once for the whole bad spell; a warning per
   * refresh would bury it. */
  if (self->save_failed)
    {
      g_debug ("Not announcing %u new headlines: they could not be recorded", fresh->len);
      return;
    }

  site_url = dup_site_url (self);
  /* A first run announces the feed as a whole: one notification, not a flood. */
  lwn_notifier_announce (self->notifier, fresh, first_run ? 1 : MAX_SINGLE_NOTIFICATIONS, site_url);
}

static void
show_feed (LwnApplication *self,
           LwnFeed *feed)
{
  g_clear_pointer (&self->feed, lwn_feed_unref);
  self->feed = lwn_feed_ref (feed);
  update_tray (self);
  update_status (self);
}

static void
apply_response (LwnApplication *self,
                const char *url,
                LwnFeed *feed,
                LwnFetchResponse *response)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr (GError) error = NULL;
  guint delay;

  g_clear_pointer (&self->last_error, g_free);
  lwn_store_set_last_success (self->store, now);

  if (feed != NULL)
    {
      gboolean first_run = !lwn_store_has_history (self->store);
      g_autoptr (GPtrArray) fresh = NULL;

      lwn_store_set_validators (self->store, url,
                                lwn_fetch_response_get_etag (response),
                                lwn_fetch_response_get_last_modified (response));
      if (!lwn_store_save_feed_body (self->store, url, lwn_fetch_response_get_body (response),
                                     lwn_fetch_response_get_content_type (response), &error))
        g_warning ("Could not keep a copy of the feed for offline starts: %s", error->message);

      show_feed (self, feed);
      fresh = take_new_items (self, feed);
      save_state (self);
      announce_items (self, fresh, first_run);
    }
  else if (self->feed != NULL)
    /* A 304 changes only the time of success: not worth a write and an fsync
     * at every poll. It is saved with the next change, or at exit. */
    update_status (self);
  else
    /* 304 with nothing cached to show: forget the validators and fetch anew. */
    lwn_store_set_validators (self->store, url, NULL, NULL);

  delay = lwn_scheduler_record_success (self->scheduler,
                                        self->feed != NULL ? lwn_feed_get_refresh_seconds (self->feed) : 0,
                                        lwn_fetch_response_get_max_age (response));
  g_debug ("Refreshed %s; next in %u s", feed != NULL ? "with a new feed" : "(not modified)", delay);
}

static void
apply_failure (LwnApplication *self,
               GError *error,
               LwnFetchResponse *response)
{
  guint status = response != NULL ? lwn_fetch_response_get_status (response) : 0;

  g_free (self->last_error);
  self->last_error = g_strdup (error->message);
  g_message ("Could not load %s: %s", current_feed_url (self), error->message);

  if (status == 410)
    lwn_scheduler_stop_polling (self->scheduler);
  else
    {
      gint64 retry_after = (status == 429 || status == 503) ? lwn_fetch_response_get_retry_after (response) : -1;
      guint delay = lwn_scheduler_record_failure (self->scheduler, retry_after);

      g_debug ("Next attempt in %u s", delay);
    }

  if (self->feed != NULL)
    update_status (self);
  else if (status == 410)
    lwn_tray_show_failure (self->tray, _("the feed is gone (HTTP 410); updates stopped"));
  else
    lwn_tray_show_failure (self->tray, error->message);
}

static void
load_cb (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  LwnApplication *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *url = NULL;
  gboolean ok;

  ok = lwn_feed_load_finish (result, &feed, &response, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (user_data);
      return;
    }

  self = user_data;
  self->refreshing = FALSE;
  url = g_strdup (current_feed_url (self));

  if (response != NULL && lwn_fetch_response_get_moved_to_url (response) != NULL)
    {
      g_message ("The feed moved permanently to %s", lwn_fetch_response_get_moved_to_url (response));
      lwn_store_set_moved_url (self->store, self->feed_url, lwn_fetch_response_get_moved_to_url (response));
    }

  if (ok)
    apply_response (self, url, feed, response);
  else
    apply_failure (self, error, response);

  g_object_unref (self);
}

static void
refresh (LwnApplication *self)
{
  const char *url = current_feed_url (self);
  LwnFetchRequest request = {
    .url = url,
    .etag = lwn_store_get_etag (self->store, url),
    .last_modified = lwn_store_get_last_modified (self->store, url),
  };

  /* Never two at once; a timer or click during a refresh is already served. */
  if (self->refreshing)
    return;

  /* Without something to show, a 304 would leave the menu empty. */
  if (self->feed == NULL)
    request.etag = request.last_modified = NULL;

  self->refreshing = TRUE;
  g_debug ("Refreshing %s", url);
  lwn_feed_load_async (&request, self->cancellable, load_cb, g_object_ref (self));
}

static void
scheduler_refresh_due_cb (LwnScheduler *scheduler,
                          LwnApplication *self)
{
  refresh (self);
}

static void
cache_parsed_cb (GObject *source,
                 GAsyncResult *result,
                 gpointer user_data)
{
  LwnApplication *self;
  g_autoptr (LwnFeed) feed = NULL;
  g_autoptr (GError) error = NULL;

  feed = lwn_feed_parse_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (user_data);
      return;
    }

  self = user_data;
  if (feed == NULL)
    g_warning ("Ignoring the saved copy of the feed: %s", error->message);
  else if (self->feed == NULL)
    {
      g_debug ("Showing %u saved headlines", lwn_feed_get_n_items (feed));
      show_feed (self, feed);
    }

  g_object_unref (self);
}

static void
load_cache (LwnApplication *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) body = NULL;
  g_autofree char *content_type = NULL;
  const char *url = current_feed_url (self);

  body = lwn_store_load_feed_body (self->store, url, &content_type, &error);
  if (body == NULL)
    {
      if (error != NULL)
        g_warning ("Could not read the saved copy of the feed: %s", error->message);
      return;
    }

  lwn_feed_parse_async (body, content_type, url, self->cancellable, cache_parsed_cb, g_object_ref (self));
}

static gboolean
tray_grace_expired_cb (gpointer user_data)
{
  LwnApplication *self = user_data;

  self->tray_grace_id = 0;
  if (lwn_tray_is_connected (self->tray) || self->told_no_tray)
    return G_SOURCE_REMOVE;

  self->told_no_tray = TRUE;
  g_message ("No system tray (StatusNotifierItem host) found; headlines arrive as notifications only");
  lwn_notifier_show_message (self->notifier,
                             _("No system tray found"),
                                _("New LWN headlines will still arrive as notifications. To see the "
                               "LWN.net icon and its menu, enable a tray that supports "
                               "StatusNotifierItem, such as the AppIndicator extension on GNOME."));
  return G_SOURCE_REMOVE;
}

static void
watcher_appeared_cb (GDBusConnection *connection,
                     const char *name,
                     const char *owner,
                     gpointer user_data)
{
  LwnApplication *self = user_data;

  g_debug ("Tray host watcher %s appeared", owner);
  g_clear_handle_id (&self->tray_grace_id, g_source_remove);
  lwn_tray_expect_host (self->tray);
}

static void
watcher_vanished_cb (GDBusConnection *connection,
                     const char *name,
                     gpointer user_data)
{
  LwnApplication *self = user_data;

  g_debug ("No tray host watcher on the bus");
  if (self->tray_grace_id == 0 && !self->told_no_tray)
    self->tray_grace_id = g_timeout_add_seconds (TRAY_HOST_GRACE_SECONDS, tray_grace_expired_cb, self);
}

static void
tray_connection_changed_cb (LwnTray *tray,
                            gboolean connected,
                            LwnApplication *self)
{
  if (connected)
    g_clear_handle_id (&self->tray_grace_id, g_source_remove);
}

static gboolean
quit_signal_cb (gpointer user_data)
{
  LwnApplication *self = user_data;

  g_debug ("Quitting on a signal");
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_CONTINUE;
}

/* Switches to another feed at once: what is shown belongs to the old one. */
static void
switch_feed (LwnApplication *self,
             const char *feed_url)
{
  if (g_strcmp0 (self->feed_url, feed_url) == 0)
    return;

  g_debug ("Switching to the feed at %s", feed_url);
  g_free (self->feed_url);
  self->feed_url = g_strdup (feed_url);

  /* Cancel and replace: late results of the old feed must not land. */
  g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, g_cancellable_new ());
  self->refreshing = FALSE;
  g_clear_pointer (&self->feed, lwn_feed_unref);
  g_clear_pointer (&self->last_error, g_free);
  lwn_tray_show_loading (self->tray);
  lwn_tray_set_status (self->tray, NULL);
  update_site (self);
  lwn_scheduler_resume_polling (self->scheduler);

  load_cache (self);
  refresh (self);
}

static void
settings_changed_cb (GSettings *settings,
                     const char *key,
                     LwnApplication *self)
{
  if (g_str_equal (key, "feed-url") && !self->feed_url_forced)
    {
      g_autofree char *url = g_settings_get_string (settings, key);

      if (*url != '\0')
        switch_feed (self, url);
    }
  else if (g_str_equal (key, "refresh-interval") && !self->interval_forced)
    {
      self->interval = g_settings_get_uint (settings, key);
      lwn_scheduler_set_interval (self->scheduler, self->interval, FALSE);
    }
  else if (g_str_equal (key, "max-items"))
    {
      self->max_items = MAX (g_settings_get_uint (settings, key), 1);
      update_tray (self);
    }
  else if (g_str_equal (key, "notifications") && !self->notify_forced)
    {
      self->notify = g_settings_get_boolean (settings, key);
      lwn_notifier_set_enabled (self->notifier, self->notify);
    }
}

/* Never a bare g_settings_new(): without the schema it aborts the process. */
static GSettings *
open_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchemaSource) uninstalled = NULL;
  g_autoptr (GSettingsSchema) schema = NULL;

  if (running_uninstalled ())
    uninstalled = g_settings_schema_source_new_from_directory (BUILD_ROOT "/data", source, FALSE, NULL);
  if (uninstalled != NULL)
    source = uninstalled;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_warning ("The settings schema %s is not installed; using the default settings", APP_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

static void
apply_settings (LwnApplication *self)
{
  g_autofree char *url = NULL;

  if (self->settings == NULL)
    return;

  url = g_settings_get_string (self->settings, "feed-url");
  if (!self->feed_url_forced && *url != '\0')
    {
      g_free (self->feed_url);
      self->feed_url = g_steal_pointer (&url);
    }
  if (!self->interval_forced)
    self->interval = g_settings_get_uint (self->settings, "refresh-interval");
  if (!self->notify_forced)
    self->notify = g_settings_get_boolean (self->settings, "notifications");
  self->max_items = MAX (g_settings_get_uint (self->settings, "max-items"), 1);
}

static void
lwn_application_startup (GApplication *application)
{
  LwnApplication *self = LWN_APPLICATION (application);
  g_autoptr (GError) error = NULL;
  /* Run from the build tree, the icons are in the source tree, not installed. */
  const char *icons = running_uninstalled () ? SOURCE_ICONS_DIR : NULL;

  G_APPLICATION_CLASS (lwn_application_parent_class)->startup (application);

  /* A tray applet has no window: keep running until Quit. */
  g_application_hold (application);

  self->settings = open_settings ();
  apply_settings (self);

  self->cancellable = g_cancellable_new ();
  self->store = lwn_store_new (NULL, NULL);
  if (!lwn_store_load (self->store, &error))
    g_warning ("%s", error->message);

  self->notifier = lwn_notifier_new ();
  lwn_notifier_set_enabled (self->notifier, self->notify);
  g_signal_connect (self->notifier, "open", G_CALLBACK (notifier_open_cb), self);

  self->tray = lwn_tray_new (icons);
  g_signal_connect (self->tray, "headline-activated", G_CALLBACK (tray_headline_activated_cb), self);
  g_signal_connect (self->tray, "refresh", G_CALLBACK (tray_refresh_cb), self);
  g_signal_connect (self->tray, "mark-all-read", G_CALLBACK (tray_mark_all_read_cb), self);
  g_signal_connect (self->tray, "open-site", G_CALLBACK (tray_open_site_cb), self);
  g_signal_connect (self->tray, "quit", G_CALLBACK (tray_quit_cb), self);
  add_autostart_action (self);
  add_preferences_action (self);
  update_site (self);
  g_signal_connect (self->tray, "connection-changed", G_CALLBACK (tray_connection_changed_cb), self);

  self->watcher_id = g_bus_watch_name_on_connection (self->session_bus, STATUS_NOTIFIER_WATCHER,
                                                     G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                     watcher_appeared_cb, watcher_vanished_cb,
                                                     self, NULL);

  self->sigterm_id = g_unix_signal_add (SIGTERM, quit_signal_cb, self);
  self->sigint_id = g_unix_signal_add (SIGINT, quit_signal_cb, self);

  self->scheduler = lwn_scheduler_new (self->interval, self->interval_forced);
  g_signal_connect (self->scheduler, "refresh-due", G_CALLBACK (scheduler_refresh_due_cb), self);

  if (self->settings != NULL)
    g_signal_connect (self->settings, "changed", G_CALLBACK (settings_changed_cb), self);

  load_cache (self);
  lwn_scheduler_start (self->scheduler, 0);
}

static void
lwn_application_activate (GApplication *application)
{
  LwnApplication *self = LWN_APPLICATION (application);

  /* The first activation is our own start; later ones are a second launch. */
  if (!self->started)
    {
      self->started = TRUE;
      return;
    }

  g_debug ("Started again: refreshing");
  if (lwn_scheduler_try_manual_refresh (self->scheduler))
    refresh (self);
}

static void
lwn_application_shutdown (GApplication *application)
{
  LwnApplication *self = LWN_APPLICATION (application);

  g_cancellable_cancel (self->cancellable);
  if (self->store != NULL)
    save_state (self);

  g_clear_handle_id (&self->sigterm_id, g_source_remove);
  g_clear_handle_id (&self->sigint_id, g_source_remove);
  g_clear_handle_id (&self->tray_grace_id, g_source_remove);
  g_clear_handle_id (&self->watcher_id, g_bus_unwatch_name);
  if (self->notifier != NULL)
    lwn_notifier_withdraw_all (self->notifier);

  G_APPLICATION_CLASS (lwn_application_parent_class)->shutdown (application);
}

static gint
lwn_application_handle_local_options (GApplication *application,
                                      GVariantDict *options)
{
  LwnApplication *self = LWN_APPLICATION (application);
  const char *feed_url = NULL;
  gint interval = 0;
  g_autoptr (GError) error = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("lwn-tray %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_variant_dict_lookup (options, "feed-url", "&s", &feed_url))
    {
      g_free (self->feed_url);
      self->feed_url = g_strdup (feed_url);
      self->feed_url_forced = TRUE;
    }

  if (g_variant_dict_contains (options, "print"))
    return lwn_cli_run (LWN_CLI_FORMAT_TEXT, self->feed_url);
  if (g_variant_dict_contains (options, "json"))
    return lwn_cli_run (LWN_CLI_FORMAT_JSON, self->feed_url);

  if (g_variant_dict_lookup (options, "interval", "i", &interval))
    {
      if (interval <= 0)
        {
          g_printerr ("lwn-tray: %s\n", _("the interval must be a positive number of seconds"));
          return 1;
        }
      if (interval < LWN_MIN_INTERVAL)
        g_printerr ("lwn-tray: %s\n", _("warning: intervals under 60 seconds are meant for testing"));
      self->interval = (guint) interval;
      self->interval_forced = TRUE;
    }

  if (g_variant_dict_contains (options, "no-notify"))
    {
      self->notify = FALSE;
      self->notify_forced = TRUE;
    }

  /* Fail with one clear line here rather than with a GTK critical later. */
  if (!gtk_init_check (NULL, NULL))
    {
      g_printerr ("lwn-tray: %s\n", _("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)"));
      return 1;
    }

  /* libayatana-appindicator 0.5.92 fetches the session bus asynchronously while
   * it watches for the tray host; if the watch answers first it never registers
   * ("g_dbus_proxy_new: assertion 'G_IS_DBUS_CONNECTION (connection)' failed").
   * With the shared connection already made, its fetch completes at once. */
  self->session_bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (self->session_bus == NULL)
    {
      g_printerr ("lwn-tray: %s: %s\n", _("cannot connect to the session bus"), error->message);
      return 1;
    }

  return -1;
}

static void
lwn_application_dispose (GObject *object)
{
  LwnApplication *self = LWN_APPLICATION (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->scheduler);
  g_clear_object (&self->tray);
  g_clear_object (&self->notifier);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->session_bus);
  g_clear_pointer (&self->feed, lwn_feed_unref);

  G_OBJECT_CLASS (lwn_application_parent_class)->dispose (object);
}

static void
lwn_application_finalize (GObject *object)
{
  LwnApplication *self = LWN_APPLICATION (object);

  g_free (self->feed_url);
  g_free (self->last_error);

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
  application_class->activate = lwn_application_activate;
  application_class->shutdown = lwn_application_shutdown;
}

static void
lwn_application_init (LwnApplication *self)
{
  const GOptionEntry entries[] = {
    { "feed-url", 'f', 0, G_OPTION_ARG_STRING, NULL, N_("Load this feed instead of LWN.net's headlines"), N_("URL") },
      { "interval", 'i', 0, G_OPTION_ARG_INT, NULL, N_("Seconds between refreshes (default 1800)"), N_("SECONDS") },
        { "no-notify", 'n', 0, G_OPTION_ARG_NONE, NULL, N_("Do not show notifications for new headlines"), NULL },
          { "print", 'p', 0, G_OPTION_ARG_NONE, NULL, N_("Print the headlines (title, tab, URL) and exit"), NULL },
            { "json", 'j', 0, G_OPTION_ARG_NONE, NULL, N_("Print the feed as JSON and exit"), NULL },
              { "version", 'v', 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and exit"), NULL },
                { NULL },
            };

  self->feed_url = g_strdup (DEFAULT_FEED_URL);
  self->interval = LWN_DEFAULT_INTERVAL;
  self->notify = TRUE;
  self->max_items = LWN_DEFAULT_MAX_ITEMS;

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_summary (G_APPLICATION (self), _("Shows the latest LWN.net headlines in the panel."));
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
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       NULL);
}
