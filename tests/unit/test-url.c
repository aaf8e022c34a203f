/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden-table tests for lwn-url: link resolution, the LWN article rewrite and the launch check. */

#include "config.h"

#include "lwn-url.h"

typedef struct
{
  const char *name;
  const char *base;
  const char *link;
  const char *expected;
} UrlCase;

typedef struct
{
  const char *name;
  const char *url;
  gboolean expected;
} LaunchCase;

#define LWN_FEED "https://lwn.net/headlines/rss"

static const UrlCase article_cases[] = {
  /* GUri decodes the host of a relative reference: "%25" would come back a bare "%". */
  { "unsafe/decoded-percent-host", "p:", "http://r%25", NULL },
  { "percent-encoded-host", NULL, "http://r%41", "http://rA" },
  { "rss/https", NULL, "https://lwn.net/Articles/826124/rss", "https://lwn.net/Articles/826124/" },
  { "rss/http", NULL, "http://lwn.net/Articles/826124/rss", "http://lwn.net/Articles/826124/" },
  { "rss/www", NULL, "https://www.lwn.net/Articles/826124/rss", "https://www.lwn.net/Articles/826124/" },
  { "rss/upper-case-host", NULL, "https://LWN.NET/Articles/826124/rss", "https://LWN.NET/Articles/826124/" },
  { "rss/upper-case-scheme", NULL, "HTTPS://Www.Lwn.Net/Articles/826124/rss", "https://Www.Lwn.Net/Articles/826124/" },
  { "rss/trailing-slash", NULL, "https://lwn.net/Articles/826124/rss/", "https://lwn.net/Articles/826124/" },
  { "rss/query-fragment", NULL, "https://lwn.net/Articles/826124/rss?format=x#comments", "https://lwn.net/Articles/826124/" },
  { "rss/port", NULL, "https://lwn.net:8443/Articles/1/rss", "https://lwn.net:8443/Articles/1/" },
  { "rss/userinfo-dropped", NULL, "https://user:pw@lwn.net/Articles/1/rss", "https://lwn.net/Articles/1/" },
  { "rss/dot-segments", NULL, "https://lwn.net/Articles/1/rss/../../2/rss", "https://lwn.net/Articles/2/" },
  { "rss/surrounding-space", NULL, "  https://lwn.net/Articles/1/rss \n", "https://lwn.net/Articles/1/" },
  { "rss/absolute-ignores-base", "https://example.com/feed", "https://lwn.net/Articles/1/rss", "https://lwn.net/Articles/1/" },
  { "current/unchanged", NULL, "https://lwn.net/Articles/937631/", "https://lwn.net/Articles/937631/" },
  { "current/query-kept", NULL, "https://lwn.net/Articles/937631/?format=printable", "https://lwn.net/Articles/937631/?format=printable" },
  { "current/front-page", NULL, "https://lwn.net/", "https://lwn.net/" },
  { "not-rss/letters", NULL, "https://lwn.net/Articles/abc/rss", "https://lwn.net/Articles/abc/rss" },
  { "not-rss/empty-id", NULL, "https://lwn.net/Articles//rss", "https://lwn.net/Articles//rss" },
  { "not-rss/lower-case-articles", NULL, "https://lwn.net/articles/1/rss", "https://lwn.net/articles/1/rss" },
  { "not-rss/deeper", NULL, "https://lwn.net/Articles/1/rss/more", "https://lwn.net/Articles/1/rss/more" },
  { "other/example", NULL, "https://example.com/Articles/1/rss", "https://example.com/Articles/1/rss" },
  { "other/evil-lwn", NULL, "https://evil-lwn.net/Articles/1/rss", "https://evil-lwn.net/Articles/1/rss" },
  { "other/lwn-as-userinfo", NULL, "https://lwn.net@evil.example/Articles/1/rss", "https://lwn.net@evil.example/Articles/1/rss" },
  { "other/lwn-as-subdomain", NULL, "https://lwn.net.evil.example/Articles/1/rss", "https://lwn.net.evil.example/Articles/1/rss" },
  { "other/idn", NULL, "https://ex\xc3\xa9mple.com/", "https://xn--exmple-cva.com/" },
  { "other/space-in-path", NULL, "https://example.com/a b", "https://example.com/a%20b" },
  { "other/escape-in-path", NULL, "https://example.com/\x1b[31mx", "https://example.com/%1B[31mx" },
  { "other/ipv6", NULL, "https://[::1]:8080/x", "https://[::1]:8080/x" },
  { "relative/absolute-path", LWN_FEED, "/Articles/5/rss", "https://lwn.net/Articles/5/" },
  { "relative/dot-dot", LWN_FEED, "../Articles/5/rss", "https://lwn.net/Articles/5/" },
  { "relative/network-path", LWN_FEED, "//lwn.net/Articles/5/rss", "https://lwn.net/Articles/5/" },
  { "relative/current-article", LWN_FEED, "/Articles/5/", "https://lwn.net/Articles/5/" },
  { "relative/other-site", "https://example.com/feeds/main.xml", "item/1", "https://example.com/feeds/item/1" },
  { "relative/no-base", NULL, "/Articles/5/rss", NULL },
  { "relative/empty-base", "", "/Articles/5/rss", NULL },
  { "relative/unparsable-base", "not a url", "/Articles/5/rss", NULL },
  { "unsafe/javascript", NULL, "javascript:alert(1)", NULL },
  { "unsafe/javascript-tab", NULL, "java\tscript:alert(1)", NULL },
  { "unsafe/javascript-newline", LWN_FEED, "java\nscript:alert(1)", NULL },
  { "unsafe/javascript-mixed-case", NULL, "JaVaScRiPt:alert(1)", NULL },
  { "unsafe/javascript-leading-space", NULL, " javascript:alert(1)", NULL },
  { "unsafe/javascript-with-base", LWN_FEED, " javascript:alert(1)", NULL },
  { "unsafe/vbscript", NULL, "vbscript:msgbox(1)", NULL },
  { "unsafe/file", NULL, "file:///etc/passwd", NULL },
  { "unsafe/data", NULL, "data:text/html,x", NULL },
  { "unsafe/ftp", NULL, "ftp://example.com/", NULL },
  { "unsafe/mailto", NULL, "mailto:a@b", NULL },
  { "unsafe/no-host", NULL, "http:///x", NULL },
  { "unsafe/scheme-only", NULL, "https://", NULL },
  { "unsafe/scheme-relative-path", LWN_FEED, "http:x", NULL },
  { "unsafe/bad-port", NULL, "https://example.com:99999/", NULL },
  { "unsafe/bad-escape", NULL, "https://example.com/%zz", NULL },
  { "unsafe/escape-in-host", NULL, "https://exa\x1bmple.com/", NULL },
  { "unsafe/space-in-host", NULL, "https://exa mple.com/", NULL },
  { "unsafe/empty", NULL, "", NULL },
  { "unsafe/white-space", LWN_FEED, " \t\n", NULL },
  { "unsafe/null", LWN_FEED, NULL, NULL },
  { "unsafe-base/file-root", "file:///", "/Articles/5/rss", NULL },
  { "unsafe-base/file-dir", "file:///etc/", "passwd", NULL },
  { "unsafe-base/javascript", "javascript:x", "/y", NULL },
};

