/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file assembles an LwnFeed from what the format parsers found: it cleans up text, applies fallbacks and resolves links. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "lwn-date.h"
#include "lwn-feed-builder.h"
#include "lwn-text.h"
#include "lwn-url.h"
#include "lwn-xml.h"

/**
 * lwn_feed_builder_clear_draft:
 * @draft: an item draft
 *
 * Frees what @draft holds and zeroes it.
 */
void
lwn_feed_builder_clear_draft (LwnItemDraft *draft)
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

/**
 * lwn_feed_builder_choose_date:
 * @draft: an item draft with no date yet
 * @candidates: (array length=n_candidates): date texts in order of
 *   preference, any of them %NULL
 * @n_candidates: the length of @candidates
 *
 * Takes the first candidate that reads as a date. When none does, the
 * first candidate present is still kept as the date text, because that
 * text tells items apart.
 */
void
lwn_feed_builder_choose_date (LwnItemDraft *draft,
                              const char *const *candidates,
                              guint n_candidates)
{
  const char *first = NULL;

  for (guint i = 0; i < n_candidates; i++)
    {
      GDateTime *date;

      if (candidates[i] == NULL)
        continue;
      if (first == NULL)
        first = candidates[i];
      date = lwn_date_parse (candidates[i]);
      if (date != NULL)
        {
          draft->date = date;
          draft->date_text = g_strdup (candidates[i]);
          return;
        }
    }
  draft->date_text = g_strdup (first);
}

static void
draft_free (gpointer data)
{
  LwnItemDraft *draft = data;

  lwn_feed_builder_clear_draft (draft);
  g_free (draft);
}

/**
 * lwn_feed_builder_init:
 * @builder: the builder to set up
 * @document_url: (nullable): the URL the document came from; must outlive
 *   @builder
 */
void
lwn_feed_builder_init (LwnFeedBuilder *builder,
                       const char *document_url)
{
  memset (builder, 0, sizeof *builder);
  builder->document_url = document_url;
  builder->title_kind = LWN_TITLE_GUESS;
  builder->drafts = g_ptr_array_new_with_free_func (draft_free);
}

/**
 * lwn_feed_builder_clear:
 * @builder: a feed builder
 *
 * Frees everything @builder holds. The builder may be cleared again.
 */
void
lwn_feed_builder_clear (LwnFeedBuilder *builder)
{
  g_clear_pointer (&builder->title, g_free);
  g_clear_pointer (&builder->link, g_free);
  g_clear_pointer (&builder->author, g_free);
  g_clear_pointer (&builder->syn_period, g_free);
  g_clear_pointer (&builder->syn_frequency, g_free);
  g_clear_pointer (&builder->drafts, g_ptr_array_unref);
}

/**
 * lwn_feed_builder_take_syn:
 * @builder: a feed builder
 * @node: a child of the channel or feed element
 *
 * Records the Syndication module's refresh hints
 * (https://web.resource.org/rss/1.0/modules/syndication/). The module's
 * updateBase is not read, because nothing aligns refreshes to it.
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
      builder->syn_period = lwn_xml_node_dup_text (node, LWN_XML_MAX_SHORT);
      return TRUE;
    }
  if (lwn_xml_node_is (node, LWN_NS_SYN, "updateFrequency"))
    {
      g_free (builder->syn_frequency);
      builder->syn_frequency = lwn_xml_node_dup_text (node, LWN_XML_MAX_SHORT);
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

/* Returns a trimmed copy of @text, or NULL when @text is missing or blank. */
static char *
dup_trimmed (const char *text)
{
  if (is_blank (text))
    return NULL;
  return g_strstrip (g_strdup (text));
}

/* Makes one line of plain text. Line breaks and tabs become spaces before
 * the control characters are removed, so that the words they separated stay
 * apart. */
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

