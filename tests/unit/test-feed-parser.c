/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests lwn_feed_parse() on golden fixtures, bad and hostile input, dates, refresh hints and threads. */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lwn-feed-parser.h"
#include "lwn-feed-parser-private.h"
#include "lwn-text.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static GBytes *
load_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static LwnFeed *
parse_string (const char *document,
              const char *document_url,
              GError **error)
{
  g_autoptr (GBytes) body = g_bytes_new (document, strlen (document));

  return lwn_feed_parse (body, NULL, document_url, error);
}

static void
assert_date (GDateTime *date,
             const char *expected)
{
  g_autoptr (GDateTime) want = NULL;

  if (expected == NULL)
    {
      g_assert_true (date == NULL);
      return;
    }

  want = g_date_time_new_from_iso8601 (expected, NULL);
  g_assert_true (want != NULL);
  g_assert_true (date != NULL);
  g_assert_cmpint (g_date_time_to_unix (date), ==, g_date_time_to_unix (want));
  g_assert_cmpint (g_date_time_get_microsecond (date), ==, g_date_time_get_microsecond (want));
  g_assert_cmpint (g_date_time_get_utc_offset (date), ==, g_date_time_get_utc_offset (want));
}

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return haystack != NULL && strstr (haystack, needle) != NULL;
}

