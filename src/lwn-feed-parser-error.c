/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parser's error domain and the wording of XML errors, on their own so that the formats and lwn-xml need not depend on the dispatcher. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/xmlerror.h>

#include "lwn-feed-parser-error.h"
#include "lwn-text.h"

/* Longest libxml2 message or element name quoted back to the user. */
#define MAX_QUOTED 200

/* The first argument is stringified as written: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK (lwn-parse-error-quark, lwn_parse_error)
/* clang-format on */

/**
 * lwn_parse_error_dup_quoted:
 * @text: text from a document or from libxml2
 *
 * Returns: (transfer full): @text as valid UTF-8 on one line, cut to a
 *   length fit to quote in an error message
 */
char *
lwn_parse_error_dup_quoted (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *line = NULL;

  g_strstrip (valid);
  line = lwn_text_collapse_whitespace (valid);
  if (line == NULL)
    return g_strdup ("");
  if (strlen (line) > MAX_QUOTED)
    {
      gsize len = MAX_QUOTED;
      g_autofree char *cut = NULL;

      while (len > 0 && ((guchar) line[len] & 0xC0) == 0x80)
        len--;
      cut = g_strndup (line, len);

      return g_strconcat (cut, "…", NULL);
    }
  return g_steal_pointer (&line);
}

/**
 * lwn_parse_error_keep_first:
 * @data: an #xmlError, zeroed before the parse and reset with
 *   xmlResetError() after it
 * @error: an error libxml2 reports
 *
 * A structured error handler that keeps the first error, or the first
 * fatal one when recoverable errors came before it: that is where the
 * document went wrong.
 */
void
lwn_parse_error_keep_first (void *data,
                            xmlError *error)
{
  xmlError *first = data;

  if (error == NULL || error->level < XML_ERR_ERROR)
    return;
  if (first->level != XML_ERR_NONE && (first->level == XML_ERR_FATAL || error->level != XML_ERR_FATAL))
    return;
  xmlResetError (first);
  xmlCopyError (error, first);
}

static void
set_message (GError **error,
             int code,
             int line,
             const char *message)
{
  g_autofree char *quoted = lwn_parse_error_dup_quoted (message);
  /* libxml2 2.9 reports undecodable input as XML_ERR_INVALID_CHAR, the code
   * it also uses for characters XML forbids, so the message tells them apart. */
  gboolean encoding = code == XML_ERR_UNKNOWN_ENCODING || code == XML_ERR_UNSUPPORTED_ENCODING || code == XML_ERR_INVALID_ENCODING || (code == XML_ERR_INVALID_CHAR && g_str_has_prefix (message, "Input is not proper"));

  if (encoding)
    {
      if (line > 0)
        g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_ENCODING,
                     _ ("Cannot decode the feed at line %d: %s"), line, quoted);
      else
        g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_ENCODING,
                     _ ("Cannot decode the feed: %s"), quoted);
    }
  else if (line > 0)
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                 _ ("XML error at line %d: %s"), line, quoted);
  else
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                 _ ("XML error: %s"), quoted);
}

/**
 * lwn_parse_error_set_xml:
 * @error: return location for a #GError
 * @first: (nullable): the error lwn_parse_error_keep_first() kept
 * @last: (nullable): the parser context's last error
 *
 * Sets @error to %LWN_PARSE_ERROR_ENCODING or %LWN_PARSE_ERROR_MALFORMED,
 * with the line and libxml2's message quoted.
 */
void
lwn_parse_error_set_xml (GError **error,
                         const xmlError *first,
                         const xmlError *last)
{
  if (first != NULL && first->level != XML_ERR_NONE && first->message != NULL)
    set_message (error, first->code, first->line, first->message);
  else if (last != NULL && last->message != NULL)
    set_message (error, last->code, last->line, last->message);
  else
    set_message (error, XML_ERR_OK, 0, _ ("the document is not well-formed"));
}
