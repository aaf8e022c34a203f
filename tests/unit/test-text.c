/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden-table tests for lwn-text: HTML to plain text and to label markup, ellipsizing, control stripping and escaping. */

#include "config.h"

#include <string.h>

#include "fuzz/label-markup.h"
#include "lwn-feed-parser.h"
#include "lwn-text.h"

typedef char *(*TextFunc) (const char *text);

typedef struct
{
  const char *name;
  const char *input;
  gsize max_chars;
  const char *expected;
} TextCase;

/* The first item of tests/data/lwn-headlines-2023-07.rdf as its <description>
 * reads once the XML layer has turned &lt; and &quot; back into markup. */
#define LWN_GOING_ROGUE                                                                 \
  "\n      After an initial foray into the ways that open-source software has failed\n" \
  "to live up to its early hype,\n"                                                     \
  "<a href=\"https://www.filfre.net/2023/07/going-rogue/\">this Digital\n"              \
  "Antiquarian article</a> covers the history of rogue-like games in great\n"           \
  "detail.\n"                                                                           \
  "<p>\n"                                                                               \
  "<blockquote class=\"bq\">\n"                                                         \
  "\tThis brings us back around to a statement I made at the outset:\n"                 \
  "\tthat roguelikes are the exception that proves the rule of\n"                       \
  "\topen-source game development \xe2\x80\x94 and just possibly of open-source\n"      \
  "\tsoftware development in general.\n"                                                \
  "</blockquote>\n"                                                                     \
  "      \n      "

#define LWN_GOING_ROGUE_TEXT                                                                                                                             \
  "After an initial foray into the ways that open-source software has failed to live up to its early hype, this Digital Antiquarian article covers the " \
  "history of rogue-like games in great detail.\n"                                                                                                       \
  "This brings us back around to a statement I made at the outset: that roguelikes are the exception that proves the rule of open-source game "          \
  "development \xe2\x80\x94 and just possibly of open-source software development in general."

