/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnStore's files: round trips, corrupt files, failed writes, atomicity, ordered async saves, moves,
 * reminders and pending announcements. */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "store-fixture.h"

#define FEED_URL "https://lwn.net/headlines/rss"
#define OTHER_URL "https://lwn.net/headlines/newrss"

/* Each test runs with its own XDG folders (G_TEST_OPTION_ISOLATE_DIRS),
 * so a store built with NULL folders starts from nothing. */
static char *
default_state_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "lwn-tray", NULL);
}

static char *
default_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "lwn-tray", NULL);
}

/* The names in @dir, sorted, joined with spaces. */
static char *
list_dir (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_true (handle != NULL);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (" ", (char **) names->pdata);
}

static void
test_first_run (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *expected = g_build_filename (state_dir, "state.ini", NULL);
  g_autofree char *cache_dir = default_cache_dir ();
  g_autofree char *cache_path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_autofree char *cache_parent = g_path_get_dirname (cache_path);
  g_autofree char *other_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);

  g_test_summary ("A missing state file is a first run: load succeeds with an empty state in the XDG folders.");

  g_assert_cmpstr (lwn_store_get_state_path (store), ==, expected);
  g_assert_cmpstr (cache_parent, ==, cache_dir);
  g_assert_cmpstr (other_path, !=, cache_path);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_true (!lwn_store_has_history (store));
  g_assert_true (!lwn_store_is_read (store, "a"));
  g_assert_true (lwn_store_get_etag (store, FEED_URL) == NULL);
  g_assert_true (lwn_store_get_moved_url (store, FEED_URL) == NULL);
  g_assert_true (lwn_store_get_last_success (store) == NULL);
  g_assert_true (!g_file_test (state_dir, G_FILE_TEST_EXISTS));
}

static void
test_validators (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;

  g_test_summary ("Validators are kept per feed URL and never offered for another URL.");

  lwn_store_set_validators (store, FEED_URL, "\"abc;def\"", "Sat, 01 Jul 2023 10:00:00 GMT");
  g_assert_cmpstr (lwn_store_get_etag (store, FEED_URL), ==, "\"abc;def\"");
  g_assert_cmpstr (lwn_store_get_last_modified (store, FEED_URL), ==, "Sat, 01 Jul 2023 10:00:00 GMT");
  g_assert_true (lwn_store_get_etag (store, OTHER_URL) == NULL);
  g_assert_true (lwn_store_get_last_modified (store, OTHER_URL) == NULL);
  g_assert_true (lwn_store_get_etag (store, NULL) == NULL);

  loaded = reload (store);
  g_assert_cmpstr (lwn_store_get_etag (loaded, FEED_URL), ==, "\"abc;def\"");
  g_assert_cmpstr (lwn_store_get_last_modified (loaded, FEED_URL), ==, "Sat, 01 Jul 2023 10:00:00 GMT");
  g_assert_true (lwn_store_get_etag (loaded, OTHER_URL) == NULL);

  /* New validators for another URL replace the old ones. */
  lwn_store_set_validators (loaded, OTHER_URL, "W/\"x\"", NULL);
  g_assert_true (lwn_store_get_etag (loaded, FEED_URL) == NULL);
  g_assert_cmpstr (lwn_store_get_etag (loaded, OTHER_URL), ==, "W/\"x\"");
  g_assert_true (lwn_store_get_last_modified (loaded, OTHER_URL) == NULL);

  lwn_store_set_validators (loaded, OTHER_URL, NULL, NULL);
  g_assert_true (lwn_store_get_etag (loaded, OTHER_URL) == NULL);
}

static void
test_moved_url (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;

  g_test_summary ("A permanent redirect is remembered for the configured URL only, and can be forgotten.");

  lwn_store_set_moved_url (store, FEED_URL, OTHER_URL);
  g_assert_cmpstr (lwn_store_get_moved_url (store, FEED_URL), ==, OTHER_URL);
  g_assert_true (lwn_store_get_moved_url (store, OTHER_URL) == NULL);

  loaded = reload (store);
  g_assert_cmpstr (lwn_store_get_moved_url (loaded, FEED_URL), ==, OTHER_URL);
  g_assert_true (lwn_store_get_moved_url (loaded, "https://example.org/feed") == NULL);

  lwn_store_set_moved_url (loaded, FEED_URL, NULL);
  g_assert_true (lwn_store_get_moved_url (loaded, FEED_URL) == NULL);
}

static void
test_feed_body (void)
{
  static const char body_text[] = "<?xml version=\"1.0\"?>\n<rss>\0binary\xff</rss>";
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GBytes) body = g_bytes_new_static (body_text, sizeof body_text - 1);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GBytes) other = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *cache_path = NULL;
  char stale[] = "stale";
  char *other_type = stale;

  g_test_summary ("The last good body comes back byte for byte with its content type, only for its own URL.");

  g_assert_true (lwn_store_load_feed_body (store, FEED_URL, &content_type, &error) == NULL);
  g_assert_no_error (error);
  g_assert_true (content_type == NULL);

  g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, "application/rss+xml", &error));
  g_assert_no_error (error);

  loaded = reload (store);
  read_back = lwn_store_load_feed_body (loaded, FEED_URL, &content_type, &error);
  g_assert_no_error (error);
  g_assert_true (read_back != NULL);
  g_assert_true (g_bytes_equal (read_back, body));
  g_assert_cmpstr (content_type, ==, "application/rss+xml");

  other = lwn_store_load_feed_body (loaded, OTHER_URL, &other_type, &error);
  g_assert_no_error (error);
  g_assert_true (other == NULL);
  g_assert_true (other_type == NULL);

  /* A cache file removed behind our back is simply no cache. */
  cache_path = lwn_store_dup_feed_cache_path (loaded, FEED_URL);
  g_assert_cmpint (g_unlink (cache_path), ==, 0);
  g_assert_true (lwn_store_load_feed_body (loaded, FEED_URL, NULL, &error) == NULL);
  g_assert_no_error (error);
}

static void
test_feed_body_unreadable (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) body = g_bytes_new_static ("<rss/>", 6);
  g_autoptr (GError) error = NULL;
  g_autofree char *cache_path = lwn_store_dup_feed_cache_path (store, FEED_URL);

  g_test_summary ("An unreadable cache file gives NULL with an I/O error naming it.");

  g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, NULL, &error));
  g_assert_no_error (error);

  /* A folder where the file should be cannot be read as one, even by root. */
  g_assert_cmpint (g_unlink (cache_path), ==, 0);
  g_assert_cmpint (g_mkdir (cache_path, 0700), ==, 0);

  g_assert_true (lwn_store_load_feed_body (store, FEED_URL, NULL, &error) == NULL);
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO);
  g_assert_true (strstr (error->message, cache_path) != NULL);
}

