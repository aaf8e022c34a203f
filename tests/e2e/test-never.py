#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tries to make lwn-tray do what it must never do: launch anything but http(s),
pass feed text to notification markup or menu mnemonics unescaped, expand an
external or recursive entity, or let one feed cost more than 64 MiB or 2 s of CPU."""

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import escape

import lwn_e2e as e2e
import lwn_fault_server as faults

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
BULLET = e2e.BULLET
MIB = 1024 * 1024
MEMORY_LIMIT = 64 * MIB
CPU_LIMIT = 2.0
FEED_CAP = 8 * MIB
INTERVAL = 2
# Long enough for a launch that should not happen to show up in the recorder.
SETTLE = 1.5
SECRET = "root:"

SAFE_URL = "https://lwn.net/Articles/942001/"


def rss2(items_xml, title="Never"):
    """An RSS 2.0 document from items given as raw XML, so that links and titles
    reach the parser exactly as written here."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0"><channel><title>%s</title><link>https://lwn.net/</link>\n'
        "<description>Things that must never happen</description>\n%s</channel></rss>\n"
        % (escape(title), "".join(items_xml))
    ).encode("utf-8")


def raw_item(guid, title_xml, link_xml, description_xml="", attributes=""):
    return (
        "<item%s><title>%s</title><link>%s</link>"
        '<guid isPermaLink="false">%s</guid><description>%s</description></item>\n'
        % (attributes, title_xml, link_xml, guid, description_xml)
    )


def benign(number):
    return raw_item(
        "benign-%d" % number,
        "Benign headline %d" % number,
        "https://lwn.net/Articles/%d/" % number,
        "Nothing to see in article %d." % number,
    )


def split(entries):
    return e2e.split_menu(entries)


def headline_entries(menu):
    return split(menu.visible_items())[0]


def wait_titles(menu, titles, what):
    expected = [BULLET + title for title in titles]
    return menu.wait(lambda entries: [entry["label"] for entry in split(entries)[0]] == expected, what)


def cli_json(url):
    result = subprocess.run([BINARY, "--json", "--feed-url", url], capture_output=True, text=True, timeout=60)
    return result


def everything_shown(s, applet):
    """All text the applet has put in front of the user: menu labels and
    notifications, as one string to search."""
    parts = [entry["raw_label"] for entry in applet.menu().items()]
    for notification in s.notifier.notifications():
        parts += [notification.summary, notification.body]
    return "\n".join(parts)


def start_benign(s, *args):
    s.server.set_body(rss2([benign(942000)]))
    applet = s.start(*args, interval=INTERVAL)
    menu = applet.menu()
    wait_titles(menu, ["Benign headline 942000"], "the benign feed")
    time.sleep(0.5)
    return applet, menu


def serve_and_wait(s, body):
    """Serves body and waits until the applet has fetched it."""
    answered = len(s.server.answered())
    s.server.set_body(body)
    generation = s.server.etag
    s.server.wait_answer(answered, "the new feed", lambda record: record["status"] == 200)
    return generation


# Links ---------------------------------------------------------------------

UNSAFE = [
    ("unsafe-js", "Unsafe javascript: link", "javascript:alert(1)", ""),
    ("unsafe-tab", "Unsafe java-tab-script: link", "java&#9;script:alert(2)", ""),
    ("unsafe-file", "Unsafe file: link", "file:///etc/passwd", ""),
    ("unsafe-data", "Unsafe data: link", "data:text/html;base64,PHNjcmlwdD5hbGVydCgzKTwvc2NyaXB0Pg==", ""),
    ("unsafe-base", "Unsafe relative link under a file: base", "passwd", ' xml:base="file:///etc/"'),
]


def unsafe_item(entry):
    guid, title, link, attributes = entry
    return raw_item(guid, escape(title), link, "Do not open %s." % escape(title), attributes)


