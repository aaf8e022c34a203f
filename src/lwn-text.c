/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Turns feed HTML into short, safe plain text or label markup, and escapes text for menus and notification markup. */

#include "config.h"

#include <string.h>

#include "lwn-text-private.h"

/* Characters collected from a description when the caller sets no limit. */
#define UNLIMITED_TEXT_CHARS (64 * 1024)
/* Collect a few times what will be shown, so that blank-line collapsing and
 * the word-boundary cut still have material to work with. */
#define TEXT_CHARS_PER_SHOWN_CHAR 4
#define MIN_TEXT_CHARS 256
/* Characters of markup text shown at most: a label far longer than this
 * takes seconds to lay out, and no summary is that long. */
#define MAX_MARKUP_CHARS (64 * 1024)

#define ELLIPSIS "\xe2\x80\xa6"
#define ZERO_WIDTH_JOINER 0x200D

static gboolean
is_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

static gboolean
is_space (gunichar c)
{
  /* U+00A0 is what "&nbsp;" decodes to; GLib counts it as a space
   * separator, but say so rather than rely on it. */
  return c == 0xA0 || g_unichar_isspace (c);
}

/* A valid UTF-8 copy of @text ("" for %NULL) that the other helpers can walk. */
static char *
dup_valid (const char *text)
{
  if (text == NULL)
    return g_strdup ("");

  return g_utf8_make_valid (text, -1);
}

/**
 * lwn_text_collapse_whitespace:
 * @text: (nullable): UTF-8 text; invalid sequences are replaced
 *
 * Replaces every run of Unicode white space (including newlines, tabs and
 * no-break spaces) by a single ASCII space and trims both ends, so that the
 * result fits on one line.
 *
 * Returns: (transfer full): the collapsed text; "" for %NULL
 */
char *
lwn_text_collapse_whitespace (const char *text)
{
  g_autofree char *valid = dup_valid (text);
  GString *out = g_string_sized_new (strlen (valid));
  gboolean pending_space = FALSE;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (is_space (c))
        {
          pending_space = TRUE;
          continue;
        }

      if (pending_space && out->len > 0)
        g_string_append_c (out, ' ');
      pending_space = FALSE;
      g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}

/**
 * lwn_text_strip_controls:
 * @text: (nullable): text from a feed
 *
 * Removes the C0 control characters (U+0000 to U+001F, tab and newline
 * included), DEL and the C1 control characters (U+0080 to U+009F), and
 * replaces invalid UTF-8 with U+FFFD, so that printing the result can
 * never send an escape sequence to a terminal.
 *
 * Returns: (transfer full): valid UTF-8 without control characters; "" for %NULL
 */
char *
lwn_text_strip_controls (const char *text)
{
  g_autofree char *valid = dup_valid (text);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!is_control (c))
        g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}

static gboolean
is_trailing_junk (gunichar c)
{
  return is_space (c) || c == ',' || c == ';' || c == ':' || c == '.' || c == '-' || c == 0x2013 || c == 0x2014 || c == '(' || c == '[';
}

/* Whether a cut just before @p would split a grapheme: a combining mark or a
 * variation selector, or either side of a zero-width joiner (emoji sequences). */
static gboolean
splits_cluster (const char *start,
                const char *p)
{
  gunichar c = g_utf8_get_char (p);

  if (g_unichar_ismark (c) || c == ZERO_WIDTH_JOINER)
    return TRUE;

  return p > start && g_utf8_get_char (g_utf8_prev_char (p)) == ZERO_WIDTH_JOINER;
}

/* Shortens valid UTF-8 @text to at most @max_chars characters ending in "…".
 * With @always, the ellipsis is added even when @text already fits, because
 * the caller has dropped text after it. */
static char *
ellipsize_valid (const char *text,
                 gsize max_chars,
                 gboolean always)
{
  glong n_chars = g_utf8_strlen (text, -1);
  gsize keep;
  const char *cut;
  const char *boundary = NULL;
  const char *end;
  GString *out;

  if (max_chars == 0 || (!always && (gsize) n_chars <= max_chars))
    return g_strdup (text);

  /* One character is the ellipsis itself. */
  keep = MIN ((gsize) n_chars, max_chars - 1);
  cut = g_utf8_offset_to_pointer (text, keep);

  if (*cut == '\0')
    boundary = cut;
  else
    {
      /* The last white space at or before the cut, looked for only in
       * the last third so that one long word does not empty the text. */
      const char *floor = g_utf8_offset_to_pointer (text, keep - keep / 3);

      const char *p = cut;

      while (TRUE)
        {
          if (is_space (g_utf8_get_char (p)))
            {
              boundary = p;
              break;
            }
          if (p <= floor)
            break;
          p = g_utf8_prev_char (p);
        }
    }

  end = boundary != NULL ? boundary : cut;
  while (end > text && *end != '\0' && splits_cluster (text, end))
    end = g_utf8_prev_char (end);

  while (end > text)
    {
      const char *prev = g_utf8_prev_char (end);

      if (!is_trailing_junk (g_utf8_get_char (prev)))
        break;
      end = prev;
    }

  out = g_string_new_len (text, end - text);
  g_string_append (out, ELLIPSIS);
  return g_string_free (out, FALSE);
}

