/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file folds text one character at a time: each character is decomposed for compatibility (NFKD: "ﬁ"
 * is "fi", "é" is "e" and an accent), the marks are dropped, and the rest is case-folded in full ("ß" is
 * "ss", "Σ" and "ς" are "σ"). The words of a query are folded the same way, and each word must be found
 * somewhere in the folded text. Because the folding goes character by character, it keeps where in the
 * original text each folded byte came from, which highlighting needs. */

#include "config.h"

#include <string.h>

#include "lwn-search.h"

/* The views that show a query's matches share the query, which never changes once made. */
struct _LwnSearchQuery
{
  gatomicrefcount ref_count;
  GPtrArray *words; /* folded, none empty */
};

/* Appends the folding of @c to @out. When @origin is not NULL, it also gets
 * the byte offset of @c in the text, once for each byte appended. */
static void
fold_char (gunichar c,
           gsize offset,
           GString *out,
           GArray *origin)
{
  gunichar decomposed[G_UNICHAR_MAX_DECOMPOSITION_LENGTH];
  gsize before = out->len;
  gsize n;

  if (c < 0x80)
    g_string_append_c (out, g_ascii_tolower ((char) c));
  else
    {
      n = g_unichar_fully_decompose (c, TRUE, decomposed, G_N_ELEMENTS (decomposed));
      for (gsize i = 0; i < n; i++)
        {
          char utf8[8];
          int length;
          g_autofree char *folded = NULL;

          if (g_unichar_ismark (decomposed[i]))
            continue;
          length = g_unichar_to_utf8 (decomposed[i], utf8);
          folded = g_utf8_casefold (utf8, length);
          g_string_append (out, folded);
        }
    }

  if (origin != NULL)
    for (gsize i = before; i < out->len; i++)
      g_array_append_val (origin, offset);
}

/* Folds @text. When @origin is not NULL, it gets one source offset for each
 * folded byte. */
static char *
fold (const char *text,
      GArray *origin)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    fold_char (g_utf8_get_char (p), p - text, out, origin);
  return g_string_free (out, FALSE);
}

/**
 * lwn_search_fold:
 * @text: valid UTF-8
 *
 * Returns: (transfer full): @text as searches compare it
 */
char *
lwn_search_fold (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  return fold (text, NULL);
}

/**
 * lwn_search_query_new:
 * @text: what the person typed, with words separated by white space
 *
 * Returns: (transfer full): the query, which matches everything when @text
 *   has no word
 */
LwnSearchQuery *
lwn_search_query_new (const char *text)
{
  LwnSearchQuery *query = g_new0 (LwnSearchQuery, 1);
  g_autofree char *folded = NULL;
  g_auto (GStrv) words = NULL;

  g_atomic_ref_count_init (&query->ref_count);
  query->words = g_ptr_array_new_with_free_func (g_free);
  g_return_val_if_fail (text != NULL && g_utf8_validate (text, -1, NULL), query);

  folded = fold (text, NULL);
  words = g_strsplit_set (folded, " \t\n\r\f\v", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      /* A word typed twice is kept only once, which is enough to match it. */
      if (*words[i] != '\0' && !g_ptr_array_find_with_equal_func (query->words, words[i], g_str_equal, NULL))
        g_ptr_array_add (query->words, g_steal_pointer (&words[i]));
    }
  return query;
}

LwnSearchQuery *
lwn_search_query_ref (LwnSearchQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);

  g_atomic_ref_count_inc (&query->ref_count);
  return query;
}

void
lwn_search_query_unref (LwnSearchQuery *query)
{
  if (query == NULL || !g_atomic_ref_count_dec (&query->ref_count))
    return;
  g_ptr_array_unref (query->words);
  g_free (query);
}

gboolean
lwn_search_query_is_empty (const LwnSearchQuery *query)
{
  g_return_val_if_fail (query != NULL, TRUE);

  return query->words->len == 0;
}

/**
 * lwn_search_query_matches:
 * @folded: text folded with lwn_search_fold()
 *
 * Returns: whether every word of @query is in @folded
 */
gboolean
lwn_search_query_matches (const LwnSearchQuery *query,
                          const char *folded)
{
  g_return_val_if_fail (query != NULL && folded != NULL, FALSE);

  for (guint i = 0; i < query->words->len; i++)
    {
      if (strstr (folded, g_ptr_array_index (query->words, i)) == NULL)
        return FALSE;
    }
  return TRUE;
}

/**
 * lwn_search_query_highlight:
 * @text: valid UTF-8, such as a title
 *
 * Returns: (transfer full): @text as Pango markup, escaped, with every place
 *   a word of @query is found in a `<span>` of the "highlight" kind: bold on
 *   a yellow background
 */
char *
lwn_search_query_highlight (const LwnSearchQuery *query,
                            const char *text)
{
  g_autoptr (GArray) origin = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *folded = NULL;
  g_autofree gboolean *lit = NULL;
  gsize length;
  GString *markup;

  g_return_val_if_fail (query != NULL && text != NULL, NULL);

  length = strlen (text);
  folded = fold (text, origin);
  lit = g_new0 (gboolean, length + 1);

  /* This marks every byte of every source character that folded into a match. */
  for (guint i = 0; i < query->words->len; i++)
    {
      const char *word = g_ptr_array_index (query->words, i);
      gsize word_length = strlen (word);

      for (const char *found = strstr (folded, word); found != NULL; found = strstr (found + 1, word))
        {
          gsize first = g_array_index (origin, gsize, found - folded);
          gsize last = g_array_index (origin, gsize, found - folded + word_length - 1);
          const char *end = g_utf8_next_char (text + last);

          for (gsize b = first; b < (gsize) (end - text); b++)
            lit[b] = TRUE;
        }
    }

  markup = g_string_sized_new (length + 32);
  for (gsize start = 0; start < length;)
    {
      gsize end = start;
      g_autofree char *escaped = NULL;

      while (end < length && lit[end] == lit[start])
        end++;
      escaped = g_markup_escape_text (text + start, end - start);
      if (lit[start])
        g_string_append_printf (markup, "<span weight=\"bold\" background=\"#f8e45c\" foreground=\"#000000\">%s</span>",
                                escaped);
      else
        g_string_append (markup, escaped);
      start = end;
    }
  return g_string_free (markup, FALSE);
}
