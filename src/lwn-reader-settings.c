/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Maps the settings onto the reading model: the feeds, the refresh interval and what is announced. What
 * the command line sets for a run wins over the settings until the applet exits. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-opml.h"
#include "lwn-reader-settings.h"
#include "lwn-str-hash.h"

#define FEEDS_KEY "feeds"
#define FEEDS_TYPE "a(ssb)"

struct _LwnReaderSettings
{
  GObject parent_instance;

  GSettings *settings; /* NULL without the schema */
  LwnFeedSet *feeds;
  char *default_feed_url;

  gboolean feed_url_forced;
  gboolean interval_forced;
  guint forced_interval;
  gboolean notify_forced;
  gboolean following;
};

G_DEFINE_FINAL_TYPE (LwnReaderSettings, lwn_reader_settings, G_TYPE_OBJECT)

static const char *const reader_keys[] = { FEEDS_KEY, "refresh-interval", "notifications", "notify-security-updates" };

/**
 * lwn_reader_settings_open_schema:
 *
 * Never a bare g_settings_new(): without the schema, that aborts the process.
 *
 * Returns: (transfer full) (nullable): the settings, or %NULL, with a warning,
 *   when the schema is not installed
 */
GSettings *
lwn_reader_settings_open_schema (const char *schema_id)
{
  /* Uninstalled, GSETTINGS_SCHEMA_DIR adds the schema compiled in the build folder. */
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, schema_id, TRUE);
  if (schema == NULL)
    {
      g_warning ("The settings schema %s is not installed; using the default settings", schema_id);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

static gboolean
settings_have_key (GSettings *settings,
                   const char *key)
{
  g_autoptr (GSettingsSchema) schema = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  return g_settings_schema_has_key (schema, key);
}

/**
 * lwn_reader_settings_dup_feed_url:
 * @settings: (nullable): the settings
 * @fallback: the feed to follow when none is set
 *
 * The feed of the `feed-url` key, which named the one feed followed before
 * there could be several: its state stays where it was.
 *
 * Returns: (transfer full): the feed the key names
 */
char *
lwn_reader_settings_dup_feed_url (GSettings *settings,
                                  const char *fallback)
{
  g_autofree char *url = settings != NULL && settings_have_key (settings, "feed-url")
                             ? g_settings_get_string (settings, "feed-url")
                             : NULL;

  return url != NULL && *url != '\0' ? g_steal_pointer (&url) : g_strdup (fallback);
}

/**
 * lwn_reader_settings_migrate:
 * @settings: (nullable): the settings
 *
 * Once, when the list of feeds was never set: a feed set in `feed-url`
 * becomes the list's only feed, with notifications on, so that whoever
 * followed another feed than LWN's keeps following it (and its read marks,
 * which stay in the state file of before).
 *
 * Returns: whether anything was changed
 */
gboolean
lwn_reader_settings_migrate (GSettings *settings)
{
  g_autoptr (GVariant) feeds = NULL;
  g_autoptr (GVariant) feed_url = NULL;
  const char *url;

  if (settings == NULL || !settings_have_key (settings, FEEDS_KEY) || !settings_have_key (settings, "feed-url"))
    return FALSE;

  feeds = g_settings_get_user_value (settings, FEEDS_KEY);
  feed_url = g_settings_get_user_value (settings, "feed-url");
  if (feeds != NULL || feed_url == NULL)
    return FALSE;

  url = g_variant_get_string (feed_url, NULL);
  if (*url == '\0')
    return FALSE;

  g_debug ("Following %s, the feed of before, as the only feed of the list", url);
  g_settings_set_value (settings, FEEDS_KEY, g_variant_new_parsed ("[(%s, '', true)]", url));
  return TRUE;
}

/**
 * lwn_reader_settings_parse_feeds:
 * @value: a value of the `feeds` key's type, a(ssb)
 * @n_specs: (out): how many feeds
 *
 * Returns: (transfer full) (array length=n_specs): the feeds, whose
 *   strings point into @value; free the array with g_free()
 */
LwnFeedSpec *
lwn_reader_settings_parse_feeds (GVariant *value,
                                 guint *n_specs)
{
  gsize n = g_variant_n_children (value);
  LwnFeedSpec *specs = g_new0 (LwnFeedSpec, MAX (n, 1));
  guint kept = 0;

  for (gsize i = 0; i < n; i++)
    {
      const char *url;
      const char *name;
      gboolean notify;

      g_variant_get_child (value, i, "(&s&sb)", &url, &name, &notify);
      if (*url == '\0')
        continue;
      specs[kept++] = (LwnFeedSpec){ .url = url, .name = *name != '\0' ? name : NULL, .notify = notify };
    }
  *n_specs = kept;
  return specs;
}

/**
 * lwn_reader_settings_import_feeds:
 * @settings: the settings
 * @feeds: (element-type LwnOpmlFeed): feeds to follow too, in order
 * @import: (out caller-allocates): what was done; its `skipped` count is
 *   left as the caller set it
 *
 * Adds the feeds of @feeds that are not followed yet to the end of the
 * list, with their titles as names and notifications on, but at most
 * %LWN_OPML_MAX_IMPORT of them: every start reads and polls the whole
 * list, and a stranger's list of thousands should not become that list in
 * one click. The rest are counted in `over_limit`; importing the same list
 * again adds the next ones.
 *
 * Returns: whether the list could be written (%TRUE when nothing was new)
 */
gboolean
lwn_reader_settings_import_feeds (GSettings *settings,
                                  GPtrArray *feeds,
                                  LwnOpmlImport *import)
{
  g_autoptr (GVariant) value = NULL;
  g_autoptr (GHashTable) followed = NULL;
  g_autofree LwnFeedSpec *specs = NULL;
  GVariantBuilder builder;
  guint n = 0;

  g_return_val_if_fail (G_IS_SETTINGS (settings), FALSE);
  g_return_val_if_fail (feeds != NULL, FALSE);
  g_return_val_if_fail (import != NULL, FALSE);

  import->added = import->already = import->over_limit = 0;
  value = g_settings_get_value (settings, FEEDS_KEY);
  followed = lwn_str_hash_table_new (NULL, NULL);
  specs = lwn_reader_settings_parse_feeds (value, &n);
  g_variant_builder_init (&builder, G_VARIANT_TYPE (FEEDS_TYPE));
  /* An empty list follows LWN's headlines, which stay when others join. */
  if (n == 0)
    {
      g_hash_table_add (followed, (gpointer) DEFAULT_FEED_URL);
      g_variant_builder_add (&builder, "(ssb)", DEFAULT_FEED_URL, "LWN.net", TRUE);
    }
  for (guint i = 0; i < n; i++)
    {
      g_hash_table_add (followed, (gpointer) specs[i].url);
      g_variant_builder_add (&builder, "(ssb)", specs[i].url, specs[i].name != NULL ? specs[i].name : "", specs[i].notify);
    }
  for (guint i = 0; i < feeds->len; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);

      if (!g_hash_table_add (followed, feed->url))
        import->already++;
      else if (import->added >= LWN_OPML_MAX_IMPORT)
        import->over_limit++;
      else
        {
          g_variant_builder_add (&builder, "(ssb)", feed->url, feed->title != NULL ? feed->title : "", TRUE);
          import->added++;
        }
    }

  if (import->added == 0)
    {
      g_variant_builder_clear (&builder);
      return TRUE;
    }
  return g_settings_set_value (settings, FEEDS_KEY, g_variant_builder_end (&builder));
}