/* Tells whether an RSS title holds markup: an HTML inline tag, or an '&' that starts
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

/* Strips the quotes of '"Jane Doe" <jane@example.org>'. */
static char *
dup_unquoted (const char *start,
              gsize len)
{
  g_autofree char *name = g_strndup (start, len);
  gsize name_len;

  g_strstrip (name);
  name_len = strlen (name);
  if (name_len >= 2 && name[0] == '"' && name[name_len - 1] == '"')
    {
      char *inner = g_strndup (name + 1, name_len - 2);

      return g_strstrip (inner);
    }
  return g_steal_pointer (&name);
}

/* RSS's <author> is "address (Name)", mail headers write "Name <address>",
 * and some feeds write "Name (address)". A person wants the name, and the
 * address only when there is no name. */
static char *
plain_author (const char *raw)
{
  g_autofree char *line = NULL;
  const char *at;
  gsize len;

  if (raw == NULL)
    return NULL;

  line = plain_line (raw);
  len = strlen (line);
  at = strchr (line, '@');
  if (len == 0)
    return NULL;

  if (at != NULL && line[len - 1] == ')')
    {
      const char *open = strchr (line, '(');

      if (open != NULL && at < open)
        {
          g_autofree char *name = dup_unquoted (open + 1, line + len - 1 - (open + 1));

          if (*name != '\0')
            return g_steal_pointer (&name);
        }
      /* In "Name (address)", the address is the part in the parentheses. */
      else if (open != NULL)
        {
          g_autofree char *name = dup_unquoted (line, open - line);

          if (*name != '\0')
            return g_steal_pointer (&name);
          return g_strndup (open + 1, line + len - 1 - (open + 1));
        }
    }

  if (at != NULL && line[len - 1] == '>')
    {
      const char *open = strrchr (line, '<');

      if (open != NULL && open < at)
        {
          g_autofree char *name = dup_unquoted (line, open - line);

          if (*name != '\0')
            return g_steal_pointer (&name);
          return g_strndup (open + 1, line + len - 1 - (open + 1));
        }
    }

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
 * @draft: the item as found; its contents are taken and it is cleared
 */
void
lwn_feed_builder_add_item (LwnFeedBuilder *builder,
                           LwnItemDraft *draft)
{
  LwnItemDraft *kept = g_new (LwnItemDraft, 1);

  *kept = *draft;
  memset (draft, 0, sizeof *draft);
  g_ptr_array_add (builder->drafts, kept);
}

/* Resolves the item's link against the item's own base, or else against the
 * site link, or else against the document URL, and works out the launchable
 * URL from the result. */
static void
resolve_link (LwnFeedBuilder *builder,
              const LwnItemDraft *draft,
              char **link,
              char **url)
{
  g_autofree char *raw_link = dup_trimmed (draft->link);
  const char *base = draft->base;

  *link = NULL;
  *url = NULL;
  if (raw_link == NULL)
    return;
  if (base == NULL)
    base = builder->link != NULL ? builder->link : builder->document_url;

  /* An absolute link needs no base, so no base is parsed for its item. */
  *link = lwn_url_resolve (g_uri_peek_scheme (raw_link) != NULL ? NULL : base, raw_link);
  if (*link != NULL)
    *url = lwn_url_dup_article_url (NULL, *link);
  else
    *link = g_steal_pointer (&raw_link);
}

/* Applies the rules every format shares: title clean-up and fallbacks, the
 * paywall mark, link resolution, the launchable URL, and the id fallbacks. */
static LwnFeedItem *
build_item (LwnFeedBuilder *builder,
            const LwnItemDraft *draft)
{
  g_autofree char *raw_title = dup_trimmed (draft->title);
  g_autofree char *title = plain_title (raw_title, draft->title_kind);
  g_autofree char *link = NULL;
  g_autofree char *url = NULL;
  g_autofree char *id = dup_trimmed (draft->id);
  g_autofree char *author = plain_author (draft->author);
  const char *description = NULL;
  gboolean paywalled = raw_title != NULL && g_str_has_prefix (raw_title, "[$]");
  gboolean untitled = FALSE;

  /* The summary is what the tray shows; full content is the fallback. */
  if (!is_blank (draft->summary))
    description = draft->summary;
  else if (!is_blank (draft->content))
    description = draft->content;

  resolve_link (builder, draft, &link, &url);

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
      /* The id is made from the title as found, or else from the title made
       * from the summary, but never from the translated placeholder, because
       * ids must not change with the locale. */
      const char *title_key = raw_title != NULL ? raw_title : untitled ? ""
                                                                       : title;
      g_autofree char *key = g_strconcat (title_key, "\n",
                                          draft->date_text != NULL ? draft->date_text : "", NULL);

      id = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
    }

  if (author == NULL && builder->author != NULL)
    author = plain_author (builder->author);

  return lwn_feed_item_new (id, title, link, url, author, description, draft->date, paywalled);
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

  /* The Syndication module's default period is daily, but the default counts
   * only when the feed gives a frequency: on its own it says nothing. */
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

typedef struct
{
  guint position;
  GDateTime *date; /* (nullable) */
} DraftRank;

/* Newer first; an undated item after every dated one; otherwise in document order. */
static int
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const DraftRank *x = a;
  const DraftRank *y = b;

  if (x->date != NULL && y->date != NULL)
    {
      int order = g_date_time_compare (y->date, x->date);

      if (order != 0)
        return order;
    }
  else if (x->date != NULL || y->date != NULL)
    return x->date != NULL ? -1 : 1;
  return x->position < y->position ? -1 : x->position > y->position;
}

