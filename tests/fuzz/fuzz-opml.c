/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target for lwn-opml: a stranger's list read, written back and read again, and strings as the settings
 * may hold them written; every export must be well-formed XML that reads back as the same list. */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include <libxml/parser.h>

#include "fuzz-common.h"
#include "lwn-opml.h"
#include "lwn-url.h"

int LLVMFuzzerInitialize (int *argc,
                          char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t size);

/* lwn_opml_write() says in a message how many feeds it left out; printed
 * for every input, that would set the fuzzer's pace. */
static void
drop_message_cb (const char *log_domain,
                 GLogLevelFlags log_level,
                 const char *message,
                 gpointer user_data)
{
}

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  xmlInitParser ();
  lwn_fuzz_init_logging ();
  g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_MESSAGE, drop_message_cb, NULL);
  return 0;
}

/* What the parser promises of a title: one line of valid UTF-8 without
 * control characters, trimmed, at most LWN_OPML_MAX_TITLE_CHARS long. */
static void
check_title (const char *title)
{
  if (title == NULL)
    return;
  if (*title == '\0' || !g_utf8_validate (title, -1, NULL) || g_utf8_strlen (title, -1) > LWN_OPML_MAX_TITLE_CHARS)
    __builtin_trap ();
  if (title[0] == ' ' || title[strlen (title) - 1] == ' ')
    __builtin_trap ();
  for (const char *p = title; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF)
        __builtin_trap ();
    }
}

static void
check_feeds (GPtrArray *feeds)
{
  for (guint i = 0; i < feeds->len; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (feeds, i);

      if (lwn_url_feed_problem (feed->url) != NULL)
        __builtin_trap ();
      if (feed->site_url != NULL && lwn_url_feed_problem (feed->site_url) != NULL)
        __builtin_trap ();
      check_title (feed->title);
    }
}

/* Well-formed XML 1.0 as a strict parser sees it, with no control byte but
 * the newlines of the layout. */
static void
check_well_formed (const char *text)
{
  gsize length = strlen (text);
  xmlDoc *doc;

  if (length > G_MAXINT || !g_utf8_validate (text, (gssize) length, NULL))
    __builtin_trap ();
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p < 0x20 && *p != '\n')
      __builtin_trap ();
  doc = xmlReadMemory (text, (int) length, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (doc == NULL)
    __builtin_trap ();
  xmlFreeDoc (doc);
}

static gboolean
same_lists (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const LwnOpmlFeed *x = g_ptr_array_index (a, i);
      const LwnOpmlFeed *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->url, y->url) != 0 || g_strcmp0 (x->title, y->title) != 0 || g_strcmp0 (x->site_url, y->site_url) != 0)
        return FALSE;
    }
  return TRUE;
}

/* Writes @feeds, which may hold anything, and checks the promise of
 * lwn_opml_write(): well-formed, read back as a list that writes the very
 * same text. Returns what was read back, or %NULL when nothing was written. */
static GPtrArray *
write_and_read (GPtrArray *feeds)
{
  g_autofree char *text = lwn_opml_write (feeds, NULL);
  g_autofree char *text_again = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GError) error = NULL;

  check_well_formed (text);
  bytes = g_bytes_new_static (text, strlen (text));
  again = lwn_opml_parse (bytes, NULL, &error);
  if (again == NULL)
    {
      /* Only a list with no feed left to write reads back as nothing. */
      if (!g_error_matches (error, LWN_OPML_ERROR, LWN_OPML_ERROR_NO_FEEDS) || strstr (text, "<outline") != NULL)
        __builtin_trap ();
      return NULL;
    }
  check_feeds (again);

  text_again = lwn_opml_write (again, NULL);
  if (strcmp (text_again, text) != 0)
    __builtin_trap ();
  return g_steal_pointer (&again);
}

/* The input as a list from outside: what it names, once written and read
 * back, is the same list. */
static void
fuzz_parse (const uint8_t *data,
            size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);
  g_autoptr (GPtrArray) feeds = NULL;
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GError) error = NULL;
  guint skipped = 0;

  feeds = lwn_opml_parse (bytes, &skipped, &error);
  if (feeds == NULL)
    {
      if (error == NULL || error->domain != LWN_OPML_ERROR || !g_utf8_validate (error->message, -1, NULL))
        __builtin_trap ();
      return;
    }
  if (error != NULL || feeds->len == 0)
    __builtin_trap ();
  check_feeds (feeds);

  again = write_and_read (feeds);
  if (again == NULL || !same_lists (again, feeds))
    __builtin_trap ();
}

/* The input as the settings could hold it (gsettings writes any string):
 * lines of address, title and site address, in turn. */
static void
fuzz_write (const uint8_t *data,
            size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto (GStrv) lines = g_strsplit (text, "\n", 3 * 64);
  g_autoptr (GPtrArray) feeds = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_opml_feed_free);
  g_autoptr (GPtrArray) again = NULL;

  for (char **line = lines; *line != NULL;)
    {
      const char *url = *line++;
      const char *title = *line != NULL ? *line++ : NULL;
      const char *site_url = *line != NULL ? *line++ : NULL;

      g_ptr_array_add (feeds, lwn_opml_feed_new (url, title, site_url));
    }
  again = write_and_read (feeds);

  /* Nothing is made up: each feed read back was given, address as is. */
  for (guint i = 0; again != NULL && i < again->len; i++)
    {
      const LwnOpmlFeed *feed = g_ptr_array_index (again, i);
      gboolean given = FALSE;

      for (guint j = 0; j < feeds->len && !given; j++)
        given = g_str_equal (((const LwnOpmlFeed *) g_ptr_array_index (feeds, j))->url, feed->url);
      if (!given)
        __builtin_trap ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  fuzz_parse (data, size);
  fuzz_write (data, size);
  return 0;
}