static void
test_last_success (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GTimeZone) zone = g_time_zone_new_offset (2 * 3600);
  g_autoptr (GDateTime) when = g_date_time_new (zone, 2023, 7, 1, 12, 34, 56.25);

  g_test_summary ("The time of the last success round-trips to the microsecond, and can be cleared.");

  g_assert_true (lwn_store_get_last_success (store) == NULL);
  lwn_store_set_last_success (store, when);
  g_assert_true (g_date_time_equal (lwn_store_get_last_success (store), when));

  loaded = reload (store);
  g_assert_true (lwn_store_get_last_success (loaded) != NULL);
  g_assert_true (g_date_time_equal (lwn_store_get_last_success (loaded), when));

  lwn_store_set_last_success (loaded, NULL);
  g_assert_true (lwn_store_get_last_success (loaded) == NULL);
}

static void
test_lone_backslash_value (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;

  g_test_summary ("A value ending in a lone backslash is ignored, quietly, and the rest of the file is kept.");

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\n"
              "[validators]\nurl=" FEED_URL "\netag=W/\\q\\\nlast-modified=Sat, 01 Jul 2023 10:00:00 GMT\n",
              -1);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_get_etag (store, FEED_URL) == NULL);
  g_assert_cmpstr (lwn_store_get_last_modified (store, FEED_URL), ==, "Sat, 01 Jul 2023 10:00:00 GMT");
}

typedef struct
{
  const char *name;
  const char *contents;
  gssize length;
} CorruptCase;

static const CorruptCase corrupt_cases[] = {
  { "junk", "this is not a key file\nat all\n", -1 },
  { "binary", "\x7f"
              "ELF\x02\x01\x01\0\0\0\0\xff\xfe\x01",
    14 },
  { "empty", "", 0 },
  { "wrong-version", "[state]\nversion=2\n[read]\nids=a;\n", -1 },
  { "bad-version", "[state]\nversion=one\n", -1 },
  { "no-version", "[read]\nids=a;b;\n", -1 },
  { "invalid-utf8-list", "[state]\nversion=1\n[read]\nids=a;\xff\xfe;\n", -1 },
  /* An unknown escape and a trailing backslash together made GLib 2.74 warn. */
  { "lone-backslash-list", "[state]\nversion=1\n[read]\nids=a\\q;b\\\n", -1 },
  /* Larger than any state the store writes: made below. */
  { "huge-list", NULL, 0 },
};

static char *
make_huge_state (gsize *out_length)
{
  /* Larger than what this version and older ones write, about 17 MiB. */
  gsize size = MAX (LWN_STORE_MAX_STATE_BYTES, LWN_STORE_MAX_OLD_STATE_BYTES) + 1;
  GString *contents = g_string_sized_new (size + 4096);
  g_autofree char *id = g_strnfill (4000, 'z');

  g_string_append (contents, "[state]\nversion=1\n[read]\nids=");
  while (contents->len < size)
    g_string_append_printf (contents, "%s;", id);
  g_string_append_c (contents, '\n');

  *out_length = contents->len;
  return g_string_free (contents, FALSE);
}

/* The one state.ini.corrupt-* file in @dir, or NULL. */
static char *
find_corrupt_copy (const char *dir)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  g_assert_true (handle != NULL);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      if (g_str_has_prefix (name, "state.ini.corrupt-"))
        {
          g_assert_true (found == NULL);
          found = g_build_filename (dir, name, NULL);
        }
    }

  return found;
}

static void
test_corrupt (gconstpointer data)
{
  const CorruptCase *test_case = data;
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *contents = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *copy_contents = NULL;
  g_autofree char *copy_name = NULL;
  gsize length;
  gsize copy_length = 0;

  g_test_summary ("A corrupt state file is moved aside with an explanation, and the empty store stays usable.");

  if (test_case->contents != NULL)
    {
      length = test_case->length < 0 ? strlen (test_case->contents) : (gsize) test_case->length;
      contents = g_memdup2 (test_case->contents, length + 1);
    }
  else
    {
      contents = make_huge_state (&length);
    }
  write_file (lwn_store_get_state_path (store), contents, length);

  g_assert_true (lwn_store_mark_read (store, "stale"));
  g_assert_true (lwn_store_mark_announced (store, "stale"));

  g_assert_true (!lwn_store_load (store, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT);
  g_test_message ("%s: %s", test_case->name, error->message);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));

  copy = find_corrupt_copy (state_dir);
  g_assert_true (copy != NULL);
  copy_name = g_path_get_basename (copy);
  g_assert_cmpuint (strlen (copy_name), ==, strlen ("state.ini.corrupt-YYYYMMDD-HHMMSS"));
  g_assert_true (strstr (error->message, lwn_store_get_state_path (store)) != NULL);
  g_assert_true (strstr (error->message, copy) != NULL);
  g_assert_true (!g_file_test (lwn_store_get_state_path (store), G_FILE_TEST_EXISTS));

  g_assert_true (g_file_get_contents (copy, &copy_contents, &copy_length, NULL));
  g_assert_cmpmem (copy_contents, copy_length, contents, length);

  g_assert_true (!lwn_store_is_read (store, "stale"));
  g_assert_true (!lwn_store_is_announced (store, "stale"));
  g_assert_true (!lwn_store_has_history (store));

  g_assert_true (lwn_store_mark_read (store, "fresh"));
  loaded = reload (store);
  g_assert_true (lwn_store_is_read (loaded, "fresh"));
}

