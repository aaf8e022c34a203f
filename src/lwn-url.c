/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file resolves links, rewrites LWN links to the full article, checks that only http(s) URLs are launched, and
 * checks feed addresses, all through GUri. The feeds editor and the OPML reader and writer share the last check. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-url.h"

/* Browsers drop ASCII tab and newlines anywhere in a URL and trim C0 controls
 * and spaces at both ends (https://url.spec.whatwg.org/#concept-basic-url-parser),
 * so they read "java\tscript:" as "javascript:". This function does the same,
 * so that a URL is judged as the browser will read it. */
static char *
normalize_reference (const char *reference)
{
  GString *clean = g_string_sized_new (strlen (reference));

  for (const char *p = reference; *p != '\0'; p++)
    {
      if (*p != '\t' && *p != '\n' && *p != '\r')
        g_string_append_c (clean, *p);
    }

  while (clean->len > 0 && (guchar) clean->str[clean->len - 1] <= 0x20)
    g_string_truncate (clean, clean->len - 1);

  gsize leading = 0;
  while (leading < clean->len && (guchar) clean->str[leading] <= 0x20)
    leading++;
  g_string_erase (clean, 0, leading);

  return g_string_free (clean, FALSE);
}

static GUri *
parse_reference (const char *base,
                 const char *reference)
{
  g_autofree char *clean = NULL;
  g_autoptr (GUri) base_uri = NULL;
  GUri *uri;

  if (reference == NULL)
    return NULL;

  clean = normalize_reference (reference);
  if (*clean == '\0')
    return NULL;

  if (base != NULL && *base != '\0')
    base_uri = g_uri_parse (base, G_URI_FLAGS_ENCODED, NULL);

  /* When there is no usable base, only an absolute reference means anything,
   * and the parse fails for any other. */
  uri = g_uri_parse_relative (base_uri, clean, G_URI_FLAGS_ENCODED, NULL);

  /* Removing dot segments can leave a path that starts with "//" and no
   * authority: "s:/.//x" would become "s://x", where "x" reads as a host
   * (https://www.rfc-editor.org/rfc/rfc3986#section-3.3), and GLib 2.74's
   * g_uri_to_string() refuses such a path with a critical. The WHATWG URL
   * standard (https://url.spec.whatwg.org/#url-serializing) and GLib 2.84
   * keep "/." in front of the path instead, which keeps the path's meaning.
   * This code does the same, whichever GLib version runs. */
  if (uri != NULL && g_uri_get_host (uri) == NULL && g_str_has_prefix (g_uri_get_path (uri), "//"))
    {
      g_autofree char *path = g_strconcat ("/.", g_uri_get_path (uri), NULL);
      GUri *kept = g_uri_build (g_uri_get_flags (uri), g_uri_get_scheme (uri), NULL, NULL, -1, path,
                                g_uri_get_query (uri), g_uri_get_fragment (uri));

      g_uri_unref (uri);
      uri = kept;
    }

  return uri;
}

/**
 * lwn_url_resolve:
 * @base: (nullable): the absolute URL @reference is relative to
 * @reference: a URL as written in a feed, absolute or relative
 *
 * Resolves @reference against @base (RFC 3986), after removing the tabs,
 * newlines and surrounding white space that browsers ignore too.
 *
 * Returns: (transfer full) (nullable): the absolute URL, or %NULL when
 *   @reference is empty, unparsable, or relative with no usable @base
 */
char *
lwn_url_resolve (const char *base,
                 const char *reference)
{
  g_autoptr (GUri) uri = parse_reference (base, reference);

  if (uri == NULL)
    return NULL;

  return g_uri_to_string (uri);
}

/* GUri percent-encodes every component it prints except the host, which it
 * returns as written. A host that holds anything but RFC 3986 reg-name and
 * IP-literal characters (https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2)
 * would carry spaces or terminal escapes into the browser's argv and into the
 * output of --print, so this check refuses it. */
static gboolean
host_is_clean (const char *host)
{
  for (const char *p = host; *p != '\0'; p++)
    {
      /* A "%" may only start an escape. GUri decodes the host of a relative
       * reference, so "r%25" can come back as "r%", which no URI parser
       * accepts again. */
      if (*p == '%' && !(g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2])))
        return FALSE;
      if (!g_ascii_isalnum (*p) && strchr ("-._~%!$&'()*+,;=:", *p) == NULL)
        return FALSE;
    }

  return TRUE;
}

/* Tells whether @url, as given, holds white space or a C0, DEL or C1 control
 * character, or is not UTF-8 at all. */
static gboolean
has_unsafe_chars (const char *url)
{
  if (!g_utf8_validate (url, -1, NULL))
    return TRUE;

  for (const guchar *p = (const guchar *) url; *p != '\0'; p++)
    {
      if (*p <= 0x20 || *p == 0x7F)
        return TRUE;
      if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
        return TRUE;
    }

  return FALSE;
}

static gboolean
uri_is_launchable (GUri *uri)
{
  const char *scheme = g_uri_get_scheme (uri);
  const char *host = g_uri_get_host (uri);

  if (scheme == NULL || host == NULL || *host == '\0' || !host_is_clean (host))
    return FALSE;

  return g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0;
}

/**
 * lwn_url_is_launchable:
 * @url: (nullable): a URL
 *
 * Returns: %TRUE only for an absolute http or https URL with a non-empty,
 *   well-formed host and no white space or control characters: the only
 *   kind lwn-tray ever hands to the browser
 */
gboolean
lwn_url_is_launchable (const char *url)
{
  g_autoptr (GUri) uri = NULL;

  if (url == NULL || has_unsafe_chars (url))
    return FALSE;

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  return uri != NULL && uri_is_launchable (uri);
}

