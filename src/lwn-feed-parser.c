/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sets libxml2 up safely, picks the format, reports errors, and holds the helpers the formats share. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>

#include "lwn-feed-parser.h"
#include "lwn-feed-parser-private.h"
#include "lwn-text.h"
#include "lwn-url.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlParserCtxt, xmlFreeParserCtxt)

/* The first argument is stringified as written: keep it unspaced. */
/* clang-format off */
G_DEFINE_QUARK (lwn-parse-error-quark, lwn_parse_error)
/* clang-format on */

/* Walkers recurse over elements; libxml2 already stops at a depth of 256
 * without XML_PARSE_HUGE, this keeps our own stack use smaller still. */
#define MAX_WALK_DEPTH 64

/* Longest libxml2 message or element name quoted back to the user. */
#define MAX_QUOTED 200
/* Entity lookups one document may cause (predefined ones like &amp; are not
 * looked up): far more than any feed needs, few enough that the nested
 * declarations described at budgeted_get_entity() are refused at once. */
#define MAX_ENTITY_LOOKUPS 10000

/* ------------------------------------------------------------------------ */
/* libxml2 set-up                                                            */

/* No document may pull in anything from outside: not a DTD, not an external
 * entity, whatever the options. This is the last line behind the options,
 * which already keep libxml2 from trying. */
static xmlParserInputPtr
refuse_entity_loader (const char *url,
                      const char *id,
                      xmlParserCtxtPtr ctxt)
{
  return NULL;
}

static gpointer
init_once (gpointer data)
{
  xmlInitParser ();
  xmlSetExternalEntityLoader (refuse_entity_loader);
  return NULL;
}

/**
 * lwn_feed_parser_init:
 *
 * Initialises libxml2 and installs an external-entity loader that refuses
 * everything. The loader is process-wide, so this runs once whatever the
 * number of callers and threads.
 */
void
lwn_feed_parser_init (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, init_once, NULL);
}

/* ------------------------------------------------------------------------ */
/* Safe readers                                                              */

gboolean
lwn_xml_node_is (const xmlNode *node,
                 const char *ns_uri,
                 const char *name)
{
  if (node == NULL || node->type != XML_ELEMENT_NODE)
    return FALSE;
  if (!xmlStrEqual (node->name, (const xmlChar *) name))
    return FALSE;
  if (ns_uri == NULL)
    return node->ns == NULL || node->ns->href == NULL;
  return node->ns != NULL && xmlStrEqual (node->ns->href, (const xmlChar *) ns_uri);
}

/* Appends at most what fits under @max_bytes, never splitting a character. */
static gboolean
append_capped (GString *out,
               const char *text,
               gsize max_bytes)
{
  gsize room;
  gsize len;

  if (text == NULL)
    return out->len < max_bytes;
  if (out->len >= max_bytes)
    return FALSE;

  room = max_bytes - out->len;
  len = strlen (text);
  if (len <= room)
    {
      g_string_append_len (out, text, len);
      return TRUE;
    }

  while (room > 0 && ((guchar) text[room] & 0xC0) == 0x80)
    room--;
  g_string_append_len (out, text, room);
  return FALSE;
}

/* Text and CDATA only. Entity references are skipped, never followed: an
 * entity's replacement is shared by every reference to it, so following
 * them is how a small document expands to gigabytes (billion laughs). */
static gboolean
append_text (GString *out,
             const xmlNode *node,
             gsize max_bytes,
             guint depth)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      switch (child->type)
        {
          case XML_TEXT_NODE:
          case XML_CDATA_SECTION_NODE:
            if (!append_capped (out, (const char *) child->content, max_bytes))
              return FALSE;
            break;

          case XML_ELEMENT_NODE:
            if (depth < MAX_WALK_DEPTH && !append_text (out, child, max_bytes, depth + 1))
              return FALSE;
            break;

          default:
            break;
        }
    }

  return TRUE;
}

/**
 * lwn_xml_node_dup_text:
 * @node: an element
 * @max_bytes: the most bytes to return
 *
 * Returns: (transfer full): the text inside @node, without expanding
 *   entity references, cut at @max_bytes on a character boundary
 */
char *
lwn_xml_node_dup_text (const xmlNode *node,
                       gsize max_bytes)
{
  GString *out = g_string_new (NULL);

  append_text (out, node, max_bytes, 0);
  return g_string_free (out, FALSE);
}

static gboolean
append_escaped (GString *out,
                const char *text,
                gsize max_bytes)
{
  g_autofree char *escaped = NULL;

  if (text == NULL)
    return out->len < max_bytes;
  escaped = g_markup_escape_text (text, -1);
  return append_capped (out, escaped, max_bytes);
}

static char *
dup_attr_value (const xmlAttr *attr,
                gsize max_bytes)
{
  GString *out = g_string_new (NULL);

  for (const xmlNode *child = attr->children; child != NULL; child = child->next)
    {
      if (child->type == XML_TEXT_NODE && !append_capped (out, (const char *) child->content, max_bytes))
        break;
    }

  return g_string_free (out, FALSE);
}