static void
test_corrupt_twice (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *names = NULL;
  g_auto (GStrv) parts = NULL;

  g_test_summary ("Two corrupt files in the same second are both kept, under different names.");

  write_file (lwn_store_get_state_path (store), "first", -1);
  g_assert_true (!lwn_store_load (store, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT);
  g_clear_error (&error);

  write_file (lwn_store_get_state_path (store), "second", -1);
  g_assert_true (!lwn_store_load (store, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT);

  names = list_dir (state_dir);
  parts = g_strsplit (names, " ", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_assert_true (g_str_has_prefix (parts[0], "state.ini.corrupt-"));
  g_assert_true (g_str_has_prefix (parts[1], "state.ini.corrupt-"));
}

/* Makes a folder nobody can write to. Returns FALSE when this process
 * can write there anyway (root ignores permission bits). */
static gboolean
make_unwritable_dir (const char *dir)
{
  g_autofree char *probe = g_build_filename (dir, "probe", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0500), ==, 0);

  if (g_file_set_contents (probe, "", 0, NULL))
    {
      g_assert_cmpint (g_unlink (probe), ==, 0);
      g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
      return FALSE;
    }

  return TRUE;
}

static void
test_save_fails (void)
{
  g_autofree char *readonly_dir = g_build_filename (g_get_user_state_dir (), "read-only", NULL);
  g_autofree char *blocker = g_build_filename (g_get_user_state_dir (), "blocker", NULL);
  g_autofree char *state_dir = NULL;
  g_autoptr (LwnStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) body = g_bytes_new_static ("<rss/>", 6);
  gboolean used_permissions = make_unwritable_dir (readonly_dir);

  g_test_summary ("A state folder that cannot be written gives an I/O error naming it; the state stays in memory.");

  if (used_permissions)
    {
      state_dir = g_strdup (readonly_dir);
    }
  else
    {
      /* Privileged: a path through a regular file cannot be created by anyone. */
      g_test_message ("Running privileged: using a state folder below a regular file");
      write_file (blocker, "not a folder", -1);
      state_dir = g_build_filename (blocker, "lwn-tray", NULL);
    }

  store = lwn_store_new (state_dir, state_dir);
  g_assert_true (lwn_store_mark_read (store, "kept"));
  lwn_store_set_validators (store, FEED_URL, "\"etag\"", NULL);

  g_assert_true (!lwn_store_save (store, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO);
  g_assert_true (strstr (error->message, state_dir) != NULL);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_true (!lwn_store_save_feed_body (store, FEED_URL, body, NULL, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO);
  g_clear_error (&error);
  g_assert_true (lwn_store_load_feed_body (store, FEED_URL, NULL, &error) == NULL);
  g_assert_no_error (error);

  g_assert_true (lwn_store_is_read (store, "kept"));
  g_assert_cmpstr (lwn_store_get_etag (store, FEED_URL), ==, "\"etag\"");

  if (used_permissions)
    {
      g_autofree char *names = list_dir (readonly_dir);

      g_assert_cmpstr (names, ==, "");
      g_assert_cmpint (g_chmod (readonly_dir, 0700), ==, 0);
    }
}

static void
test_atomic_files (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) body = g_bytes_new_static ("<rss/>", 6);
  g_autoptr (GError) error = NULL;
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *cache_dir = default_cache_dir ();
  g_autofree char *cache_path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_autofree char *cache_name = g_path_get_basename (cache_path);
  g_autofree char *state_names = NULL;
  g_autofree char *cache_names = NULL;
  GStatBuf st;

  g_test_summary ("Saves leave only the final files behind, private to the user.");

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *id = g_strdup_printf ("id-%u", i);

      lwn_store_mark_read (store, id);
      g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, "text/xml", &error));
      g_assert_no_error (error);
      g_assert_true (lwn_store_save (store, &error));
      g_assert_no_error (error);
    }

  state_names = list_dir (state_dir);
  cache_names = list_dir (cache_dir);
  g_assert_cmpstr (state_names, ==, "state.ini");
  g_assert_cmpstr (cache_names, ==, cache_name);

  g_assert_cmpint (g_stat (state_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (lwn_store_get_state_path (store), &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (cache_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

/* Runs the default main context until *@flag is set. */
static void
wait_for (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

typedef struct
{
  LwnStore *store;
  GArray *order;  /* the tags of the saves, in the order they completed */
  guint pending;  /* saves not completed yet */
  guint failures; /* saves that completed with an error */
  GError *error;  /* the first error */
} SaveLog;

static void
save_log_clear (SaveLog *log)
{
  g_clear_pointer (&log->order, g_array_unref);
  g_clear_error (&log->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SaveLog, save_log_clear)

static void
logged_save_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  SaveLog *log = g_object_get_data (source, "save-log");
  guint tag = GPOINTER_TO_UINT (user_data);
  g_autoptr (GError) error = NULL;

  g_assert_true (source == G_OBJECT (log->store));
  if (!lwn_store_save_finish (log->store, result, &error))
    {
      log->failures++;
      if (log->error == NULL)
        log->error = g_steal_pointer (&error);
    }
  g_array_append_val (log->order, tag);
  log->pending--;
}

static void
save_logged (SaveLog *log,
             guint tag)
{
  log->pending++;
  lwn_store_save_async (log->store, NULL, logged_save_cb, GUINT_TO_POINTER (tag));
}

static void
save_log_init (SaveLog *log,
               LwnStore *store)
{
  log->store = store;
  log->order = g_array_new (FALSE, FALSE, sizeof (guint));
  log->pending = 0;
  log->failures = 0;
  log->error = NULL;
  g_object_set_data (G_OBJECT (store), "save-log", log);
}

static void
save_log_wait (SaveLog *log)
{
  while (log->pending > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_save_async_order (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_auto (SaveLog) log = { 0 };

  g_test_summary ("Many saves in a row complete in the order they were asked for, and the file ends with the last state.");

  save_log_init (&log, store);
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *id = g_strdup_printf ("id-%u", i);
      g_autofree char *etag = g_strdup_printf ("\"v%u\"", i);

      lwn_store_mark_read (store, id);
      lwn_store_set_validators (store, FEED_URL, etag, NULL);
      save_logged (&log, i);
      /* Let some writes finish between the requests, not all. */
      if (i % 7 == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  save_log_wait (&log);

  g_assert_no_error (log.error);
  g_assert_cmpuint (log.order->len, ==, 50);
  for (guint i = 0; i < log.order->len; i++)
    g_assert_cmpuint (g_array_index (log.order, guint, i), ==, i);

  g_assert_true (lwn_store_load (loaded, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_store_get_etag (loaded, FEED_URL), ==, "\"v49\"");
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *id = g_strdup_printf ("id-%u", i);

      g_assert_true (lwn_store_is_read (loaded, id));
    }
}

static void
test_save_async_in_flight (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_auto (SaveLog) log = { 0 };

  g_test_summary ("A save asked for while another is being written waits for it, then writes the state as it is then.");

  save_log_init (&log, store);
  lwn_store_mark_read (store, "first");
  save_logged (&log, 0);
  /* The first write is in flight: this one waits for it. */
  lwn_store_mark_read (store, "second");
  save_logged (&log, 1);
  /* Changed after both calls, before the second write began. */
  lwn_store_set_validators (store, FEED_URL, "\"late\"", NULL);
  save_log_wait (&log);

  g_assert_no_error (log.error);
  g_assert_cmpuint (log.order->len, ==, 2);
  g_assert_cmpuint (g_array_index (log.order, guint, 0), ==, 0);
  g_assert_cmpuint (g_array_index (log.order, guint, 1), ==, 1);

  g_assert_true (lwn_store_load (loaded, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_is_read (loaded, "first"));
  g_assert_true (lwn_store_is_read (loaded, "second"));
  g_assert_cmpstr (lwn_store_get_etag (loaded, FEED_URL), ==, "\"late\"");
}

static void
test_save_sync_after_async (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_auto (SaveLog) log = { 0 };

  g_test_summary ("A save in place while an asynchronous one is pending waits for it, "
                  "and is never overwritten by its older state.");

  save_log_init (&log, store);
  for (guint round = 0; round < 50; round++)
    {
      g_autofree char *etag = g_strdup_printf ("\"v%u\"", round);
      g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);

      lwn_store_mark_read (store, etag);
      save_logged (&log, round);
      lwn_store_set_validators (store, FEED_URL, etag, NULL);
      g_assert_true (lwn_store_save (store, &error));
      g_assert_no_error (error);
      save_log_wait (&log);

      g_assert_true (lwn_store_load (loaded, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (lwn_store_get_etag (loaded, FEED_URL), ==, etag);
    }
  g_assert_no_error (log.error);
}

static void
saved_cb (GObject *source,
          GAsyncResult *result,
          gpointer user_data)
{
  gboolean *done = user_data;
  g_autoptr (GError) error = NULL;

  g_assert_true (lwn_store_save_finish (LWN_STORE (source), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_save_async_snapshot_evicted (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  guint keep = store->keep_ids;
  gboolean done = FALSE;

  g_test_summary ("A save writes the ids as they were when it was asked for, even when all of them are "
                  "forgotten before its worker writes them.");

  for (guint i = 0; i < keep; i++)
    {
      g_autofree char *id = g_strdup_printf ("old-%u", i);

      g_assert_true (lwn_store_mark_read (store, id));
    }

  /* The worker waits for this lock before it writes. */
  g_mutex_lock (&store->writer.lock);
  lwn_store_save_async (store, NULL, saved_cb, &done);
  for (guint i = 0; i <= keep; i++)
    {
      g_autofree char *id = g_strdup_printf ("new-%u", i);

      g_assert_true (lwn_store_mark_read (store, id));
    }
  g_assert_true (!lwn_store_is_read (store, "old-0"));
  g_assert_true (!lwn_store_is_read (store, "old-999"));
  g_mutex_unlock (&store->writer.lock);
  wait_for (&done);

  g_assert_true (lwn_store_load (loaded, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < keep; i++)
    {
      g_autofree char *old_id = g_strdup_printf ("old-%u", i);
      g_autofree char *new_id = g_strdup_printf ("new-%u", i);

      g_assert_true (lwn_store_is_read (loaded, old_id));
      g_assert_true (!lwn_store_is_read (loaded, new_id));
    }
}

/* A state folder nobody can create, even root: its parent is a regular file. */
static char *
make_impossible_dir (void)
{
  g_autofree char *blocker = g_build_filename (g_get_user_state_dir (), "file", NULL);

  write_file (blocker, "not a folder", -1);
  return g_build_filename (blocker, "sub", NULL);
}

static void
test_save_async_fails (void)
{
  g_autofree char *state_dir = make_impossible_dir ();
  g_autoptr (LwnStore) store = lwn_store_new (state_dir, state_dir);
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = NULL;
  g_auto (SaveLog) log = { 0 };

  g_test_summary ("An asynchronous save that cannot write fails with an I/O error naming the file and the reason, "
                  "and the saves behind it still complete.");

  expected = g_strdup_printf ("%s/state.ini", state_dir);
  save_log_init (&log, store);
  lwn_store_mark_read (store, "kept");
  save_logged (&log, 0);
  save_logged (&log, 1);
  save_logged (&log, 2);
  save_log_wait (&log);

  g_assert_cmpuint (log.failures, ==, 3);
  g_assert_error (log.error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO);
  g_test_message ("%s", log.error->message);
  g_assert_true (strstr (log.error->message, expected) != NULL);
  g_assert_true (strstr (log.error->message, g_strerror (ENOTDIR)) != NULL);
  g_assert_true (lwn_store_is_read (store, "kept"));

  g_assert_true (!lwn_store_save (store, &error));
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_IO);
  g_assert_cmpstr (error->message, ==, log.error->message);
}

static void
test_save_async_cancelled (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_auto (SaveLog) log = { 0 };

  g_test_summary ("A cancelled save reports G_IO_ERROR_CANCELLED and does not hold up the others.");

  save_log_init (&log, store);
  lwn_store_mark_read (store, "a");
  log.pending++;
  lwn_store_save_async (store, cancellable, logged_save_cb, GUINT_TO_POINTER (0));
  g_cancellable_cancel (cancellable);
  lwn_store_mark_read (store, "b");
  save_logged (&log, 1);
  save_log_wait (&log);

  g_assert_cmpuint (log.failures, ==, 1);
  g_assert_error (log.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* Both answered; a cancelled save may answer before or after the next one. */
  g_assert_cmpuint (log.order->len, ==, 2);
  g_assert_cmpuint (g_array_index (log.order, guint, 0) + g_array_index (log.order, guint, 1), ==, 1);
  g_assert_true (lwn_store_load (loaded, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_is_read (loaded, "b"));
}

typedef struct
{
  char *path;
  GBytes *body;
  const char *content_type;
} CacheWrite;

static gpointer
write_cache_thread (gpointer data)
{
  CacheWrite *job = data;
  g_autoptr (GError) error = NULL;

  g_assert_true (lwn_store_write_feed_cache (job->path, job->body, job->content_type, &error));
  g_assert_no_error (error);
  return NULL;
}

static void
test_feed_cache_thread (void)
{
  static const char body_text[] = "<rss>\0\n\xff binary</rss>";
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) body = g_bytes_new_static (body_text, sizeof body_text - 1);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  CacheWrite job = { path, body, "application/rss+xml; charset=utf-8" };
  CacheWrite bad_type = { path, body, "text/xml\nX-Injected: yes" };
  GThread *thread;

  g_test_summary ("A worker thread writes the cache with only a path; the store reads it back, content type and all.");

  thread = g_thread_new ("cache-writer", write_cache_thread, &job);
  g_thread_join (thread);

  read_back = lwn_store_load_feed_body (store, FEED_URL, &content_type, &error);
  g_assert_no_error (error);
  g_assert_true (read_back != NULL);
  g_assert_true (g_bytes_equal (read_back, body));
  g_assert_cmpstr (content_type, ==, "application/rss+xml; charset=utf-8");
  g_clear_pointer (&read_back, g_bytes_unref);
  g_clear_pointer (&content_type, g_free);

  /* A content type that would break the file's lines is not kept. */
  thread = g_thread_new ("cache-writer", write_cache_thread, &bad_type);
  g_thread_join (thread);
  read_back = lwn_store_load_feed_body (store, FEED_URL, &content_type, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (read_back, body));
  g_assert_true (content_type == NULL);
}

static void
test_feed_cache_not_ours (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *path = lwn_store_dup_feed_cache_path (store, FEED_URL);

  g_test_summary ("A cache file without our header is reported as corrupt, naming it, and not parsed as a feed.");

  write_file (path, "<rss/>", -1);
  g_assert_true (lwn_store_load_feed_body (store, FEED_URL, NULL, &error) == NULL);
  g_assert_error (error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT);
  g_assert_true (strstr (error->message, path) != NULL);
}

typedef struct
{
  gboolean done;
  GBytes *body;
  char *content_type;
  GError *error;
} LoadResult;

static void
load_result_clear (LoadResult *result)
{
  g_clear_pointer (&result->body, g_bytes_unref);
  g_clear_pointer (&result->content_type, g_free);
  g_clear_error (&result->error);
  result->done = FALSE;
}

static void
load_body_cb (GObject *source,
              GAsyncResult *result,
              gpointer user_data)
{
  LoadResult *out = user_data;

  out->body = lwn_store_load_feed_body_finish (LWN_STORE (source), result, &out->content_type, &out->error);
  out->done = TRUE;
}

static void
load_async (LwnStore *store,
            const char *url,
            GCancellable *cancellable,
            LoadResult *result)
{
  load_result_clear (result);
  lwn_store_load_feed_body_async (store, url, cancellable, load_body_cb, result);
  wait_for (&result->done);
}

static void
test_feed_cache_load_async (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) body = g_bytes_new_static ("<feed/>", 7);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *other_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);
  LoadResult result = { 0 };

  g_test_summary ("The cache is read on a worker: the body and type, nothing without an error, or the error.");

  load_async (store, FEED_URL, NULL, &result);
  g_assert_no_error (result.error);
  g_assert_true (result.body == NULL);
  g_assert_true (result.content_type == NULL);

  g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, "application/atom+xml", &error));
  g_assert_no_error (error);
  load_async (store, FEED_URL, NULL, &result);
  g_assert_no_error (result.error);
  g_assert_true (g_bytes_equal (result.body, body));
  g_assert_cmpstr (result.content_type, ==, "application/atom+xml");

  write_file (other_path, "junk", -1);
  load_async (store, OTHER_URL, NULL, &result);
  g_assert_error (result.error, LWN_STORE_ERROR, LWN_STORE_ERROR_CORRUPT);
  g_assert_true (result.body == NULL);

  g_cancellable_cancel (cancellable);
  load_async (store, FEED_URL, cancellable, &result);
  g_assert_error (result.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (result.body == NULL);
  g_assert_true (result.content_type == NULL);

  load_result_clear (&result);
}

static void
test_moved_url_carries_over (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GBytes) body = g_bytes_new_static ("<rss>old place</rss>", 20);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *old_path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_autofree char *new_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);

  g_test_summary ("After a permanent redirect, the validators and cached body of the old URL belong to the new one, "
                  "also after a restart, so the next poll can get a 304 and the next start shows headlines at once.");

  lwn_store_set_validators (store, FEED_URL, "\"v1\"", "Sat, 01 Jul 2023 10:00:00 GMT");
  g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, "application/rss+xml", &error));
  g_assert_no_error (error);

  lwn_store_set_moved_url (store, FEED_URL, OTHER_URL);
  g_assert_cmpstr (lwn_store_get_etag (store, OTHER_URL), ==, "\"v1\"");
  g_assert_cmpstr (lwn_store_get_last_modified (store, OTHER_URL), ==, "Sat, 01 Jul 2023 10:00:00 GMT");
  read_back = lwn_store_load_feed_body (store, OTHER_URL, &content_type, &error);
  g_assert_no_error (error);
  g_assert_true (read_back != NULL);
  g_assert_true (g_bytes_equal (read_back, body));
  g_assert_cmpstr (content_type, ==, "application/rss+xml");
  /* Renamed, not copied. */
  g_assert_true (!g_file_test (old_path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&read_back, g_bytes_unref);
  g_clear_pointer (&content_type, g_free);

  loaded = reload (store);
  g_assert_cmpstr (lwn_store_get_moved_url (loaded, FEED_URL), ==, OTHER_URL);
  g_assert_cmpstr (lwn_store_get_etag (loaded, OTHER_URL), ==, "\"v1\"");
  read_back = lwn_store_load_feed_body (loaded, OTHER_URL, &content_type, &error);
  g_assert_no_error (error);
  g_assert_true (read_back != NULL);
  g_assert_true (g_bytes_equal (read_back, body));
  g_assert_cmpstr (content_type, ==, "application/rss+xml");
  g_assert_true (g_file_test (new_path, G_FILE_TEST_IS_REGULAR));
}

static void
test_moved_url_old_name (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) body = g_bytes_new_static ("<rss>fresh</rss>", 16);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *new_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);

  g_test_summary ("What is stored under the configured URL after its move is recorded lands with the new URL.");

  lwn_store_set_moved_url (store, FEED_URL, OTHER_URL);
  lwn_store_set_validators (store, FEED_URL, "\"v2\"", NULL);
  g_assert_true (lwn_store_save_feed_body (store, FEED_URL, body, NULL, &error));
  g_assert_no_error (error);

  g_assert_cmpstr (lwn_store_get_etag (store, OTHER_URL), ==, "\"v2\"");
  path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_assert_cmpstr (path, ==, new_path);
  read_back = lwn_store_load_feed_body (store, OTHER_URL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (read_back, body));
}

static void
test_moved_url_again (void)
{
  static const char third_url[] = "https://example.org/lwn.rss";
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) stale = g_bytes_new_static ("<rss>stale</rss>", 16);
  g_autoptr (GBytes) newer = g_bytes_new_static ("<rss>newer</rss>", 16);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *configured_path = NULL;
  g_autofree char *previous_path = NULL;
  g_autofree char *third_path = NULL;
  g_autofree char *cache_dir = default_cache_dir ();
  g_autofree char *names = NULL;
  g_autofree char *third_name = NULL;

  g_test_summary ("A second move carries over from where the feed first moved, and drops the stale copy "
                  "under the configured URL.");

  /* A stale copy under the configured URL and the current one where it first moved. */
  configured_path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_assert_true (lwn_store_write_feed_cache (configured_path, stale, NULL, &error));
  g_assert_no_error (error);
  lwn_store_set_moved_url (store, FEED_URL, OTHER_URL);
  previous_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);
  g_assert_true (lwn_store_write_feed_cache (previous_path, newer, NULL, &error));
  g_assert_no_error (error);
  lwn_store_set_validators (store, OTHER_URL, "\"v3\"", NULL);

  lwn_store_set_moved_url (store, FEED_URL, third_url);
  g_assert_cmpstr (lwn_store_get_moved_url (store, FEED_URL), ==, third_url);
  g_assert_cmpstr (lwn_store_get_etag (store, third_url), ==, "\"v3\"");
  read_back = lwn_store_load_feed_body (store, third_url, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (read_back, newer));
  g_clear_pointer (&read_back, g_bytes_unref);

  /* Only the file of where the feed lives now is left. */
  third_path = lwn_store_dup_feed_cache_path (store, third_url);
  third_name = g_path_get_basename (third_path);
  names = list_dir (cache_dir);
  g_assert_cmpstr (names, ==, third_name);
}

static void
test_moved_url_keeps_newer (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GBytes) old = g_bytes_new_static ("<rss>old</rss>", 14);
  g_autoptr (GBytes) fresh = g_bytes_new_static ("<rss>fresh</rss>", 16);
  g_autoptr (GBytes) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *old_path = lwn_store_dup_feed_cache_path (store, FEED_URL);
  g_autofree char *new_path = lwn_store_dup_feed_cache_path (store, OTHER_URL);

  g_test_summary ("A copy a worker wrote for the new URL before the move was recorded is kept, "
                  "not replaced by the old URL's older one.");

  g_assert_true (lwn_store_write_feed_cache (old_path, old, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_write_feed_cache (new_path, fresh, NULL, &error));
  g_assert_no_error (error);

  lwn_store_set_moved_url (store, FEED_URL, OTHER_URL);
  read_back = lwn_store_load_feed_body (store, OTHER_URL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (read_back, fresh));
  g_assert_true (!g_file_test (old_path, G_FILE_TEST_EXISTS));
}

/* Reminders ------------------------------------------------------------------ */

static LwnReminder *
make_reminder (guint number,
               const char *title,
               GDateTime *free_on)
{
  g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", number);
  LwnReminder *reminder = lwn_reminder_new (url, title, url, free_on);

  g_assert_nonnull (reminder);
  return reminder;
}

static void
assert_reminder (LwnStore *store,
                 guint index,
                 guint number,
                 const char *title,
                 GDateTime *free_on)
{
  g_autoptr (GPtrArray) all = lwn_reminders_dup_all (lwn_store_get_reminders (store));
  g_autofree char *url = g_strdup_printf ("https://lwn.net/Articles/%u/", number);
  LwnReminder *reminder;

  g_assert_cmpuint (index, <, all->len);
  reminder = g_ptr_array_index (all, index);
  g_assert_cmpstr (lwn_reminder_get_item_id (reminder), ==, url);
  g_assert_cmpstr (lwn_reminder_get_title (reminder), ==, title);
  g_assert_cmpstr (lwn_reminder_get_url (reminder), ==, url);
  g_assert_true (g_date_time_equal (lwn_reminder_get_free_on (reminder), free_on));
}

static void
test_reminders_round_trip (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GTimeZone) zone = g_time_zone_new_offset (2 * 3600);
  g_autoptr (GDateTime) first = g_date_time_new (zone, 2023, 7, 13, 9, 30, 12.5);
  g_autoptr (GDateTime) second = g_date_time_new_utc (2023, 7, 14, 0, 0, 0);
  g_autoptr (LwnReminder) a = make_reminder (937001, "Semicolons; \\backslashes\\ and a\nnew line", first);
  g_autoptr (LwnReminder) b = make_reminder (937002, " Über die Grenzen — ≠ ", second);
  g_autoptr (LwnReminder) c = make_reminder (937003, "", second);

  g_test_summary ("Reminders round-trip through the state file in the order they were set, with their titles as "
                  "they are and their times to the microsecond; the read marks beside them stay.");

  lwn_store_mark_read (store, "https://lwn.net/Articles/1/");
  lwn_reminders_add (lwn_store_get_reminders (store), a, NULL);
  lwn_reminders_add (lwn_store_get_reminders (store), b, NULL);
  lwn_reminders_add (lwn_store_get_reminders (store), c, NULL);

  loaded = reload (store);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (loaded)), ==, 3);
  assert_reminder (loaded, 0, 937001, "Semicolons; \\backslashes\\ and a\nnew line", first);
  assert_reminder (loaded, 1, 937002, " Über die Grenzen — ≠ ", second);
  assert_reminder (loaded, 2, 937003, "", second);
  g_assert_true (lwn_store_is_read (loaded, "https://lwn.net/Articles/1/"));

  /* Taken out, they stay out. */
  lwn_reminders_remove (lwn_store_get_reminders (loaded), "https://lwn.net/Articles/937002/");
  g_clear_object (&store);
  store = reload (loaded);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (store)), ==, 2);
  assert_reminder (store, 1, 937003, "", second);
}

