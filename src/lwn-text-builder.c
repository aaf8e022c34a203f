/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writes the renderer's text, breaks and styles as plain text or as Pango markup, collapsing white space as HTML does. */

#include "config.h"

#include "lwn-text-private.h"

/* Block quotes and list items nested deeper than this add nothing more to
 * the start of a line, so that hostile nesting cannot multiply the output. */
#define MAX_PREFIX_CONTEXTS 8

#define NO_BREAK_SPACE 0xA0
#define LINE_SEPARATOR 0x2028
#define PARAGRAPH_SEPARATOR 0x2029
/* An em space: about as wide as a bullet and its space. */
#define ITEM_INDENT "\xe2\x80\x83"

static const char *const style_tags[LWN_TEXT_N_STYLES] = { "a", "b", "i", "tt", "s", "sub", "sup" };

static gboolean
is_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

static gboolean
is_space (gunichar c)
{
  if (c < 0x80)
    return c == ' ' || (c >= '\t' && c <= '\r');

  /* U+00A0 is what "&nbsp;" decodes to; GLib counts it as a space
   * separator, but say so rather than rely on it. */
  return c == NO_BREAK_SPACE || g_unichar_isspace (c);
}

static guint
wanted_styles (LwnTextBuilder *builder)
{
  guint wanted = builder->link_href != NULL ? LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_LINK) : 0;

  for (guint i = 0; i < LWN_TEXT_N_STYLES; i++)
    {
      if (builder->style_depth[i] > 0)
        wanted |= LWN_TEXT_STYLE_BIT (i);
    }

  return wanted;
}

void
lwn_text_builder_close_styles_from (LwnTextBuilder *builder,
                                    guint index)
{
  if (builder->n_open > index)
    builder->styles_changed = TRUE;
  while (builder->n_open > index)
    {
      LwnTextStyle style = builder->open[--builder->n_open];

      g_string_append_printf (builder->out, "</%s>", style_tags[style]);
    }
}

/* Tags are closed only in the reverse order they were opened, so closing one
 * that is no longer wanted closes those opened inside it as well. */
static void
close_unwanted_styles (LwnTextBuilder *builder)
{
  guint wanted = wanted_styles (builder);

  for (guint i = 0; i < builder->n_open; i++)
    {
      LwnTextStyle style = builder->open[i];

      if ((wanted & LWN_TEXT_STYLE_BIT (style)) == 0 || (style == LWN_TEXT_STYLE_LINK && builder->open_link_serial != builder->link_serial))
        {
          lwn_text_builder_close_styles_from (builder, i);
          return;
        }
    }
}

static void
open_wanted_styles (LwnTextBuilder *builder)
{
  guint wanted;
  guint open = 0;

  close_unwanted_styles (builder);
  wanted = wanted_styles (builder);
  for (guint i = 0; i < builder->n_open; i++)
    open |= LWN_TEXT_STYLE_BIT (builder->open[i]);

  for (LwnTextStyle style = 0; style < LWN_TEXT_N_STYLES; style++)
    {
      if ((wanted & LWN_TEXT_STYLE_BIT (style)) == 0 || (open & LWN_TEXT_STYLE_BIT (style)) != 0)
        continue;

      if (style == LWN_TEXT_STYLE_LINK)
        {
          g_string_append_printf (builder->out, "<a href=\"%s\">", builder->link_href);
          builder->open_link_serial = builder->link_serial;
        }
      else
        g_string_append_printf (builder->out, "<%s>", style_tags[style]);
      builder->open[builder->n_open++] = style;
    }
}

static void
append_prefix (LwnTextBuilder *builder)
{
  guint n = MIN (builder->contexts->len, MAX_PREFIX_CONTEXTS);

  for (guint i = 0; i < n; i++)
    {
      LwnTextContext *context = &g_array_index (builder->contexts, LwnTextContext, i);

      if (context->kind == LWN_TEXT_CONTEXT_QUOTE)
        g_string_append (builder->out, LWN_TEXT_QUOTE_PREFIX);
      else if (context->kind == LWN_TEXT_CONTEXT_ITEM && context->marker_pending)
        {
          g_string_append (builder->out, context->marker);
          context->marker_pending = FALSE;
        }
      else
        g_string_append (builder->out, ITEM_INDENT);
    }
}

/* Writes what is due before the next visible character: the pending line
 * breaks (never before the first character: no leading blank lines), the
 * start of the line or a space, the tags of the current styles, and the
 * preformatted white space before the character. */