def test_unsafe_links(s):
    """javascript:, java<TAB>script:, file:, data: and a file: xml:base: menu items
    insensitive, clicks and notification actions launch nothing; the https item
    next to them opens normally."""
    s.recorder.catch_everything()
    applet, menu = start_benign(s)
    first, second = UNSAFE[:3], UNSAFE[3:]
    safe = raw_item("safe", "Safe https link", SAFE_URL, "A real article.")

    # At most three new items per refresh, so that each gets its own notification.
    serve_and_wait(s, rss2([unsafe_item(entry) for entry in first] + [benign(942000)]))
    titles = [entry[1] for entry in first] + ["Benign headline 942000"]
    wait_titles(menu, titles, "the first unsafe items")
    serve_and_wait(s, rss2([unsafe_item(entry) for entry in second] + [safe] + [unsafe_item(entry) for entry in first] + [benign(942000)]))
    titles = [entry[1] for entry in second] + ["Safe https link"] + titles
    wait_titles(menu, titles, "all the unsafe items")

    notifications = s.notifier.wait_count(7)
    by_title = {n.summary: n for n in notifications}
    entries = {entry["label"][len(BULLET):]: entry for entry in headline_entries(menu)}
    for _guid, title, _link, _attributes in UNSAFE:
        assert entries[title]["enabled"] is False, entries[title]
        assert title in by_title, (title, notifications)
    assert entries["Safe https link"]["enabled"] is True, entries

    for _guid, title, _link, _attributes in UNSAFE:
        menu.click_id(entries[title]["id"])
        notification = by_title[title]
        for action in ["default"] + notification.action_keys:
            s.notifier.invoke(notification.id, action)
    time.sleep(SETTLE)
    assert s.recorder.urls() == [], s.recorder.urls()
    applet.assert_alive()

    # The recorder does see a launch when there is one to see.
    menu.click_id(entries["Safe https link"]["id"])
    assert s.recorder.wait_count(1) == [SAFE_URL], s.recorder.urls()
    time.sleep(SETTLE)
    assert s.recorder.urls() == [SAFE_URL], s.recorder.urls()

    result = cli_json(s.server.url)
    assert result.returncode == 0, result.stderr
    urls = {item["title"]: item["url"] for item in json.loads(result.stdout)["items"]}
    for _guid, title, _link, _attributes in UNSAFE:
        assert urls[title] is None, (title, urls[title])
    assert urls["Safe https link"] == SAFE_URL, urls
    assert applet.stop() == 0


def test_feed_redirect_to_file(s):
    """A feed that redirects to file:///etc/passwd is refused: nothing read, nothing
    launched, nothing of the file shown."""
    s.recorder.catch_everything()
    server = s.add_server(faults.FaultServer(s.root, tls=False))
    server.set_mode("redirect-file")
    applet = s.start(feed_url=server.url, interval=INTERVAL)
    menu = applet.menu()
    entries = menu.wait(
        lambda entries: entries and entries[0]["label"].startswith("Could not load headlines: "), "the refusal"
    )
    assert "redirect" in entries[0]["label"].lower(), entries[0]
    server.wait_done(2, timeout=e2e.TIMEOUT)
    for entry in entries:
        if entry["label"] == "Retry":
            menu.click_id(entry["id"])
    time.sleep(SETTLE)
    assert SECRET not in everything_shown(s, applet), everything_shown(s, applet)
    assert s.recorder.urls() == [], s.recorder.urls()
    applet.assert_alive()
    assert applet.stop() == 0


# Markup ----------------------------------------------------------------------

MARKUP_TITLE_XML = "&lt;b&gt;bold&lt;/b&gt; &amp; _under_score"
ANGLE_TITLE_XML = "Kernel &lt;linux/list.h&gt; &amp; __user"
MARKUP_DESCRIPTION_XML = (
    "&lt;p&gt;An &lt;i&gt;italic&lt;/i&gt; word, a literal &amp;amp; sign, "
    "&amp;lt;b&amp;gt;not bold&amp;lt;/b&amp;gt; and "
    "&lt;script&gt;alert(1)&lt;/script&gt; in one summary.&lt;/p&gt;"
)


def check_body(body):
    """The body of a server with body-markup: well-formed markup with no elements,
    so every <, > and & from the feed arrived escaped."""
    for tag in ("<b>", "<i>", "<script", "</", "<p>"):
        assert tag not in body, "%r in the body %r" % (tag, body)
    root = ElementTree.fromstring("<body>%s</body>" % body)
    assert list(root) == [], "markup elements in the body %r" % body
    return root.text or ""


def test_markup_escaped(s):
    """Tags and & in titles and summaries: plain-text summaries, escaped bodies,
    and labels whose underscores are shown, not turned into mnemonics."""
    applet, menu = start_benign(s)
    body = rss2(
        [
            raw_item("markup", MARKUP_TITLE_XML, "https://lwn.net/Articles/942101/", MARKUP_DESCRIPTION_XML),
            raw_item("angle", ANGLE_TITLE_XML, "https://lwn.net/Articles/942102/", "About &amp;lt;linux/list.h&amp;gt;."),
            benign(942000),
        ]
    )
    serve_and_wait(s, body)
    result = cli_json(s.server.url)
    assert result.returncode == 0, result.stderr
    titles = [item["title"] for item in json.loads(result.stdout)["items"]]
    print("# parsed titles: %r" % titles[:2])
    assert "_under_score" in titles[0] and "&amp;" not in titles[0], titles[0]
    assert titles[1] == "Kernel <linux/list.h> & __user", titles[1]

    entries = wait_titles(menu, titles, "the markup headlines")
    labels = [entry["label"] for entry in split(entries)[0]]
    assert labels[0].endswith("_under_score") and labels[1].endswith("& __user"), labels

    notifications = s.notifier.wait_count(2)
    time.sleep(SETTLE)
    notifications = {n.summary: n for n in s.notifier.notifications()}
    for title in titles[:2]:
        assert title in notifications, (title, list(notifications))
        notification = notifications[title]
        # Summaries are plain text by the specification: shown exactly as the title.
        assert "<b>" not in notification.summary and "&amp;" not in notification.summary, notification
        text = check_body(notification.body)
        print("# body %r shows %r" % (notification.body, text))
    shown = check_body(notifications[titles[0]].body)
    assert "italic" in shown and "<b>not bold</b>" in shown, shown
    assert "& sign" in shown, shown
    assert "<linux/list.h>" in check_body(notifications[titles[1]].body)
    assert applet.stop() == 0