/* Whether @needle shows up anywhere the rest of the program could see. */
static gboolean
feed_contains (LwnFeed *feed,
               const char *needle)
{
  if (contains (lwn_feed_get_title (feed), needle) || contains (lwn_feed_get_link (feed), needle))
    return TRUE;

  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      if (contains (lwn_feed_item_get_id (item), needle) || contains (lwn_feed_item_get_title (item), needle) || contains (lwn_feed_item_get_link (item), needle) || contains (lwn_feed_item_get_url (item), needle) || contains (lwn_feed_item_get_author (item), needle) || contains (lwn_feed_item_get_description (item), needle))
        return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Golden feeds                                                              */

typedef struct
{
  guint index;
  const char *id;
  const char *title;
  const char *link;
  const char *url;
  const char *author;
  const char *date;        /* ISO 8601 with the expected offset, or NULL */
  const char *description; /* a part of it, or NULL when there is none */
  gboolean paywalled;
} ItemCase;

typedef struct
{
  const char *path;
  const char *file;
  const char *content_type;
  const char *document_url;
  const char *title;
  const char *link;
  guint refresh_seconds;
  guint n_items;
  const ItemCase *items;
  guint n_checked;
} FeedCase;

static const ItemCase lwn_2023_items[] = {
  { 0, "https://lwn.net/Articles/937631/", "Going Rogue (Digital Antiquarian)",
    "https://lwn.net/Articles/937631/", "https://lwn.net/Articles/937631/", "corbet",
    "2023-07-07T18:15:29Z", "<a href=\"https://www.filfre.net/2023/07/going-rogue/\">this Digital", FALSE },
  { 1, "https://lwn.net/Articles/937416/", "[$] A pair of workqueue improvements",
    "https://lwn.net/Articles/937416/", "https://lwn.net/Articles/937416/", "corbet",
    "2023-07-07T14:52:01Z", "deferred-execution", TRUE },
  { 3, "https://lwn.net/Articles/937528/", "Fedora considers \"privacy-preserving\" telemetry",
    "https://lwn.net/Articles/937528/", "https://lwn.net/Articles/937528/", "corbet",
    "2023-07-06T22:56:50Z", "The Fedora project is considering", FALSE },
  { 14, "https://lwn.net/Articles/937317/", "Brockmeier: Red Hat and the Clone Wars III: The dawn of CentOS",
    "https://lwn.net/Articles/937317/", "https://lwn.net/Articles/937317/", "corbet",
    "2023-07-04T19:17:27Z", "</blockquote>", FALSE },
};

static const ItemCase lwn_2020_items[] = {
  { 0, "https://lwn.net/Articles/826124/rss", "[$] Netgpu and the hazards of proprietary kernel modules",
    "https://lwn.net/Articles/826124/rss", "https://lwn.net/Articles/826124/", "corbet",
    "2020-07-23T14:36:12Z", "<a href=\"/ml/netdev/", TRUE },
  { 2, "https://lwn.net/Articles/825937/rss", "Kernel prepatch 5.8-rc6",
    "https://lwn.net/Articles/825937/rss", "https://lwn.net/Articles/825937/", "corbet",
    "2020-07-19T22:27:03Z", "\"<q>So I'm not entirely happy", FALSE },
};

static const ItemCase rss090_items[] = {
  { 0, "http://www.mozilla.org/status/", "New Status Updates", "http://www.mozilla.org/status/",
    "http://www.mozilla.org/status/", NULL, NULL, NULL, FALSE },
  { 1, "http://www.mozilla.org/bugs/", "Bugzilla Reorganized", "http://www.mozilla.org/bugs/",
    "http://www.mozilla.org/bugs/", NULL, NULL, NULL, FALSE },
};

static const ItemCase rss091_items[] = {
  { 0, "http://writetheweb.com/read.php?item=24", "Giving the world a pluggable Gnutella",
    "http://writetheweb.com/read.php?item=24", "http://writetheweb.com/read.php?item=24", NULL, NULL,
    "WorldOS is a framework", FALSE },
  { 1, "http://writetheweb.com/read.php?item=23", "Syndication discussions hot up",
    "http://writetheweb.com/read.php?item=23", "http://writetheweb.com/read.php?item=23", NULL, NULL,
    "After a period of dormancy", FALSE },
};

/* No title, link, guid or date: the title comes from the description and
 * the id is SHA-256 of that title and "\n". */
static const ItemCase rss092_items[] = {
  { 0, "48955a1274824dbd8019e1ce5c95c24af32bdc5335b9d07cb056d8e454cc5a0b",
    "It's been a few days since I added a song to the Grateful…", NULL, NULL, NULL, NULL,
    "It's been a few days", FALSE },
  { 1, "bf634e14c80f1ddbc107b79491d1d5e3e3f5982b08f565207ebc31d4c488d4bd",
    "The Other One, live instrumental, One From The Vault.", NULL, NULL, NULL, NULL,
    "<a href=\"http://arts.ucsc.edu/GDead/AGDL/other1.html\">The Other One</a>", FALSE },
};

static const ItemCase rss2_items[] = {
  /* isPermaLink="false": an id, not a link; description beats content:encoded. */
  { 0, "tag:example.org,2023:release-1.0", "Release 1.0 is out", "https://example.org/news/release-1.0",
    "https://example.org/news/release-1.0", "Jane Doe", "2023-07-07T18:15:29Z",
    "<p>The <b>first</b> stable release.</p>", FALSE },
  /* A permalink guid is the link; no day name, no seconds, numeric zone. */
  { 1, "https://example.org/news/2", "A guid that is a permalink", "https://example.org/news/2",
    "https://example.org/news/2", "John Roe", "2023-07-07T10:00:00-04:00", "Second item.", FALSE },
  /* <link> beats the guid; xml:base on the item; 2-digit year; PDT; blank
   * description, so content:encoded. */
  { 2, "https://example.org/news/3", "Relative link under xml:base", "https://cdn.example.org/blog/posts/3.html",
    "https://cdn.example.org/blog/posts/3.html", NULL, "2023-07-06T09:30:00-07:00",
    "<p>Only the full content.</p>", FALSE },
  /* Resolved against the channel link, itself resolved against the document URL; dc:date. */
  { 3, "https://example.org/news/4", "Relative link, no xml:base", "https://example.org/news/4",
    "https://example.org/news/4", NULL, "2023-07-05T08:00:00+02:00", "Fourth.", FALSE },
  /* Nothing but a description and a date. */
  { 4, "fd4406103f285a11b6838191d13da77b237f9f82f7f866a83c945c9725d5fcd1",
    "A short note about nothing in particular, one that goes on…", NULL, NULL, NULL,
    "2023-07-05T08:00:00+02:00", "<b>nothing</b>", FALSE },
  /* Kept as the link, never offered as a URL; full day and month names, UT. */
  { 5, "javascript:alert(document.cookie)", "Click me", "javascript:alert(document.cookie)", NULL, NULL,
    "2023-07-04T12:00:00Z", NULL, FALSE },
  /* HTML in the title, and an ESC hidden in a character reference. */
  { 6, "https://example.org/news/7", "AT&T bold and [31mred[0m", "https://example.org/news/7",
    "https://example.org/news/7", NULL, NULL, NULL, FALSE },
  /* Padded "[$]"; a leap second; EST. */
  { 7, "https://example.org/news/8", "[$] Subscribers first", "https://example.org/news/8",
    "https://example.org/news/8", NULL, "2023-07-04T00:00:00-05:00", NULL, TRUE },
};

static const ItemCase atom_items[] = {
  /* type="html" title; the text/html alternate; published beats updated;
   * a type="text" summary is escaped so that it reads back verbatim. */
  { 0, "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", "Café tales", "https://example.com/blog/entries/1",
    "https://example.com/blog/entries/1", "Alice", "2023-07-07T10:00:00+02:00",
    "1 &lt; 2 &amp; 3 &gt; 2", FALSE },
  /* XHTML title and content; a link with no rel; the feed's author. */
  { 1, "tag:example.com,2023:2", "An XHTML title", "https://other.example.net/2", "https://other.example.net/2",
    "Feed Author", "2023-07-06T09:00:00-05:00",
    "<p>Hello <b>world</b> &amp; <a href=\"/x?a=1&amp;b=2\">friends</a></p><br/>", FALSE },
  /* A relative xml:base on the entry, under the feed's. */
  { 2, "tag:example.com,2023:3", "Relative base", "https://example.com/blog/sub/three.html",
    "https://example.com/blog/sub/three.html", "Feed Author", "2023-07-05T09:00:00Z", "<p>Third</p>", FALSE },
  /* No alternate link; out-of-line content; a date without a time. */
  { 3, "urn:uuid:4", "No alternate link", NULL, NULL, "Feed Author", "2023-07-04T00:00:00Z", NULL, FALSE },
};

static const ItemCase atom_prefixed_items[] = {
  { 0, "urn:prefixed:1", "Only entry", "https://prefixed.example.org/1", "https://prefixed.example.org/1",
    NULL, "2023-07-01T00:00:00Z", NULL, FALSE },
};

static const ItemCase json11_items[] = {
  /* The summary is plain text, so escaped; the second author has a name. */
  { 0, "2", "HTML <content>", "https://json.example.org/posts/2", "https://json.example.org/posts/2", "Bob",
    "2023-07-07T12:00:00+01:00", "A greeting &amp; more", FALSE },
  /* A numeric id; external_url; content_text escaped; date_modified; the feed's author. */
  { 1, "1", "Plain <text> only", "https://elsewhere.example.com/1", "https://elsewhere.example.com/1",
    "Feed Writer", "2023-07-06T08:00:00Z", "Plain &lt;text&gt; only", FALSE },
  /* A title of the wrong type is no title. */
  { 2, "3", "Three", "javascript:void(0)", NULL, "Feed Writer", NULL, "<p>Three</p>", FALSE },
};

static const ItemCase json10_items[] = {
  { 0, "https://old.example.org/1", "First", "https://old.example.org/1", "https://old.example.org/1", "Carol",
    "2019-01-02T03:04:05-08:00", "Text", FALSE },
  { 1, "https://old.example.org/2", "Second", NULL, NULL, "Old Writer", NULL, "<i>two</i>", FALSE },
};

static const ItemCase latin1_items[] = {
  { 0, "https://latin.example.org/1", "Déjà vu ½", "https://latin.example.org/1", "https://latin.example.org/1",
    NULL, NULL, NULL, FALSE },
};

static const ItemCase utf16_items[] = {
  { 0, "https://utf16.example.org/1", "Ångström 😀", "https://utf16.example.org/1", "https://utf16.example.org/1",
    NULL, NULL, NULL, FALSE },
};

#define ITEMS(array) array, G_N_ELEMENTS (array)

static const FeedCase feed_cases[] = {
  { "/feed-parser/rss1/lwn-2023", "lwn-headlines-2023-07.rdf", "application/rss+xml", "https://lwn.net/headlines/rss",
    "LWN.net", "https://lwn.net", 1800, 15, ITEMS (lwn_2023_items) },
  { "/feed-parser/rss1/lwn-2020", "lwn-rss-2020.rdf", NULL, "https://lwn.net/headlines/rss",
    "LWN.net", "https://lwn.net", 3600, 3, ITEMS (lwn_2020_items) },
  { "/feed-parser/rss090/mozilla", "rss-0.90.rdf", NULL, NULL,
    "Mozilla Dot Org", "http://www.mozilla.org", 0, 2, ITEMS (rss090_items) },
  { "/feed-parser/rss091/writetheweb", "rss-0.91.xml", NULL, NULL,
    "WriteTheWeb", "http://writetheweb.com", 0, 2, ITEMS (rss091_items) },
  { "/feed-parser/rss092/no-titles", "rss-0.92.xml", NULL, NULL,
    "Dave Winer: Grateful Dead", "http://www.scripting.com/blog/categories/gratefulDead.html", 0, 2,
    ITEMS (rss092_items) },
  /* ttl 45 min against hourly: the larger wins. */
  { "/feed-parser/rss2/example", "rss-2.0.xml", "application/rss+xml", "https://example.org/feeds/news.xml",
    "Example News", "https://example.org/", 3600, 8, ITEMS (rss2_items) },
  { "/feed-parser/rss2/no-items", "rss-2.0-empty.xml", NULL, NULL,
    "Nothing yet", "https://example.org/", 86400, 0, NULL, 0 },
  { "/feed-parser/atom/example", "atom.xml", "application/atom+xml", "https://example.com/blog/atom.xml",
    "Example & Co. Blog", "https://example.com/blog/", 0, 4, ITEMS (atom_items) },
  { "/feed-parser/atom/by-namespace", "atom-prefixed.xml", NULL, NULL,
    "Prefixed Atom", "https://prefixed.example.org/", 0, 1, ITEMS (atom_prefixed_items) },
  { "/feed-parser/json/1.1", "json-feed-1.1.json", NULL, "https://json.example.org/feed.json",
    "JSON [1mExample[0m", "https://json.example.org/", 0, 3, ITEMS (json11_items) },
  { "/feed-parser/json/1.0", "json-feed-1.0.json", "application/feed+json; charset=utf-8", NULL,
    "Old JSON", "https://old.example.org/", 0, 2, ITEMS (json10_items) },
  { "/feed-parser/encoding/iso-8859-1", "iso-8859-1.xml", NULL, NULL,
    "Café crème", "https://latin.example.org/", 0, 1, ITEMS (latin1_items) },
  { "/feed-parser/encoding/utf-16-bom", "utf-16.xml", NULL, NULL,
    "Ünicode – 日本語", "https://utf16.example.org/", 0, 1, ITEMS (utf16_items) },
  /* Latin-1 bytes under a UTF-8 declaration: HTTP's charset wins. */
  { "/feed-parser/encoding/charset-overrides-prolog", "charset-override.xml", "text/xml; Charset=\"ISO-8859-1\"", NULL,
    "Café crème", "https://latin.example.org/", 0, 1, ITEMS (latin1_items) },
};

/* Breadth: Atom 0.3, Dublin Core fallbacks, author forms, forgiving
 * structure, internal entities. Files under data/breadth/. */
static const ItemCase atom03_basic_items[] = {
  /* The text/html alternate among other links; issued beats modified and
   * created; a summary with no type is plain text. */
  { 0, "tag:atom03.example.org,2004:1", "First entry", "http://atom03.example.org/2004/01/first",
    "http://atom03.example.org/2004/01/first", "Mark", "2004-01-04T18:30:02-05:00", "A plain &lt;summary&gt;", FALSE },
};

static const ItemCase atom03_modified_items[] = {
  { 0, "tag:atom03.example.org,2004:modified", "Only modified", NULL, NULL, NULL, "2004-02-01T08:00:00+01:00", NULL, FALSE },
};

static const ItemCase atom03_created_items[] = {
  { 0, "tag:atom03.example.org,2004:created", "Only created", NULL, NULL, NULL, "2004-03-01T08:00:00Z", NULL, FALSE },
};

static const ItemCase atom03_escaped_items[] = {
  { 0, "tag:atom03.example.org,2004:escaped", "Escaped", NULL, NULL, NULL, NULL, "<p>Escaped &amp; ready</p>", FALSE },
};

static const ItemCase atom03_base64_items[] = {
  { 0, "tag:atom03.example.org,2004:base64", "Base64", NULL, NULL, NULL, NULL, "<p>Encoded &amp; decoded</p>", FALSE },
};

static const ItemCase atom03_xml_items[] = {
  { 0, "tag:atom03.example.org,2004:xml", "Inline XHTML", NULL, NULL, NULL, NULL, "<p>Inline <b>markup</b></p>", FALSE },
};

static const ItemCase atom03_summary_items[] = {
  { 0, "tag:atom03.example.org,2004:summary", "Bold title", NULL, NULL, NULL, NULL, "<i>Escaped</i> summary", FALSE },
};

static const ItemCase atom03_title64_items[] = {
  { 0, "tag:atom03.example.org,2004:title64", "Encoded <title>", NULL, NULL, NULL, NULL, NULL, FALSE },
};

/* An author with only an address is named by it, before the feed's author. */
static const ItemCase atom03_email_items[] = {
  { 0, "tag:atom03.example.org,2004:email", "Email only", NULL, NULL, "me@example.org", NULL, NULL, FALSE },
};

static const ItemCase atom03_relative_items[] = {
  { 0, "tag:atom03.example.org,2004:relative", "Relative link", "http://atom03.example.org/blog/2004/entry.html",
    "http://atom03.example.org/blog/2004/entry.html", NULL, NULL, NULL, FALSE },
};

static const ItemCase atom03_dc_items[] = {
  { 0, "tag:dc.example.org,2004:atom03", "Atom 0.3 dc:title", NULL, NULL, "Atom 0.3 Creator", "2004-08-01T09:00:00Z", NULL, FALSE },
};

static const ItemCase rss2_dc_items[] = {
  { 0, "http://dc.example.org/1", "Title from dc:title", "http://dc.example.org/1", "http://dc.example.org/1",
    "Author from dc:author", "2004-05-01T10:00:00Z", "Summary from dc:description", FALSE },
  /* The format's own elements win over Dublin Core's. */
  { 1, "http://dc.example.org/2", "Own title wins", "http://dc.example.org/2", "http://dc.example.org/2",
    "Contributor only", "2004-05-02T10:00:00Z", "Own description wins", FALSE },
  { 2, "http://dc.example.org/3", "Created date", "http://dc.example.org/3", "http://dc.example.org/3",
    "RSS Author", "2004-05-03T10:00:00Z", NULL, FALSE },
  { 3, "http://dc.example.org/4", "pubDate beats dcterms", "http://dc.example.org/4", "http://dc.example.org/4",
    NULL, "2004-05-04T10:00:00Z", NULL, FALSE },
};

static const ItemCase rss1_dc_items[] = {
  { 0, "http://rdf.example.org/1", "RDF item title", "http://rdf.example.org/1", "http://rdf.example.org/1",
    "RDF Contributor", "2004-06-01T12:00:00+02:00", "RDF description", FALSE },
};

static const ItemCase atom10_dc_items[] = {
  { 0, "tag:dc.example.org,2004:atom1", "Entry title from dc:title", "http://dc.example.org/atom/1",
    "http://dc.example.org/atom/1", "Atom Creator", "2004-07-01T09:00:00Z", "Atom dc:description", FALSE },
  { 1, "tag:dc.example.org,2004:atom2", "dcterms:created", NULL, NULL, NULL, "2004-07-02T09:00:00Z", NULL, FALSE },
};

static const ItemCase rss2_author_items[] = {
  { 0, "http://au.example.org/1", "a", "http://au.example.org/1", "http://au.example.org/1", "Example editor", NULL, NULL, FALSE },
  { 1, "http://au.example.org/2", "b", "http://au.example.org/2", "http://au.example.org/2", "Example editor", NULL, NULL, FALSE },
  { 2, "http://au.example.org/3", "c", "http://au.example.org/3", "http://au.example.org/3", "Creator Name", NULL, NULL, FALSE },
  { 3, "http://au.example.org/4", "d", "http://au.example.org/4", "http://au.example.org/4", "Creator Name", NULL, NULL, FALSE },
  { 4, "http://au.example.org/5", "e", "http://au.example.org/5", "http://au.example.org/5", "me@example.com", NULL, NULL, FALSE },
  { 5, "http://au.example.org/6", "f", "http://au.example.org/6", "http://au.example.org/6", "Plain Name", NULL, NULL, FALSE },
  { 6, "http://au.example.org/7", "g", "http://au.example.org/7", "http://au.example.org/7", "me@example.com", NULL, NULL, FALSE },
  { 7, "http://au.example.org/8", "h", "http://au.example.org/8", "http://au.example.org/8", "Quoted Name", NULL, NULL, FALSE },
  { 8, "http://au.example.org/9", "i", "http://au.example.org/9", "http://au.example.org/9", "Paren Name", NULL, NULL, FALSE },
  { 9, "http://au.example.org/10", "j", "http://au.example.org/10", "http://au.example.org/10", "Quoted Paren", NULL, NULL, FALSE },
  { 10, "http://au.example.org/11", "k", "http://au.example.org/11", "http://au.example.org/11", "me@example.com", NULL, NULL, FALSE },
  /* No address: the parentheses are part of the name. */
  { 11, "http://au.example.org/12", "l", "http://au.example.org/12", "http://au.example.org/12", "Name (the editor)", NULL, NULL, FALSE },
};

static const ItemCase rss_no_channel_items[] = {
  { 0, "nochannel-1", "An item without a channel", "http://nochannel.example.org/1", "http://nochannel.example.org/1",
    NULL, "2004-05-05T10:00:00Z", NULL, FALSE },
  { 1, "http://nochannel.example.org/2", "Second", "http://nochannel.example.org/2", "http://nochannel.example.org/2",
    NULL, NULL, NULL, FALSE },
};

static const ItemCase atom10_empty_type_items[] = {
  { 0, "tag:types.example.org,2004:1", "Empty <type> title", NULL, NULL, NULL, NULL, "Empty &lt;type&gt; summary", FALSE },
};

static const ItemCase rss2_xml_base_items[] = {
  { 0, "http://links.example.org/dir/page.html", "Base on the link element", "http://links.example.org/dir/page.html",
    "http://links.example.org/dir/page.html", NULL, NULL, NULL, FALSE },
  { 1, "http://base.example.org/root/channel/item.html", "Base on the channel",
    "http://base.example.org/root/channel/item.html", "http://base.example.org/root/channel/item.html", NULL, NULL, NULL, FALSE },
  { 2, "g/1", "Base on the guid", "http://guids.example.org/g/1", "http://guids.example.org/g/1", NULL, NULL, NULL, FALSE },
};

static const ItemCase rss2_userland_items[] = {
  { 0, "http://userland.example.org/1", "Namespaced item", "http://userland.example.org/1", "http://userland.example.org/1",
    NULL, "2004-05-06T10:00:00Z", "In the RSS 2.0 namespace", FALSE },
};

static const ItemCase rss2_entity_items[] = {
  { 0, "tag:example.com,2004:1", "Entity in the guid", "http://entities.example.org/2004/one",
    "http://entities.example.org/2004/one", NULL, NULL, NULL, FALSE },
  { 1, "C:\\data\\1\\new", "Backslashes kept, 2004", NULL, NULL, NULL, NULL, "Some bold text here", FALSE },
};

static const ItemCase atom10_entity_items[] = {
  { 0, "http://atom-entities.example.org/entries/1", "Entity in an attribute", "http://atom-entities.example.org/entries/1.html",
    "http://atom-entities.example.org/entries/1.html", NULL, NULL, NULL, FALSE },
};

static const ItemCase rss2_content_items[] = {
  { 0, "http://content.example.org/1", "xhtml:body", "http://content.example.org/1", "http://content.example.org/1",
    NULL, NULL, "<p>Example <b>content</b></p>", FALSE },
  { 1, "http://content.example.org/2", "fullitem", "http://content.example.org/2", "http://content.example.org/2",
    NULL, NULL, "<p>Full item</p>", FALSE },
};

/* Elements in a description are HTML left unescaped, not to be dropped. */
static const ItemCase rss2_naked_items[] = {
  { 0, "http://naked.example.org/1", "Markup left bare", "http://naked.example.org/1", "http://naked.example.org/1",
    NULL, NULL, "Example <b>naked</b> markup &amp; <a href=\"/x?a=1&amp;b=2\">a link</a>", FALSE },
};

/* The RSS 0.91 DTD, never loaded, declares the HTML entities: references to
 * them stand for their characters; other undeclared ones for nothing. */
static const ItemCase rss091_entity_items[] = {
  { 0, "http://netscape.example.org/1", "Café & crème – done", "http://netscape.example.org/1",
    "http://netscape.example.org/1", NULL, NULL, "<p>© 2004</p>", FALSE },
};

/* Some Atom 0.3 feeds write the link as the element's text. */
static const ItemCase atom03_link_text_items[] = {
  { 0, "tag:linktext.example.org,2004:1", "Alternate first", "http://linktext.example.org/alternate",
    "http://linktext.example.org/alternate", NULL, NULL, NULL, FALSE },
  { 1, "tag:linktext.example.org,2004:2", "Alternate last", "http://linktext.example.org/alternate",
    "http://linktext.example.org/alternate", NULL, NULL, NULL, FALSE },
};

static const FeedCase breadth_cases[] = {
  { "/feed-parser/atom03/basic", "breadth/atom03-basic.xml", NULL, NULL,
    "Atom 0.3 Example", "http://atom03.example.org/", 0, 1, ITEMS (atom03_basic_items) },
  { "/feed-parser/atom03/modified", "breadth/atom03-modified.xml", NULL, NULL,
    "Dates", NULL, 0, 1, ITEMS (atom03_modified_items) },
  { "/feed-parser/atom03/created", "breadth/atom03-created.xml", NULL, NULL,
    "Dates", NULL, 0, 1, ITEMS (atom03_created_items) },
  { "/feed-parser/atom03/content-escaped", "breadth/atom03-content-escaped.xml", NULL, NULL,
    "Content", NULL, 0, 1, ITEMS (atom03_escaped_items) },
  { "/feed-parser/atom03/content-base64", "breadth/atom03-content-base64.xml", NULL, NULL,
    "Content", NULL, 0, 1, ITEMS (atom03_base64_items) },
  { "/feed-parser/atom03/content-xml", "breadth/atom03-content-xml.xml", NULL, NULL,
    "Content", NULL, 0, 1, ITEMS (atom03_xml_items) },
  { "/feed-parser/atom03/summary-escaped", "breadth/atom03-summary-escaped.xml", NULL, NULL,
    "Summary", NULL, 0, 1, ITEMS (atom03_summary_items) },
  { "/feed-parser/atom03/title-base64", "breadth/atom03-title-base64.xml", NULL, NULL,
    "Encoded feed title", NULL, 0, 1, ITEMS (atom03_title64_items) },
  { "/feed-parser/atom03/author-email", "breadth/atom03-author-email.xml", NULL, NULL,
    "People", NULL, 0, 1, ITEMS (atom03_email_items) },
  { "/feed-parser/atom03/relative", "breadth/atom03-relative.xml", NULL, NULL,
    "Relative", "http://atom03.example.org/blog/", 0, 1, ITEMS (atom03_relative_items) },
  { "/feed-parser/atom03/link-as-text", "breadth/atom03-link-text.xml", NULL, NULL,
    "Links written as text", NULL, 0, 2, ITEMS (atom03_link_text_items) },
  { "/feed-parser/dc/atom03", "breadth/atom03-dc-fallbacks.xml", NULL, NULL,
    "Atom 0.3 with Dublin Core", NULL, 0, 1, ITEMS (atom03_dc_items) },
  { "/feed-parser/dc/rss2", "breadth/rss2-dc-fallbacks.xml", NULL, NULL,
    "Dublin Core channel", "http://dc.example.org/", 0, 4, ITEMS (rss2_dc_items) },
  { "/feed-parser/dc/rss1", "breadth/rss1-dcterms.rdf", NULL, NULL,
    "RDF with Dublin Core", "http://rdf.example.org/", 0, 1, ITEMS (rss1_dc_items) },
  { "/feed-parser/dc/atom10", "breadth/atom10-dc-fallbacks.xml", NULL, NULL,
    "Atom with Dublin Core", NULL, 0, 2, ITEMS (atom10_dc_items) },
  { "/feed-parser/authors/rss2", "breadth/rss2-authors.xml", NULL, NULL,
    "Authors", NULL, 0, 12, ITEMS (rss2_author_items) },
  { "/feed-parser/forgiving/rss-without-channel", "breadth/rss-no-channel.xml", NULL, "http://nochannel.example.org/feed.xml",
    "nochannel.example.org", NULL, 0, 2, ITEMS (rss_no_channel_items) },
  { "/feed-parser/forgiving/empty-type", "breadth/atom10-empty-type.xml", NULL, NULL,
    "Empty type feed", NULL, 0, 1, ITEMS (atom10_empty_type_items) },
  { "/feed-parser/forgiving/xml-base", "breadth/rss2-xml-base.xml", NULL, NULL,
    "xml:base everywhere", "http://site.example.org/home/", 0, 3, ITEMS (rss2_xml_base_items) },
  { "/feed-parser/forgiving/rss2-namespace", "breadth/rss2-userland-ns.xml", NULL, NULL,
    "Userland namespace", "http://userland.example.org/", 0, 1, ITEMS (rss2_userland_items) },
  { "/feed-parser/forgiving/content-fallbacks", "breadth/rss2-content-fallbacks.xml", NULL, NULL,
    "Content fallbacks", NULL, 0, 2, ITEMS (rss2_content_items) },
  { "/feed-parser/forgiving/naked-markup", "breadth/rss2-naked-markup.xml", NULL, NULL,
    "Naked markup", NULL, 0, 1, ITEMS (rss2_naked_items) },
  { "/feed-parser/entities/html-in-rss091", "breadth/rss091-netscape-entities.xml", NULL, NULL,
    "Netscape édition", "http://netscape.example.org/", 0, 1, ITEMS (rss091_entity_items) },
  { "/feed-parser/entities/rss2", "breadth/rss2-entities.xml", NULL, NULL,
    "Entities & more", "http://entities.example.org/", 0, 2, ITEMS (rss2_entity_items) },
  { "/feed-parser/entities/atom-attributes", "breadth/atom10-entities.xml", NULL, NULL,
    "Atom entities", NULL, 0, 1, ITEMS (atom10_entity_items) },
};

static void
test_feed (gconstpointer data)
{
  const FeedCase *fc = data;
  g_autoptr (GBytes) body = load_fixture (fc->file);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("A fixture parses to the golden feed and items");

  feed = lwn_feed_parse (body, fc->content_type, fc->document_url, &error);
  g_assert_no_error (error);
  g_assert_true (feed != NULL);

  g_assert_cmpstr (lwn_feed_get_title (feed), ==, fc->title);
  g_assert_cmpstr (lwn_feed_get_link (feed), ==, fc->link);
  g_assert_cmpuint (lwn_feed_get_refresh_seconds (feed), ==, fc->refresh_seconds);
  g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, fc->n_items);

  for (guint i = 0; i < fc->n_checked; i++)
    {
      const ItemCase *ic = &fc->items[i];
      LwnFeedItem *item = lwn_feed_get_item (feed, ic->index);

      g_test_message ("item %u", ic->index);
      g_assert_cmpstr (lwn_feed_item_get_id (item), ==, ic->id);
      g_assert_cmpstr (lwn_feed_item_get_title (item), ==, ic->title);
      g_assert_cmpstr (lwn_feed_item_get_link (item), ==, ic->link);
      g_assert_cmpstr (lwn_feed_item_get_url (item), ==, ic->url);
      g_assert_cmpstr (lwn_feed_item_get_author (item), ==, ic->author);
      assert_date (lwn_feed_item_get_date (item), ic->date);
      if (ic->description == NULL)
        g_assert_true (lwn_feed_item_get_description (item) == NULL);
      else
        g_assert_true (contains (lwn_feed_item_get_description (item), ic->description));
      g_assert_cmpint (lwn_feed_item_get_paywalled (item), ==, ic->paywalled);
    }

  /* Every item of every fixture has the basics. */
  for (guint i = 0; i < lwn_feed_get_n_items (feed); i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);

      g_assert_cmpstr (lwn_feed_item_get_id (item), !=, "");
      g_assert_cmpstr (lwn_feed_item_get_title (item), !=, "");
      g_assert_true (g_utf8_validate (lwn_feed_item_get_title (item), -1, NULL));
    }
}

