/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks markup the way a GtkLabel with use-markup reads it, for the text tests and the fuzz target. */

#include "config.h"

#include <string.h>

#include <pango/pango.h>

#include "label-markup.h"
#include "lwn-url.h"

/* The tags lwn_text_markup_from_html() may write, all without attributes
 * but the link's href: anything else came from the feed. */
static const char *const allowed_tags[] = { "markup", "b", "i", "tt", "s", "sub", "sup", NULL };

typedef struct
{
  GString *pango;
  gboolean in_link;
} LabelParse;

static void
label_start_element_cb (GMarkupParseContext *context,
                        const char *element_name,
                        const char **attribute_names,
                        const char **attribute_values,
                        gpointer user_data,
                        GError **error)
{
  LabelParse *parse = user_data;

  if (strcmp (element_name, "a") == 0)
    {
      if (parse->in_link)
        {
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "A link inside a link");
          return;
        }
      if (attribute_names[0] == NULL || strcmp (attribute_names[0], "href") != 0 || attribute_names[1] != NULL)
        {
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ATTRIBUTE, "A link with attributes other than one href");
          return;
        }
      if (!lwn_url_is_launchable (attribute_values[0]))
        {
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "A link to “%s”, which is not http(s)", attribute_values[0]);
          return;
        }
      parse->in_link = TRUE;
      return;
    }

  if (!g_strv_contains (allowed_tags, element_name) || attribute_names[0] != NULL)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT, "Unexpected element <%s> or attribute", element_name);
      return;
    }
  g_string_append_printf (parse->pango, "<%s>", element_name);
}

static void
label_end_element_cb (GMarkupParseContext *context,
                      const char *element_name,
                      gpointer user_data,
                      GError **error)
{
  LabelParse *parse = user_data;

  if (strcmp (element_name, "a") == 0)
    parse->in_link = FALSE;
  else
    g_string_append_printf (parse->pango, "</%s>", element_name);
}

static void
label_text_cb (GMarkupParseContext *context,
               const char *text,
               gsize text_len,
               gpointer user_data,
               GError **error)
{
  LabelParse *parse = user_data;
  g_autofree char *escaped = g_markup_escape_text (text, (gssize) text_len);

  g_string_append (parse->pango, escaped);
}

/**
 * lwn_label_markup_check:
 * @markup: markup for a GtkLabel
 * @error: return location for what is wrong with @markup
 *
 * Reads @markup as GTK 3's GtkLabel does when use-markup is set: the
 * `<a href>` links are taken out (gtklabel.c, parse_uri_markup()) and the
 * rest goes to pango_parse_markup(). Stricter than GtkLabel, it also
 * refuses any element or attribute lwn_text_markup_from_html() never
 * writes, a link inside a link, and a link GtkLabel would hand to the
 * activate-link handler that is not http(s).
 *
 * Returns: %TRUE when a label would show @markup and nothing but the
 *   converter's own tags is in it
 */
gboolean
lwn_label_markup_check (const char *markup,
                        GError **error)
{
  const GMarkupParser parser = {
    .start_element = label_start_element_cb,
    .end_element = label_end_element_cb,
    .text = label_text_cb,
  };
  g_autoptr (GString) pango = g_string_new (NULL);
  LabelParse parse = { pango, FALSE };
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autofree char *document = NULL;

  if (!g_utf8_validate (markup, -1, NULL))
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_BAD_UTF8, "Invalid UTF-8");
      return FALSE;
    }

  document = g_strconcat ("<markup>", markup, "</markup>", NULL);
  context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, &parse, NULL);
  if (!g_markup_parse_context_parse (context, document, -1, error) || !g_markup_parse_context_end_parse (context, error))
    return FALSE;

  return pango_parse_markup (pango->str, -1, 0, NULL, NULL, NULL, error);
}
