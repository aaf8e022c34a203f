/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Renders feed HTML, with one set of block rules, as Pango markup for a wrapping label or as plain text. */

#include "config.h"

#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>

#include "lwn-text.h"
#include "lwn-url.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (htmlParserCtxt, htmlFreeParserCtxt)

/* Bytes of HTML handed to the parser: more than any real description, little
 * enough that a hostile one cannot make us build a huge tree. */
#define MAX_HTML_BYTES (256 * 1024)
/* Characters of markup text shown at most: a label far longer than this
 * takes seconds to lay out, and no summary is that long. */
#define MAX_MARKUP_CHARS (64 * 1024)
/* Block quotes and list items nested deeper than this add nothing more to
 * the start of a line, so that hostile nesting cannot multiply the output. */
#define MAX_PREFIX_CONTEXTS 8

#define ELLIPSIS "\xe2\x80\xa6"
#define NO_BREAK_SPACE 0xA0
#define LINE_SEPARATOR 0x2028
#define PARAGRAPH_SEPARATOR 0x2029
/* "▎ ": a bar that reads as a quote in any GTK theme, where an indent alone
 * would look like the first line of a paragraph once the label wraps. */
#define QUOTE_PREFIX "\xe2\x96\x8e "
/* An em space: about as wide as a bullet and its space. */
#define ITEM_INDENT "\xe2\x80\x83"
#define LEFT_QUOTE "\xe2\x80\x9c"
#define RIGHT_QUOTE "\xe2\x80\x9d"

static const char *const bullets[] = { "\xe2\x80\xa2 ", "\xe2\x97\xa6 ", "\xe2\x96\xaa " };

typedef enum
{
  BREAK_NONE,
  BREAK_LINE,
  BREAK_PARAGRAPH,
} BreakLevel;

/* Indices into style_tags; the link comes first so that it opens outermost. */
typedef enum
{
  STYLE_LINK,
  STYLE_BOLD,
  STYLE_ITALIC,
  STYLE_MONO,
  STYLE_STRIKE,
  STYLE_SUB,
  STYLE_SUP,
  N_STYLES
} Style;

#define BIT(style) (1u << (style))

static const char *const style_tags[N_STYLES] = { "a", "b", "i", "tt", "s", "sub", "sup" };

typedef enum
{
  FLOW_INLINE,    /* part of the running text */
  FLOW_SPACED,    /* inline, but set off by spaces: table cells, images */
  FLOW_LINE,      /* on lines of its own */
  FLOW_PARAGRAPH, /* on lines of its own, set off by blank lines */
  FLOW_DROPPED,   /* never shown, nor anything inside it */
} Flow;

typedef enum
{
  ROLE_NONE,
  ROLE_BREAK,
  ROLE_PRE,
  ROLE_LINK,
  ROLE_LIST,
  ROLE_ORDERED_LIST,
  ROLE_ITEM,
  ROLE_QUOTE,
  ROLE_INDENT,
  ROLE_IMAGE,
  ROLE_INLINE_QUOTE,
} Role;

typedef struct
{
  const char *name;
  guint8 flow;
  guint8 styles;
  guint8 role;
} ElementRule;