static const UrlCase resolve_cases[] = {
  { "absolute", LWN_FEED, "https://example.com/a?b#c", "https://example.com/a?b#c" },
  { "absolute-no-base", NULL, "https://lwn.net/Articles/1/rss", "https://lwn.net/Articles/1/rss" },
  { "absolute-path", LWN_FEED, "/Articles/5/rss", "https://lwn.net/Articles/5/rss" },
  { "relative-path", LWN_FEED, "other", "https://lwn.net/headlines/other" },
  { "dot-dot", LWN_FEED, "../Articles/5/", "https://lwn.net/Articles/5/" },
  { "query-only", LWN_FEED, "?page=2", "https://lwn.net/headlines/rss?page=2" },
  { "fragment-only", LWN_FEED, "#top", "https://lwn.net/headlines/rss#top" },
  { "network-path", LWN_FEED, "//example.com/x", "https://example.com/x" },
  { "tab-removed", LWN_FEED, "/Arti\tcles/5/", "https://lwn.net/Articles/5/" },
  { "surrounding-space", LWN_FEED, " \n/Articles/5/ ", "https://lwn.net/Articles/5/" },
  { "not-only-http", NULL, "mailto:a@b", "mailto:a@b" },
  { "javascript-normalized", NULL, "java\tscript:alert(1)", "javascript:alert(1)" },
  { "file-base", "file:///", "/Articles/5/rss", "file:///Articles/5/rss" },
  { "no-base", NULL, "/Articles/5/rss", NULL },
  { "empty-base", "", "relative", NULL },
  { "bad-escape", NULL, "https://example.com/%zz", NULL },
  /* A path that starts with "//" keeps "/." in front, as the WHATWG URL
   * standard serializes it, so that "lwn" never reads as a host. */
  { "dot-segments-to-no-authority", NULL, "s:/.//lwn", "s:/.//lwn" },
  { "dot-dot-to-no-authority", "s:/a/b", "..//x", "s:/.//x" },
  { "dot-segments-keep-query", NULL, "s:/a/..//x?q#f", "s:/.//x?q#f" },
  { "empty", LWN_FEED, "", NULL },
  { "null", LWN_FEED, NULL, NULL },
};