/* ------------------------------------------------------------------------ */
/* Bad and hostile input                                                     */

#define PARSES (-1)

typedef struct
{
  const char *path;
  const char *file;
  const char *content_type;
  int code;              /* an LwnParseError, or PARSES */
  const char *message;   /* part of the error message */
  const char *forbidden; /* must appear in no output */
  guint n_items;         /* when it PARSES */
} BadCase;

static const BadCase bad_cases[] = {
  { "/feed-parser/bad/empty", "bad/empty.xml", NULL, LWN_PARSE_ERROR_EMPTY, "The feed is empty", NULL, 0 },
  { "/feed-parser/bad/white-space", "bad/whitespace.xml", NULL, LWN_PARSE_ERROR_EMPTY, "The feed is empty", NULL, 0 },
  { "/feed-parser/bad/truncated", "bad/truncated.xml", NULL, LWN_PARSE_ERROR_MALFORMED, "XML error at line 7: ", NULL, 0 },
  { "/feed-parser/bad/mismatched-tags", "bad/mismatched.xml", NULL, LWN_PARSE_ERROR_MALFORMED,
    "XML error at line 5: Opening and ending tag mismatch", NULL, 0 },
  { "/feed-parser/bad/html-page", "bad/html-page.html", NULL, LWN_PARSE_ERROR_NOT_A_FEED, "web page", NULL, 0 },
  { "/feed-parser/bad/html-content-type", "bad/html-page.html", "text/html; charset=utf-8", LWN_PARSE_ERROR_NOT_A_FEED,
    "web page", NULL, 0 },
  { "/feed-parser/bad/xhtml-page", "bad/xhtml-page.xhtml", NULL, LWN_PARSE_ERROR_NOT_A_FEED,
    "Not an RSS or Atom feed (root element <html>)", NULL, 0 },
  { "/feed-parser/bad/plain-text", "bad/plain-text.txt", NULL, LWN_PARSE_ERROR_MALFORMED, "XML error at line 1: ", NULL, 0 },
  { "/feed-parser/bad/binary", "bad/binary.bin", NULL, LWN_PARSE_ERROR_MALFORMED, "XML error at line 1: ", NULL, 0 },
  { "/feed-parser/bad/other-root", "bad/foo-root.xml", NULL, LWN_PARSE_ERROR_NOT_A_FEED,
    "Not an RSS or Atom feed (root element <foo>)", NULL, 0 },
  { "/feed-parser/bad/rss-without-channel", "bad/rss-no-channel.xml", NULL, LWN_PARSE_ERROR_NOT_A_FEED, "<rss>", NULL, 0 },
  { "/feed-parser/bad/rdf-without-rss", "bad/rdf-not-rss.rdf", NULL, LWN_PARSE_ERROR_NOT_A_FEED, "<RDF>", NULL, 0 },
  { "/feed-parser/bad/feed-in-other-namespace", "bad/atom-wrong-ns.xml", NULL, LWN_PARSE_ERROR_NOT_A_FEED,
    "root element <feed>", NULL, 0 },
  { "/feed-parser/bad/unknown-encoding", "bad/unknown-encoding.xml", NULL, LWN_PARSE_ERROR_ENCODING,
    "x-no-such-charset", NULL, 0 },
  { "/feed-parser/bad/invalid-utf-8", "bad/invalid-utf8.xml", NULL, LWN_PARSE_ERROR_ENCODING, "line 4", NULL, 0 },
  { "/feed-parser/bad/latin-1-declared-utf-8", "charset-override.xml", NULL, LWN_PARSE_ERROR_ENCODING, "line 4", NULL, 0 },
  /* An unknown HTTP charset falls back on the declaration, which is wrong here. */
  { "/feed-parser/bad/unknown-http-charset", "charset-override.xml", "text/xml; charset=x-bogus", LWN_PARSE_ERROR_ENCODING,
    "line 4", NULL, 0 },
  { "/feed-parser/bad/json-truncated", "bad/truncated.json", NULL, LWN_PARSE_ERROR_MALFORMED, "JSON error at line 5: ", NULL, 0 },
  { "/feed-parser/bad/json-not-a-feed", "bad/not-a-json-feed.json", NULL, LWN_PARSE_ERROR_NOT_A_FEED, "JSON Feed", NULL, 0 },
  { "/feed-parser/bad/json-array", "bad/json-array.json", NULL, LWN_PARSE_ERROR_NOT_A_FEED, "JSON Feed", NULL, 0 },
  { "/feed-parser/bad/json-invalid-utf-8", "bad/invalid-utf8.json", NULL, LWN_PARSE_ERROR_ENCODING, "UTF-8", NULL, 0 },
  /* A lone surrogate ("\ud83d" without its pair) is U+FFFD: never the bytes
   * json-glib 1.6 decodes it to (not UTF-8), nor the whole feed refused as by
   * json-glib 1.10. */
  { "/feed-parser/bad/json-lone-surrogate", "bad/lone-surrogate.json", NULL, PARSES, NULL, "\xed\xa0\xbd", 2 },
  { "/feed-parser/bad/json-lone-surrogate-values", "bad/lone-surrogate-values.json", NULL, PARSES, NULL, "\xed\xa0\xbd", 1 },
  { "/feed-parser/bad/text-as-json", "bad/plain-text.txt", "application/json", LWN_PARSE_ERROR_MALFORMED,
    "JSON error at line 1: ", NULL, 0 },
  /* Entity expansion is refused while parsing, and never done afterwards. */
  { "/feed-parser/security/billion-laughs", "bad/billion-laughs.xml", NULL, LWN_PARSE_ERROR_MALFORMED,
    "entity reference loop", "lollol", 0 },
  { "/feed-parser/security/billion-laughs-in-attributes", "bad/billion-laughs-attr.xml", NULL, LWN_PARSE_ERROR_MALFORMED,
    "entity reference loop", "lollol", 0 },
  { "/feed-parser/security/entity-loop", "bad/entity-loop.xml", NULL, LWN_PARSE_ERROR_MALFORMED,
    "entity reference loop", NULL, 0 },
  /* References to an undeclared entity expand to nothing, so libxml2 2.9.14
   * does not weigh them: this one kept it busy for minutes. Not named .xml:
   * lintian's copyright check parses every .xml file of a source package
   * with such a libxml2, and would be kept as busy. */
  { "/feed-parser/security/undeclared-laughs", "bad/undeclared-laughs.rss", NULL, LWN_PARSE_ERROR_MALFORMED,
    "entity references", NULL, 0 },
  /* Once the budget refused a reference, every later one stands for nothing:
   * libxml2 looked up what a refused reference named by itself, and expanded
   * the entities inside it in parsers of their own, which kept it busy for
   * half a minute on this kilobyte. */
  { "/feed-parser/security/refused-laughs", "bad/refused-laughs.rss", NULL, LWN_PARSE_ERROR_MALFORMED,
    "entity references expand to more than", NULL, 0 },
  /* Nothing is read from the file system or the network. */
  { "/feed-parser/security/xxe-file", "bad/xxe.xml", NULL, PARSES, NULL, "root:", 1 },
  { "/feed-parser/security/external-dtd", "bad/external-dtd.xml", NULL, PARSES, NULL, "&", 1 },
  { "/feed-parser/security/parameter-entities", "bad/parameter-entity.xml", NULL, PARSES, NULL, "root:", 1 },
};

