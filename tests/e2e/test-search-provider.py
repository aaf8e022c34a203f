#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives lwn-tray's answers to the desktop's search over D-Bus, as GNOME Shell
(org.gnome.Shell.SearchProvider2) and KRunner (org.kde.krunner1) call them: the words
matched as the window's search matches them across every feed, newest first; a search
refined by more words; what each result shows; a result chosen opening its full article
with the shell's timestamp and reading it; the search carried on in the window; a
search the caller replaced answered with nothing; and the setting that turns it off."""

import os
import sys
import time

from gi.repository import GLib

import lwn_atspi as atspi
import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
Role = atspi.Role
SCHEMA = "io.github.lwntray.LwnTray"
SHELL_IFACE = "org.gnome.Shell.SearchProvider2"
SHELL_PATH = "/io/github/lwntray/LwnTray/SearchProvider"
KRUNNER_IFACE = "org.kde.krunner1"
KRUNNER_PATH = "/io/github/lwntray/LwnTray/KRunner"


def hours_ago(hours):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - hours * 3600))


def shell(s, method, args, reply):
    return s.bus.call(e2e.APP_ID, SHELL_PATH, SHELL_IFACE, method, args, reply)


def initial(s, *terms):
    return shell(s, "GetInitialResultSet", GLib.Variant("(as)", (list(terms),)), "(as)")[0]


def subsearch(s, previous, *terms):
    return shell(s, "GetSubsearchResultSet", GLib.Variant("(asas)", (previous, list(terms))), "(as)")[0]


def metas(s, ids):
    return shell(s, "GetResultMetas", GLib.Variant("(as)", (ids,)), "(aa{sv})")[0]


def krunner_match(s, query):
    return s.bus.call(e2e.APP_ID, KRUNNER_PATH, KRUNNER_IFACE, "Match", GLib.Variant("(s)", (query,)),
                      "(a(sssida{sv}))")[0]


LWN = [
    e2e.headline(962001, "The kernel's new scheduler", date=hours_ago(1), old_style=True),
    e2e.headline(962002, "Security updates for Monday", date=hours_ago(2)),
    e2e.headline(962003, "Rust in the kernel, again", date=hours_ago(5)),
]
DEBIAN = [
    e2e.headline(962101, "Debian's kernel team meets", date=hours_ago(3), link="https://www.debian.org/News/1"),
    e2e.headline(962102, "Élan for the KÉRNEL wiki", date=hours_ago(4), link="https://www.debian.org/News/2"),
]


def start_two_feeds(s):
    """LWN's feed and a second one, both loaded; returns the applet, its menu and
    the other feed's server."""
    s.server.set_items(LWN)
    other = s.add_server(e2e.FeedServer())
    other.set_body(e2e.rss1(DEBIAN, "Debian News"))
    applet = s.start("--feed-url", other.url)
    menu = applet.menu()
    menu.wait(
        lambda entries: sum(1 for entry in entries if entry["label"].startswith(e2e.BULLET)) == 5,
        "both feeds' headlines in the menu",
    )
    return applet, menu, other


def title_of(s, key):
    return metas(s, [key])[0]["name"]


def test_terms_metas_and_subsearch(s):
    """Words match across both feeds as the window's search does (case and accents
    folded), newest first; metas give the title, the feed's name and the start of the
    summary, unread marked; a subsearch keeps only the earlier results that match."""
    applet, _menu, other = start_two_feeds(s)
    ids = initial(s, "KERNEL")
    titles = [title_of(s, key) for key in ids]
    assert titles == [
        "The kernel's new scheduler",
        "Debian's kernel team meets",
        "Élan for the KÉRNEL wiki",
        "Rust in the kernel, again",
    ], titles
    assert [title_of(s, key) for key in initial(s, "elan", "kernel")] == ["Élan for the KÉRNEL wiki"]
    assert initial(s, "nothing-matches-this") == []
    assert initial(s) == []

    found = metas(s, ids[:2])
    assert [meta["id"] for meta in found] == ids[:2], found
    assert found[0]["description"].startswith("LWN.net · unread — Summary of article 962001"), found[0]
    assert found[1]["description"].startswith("Debian News · unread — "), found[1]
    assert found[0]["gicon"] == e2e.APP_ID and found[0]["clipboardText"] == "https://lwn.net/Articles/962001/", found
    assert metas(s, ["no such key", ids[0]])[0]["id"] == ids[0]

    refined = subsearch(s, ids, "kernel", "rust")
    assert [title_of(s, key) for key in refined] == ["Rust in the kernel, again"], refined
    # Only among the earlier results: a match outside them is not added.
    assert subsearch(s, ids[:1], "security") == []

    matches = krunner_match(s, "kernel rust")
    assert [(match[1], match[2]) for match in matches] == [("Rust in the kernel, again", e2e.APP_ID)], matches
    assert matches[0][5]["subtext"].startswith("LWN.net · unread"), matches
    assert krunner_match(s, "ke") == [], "two letters match half of every feed"
    applet.assert_alive()


