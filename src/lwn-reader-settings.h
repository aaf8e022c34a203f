/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The settings that steer the feeds followed, and the command line's overrides of them for one run. */
#pragma once

#include <gio/gio.h>

#include "lwn-feed-set.h"
#include "lwn-opml.h"

G_BEGIN_DECLS

#define LWN_TYPE_READER_SETTINGS (lwn_reader_settings_get_type ())
G_DECLARE_FINAL_TYPE (LwnReaderSettings, lwn_reader_settings, LWN, READER_SETTINGS, GObject)

/* clang-format off */
GSettings         *lwn_reader_settings_open_schema   (const char        *schema_id);
char              *lwn_reader_settings_dup_feed_url  (GSettings         *settings,
                                                      const char        *fallback);
gboolean           lwn_reader_settings_migrate       (GSettings         *settings);
LwnFeedSpec       *lwn_reader_settings_parse_feeds   (GVariant          *value,
                                                      guint             *n_specs);
gboolean           lwn_reader_settings_import_feeds  (GSettings         *settings,
                                                      GPtrArray         *feeds,
                                                      LwnOpmlImport     *import);
gboolean           lwn_reader_settings_add_feeds     (GSettings         *settings,
                                                      GPtrArray         *feeds,
                                                      guint             *n_added);
GPtrArray         *lwn_reader_settings_list_feeds    (GSettings         *settings,
                                                      const char        *default_feed_url);
char              *lwn_reader_settings_describe_import (guint            added,
                                                        guint            already,
                                                        guint            skipped);

LwnReaderSettings *lwn_reader_settings_new           (GSettings         *settings,
                                                      LwnFeedSet        *feeds,
                                                      const char        *default_feed_url);
gboolean           lwn_reader_settings_apply_options (LwnReaderSettings *self,
                                                      GVariantDict      *options);
void               lwn_reader_settings_follow        (LwnReaderSettings *self);
gboolean           lwn_reader_settings_is_overridden (LwnReaderSettings *self,
                                                      const char        *key);
/* clang-format on */

G_END_DECLS
