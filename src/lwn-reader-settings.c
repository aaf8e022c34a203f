/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Maps the settings onto the reading model: the feed, the refresh interval and what is announced. What
 * the command line sets for a run wins over the settings until the applet exits. */

#include "config.h"

#include "lwn-reader-settings.h"

struct _LwnReaderSettings
{
  GObject parent_instance;

  GSettings *settings; /* NULL without the schema */
  LwnReader *reader;

  gboolean feed_url_forced;
  gboolean interval_forced;
  guint forced_interval;
  gboolean notify_forced;
  gboolean following;
};

G_DEFINE_FINAL_TYPE (LwnReaderSettings, lwn_reader_settings, G_TYPE_OBJECT)

static const char *const reader_keys[] = { "feed-url", "refresh-interval", "notifications", "notify-security-updates" };

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

/**
 * lwn_reader_settings_dup_feed_url:
 * @settings: (nullable): the settings
 * @fallback: the feed to follow when none is set
 *
 * Returns: (transfer full): the feed the settings name
 */
char *
lwn_reader_settings_dup_feed_url (GSettings *settings,
                                  const char *fallback)
{
  g_autofree char *url = settings != NULL ? g_settings_get_string (settings, "feed-url") : NULL;

  return url != NULL && *url != '\0' ? g_steal_pointer (&url) : g_strdup (fallback);
}

static void
settings_changed_cb (GSettings *settings,
                     const char *key,
                     LwnReaderSettings *self)
{
  if (g_str_equal (key, "feed-url") && !self->feed_url_forced)
    {
      g_autofree char *url = g_settings_get_string (settings, key);

      /* Empty is "the default", which the next start reads as such; the
       * running applet keeps what it follows. */
      if (*url != '\0')
        lwn_reader_set_feed_url (self->reader, url);
    }
  else if (g_str_equal (key, "refresh-interval") && !self->interval_forced)
    lwn_reader_set_interval (self->reader, g_settings_get_uint (settings, key), FALSE);
  else if (g_str_equal (key, "notifications") && !self->notify_forced)
    lwn_reader_set_notify (self->reader, g_settings_get_boolean (settings, key));
  else if (g_str_equal (key, "notify-security-updates"))
    lwn_reader_set_notify_security_lists (self->reader, g_settings_get_boolean (settings, key));
}

/**
 * lwn_reader_settings_apply_options:
 * @options: the command line's options (`feed-url`, `interval` as checked
 *   digits, `no-notify`)
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
  const char *feed_url = NULL;
  const char *interval_text = NULL;
  gboolean changed = FALSE;

  g_return_val_if_fail (LWN_IS_READER_SETTINGS (self), FALSE);

  if (g_variant_dict_lookup (options, "feed-url", "&s", &feed_url))
    {
      self->feed_url_forced = TRUE;
      changed |= g_strcmp0 (feed_url, lwn_reader_get_feed_url (self->reader)) != 0;
      lwn_reader_set_feed_url (self->reader, feed_url);
    }

  if (g_variant_dict_lookup (options, "interval", "&s", &interval_text))
    {
      guint interval = (guint) g_ascii_strtoull (interval_text, NULL, 10);

      changed |= !self->interval_forced || self->forced_interval != interval;
      self->interval_forced = TRUE;
      self->forced_interval = interval;
      lwn_reader_set_interval (self->reader, interval, TRUE);
    }

  if (g_variant_dict_contains (options, "no-notify"))
    {
      changed |= !self->notify_forced;
      self->notify_forced = TRUE;
      lwn_reader_set_notify (self->reader, FALSE);
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

  if (self->settings == NULL || self->following)
    return;
  self->following = TRUE;

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

  if (g_str_equal (key, "feed-url"))
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
  g_clear_object (&self->reader);

  G_OBJECT_CLASS (lwn_reader_settings_parent_class)->dispose (object);
}

static void
lwn_reader_settings_class_init (LwnReaderSettingsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lwn_reader_settings_dispose;
}

static void
lwn_reader_settings_init (LwnReaderSettings *self)
{
}

/**
 * lwn_reader_settings_new:
 * @settings: (nullable): the application's settings, %NULL without the schema
 * @reader: the reading model they steer
 *
 * Returns: (transfer full): the mapping, which applies nothing before
 *   lwn_reader_settings_follow()
 */
LwnReaderSettings *
lwn_reader_settings_new (GSettings *settings,
                         LwnReader *reader)
{
  LwnReaderSettings *self;

  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (LWN_IS_READER (reader), NULL);

  self = g_object_new (LWN_TYPE_READER_SETTINGS, NULL);
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  self->reader = g_object_ref (reader);
  return self;
}