def test_activate_and_launch(s):
    """A result chosen opens its full article (the 2020 /rss link rewritten) with a
    startup id made of the shell's timestamp, and is read in the menu; KRunner's Run
    does the same; "launch search" opens the window searching for the words."""
    applet, menu, _other = start_two_feeds(s)
    key = initial(s, "scheduler")[0]
    shell(s, "ActivateResult", GLib.Variant("(sasu)", (key, ["scheduler"], 4242)), None)
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/962001/"]
    activation, startup = s.recorder.tokens()[0]
    assert activation == startup and startup.endswith("_TIME4242"), s.recorder.tokens()
    menu.wait(lambda entries: "The kernel's new scheduler" in [entry["label"] for entry in entries], "read in the menu")
    assert "· unread" not in metas(s, [key])[0]["description"]

    run_key = krunner_match(s, "debian team")[0][0]
    s.bus.call(e2e.APP_ID, KRUNNER_PATH, KRUNNER_IFACE, "Run", GLib.Variant("(ss)", (run_key, "")), None)
    assert s.recorder.wait_count(2)[1] == "https://www.debian.org/News/1"

    shell(s, "LaunchSearch", GLib.Variant("(asu)", (["kernel", "rust"], 4243)), None)
    app = s.application(applet)

    def search_text():
        for window in app.children():
            for entry in window.find_all(role=Role.TEXT, name="Search headlines", showing_only=True):
                return entry.text
        return None

    atspi.wait_for(lambda: search_text() == "kernel rust", "the window searching for the words")
    applet.assert_alive()


def test_replaced_search(s):
    """Two searches from one caller back to back, as the shell sends them while a
    person types: the second is answered with its results, the first with nothing
    or its own (which of the two depends on the timing here; the unit test
    search-provider makes the replacement certain and checks it). Then the setting
    off: nothing is found, nothing opens; on again."""
    items = [
        e2e.headline(963000 + number, "Item %d about filesystems" % number, date=hours_ago(number))
        for number in range(5000)
    ]
    s.server.set_items(items)
    applet = s.start()
    applet.menu().wait_item(e2e.BULLET + "Item 0 about filesystems")
    answers = {}
    loop = GLib.MainLoop()

    def answered(connection, result, name):
        answers[name] = connection.call_finish(result).unpack()[0]
        if len(answers) == 2:
            loop.quit()

    for name, words in (("first", ["filesystems"]), ("second", ["item", "4999"])):
        s.bus.connection.call(e2e.APP_ID, SHELL_PATH, SHELL_IFACE, "GetInitialResultSet",
                              GLib.Variant("(as)", (words,)), GLib.VariantType("(as)"),
                              0, 10000, None, answered, name)
    GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    assert answers.get("first") == [] or len(answers.get("first", [])) == 8, answers.get("first")
    assert answers.get("second"), answers
    assert len(initial(s, "filesystems")) == 8, "a few results at most"

    s.gsettings("set", SCHEMA, "search-provider", "false")
    e2e.wait_for(lambda: initial(s, "filesystems") == [], "nothing found with the setting off")
    assert krunner_match(s, "filesystems") == []
    shell(s, "ActivateResult", GLib.Variant("(sasu)", (answers["second"][0], [], 1)), None)
    time.sleep(1.0)
    assert s.recorder.urls() == [], s.recorder.urls()
    s.gsettings("set", SCHEMA, "search-provider", "true")
    e2e.wait_for(lambda: len(initial(s, "filesystems")) == 8, "found again with the setting on")
    applet.assert_alive()


def test_search_service(s):
    """Started by the session bus for a search (--search-service): as at login when the
    setting is on; with it off, it exits at once, with status 0, owning nothing."""
    s.gsettings("set", SCHEMA, "search-provider", "false")
    applet = s.launch("--search-service")
    assert applet.wait_exit() == 0, applet.log()
    assert s.bus.name_owner(e2e.APP_ID) is None
    s.gsettings("set", SCHEMA, "search-provider", "true")
    s.server.set_items(LWN)
    applet = s.start("--search-service")
    applet.menu().wait_item(e2e.BULLET + LWN[0]["title"])
    assert [title_of(s, key) for key in initial(s, "scheduler")] == [LWN[0]["title"]]
    applet.assert_alive()


TESTS = [
    ("words across feeds, newest first; metas; subsearch; KRunner's Match", test_terms_metas_and_subsearch),
    ("a result opens its article with the shell's timestamp; Run; launch search", test_activate_and_launch),
    ("a replaced search answers nothing or its own; the setting turns it off and on", test_replaced_search),
    ("started for a search: as at login, or not at all with the setting off", test_search_service),
]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-search-provider.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, lambda func: atspi.Scenario(BINARY, **getattr(func, "scenario", {})))


if __name__ == "__main__":
    sys.exit(main())