/**
 * lwn_reader_settings_add_feeds:
 * @settings: the settings
 * @feeds: (element-type LwnOpmlFeed): feeds to follow too
 * @n_added: (out) (optional): how many were not followed already
 *
 * lwn_reader_settings_import_feeds() without the counts of what was not
 * added, for a caller that adds one feed.
 *
 * Returns: whether the list could be written (%TRUE when nothing was new)
 */
gboolean
lwn_reader_settings_add_feeds (GSettings *settings,
                               GPtrArray *feeds,
                               guint *n_added)
{
  LwnOpmlImport import = { 0 };
  gboolean written = lwn_reader_settings_import_feeds (settings, feeds, &import);

  if (n_added != NULL)
    *n_added = import.added;
  return written;
}

/**
 * lwn_reader_settings_describe_import:
 * @added: feeds of a list that are followed now
 * @already: feeds of the list that were followed already
 * @skipped: feeds of the list that cannot be followed
 *
 * lwn_opml_describe_import() for a caller that counts no feed left for
 * another import.
 *
 * Returns: (transfer full): one sentence saying so, such as "Added 3 feeds;
 *   1 was followed already"
 */
char *
lwn_reader_settings_describe_import (guint added,
                                     guint already,
                                     guint skipped)
{
  const LwnOpmlImport import = { .added = added, .already = already, .skipped = skipped };

  return lwn_opml_describe_import (&import);
}