static void
start_char (LwnTextBuilder *builder)
{
  if (builder->pending_break != LWN_TEXT_BREAK_NONE && builder->has_content)
    {
      lwn_text_builder_close_styles_from (builder, 0);
      g_string_append (builder->out, builder->markup && builder->pending_break == LWN_TEXT_BREAK_PARAGRAPH ? "\n\n" : "\n");
      builder->at_line_start = TRUE;
    }
  builder->pending_break = LWN_TEXT_BREAK_NONE;

  if (builder->at_line_start)
    {
      if (builder->markup)
        append_prefix (builder);
      builder->at_line_start = FALSE;
    }
  else if (builder->pending_space != 0)
    {
      if (builder->markup && builder->styles_changed)
        close_unwanted_styles (builder);
      g_string_append_unichar (builder->out, builder->pending_space);
    }
  builder->pending_space = 0;

  if (builder->styles_changed)
    {
      if (builder->markup)
        open_wanted_styles (builder);
      builder->styles_changed = FALSE;
    }
  g_string_append_len (builder->out, builder->pending_pre_space->str, builder->pending_pre_space->len);
  g_string_truncate (builder->pending_pre_space, 0);
}

static void
put_char (LwnTextBuilder *builder,
          gunichar c)
{
  if (builder->full)
    return;

  if (builder->pending_break != LWN_TEXT_BREAK_NONE || builder->at_line_start || builder->pending_space != 0 || builder->styles_changed || builder->pending_pre_space->len > 0)
    start_char (builder);

  if (c >= 0x80)
    g_string_append_unichar (builder->out, c);
  else if (!builder->markup)
    g_string_append_c (builder->out, (char) c);
  else if (c == '<')
    g_string_append (builder->out, "&lt;");
  else if (c == '>')
    g_string_append (builder->out, "&gt;");
  else if (c == '&')
    g_string_append (builder->out, "&amp;");
  else if (c == '\'')
    g_string_append (builder->out, "&apos;");
  else if (c == '"')
    g_string_append (builder->out, "&quot;");
  else
    g_string_append_c (builder->out, (char) c);

  builder->has_content = TRUE;
  if (++builder->n_chars >= builder->max_chars)
    builder->full = TRUE;
}

void
lwn_text_builder_add_break (LwnTextBuilder *builder,
                            LwnTextBreak level)
{
  builder->pending_break = MAX (builder->pending_break, level);
  g_string_truncate (builder->pending_pre_space, 0);
}

/* A <br> or a newline in preformatted text: a second one in a row leaves a
 * blank line, more add nothing. */
void
lwn_text_builder_add_forced_break (LwnTextBuilder *builder)
{
  builder->pending_break = MIN (builder->pending_break + 1, LWN_TEXT_BREAK_PARAGRAPH);
  g_string_truncate (builder->pending_pre_space, 0);
}

void
lwn_text_builder_add_space (LwnTextBuilder *builder,
                            gunichar c)
{
  /* A run of white space with a no-break space in it keeps the words on
   * either side together when the label wraps. */
  if (builder->markup && (c == NO_BREAK_SPACE || builder->pending_space == NO_BREAK_SPACE))
    builder->pending_space = NO_BREAK_SPACE;
  else
    builder->pending_space = ' ';
}

static void
add_preformatted_char (LwnTextBuilder *builder,
                       gunichar c)
{
  if (c == '\n' || c == LINE_SEPARATOR || c == PARAGRAPH_SEPARATOR)
    lwn_text_builder_add_forced_break (builder);
  else if (!builder->markup && is_space (c))
    lwn_text_builder_add_space (builder, c);
  else if (c == '\t' || (is_space (c) && !is_control (c)))
    g_string_append_unichar (builder->pending_pre_space, c);
  else if (!is_control (c))
    put_char (builder, c);
}

void
lwn_text_builder_add_text (LwnTextBuilder *builder,
                           const char *text)
{
  g_autofree char *valid = NULL;

  /* libxml2 hands back what it was given, which lwn_text_scan_prepare_html() made valid,
   * but a character reference it decodes is not ours to vouch for. */
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);

  for (const char *p = text; *p != '\0' && !builder->full;)
    {
      gunichar c = (guchar) *p;

      if (c < 0x80)
        p++;
      else
        {
          c = g_utf8_get_char (p);
          p = g_utf8_next_char (p);
        }

      if (builder->pre_depth > 0)
        add_preformatted_char (builder, c);
      else if (is_space (c))
        lwn_text_builder_add_space (builder, c);
      else if (!is_control (c))
        put_char (builder, c);
    }
}
