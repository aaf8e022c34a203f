/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the files of lwn-text share, and no other module sees: the pre-scan, the output builder and the renderer. */
#pragma once

#include <glib.h>

#include "lwn-text.h"

G_BEGIN_DECLS

typedef enum
{
  LWN_TEXT_RENDER_PLAIN,
  LWN_TEXT_RENDER_MARKUP,
} LwnTextRender;

typedef enum
{
  LWN_TEXT_BREAK_NONE,
  LWN_TEXT_BREAK_LINE,
  LWN_TEXT_BREAK_PARAGRAPH,
} LwnTextBreak;

/* Indices into the tags lwn-text-builder.c writes; the link comes first so
 * that it opens outermost. */
typedef enum
{
  LWN_TEXT_STYLE_LINK,
  LWN_TEXT_STYLE_BOLD,
  LWN_TEXT_STYLE_ITALIC,
  LWN_TEXT_STYLE_MONO,
  LWN_TEXT_STYLE_STRIKE,
  LWN_TEXT_STYLE_SUB,
  LWN_TEXT_STYLE_SUP,
  LWN_TEXT_N_STYLES
} LwnTextStyle;

#define LWN_TEXT_STYLE_BIT(style) (1u << (style))

typedef enum
{
  LWN_TEXT_CONTEXT_QUOTE,
  LWN_TEXT_CONTEXT_INDENT,
  LWN_TEXT_CONTEXT_ITEM,
} LwnTextContextKind;

/* What a block quote, a list item or a definition adds to each of its lines. */
typedef struct
{
  LwnTextContextKind kind;
  gboolean marker_pending;
  char marker[32];
} LwnTextContext;

/* The text being written, and the renderer's state that decides how. */
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
  LwnTextBreak pending_break;
  gunichar pending_space;
  /* Preformatted white space, written only if something follows on its line. */
  GString *pending_pre_space;

  guint style_depth[LWN_TEXT_N_STYLES];
  /* Whether the open tags may differ from the wanted styles. */
  gboolean styles_changed;
  char *link_href;
  guint link_serial;
  /* The tags now open in out, outermost first, and which link is open. */
  LwnTextStyle open[LWN_TEXT_N_STYLES];
  guint n_open;
  guint open_link_serial;

  guint pre_depth;
  guint item_depth;
  /* The renderer's open elements, its contexts and its open lists. */
  GArray *frames;
  GArray *contexts;
  GArray *lists;
} LwnTextBuilder;

/* lwn-text-scan.c */
char *lwn_text_scan_prepare_html         (const char     *html,
                                          gboolean       *truncated);

/* lwn-text-builder.c */
void  lwn_text_builder_add_text          (LwnTextBuilder *builder,
                                          const char     *text);
void  lwn_text_builder_add_break         (LwnTextBuilder *builder,
                                          LwnTextBreak    level);
void  lwn_text_builder_add_forced_break  (LwnTextBuilder *builder);
void  lwn_text_builder_add_space         (LwnTextBuilder *builder,
                                          gunichar        c);
void  lwn_text_builder_close_styles_from (LwnTextBuilder *builder,
                                          guint           index);

/* lwn-text-render.c */
char *lwn_text_render_html               (const char     *html,
                                          LwnTextRender   render,
                                          const char     *base_url,
                                          gsize           max_chars,
                                          gboolean       *truncated);

G_END_DECLS