/* Every element not listed is inline and shows its content as text. */
static const ElementRule element_rules[] = {
  { "a", FLOW_INLINE, 0, ROLE_LINK },
  { "b", FLOW_INLINE, BIT (STYLE_BOLD), ROLE_NONE },
  { "strong", FLOW_INLINE, BIT (STYLE_BOLD), ROLE_NONE },
  { "i", FLOW_INLINE, BIT (STYLE_ITALIC), ROLE_NONE },
  { "em", FLOW_INLINE, BIT (STYLE_ITALIC), ROLE_NONE },
  { "cite", FLOW_INLINE, BIT (STYLE_ITALIC), ROLE_NONE },
  { "dfn", FLOW_INLINE, BIT (STYLE_ITALIC), ROLE_NONE },
  { "var", FLOW_INLINE, BIT (STYLE_ITALIC), ROLE_NONE },
  { "code", FLOW_INLINE, BIT (STYLE_MONO), ROLE_NONE },
  { "tt", FLOW_INLINE, BIT (STYLE_MONO), ROLE_NONE },
  { "kbd", FLOW_INLINE, BIT (STYLE_MONO), ROLE_NONE },
  { "samp", FLOW_INLINE, BIT (STYLE_MONO), ROLE_NONE },
  { "s", FLOW_INLINE, BIT (STYLE_STRIKE), ROLE_NONE },
  { "strike", FLOW_INLINE, BIT (STYLE_STRIKE), ROLE_NONE },
  { "del", FLOW_INLINE, BIT (STYLE_STRIKE), ROLE_NONE },
  { "sub", FLOW_INLINE, BIT (STYLE_SUB), ROLE_NONE },
  { "sup", FLOW_INLINE, BIT (STYLE_SUP), ROLE_NONE },
  { "q", FLOW_INLINE, 0, ROLE_INLINE_QUOTE },
  { "br", FLOW_INLINE, 0, ROLE_BREAK },
  { "img", FLOW_SPACED, 0, ROLE_IMAGE },
  { "td", FLOW_SPACED, 0, ROLE_NONE },
  { "th", FLOW_SPACED, BIT (STYLE_BOLD), ROLE_NONE },

  { "p", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "pre", FLOW_PARAGRAPH, BIT (STYLE_MONO), ROLE_PRE },
  { "blockquote", FLOW_PARAGRAPH, 0, ROLE_QUOTE },
  { "ul", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "menu", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "dir", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "ol", FLOW_PARAGRAPH, 0, ROLE_ORDERED_LIST },
  { "dl", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "h1", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "h2", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "h3", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "h4", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "h5", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "h6", FLOW_PARAGRAPH, BIT (STYLE_BOLD), ROLE_NONE },
  { "table", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "hr", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "figure", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "fieldset", FLOW_PARAGRAPH, 0, ROLE_NONE },

  { "li", FLOW_LINE, 0, ROLE_ITEM },
  { "dd", FLOW_LINE, 0, ROLE_INDENT },
  { "dt", FLOW_LINE, 0, ROLE_NONE },
  { "tr", FLOW_LINE, 0, ROLE_NONE },
  { "caption", FLOW_LINE, 0, ROLE_NONE },
  { "div", FLOW_LINE, 0, ROLE_NONE },
  { "section", FLOW_LINE, 0, ROLE_NONE },
  { "article", FLOW_LINE, 0, ROLE_NONE },
  { "header", FLOW_LINE, 0, ROLE_NONE },
  { "footer", FLOW_LINE, 0, ROLE_NONE },
  { "main", FLOW_LINE, 0, ROLE_NONE },
  { "nav", FLOW_LINE, 0, ROLE_NONE },
  { "aside", FLOW_LINE, 0, ROLE_NONE },
  { "figcaption", FLOW_LINE, 0, ROLE_NONE },
  { "address", FLOW_LINE, 0, ROLE_NONE },
  { "center", FLOW_LINE, 0, ROLE_NONE },
  { "details", FLOW_LINE, 0, ROLE_NONE },
  { "summary", FLOW_LINE, 0, ROLE_NONE },
  { "form", FLOW_LINE, 0, ROLE_NONE },
  { "html", FLOW_LINE, 0, ROLE_NONE },
  { "body", FLOW_LINE, 0, ROLE_NONE },

  { "script", FLOW_DROPPED, 0, ROLE_NONE },
  { "style", FLOW_DROPPED, 0, ROLE_NONE },
  { "head", FLOW_DROPPED, 0, ROLE_NONE },
  { "title", FLOW_DROPPED, 0, ROLE_NONE },
  { "noscript", FLOW_DROPPED, 0, ROLE_NONE },
  { "template", FLOW_DROPPED, 0, ROLE_NONE },
  { "iframe", FLOW_DROPPED, 0, ROLE_NONE },
  { "object", FLOW_DROPPED, 0, ROLE_NONE },
  { "embed", FLOW_DROPPED, 0, ROLE_NONE },
  { "svg", FLOW_DROPPED, 0, ROLE_NONE },
  { "math", FLOW_DROPPED, 0, ROLE_NONE },
  { "canvas", FLOW_DROPPED, 0, ROLE_NONE },
  { "audio", FLOW_DROPPED, 0, ROLE_NONE },
  { "video", FLOW_DROPPED, 0, ROLE_NONE },
};

/* Elements whose content the HTML tokenizer reads as text up to their end
 * tag (https://html.spec.whatwg.org/multipage/parsing.html#parsing-html-fragments). */
static const char *const raw_text_elements[] = {
  "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", NULL
};