/**
 * lwn_reader_settings_list_feeds:
 * @settings: (nullable): the settings
 * @default_feed_url: the feed followed when the list is empty
 *
 * Returns: (transfer full) (element-type LwnOpmlFeed): the feeds followed,
 *   with the names given them, for an OPML list
 */
GPtrArray *
lwn_reader_settings_list_feeds (GSettings *settings,
                                const char *default_feed_url)
{
  g_autoptr (GVariant) value = settings != NULL ? g_settings_get_value (settings, FEEDS_KEY) : NULL;
  GPtrArray *feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autofree LwnFeedSpec *specs = NULL;
  guint n = 0;

  if (value != NULL)
    specs = lwn_reader_settings_parse_feeds (value, &n);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (feeds, lwn_opml_feed_new (specs[i].url, specs[i].name, NULL));
  if (n == 0)
    g_ptr_array_add (feeds, lwn_opml_feed_new (default_feed_url, "LWN.net", NULL));
  return feeds;
}

static void
follow_feeds_value (LwnReaderSettings *self,
                    GVariant *value)
{
  guint n_specs = 0;
  g_autofree LwnFeedSpec *specs = lwn_reader_settings_parse_feeds (value, &n_specs);
  const LwnFeedSpec fallback = { .url = self->default_feed_url, .notify = TRUE };

  /* An empty list follows LWN's headlines: an applet that follows nothing
   * would be an icon that never changes. */
  if (n_specs == 0)
    lwn_feed_set_set_feeds (self->feeds, &fallback, 1);
  else
    lwn_feed_set_set_feeds (self->feeds, specs, n_specs);
}

static void
settings_changed_cb (GSettings *settings,
                     const char *key,
                     LwnReaderSettings *self)
{
  if (g_str_equal (key, FEEDS_KEY) && !self->feed_url_forced)
    {
      g_autoptr (GVariant) value = g_settings_get_value (settings, key);

      follow_feeds_value (self, value);
    }
  else if (g_str_equal (key, "refresh-interval") && !self->interval_forced)
    lwn_feed_set_set_interval (self->feeds, g_settings_get_uint (settings, key), FALSE);
  else if (g_str_equal (key, "notifications") && !self->notify_forced)
    lwn_feed_set_set_notify (self->feeds, g_settings_get_boolean (settings, key));
  else if (g_str_equal (key, "notify-security-updates"))
    lwn_feed_set_set_notify_security_lists (self->feeds, g_settings_get_boolean (settings, key));
}

/* Whether @feeds follows @urls, in that order, and nothing else. */
static gboolean
follows_exactly (LwnFeedSet *feeds,
                 const char *const *urls)
{
  guint n = g_strv_length ((char **) urls);

  if (lwn_feed_set_get_n_feeds (feeds) != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (lwn_reader_get_feed_url (lwn_feed_set_get_reader (feeds, i)), urls[i]) != 0)
      return FALSE;
  return TRUE;
}

/**
 * lwn_reader_settings_apply_options:
 * @options: the command line's options (`feed-url`, given once or more,
 *   `interval` as checked digits, `no-notify`)
 *
 * Applies what a command line sets for this run; from then on the settings
 * do not override it.
 *
 * Returns: whether that changed anything
 */