static gboolean
append_markup (GString *out,
               const xmlNode *node,
               gsize max_bytes,
               guint depth)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      switch (child->type)
        {
          case XML_TEXT_NODE:
          case XML_CDATA_SECTION_NODE:
            if (!append_escaped (out, (const char *) child->content, max_bytes))
              return FALSE;
            break;

          case XML_ELEMENT_NODE:
            {
              g_autoptr (GString) tag = NULL;
              g_autofree char *end_tag = NULL;

              if (depth >= MAX_WALK_DEPTH)
                break;

              tag = g_string_new ("<");
              g_string_append (tag, (const char *) child->name);
              for (const xmlAttr *attr = child->properties; attr != NULL; attr = attr->next)
                {
                  g_autofree char *value = dup_attr_value (attr, LWN_PARSE_MAX_SHORT);
                  g_autofree char *escaped = g_markup_escape_text (value, -1);

                  g_string_append_printf (tag, " %s=\"%s\"", (const char *) attr->name, escaped);
                }
              g_string_append (tag, child->children == NULL ? "/>" : ">");
              if (!append_capped (out, tag->str, max_bytes))
                return FALSE;
              if (child->children == NULL)
                break;

              end_tag = g_strdup_printf ("</%s>", (const char *) child->name);
              if (!append_markup (out, child, max_bytes, depth + 1) || !append_capped (out, end_tag, max_bytes))
                return FALSE;
            }
            break;

          default:
            break;
        }
    }

  return TRUE;
}

/**
 * lwn_xml_node_dup_markup:
 * @node: an element holding inline XHTML
 * @max_bytes: the most bytes to return
 *
 * Serialises the children of @node as HTML, with local names, escaped text
 * and attribute values, and no entity expansion.
 *
 * Returns: (transfer full): HTML, cut at @max_bytes
 */
char *
lwn_xml_node_dup_markup (const xmlNode *node,
                         gsize max_bytes)
{
  GString *out = g_string_new (NULL);

  append_markup (out, node, max_bytes, 0);
  return g_string_free (out, FALSE);
}

/**
 * lwn_xml_node_dup_attr:
 * @node: an element
 * @ns_uri: (nullable): the attribute's namespace URI, %NULL for none
 * @name: the attribute's local name
 *
 * Reads an attribute given in the document (never a DTD default) without
 * expanding entity references, which xmlGetProp() would do.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL when absent
 */
char *
lwn_xml_node_dup_attr (const xmlNode *node,
                       const char *ns_uri,
                       const char *name)
{
  for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    {
      gboolean ns_matches;

      if (!xmlStrEqual (attr->name, (const xmlChar *) name))
        continue;
      if (ns_uri == NULL)
        ns_matches = attr->ns == NULL;
      else
        ns_matches = attr->ns != NULL && xmlStrEqual (attr->ns->href, (const xmlChar *) ns_uri);
      if (ns_matches)
        return dup_attr_value (attr, LWN_PARSE_MAX_SHORT);
    }

  return NULL;
}

/**
 * lwn_xml_node_dup_base:
 * @node: an element
 * @document_url: (nullable): the URL the document came from
 *
 * Works out the base URL of @node from the xml:base attributes on it and
 * its ancestors (https://www.w3.org/TR/xmlbase/), resolved outward-in
 * against @document_url. This does what xmlNodeGetBase() does, but reads
 * the attributes without expanding entity references.
 *
 * Returns: (transfer full) (nullable): an absolute URL, or %NULL when no
 *   xml:base applies or it cannot be made absolute
 */
char *
lwn_xml_node_dup_base (const xmlNode *node,
                       const char *document_url)
{
  g_autoptr (GPtrArray) bases = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = NULL;

  for (const xmlNode *cur = node; cur != NULL && cur->type == XML_ELEMENT_NODE; cur = cur->parent)
    {
      char *value = lwn_xml_node_dup_attr (cur, LWN_NS_XML, "base");

      if (value != NULL)
        g_ptr_array_add (bases, value);
    }

  if (bases->len == 0)
    return NULL;

  base = g_strdup (document_url);
  for (guint i = bases->len; i > 0; i--)
    {
      const char *value = g_ptr_array_index (bases, i - 1);
      char *resolved = lwn_url_resolve (base, value);

      if (resolved != NULL)
        {
          g_free (base);
          base = resolved;
        }
    }

  return g_steal_pointer (&base);
}

/**
 * lwn_feed_parser_strdup_capped:
 * @text: (nullable): UTF-8 text
 * @max_bytes: the most bytes to keep
 *
 * Returns: (transfer full) (nullable): a copy of @text cut at @max_bytes on
 *   a character boundary
 */