static void
save_async_done_cb (GObject *source,
                    GAsyncResult *result,
                    gpointer user_data)
{
  gboolean *done = user_data;
  g_autoptr (GError) error = NULL;

  g_assert_true (lwn_store_save_finish (LWN_STORE (source), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_reminders_save_async (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = lwn_store_new (NULL, NULL);
  g_autoptr (GDateTime) free_on = g_date_time_new_utc (2023, 7, 14, 0, 0, 0);
  g_autoptr (LwnReminder) a = make_reminder (937001, "First", free_on);
  g_autoptr (LwnReminder) b = make_reminder (937002, "Second", free_on);
  g_autoptr (GError) error = NULL;
  gboolean done = FALSE;

  g_test_summary ("A save in a worker writes the reminders as they were when it began, however the set "
                  "changes meanwhile on the main thread.");

  lwn_reminders_add (lwn_store_get_reminders (store), a, NULL);
  lwn_reminders_add (lwn_store_get_reminders (store), b, NULL);
  lwn_store_save_async (store, NULL, save_async_done_cb, &done);
  lwn_reminders_clear (lwn_store_get_reminders (store));
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (lwn_store_load (loaded, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (loaded)), ==, 2);
  assert_reminder (loaded, 0, 937001, "First", free_on);
  assert_reminder (loaded, 1, 937002, "Second", free_on);
}

static void
test_reminders_old_file (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;

  g_test_summary ("A state file from before reminders loads whole, with no reminder.");

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\nlast-success=2023-07-21T14:05:09Z\n"
              "[read]\nids=https://lwn.net/Articles/1/;\n[announced]\nids=https://lwn.net/Articles/1/;\n"
              "[validators]\nurl=" FEED_URL "\netag=\"v1\"\n",
              -1);
  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (store)), ==, 0);
  g_assert_true (lwn_store_is_read (store, "https://lwn.net/Articles/1/"));
  g_assert_cmpstr (lwn_store_get_etag (store, FEED_URL), ==, "\"v1\"");
}

