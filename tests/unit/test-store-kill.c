/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kills a process with SIGKILL at random moments while it records items as read,
 * and checks that the state always loads and nothing saved comes back unread. */

#include "config.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "lwn-store.h"

#define ROUNDS 200
#define IDS_PER_ROUND 400

static char *
item_id (guint round,
         guint index)
{
  return g_strdup_printf ("https://lwn.net/Articles/%u%04u/", round, index);
}

static void
report (int report_fd,
        guint32 done)
{
  if (write (report_fd, &done, sizeof done) != sizeof done)
    _exit (3);
}

typedef struct
{
  int report_fd;
  guint32 done;     /* items marked when this save was asked for */
  guint32 *pending; /* saves not completed yet */
} AsyncSave;

static void
async_save_cb (GObject *source,
               GAsyncResult *result,
               gpointer user_data)
{
  AsyncSave *save = user_data;

  if (!lwn_store_save_finish (LWN_STORE (source), result, NULL))
    _exit (2);
  report (save->report_fd, save->done);
  (*save->pending)--;
  g_free (save);
}

/* The child marks items read one by one, saving after each, in place or
 * on a worker, and reports on @report_fd how many items a completed save
 * covered. It never returns. */
static void G_GNUC_NORETURN
write_until_killed (const char *state_dir,
                    const char *cache_dir,
                    guint round,
                    gboolean async,
                    int report_fd)
{
  g_autoptr (LwnStore) store = lwn_store_new (state_dir, cache_dir);
  guint32 pending = 0;

  lwn_store_load (store, NULL);
  for (guint i = 0; i < IDS_PER_ROUND; i++)
    {
      g_autofree char *id = item_id (round, i);
      AsyncSave *save;

      lwn_store_mark_read (store, id);
      if (!async)
        {
          if (!lwn_store_save (store, NULL))
            _exit (2);
          report (report_fd, i + 1);
          continue;
        }

      save = g_new0 (AsyncSave, 1);
      save->report_fd = report_fd;
      save->done = i + 1;
      save->pending = &pending;
      pending++;
      lwn_store_save_async (store, NULL, async_save_cb, save);
      g_main_context_iteration (NULL, FALSE);
      /* Now and then wait, as between clicks, so that there are many writes
       * rather than a few that each cover hundreds of saves. */
      while (i % 16 == 15 && pending > 0)
        g_main_context_iteration (NULL, TRUE);
    }

  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  _exit (0);
}

static guint32
last_report (int fd)
{
  guint32 value, last = 0;

  while (read (fd, &value, sizeof value) == sizeof value)
    last = value;
  return last;
}

static void
test_sigkill_while_saving (gconstpointer data)
{
  gboolean async = GPOINTER_TO_INT (data);
  g_autofree char *root = g_dir_make_tmp ("lwn-store-kill-XXXXXX", NULL);
  g_autofree char *state_dir = g_build_filename (root, "state", NULL);
  g_autofree char *cache_dir = g_build_filename (root, "cache", NULL);
  guint killed_mid_run = 0;
  guint killed_after_a_save = 0;
  guint32 previous_completed = 0;

  g_test_summary ("SIGKILL at random moments during saves, in place or on a worker, never leaves a state that fails "
                  "to load, nor loses an item whose save had completed.");

  for (guint round = 0; round < ROUNDS; round++)
    {
      g_autoptr (LwnStore) store = NULL;
      g_autoptr (GError) error = NULL;
      int fds[2];
      pid_t child;
      int status;
      guint32 completed;
      guint32 first_report;

      g_assert_cmpint (pipe (fds), ==, 0);
      child = fork ();
      g_assert_cmpint (child, >=, 0);
      if (child == 0)
        {
          close (fds[0]);
          write_until_killed (state_dir, cache_dir, round, async, fds[1]);
        }
      close (fds[1]);

      /* Every other round waits for a first completed save before the kill,
       * so that the case is met however slow the machine (or a sanitizer). */
      first_report = 0;
      if (round % 2 == 1 && read (fds[0], &first_report, sizeof first_report) != sizeof first_report)
        first_report = 0;
      g_usleep (g_random_int_range (0, 30000));
      kill (child, SIGKILL);
      g_assert_cmpint (waitpid (child, &status, 0), ==, child);
      if (WIFSIGNALED (status))
        killed_mid_run++;
      else
        g_assert_cmpint (WEXITSTATUS (status), ==, 0);

      completed = last_report (fds[0]);
      completed = MAX (completed, first_report);
      close (fds[0]);
      if (WIFSIGNALED (status) && completed > 0)
        killed_after_a_save++;

      store = lwn_store_new (state_dir, cache_dir);
      g_assert_true (lwn_store_load (store, &error));
      g_assert_no_error (error);

      for (guint i = 0; i < completed; i++)
        {
          g_autofree char *id = item_id (round, i);
          g_assert_true (lwn_store_is_read (store, id));
        }
      /* The previous round's saved items survive too, within the 1,000 bound. */
      if (completed + previous_completed <= 1000)
        {
          for (guint i = 0; i < previous_completed; i++)
            {
              g_autofree char *id = item_id (round - 1, i);
              g_assert_true (lwn_store_is_read (store, id));
            }
        }
      previous_completed = completed;
    }

  g_test_message ("%u of %u writers were killed mid-run, %u of them after a completed save",
                  killed_mid_run, ROUNDS, killed_after_a_save);
  g_assert_cmpuint (killed_mid_run, >, ROUNDS / 2);
  g_assert_cmpuint (killed_after_a_save, >, 0);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/store/sigkill/while-saving", GINT_TO_POINTER (FALSE), test_sigkill_while_saving);
  g_test_add_data_func ("/store/sigkill/while-saving-async", GINT_TO_POINTER (TRUE), test_sigkill_while_saving);

  return g_test_run ();
}