char *
lwn_feed_parser_strdup_capped (const char *text,
                               gsize max_bytes)
{
  GString *out;

  if (text == NULL)
    return NULL;

  out = g_string_new (NULL);
  append_capped (out, text, max_bytes);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Dates                                                                     */

static void
skip_spaces (const char **p)
{
  while (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n')
    (*p)++;
}

/* Reads between @min and @max digits; FALSE (and @p unmoved) if fewer. */
static gboolean
read_digits (const char **p,
             guint min,
             guint max,
             int *value)
{
  const char *s = *p;
  int v = 0;
  guint n = 0;

  while (n < max && g_ascii_isdigit (s[n]))
    {
      v = v * 10 + (s[n] - '0');
      n++;
    }
  if (n < min)
    return FALSE;

  *p = s + n;
  *value = v;
  return TRUE;
}

/* "+hh:mm", "+hhmm" or "+hh"; the sign is at @p. */
static gboolean
read_numeric_offset (const char **p,
                     int *offset)
{
  int sign = **p == '-' ? -1 : 1;
  int hours;
  int minutes = 0;

  (*p)++;
  if (!read_digits (p, 2, 2, &hours))
    return FALSE;
  if (**p == ':')
    (*p)++;
  if (g_ascii_isdigit (**p) && !read_digits (p, 2, 2, &minutes))
    return FALSE;
  if (hours > 23 || minutes > 59)
    return FALSE;

  *offset = sign * (hours * 3600 + minutes * 60);
  return TRUE;
}

static GDateTime *
date_time_new (int offset,
               int year,
               int month,
               int day,
               int hour,
               int minute,
               double seconds)
{
  g_autoptr (GTimeZone) tz = offset == 0 ? g_time_zone_new_utc () : g_time_zone_new_offset (offset);
  g_autoptr (GDateTime) before_leap = NULL;

  if (tz == NULL)
    return NULL;
  if (seconds < 60.0)
    return g_date_time_new (tz, year, month, day, hour, minute, seconds);

  /* GDateTime has no leap seconds: 23:59:60 becomes the next midnight. */
  before_leap = g_date_time_new (tz, year, month, day, hour, minute, 59);
  return before_leap != NULL ? g_date_time_add_seconds (before_leap, 1) : NULL;
}

/**
 * lwn_feed_parser_parse_iso8601:
 * @text: (nullable): a W3C-DTF date (https://www.w3.org/TR/NOTE-datetime)
 *
 * Reads "YYYY", "YYYY-MM", "YYYY-MM-DD" and "YYYY-MM-DDThh:mm[:ss[.s]]"
 * with "Z", "±hh:mm", "±hhmm" or no zone (taken as UTC); "t" or a space may
 * stand for "T".
 *
 * Returns: (transfer full) (nullable): the time, or %NULL if @text is not
 *   such a date
 */
GDateTime *
lwn_feed_parser_parse_iso8601 (const char *text)
{
  const char *p = text;
  int year, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  double fraction = 0.0;
  int offset = 0;

  if (text == NULL)
    return NULL;

  skip_spaces (&p);
  if (!read_digits (&p, 4, 4, &year))
    return NULL;
  if (*p == '-')
    {
      p++;
      if (!read_digits (&p, 2, 2, &month))
        return NULL;
      if (*p == '-')
        {
          p++;
          if (!read_digits (&p, 2, 2, &day))
            return NULL;
          if ((*p == 'T' || *p == 't' || *p == ' ') && g_ascii_isdigit (p[1]))
            {
              p++;
              if (!read_digits (&p, 2, 2, &hour) || *p++ != ':' || !read_digits (&p, 2, 2, &minute))
                return NULL;
              if (*p == ':')
                {
                  p++;
                  if (!read_digits (&p, 2, 2, &second))
                    return NULL;
                  if (*p == '.' || *p == ',')
                    {
                      double scale = 0.1;

                      p++;
                      if (!g_ascii_isdigit (*p))
                        return NULL;
                      for (; g_ascii_isdigit (*p); p++, scale /= 10)
                        fraction += (*p - '0') * scale;
                    }
                }
              skip_spaces (&p);
              if (*p == 'Z' || *p == 'z')
                p++;
              else if ((*p == '+' || *p == '-') && !read_numeric_offset (&p, &offset))
                return NULL;
            }
        }
    }

  skip_spaces (&p);
  if (*p != '\0' || hour > 23 || minute > 59 || second > 60)
    return NULL;

  return date_time_new (offset, year, month, day, hour, minute, second + fraction);
}

static const struct
{
  const char *name;
  int hours;
} named_zones[] = {
  { "GMT", 0 },
  { "UT", 0 },
  { "UTC", 0 },
  { "Z", 0 },
  { "EST", -5 },
  { "EDT", -4 },
  { "CST", -6 },
  { "CDT", -5 },
  { "MST", -7 },
  { "MDT", -6 },
  { "PST", -8 },
  { "PDT", -7 },
};

static const char *const month_names[] = {
  "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
};

/**
 * lwn_feed_parser_parse_rfc822:
 * @text: (nullable): an RFC 822/1123 date as RSS uses it
 *
 * Reads "[Day,] DD Mon YYYY hh:mm[:ss] [zone]" leniently: the day name and
 * comma are optional, months may be spelt out, years may have 2 digits
 * (RFC 2822 section 4.3), the zone may be a name from RFC 822, "UTC", "Z",
 * or "±hhmm"/"±hh:mm"; a missing or unknown zone is taken as UTC, as RFC
 * 2822 says of military zones.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL if @text is not
 *   such a date
 */
GDateTime *
lwn_feed_parser_parse_rfc822 (const char *text)
{
  const char *p = text;
  int day, month = 0, year, hour = 0, minute = 0, second = 0;
  int offset = 0;
  guint year_digits;
  const char *year_start;

  if (text == NULL)
    return NULL;

  skip_spaces (&p);
  if (g_ascii_isalpha (*p))
    {
      while (g_ascii_isalpha (*p))
        p++;
      skip_spaces (&p);
      if (*p == ',')
        p++;
      skip_spaces (&p);
    }

  if (!read_digits (&p, 1, 2, &day))
    return NULL;
  skip_spaces (&p);
  if (*p == '-')
    p++;
  skip_spaces (&p);

  for (guint i = 0; i < G_N_ELEMENTS (month_names); i++)
    {
      if (g_ascii_strncasecmp (p, month_names[i], 3) == 0)
        {
          month = i + 1;
          break;
        }
    }
  if (month == 0)
    return NULL;
  while (g_ascii_isalpha (*p))
    p++;
  if (*p == '.')
    p++;
  skip_spaces (&p);
  if (*p == '-')
    p++;
  skip_spaces (&p);

  year_start = p;
  if (!read_digits (&p, 2, 4, &year))
    return NULL;
  year_digits = p - year_start;
  if (year_digits == 2)
    year += year < 50 ? 2000 : 1900;
  else if (year_digits == 3)
    year += 1900;

  skip_spaces (&p);
  if (g_ascii_isdigit (*p))
    {
      if (!read_digits (&p, 1, 2, &hour) || *p++ != ':' || !read_digits (&p, 2, 2, &minute))
        return NULL;
      if (*p == ':')
        {
          p++;
          if (!read_digits (&p, 2, 2, &second))
            return NULL;
        }
    }
  if (hour > 23 || minute > 59 || second > 60)
    return NULL;

  skip_spaces (&p);
  if (*p == '+' || *p == '-')
    {
      if (!read_numeric_offset (&p, &offset))
        return NULL;
    }
  else if (g_ascii_isalpha (*p))
    {
      const char *zone = p;
      gsize len = 0;

      while (g_ascii_isalpha (zone[len]))
        len++;
      for (guint i = 0; i < G_N_ELEMENTS (named_zones); i++)
        {
          if (strlen (named_zones[i].name) == len && g_ascii_strncasecmp (zone, named_zones[i].name, len) == 0)
            {
              offset = named_zones[i].hours * 3600;
              break;
            }
        }
      p += len;
      /* "GMT+0200" and the like. */
      if ((*p == '+' || *p == '-') && g_ascii_isdigit (p[1]) && !read_numeric_offset (&p, &offset))
        return NULL;
    }

  return date_time_new (offset, year, month, day, hour, minute, second);
}

/**
 * lwn_feed_parser_parse_date:
 * @text: (nullable): a date in either W3C-DTF or RFC 822 form
 *
 * Feeds do not always use the form their format asks for, so both are
 * tried, W3C-DTF first.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL
 */
GDateTime *
lwn_feed_parser_parse_date (const char *text)
{
  GDateTime *date = lwn_feed_parser_parse_iso8601 (text);

  if (date == NULL)
    date = lwn_feed_parser_parse_rfc822 (text);
  return date;
}

/* ------------------------------------------------------------------------ */
/* Building the feed                                                         */

void
lwn_item_draft_clear (LwnItemDraft *draft)
{
  g_clear_pointer (&draft->id, g_free);
  g_clear_pointer (&draft->title, g_free);
  g_clear_pointer (&draft->link, g_free);
  g_clear_pointer (&draft->base, g_free);
  g_clear_pointer (&draft->author, g_free);
  g_clear_pointer (&draft->summary, g_free);
  g_clear_pointer (&draft->content, g_free);
  g_clear_pointer (&draft->date_text, g_free);
  g_clear_pointer (&draft->date, g_date_time_unref);
}

void
lwn_feed_builder_init (LwnFeedBuilder *builder,
                       const char *document_url)
{
  memset (builder, 0, sizeof *builder);
  builder->document_url = document_url;
  builder->title_kind = LWN_TITLE_GUESS;
  builder->items = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
}

void
lwn_feed_builder_clear (LwnFeedBuilder *builder)
{
  g_clear_pointer (&builder->title, g_free);
  g_clear_pointer (&builder->link, g_free);
  g_clear_pointer (&builder->author, g_free);
  g_clear_pointer (&builder->syn_period, g_free);
  g_clear_pointer (&builder->syn_frequency, g_free);
  g_clear_pointer (&builder->refresh_base, g_date_time_unref);
  g_clear_pointer (&builder->items, g_ptr_array_unref);
}

/**
 * lwn_feed_builder_take_syn:
 * @builder: a feed builder
 * @node: a child of the channel or feed element
 *
 * Records the Syndication module's hints
 * (https://web.resource.org/rss/1.0/modules/syndication/).
 *
 * Returns: %TRUE if @node was one of them
 */
gboolean
lwn_feed_builder_take_syn (LwnFeedBuilder *builder,
                           const xmlNode *node)
{
  if (lwn_xml_node_is (node, LWN_NS_SYN, "updatePeriod"))
    {
      g_free (builder->syn_period);
      builder->syn_period = lwn_xml_node_dup_text (node, LWN_PARSE_MAX_SHORT);
      return TRUE;
    }
  if (lwn_xml_node_is (node, LWN_NS_SYN, "updateFrequency"))
    {
      g_free (builder->syn_frequency);
      builder->syn_frequency = lwn_xml_node_dup_text (node, LWN_PARSE_MAX_SHORT);
      return TRUE;
    }
  if (lwn_xml_node_is (node, LWN_NS_SYN, "updateBase"))
    {
      g_autofree char *text = lwn_xml_node_dup_text (node, LWN_PARSE_MAX_SHORT);

      g_clear_pointer (&builder->refresh_base, g_date_time_unref);
      builder->refresh_base = lwn_feed_parser_parse_iso8601 (text);
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;
  for (; *text != '\0'; text++)
    {
      if (!g_ascii_isspace (*text))
        return FALSE;
    }
  return TRUE;
}

/* Trimmed copy, or NULL when @text is missing or blank. */
static char *
dup_trimmed (const char *text)
{
  if (is_blank (text))
    return NULL;
  return g_strstrip (g_strdup (text));
}

/* One line of plain text. Line breaks and tabs become spaces before the
 * control characters go, so that the words they separated stay apart. */
static char *
plain_line (const char *text)
{
  g_autofree char *spaced = NULL;
  g_autofree char *stripped = NULL;
  gboolean simple = *text != ' ';

  /* Most titles and names are printable ASCII with single spaces, which
   * the clean-up below would return unchanged. */
  for (const char *p = text; simple && *p != '\0'; p++)
    simple = *p >= 0x20 && *p < 0x7F && !(*p == ' ' && (p[1] == ' ' || p[1] == '\0'));
  if (simple)
    return g_strdup (text);

  spaced = g_strdelimit (g_strdup (text), "\t\n\r", ' ');
  stripped = lwn_text_strip_controls (spaced);

  return lwn_text_collapse_whitespace (stripped);
}

/* Whether an RSS title holds markup: an HTML inline tag, or an '&' that starts
 * a character or entity reference. Anything else in angle brackets is text:
 * LWN titles such as "The <linux/cleanup.h> helpers" must keep it. A bare '&'
 * ("AT&T") reads the same either way, and the HTML parser is costly per item. */
static gboolean
title_has_markup (const char *text)
{
  static gsize initialised;
  static GRegex *inline_tag;

  if (g_once_init_enter (&initialised))
    {
      inline_tag = g_regex_new ("</?(a|abbr|b|big|br|cite|code|del|em|font|i|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|tt|u|var)\\b[^<>]*>",
                                G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&initialised, 1);
    }

  if (strchr (text, '<') != NULL && g_regex_match (inline_tag, text, 0, NULL))
    return TRUE;

  for (const char *amp = strchr (text, '&'); amp != NULL; amp = strchr (amp + 1, '&'))
    {
      const char *p = amp + 1;

      if (*p == '#')
        p++;
      while (g_ascii_isalnum (*p))
        p++;
      if (p > amp + 1 && *p == ';')
        return TRUE;
    }
  return FALSE;
}

static char *
plain_title (const char *raw,
             LwnTitleKind kind)
{
  g_autofree char *text = NULL;

  if (raw == NULL)
    return g_strdup ("");

  if (kind == LWN_TITLE_HTML || (kind == LWN_TITLE_GUESS && title_has_markup (raw)))
    text = lwn_text_from_html (raw, 0);
  else
    text = g_strdup (raw);

  return plain_line (text);
}

/* RSS's <author> is "address (Name)"; the name is what a person wants. */
static char *
plain_author (const char *raw)
{
  g_autofree char *line = NULL;
  const char *open;
  const char *at;
  gsize len;

  if (raw == NULL)
    return NULL;

  line = plain_line (raw);
  len = strlen (line);
  open = strchr (line, '(');
  at = strchr (line, '@');
  if (open != NULL && at != NULL && at < open && line[len - 1] == ')')
    {
      g_autofree char *name = g_strndup (open + 1, line + len - 1 - (open + 1));

      g_strstrip (name);
      if (*name != '\0')
        return g_steal_pointer (&name);
    }

  if (*line == '\0')
    return NULL;
  return g_steal_pointer (&line);
}

static char *
title_from_summary (const char *summary_html)
{
  g_autofree char *text = NULL;

  if (summary_html == NULL)
    return NULL;

  text = lwn_text_from_html (summary_html, 60);
  if (text == NULL)
    return NULL;
  return plain_line (text);
}

/**
 * lwn_feed_builder_add_item:
 * @builder: a feed builder
 * @draft: the item as found; its contents are consumed and cleared
 *
 * Applies the rules every format shares: title clean-up and fallbacks, the
 * paywall mark, link resolution (item base, then the site link, then the
 * document URL), the launchable URL, and the id fallbacks.
 */
void
lwn_feed_builder_add_item (LwnFeedBuilder *builder,
                           LwnItemDraft *draft)
{
  g_autofree char *raw_title = dup_trimmed (draft->title);
  g_autofree char *title = plain_title (raw_title, draft->title_kind);
  g_autofree char *raw_link = dup_trimmed (draft->link);
  g_autofree char *link = NULL;
  g_autofree char *url = NULL;
  g_autofree char *id = dup_trimmed (draft->id);
  g_autofree char *author = plain_author (draft->author);
  const char *description = NULL;
  const char *base = draft->base;
  gboolean paywalled = raw_title != NULL && g_str_has_prefix (raw_title, "[$]");
  gboolean untitled = FALSE;

  /* The summary is what the tray shows; full content is the fallback. */
  if (!is_blank (draft->summary))
    description = draft->summary;
  else if (!is_blank (draft->content))
    description = draft->content;

  if (base == NULL)
    base = builder->link != NULL ? builder->link : builder->document_url;

  if (raw_link != NULL)
    {
      /* An absolute link needs no base: skip parsing one, per item. */
      link = lwn_url_resolve (g_uri_peek_scheme (raw_link) != NULL ? NULL : base, raw_link);
      if (link != NULL)
        url = lwn_url_dup_article_url (NULL, link);
      else
        link = g_strdup (raw_link);
    }

  if (*title == '\0')
    {
      g_autofree char *from_summary = title_from_summary (description);

      g_free (title);
      if (from_summary != NULL && *from_summary != '\0')
        title = g_steal_pointer (&from_summary);
      else
        {
          title = g_strdup (_ ("(untitled)"));
          untitled = TRUE;
        }
    }

  if (id == NULL && link != NULL)
    id = g_strdup (link);
  if (id == NULL)
    {
      /* The title as found, or else the one made from the summary, never
       * the translated placeholder: ids must not change with the locale. */
      const char *title_key = raw_title != NULL ? raw_title : untitled ? ""
                                                                       : title;
      g_autofree char *key = g_strconcat (title_key, "\n",
                                          draft->date_text != NULL ? draft->date_text : "", NULL);

      id = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
    }

  if (author == NULL && builder->author != NULL)
    author = plain_author (builder->author);

  g_ptr_array_add (builder->items,
                   lwn_feed_item_new (id, title, link, url, author, description, draft->date, paywalled));
  lwn_item_draft_clear (draft);
}

static guint
syn_period_seconds (const char *period)
{
  static const struct
  {
    const char *name;
    guint seconds;
  } periods[] = {
    { "hourly", 3600 },
    { "daily", 86400 },
    { "weekly", 604800 },
    { "monthly", 2592000 },
    { "yearly", 31536000 },
  };
  g_autofree char *trimmed = dup_trimmed (period);

  if (trimmed == NULL)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (periods); i++)
    {
      if (g_ascii_strcasecmp (trimmed, periods[i].name) == 0)
        return periods[i].seconds;
    }
  return 0;
}

static guint64
parse_positive (const char *text,
                guint64 max)
{
  g_autofree char *trimmed = dup_trimmed (text);
  guint64 value;

  if (trimmed == NULL || !g_ascii_string_to_unsigned (trimmed, 10, 1, max, &value, NULL))
    return 0;
  return value;
}

static guint
syn_refresh_seconds (LwnFeedBuilder *builder)
{
  guint period = syn_period_seconds (builder->syn_period);
  guint64 frequency = parse_positive (builder->syn_frequency, G_MAXUINT);

  /* The module's default period is daily, but a lone default says nothing. */
  if (period == 0 && builder->syn_period == NULL && frequency > 0)
    period = 86400;
  if (period == 0)
    return 0;
  if (frequency == 0)
    frequency = 1;
  return MAX (period / frequency, 1);
}

/**
 * lwn_feed_builder_take_ttl:
 * @builder: a feed builder
 * @text: (nullable): RSS 2.0's <ttl>, in minutes; anything but a positive
 *   number is ignored
 */
void
lwn_feed_builder_take_ttl (LwnFeedBuilder *builder,
                           const char *text)
{
  builder->ttl_seconds = (guint) parse_positive (text, G_MAXUINT / 60) * 60;
}

static char *
host_of (const char *url)
{
  g_autoptr (GUri) uri = NULL;

  if (url == NULL)
    return NULL;
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return NULL;
  return g_strdup (g_uri_get_host (uri));
}

/**
 * lwn_feed_builder_finish:
 * @builder: a feed builder, cleared on return
 *
 * Returns: (transfer full): the feed
 */
LwnFeed *
lwn_feed_builder_finish (LwnFeedBuilder *builder)
{
  g_autofree char *title = plain_title (builder->title, builder->title_kind);
  guint refresh = MAX (builder->ttl_seconds, syn_refresh_seconds (builder));
  LwnFeed *feed;

  if (*title == '\0')
    {
      g_free (title);
      title = host_of (builder->document_url);
      if (title == NULL)
        title = g_strdup (_ ("(untitled feed)"));
    }

  feed = lwn_feed_new (title, builder->link, refresh, builder->refresh_base,
                       g_steal_pointer (&builder->items));
  lwn_feed_builder_clear (builder);
  return feed;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */

/* The first error libxml2 reports during one parse on this thread. */
typedef struct
{
  int code;
  int line;
  xmlErrorLevel level;
  char *message;
} XmlFirstError;

static void
xml_first_error_cb (void *data,
                    xmlError *error)
{
  XmlFirstError *first = data;

  if (error == NULL || error->level < XML_ERR_ERROR)
    return;
  /* A fatal error outranks the recoverable ones before it. */
  if (first->message != NULL && (first->level == XML_ERR_FATAL || error->level != XML_ERR_FATAL))
    return;

  g_free (first->message);
  first->code = error->code;
  first->line = error->line;
  first->level = error->level;
  first->message = g_strdup (error->message != NULL ? error->message : "");
}

static char *
quote_for_message (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *line = NULL;

  g_strstrip (valid);
  line = lwn_text_collapse_whitespace (valid);
  if (line == NULL)
    return g_strdup ("");
  if (strlen (line) > MAX_QUOTED)
    {
      g_autofree char *cut = lwn_feed_parser_strdup_capped (line, MAX_QUOTED);

      return g_strconcat (cut, "…", NULL);
    }
  return g_steal_pointer (&line);
}

static void
set_xml_error (GError **error,
               int code,
               int line,
               const char *message)
{
  g_autofree char *quoted = quote_for_message (message);
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

/* Reached through the parser context's _private pointer. */
typedef struct
{
  guint lookups;
  gboolean exceeded;
} EntityBudget;

/* libxml2 2.9.14 stops a "billion laughs" document by weighing what its
 * entities expand to, but a reference to an undeclared entity expands to
 * nothing: nested declarations that end in one ("<!ENTITY a1 '&x;&x;'>",
 * "<!ENTITY a2 '&a1;&a1;'>", …) referenced from an attribute make it check
 * an exponential number of references, unnoticed. Every lookup of a
 * non-predefined entity comes through here, so a budget on them bounds
 * that work; xmlStopParser() is meant to be called from SAX callbacks. */
static xmlEntityPtr
budgeted_get_entity (void *user_data,
                     const xmlChar *name)
{
  xmlParserCtxtPtr ctxt = user_data;
  EntityBudget *budget = ctxt->_private;

  if (budget->exceeded)
    return NULL;
  if (++budget->lookups > MAX_ENTITY_LOOKUPS)
    {
      budget->exceeded = TRUE;
      xmlStopParser (ctxt);
      return NULL;
    }

  return xmlSAX2GetEntity (ctxt, name);
}

static xmlDoc *
read_xml (GBytes *body,
          const char *charset,
          const char *document_url,
          GError **error)
{
  g_autoptr (xmlParserCtxt) ctxt = NULL;
  g_autoptr (xmlDoc) doc = NULL;
  XmlFirstError first = { 0 };
  EntityBudget budget = { 0 };
  xmlStructuredErrorFunc saved_func;
  void *saved_data;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;

  if (size > G_MAXINT)
    {
      g_autofree char *size_text = g_format_size (size);

      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   _ ("The feed is too large to read (%s)"), size_text);
      return NULL;
    }

  if (charset != NULL)
    {
      xmlCharEncodingHandler *handler = xmlFindCharEncodingHandler (charset);

      if (handler == NULL)
        {
          g_debug ("Unknown charset “%s” in the Content-Type; using the document’s own", charset);
          charset = NULL;
        }
      else
        {
          xmlCharEncCloseFunc (handler);
          /* HTTP's charset outranks the XML declaration (RFC 7303, section 3.2). */
          options |= XML_PARSE_IGNORE_ENC;
        }
    }

  ctxt = xmlNewParserCtxt ();
  if (ctxt == NULL)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                           _ ("Could not set up the XML parser"));
      return NULL;
    }

  /* The SAX handler belongs to this context alone. */
  ctxt->_private = &budget;
  ctxt->sax->getEntity = budgeted_get_entity;

  /* Per-thread in libxml2 built with threads: parsers in other threads keep
   * their own handler, and ours sees only this parse. */
  saved_func = xmlStructuredError;
  saved_data = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc (&first, xml_first_error_cb);
  doc = xmlCtxtReadMemory (ctxt, data, (int) size, document_url, charset, options);
  xmlSetStructuredErrorFunc (saved_data, saved_func);

  if (budget.exceeded)
    {
      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   /* Translators: %d is a number, the limit on references
                    * like "&name;" in one document. */
                   _ ("XML error: more than %d entity references"), MAX_ENTITY_LOOKUPS);
      g_free (first.message);
      return NULL;
    }

  if (doc == NULL || !ctxt->wellFormed)
    {
      const xmlError *last = xmlCtxtGetLastError (ctxt);

      if (first.message != NULL)
        set_xml_error (error, first.code, first.line, first.message);
      else if (last != NULL && last->message != NULL)
        set_xml_error (error, last->code, last->line, last->message);
      else
        set_xml_error (error, XML_ERR_OK, 0, _ ("the document is not well-formed"));
      g_free (first.message);
      return NULL;
    }

  g_free (first.message);
  return g_steal_pointer (&doc);
}