static const TextCase from_html_cases[] = {
  { "entity/amp", "Tom &amp; Jerry", 0, "Tom & Jerry" },
  { "entity/lt-gt", "&lt;b&gt; is bold", 0, "<b> is bold" },
  { "entity/decimal", "before &#8212; after", 0, "before \xe2\x80\x94 after" },
  { "entity/hex", "x&#x2026;", 0, "x\xe2\x80\xa6" },
  { "entity/nbsp", "Fedora&nbsp;40&nbsp;&nbsp; change", 0, "Fedora 40 change" },
  { "entity/quot-apos", "&quot;quoted&quot; &#39;single&#39;", 0, "\"quoted\" 'single'" },
  { "entity/unknown", "AT&T &bogus; R&D", 0, "AT&T &bogus; R&D" },
  { "entity/control", "a&#27;[31mb&#155;c", 0, "a[31mbc" },
  { "drop/script", "<script>alert(1)</script>Hello <script type=\"text/javascript\">x()</script>world", 0, "Hello world" },
  { "drop/style", "<style>p { color: red }</style><p>Styled</p>", 0, "Styled" },
  { "drop/head", "<html><head><title>Page title</title><style>p{}</style></head><body><p>Body</p></body></html>", 0, "Body" },
  { "drop/noscript-template", "a<noscript>enable JS</noscript> b<template><p>t</p></template> c", 0, "a b c" },
  { "drop/comment", "one<!-- hidden -->two", 0, "onetwo" },
  { "break/br", "one<br>two<br/>three", 0, "one\ntwo\nthree" },
  { "break/p", "<p>one</p><p>two</p>", 0, "one\ntwo" },
  { "break/blank-lines", "<p>one</p><p></p><br><br><div><p>two</p></div><hr>", 0, "one\ntwo" },
  { "break/list", "Items:<ul><li>first</li><li>second</li></ul>done", 0, "Items:\nfirst\nsecond\ndone" },
  { "break/heading", "<h2>Title</h2>Text", 0, "Title\nText" },
  { "break/table", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", 0, "a b\nc" },
  { "break/pre", "<pre>line 1\n   line  2</pre>after", 0, "line 1\nline 2\nafter" },
  { "inline/img-alt", "a<img src=\"x.png\" alt=\"logo\">b<img src=\"y.png\">c", 0, "a logo b c" },
  { "inline/q", "<q>quoted</q>", 0, "\xe2\x80\x9cquoted\xe2\x80\x9d" },
  { "break/quote-list", "<blockquote>said</blockquote><ol><li>one</li></ol>", 0, "said\none" },
  { "space/collapse", "  lots \t of\n\n   space  ", 0, "lots of space" },
  { "space/inline", "a<b>b</b> <i>c</i>", 0, "ab c" },
  { "space/inside-block", "<p>\n  padded  \n</p>", 0, "padded" },
  { "lwn/going-rogue", LWN_GOING_ROGUE, 0, LWN_GOING_ROGUE_TEXT },
  { "lwn/security-updates",
    "Security updates have been issued by <b>Debian</b> (libusrsctp, nsis), <b>Fedora</b> (firefox), and <b>SUSE</b> (bind).\n\n      \n      ",
    0, "Security updates have been issued by Debian (libusrsctp, nsis), Fedora (firefox), and SUSE (bind)." },
  { "lwn/nbsp-link", "The Fedora project is considering <a\nhref=\"https://lwn.net/ml/fedora-devel/x@y/\">a\nFedora&nbsp;40 change proposal</a> to add telemetry.",
    0, "The Fedora project is considering a Fedora 40 change proposal to add telemetry." },
  { "lwn/ellipsized", LWN_GOING_ROGUE, 60, "After an initial foray into the ways that open-source\xe2\x80\xa6" },
  { "plain/no-tags", "Plain text, with no tags at all.", 0, "Plain text, with no tags at all." },
  { "plain/newlines", "first line\nsecond line\r\nthird", 0, "first line second line third" },
  { "malformed/stray-lt-amp", "a < b & c <p", 0, "a < b & c" },
  { "malformed/unclosed", "<p>open <b>bold <i>both", 0, "open bold both" },
  { "malformed/lone-lt", "1 <2 and 3<", 0, "1 <2 and 3<" },
  { "malformed/bogus-comment", "<!' <a href=\"foo\">", 0, "" },
  { "malformed/bogus-comment-inside", "before <!' <a href=\"foo\">after", 0, "before after" },
  { "malformed/bogus-comment-unclosed", "before <!' after", 0, "before" },
  { "malformed/end-tag-space", "a </ x> b", 0, "a b" },
  { "malformed/question-mark", "a <? x > b", 0, "a b" },
  { "malformed/cdata", "a <![CDATA[x]]> b", 0, "a b" },
  { "controls/esc", "a\x1b[31mred\x1b[0m", 0, "a[31mred[0m" },
  { "controls/c1", "x\xc2\x9by\xc2\x85z", 0, "xyz" },
  { "controls/nul-entity", "a&#0;b", 0, "ab" },
  { "utf8/invalid", "caf\xc3 ok\xff", 0, "caf\xef\xbf\xbd ok\xef\xbf\xbd" },
  { "utf8/meta-charset-ignored", "<meta charset=\"iso-8859-1\">caf\xc3\xa9", 0, "caf\xc3\xa9" },
  { "empty/string", "", 0, "" },
  { "empty/white-space", "  \n\t ", 0, "" },
  { "empty/tags-only", "<p></p><br><div> </div>", 0, "" },
  { "empty/script-only", "<script>x()</script>", 20, "" },
  { "limit/fits", "<p>short</p>", 10, "short" },
  { "limit/word", "<p>The quick brown fox</p>", 12, "The quick\xe2\x80\xa6" },
};

static const TextCase collapse_cases[] = {
  { "ascii", "  a \t b\n\nc  ", 0, "a b c" },
  { "nbsp", "a\xc2\xa0\xc2\xa0"
            "b",
    0, "a b" },
  { "unicode-spaces", "a\xe2\x80\x83"
                      "b\xe2\x80\xa8"
                      "c\xe3\x80\x80"
                      "d",
    0, "a b c d" },
  { "unchanged", "one two", 0, "one two" },
  { "multibyte", " caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac ", 0, "caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac" },
  { "invalid", "a\xff  b", 0, "a\xef\xbf\xbd b" },
  { "empty", "", 0, "" },
  { "only-space", " \n\t\xc2\xa0", 0, "" },
};

static const TextCase strip_cases[] = {
  { "esc", "\x1b[31mred\x1b[0m", 0, "[31mred[0m" },
  { "c1-csi", "a\xc2\x9b"
              "31mb",
    0, "a31mb" },
  { "c1-range", "\xc2\x80x\xc2\x9f", 0, "x" },
  { "tab-newline", "tab\there\nnew\rline", 0, "tabherenewline" },
  { "del", "del\x7f", 0, "del" },
  { "c0-all", "\x01\x02\x07\x08\x0b\x0c\x1f", 0, "" },
  { "printable-kept", "ok \xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5 \xc2\xa0!", 0, "ok \xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5 \xc2\xa0!" },
  { "invalid", "a\xff"
               "b\xc3",
    0, "a\xef\xbf\xbd"
       "b\xef\xbf\xbd" },
  { "overlong-esc", "x\xc0\x9b"
                    "y",
    0, "x\xef\xbf\xbd\xef\xbf\xbdy" },
  { "empty", "", 0, "" },
};

static const TextCase ellipsize_cases[] = {
  { "fits", "short", 10, "short" },
  { "exact", "exactly10!", 10, "exactly10!" },
  { "no-limit", "The quick brown fox jumps over the lazy dog", 0, "The quick brown fox jumps over the lazy dog" },
  { "word-boundary", "The quick brown fox jumps", 12, "The quick\xe2\x80\xa6" },
  { "boundary-at-cut", "abcd efgh", 6, "abcd\xe2\x80\xa6" },
  { "trailing-punctuation", "Hello, world and more", 8, "Hello\xe2\x80\xa6" },
  { "trailing-colon", "Note: something long here", 7, "Note\xe2\x80\xa6" },
  { "long-word", "Supercalifragilistic", 10, "Supercali\xe2\x80\xa6" },
  { "far-boundary", "a bcdefghijklmnop", 10, "a bcdefgh\xe2\x80\xa6" },
  { "one-char", "abc", 1, "\xe2\x80\xa6" },
  { "two-chars", "abc", 2, "a\xe2\x80\xa6" },
  { "utf8/e-acute", "caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9"
                    "e",
    9, "caf\xc3\xa9 cr\xc3\xa8\xe2\x80\xa6" },
  { "utf8/e-acute-at-cut", "caf\xc3\xa9\xc3\xa9\xc3\xa9", 5, "caf\xc3\xa9\xe2\x80\xa6" },
  { "utf8/em-dash", "a\xe2\x80\x94"
                    "b\xe2\x80\x94"
                    "c\xe2\x80\x94"
                    "d",
    6, "a\xe2\x80\x94"
       "b\xe2\x80\x94"
       "c\xe2\x80\xa6" },
  { "utf8/em-dash-trailing", "a\xe2\x80\x94"
                             "b\xe2\x80\x94"
                             "c\xe2\x80\x94"
                             "d",
    5, "a\xe2\x80\x94"
       "b\xe2\x80\xa6" },
  { "utf8/cjk", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88", 5,
    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe2\x80\xa6" },
  { "utf8/emoji", "ok \xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 5, "ok \xf0\x9f\x98\x80\xe2\x80\xa6" },
  { "utf8/zwj-sequence", "x\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 family", 4, "x\xe2\x80\xa6" },
  { "utf8/combining", "e\xcc\x81"
                      "e\xcc\x81"
                      "e\xcc\x81",
    4, "e\xcc\x81\xe2\x80\xa6" },
  { "utf8/invalid", "ab\xff"
                    "cd",
    10, "ab\xef\xbf\xbd"
        "cd" },
  { "empty", "", 5, "" },
};

static const TextCase markup_cases[] = {
  { "all-specials", "<b>&'\"", 0, "&lt;b&gt;&amp;&apos;&quot;" },
  { "sentence", "Tom & Jerry <3", 0, "Tom &amp; Jerry &lt;3" },
  { "already-escaped", "&amp;", 0, "&amp;amp;" },
  { "plain", "caf\xc3\xa9 \xe2\x80\x94 ok", 0, "caf\xc3\xa9 \xe2\x80\x94 ok" },
  { "invalid", "a\xff", 0, "a\xef\xbf\xbd" },
  { "empty", "", 0, "" },
};

static const TextCase mnemonic_cases[] = {
  { "single", "_foo_bar", 0, "__foo__bar" },
  { "double", "a__b", 0, "a____b" },
  { "none", "no underscores", 0, "no underscores" },
  { "multibyte", "\xc3\xa9_\xe6\x97\xa5", 0, "\xc3\xa9__\xe6\x97\xa5" },
  { "invalid", "_\xff", 0, "__\xef\xbf\xbd" },
  { "empty", "", 0, "" },
};

typedef struct
{
  const char *name;
  const char *input;
  const char *base_url;
  const char *expected;
} MarkupCase;

#define BULLET "\xe2\x80\xa2 "
#define BULLET_2 "\xe2\x97\xa6 "
#define INDENT "\xe2\x80\x83"
#define QUOTE "\xe2\x96\x8e "
#define REPLACEMENT "\xef\xbf\xbd"
#define LWN_BASE "https://lwn.net/headlines/rss"

static const MarkupCase markup_html_cases[] = {
  { "block/paragraphs", "<p>one</p><p>two</p>", NULL, "one\n\ntwo" },
  { "block/br", "one<br>two<br><br>three<br><br><br>four", NULL, "one\ntwo\n\nthree\n\nfour" },
  { "block/div", "<div>one</div><div>two</div>three", NULL, "one\ntwo\nthree" },
  { "block/heading", "<h2>Title</h2>Text", NULL, "<b>Title</b>\n\nText" },
  { "block/blank-lines", "<p>one</p><p></p><br><br><div><p>two</p></div><hr>", NULL, "one\n\ntwo" },
  { "block/leading-trailing", "<br><p> </p>\n  text  \n<p></p><br>", NULL, "text" },
  { "block/table", "<table><tr><th>h</th><td>a</td></tr><tr><td>c</td></tr></table>", NULL, "<b>h</b> a\nc" },
  { "block/dl", "<dl><dt>term</dt><dd>definition</dd></dl>", NULL, "term\n" INDENT "definition" },
  { "style/emphasis", "<b>b</b> <strong>s</strong>, <i>i</i> <em>e</em> <cite>c</cite>", NULL, "<b>b s</b>, <i>i e c</i>" },
  { "style/nested", "<b>bold <i>both</i></b> <i>it <b>both</b></i>", NULL, "<b>bold <i>both</i></b> <i>it <b>both</b></i>" },
  { "style/redundant", "<b><strong><b>x</b></strong></b>", NULL, "<b>x</b>" },
  { "style/code", "<code>a &lt; b</code>, <kbd>Ctrl</kbd>, <samp>out</samp>, <tt>tt</tt>", NULL, "<tt>a &lt; b</tt>, <tt>Ctrl</tt>, <tt>out</tt>, <tt>tt</tt>" },
  { "style/adjacent", "<b>one</b> <b>two</b> <i>three</i>", NULL, "<b>one two</b> <i>three</i>" },
  { "style/strike-sub-sup", "<del>old</del> H<sub>2</sub>O x<sup>2</sup>", NULL, "<s>old</s> H<sub>2</sub>O x<sup>2</sup>" },
  { "style/space-outside", "a<b> b </b>c", NULL, "a <b>b</b> c" },
  { "pre/spaces", "<pre>  int x;\n    return  x;</pre>after", NULL, "<tt>  int x;</tt>\n<tt>    return  x;</tt>\n\nafter" },
  { "pre/blank-lines", "<pre>a\n\n\n\nb</pre>", NULL, "<tt>a</tt>\n\n<tt>b</tt>" },
  { "pre/white-space-lines", "<p>a</p><pre>  \n\t\nx  \n   </pre><p>b</p>", NULL, "a\n\n<tt>x</tt>\n\nb" },
  { "pre/in-list", "<ul><li><pre>a\n b</pre></li></ul>", NULL, BULLET "<tt>a</tt>\n" INDENT "<tt> b</tt>" },
  { "list/bullets", "Items:<ul><li>first</li><li>second</li></ul>done", NULL, "Items:\n\n" BULLET "first\n" BULLET "second\n\ndone" },
  { "list/ordered", "<ol><li>one</li><li>two</li></ol>", NULL, "1. one\n2. two" },
  { "list/start", "<ol start=\"9\"><li>nine</li><li>ten</li></ol>", NULL, "9. nine\n10. ten" },
  { "list/bad-start", "<ol start=\"x\"><li>one</li></ol><ol start=\"-99999999999\"><li>low</li></ol>", NULL, "1. one\n\n-999999999. low" },
  { "list/nested", "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>", NULL, BULLET "a\n" INDENT BULLET_2 "b\n" BULLET "c" },
  { "list/paragraphs", "<ul><li><p>a</p><p>more</p></li></ul>", NULL, BULLET "a\n\n" INDENT "more" },
  { "list/empty-item", "<ul><li></li><li>x</li></ul>", NULL, BULLET "x" },
  { "list/bold-item", "<ul><li><b>bold</b> rest</li></ul>", NULL, BULLET "<b>bold</b> rest" },
  { "quote/paragraphs", "<p>He said:</p><blockquote><p>one</p><p>two</p></blockquote><p>after</p>", NULL,
    "He said:\n\n" QUOTE "one\n\n" QUOTE "two\n\nafter" },
  { "quote/list", "<blockquote><ul><li>x</li></ul></blockquote>", NULL, QUOTE BULLET "x" },
  { "quote/inline", "<q>quoted</q>", NULL, "\xe2\x80\x9cquoted\xe2\x80\x9d" },
  { "space/collapse", "  lots \t of\n\n   space  ", NULL, "lots of space" },
  { "space/nbsp", "Fedora&nbsp;40 &nbsp; change", NULL, "Fedora\xc2\xa0"
                                                        "40\xc2\xa0"
                                                        "change" },
  { "image/alt", "<img src=\"x.png\" alt=\"A &lt;b&gt; logo\">text", NULL, "A &lt;b&gt; logo text" },
  { "image/no-alt", "a<img src=\"x.png\">b", NULL, "a b" },
  { "image/in-link", "<a href=\"https://x.org/\"><img alt=\"logo\"></a>", NULL, "<a href=\"https://x.org/\">logo</a>" },
  { "drop/active-content", "<script>alert(1)</script><style>p{}</style><iframe src=\"x\">frame</iframe><object>obj</object>Hello", NULL, "Hello" },
  { "drop/comment", "one<!-- <b>hidden</b> -->two", NULL, "onetwo" },
  { "link/http", "<a href=\"https://example.com/a?b=1&amp;c=2\">x</a>", NULL, "<a href=\"https://example.com/a?b=1&amp;c=2\">x</a>" },
  { "link/lwn-rss", "<a href=\"https://lwn.net/Articles/826124/rss\">article</a>", NULL, "<a href=\"https://lwn.net/Articles/826124/\">article</a>" },
  { "link/relative", "<a href=\"/Articles/826124/rss\">article</a>", LWN_BASE, "<a href=\"https://lwn.net/Articles/826124/\">article</a>" },
  { "link/relative-no-base", "<a href=\"/Articles/826124/\">article</a>", NULL, "article" },
  { "link/styles-inside", "<a href=\"https://x.org/\">plain <b>bold</b></a>", NULL, "<a href=\"https://x.org/\">plain <b>bold</b></a>" },
  { "link/spaces-outside", "see <a href=\"https://x.org/\"> the site </a>.", NULL, "see <a href=\"https://x.org/\">the site</a> ." },
  { "link/empty", "<a href=\"https://x.org/\"></a>after", NULL, "after" },
  { "link/no-href", "<a name=\"x\">anchor</a>", NULL, "anchor" },
  { "link/two-lines", "<a href=\"https://x.org/\">one<br>two</a>", NULL, "<a href=\"https://x.org/\">one</a>\n<a href=\"https://x.org/\">two</a>" },
  { "hostile/javascript", "<a href=\"javascript:alert(1)\">click</a>", NULL, "click" },
  { "hostile/javascript-tab", "<a href=\"java&#9;script:alert(1)\">click</a>", LWN_BASE, "click" },
  { "hostile/javascript-entity", "<a href=\"&#106;avascript:alert(1)\">click</a>", LWN_BASE, "click" },
  { "hostile/data-file-mailto", "<a href=\"data:text/html,<b>x</b>\">d</a> <a href=\"file:///etc/passwd\">f</a> <a href=\"mailto:a@b.c\">m</a>", NULL, "d f m" },
  { "hostile/nested-links", "<a href=\"https://a.org/\">one <a href=\"https://b.org/\">two</a> three</a>", NULL,
    "<a href=\"https://a.org/\">one</a> <a href=\"https://b.org/\">two</a> three" },
  { "hostile/nested-link-in-block", "<a href=\"https://a.org/\"><div><a href=\"https://b.org/\">in</a></div></a>", NULL, "<a href=\"https://a.org/\">in</a>" },
  { "hostile/href-quotes", "<a href='https://x.org/\"onclick=\"x'>q</a>", NULL, "<a href=\"https://x.org/&quot;onclick=&quot;x\">q</a>" },
  { "hostile/extra-attributes", "<a href=\"https://x.org/\" title=\"t\" onclick=\"x()\" class=\"c\">t</a>", NULL, "<a href=\"https://x.org/\">t</a>" },
  { "hostile/escaped-markup", "&lt;span foreground=\"red\"&gt;x&lt;/span&gt; &lt;a href=\"https://x.org/\"&gt;", NULL,
    "&lt;span foreground=&quot;red&quot;&gt;x&lt;/span&gt; &lt;a href=&quot;https://x.org/&quot;&gt;" },
  { "hostile/pango-tags", "<span foreground=\"red\" size=\"100000\">s</span><big>b</big><u>u</u><markup>m</markup>", NULL, "sbum" },
  { "hostile/unclosed", "<p>open <b>bold <i>both", NULL, "open <b>bold <i>both</i></b>" },
  { "hostile/unclosed-link", "<a href=\"https://x.org/\">open", NULL, "<a href=\"https://x.org/\">open</a>" },
  { "hostile/stray-end-tags", "</b></i></a>text</p></blockquote>", NULL, "text" },
  { "hostile/entities", "&amp;lt; &#60; &#x3C;b&#x3E; &bogus; &quot;&#39; &#128512;", NULL, "&amp;lt; &lt; &lt;b&gt; &amp;bogus; &quot;&apos; \xf0\x9f\x98\x80" },
  { "hostile/bad-entities", "a&#0;b&#xD800;c&#x110000;d&#27;e&#155;f", NULL, "abcdef" },
  { "hostile/invalid-utf8", "caf\xc3 ok\xff <b>\xc0\xaf</b>", NULL, "caf" REPLACEMENT " ok" REPLACEMENT " <b>" REPLACEMENT REPLACEMENT "</b>" },
  { "hostile/controls", "a\x1b[31mb\x07<b>\x01</b>c", NULL, "a[31mbc" },
  { "hostile/bogus-comment", "<!' <a href=\"foo\">", NULL, "" },
  { "hostile/bogus-comment-inside", "before <!' <a href=\"https://x.org/\">after", NULL, "before after" },
  { "hostile/cdata", "<![CDATA[<b>x</b>]]>y", NULL, "x]]&gt;y" },
  { "hostile/comment-ends", "a <!--> b <!---> c <!-- x --!> d <!-- unclosed", NULL, "a b c d" },
  { "hostile/attribute-gt", "<img alt=\"a > b <!x>\">", NULL, "a &gt; b &lt;!x&gt;" },
  { "hostile/script-comment", "<script><!--</script>visible-->", NULL, "visible--&gt;" },
  { "lwn/going-rogue", LWN_GOING_ROGUE, LWN_BASE,
    "After an initial foray into the ways that open-source software has failed to live up to its early hype, "
    "<a href=\"https://www.filfre.net/2023/07/going-rogue/\">this Digital Antiquarian article</a> covers the history of rogue-like games in great detail.\n\n" QUOTE
    "This brings us back around to a statement I made at the outset: that roguelikes are the exception that proves the rule of open-source game "
    "development \xe2\x80\x94 and just possibly of open-source software development in general." },
  { "empty/string", "", NULL, "" },
  { "empty/tags-only", "<p></p><br><div> </div><b></b>", NULL, "" },
};

static void
assert_label_markup (const char *markup)
{
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (markup);
  if (!lwn_label_markup_check (markup, &error))
    g_test_message ("Markup a label refuses: %s", markup);
  g_assert_no_error (error);
}

static void
test_markup_from_html (gconstpointer data)
{
  const MarkupCase *test = data;
  g_autofree char *markup = lwn_text_markup_from_html (test->input, test->base_url);

  g_test_summary ("Feed HTML renders to the expected label markup, which GtkLabel and Pango accept "
                  "and which holds no tag, attribute or link the feed chose.");

  g_assert_cmpstr (markup, ==, test->expected);
  assert_label_markup (markup);
}

static void
assert_plain_utf8 (const char *text,
                   gsize max_chars)
{
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  if (max_chars > 0)
    g_assert_cmpint (g_utf8_strlen (text, -1), <=, (glong) max_chars);
}

static void
test_from_html (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_from_html (test->input, test->max_chars);

  g_test_summary ("Feed HTML renders to the expected plain text.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, test->max_chars);
}

static void
test_ellipsize (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_ellipsize (test->input, test->max_chars);

  g_test_summary ("Ellipsizing counts characters and never splits a character or a word needlessly.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, test->max_chars);
}

static void
test_collapse (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_collapse_whitespace (test->input);

  g_test_summary ("Every run of Unicode white space becomes one ASCII space.");

  g_assert_cmpstr (text, ==, test->expected);
}

static void
test_strip (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_strip_controls (test->input);

  g_test_summary ("Control characters are removed and invalid UTF-8 is replaced.");

  g_assert_cmpstr (text, ==, test->expected);
  assert_plain_utf8 (text, 0);
}

static void
markup_text_cb (GMarkupParseContext *context,
                const char *text,
                gsize text_len,
                gpointer user_data,
                GError **error)
{
  g_string_append_len (user_data, text, text_len);
}

static void
test_markup (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_escape_markup (test->input);
  g_autofree char *document = g_strconcat ("<body>", text, "</body>", NULL);
  g_autofree char *valid_input = g_utf8_make_valid (test->input, -1);
  g_autoptr (GString) round_trip = g_string_new (NULL);
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  const GMarkupParser parser = { .text = markup_text_cb };

  g_test_summary ("Escaped text is markup that parses back to the original text.");

  g_assert_cmpstr (text, ==, test->expected);

  context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, round_trip, NULL);
  g_assert_true (g_markup_parse_context_parse (context, document, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (round_trip->str, ==, valid_input);
}

static void
test_mnemonic (gconstpointer data)
{
  const TextCase *test = data;
  g_autofree char *text = lwn_text_escape_mnemonic (test->input);

  g_test_summary ("Underscores are doubled so that menus show them literally.");

  g_assert_cmpstr (text, ==, test->expected);
}

static void
test_null_input (void)
{
  g_autofree char *from_html = lwn_text_from_html (NULL, 10);
  g_autofree char *markup_from_html = lwn_text_markup_from_html (NULL, NULL);
  g_autofree char *collapsed = lwn_text_collapse_whitespace (NULL);
  g_autofree char *stripped = lwn_text_strip_controls (NULL);
  g_autofree char *ellipsized = lwn_text_ellipsize (NULL, 10);
  g_autofree char *markup = lwn_text_escape_markup (NULL);
  g_autofree char *mnemonic = lwn_text_escape_mnemonic (NULL);

  g_test_summary ("Every function returns \"\" rather than NULL for NULL input.");

  g_assert_cmpstr (from_html, ==, "");
  g_assert_cmpstr (markup_from_html, ==, "");
  g_assert_cmpstr (collapsed, ==, "");
  g_assert_cmpstr (stripped, ==, "");
  g_assert_cmpstr (ellipsized, ==, "");
  g_assert_cmpstr (markup, ==, "");
  g_assert_cmpstr (mnemonic, ==, "");
}

static const char *const ellipsize_samples[] = {
  "The quick brown fox jumps over the lazy dog",
  /* Split so that the "e" is not read as part of the escape before it. */
  ("caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9"
   "e \xe2\x80\x94 d\xc3\xa9j\xc3\xa0 vu"),
  "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88 \xe3\x81\xa7\xe3\x81\x99",
  "emoji \xf0\x9f\x98\x80\xf0\x9f\x90\xa7 penguin \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 family",
  "e\xcc\x81t\xc3\xa9, \xc3\xa0 l'h\xc3\xb4tel; fin: ok.",
};

static void
test_ellipsize_every_length (gconstpointer data)
{
  const char *sample = data;
  glong n_chars = g_utf8_strlen (sample, -1);

  for (gsize max = 1; max <= (gsize) n_chars + 2; max++)
    {
      g_autofree char *text = lwn_text_ellipsize (sample, max);

      assert_plain_utf8 (text, max);
      if ((gsize) n_chars <= max)
        g_assert_cmpstr (text, ==, sample);
      else
        {
          gsize prefix_len = strlen (text) - strlen ("\xe2\x80\xa6");

          g_assert_true (g_str_has_suffix (text, "\xe2\x80\xa6"));
          g_assert_cmpint (strncmp (text, sample, prefix_len), ==, 0);
        }
    }
}

static char *
repeat (const char *unit,
        gsize min_bytes)
{
  GString *out = g_string_sized_new (min_bytes + strlen (unit));

  while (out->len < min_bytes)
    g_string_append (out, unit);

  return g_string_free (out, FALSE);
}

static void
test_from_html_large (void)
{
  g_autofree char *html = repeat ("<p>Some <b>words</b> &amp; more words.</p>\n", 1024 * 1024);
  g_autofree char *plain = repeat ("word ", 1024 * 1024);
  g_autofree char *shown = NULL;
  g_autofree char *unlimited = NULL;
  g_autofree char *unlimited_plain = NULL;
  double elapsed;

  g_test_summary ("A 1 MB description is rendered and the result stays bounded, with or without a limit.");

  g_test_timer_start ();
  shown = lwn_text_from_html (html, 200);
  unlimited = lwn_text_from_html (html, 0);
  unlimited_plain = lwn_text_from_html (plain, 0);
  elapsed = g_test_timer_elapsed ();

  assert_plain_utf8 (shown, 200);
  g_assert_true (g_str_has_prefix (shown, "Some words & more words.\nSome words"));
  g_assert_true (g_str_has_suffix (shown, "\xe2\x80\xa6"));

  assert_plain_utf8 (unlimited, 64 * 1024);
  g_assert_true (g_str_has_suffix (unlimited, "\xe2\x80\xa6"));
  assert_plain_utf8 (unlimited_plain, 64 * 1024);
  g_assert_true (g_str_has_prefix (unlimited_plain, "word word "));
  g_assert_true (g_str_has_suffix (unlimited_plain, "word\xe2\x80\xa6"));

  /* Only the start is parsed. How fast that is belongs to bench/, not to a
   * test that a busy machine or a sanitizer may slow down many times over. */
  g_test_message ("three 1 MB descriptions rendered in %.2f s", elapsed);
}

/* @depth elements opened with @open_tag around "deep", all closed again. */
static char *
nested_html (const char *open_tag,
             guint depth)
{
  GString *html = g_string_new ("before ");
  gsize name_len = strcspn (open_tag, " ");

  for (guint i = 0; i < depth; i++)
    g_string_append_printf (html, "<%s>", open_tag);
  g_string_append (html, "deep");
  for (guint i = 0; i < depth; i++)
    g_string_append_printf (html, "</%.*s>", (int) name_len, open_tag);
  g_string_append (html, " tail");

  return g_string_free (html, FALSE);
}

static void
test_from_html_deep (void)
{
  g_autofree char *html = nested_html ("span", 200);
  g_autofree char *hostile_html = nested_html ("span", 20000);
  g_autofree char *text = lwn_text_from_html (html, 0);
  g_autofree char *hostile_text = lwn_text_from_html (hostile_html, 0);

  g_test_summary ("Deep nesting keeps its text; absurd nesting, which libxml2 refuses "
                  "past its depth limit, costs no crash and keeps the text before it.");

  g_assert_cmpstr (text, ==, "before deep tail");
  assert_plain_utf8 (hostile_text, 0);
  g_assert_true (g_str_has_prefix (hostile_text, "before"));
}

static void
test_markup_from_html_nested (void)
{
  g_autofree char *spans = nested_html ("span", 200);
  g_autofree char *bold = nested_html ("b", 200);
  g_autofree char *quotes = nested_html ("blockquote", 200);
  g_autofree char *spans_markup = lwn_text_markup_from_html (spans, NULL);
  g_autofree char *bold_markup = lwn_text_markup_from_html (bold, NULL);
  g_autofree char *quotes_markup = lwn_text_markup_from_html (quotes, NULL);

  g_test_summary ("Nesting within libxml2's limit keeps all its text, each style is opened once "
                  "however often it is nested, and deep quotes add a bounded prefix.");

  g_assert_cmpstr (spans_markup, ==, "before deep tail");
  g_assert_cmpstr (bold_markup, ==, "before <b>deep</b> tail");
  g_assert_cmpstr (quotes_markup, ==, "before\n\n" QUOTE QUOTE QUOTE QUOTE QUOTE QUOTE QUOTE QUOTE "deep\n\ntail");
  assert_label_markup (quotes_markup);
}

static const char *const hostile_nesting[] = {
  "b",
  "i",
  "span",
  "div",
  "p",
  "blockquote",
  "ul",
  "li",
  "ol",
  "pre",
  "code",
  "table",
  "a href=\"https://x.org/\"",
  "q",
  "dd",
  "img alt=\"x\"",
  "script",
  "unknown",
};

static void
test_markup_from_html_deep (gconstpointer data)
{
  const char *open_tag = data;
  g_autofree char *html = nested_html (open_tag, 100000);
  g_autofree char *markup = lwn_text_markup_from_html (html, NULL);

  g_test_summary ("100,000 nested elements, which libxml2 stops parsing at depth 256, cost no "
                  "crash and give markup a label accepts, starting with the text before them.");

  assert_label_markup (markup);
  g_assert_true (g_str_has_prefix (markup, "before"));
  g_assert_cmpuint (strlen (markup), <, 64 * 1024);
}

static void
test_markup_from_html_large (void)
{
  g_autofree char *html = repeat ("<p>Some <b>words</b> &amp; <a href=\"https://x.org/\">more</a> words.</p>\n", 1024 * 1024);
  g_autofree char *plain = repeat ("word ", 1024 * 1024);
  g_autofree char *markup = NULL;
  g_autofree char *plain_markup = NULL;
  double elapsed;

  g_test_summary ("A 1 MB description becomes bounded markup that ends in an ellipsis.");

  g_test_timer_start ();
  markup = lwn_text_markup_from_html (html, NULL);
  plain_markup = lwn_text_markup_from_html (plain, NULL);
  elapsed = g_test_timer_elapsed ();

  assert_label_markup (markup);
  g_assert_true (g_str_has_prefix (markup, "Some <b>words</b> &amp; <a href=\"https://x.org/\">more</a> words.\n\nSome"));
  g_assert_true (g_str_has_suffix (markup, "\xe2\x80\xa6"));
  g_assert_cmpuint (strlen (markup), <, 1024 * 1024);
  assert_label_markup (plain_markup);
  /* 64 Ki characters besides the spaces between them. */
  g_assert_cmpint (g_utf8_strlen (plain_markup, -1), <=, 2 * 64 * 1024);
  g_assert_true (g_str_has_suffix (plain_markup, "word\xe2\x80\xa6"));
  g_test_message ("two 1 MB descriptions made into markup in %.2f s", elapsed);
}

static void
test_markup_from_html_fixture (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) body = NULL;
  g_autoptr (LwnFeed) feed = NULL;
  guint n_items;
  guint n_links = 0;
  double elapsed;

  g_test_summary ("Every description of an LWN feed renders to markup a label accepts, "
                  "with its article links rewritten; the time per item is reported.");

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  body = g_bytes_new_take (g_steal_pointer (&contents), length);
  feed = lwn_feed_parse (body, "application/rss+xml", LWN_BASE, &error);
  g_assert_no_error (error);
  n_items = lwn_feed_get_n_items (feed);
  g_assert_cmpuint (n_items, >, 0);

  for (guint i = 0; i < n_items; i++)
    {
      LwnFeedItem *item = lwn_feed_get_item (feed, i);
      g_autofree char *markup = lwn_text_markup_from_html (lwn_feed_item_get_description (item), lwn_feed_item_get_url (item));

      assert_label_markup (markup);
      g_assert_null (strstr (markup, "/rss\""));
      for (const char *p = strstr (markup, "<a href="); p != NULL; p = strstr (p + 1, "<a href="))
        n_links++;
    }
  g_assert_cmpuint (n_links, >, 0);

  g_test_timer_start ();
  for (guint round = 0; round < 20; round++)
    {
      for (guint i = 0; i < n_items; i++)
        {
          LwnFeedItem *item = lwn_feed_get_item (feed, i);

          g_free (lwn_text_markup_from_html (lwn_feed_item_get_description (item), lwn_feed_item_get_url (item)));
        }
    }
  elapsed = g_test_timer_elapsed ();
  g_test_message ("%s: %.1f microseconds per item", name, elapsed * 1e6 / (20.0 * n_items));
}

static void
add_table (const char *prefix,
           const TextCase *cases,
           gsize n_cases,
           GTestDataFunc func)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/%s/%s", prefix, cases[i].name);
      g_test_add_data_func (path, &cases[i], func);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  add_table ("from-html", from_html_cases, G_N_ELEMENTS (from_html_cases), test_from_html);
  add_table ("collapse-whitespace", collapse_cases, G_N_ELEMENTS (collapse_cases), test_collapse);
  add_table ("strip-controls", strip_cases, G_N_ELEMENTS (strip_cases), test_strip);
  add_table ("ellipsize", ellipsize_cases, G_N_ELEMENTS (ellipsize_cases), test_ellipsize);
  add_table ("escape-markup", markup_cases, G_N_ELEMENTS (markup_cases), test_markup);
  add_table ("escape-mnemonic", mnemonic_cases, G_N_ELEMENTS (mnemonic_cases), test_mnemonic);

  for (gsize i = 0; i < G_N_ELEMENTS (ellipsize_samples); i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/ellipsize/every-length/%" G_GSIZE_FORMAT, i);
      g_test_add_data_func (path, ellipsize_samples[i], test_ellipsize_every_length);
    }

  g_test_add_func ("/text/null-input", test_null_input);
  g_test_add_func ("/text/from-html/large", test_from_html_large);
  g_test_add_func ("/text/from-html/deep", test_from_html_deep);

  for (gsize i = 0; i < G_N_ELEMENTS (markup_html_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/markup-from-html/%s", markup_html_cases[i].name);
      g_test_add_data_func (path, &markup_html_cases[i], test_markup_from_html);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (hostile_nesting); i++)
    {
      g_autofree char *path = g_strdup_printf ("/text/markup-from-html/hostile/deep/%.*s",
                                               (int) strcspn (hostile_nesting[i], " "), hostile_nesting[i]);
      g_test_add_data_func (path, hostile_nesting[i], test_markup_from_html_deep);
    }
  g_test_add_func ("/text/markup-from-html/nested", test_markup_from_html_nested);
  g_test_add_func ("/text/markup-from-html/large", test_markup_from_html_large);
  g_test_add_data_func ("/text/markup-from-html/fixture/lwn-2023", "lwn-headlines-2023-07.rdf", test_markup_from_html_fixture);
  g_test_add_data_func ("/text/markup-from-html/fixture/lwn-2020", "lwn-rss-2020.rdf", test_markup_from_html_fixture);

  return g_test_run ();
}
