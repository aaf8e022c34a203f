/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prepares feed HTML for the parser: capped, valid UTF-8 without control characters, comments or bogus comments. */

#include "config.h"

#include <string.h>

#include "lwn-text-private.h"

/* Bytes of HTML handed to the parser: more than any real description, little
 * enough that a hostile one cannot make us build a huge tree. */
#define MAX_HTML_BYTES (256 * 1024)

/* Elements whose content the HTML tokenizer reads as text up to their end
 * tag (https://html.spec.whatwg.org/multipage/parsing.html#parsing-html-fragments). */
static const char *const raw_text_elements[] = {
  "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", NULL
};

static gboolean
is_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

static gboolean
is_html_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* Returns what follows the start or end tag at @p (its '<'), stepping over
 * quoted attribute values, which may hold '>'. */
static const char *
skip_tag (const char *p)
{
  p += p[1] == '/' ? 2 : 1;
  while (*p != '\0' && !is_html_space (*p) && *p != '/' && *p != '>')
    p++;

  while (*p != '\0')
    {
      if (*p == '>')
        return p + 1;
      if (is_html_space (*p) || *p == '/')
        {
          p++;
          continue;
        }

      /* An attribute name, which may start with '='. */
      p++;
      while (*p != '\0' && !is_html_space (*p) && *p != '/' && *p != '>' && *p != '=')
        p++;
      while (is_html_space (*p))
        p++;
      if (*p != '=')
        continue;
      p++;
      while (is_html_space (*p))
        p++;
      if (*p == '"' || *p == '\'')
        {
          const char *close = strchr (p + 1, *p);

          if (close == NULL)
            return p + strlen (p);
          p = close + 1;
        }
      else
        {
          while (*p != '\0' && !is_html_space (*p) && *p != '>')
            p++;
        }
    }

  return p;
}

/* The length of the raw text element's name @name starts with, or 0. */
static gsize
raw_text_name_length (const char *name)
{
  gsize len = 0;

  while (g_ascii_isalnum (name[len]))
    len++;

  for (gsize i = 0; raw_text_elements[i] != NULL; i++)
    {
      if (strlen (raw_text_elements[i]) == len && g_ascii_strncasecmp (name, raw_text_elements[i], len) == 0)
        return len;
    }

  return 0;
}

static const char *
find_raw_text_end (const char *p,
                   const char *name,
                   gsize len)
{
  for (const char *lt = strchr (p, '<'); lt != NULL; lt = strchr (lt + 1, '<'))
    {
      if (lt[1] == '/' && g_ascii_strncasecmp (lt + 2, name, len) == 0 && (is_html_space (lt[2 + len]) || lt[2 + len] == '/' || lt[2 + len] == '>'))
        return lt;
    }

  return p + strlen (p);
}

/* Returns what follows the comment at @p, which starts with "<!--", ending
 * it as https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state does. */
static const char *
skip_comment (const char *p)
{
  const char *q = p + 4;

  if (q[0] == '>')
    return q + 1;
  if (q[0] == '-' && q[1] == '>')
    return q + 2;

  for (const char *dashes = strstr (q, "--"); dashes != NULL; dashes = strstr (dashes + 1, "--"))
    {
      if (dashes[2] == '>')
        return dashes + 3;
      if (dashes[2] == '!' && dashes[3] == '>')
        return dashes + 4;
    }

  return p + strlen (p);
}

/* Whether "<!" at @p opens a declaration as SGML reads one: a comment
 * ("<!--"), a doctype or other named declaration ("<!DOCTYPE", "<!ENTITY"),
 * a marked section ("<![CDATA[") or the empty "<!>". Feed readers follow
 * SGML here rather than HTML5, which makes a bogus comment of any "<!":
 * feedparser keeps the "<!'" of "<!' <a href=x>" as text
 * (its well-formed tests item_description_not_a_doctype and …doctype2). */
static gboolean
is_declaration (const char *p)
{
  return g_ascii_isalpha (p[2]) || p[2] == '[' || p[2] == '>' || (p[2] == '-' && p[3] == '-');
}

/* Appends @html without its comments, declarations and the "bogus
 * comments" browsers make of "<?x" and "</ x" up to the next '>'
 * (https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state).
 * A "<!" that opens no declaration is text, and its '<' goes out as
 * "&lt;": libxml2 2.9 would otherwise drop the '<', so that
 * "<!' <a href=x>" became "!'". */
static void
append_without_comments (GString *out,
                         const char *html)
{
  const char *p = html;

  while (*p != '\0')
    {
      const char *lt = strchr (p, '<');
      const char *end;

      if (lt == NULL)
        {
          g_string_append (out, p);
          return;
        }
      g_string_append_len (out, p, lt - p);
      p = lt;

      if (g_ascii_isalpha (p[1]) || (p[1] == '/' && g_ascii_isalpha (p[2])))
        {
          gsize raw_len = p[1] != '/' ? raw_text_name_length (p + 1) : 0;

          end = skip_tag (p);
          if (raw_len > 0)
            end = find_raw_text_end (end, p + 1, raw_len);
          g_string_append_len (out, p, end - p);
        }
      else if (g_str_has_prefix (p, "<!--"))
        end = skip_comment (p);
      else if (p[1] == '!' && !is_declaration (p))
        {
          g_string_append (out, "&lt;");
          end = p + 1;
        }
      else if (p[1] == '!' || p[1] == '?' || (p[1] == '/' && p[2] != '\0'))
        {
          end = strchr (p, '>');
          end = end != NULL ? end + 1 : p + strlen (p);
        }
      else
        {
          g_string_append_c (out, '<');
          end = p + 1;
        }
      p = end;
    }
}

/* What the parser gets: at most MAX_HTML_BYTES of valid UTF-8 without
 * comments and without the control characters libxml2 would complain
 * about, its line breaks normalized to "\n" as the HTML input stream does
 * (https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream).
 * Sets @truncated when the input was longer. */
char *
lwn_text_scan_prepare_html (const char *html,
                            gboolean *truncated)
{
  gsize len = strlen (html);
  g_autofree char *valid = NULL;
  g_autoptr (GString) clean = NULL;
  GString *out;

  *truncated = len > MAX_HTML_BYTES;
  if (*truncated)
    {
      /* A sequence cut in half would be replaced by U+FFFD, so drop the
       * part that was cut off instead of showing a replacement for it. */
      const char *end = g_utf8_find_prev_char (html, html + MAX_HTML_BYTES + 1);

      len = end != NULL ? (gsize) (end - html) : MAX_HTML_BYTES;
    }

  valid = g_utf8_make_valid (html, len);
  clean = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      guchar byte = *p;

      if (byte == '\r')
        {
          if (p[1] != '\n')
            g_string_append_c (clean, '\n');
        }
      else if (byte == '\t' || byte == '\n' || (byte >= 0x20 && byte < 0x7F))
        g_string_append_c (clean, (char) byte);
      else if (byte >= 0x80 && !is_control (g_utf8_get_char (p)))
        g_string_append_len (clean, p, g_utf8_next_char (p) - p);
    }

  out = g_string_sized_new (clean->len);
  append_without_comments (out, clean->str);
  return g_string_free (out, FALSE);
}