/* Skips a UTF-8 byte order mark and ASCII white space. */
static const char *
skip_bom_and_space (const char *p,
                    const char *end)
{
  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

/* Whether the body starts, after any XML declaration, comments and white
 * space, with an HTML doctype or <html>: a web page rather than a feed. */
static gboolean
looks_like_html (const char *p,
                 const char *end)
{
  for (guint rounds = 0; rounds < 32; rounds++)
    {
      const char *close = NULL;

      p = skip_bom_and_space (p, end);
      if (end - p >= 4 && memcmp (p, "<!--", 4) == 0)
        close = g_strstr_len (p, end - p, "-->");
      else if (end - p >= 2 && memcmp (p, "<?", 2) == 0)
        close = g_strstr_len (p, end - p, "?>");
      else
        break;
      if (close == NULL)
        return FALSE;
      p = close + 2 + (*close == '-');
    }

  if (end - p >= 14 && g_ascii_strncasecmp (p, "<!doctype html", 14) == 0)
    return TRUE;
  return end - p >= 5 && g_ascii_strncasecmp (p, "<html", 5) == 0 && (end - p == 5 || !g_ascii_isalnum (p[5]));
}

/* "application/rss+xml; charset=ISO-8859-1" → media type and charset. */
static void
parse_content_type (const char *content_type,
                    char **media_type,
                    char **charset)
{
  g_auto (GStrv) parts = NULL;

  *media_type = NULL;
  *charset = NULL;
  if (content_type == NULL)
    return;

  parts = g_strsplit (content_type, ";", -1);
  if (parts[0] == NULL)
    return;
  *media_type = g_ascii_strdown (g_strstrip (parts[0]), -1);

  for (guint i = 1; parts[i] != NULL; i++)
    {
      char *param = g_strstrip (parts[i]);
      char *value;
      gsize len;

      if (g_ascii_strncasecmp (param, "charset", 7) != 0)
        continue;
      value = param + 7;
      while (*value == ' ' || *value == '\t')
        value++;
      if (*value != '=')
        continue;
      value = g_strstrip (value + 1);
      len = strlen (value);
      if (len >= 2 && (value[0] == '"' || value[0] == '\'') && value[len - 1] == value[0])
        {
          value[len - 1] = '\0';
          value++;
        }
      if (*value != '\0')
        {
          g_free (*charset);
          *charset = g_strdup (value);
        }
    }
}

static LwnFeed *
parse_xml (GBytes *body,
           const char *media_type,
           const char *charset,
           const char *document_url,
           GError **error)
{
  g_autoptr (xmlDoc) doc = NULL;
  g_autoptr (GError) local_error = NULL;
  const xmlNode *root;
  LwnFeed *feed = NULL;
  g_autofree char *root_name = NULL;

  doc = read_xml (body, charset, document_url, &local_error);
  if (doc == NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      if (g_strcmp0 (media_type, "text/html") == 0 || looks_like_html (data, data + size))
        {
          g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                               _ ("Not an RSS or Atom feed (this is a web page)"));
          return NULL;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  root = xmlDocGetRootElement (doc);
  if (root == NULL)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                           _ ("Not an RSS or Atom feed (there is no root element)"));
      return NULL;
    }

  if (lwn_xml_node_is (root, NULL, "rss") || lwn_xml_node_is (root, LWN_NS_RDF, "RDF"))
    feed = lwn_feed_parser_parse_rss (root, document_url);
  else if (lwn_xml_node_is (root, LWN_NS_ATOM, "feed"))
    feed = lwn_feed_parser_parse_atom (root, document_url);

  if (feed != NULL)
    return feed;

  root_name = quote_for_message ((const char *) root->name);
  if (lwn_xml_node_is (root, NULL, "rss") || lwn_xml_node_is (root, LWN_NS_RDF, "RDF"))
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                 _ ("Not an RSS feed (<%s> holds no channel and no items)"), root_name);
  else
    g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_NOT_A_FEED,
                 _ ("Not an RSS or Atom feed (root element <%s>)"), root_name);
  return NULL;
}