gboolean
lwn_reader_settings_apply_options (LwnReaderSettings *self,
                                   GVariantDict *options)
{
  g_autofree const char **feed_urls = NULL;
  const char *interval_text = NULL;
  gboolean changed = FALSE;

  g_return_val_if_fail (LWN_IS_READER_SETTINGS (self), FALSE);

  if (g_variant_dict_lookup (options, "feed-url", "^a&s", &feed_urls) && feed_urls[0] != NULL)
    {
      g_autofree LwnFeedSpec *specs = g_new0 (LwnFeedSpec, g_strv_length ((char **) feed_urls));
      guint n = g_strv_length ((char **) feed_urls);

      for (guint i = 0; i < n; i++)
        specs[i] = (LwnFeedSpec){ .url = feed_urls[i], .notify = TRUE };
      changed |= !self->feed_url_forced || !follows_exactly (self->feeds, feed_urls);
      self->feed_url_forced = TRUE;
      lwn_feed_set_set_feeds (self->feeds, specs, n);
    }

  if (g_variant_dict_lookup (options, "interval", "&s", &interval_text))
    {
      guint interval = (guint) g_ascii_strtoull (interval_text, NULL, 10);

      changed |= !self->interval_forced || self->forced_interval != interval;
      self->interval_forced = TRUE;
      self->forced_interval = interval;
      lwn_feed_set_set_interval (self->feeds, interval, TRUE);
    }

  if (g_variant_dict_contains (options, "no-notify"))
    {
      changed |= !self->notify_forced;
      self->notify_forced = TRUE;
      lwn_feed_set_set_notify (self->feeds, FALSE);
    }

  return changed;
}

/**
 * lwn_reader_settings_follow:
 *
 * Applies the settings the command line left alone, and every later change
 * to them. Call it once, after the first command line's options.
 */
void
lwn_reader_settings_follow (LwnReaderSettings *self)
{
  g_autoptr (GSettingsSchema) schema = NULL;

  g_return_if_fail (LWN_IS_READER_SETTINGS (self));

  if (self->following)
    return;
  self->following = TRUE;

  if (self->settings == NULL || !settings_have_key (self->settings, FEEDS_KEY))
    {
      /* No list: the one feed of an older schema's feed-url, or LWN's. */
      if (!self->feed_url_forced)
        {
          g_autofree char *url = lwn_reader_settings_dup_feed_url (self->settings, self->default_feed_url);
          const LwnFeedSpec only = { .url = url, .notify = TRUE };

          lwn_feed_set_set_feeds (self->feeds, &only, 1);
        }
      if (self->settings == NULL)
        return;
    }

  /* An older compiled schema may lack a key: it keeps the model's default. */
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (reader_keys); i++)
    if (g_settings_schema_has_key (schema, reader_keys[i]))
      settings_changed_cb (self->settings, reader_keys[i], self);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self, 0);
}

/**
 * lwn_reader_settings_is_overridden:
 * @key: a settings key
 *
 * Returns: whether the command line set @key for this run
 */
gboolean
lwn_reader_settings_is_overridden (LwnReaderSettings *self,
                                   const char *key)
{
  g_return_val_if_fail (LWN_IS_READER_SETTINGS (self), FALSE);

  if (g_str_equal (key, FEEDS_KEY) || g_str_equal (key, "feed-url"))
    return self->feed_url_forced;
  if (g_str_equal (key, "refresh-interval"))
    return self->interval_forced;
  if (g_str_equal (key, "notifications"))
    return self->notify_forced;
  return FALSE;
}

static void
lwn_reader_settings_dispose (GObject *object)
{
  LwnReaderSettings *self = LWN_READER_SETTINGS (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->feeds);

  G_OBJECT_CLASS (lwn_reader_settings_parent_class)->dispose (object);
}

static void
lwn_reader_settings_finalize (GObject *object)
{
  g_free (LWN_READER_SETTINGS (object)->default_feed_url);

  G_OBJECT_CLASS (lwn_reader_settings_parent_class)->finalize (object);
}

static void
lwn_reader_settings_class_init (LwnReaderSettingsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lwn_reader_settings_dispose;
  G_OBJECT_CLASS (klass)->finalize = lwn_reader_settings_finalize;
}

static void
lwn_reader_settings_init (LwnReaderSettings *self)
{
}

/**
 * lwn_reader_settings_new:
 * @settings: (nullable): the application's settings, %NULL without the schema
 * @feeds: the feeds they steer
 * @default_feed_url: the feed to follow when the list is empty
 *
 * Returns: (transfer full): the mapping, which applies nothing before
 *   lwn_reader_settings_follow()
 */
LwnReaderSettings *
lwn_reader_settings_new (GSettings *settings,
                         LwnFeedSet *feeds,
                         const char *default_feed_url)
{
  LwnReaderSettings *self;

  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (LWN_IS_FEED_SET (feeds), NULL);
  g_return_val_if_fail (default_feed_url != NULL, NULL);

  self = g_object_new (LWN_TYPE_READER_SETTINGS, NULL);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  self->feeds = g_object_ref (feeds);
  self->default_feed_url = g_strdup (default_feed_url);
  return self;
}