static void
test_reminders_corrupt (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDateTime) free_on = g_date_time_new_utc (2023, 7, 14, 0, 0, 0);
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *copy = NULL;

  g_test_summary ("A damaged reminders section costs only the reminders that cannot be used: the file is not "
                  "set aside, the read marks, validators and good reminders stay, and nothing is logged above debug.");

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\n"
              "[read]\nids=https://lwn.net/Articles/1/;\n"
              "[validators]\nurl=" FEED_URL "\netag=\"v1\"\n"
              "[reminders]\n"
              "1=https://lwn.net/Articles/10/;Too few;https://lwn.net/Articles/10/;\n"
              "2=https://lwn.net/Articles/11/;Too many;https://lwn.net/Articles/11/;2023-07-14T00:00:00Z;x;\n"
              "3=https://lwn.net/Articles/12/;Bad time;https://lwn.net/Articles/12/;next Tuesday;\n"
              "4=https://lwn.net/Articles/13/;Script;javascript:alert(1);2023-07-14T00:00:00Z;\n"
              "5=;No id;https://lwn.net/Articles/14/;2023-07-14T00:00:00Z;\n"
              "6=https://lwn.net/Articles/15/;Lone\\q;https://lwn.net/Articles/15/;2023-07-14T00:00:00Z\\\n"
              "7=https://lwn.net/Articles/16/;Not \xff UTF-8;https://lwn.net/Articles/16/;2023-07-14T00:00:00Z;\n"
              "8=\n"
              "9=https://lwn.net/Articles/937001/;Good;https://lwn.net/Articles/937001/;2023-07-14T00:00:00Z;\n"
              "10=https://lwn.net/Articles/17/;Unknown \\q escape;https://lwn.net/Articles/17/;2023-07-14T00:00:00Z;\n",
              -1);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  copy = find_corrupt_copy (state_dir);
  g_assert_null (copy);
  g_assert_true (lwn_store_is_read (store, "https://lwn.net/Articles/1/"));
  g_assert_cmpstr (lwn_store_get_etag (store, FEED_URL), ==, "\"v1\"");
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (store)), ==, 1);
  assert_reminder (store, 0, 937001, "Good", free_on);

  /* What is saved from it is clean, and loads as it was. */
  loaded = reload (store);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (loaded)), ==, 1);
  assert_reminder (loaded, 0, 937001, "Good", free_on);
}