/**
 * lwn_feed_parse:
 * @body: the bytes of the document
 * @content_type: (nullable): the HTTP Content-Type it came with; its
 *   charset parameter outranks the document's own XML declaration, and
 *   "application/feed+json" or "application/json" select JSON Feed, as
 *   does a body starting with "{" or "["
 * @document_url: (nullable): the URL the document came from, used to
 *   resolve relative links and as a title of last resort
 * @error: return location for a #GError in %LWN_PARSE_ERROR
 *
 * Parses RSS 0.90, 0.91, 0.92, 1.0 and 2.0, Atom 1.0, and JSON Feed 1.0 and
 * 1.1. Nothing is loaded from the network or the file system: external
 * DTDs and entities are refused, and entity references are never expanded.
 * Safe to call from several threads at once.
 *
 * Returns: (transfer full) (nullable): the feed, possibly with no items, or
 *   %NULL with @error set: %LWN_PARSE_ERROR_EMPTY, %LWN_PARSE_ERROR_MALFORMED
 *   (the message names the line), %LWN_PARSE_ERROR_NOT_A_FEED or
 *   %LWN_PARSE_ERROR_ENCODING
 */
LwnFeed *
lwn_feed_parse (GBytes *body,
                const char *content_type,
                const char *document_url,
                GError **error)
{
  g_autofree char *media_type = NULL;
  g_autofree char *charset = NULL;
  gsize size;
  const char *data;
  const char *start;

  g_return_val_if_fail (body != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  lwn_feed_parser_init ();

  data = g_bytes_get_data (body, &size);
  start = data != NULL ? skip_bom_and_space (data, data + size) : NULL;
  if (start == NULL || start == data + size)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_EMPTY,
                           _ ("The feed is empty"));
      return NULL;
    }

  parse_content_type (content_type, &media_type, &charset);

  if (g_strcmp0 (media_type, "application/feed+json") == 0 || g_strcmp0 (media_type, "application/json") == 0 || *start == '{' || *start == '[')
    return lwn_feed_parser_parse_json (body, document_url, error);

  return parse_xml (body, media_type, charset, document_url, error);
}
