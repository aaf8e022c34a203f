/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn-store: any bytes as state.ini, loaded, queried (reminders too), saved and loaded back. */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "lwn-store-private.h"
#include "lwn-url.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

/* The URL and id the seed state files use, so that the lookups can hit. */
#define FEED_URL "https://lwn.net/headlines/rss"
#define ITEM_ID "https://lwn.net/Articles/938357/"
/* Kept as a digest: the one in the seeds' digest lists. */
#define UNSTORABLE_ID "bad \xff id"

/* One state folder per process, emptied after every input. */
static char *state_dir;
static char *cache_dir;
static char *state_path;

/* Removes whatever the last input left: the state file, the copies a
 * corrupt one was renamed to, and any temporary file of a failed save. */
static void
empty_state_dir (void)
{
  g_autoptr (GDir) dir = g_dir_open (state_dir, 0, NULL);
  const char *name;

  if (dir == NULL)
    __builtin_trap ();

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (state_dir, name, NULL);

      if (g_remove (path) != 0)
        __builtin_trap ();
    }
}

static void
remove_state_dir (void)
{
  empty_state_dir ();
  g_rmdir (state_dir);
}

static void
check_utf8 (const char *text)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    __builtin_trap ();
}

static void
query (LwnStore *store)
{
  g_autoptr (GBytes) body = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *content_type = NULL;
  const char *const shown[] = { UNSTORABLE_ID, ITEM_ID };
  g_autoptr (GPtrArray) reminders = NULL;
  GDateTime *when;

  (void) lwn_store_is_read (store, ITEM_ID);
  (void) lwn_store_is_announced (store, ITEM_ID);
  (void) lwn_store_is_pending (store, ITEM_ID);
  /* Moves them to the end of the order, and keeps only them pending: a
   * reload sees the same order. */
  lwn_store_note_shown_ids (store, shown, G_N_ELEMENTS (shown));
  (void) lwn_store_is_read (store, UNSTORABLE_ID);
  (void) lwn_store_is_announced (store, UNSTORABLE_ID);
  (void) lwn_store_is_pending (store, UNSTORABLE_ID);
  /* The first run's flag means nothing without a pending announcement. */
  if (lwn_store_get_pending_first_run (store) && !lwn_store_has_pending (store))
    __builtin_trap ();
  (void) lwn_store_has_history (store);
  check_utf8 (lwn_store_get_etag (store, FEED_URL));
  check_utf8 (lwn_store_get_last_modified (store, FEED_URL));
  check_utf8 (lwn_store_get_moved_url (store, FEED_URL));

  /* Every reminder kept is one the applet may show and open. */
  reminders = lwn_reminders_dup_all (lwn_store_get_reminders (store));
  if (reminders->len > LWN_REMINDERS_MAX)
    __builtin_trap ();
  for (guint i = 0; i < reminders->len; i++)
    {
      LwnReminder *reminder = g_ptr_array_index (reminders, i);

      check_utf8 (lwn_reminder_get_item_id (reminder));
      check_utf8 (lwn_reminder_get_title (reminder));
      if (!lwn_url_is_launchable (lwn_reminder_get_url (reminder))
          || lwn_reminders_lookup (lwn_store_get_reminders (store), lwn_reminder_get_item_id (reminder)) != reminder)
        __builtin_trap ();
    }
  (void) lwn_reminders_lookup (lwn_store_get_reminders (store), ITEM_ID);

  when = lwn_store_get_last_success (store);
  if (when != NULL)
    {
      g_autofree char *text = g_date_time_format_iso8601 (when);

      if (text == NULL)
        __builtin_trap ();
    }

  /* The cache folder is never created, so there is never a body to read. */
  body = lwn_store_load_feed_body (store, FEED_URL, &content_type, &error);
  if (body != NULL || error != NULL)
    __builtin_trap ();
}

/* Saves @store and returns what it wrote; a save must always succeed here. */
static char *
save (LwnStore *store,
      gsize *length)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  if (!lwn_store_save (store, &error) || error != NULL)
    __builtin_trap ();
  if (!g_file_get_contents (state_path, &contents, length, NULL))
    __builtin_trap ();

  return contents;
}

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  g_autoptr (GError) error = NULL;

  lwn_fuzz_init_logging ();

  state_dir = g_dir_make_tmp ("lwn-fuzz-store-XXXXXX", &error);
  if (state_dir == NULL)
    __builtin_trap ();
  cache_dir = g_build_filename (state_dir, "cache", NULL);
  state_path = g_build_filename (state_dir, "state.ini", NULL);
  atexit (remove_state_dir);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autoptr (LwnStore) store = NULL;
  g_autoptr (LwnStore) reloaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *resaved = NULL;
  gsize saved_length = 0;
  gsize resaved_length = 0;

  if (!g_file_set_contents (state_path, (const char *) data, (gssize) size, NULL))
    __builtin_trap ();

  store = lwn_store_new (state_dir, cache_dir);
  if (!lwn_store_load (store, &error))
    {
      /* The only failure is a corrupt file, explained and moved aside. */
      if (!g_error_matches (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT))
        __builtin_trap ();
      check_utf8 (error->message);
      if (g_file_test (state_path, G_FILE_TEST_EXISTS))
        __builtin_trap ();
      g_clear_error (&error);
    }
  else if (error != NULL)
    __builtin_trap ();

  query (store);
  saved = save (store, &saved_length);

  /* What the store writes it must read back as it was: loading the saved
   * file and saving again gives the same bytes. */
  reloaded = lwn_store_new (state_dir, cache_dir);
  if (!lwn_store_load (reloaded, &error) || error != NULL)
    __builtin_trap ();
  query (reloaded);
  resaved = save (reloaded, &resaved_length);
  if (saved_length != resaved_length || memcmp (saved, resaved, saved_length) != 0)
    __builtin_trap ();

  empty_state_dir ();
  return 0;
}