typedef enum
{
  CONTEXT_QUOTE,
  CONTEXT_INDENT,
  CONTEXT_ITEM,
} ContextKind;

/* What a block quote, a list item or a definition adds to each of its lines. */
typedef struct
{
  ContextKind kind;
  gboolean marker_pending;
  char marker[32];
} Context;

typedef struct
{
  gboolean ordered;
  gint64 next_number;
} List;

/* What entering an element changed, to be undone when leaving it. */
typedef struct
{
  const ElementRule *rule;
  gboolean owns_link;
} Frame;

typedef struct
{
  GString *out;
  gboolean markup;
  const char *base_url;
  gsize n_chars;
  gsize max_chars;
  gboolean full;

  gboolean has_content;
  gboolean at_line_start;
  BreakLevel pending_break;
  gunichar pending_space;
  /* Preformatted white space, written only if something follows on its line. */
  GString *pending_pre_space;

  guint style_depth[N_STYLES];
  /* Whether the open tags may differ from the wanted styles. */
  gboolean styles_changed;
  char *link_href;
  guint link_serial;
  /* The tags now open in out, outermost first, and which link is open. */
  Style open[N_STYLES];
  guint n_open;
  guint open_link_serial;

  guint pre_depth;
  guint item_depth;
  GArray *frames;
  GArray *contexts;
  GArray *lists;
} Builder;

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

static const ElementRule *
find_rule (const xmlChar *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (element_rules); i++)
    {
      if (g_ascii_strcasecmp ((const char *) name, element_rules[i].name) == 0)
        return &element_rules[i];
    }

  return NULL;
}

static guint
wanted_styles (Builder *builder)
{
  guint wanted = builder->link_href != NULL ? BIT (STYLE_LINK) : 0;

  for (guint i = 0; i < N_STYLES; i++)
    {
      if (builder->style_depth[i] > 0)
        wanted |= BIT (i);
    }

  return wanted;
}

static void
close_styles_from (Builder *builder,
                   guint index)
{
  if (builder->n_open > index)
    builder->styles_changed = TRUE;
  while (builder->n_open > index)
    {
      Style style = builder->open[--builder->n_open];

      g_string_append_printf (builder->out, "</%s>", style_tags[style]);
    }
}

/* Tags are closed only in the reverse order they were opened, so closing one
 * that is no longer wanted closes those opened inside it as well. */
static void
close_unwanted_styles (Builder *builder)
{
  guint wanted = wanted_styles (builder);

  for (guint i = 0; i < builder->n_open; i++)
    {
      Style style = builder->open[i];

      if ((wanted & BIT (style)) == 0 || (style == STYLE_LINK && builder->open_link_serial != builder->link_serial))
        {
          close_styles_from (builder, i);
          return;
        }
    }
}

