/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The settings that steer the reading model, and the command line's overrides of them for one run. */
#pragma once

#include <gio/gio.h>

#include "lwn-reader.h"

G_BEGIN_DECLS

#define LWN_TYPE_READER_SETTINGS (lwn_reader_settings_get_type ())
G_DECLARE_FINAL_TYPE (LwnReaderSettings, lwn_reader_settings, LWN, READER_SETTINGS, GObject)

/* clang-format off */
GSettings         *lwn_reader_settings_open_schema   (const char        *schema_id);
char              *lwn_reader_settings_dup_feed_url  (GSettings         *settings,
                                                      const char        *fallback);

LwnReaderSettings *lwn_reader_settings_new           (GSettings         *settings,
                                                      LwnReader         *reader);
gboolean           lwn_reader_settings_apply_options (LwnReaderSettings *self,
                                                      GVariantDict      *options);
void               lwn_reader_settings_follow        (LwnReaderSettings *self);
gboolean           lwn_reader_settings_is_overridden (LwnReaderSettings *self,
                                                      const char        *key);
/* clang-format on */

G_END_DECLS