static void
test_reminders_bounded_file (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDateTime) free_on = g_date_time_new_utc (2023, 7, 14, 0, 0, 0);
  GString *contents = g_string_new ("[state]\nversion=1\n[reminders]\n");
  g_autofree char *text = NULL;

  g_test_summary ("A file with more reminders than are kept gives the newest ones, those it lists last.");

  for (guint i = 1; i <= LWN_REMINDERS_MAX + 5; i++)
    g_string_append_printf (contents, "%u=https://lwn.net/Articles/%u/;Article %u;https://lwn.net/Articles/%u/;"
                                      "2023-07-14T00:00:00Z;\n",
                            i, 1000 + i, i, 1000 + i);
  text = g_string_free (contents, FALSE);
  write_file (lwn_store_get_state_path (store), text, -1);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (store)), ==, LWN_REMINDERS_MAX);
  assert_reminder (store, 0, 1006, "Article 6", free_on);
  assert_reminder (store, LWN_REMINDERS_MAX - 1, 1000 + LWN_REMINDERS_MAX + 5, "Article 205", free_on);
}

/* Pending announcements ------------------------------------------------------ */

static void
test_pending_round_trip (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (LwnStore) again = NULL;
  g_autoptr (LwnStore) last = NULL;
  g_autofree char *padding = g_strnfill (4096, 'p');
  g_autofree char *long_id = g_strconcat ("https://lwn.net/Articles/3/?", padding, NULL);
  const char *ids[] = { "https://lwn.net/Articles/1/", "bad \xff\xfe UTF-8", long_id };
  g_autofree char *contents = NULL;

  g_test_summary ("Announcements no notification server has shown yet, and whether they are a first run's, "
                  "survive a restart with ids of any length; the last one dropped takes the flag with it.");

  /* The flag means nothing without a pending announcement. */
  lwn_store_set_pending_first_run (store, TRUE);
  g_assert_false (lwn_store_get_pending_first_run (store));

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_true (lwn_store_mark_announced (store, ids[i]));
      g_assert_true (lwn_store_mark_pending (store, ids[i]));
      g_assert_false (lwn_store_mark_pending (store, ids[i]));
    }
  g_assert_true (lwn_store_mark_announced (store, "https://lwn.net/Articles/2/"));
  lwn_store_set_pending_first_run (store, TRUE);
  g_assert_true (lwn_store_get_pending_first_run (store));

  loaded = reload (store);
  g_assert_true (lwn_store_has_pending (loaded));
  g_assert_true (lwn_store_get_pending_first_run (loaded));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_true (lwn_store_is_pending (loaded, ids[i]));
      g_assert_true (lwn_store_is_announced (loaded, ids[i]));
    }
  g_assert_false (lwn_store_is_pending (loaded, "https://lwn.net/Articles/2/"));
  g_assert_true (lwn_store_is_announced (loaded, "https://lwn.net/Articles/2/"));
  g_assert_false (lwn_store_is_pending (loaded, NULL));

  /* Shown: no longer pending, still announced. */
  g_assert_true (lwn_store_drop_pending (loaded, ids[0]));
  g_assert_false (lwn_store_drop_pending (loaded, ids[0]));
  again = reload (loaded);
  g_assert_false (lwn_store_is_pending (again, ids[0]));
  g_assert_true (lwn_store_is_announced (again, ids[0]));
  g_assert_true (lwn_store_is_pending (again, ids[1]));
  g_assert_true (lwn_store_is_pending (again, ids[2]));
  g_assert_true (lwn_store_get_pending_first_run (again));

  g_assert_true (lwn_store_drop_pending (again, ids[1]));
  g_assert_true (lwn_store_get_pending_first_run (again));
  g_assert_true (lwn_store_drop_pending (again, ids[2]));
  g_assert_false (lwn_store_has_pending (again));
  g_assert_false (lwn_store_get_pending_first_run (again));

  last = reload (again);
  g_assert_false (lwn_store_has_pending (last));
  g_assert_false (lwn_store_get_pending_first_run (last));
  g_assert_true (lwn_store_has_history (last));
  g_assert_true (g_file_get_contents (lwn_store_get_state_path (last), &contents, NULL, NULL));
  g_assert_null (strstr (contents, "[pending]"));
}