static void
open_wanted_styles (Builder *builder)
{
  guint wanted;
  guint open = 0;

  close_unwanted_styles (builder);
  wanted = wanted_styles (builder);
  for (guint i = 0; i < builder->n_open; i++)
    open |= BIT (builder->open[i]);

  for (Style style = 0; style < N_STYLES; style++)
    {
      if ((wanted & BIT (style)) == 0 || (open & BIT (style)) != 0)
        continue;

      if (style == STYLE_LINK)
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
append_prefix (Builder *builder)
{
  guint n = MIN (builder->contexts->len, MAX_PREFIX_CONTEXTS);

  for (guint i = 0; i < n; i++)
    {
      Context *context = &g_array_index (builder->contexts, Context, i);

      if (context->kind == CONTEXT_QUOTE)
        g_string_append (builder->out, QUOTE_PREFIX);
      else if (context->kind == CONTEXT_ITEM && context->marker_pending)
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
start_char (Builder *builder)
{
  if (builder->pending_break != BREAK_NONE && builder->has_content)
    {
      close_styles_from (builder, 0);
      g_string_append (builder->out, builder->markup && builder->pending_break == BREAK_PARAGRAPH ? "\n\n" : "\n");
      builder->at_line_start = TRUE;
    }
  builder->pending_break = BREAK_NONE;

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
put_char (Builder *builder,
          gunichar c)
{
  if (builder->full)
    return;

  if (builder->pending_break != BREAK_NONE || builder->at_line_start || builder->pending_space != 0 || builder->styles_changed || builder->pending_pre_space->len > 0)
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

static void
add_break (Builder *builder,
           BreakLevel level)
{
  builder->pending_break = MAX (builder->pending_break, level);
  g_string_truncate (builder->pending_pre_space, 0);
}

/* A <br> or a newline in preformatted text: a second one in a row leaves a
 * blank line, more add nothing. */
static void
add_forced_break (Builder *builder)
{
  builder->pending_break = MIN (builder->pending_break + 1, BREAK_PARAGRAPH);
  g_string_truncate (builder->pending_pre_space, 0);
}

static void
add_space (Builder *builder,
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
add_preformatted_char (Builder *builder,
                       gunichar c)
{
  if (c == '\n' || c == LINE_SEPARATOR || c == PARAGRAPH_SEPARATOR)
    add_forced_break (builder);
  else if (!builder->markup && is_space (c))
    add_space (builder, c);
  else if (c == '\t' || (is_space (c) && !is_control (c)))
    g_string_append_unichar (builder->pending_pre_space, c);
  else if (!is_control (c))
    put_char (builder, c);
}

static void
add_text (Builder *builder,
          const char *text)
{
  g_autofree char *valid = NULL;

  /* libxml2 hands back what it was given, which prepare_html() made valid,
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
        add_space (builder, c);
      else if (!is_control (c))
        put_char (builder, c);
    }
}

static gboolean
enter_link (Builder *builder,
            xmlNode *node)
{
  xmlChar *href;
  g_autofree char *url = NULL;

  /* A link inside a link is text: GtkLabel cannot nest them. */
  if (!builder->markup || builder->link_href != NULL)
    return FALSE;

  href = xmlGetProp (node, (const xmlChar *) "href");
  if (href == NULL)
    return FALSE;
  url = lwn_url_dup_article_url (builder->base_url, (const char *) href);
  xmlFree (href);

  if (url == NULL || !lwn_url_is_launchable (url))
    return FALSE;

  builder->link_href = g_markup_escape_text (url, -1);
  builder->link_serial++;
  builder->styles_changed = TRUE;
  return TRUE;
}

static void
push_list (Builder *builder,
           xmlNode *node,
           gboolean ordered)
{
  List list = { ordered, 1 };
  xmlChar *start = ordered ? xmlGetProp (node, (const xmlChar *) "start") : NULL;

  if (start != NULL)
    {
      char *end = NULL;
      gint64 number = g_ascii_strtoll ((const char *) start, &end, 10);

      if (end != (char *) start)
        list.next_number = CLAMP (number, -999999999, 999999999);
      xmlFree (start);
    }

  g_array_append_val (builder->lists, list);
}

static void
push_context (Builder *builder,
              ContextKind kind)
{
  Context context = { kind, FALSE, "" };

  if (kind == CONTEXT_ITEM)
    {
      guint n_lists = builder->lists->len;
      List *list = n_lists > 0 ? &g_array_index (builder->lists, List, n_lists - 1) : NULL;

      if (list != NULL && list->ordered)
        g_snprintf (context.marker, sizeof context.marker, "%" G_GINT64_FORMAT ". ", list->next_number++);
      else
        g_strlcpy (context.marker, bullets[(n_lists > 0 ? n_lists - 1 : 0) % G_N_ELEMENTS (bullets)], sizeof context.marker);
      context.marker_pending = TRUE;
      builder->item_depth++;
    }

  g_array_append_val (builder->contexts, context);
}

static void
pop_context (Builder *builder)
{
  Context *context = &g_array_index (builder->contexts, Context, builder->contexts->len - 1);

  if (context->kind == CONTEXT_ITEM)
    builder->item_depth--;
  g_array_set_size (builder->contexts, builder->contexts->len - 1);
}

static BreakLevel
block_break (Builder *builder,
             const ElementRule *rule)
{
  /* A list inside a list item follows on the next line, as browsers show it. */
  if ((rule->role == ROLE_LIST || rule->role == ROLE_ORDERED_LIST) && builder->item_depth > 0)
    return BREAK_LINE;

  return rule->flow == FLOW_PARAGRAPH ? BREAK_PARAGRAPH : BREAK_LINE;
}

static void
add_flow (Builder *builder,
          const ElementRule *rule)
{
  if (rule->flow == FLOW_LINE || rule->flow == FLOW_PARAGRAPH)
    add_break (builder, block_break (builder, rule));
  else if (rule->flow == FLOW_SPACED)
    add_space (builder, ' ');
}

static void
add_image (Builder *builder,
           xmlNode *node)
{
  xmlChar *alt = xmlGetProp (node, (const xmlChar *) "alt");

  if (alt != NULL)
    {
      add_text (builder, (const char *) alt);
      xmlFree (alt);
    }
}

static gboolean
enter_element (Builder *builder,
               xmlNode *node)
{
  const ElementRule *rule = find_rule (node->name);
  Frame frame = { rule, FALSE };

  if (rule != NULL && rule->flow == FLOW_DROPPED)
    return FALSE;

  g_array_append_val (builder->frames, frame);
  if (rule == NULL)
    return TRUE;

  add_flow (builder, rule);
  for (guint i = 0; i < N_STYLES; i++)
    {
      if (rule->styles & BIT (i))
        builder->style_depth[i]++;
    }
  if (rule->styles != 0)
    builder->styles_changed = TRUE;

  switch ((Role) rule->role)
    {
      case ROLE_BREAK:
        add_forced_break (builder);
        break;
      case ROLE_PRE:
        builder->pre_depth++;
        break;
      case ROLE_LINK:
        g_array_index (builder->frames, Frame, builder->frames->len - 1).owns_link = enter_link (builder, node);
        break;
      case ROLE_LIST:
      case ROLE_ORDERED_LIST:
        push_list (builder, node, rule->role == ROLE_ORDERED_LIST);
        break;
      case ROLE_ITEM:
        push_context (builder, CONTEXT_ITEM);
        break;
      case ROLE_QUOTE:
        push_context (builder, CONTEXT_QUOTE);
        break;
      case ROLE_INDENT:
        push_context (builder, CONTEXT_INDENT);
        break;
      case ROLE_IMAGE:
        add_image (builder, node);
        break;
      case ROLE_INLINE_QUOTE:
        add_text (builder, LEFT_QUOTE);
        break;
      case ROLE_NONE:
        break;
    }

  return TRUE;
}

static void
leave_element (Builder *builder)
{
  Frame frame = g_array_index (builder->frames, Frame, builder->frames->len - 1);
  const ElementRule *rule = frame.rule;

  g_array_set_size (builder->frames, builder->frames->len - 1);
  if (rule == NULL)
    return;

  switch ((Role) rule->role)
    {
      case ROLE_PRE:
        builder->pre_depth--;
        break;
      case ROLE_LINK:
        if (frame.owns_link)
          {
            g_clear_pointer (&builder->link_href, g_free);
            builder->styles_changed = TRUE;
          }
        break;
      case ROLE_LIST:
      case ROLE_ORDERED_LIST:
        g_array_set_size (builder->lists, builder->lists->len - 1);
        break;
      case ROLE_ITEM:
      case ROLE_QUOTE:
      case ROLE_INDENT:
        pop_context (builder);
        break;
      case ROLE_INLINE_QUOTE:
        add_text (builder, RIGHT_QUOTE);
        break;
      case ROLE_BREAK:
      case ROLE_IMAGE:
      case ROLE_NONE:
        break;
    }

  for (guint i = 0; i < N_STYLES; i++)
    {
      if (rule->styles & BIT (i))
        builder->style_depth[i]--;
    }
  if (rule->styles != 0)
    builder->styles_changed = TRUE;
  add_flow (builder, rule);
}

static gboolean
enter_node (Builder *builder,
            xmlNode *node)
{
  switch (node->type)
    {
      case XML_TEXT_NODE:
      case XML_CDATA_SECTION_NODE:
        if (node->content != NULL)
          add_text (builder, (const char *) node->content);
        return FALSE;

      case XML_ELEMENT_NODE:
        return enter_element (builder, node);

      default:
        /* Comments, processing instructions and the like carry no text. */
        return FALSE;
    }
}

/* Walks the tree under @root without recursion: a description may nest
 * elements far deeper than the stack is comfortable with. */
static void
walk_tree (Builder *builder,
           xmlNode *root)
{
  xmlNode *node = root;

  while (node != NULL && !builder->full)
    {
      gboolean entered = enter_node (builder, node);

      if (entered && node->children != NULL)
        {
          node = node->children;
          continue;
        }

      while (node != NULL)
        {
          if (entered && node->type == XML_ELEMENT_NODE)
            leave_element (builder);
          /* Every ancestor we climb back to was entered on the way down. */
          entered = TRUE;
          if (node == root)
            node = NULL;
          else if (node->next != NULL)
            {
              node = node->next;
              break;
            }
          else
            node = node->parent;
        }
    }
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

/* Appends @html without its comments, doctypes and the "bogus comments"
 * browsers make of "<!x", "<?x" and "</ x" up to the next '>'
 * (https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state).
 * libxml2 2.9 shows some of those as text and drops others' first
 * characters, so that "<!' <a href=x>" became "!'" where a browser shows
 * nothing at all. */
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
static char *
prepare_html (const char *html,
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

static void
ignore_xml_error (void *user_data,
                  xmlError *error)
{
}

static xmlDoc *
parse_html (const char *html)
{
  g_autoptr (htmlParserCtxt) ctxt = NULL;
  xmlStructuredErrorFunc saved_handler = xmlStructuredError;
  void *saved_context = xmlStructuredErrorContext;
  xmlDoc *doc;

  ctxt = htmlNewParserCtxt ();
  if (ctxt == NULL)
    return NULL;

  /* The NOERROR/NOWARNING options silence the parser's own reports but not
   * every libxml2 error channel; this handler is per-thread. Without
   * HTML_PARSE_HUGE the parser gives up past 256 nested elements, which
   * keeps the text before them and bounds the tree walked below. */
  xmlSetStructuredErrorFunc (NULL, ignore_xml_error);
  doc = htmlCtxtReadMemory (ctxt, html, (int) strlen (html), NULL, "UTF-8",
                            HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NODEFDTD | HTML_PARSE_IGNORE_ENC | HTML_PARSE_COMPACT);
  xmlSetStructuredErrorFunc (saved_context, saved_handler);

  return doc;
}

/**
 * lwn_text_render_html:
 * @html: (nullable): a feed item's description: HTML, or plain text that
 *   may contain stray `<` and `&`
 * @render: whether to make plain text or Pango markup
 * @base_url: (nullable): what relative links are resolved against; only
 *   used for markup
 * @max_chars: the most visible characters to write; writing stops there
 * @truncated: (out): set when part of @html was not rendered, because it
 *   was too long or because @max_chars were written
 *
 * The renderer shared by lwn_text_from_html() and
 * lwn_text_markup_from_html(), so that both apply the same rules to the
 * same elements: scripts, styles and the like are dropped; block elements
 * start new lines; white space collapses as in HTML; control characters
 * and comments never show. Markup also gets blank lines between
 * paragraphs, bullets and numbers for list items, a bar before quoted
 * lines, styles, and links for http(s) targets; plain text gets single
 * line breaks and nothing else. Internal to lwn-text.
 *
 * Returns: (transfer full): valid UTF-8 plain text, or Pango markup with
 *   every tag closed; "" for %NULL
 */
char *
lwn_text_render_html (const char *html,
                      LwnTextRender render,
                      const char *base_url,
                      gsize max_chars,
                      gboolean *truncated)
{
  g_autofree char *input = NULL;
  g_autoptr (xmlDoc) doc = NULL;
  xmlNode *root;
  Builder builder = { 0 };

  *truncated = FALSE;
  if (html == NULL)
    return g_strdup ("");

  input = prepare_html (html, truncated);
  if (*input == '\0')
    return g_strdup ("");

  doc = parse_html (input);
  root = doc != NULL ? xmlDocGetRootElement (doc) : NULL;
  if (root == NULL)
    return g_strdup ("");

  builder.out = g_string_new (NULL);
  builder.markup = render == LWN_TEXT_RENDER_MARKUP;
  builder.base_url = base_url;
  builder.max_chars = max_chars;
  builder.at_line_start = TRUE;
  builder.styles_changed = TRUE;
  builder.pending_pre_space = g_string_new (NULL);
  builder.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  builder.contexts = g_array_new (FALSE, FALSE, sizeof (Context));
  builder.lists = g_array_new (FALSE, FALSE, sizeof (List));

  walk_tree (&builder, root);
  close_styles_from (&builder, 0);
  *truncated = *truncated || builder.full;

  g_free (builder.link_href);
  g_string_free (builder.pending_pre_space, TRUE);
  g_array_unref (builder.frames);
  g_array_unref (builder.contexts);
  g_array_unref (builder.lists);
  return g_string_free (builder.out, FALSE);
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