static const LaunchCase launch_cases[] = {
  { "https", "https://lwn.net/Articles/1/", TRUE },
  { "http", "http://example.com", TRUE },
  { "upper-case", "HTTP://EXAMPLE.COM/", TRUE },
  { "ipv6-port", "https://[::1]:8080/", TRUE },
  { "punycode", "https://xn--e-9ga.example/", TRUE },
  { "encoded-path", "https://example.com/%C3%A9?q=%1B#x", TRUE },
  { "null", NULL, FALSE },
  { "empty", "", FALSE },
  { "relative", "/Articles/1/", FALSE },
  { "javascript", "javascript:alert(1)", FALSE },
  { "javascript-upper-case", "JAVASCRIPT:alert(1)", FALSE },
  { "file", "file:///etc/passwd", FALSE },
  { "data", "data:text/html,x", FALSE },
  { "ftp", "ftp://example.com/", FALSE },
  { "mailto", "mailto:a@b", FALSE },
  { "no-host", "http:///x", FALSE },
  { "scheme-only", "https://", FALSE },
  { "scheme-relative-path", "http:x", FALSE },
  { "bad-port", "https://example.com:99999/", FALSE },
  { "bad-escape", "https://example.com/%zz", FALSE },
  { "space-in-host", "https://exa mple.com/", FALSE },
  { "escape-in-host", "https://exa\x1bmple.com/", FALSE },
  { "escape-in-path", "https://example.com/\x1b[31m", FALSE },
  { "c1-in-path", "https://example.com/a\xc2\x9b"
                  "b",
    FALSE },
  { "del-in-path", "https://example.com/a\x7f", FALSE },
  { "invalid-utf8", "https://example.com/\xff", FALSE },
  { "leading-space", " https://example.com/", FALSE },
  { "trailing-newline", "https://example.com/\n", FALSE },
};

static void
test_article_url (gconstpointer data)
{
  const UrlCase *test = data;
  g_autofree char *url = lwn_url_dup_article_url (test->base, test->link);

  g_test_summary ("Links open the full article on LWN, other http(s) links as they are, and nothing else.");

  g_assert_cmpstr (url, ==, test->expected);
  /* Whatever the rewrite returns must pass the launch check on its own. */
  if (url != NULL)
    g_assert_true (lwn_url_is_launchable (url));
}

static void
test_resolve (gconstpointer data)
{
  const UrlCase *test = data;
  g_autofree char *url = lwn_url_resolve (test->base, test->link);

  g_test_summary ("References resolve against their base as RFC 3986 says, ignoring tabs and newlines as browsers do.");

  g_assert_cmpstr (url, ==, test->expected);
}

static void
test_launchable (gconstpointer data)
{
  const LaunchCase *test = data;

  g_test_summary ("Only absolute http(s) URLs with a clean host and no control characters may be launched.");

  g_assert_cmpint (lwn_url_is_launchable (test->url), ==, test->expected);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (article_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/url/article/%s", article_cases[i].name);
      g_test_add_data_func (path, &article_cases[i], test_article_url);
    }

  for (gsize i = 0; i < G_N_ELEMENTS (resolve_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/url/resolve/%s", resolve_cases[i].name);
      g_test_add_data_func (path, &resolve_cases[i], test_resolve);
    }

  for (gsize i = 0; i < G_N_ELEMENTS (launch_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/url/launchable/%s", launch_cases[i].name);
      g_test_add_data_func (path, &launch_cases[i], test_launchable);
    }

  return g_test_run ();
}