static void
test_pending_old_file (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (LwnStore) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDateTime) free_on = g_date_time_new_utc (2023, 7, 14, 0, 0, 0);
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *copy = NULL;

  g_test_summary ("A state file from before pending announcements loads whole, with none pending: its read "
                  "and announced ids, validators, move, last success and reminders stay, and are saved again "
                  "with a pending announcement.");

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\nlast-success=2023-07-21T14:05:09Z\n"
              "[read]\nids=https://lwn.net/Articles/1/;\n"
              "[announced]\nids=https://lwn.net/Articles/1/;https://lwn.net/Articles/2/;\n"
              "[validators]\nurl=" OTHER_URL "\netag=\"v1\"\n"
              "[redirect]\nfrom=" FEED_URL "\nto=" OTHER_URL "\n"
              "[reminders]\n"
              "1=https://lwn.net/Articles/937001/;Good;https://lwn.net/Articles/937001/;2023-07-14T00:00:00Z;\n",
              -1);

  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  copy = find_corrupt_copy (state_dir);
  g_assert_null (copy);
  g_assert_false (lwn_store_has_pending (store));
  g_assert_false (lwn_store_get_pending_first_run (store));
  g_assert_false (lwn_store_is_pending (store, "https://lwn.net/Articles/2/"));

  /* Saved again, it keeps all that, and a pending announcement with it. */
  g_assert_true (lwn_store_mark_pending (store, "https://lwn.net/Articles/2/"));
  loaded = reload (store);
  g_assert_true (lwn_store_is_pending (loaded, "https://lwn.net/Articles/2/"));
  g_assert_false (lwn_store_is_pending (loaded, "https://lwn.net/Articles/1/"));
  g_assert_false (lwn_store_get_pending_first_run (loaded));
  g_assert_true (lwn_store_has_history (loaded));
  g_assert_true (lwn_store_is_read (loaded, "https://lwn.net/Articles/1/"));
  g_assert_false (lwn_store_is_read (loaded, "https://lwn.net/Articles/2/"));
  g_assert_true (lwn_store_is_announced (loaded, "https://lwn.net/Articles/2/"));
  g_assert_cmpstr (lwn_store_get_etag (loaded, FEED_URL), ==, "\"v1\"");
  g_assert_cmpstr (lwn_store_get_moved_url (loaded, FEED_URL), ==, OTHER_URL);
  g_assert_nonnull (lwn_store_get_last_success (loaded));
  g_assert_cmpuint (lwn_reminders_get_n (lwn_store_get_reminders (loaded)), ==, 1);
  assert_reminder (loaded, 0, 937001, "Good", free_on);
}