static void
test_bad (gconstpointer data)
{
  const BadCase *bc = data;
  g_autoptr (GBytes) body = load_fixture (bc->file);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("Bad or hostile input gives the expected error, or a feed with nothing injected");

  feed = lwn_feed_parse (body, bc->content_type, "https://bad.example.org/feed", &error);

  if (bc->code == PARSES)
    {
      g_assert_no_error (error);
      g_assert_true (feed != NULL);
      g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, bc->n_items);
      if (bc->forbidden != NULL)
        g_assert_true (!feed_contains (feed, bc->forbidden));
      return;
    }

  g_assert_error (error, LWN_PARSE_ERROR, bc->code);
  g_assert_true (feed == NULL);
  g_test_message ("%s", error->message);
  g_assert_true (contains (error->message, bc->message));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  if (bc->forbidden != NULL)
    g_assert_true (!contains (error->message, bc->forbidden));
}

typedef struct
{
  const char *path;
  const char *json_title; /* as the feed writes it, escapes and all */
  const char *title;      /* as lwn-tray shows it */
} SurrogateCase;

static const SurrogateCase surrogate_cases[] = {
  { "/feed-parser/json/surrogate/pair", "A \\ud83d\\ude00 b", "A \xf0\x9f\x98\x80 b" },
  { "/feed-parser/json/surrogate/lone-high", "A \\ud83d b", "A \xef\xbf\xbd b" },
  { "/feed-parser/json/surrogate/lone-low", "A \\ude00 b", "A \xef\xbf\xbd b" },
  { "/feed-parser/json/surrogate/high-high-low", "\\ud83d\\ud83d\\ude00", "\xef\xbf\xbd\xf0\x9f\x98\x80" },
  { "/feed-parser/json/surrogate/at-end", "A \\uD83D", "A \xef\xbf\xbd" },
  { "/feed-parser/json/surrogate/escaped-backslash", "A \\\\ud83d", "A \\ud83d" },
  { "/feed-parser/json/surrogate/high-then-other-escape", "\\ud83d\\u0067", "\xef\xbf\xbdg" },
};