# Entities ---------------------------------------------------------------------


def read_data(*parts):
    with open(os.path.join(e2e.DATA, *parts), "rb") as f:
        return f.read()


def measure_refresh(s, applet, body):
    """Serves body once and returns (CPU seconds that refresh cost, resident memory
    before it, peak resident memory during it). Writing 5 to clear_refs resets the
    peak (VmHWM) to the current size, so the peak is this refresh's alone."""
    with open("/proc/%d/clear_refs" % applet.proc.pid, "w") as f:
        f.write("5")
    before = applet.proc_status()["VmRSS"]
    cpu = applet.cpu_seconds()
    serve_and_wait(s, body)
    # The applet asks again only once it has dealt with the answer.
    s.server.wait_requests(s.server.count() + 1, timeout=e2e.TIMEOUT)
    time.sleep(0.5)
    spent = applet.cpu_seconds() - cpu
    peak = applet.proc_status()["VmHWM"]
    applet.assert_alive()
    return spent, before, peak


def check_cost(what, spent, before, peak):
    """The feed's own cost: the peak above what the applet held before it. The
    absolute figures include the shared libraries of GTK and of Mesa's software
    renderer under Xvfb (libLLVM alone is over 40 MiB), which no feed changes."""
    print(
        "# %s: %.2fs CPU; VmRSS %d KiB before, VmHWM %d KiB during (+%d KiB)"
        % (what, spent, before // 1024, peak // 1024, (peak - before) // 1024)
    )
    assert spent < CPU_LIMIT, "%s cost %.2fs of CPU" % (what, spent)
    assert peak - before < MEMORY_LIMIT, "%s raised the peak RSS by %d KiB" % (what, (peak - before) // 1024)


def test_external_entity(s):
    """An XXE entity naming /etc/passwd: no root: line in the menu, the
    notifications, the log or the --json output."""
    applet, menu = start_benign(s)
    serve_and_wait(s, read_data("bad", "xxe.xml"))
    s.server.wait_requests(s.server.count() + 1)
    time.sleep(SETTLE)
    result = cli_json(s.server.url)
    print("# --json: exit %d, %s" % (result.returncode, (result.stderr or result.stdout).strip().splitlines()[0]))
    for place, text in (
        ("the menu and notifications", everything_shown(s, applet)),
        ("--json output", result.stdout + result.stderr),
        ("the applet's log", applet.log()),
    ):
        assert SECRET not in text, "%s shows %s: %r" % (place, SECRET, text[:2000])
    applet.assert_alive()
    assert applet.stop() == 0


def test_billion_laughs(s):
    """Recursive entities, in text and in attributes, and references after the budget refused
    one: under 64 MiB and 2 s of CPU."""
    # An applet each: the retries after each refused feed wait longer.
    for name in ("billion-laughs.xml", "billion-laughs-attr.xml", "refused-laughs.rss"):
        applet, menu = start_benign(s)
        spent, before, peak = measure_refresh(s, applet, read_data("bad", name))
        check_cost(name, spent, before, peak)
        assert "lollol" not in everything_shown(s, applet)
        applet.assert_alive()
        assert applet.stop() == 0


# Size ------------------------------------------------------------------------


def big_feed(count=10000, target=FEED_CAP - 64 * 1024):
    """count LWN-style items, padded to just under target bytes."""

    def build(padding):
        return e2e.rss1(
            [
                e2e.headline(950000 + number, summary="<p>Summary %d %s</p>" % (number, padding))
                for number in range(count)
            ][::-1]
        )

    bare = len(build(""))
    body = build("x" * max(0, (target - bare) // count))
    assert target - count <= len(body) <= target, len(body)
    return body


def test_big_feed(s):
    """A 10,000-item feed just under the 8 MiB cap: under 64 MiB and 2 s of CPU."""
    applet, menu = start_benign(s)
    body = big_feed()
    spent, before, peak = measure_refresh(s, applet, body)
    wait_titles(menu, ["Headline number %d" % (959999 - number) for number in range(20)], "the big feed's first 20")
    check_cost("%d-byte feed of 10000 items" % len(body), spent, before, peak)
    assert applet.stop() == 0


TESTS = [
    ("unsafe links are never launched, from the menu or a notification", test_unsafe_links),
    ("a feed redirect to file:///etc/passwd is refused", test_feed_redirect_to_file),
    ("feed markup never reaches notification markup or mnemonics", test_markup_escaped),
    ("an external entity is never expanded", test_external_entity),
    ("recursive entities stay small and quick", test_billion_laughs),
    ("a 10,000-item feed stays under 64 MiB and 2 s of CPU", test_big_feed),
]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-never.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, lambda func: e2e.Scenario(BINARY))


if __name__ == "__main__":
    sys.exit(main())