/**
 * lwn_text_ellipsize:
 * @text: (nullable): UTF-8 text; invalid sequences are replaced
 * @max_chars: the most characters the result may have, or 0 for no limit
 *
 * Shortens @text when it has more than @max_chars characters: it is cut at
 * the last white space that leaves room for an ellipsis (or in the middle
 * of a word when that would lose more than a third of the text), trailing
 * spaces and punctuation are dropped, and "…" is appended. Characters are
 * counted, not bytes, and a multi-byte sequence or a combining sequence is
 * never split.
 *
 * Returns: (transfer full): at most @max_chars characters of valid UTF-8;
 *   "" for %NULL
 */
char *
lwn_text_ellipsize (const char *text,
                    gsize max_chars)
{
  g_autofree char *valid = dup_valid (text);

  return ellipsize_valid (valid, max_chars, FALSE);
}

/**
 * lwn_text_escape_markup:
 * @text: (nullable): plain text
 *
 * Escapes @text for Pango and notification-body markup, so that `<`, `>`,
 * `&`, `'` and `"` show as themselves.
 *
 * Returns: (transfer full): the escaped text; "" for %NULL
 */
char *
lwn_text_escape_markup (const char *text)
{
  g_autofree char *valid = dup_valid (text);

  return g_markup_escape_text (valid, -1);
}

/**
 * lwn_text_escape_mnemonic:
 * @text: (nullable): plain text for a menu item label
 *
 * Doubles every underscore, so that GTK and dbusmenu show it instead of
 * taking the next character as the item's mnemonic.
 *
 * Returns: (transfer full): the escaped label; "" for %NULL
 */
char *
lwn_text_escape_mnemonic (const char *text)
{
  g_autofree char *valid = dup_valid (text);
  GString *out = g_string_sized_new (strlen (valid) + 8);

  for (const char *p = valid; *p != '\0'; p++)
    {
      if (*p == '_')
        g_string_append_c (out, '_');
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/**
 * lwn_text_from_html:
 * @html: (nullable): a feed item's description or content: HTML, or plain
 *   text that may contain stray `<` and `&`
 * @max_chars: the most characters the result may have, or 0 for no limit
 *
 * Renders @html as plain text for notifications and tooltips, by the same
 * rules as lwn_text_markup_from_html(): scripts, styles, comments and the
 * document head are dropped, entities are decoded, images become their alt
 * text, block elements become single line breaks, other white space
 * collapses to one space, control characters are removed, and the result
 * is ellipsized to @max_chars (see lwn_text_ellipsize()). Parse errors are
 * never fatal and never printed; whatever text a browser would show is
 * kept. Only the first part of a very large description is looked at, and
 * with no limit the result still stops, with an ellipsis, after 65536
 * characters.
 *
 * Returns: (transfer full): valid UTF-8 plain text; "" for %NULL
 */
char *
lwn_text_from_html (const char *html,
                    gsize max_chars)
{
  g_autofree char *text = NULL;
  gboolean truncated = FALSE;
  gsize limit = max_chars > 0 ? max_chars : UNLIMITED_TEXT_CHARS;
  gsize collect;

  if (max_chars > 0)
    collect = MAX (MIN_TEXT_CHARS, MIN (max_chars, G_MAXSIZE / TEXT_CHARS_PER_SHOWN_CHAR) * TEXT_CHARS_PER_SHOWN_CHAR);
  else
    collect = UNLIMITED_TEXT_CHARS + 1;

  text = lwn_text_render_html (html, LWN_TEXT_RENDER_PLAIN, NULL, collect, &truncated);
  if (*text == '\0')
    return g_steal_pointer (&text);

  return ellipsize_valid (text, limit, truncated);
}

/**
 * lwn_text_markup_from_html:
 * @html: (nullable): a feed item's description: HTML, or plain text that
 *   may contain stray `<` and `&`
 * @base_url: (nullable): the URL relative links are resolved against (the
 *   item's or the feed's link); without one, relative links are text
 *
 * Renders @html as Pango markup for a wrapping GtkLabel with use-markup
 * set: paragraphs are separated by a blank line, `<b>`/`<strong>` and
 * headings become `<b>`, `<i>`/`<em>`/`<cite>` become `<i>`,
 * `<pre>`/`<code>`/`<tt>`/`<kbd>`/`<samp>` become `<tt>` (preformatted
 * text keeps its spaces and lines), list items become "• " or "1. "
 * lines, and quoted lines start with a bar. A link becomes `<a href>`,
 * which GtkLabel shows and reports through its activate-link signal, only
 * when its target resolves to an http(s) URL (LWN's …/rss article links
 * are rewritten to the article, as lwn_url_dup_article_url() does); any
 * other link, and a link inside a link, is only its text. Images become
 * their alt text; scripts, styles, frames and objects are dropped.
 *
 * Everything else, including whatever could not be parsed, is escaped
 * text: nothing in @html can add a tag or an attribute of its own.
 * Invalid UTF-8 is replaced, and only the first 64 KiB of text is kept,
 * with an ellipsis after it.
 *
 * Returns: (transfer full): valid UTF-8 markup that pango_parse_markup()
 *   accepts once GtkLabel has taken out the links; "" for %NULL
 */
char *
lwn_text_markup_from_html (const char *html,
                           const char *base_url)
{
  gboolean truncated = FALSE;
  char *markup = lwn_text_render_html (html, LWN_TEXT_RENDER_MARKUP, base_url, MAX_MARKUP_CHARS, &truncated);

  if (truncated && *markup != '\0')
    {
      g_autofree char *short_markup = markup;

      markup = g_strconcat (short_markup, ELLIPSIS, NULL);
    }

  return markup;
}