static void
test_json_surrogate (gconstpointer data)
{
  const SurrogateCase *sc = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  g_autofree char *document = g_strdup_printf ("{\"version\": \"https://jsonfeed.org/version/1.1\",\n"
                                               " \"title\": \"T\",\n"
                                               " \"items\": [{\"id\": \"1\", \"title\": \"%s\"}]}\n",
                                               sc->json_title);

  g_test_summary ("An escaped surrogate pair is one character and a lone surrogate is U+FFFD, "
                  "whichever json-glib reads the feed");

  feed = parse_string (document, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, 1);
  g_assert_cmpstr (lwn_feed_item_get_title (lwn_feed_get_item (feed, 0)), ==, sc->title);
}

/* An entity well within libxml2's amplification limits, referenced many
 * times: expanding it would give 35 MB from a document of 32 KB. */
static void
test_quadratic_blowup (void)
{
  g_autoptr (GString) doc = g_string_new ("<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY big \"");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("Entity references that would expand far beyond the document are refused");

  for (guint i = 0; i < 1000; i++)
    g_string_append (doc, "BLOWUP ");
  g_string_append (doc, "\">]>\n<rss version=\"2.0\"><channel><title>Quadratic</title>"
                        "<item><title>Title &big;</title><description>Start ");
  for (guint i = 0; i < 5000; i++)
    g_string_append (doc, "&big;");
  g_string_append (doc, " end</description></item></channel></rss>\n");

  feed = parse_string (doc->str, NULL, &error);
  g_assert_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED);
  g_assert_true (feed == NULL);
  g_assert_true (contains (error->message, "entity references expand to more than"));
  g_assert_true (!contains (error->message, "BLOWUP"));
}