/* Drops all but the LWN_FEED_MAX_ITEMS newest drafts, by their dates (a feed
 * may list its items oldest first), else by their place in the document (as
 * feeds list them, newest first); those kept stay in document order. */
static void
keep_newest_drafts (LwnFeedBuilder *builder)
{
  gsize n = builder->drafts->len;
  g_autofree DraftRank *ranks = NULL;
  g_autofree gboolean *kept = NULL;
  g_autofree gpointer *drafts = NULL;

  if (n <= LWN_FEED_MAX_ITEMS)
    return;

  ranks = g_new (DraftRank, n);
  kept = g_new0 (gboolean, n);
  for (gsize i = 0; i < n; i++)
    {
      LwnItemDraft *draft = g_ptr_array_index (builder->drafts, i);

      ranks[i] = (DraftRank){ .position = i, .date = draft->date };
    }
  qsort (ranks, n, sizeof *ranks, compare_rank);
  for (guint i = 0; i < LWN_FEED_MAX_ITEMS; i++)
    kept[ranks[i].position] = TRUE;

  drafts = g_ptr_array_steal (builder->drafts, &n);
  for (gsize i = 0; i < n; i++)
    {
      if (kept[i])
        g_ptr_array_add (builder->drafts, drafts[i]);
      else
        draft_free (drafts[i]);
    }
  g_debug ("Kept the %u newest of %" G_GSIZE_FORMAT " items", builder->drafts->len, n);
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
  GPtrArray *items = g_ptr_array_new_full (builder->drafts->len, (GDestroyNotify) lwn_feed_item_unref);
  LwnFeed *feed;

  if (*title == '\0')
    {
      g_free (title);
      title = host_of (builder->document_url);
      if (title == NULL)
        title = g_strdup (_ ("(untitled feed)"));
    }

  keep_newest_drafts (builder);
  /* Each draft is cleared as soon as its item is made, so that the drafts and
   * the items never stand whole in memory side by side. */
  for (guint i = 0; i < builder->drafts->len; i++)
    {
      LwnItemDraft *draft = g_ptr_array_index (builder->drafts, i);

      g_ptr_array_add (items, build_item (builder, draft));
      lwn_feed_builder_clear_draft (draft);
    }

  feed = lwn_feed_new (title, builder->link, refresh, items);
  lwn_feed_builder_clear (builder);
  return feed;
}
