/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What must survive a restart: read and announced ids, announcements no server has shown yet, reminders,
 * validators, the moved URL and the last good feed body. */
#pragma once

#include <gio/gio.h>

#include "lwn-reminders.h"
#include "lwn-store-file.h"

G_BEGIN_DECLS

#define LWN_TYPE_STORE (lwn_store_get_type ())

G_DECLARE_FINAL_TYPE (LwnStore, lwn_store, LWN, STORE, GObject)

/* clang-format off */
LwnStore   *lwn_store_new                   (const char          *state_dir,
                                             const char          *cache_dir);
gboolean    lwn_store_load                  (LwnStore            *self,
                                             GError             **error);
gboolean    lwn_store_save                  (LwnStore            *self,
                                             GError             **error);
void        lwn_store_save_async            (LwnStore            *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean    lwn_store_save_finish           (LwnStore            *self,
                                             GAsyncResult        *result,
                                             GError             **error);

gboolean    lwn_store_is_read               (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_mark_read             (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_is_announced          (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_mark_announced        (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_is_pending            (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_mark_pending          (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_drop_pending          (LwnStore            *self,
                                             const char          *id);
gboolean    lwn_store_has_pending           (LwnStore            *self);
void        lwn_store_set_pending_first_run (LwnStore            *self,
                                             gboolean             first_run);
gboolean    lwn_store_get_pending_first_run (LwnStore            *self);
gboolean    lwn_store_has_history           (LwnStore            *self);
void        lwn_store_note_shown_ids        (LwnStore            *self,
                                             const char *const   *ids,
                                             gsize                n_ids);
LwnReminders *lwn_store_get_reminders       (LwnStore            *self);

void        lwn_store_set_validators        (LwnStore            *self,
                                             const char          *feed_url,
                                             const char          *etag,
                                             const char          *last_modified);
const char *lwn_store_get_etag              (LwnStore            *self,
                                             const char          *feed_url);
const char *lwn_store_get_last_modified     (LwnStore            *self,
                                             const char          *feed_url);

void        lwn_store_set_moved_url         (LwnStore            *self,
                                             const char          *configured_url,
                                             const char          *moved_to_url);
const char *lwn_store_get_moved_url         (LwnStore            *self,
                                             const char          *configured_url);

char       *lwn_store_dup_feed_cache_path   (LwnStore            *self,
                                             const char          *feed_url);
gboolean    lwn_store_write_feed_cache      (const char          *path,
                                             GBytes              *body,
                                             const char          *content_type,
                                             GError             **error);
void        lwn_store_load_feed_body_async  (LwnStore            *self,
                                             const char          *feed_url,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
GBytes     *lwn_store_load_feed_body_finish (LwnStore            *self,
                                             GAsyncResult        *result,
                                             char               **out_content_type,
                                             GError             **error);

void        lwn_store_set_last_success      (LwnStore            *self,
                                             GDateTime           *when);
GDateTime  *lwn_store_get_last_success      (LwnStore            *self);

const char *lwn_store_get_state_path        (LwnStore            *self);
/* clang-format on */

G_END_DECLS