/* A listening socket on 127.0.0.1 that nothing should connect to. */
static GSocket *
listen_on_loopback (guint16 *port)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);

  g_assert_no_error (error);
  g_socket_bind (socket, address, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (socket, &error);
  g_assert_no_error (error);
  g_socket_set_blocking (socket, FALSE);

  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  return socket;
}

static void
test_no_outside_access (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GSocket) accepted = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *secret_path = NULL;
  g_autofree char *secret_url = NULL;
  guint16 port;
  /* @HTTP@ is a URL on our listener, @FILE@ the file:// URL of a secret. */
  const char *templates[] = {
    "<!DOCTYPE rss SYSTEM \"@HTTP@/rss.dtd\">"
    "<rss version=\"2.0\"><channel><title>DTD</title><item><title>T &ent;</title></item></channel></rss>",
    "<!DOCTYPE rss [<!ENTITY % pe SYSTEM \"@HTTP@/pe.dtd\"> %pe;]>"
    "<rss version=\"2.0\"><channel><title>PE</title><item><title>T</title></item></channel></rss>",
    "<!DOCTYPE rss [<!ENTITY http SYSTEM \"@HTTP@/entity\">]>"
    "<rss version=\"2.0\"><channel><title>Entity &http;</title><item><title>T &http;</title></item></channel></rss>",
    "<!DOCTYPE rss [<!ENTITY file SYSTEM \"@FILE@\">]>"
    "<rss version=\"2.0\"><channel><title>File &file;</title><item><title>T &file;</title>"
    "<description>&file;</description></item></channel></rss>",
    "<!DOCTYPE rss SYSTEM \"@FILE@\">"
    "<rss version=\"2.0\"><channel><title>File DTD</title><item><title>T</title></item></channel></rss>",
    "<rss version=\"2.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"><channel><title>XInclude</title>"
    "<item><title>T <xi:include href=\"@FILE@\" parse=\"text\"/></title>"
    "<description><xi:include href=\"@HTTP@/x\" parse=\"text\"/></description></item></channel></rss>",
  };

  g_test_summary ("External DTDs, entities and XIncludes load nothing from files or the network");

  dir = g_dir_make_tmp ("lwn-parser-XXXXXX", &error);
  g_assert_no_error (error);
  secret_path = g_build_filename (dir, "secret.txt", NULL);
  g_file_set_contents (secret_path, "SECRET-CONTENTS", -1, &error);
  g_assert_no_error (error);
  secret_url = g_filename_to_uri (secret_path, NULL, &error);
  g_assert_no_error (error);

  socket = listen_on_loopback (&port);

  for (guint i = 0; i < G_N_ELEMENTS (templates); i++)
    {
      g_autofree char *http_url = g_strdup_printf ("http://127.0.0.1:%u", port);
      g_autoptr (GString) doc = g_string_new (templates[i]);
      g_autoptr (GError) parse_error = NULL;
      g_autoptr (LwnFeed) feed = NULL;

      g_string_replace (doc, "@HTTP@", http_url, 0);
      g_string_replace (doc, "@FILE@", secret_url, 0);
      feed = parse_string (doc->str, NULL, &parse_error);

      g_test_message ("document %u: %s", i, parse_error != NULL ? parse_error->message : "parsed");
      if (feed != NULL)
        g_assert_true (!feed_contains (feed, "SECRET"));
      else
        g_assert_true (!contains (parse_error->message, "SECRET"));
    }

  accepted = g_socket_accept (socket, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_assert_true (accepted == NULL);

  g_remove (secret_path);
  g_rmdir (dir);
}

/* Every parse, good or bad, leaves stderr alone. */
static void
test_quiet (void)
{
  g_test_summary ("libxml2 never prints, whatever the input");

  if (g_test_subprocess ())
    {
      for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
        {
          g_autoptr (GBytes) body = load_fixture (bad_cases[i].file);
          g_autoptr (LwnFeed) feed = lwn_feed_parse (body, bad_cases[i].content_type, NULL, NULL);
        }
      for (guint i = 0; i < G_N_ELEMENTS (feed_cases); i++)
        {
          g_autoptr (GBytes) body = load_fixture (feed_cases[i].file);
          g_autoptr (LwnFeed) feed = lwn_feed_parse (body, feed_cases[i].content_type, NULL, NULL);
        }
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("");
  g_test_trap_assert_stderr ("");
}

static void
test_too_deep (void)
{
  g_autofree char *brackets = g_strnfill (100000, '[');
  g_autoptr (GString) elements = g_string_new ("<rss version=\"2.0\"><channel>");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) json_feed = NULL;
  g_autoptr (LwnFeed) xml_feed = NULL;

  g_test_summary ("Deeply nested JSON or XML is refused, not recursed into");

  json_feed = parse_string (brackets, NULL, &error);
  g_assert_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED);
  g_assert_true (json_feed == NULL);
  g_clear_error (&error);

  for (guint i = 0; i < 10000; i++)
    g_string_append (elements, "<x>");
  xml_feed = parse_string (elements->str, NULL, &error);
  g_assert_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED);
  g_assert_true (xml_feed == NULL);
}

/* ------------------------------------------------------------------------ */
/* Titles, refresh hints                                                     */

static void
test_feed_title_fallback (void)
{
  const char *doc = "<rss version=\"2.0\"><channel><title> \n </title><item><title>x</title></item></channel></rss>";
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) with_url = NULL;
  g_autoptr (LwnFeed) without_url = NULL;

  g_test_summary ("A feed with no title is named after its host, or “(untitled feed)”");

  with_url = parse_string (doc, "https://feeds.example.net/x.xml", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_feed_get_title (with_url), ==, "feeds.example.net");

  without_url = parse_string (doc, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_feed_get_title (without_url), ==, "(untitled feed)");
}

static void
test_untitled_item (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = parse_string ("<rss version=\"2.0\"><channel><title>F</title>"
                                           "<item><title> </title><link>https://example.org/1</link></item>"
                                           "</channel></rss>",
                                           NULL, &error);
  LwnFeedItem *item;

  g_test_summary ("An item with neither title nor description is “(untitled)”");

  g_assert_no_error (error);
  item = lwn_feed_get_item (feed, 0);
  g_assert_cmpstr (lwn_feed_item_get_title (item), ==, "(untitled)");
  g_assert_cmpstr (lwn_feed_item_get_id (item), ==, "https://example.org/1");
  g_assert_true (lwn_feed_item_get_description (item) == NULL);
}

typedef struct
{
  const char *path;
  const char *escaped_title;
  const char *expected;
} TitleCase;