static void
test_pending_damaged (void)
{
  g_autoptr (LwnStore) store = lwn_store_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *state_dir = default_state_dir ();
  g_autofree char *copy = NULL;

  g_test_summary ("A damaged list of pending announcements costs only those: the file is not set aside, and "
                  "the rest of the state stays; a first-run flag without pending announcements means nothing.");

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\n"
              "[read]\nids=https://lwn.net/Articles/1/;\n"
              "[announced]\nids=https://lwn.net/Articles/1/;https://lwn.net/Articles/2/;\n"
              "[pending]\nids=https://lwn.net/Articles/2/;\\\nfirst-run=true\n",
              -1);
  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  copy = find_corrupt_copy (state_dir);
  g_assert_null (copy);
  g_assert_true (lwn_store_is_read (store, "https://lwn.net/Articles/1/"));
  g_assert_true (lwn_store_is_announced (store, "https://lwn.net/Articles/2/"));
  g_assert_false (lwn_store_has_pending (store));
  g_assert_false (lwn_store_get_pending_first_run (store));

  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\n"
              "[announced]\nids=https://lwn.net/Articles/2/;\n"
              "[pending]\nfirst-run=true\n",
              -1);
  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_false (lwn_store_has_pending (store));
  g_assert_false (lwn_store_get_pending_first_run (store));

  /* The same, whole. */
  write_file (lwn_store_get_state_path (store),
              "[state]\nversion=1\n"
              "[announced]\nids=https://lwn.net/Articles/2/;\n"
              "[pending]\nids=https://lwn.net/Articles/2/;\nfirst-run=true\n",
              -1);
  g_assert_true (lwn_store_load (store, &error));
  g_assert_no_error (error);
  g_assert_true (lwn_store_is_pending (store, "https://lwn.net/Articles/2/"));
  g_assert_true (lwn_store_get_pending_first_run (store));
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/first-run", test_first_run);
  g_test_add_func ("/store/validators", test_validators);
  g_test_add_func ("/store/moved-url", test_moved_url);
  g_test_add_func ("/store/feed-body/round-trip", test_feed_body);
  g_test_add_func ("/store/feed-body/unreadable", test_feed_body_unreadable);
  g_test_add_func ("/store/last-success", test_last_success);
  g_test_add_func ("/store/values/lone-backslash", test_lone_backslash_value);
  for (gsize i = 0; i < G_N_ELEMENTS (corrupt_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/store/corrupt/%s", corrupt_cases[i].name);

      g_test_add_data_func (path, &corrupt_cases[i], test_corrupt);
    }
  g_test_add_func ("/store/corrupt/twice", test_corrupt_twice);
  g_test_add_func ("/store/save/unwritable", test_save_fails);
  g_test_add_func ("/store/save/atomic", test_atomic_files);
  g_test_add_func ("/store/save-async/order", test_save_async_order);
  g_test_add_func ("/store/save-async/in-flight", test_save_async_in_flight);
  g_test_add_func ("/store/save-async/sync-after-async", test_save_sync_after_async);
  g_test_add_func ("/store/save-async/snapshot-evicted", test_save_async_snapshot_evicted);
  g_test_add_func ("/store/save-async/fails", test_save_async_fails);
  g_test_add_func ("/store/save-async/cancelled", test_save_async_cancelled);
  g_test_add_func ("/store/feed-cache/thread", test_feed_cache_thread);
  g_test_add_func ("/store/feed-cache/not-ours", test_feed_cache_not_ours);
  g_test_add_func ("/store/feed-cache/load-async", test_feed_cache_load_async);
  g_test_add_func ("/store/moved-url/carries-over", test_moved_url_carries_over);
  g_test_add_func ("/store/moved-url/old-name", test_moved_url_old_name);
  g_test_add_func ("/store/moved-url/again", test_moved_url_again);
  g_test_add_func ("/store/moved-url/keeps-newer", test_moved_url_keeps_newer);
  g_test_add_func ("/store/reminders/round-trip", test_reminders_round_trip);
  g_test_add_func ("/store/reminders/save-async", test_reminders_save_async);
  g_test_add_func ("/store/reminders/old-file", test_reminders_old_file);
  g_test_add_func ("/store/reminders/corrupt", test_reminders_corrupt);
  g_test_add_func ("/store/reminders/bounded-file", test_reminders_bounded_file);
  g_test_add_func ("/store/pending/round-trip", test_pending_round_trip);
  g_test_add_func ("/store/pending/old-file", test_pending_old_file);
  g_test_add_func ("/store/pending/damaged", test_pending_damaged);

  return g_test_run ();
}