/* Tells whether valid UTF-8 @url holds white space beyond ASCII (a no-break
 * space, a line separator), which a person cannot tell from a space, or
 * U+FFFE or U+FFFF, which GUri takes in a path but XML 1.0 cannot hold
 * (https://www.w3.org/TR/xml/#charsets): a feed's address goes into every
 * OPML export. */
static gboolean
has_odd_chars (const char *url)
{
  for (const char *p = url; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == 0xA0 || g_unichar_isspace (c) || c == 0xFFFE || c == 0xFFFF)
        return TRUE;
    }
  return FALSE;
}

/**
 * lwn_url_feed_problem:
 * @url: (nullable): an address to follow as a feed: typed in the feeds
 *   editor, read from an OPML list, or held in the settings
 *
 * Checks @url as every way in and out of the list of feeds does: an
 * absolute http or https address with a server name, no white space or
 * control characters anywhere (GUri would hand back a host such as
 * "exa%20mple.com" decoded, space and all), no white space beyond ASCII
 * either, nothing XML 1.0 cannot hold, and at most %LWN_URL_MAX_FEED_BYTES
 * bytes.
 *
 * Returns: (nullable): a translated sentence saying why @url cannot be a
 *   feed's address, or %NULL when it can be one
 */
const char *
lwn_url_feed_problem (const char *url)
{
  g_autoptr (GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (url == NULL || *url == '\0')
    return _ ("Enter the address of a feed, or of a web page that has one.");
  if (strlen (url) > LWN_URL_MAX_FEED_BYTES)
    return _ ("The address is too long.");

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    return _ ("This is not a web address.");

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return _ ("Only http:// and https:// addresses can be used.");

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    return _ ("The address has no server name.");

  if (!lwn_url_is_launchable (url) || has_odd_chars (url))
    return _ ("The address contains spaces or other characters that are not allowed.");
  return NULL;
}

static gboolean
host_is_lwn (const char *host)
{
  return g_ascii_strcasecmp (host, "lwn.net") == 0 || g_ascii_strcasecmp (host, "www.lwn.net") == 0;
}

/* Turns "/Articles/826124/rss" or "/Articles/826124/rss/" into "/Articles/826124/",
 * and returns NULL for any other path. */
static char *
article_path_from_rss_path (const char *path)
{
  g_auto (GStrv) segments = g_strsplit (path, "/", -1);
  guint n = g_strv_length (segments);

  /* An RSS view's path splits into "", "Articles", digits, "rss" and possibly
   * a trailing "". */
  if (n == 5 && segments[4][0] == '\0')
    n = 4;
  if (n != 4 || segments[0][0] != '\0' || g_strcmp0 (segments[1], "Articles") != 0 || g_strcmp0 (segments[3], "rss") != 0)
    return NULL;

  if (segments[2][0] == '\0')
    return NULL;
  for (const char *p = segments[2]; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return NULL;
    }

  return g_strdup_printf ("/Articles/%s/", segments[2]);
}

/**
 * lwn_url_dup_article_url:
 * @base: (nullable): the URL relative links are resolved against
 *   (xml:base, or the feed's own link)
 * @link: (nullable): the item's link as written in the feed
 *
 * Works out what a click on the item should open. LWN's feeds have linked to
 * the RSS view of an article (https://lwn.net/Articles/826124/rss); that is
 * rewritten to the article itself (https://lwn.net/Articles/826124/). Links
 * to other sites are kept as they are.
 *
 * Returns: (transfer full) (nullable): an absolute http(s) URL, or %NULL when
 *   @link is missing or anything but http(s) once resolved
 */
char *
lwn_url_dup_article_url (const char *base,
                         const char *link)
{
  g_autoptr (GUri) uri = parse_reference (base, link);
  g_autofree char *article_path = NULL;
  char *result;

  if (uri == NULL || !uri_is_launchable (uri))
    return NULL;

  if (host_is_lwn (g_uri_get_host (uri)))
    article_path = article_path_from_rss_path (g_uri_get_path (uri));

  if (article_path != NULL)
    {
      g_autoptr (GUri) article = g_uri_build (G_URI_FLAGS_ENCODED,
                                              g_uri_get_scheme (uri),
                                              NULL,
                                              g_uri_get_host (uri),
                                              g_uri_get_port (uri),
                                              article_path,
                                              NULL,
                                              NULL);
      result = g_uri_to_string (article);
    }
  else
    result = g_uri_to_string (uri);

  /* GUri decodes the host of a relative reference, and the decoded host may
   * print as something that no parser accepts again. The result must
   * therefore pass the launch check before it goes out. */
  if (!lwn_url_is_launchable (result))
    g_clear_pointer (&result, g_free);
  return result;
}

/**
 * lwn_url_dup_site_root:
 * @url: (nullable): an http(s) URL
 *
 * Returns: (transfer full) (nullable): the root of @url's server, e.g.
 *   "https://lwn.net/" for "https://lwn.net/headlines/rss"; %NULL when @url
 *   is not launchable
 */
char *
lwn_url_dup_site_root (const char *url)
{
  g_autoptr (GUri) uri = NULL;

  if (!lwn_url_is_launchable (url))
    return NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return NULL;
  return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri), g_uri_get_port (uri),
                     "/", NULL, NULL);
}

/**
 * lwn_url_dup_host:
 * @url: (nullable): a URL
 *
 * Returns: (transfer full) (nullable): the host of @url, or %NULL when @url
 *   has none
 */
char *
lwn_url_dup_host (const char *url)
{
  g_autoptr (GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  return host != NULL && *host != '\0' ? g_strdup (host) : NULL;
}