static const TitleCase title_cases[] = {
  { "/feed-parser/title/angle-brackets-are-text", "The &lt;linux/cleanup.h&gt; helpers", "The <linux/cleanup.h> helpers" },
  { "/feed-parser/title/comparison-is-text", "When a &lt; b &amp;&amp; b &gt; c", "When a < b && b > c" },
  { "/feed-parser/title/inline-tags-dropped", "&lt;b&gt;Bold&lt;/b&gt; and &lt;em class=\"x\"&gt;em&lt;/em&gt;", "Bold and em" },
  { "/feed-parser/title/double-escaped-entity", "Tom &amp;amp; Jerry", "Tom & Jerry" },
  { "/feed-parser/title/bare-ampersand", "AT&amp;T news", "AT&T news" },
};

static void
test_title (gconstpointer data)
{
  const TitleCase *test = data;
  g_autofree char *doc = g_strdup_printf ("<rss version=\"2.0\"><channel><title>F</title>"
                                          "<item><title>%s</title><link>https://example.org/1</link></item>"
                                          "</channel></rss>",
                                          test->escaped_title);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("RSS titles lose HTML inline tags and double-escaped entities, but keep "
                  "other text in angle brackets");

  feed = parse_string (doc, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_feed_item_get_title (lwn_feed_get_item (feed, 0)), ==, test->expected);
}

typedef struct
{
  const char *path;
  const char *channel;
  guint refresh_seconds;
} RefreshCase;

#define SY(period, frequency) "<sy:updatePeriod>" period "</sy:updatePeriod><sy:updateFrequency>" frequency "</sy:updateFrequency>"

static const RefreshCase refresh_cases[] = {
  { "/feed-parser/refresh/none", "", 0 },
  { "/feed-parser/refresh/ttl", "<ttl>60</ttl>", 3600 },
  { "/feed-parser/refresh/ttl-zero", "<ttl>0</ttl>", 0 },
  { "/feed-parser/refresh/ttl-negative", "<ttl>-5</ttl>", 0 },
  { "/feed-parser/refresh/ttl-garbage", "<ttl>soon</ttl>", 0 },
  { "/feed-parser/refresh/ttl-spaces", "<ttl> 15 </ttl>", 900 },
  { "/feed-parser/refresh/hourly", "<sy:updatePeriod>hourly</sy:updatePeriod>", 3600 },
  { "/feed-parser/refresh/hourly-2", SY ("hourly", "2"), 1800 },
  { "/feed-parser/refresh/daily", SY ("daily", "1"), 86400 },
  { "/feed-parser/refresh/weekly", SY ("weekly", "7"), 86400 },
  { "/feed-parser/refresh/monthly", "<sy:updatePeriod> Monthly </sy:updatePeriod>", 2592000 },
  { "/feed-parser/refresh/yearly", SY ("yearly", "1"), 31536000 },
  { "/feed-parser/refresh/frequency-only", "<sy:updateFrequency>4</sy:updateFrequency>", 21600 },
  { "/feed-parser/refresh/frequency-zero", SY ("hourly", "0"), 3600 },
  { "/feed-parser/refresh/frequency-negative", SY ("hourly", "-3"), 3600 },
  { "/feed-parser/refresh/frequency-garbage", SY ("hourly", "often"), 3600 },
  { "/feed-parser/refresh/period-unknown", SY ("fortnightly", "1"), 0 },
  { "/feed-parser/refresh/ttl-above-syn", "<ttl>90</ttl>" SY ("hourly", "1"), 5400 },
  { "/feed-parser/refresh/syn-above-ttl", "<ttl>30</ttl>" SY ("hourly", "1"), 3600 },
  /* syn:updateBase says when to refresh, not how often: it is not read. */
  { "/feed-parser/refresh/base-ignored", SY ("hourly", "2") "<sy:updateBase>2000-01-01T12:00+00:00</sy:updateBase>", 1800 },
};

static void
test_refresh (gconstpointer data)
{
  const RefreshCase *rc = data;
  g_autofree char *doc = g_strdup_printf ("<rss version=\"2.0\" xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\">"
                                          "<channel><title>R</title>%s</channel></rss>",
                                          rc->channel);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = parse_string (doc, NULL, &error);

  g_test_summary ("ttl and the Syndication module give the refresh hint");

  g_assert_no_error (error);
  g_assert_cmpuint (lwn_feed_get_refresh_seconds (feed), ==, rc->refresh_seconds);
}

/* ------------------------------------------------------------------------ */
/* Size and threads                                                          */

static GBytes *
make_big_feed (guint n_items)
{
  GString *doc = g_string_new ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>"
                               "<title>Big</title><link>https://big.example.org/</link>\n");

  for (guint i = 0; i < n_items; i++)
    g_string_append_printf (doc,
                            "<item><title>Item %u</title><link>/items/%u</link>"
                            "<guid isPermaLink=\"false\">big-%u</guid>"
                            "<pubDate>Fri, 07 Jul 2023 18:15:29 GMT</pubDate>"
                            "<description>&lt;p&gt;Body of item %u&lt;/p&gt;</description></item>\n",
                            i, i, i, i);
  g_string_append (doc, "</channel></rss>\n");
  return g_string_free_to_bytes (doc);
}

static void
test_ten_thousand_items (void)
{
  g_autoptr (GBytes) body = make_big_feed (10000);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  gint64 start = g_get_monotonic_time ();
  LwnFeedItem *last;

  g_test_summary ("A feed of 10,000 items parses whole, and keeps the first 5,000 when their dates are alike: "
                  "feeds list their newest first");

  feed = lwn_feed_parse (body, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("parsed %" G_GSIZE_FORMAT " bytes in %.1f ms", g_bytes_get_size (body),
                  (g_get_monotonic_time () - start) / 1000.0);

  g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, LWN_FEED_MAX_ITEMS);
  g_assert_cmpstr (lwn_feed_item_get_id (lwn_feed_get_item (feed, 0)), ==, "big-0");
  last = lwn_feed_get_item (feed, LWN_FEED_MAX_ITEMS - 1);
  g_assert_cmpstr (lwn_feed_item_get_id (last), ==, "big-4999");
  g_assert_cmpstr (lwn_feed_item_get_title (last), ==, "Item 4999");
  g_assert_cmpstr (lwn_feed_item_get_url (last), ==, "https://big.example.org/items/4999");
  g_assert_cmpstr (lwn_feed_item_get_description (last), ==, "<p>Body of item 4999</p>");
}

static void
test_newest_kept (void)
{
  GString *doc = g_string_new ("<rss version=\"2.0\"><channel><title>Oldest first</title>");
  g_autoptr (GBytes) body = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  guint n_items = LWN_FEED_MAX_ITEMS + 1500;

  g_test_summary ("A feed of more items than are kept keeps its newest by date, also when it lists them oldest "
                  "first, and an undated item only after every dated one; those kept stay in document order");

  /* One undated item first, then items a minute apart, the oldest first. */
  g_string_append (doc, "<item><title>Undated</title><guid>undated</guid></item>");
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (GDateTime) date = g_date_time_new_utc (2023, 7, 1, 0, 0, 0);
      g_autoptr (GDateTime) when = g_date_time_add_minutes (date, (int) i);
      g_autofree char *text = g_date_time_format (when, "%a, %d %b %Y %H:%M:%S GMT");

      g_string_append_printf (doc, "<item><title>Item %u</title><guid>item-%u</guid><pubDate>%s</pubDate></item>", i,
                              i, text);
    }
  g_string_append (doc, "</channel></rss>");
  body = g_string_free_to_bytes (doc);

  feed = lwn_feed_parse (body, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, LWN_FEED_MAX_ITEMS);
  g_assert_cmpstr (lwn_feed_item_get_id (lwn_feed_get_item (feed, 0)), ==, "item-1500");
  g_assert_cmpstr (lwn_feed_item_get_id (lwn_feed_get_item (feed, LWN_FEED_MAX_ITEMS - 1)), ==, "item-6499");
}

static gpointer
parse_repeatedly_thread (gpointer data)
{
  GBytes *good = load_fixture ("lwn-headlines-2023-07.rdf");
  GBytes *bad = load_fixture ("bad/truncated.xml");
  guint failures = 0;

  for (guint i = 0; i < 25; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LwnFeed) feed = lwn_feed_parse (good, NULL, NULL, &error);
      g_autoptr (LwnFeed) none = NULL;

      if (feed == NULL || lwn_feed_get_n_items (feed) != 15)
        failures++;
      none = lwn_feed_parse (bad, NULL, NULL, &error);
      if (none != NULL || !g_error_matches (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED) || strstr (error->message, "line 7") == NULL)
        failures++;
    }

  g_bytes_unref (good);
  g_bytes_unref (bad);
  return GUINT_TO_POINTER (failures);
}

static void
test_error_domain (void)
{
  g_test_summary ("The error domain has the conventional name");

  g_assert_cmpstr (g_quark_to_string (LWN_PARSE_ERROR), ==, "lwn-parse-error-quark");
}

