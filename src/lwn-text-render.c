/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Renders feed HTML, with one set of block rules, as Pango markup for a wrapping label or as plain text. */

#include "config.h"

#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>

#include "lwn-text-private.h"
#include "lwn-url.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (htmlParserCtxt, htmlFreeParserCtxt)

#define LEFT_QUOTE "\xe2\x80\x9c"
#define RIGHT_QUOTE "\xe2\x80\x9d"

static const char *const bullets[] = { "\xe2\x80\xa2 ", "\xe2\x97\xa6 ", "\xe2\x96\xaa " };

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
  { "b", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "strong", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "i", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_ITALIC), ROLE_NONE },
  { "em", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_ITALIC), ROLE_NONE },
  { "cite", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_ITALIC), ROLE_NONE },
  { "dfn", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_ITALIC), ROLE_NONE },
  { "var", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_ITALIC), ROLE_NONE },
  { "code", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_MONO), ROLE_NONE },
  { "tt", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_MONO), ROLE_NONE },
  { "kbd", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_MONO), ROLE_NONE },
  { "samp", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_MONO), ROLE_NONE },
  { "s", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_STRIKE), ROLE_NONE },
  { "strike", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_STRIKE), ROLE_NONE },
  { "del", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_STRIKE), ROLE_NONE },
  { "sub", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_SUB), ROLE_NONE },
  { "sup", FLOW_INLINE, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_SUP), ROLE_NONE },
  { "q", FLOW_INLINE, 0, ROLE_INLINE_QUOTE },
  { "br", FLOW_INLINE, 0, ROLE_BREAK },
  { "img", FLOW_SPACED, 0, ROLE_IMAGE },
  { "td", FLOW_SPACED, 0, ROLE_NONE },
  { "th", FLOW_SPACED, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },

  { "p", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "pre", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_MONO), ROLE_PRE },
  { "blockquote", FLOW_PARAGRAPH, 0, ROLE_QUOTE },
  { "ul", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "menu", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "dir", FLOW_PARAGRAPH, 0, ROLE_LIST },
  { "ol", FLOW_PARAGRAPH, 0, ROLE_ORDERED_LIST },
  { "dl", FLOW_PARAGRAPH, 0, ROLE_NONE },
  { "h1", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "h2", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "h3", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "h4", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "h5", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
  { "h6", FLOW_PARAGRAPH, LWN_TEXT_STYLE_BIT (LWN_TEXT_STYLE_BOLD), ROLE_NONE },
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

static gboolean
enter_link (LwnTextBuilder *builder,
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
push_list (LwnTextBuilder *builder,
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
push_context (LwnTextBuilder *builder,
              LwnTextContextKind kind)
{
  LwnTextContext context = { kind, FALSE, "" };

  if (kind == LWN_TEXT_CONTEXT_ITEM)
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
pop_context (LwnTextBuilder *builder)
{
  LwnTextContext *context = &g_array_index (builder->contexts, LwnTextContext, builder->contexts->len - 1);

  if (context->kind == LWN_TEXT_CONTEXT_ITEM)
    builder->item_depth--;
  g_array_set_size (builder->contexts, builder->contexts->len - 1);
}

static LwnTextBreak
block_break (LwnTextBuilder *builder,
             const ElementRule *rule)
{
  /* A list inside a list item follows on the next line, as browsers show it. */
  if ((rule->role == ROLE_LIST || rule->role == ROLE_ORDERED_LIST) && builder->item_depth > 0)
    return LWN_TEXT_BREAK_LINE;

  return rule->flow == FLOW_PARAGRAPH ? LWN_TEXT_BREAK_PARAGRAPH : LWN_TEXT_BREAK_LINE;
}

static void
add_flow (LwnTextBuilder *builder,
          const ElementRule *rule)
{
  if (rule->flow == FLOW_LINE || rule->flow == FLOW_PARAGRAPH)
    lwn_text_builder_add_break (builder, block_break (builder, rule));
  else if (rule->flow == FLOW_SPACED)
    lwn_text_builder_add_space (builder, ' ');
}

static void
add_image (LwnTextBuilder *builder,
           xmlNode *node)
{
  xmlChar *alt = xmlGetProp (node, (const xmlChar *) "alt");

  if (alt != NULL)
    {
      lwn_text_builder_add_text (builder, (const char *) alt);
      xmlFree (alt);
    }
}

static gboolean
enter_element (LwnTextBuilder *builder,
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
  for (guint i = 0; i < LWN_TEXT_N_STYLES; i++)
    {
      if (rule->styles & LWN_TEXT_STYLE_BIT (i))
        builder->style_depth[i]++;
    }
  if (rule->styles != 0)
    builder->styles_changed = TRUE;

  switch ((Role) rule->role)
    {
      case ROLE_BREAK:
        lwn_text_builder_add_forced_break (builder);
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
        push_context (builder, LWN_TEXT_CONTEXT_ITEM);
        break;
      case ROLE_QUOTE:
        push_context (builder, LWN_TEXT_CONTEXT_QUOTE);
        break;
      case ROLE_INDENT:
        push_context (builder, LWN_TEXT_CONTEXT_INDENT);
        break;
      case ROLE_IMAGE:
        add_image (builder, node);
        break;
      case ROLE_INLINE_QUOTE:
        lwn_text_builder_add_text (builder, LEFT_QUOTE);
        break;
      case ROLE_NONE:
        break;
    }

  return TRUE;
}

static void
leave_element (LwnTextBuilder *builder)
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
        lwn_text_builder_add_text (builder, RIGHT_QUOTE);
        break;
      case ROLE_BREAK:
      case ROLE_IMAGE:
      case ROLE_NONE:
        break;
    }

  for (guint i = 0; i < LWN_TEXT_N_STYLES; i++)
    {
      if (rule->styles & LWN_TEXT_STYLE_BIT (i))
        builder->style_depth[i]--;
    }
  if (rule->styles != 0)
    builder->styles_changed = TRUE;
  add_flow (builder, rule);
}

static gboolean
enter_node (LwnTextBuilder *builder,
            xmlNode *node)
{
  switch (node->type)
    {
      case XML_TEXT_NODE:
      case XML_CDATA_SECTION_NODE:
        if (node->content != NULL)
          lwn_text_builder_add_text (builder, (const char *) node->content);
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
walk_tree (LwnTextBuilder *builder,
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
  LwnTextBuilder builder = { 0 };

  *truncated = FALSE;
  if (html == NULL)
    return g_strdup ("");

  input = lwn_text_scan_prepare_html (html, truncated);
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
  builder.contexts = g_array_new (FALSE, FALSE, sizeof (LwnTextContext));
  builder.lists = g_array_new (FALSE, FALSE, sizeof (List));

  walk_tree (&builder, root);
  lwn_text_builder_close_styles_from (&builder, 0);
  *truncated = *truncated || builder.full;

  g_free (builder.link_href);
  g_string_free (builder.pending_pre_space, TRUE);
  g_array_unref (builder.frames);
  g_array_unref (builder.contexts);
  g_array_unref (builder.lists);
  return g_string_free (builder.out, FALSE);
}