static void
test_threads (void)
{
  GThread *threads[4];

  g_test_summary ("Several threads parse at once, each getting its own errors");

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("parse", parse_repeatedly_thread, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (threads[i])), ==, 0);
}

/* The namespaces Atom went by in its drafts, before and as 0.3. */
static const char *const atom03_namespaces[] = {
  "http://purl.org/atom/ns#",
  "http://purl.org/echo/",
  "http://purl.org/pie/",
  "http://example.com/necho",
  "http://example.com/newformat#",
};

static void
test_atom03_namespace (gconstpointer data)
{
  g_autofree char *doc = g_strdup_printf ("<feed version=\"0.3\" xmlns=\"%s\"><title>Example Atom</title>"
                                          "<entry><title>Entry</title><id>tag:ns.example.org,2004:1</id>"
                                          "<issued>2004-01-01T00:00:00Z</issued></entry></feed>",
                                          (const char *) data);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("Atom 0.3 feeds in the namespaces of Atom's drafts are read");

  feed = parse_string (doc, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_feed_get_title (feed), ==, "Example Atom");
  g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, 1);
  g_assert_cmpstr (lwn_feed_item_get_id (lwn_feed_get_item (feed, 0)), ==, "tag:ns.example.org,2004:1");
  g_assert_true (lwn_feed_item_get_date (lwn_feed_get_item (feed, 0)) != NULL);
}

/* The description is HTML to be converted later; what the document escaped
 * must reach that step whole, even where it is not valid HTML. */
static void
test_escaped_summary (void)
{
  g_autoptr (GBytes) body = load_fixture ("breadth/rss2-escaped-summary.xml");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) feed = NULL;

  g_test_summary ("An escaped description reaches the item character for character");

  feed = lwn_feed_parse (body, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lwn_feed_item_get_description (lwn_feed_get_item (feed, 0)), ==, "<!' <a href=\"foo\">");
}

/* An RSS 2.0 description that begins "<!'" is no doctype: its text stays
 * text from the document to what the menu shows, escaped or in CDATA
 * (feedparser's item_description_not_a_doctype and …doctype2). */
static const char *const not_a_doctype_documents[] = {
  "<rss version=\"2.0\"><channel><item><description>&lt;!' &lt;a href=\"foo\"&gt;</description></item></channel></rss>",
  "<rss version=\"2.0\"><channel><item><description><![CDATA[<!' <a href=\"foo\">]]></description></item></channel></rss>",
};

static void
test_not_a_doctype (void)
{
  g_test_summary ("A description that begins <!' is kept and shown as text, not taken for a doctype");

  for (guint i = 0; i < G_N_ELEMENTS (not_a_doctype_documents); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LwnFeed) feed = parse_string (not_a_doctype_documents[i], NULL, &error);
      g_autofree char *text = NULL;
      const char *description;

      g_assert_no_error (error);
      g_assert_cmpuint (lwn_feed_get_n_items (feed), ==, 1);
      description = lwn_feed_item_get_description (lwn_feed_get_item (feed, 0));
      g_assert_cmpstr (description, ==, "<!' <a href=\"foo\">");
      text = lwn_text_from_html (description, 0);
      g_assert_cmpstr (text, ==, "<!'");
    }
}

static char *
shared_items_feed (const char *title_2,
                   const char *summary_3,
                   const char *date_4)
{
  return g_strdup_printf ("<rss version=\"2.0\"><channel><title>T</title>"
                          "<item><title>One</title><guid>1</guid><description>&lt;p&gt;First&lt;/p&gt;</description></item>"
                          "<item><title>%s</title><guid>2</guid><description>Second</description></item>"
                          "<item><title>Three</title><guid>3</guid><description>%s</description></item>"
                          "<item><title>Four</title><guid>4</guid><pubDate>%s</pubDate></item>"
                          "<item><title>One again</title><guid>1</guid></item>"
                          "</channel></rss>",
                          title_2, summary_3, date_4);
}

static void
test_prepare_shares_unchanged (void)
{
  g_autofree char *first_text = shared_items_feed ("Two", "Third", "Mon, 03 Jul 2023 10:00:00 +0000");
  g_autofree char *second_text = shared_items_feed ("Two, corrected", "Third, longer", "Mon, 03 Jul 2023 11:00:00 +0000");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFeed) first = parse_string (first_text, NULL, &error);
  g_autoptr (LwnFeed) same = NULL;
  g_autoptr (LwnFeed) second = NULL;

  g_test_summary ("Preparing a feed takes every item the feed shown before holds unchanged, with its text, "
                  "and no item whose title, description or date changed");

  g_assert_no_error (error);
  lwn_feed_prepare_display (first, NULL);

  same = parse_string (first_text, NULL, &error);
  g_assert_no_error (error);
  lwn_feed_prepare_display (same, first);
  for (guint i = 0; i < 4; i++)
    g_assert_true (lwn_feed_get_item (same, i) == lwn_feed_get_item (first, i));
  /* A repeated id is compared with the first item of that id: this one differs. */
  g_assert_true (lwn_feed_get_item (same, 4) != lwn_feed_get_item (first, 0));

  second = parse_string (second_text, NULL, &error);
  g_assert_no_error (error);
  lwn_feed_prepare_display (second, first);
  g_assert_true (lwn_feed_get_item (second, 0) == lwn_feed_get_item (first, 0));
  for (guint i = 1; i < 4; i++)
    g_assert_true (lwn_feed_get_item (second, i) != lwn_feed_get_item (first, i));
  g_assert_cmpstr (lwn_feed_item_get_title (lwn_feed_get_item (second, 1)), ==, "Two, corrected");
  g_assert_cmpstr (lwn_feed_item_get_summary (lwn_feed_get_item (second, 2)), ==, "Third, longer");
  g_assert_cmpstr (lwn_feed_item_get_summary (lwn_feed_get_item (second, 0)), ==, "First");

  /* The feed shown before can go: the new one holds its own references. */
  g_clear_pointer (&first, lwn_feed_unref);
  g_clear_pointer (&same, lwn_feed_unref);
  g_assert_cmpstr (lwn_feed_item_get_summary_markup (lwn_feed_get_item (second, 0)), ==, "First");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (feed_cases); i++)
    g_test_add_data_func (feed_cases[i].path, &feed_cases[i], test_feed);
  for (guint i = 0; i < G_N_ELEMENTS (breadth_cases); i++)
    g_test_add_data_func (breadth_cases[i].path, &breadth_cases[i], test_feed);
  g_test_add_func ("/feed-parser/summary/escaped-markup-kept", test_escaped_summary);
  g_test_add_func ("/feed-parser/summary/not-a-doctype", test_not_a_doctype);
  for (guint i = 0; i < G_N_ELEMENTS (atom03_namespaces); i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed-parser/atom03/namespace/%u", i);

      g_test_add_data_func (path, atom03_namespaces[i], test_atom03_namespace);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    g_test_add_data_func (bad_cases[i].path, &bad_cases[i], test_bad);
  for (guint i = 0; i < G_N_ELEMENTS (refresh_cases); i++)
    g_test_add_data_func (refresh_cases[i].path, &refresh_cases[i], test_refresh);

  for (guint i = 0; i < G_N_ELEMENTS (surrogate_cases); i++)
    g_test_add_data_func (surrogate_cases[i].path, &surrogate_cases[i], test_json_surrogate);
  g_test_add_func ("/feed-parser/security/quadratic-blowup", test_quadratic_blowup);
  g_test_add_func ("/feed-parser/security/no-outside-access", test_no_outside_access);
  g_test_add_func ("/feed-parser/security/too-deep", test_too_deep);
  g_test_add_func ("/feed-parser/security/quiet", test_quiet);
  g_test_add_func ("/feed-parser/title/feed-fallback", test_feed_title_fallback);
  g_test_add_func ("/feed-parser/title/untitled-item", test_untitled_item);
  g_test_add_func ("/feed-parser/prepare/shares-unchanged", test_prepare_shares_unchanged);
  for (gsize i = 0; i < G_N_ELEMENTS (title_cases); i++)
    g_test_add_data_func (title_cases[i].path, &title_cases[i], test_title);
  g_test_add_func ("/feed-parser/size/10000-items", test_ten_thousand_items);
  g_test_add_func ("/feed-parser/size/newest-kept", test_newest_kept);
  g_test_add_func ("/feed-parser/threads", test_threads);
  g_test_add_func ("/feed-parser/error-domain", test_error_domain);

  return g_test_run ();
}
