#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives "Remind Me When Free" through the accessibility bus, on the real clock: the
feed's subscriber-only articles are dated so that they become free a few dozen seconds
after the window shows them (LWN opens them a week after publication), so that the test
waits for that moment rather than faking it. A reminder set with the row's toggle is
told once by the running applet; one set with the context menu and the keyboard falls
due while the applet is not running and is told once at the next start; a third start
tells nothing; the notification's action opens the article and marks it read, also
once the article has left the feed. The
"I am an LWN subscriber" preference takes the toggle and the free-on day away."""

import math
import os
import sys
import time

import lwn_atspi as atspi
import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
Role = atspi.Role
SCHEMA = "io.github.lwntray.LwnTray"
SHOW_HEADLINES = "Show Headlines" + e2e.ELLIPSIS
PREFERENCES = "Preferences" + e2e.ELLIPSIS
QUIT = "Quit"
UNREAD = ", unread"
REMIND = "Remind Me When Free"
REMINDER_SET = "Reminder Set"
NOW_FREE = "Now free to read: "
SUBSCRIBER = "I am an LWN subscriber"
PAYWALL = 7 * 24 * 3600

# Seconds from the feed's arrival until the first article is free, and from then until
# the second one is: room for the clicks and the keys before, and for a quit between.
FIRST_FREE_IN = 25 * e2e.SLOWDOWN
SECOND_FREE_AFTER = 15 * e2e.SLOWDOWN
# Polls this often, so that the first poll after the moment comes soon.
INTERVAL = 3
SETTLE = 1.5


def iso(when):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(when))


def paywalled(number, title, free_at):
    """A subscriber-only article that becomes free at free_at (a time.time() value)."""
    return e2e.headline(number, "[$] " + title, date=iso(free_at - PAYWALL))


def now_free(s):
    return [n for n in s.notifier.notifications() if n.summary.startswith(NOW_FREE)]


def headlines_window(app):
    frames = [
        node
        for node in app.children()
        if node.role == int(Role.FRAME)
        and node.showing
        and node.find_all(role=Role.PUSH_BUTTON, name="Mark All as Read")
    ]
    return frames[0] if frames else None


def rows(window):
    stack = [window]
    while stack:
        node = stack.pop()
        if node.role == int(Role.LIST_BOX) and node.name == "Headlines":
            return [child for child in node.children() if child.role == int(Role.LIST_ITEM)]
        stack.extend(child for child in node.children() if child.role == int(Role.VIEWPORT) or child.showing)
    return []


def row_named(window, title):
    for row in rows(window):
        if row.name in (title, title + UNREAD):
            return row
    return None


def remind_button(row):
    """The row's reminder toggle when it shows, else None."""
    found = row.find_all(role=Role.TOGGLE_BUTTON, showing_only=True)
    return found[0] if found else None


def wait_toggle(row, on, what):
    name = REMINDER_SET if on else REMIND
    return atspi.wait_for(
        lambda: (button := remind_button(row)) is not None and button.name == name and button.checked == on and button,
        what,
    )


def context_item(app):
    found = app.find_all(role=Role.CHECK_MENU_ITEM, name=REMIND, showing_only=True)
    return found[0] if found else None


def labels_with(entries, title):
    """The menu's labels that hold title: with a bullet while it is unread."""
    return [entry["label"] for entry in entries if title in entry["label"]]


def open_window(s, applet):
    app = s.application(applet)
    applet.menu().click(SHOW_HEADLINES)
    return app, atspi.wait_for(lambda: headlines_window(app), "the headlines window")


def assert_healthy(applet):
    applet.assert_alive()
    bad = [line for line in applet.log().splitlines() if "CRITICAL" in line or "WARNING **" in line]
    assert not bad, "\n".join(bad)


def test_remind_when_free(s):
    """The toggle, the context menu (Shift+F10, the Menu key) and Tab with Space set and
    take back reminders on subscriber-only rows only; at the first poll after the first
    article is free the running applet says so once; the second falls due after Quit, its
    article leaves the feed, and it is told once at the next start, its action opens the
    article and marks it read; a third start tells nothing more and shows it read."""
    s.server.hold()
    applet = s.start(interval=INTERVAL)
    s.server.wait_requests(1)
    app, window = open_window(s, applet)

    # Whole seconds, as the feed's dates have them.
    first_free = math.ceil(time.time() + FIRST_FREE_IN)
    second_free = first_free + math.ceil(SECOND_FREE_AFTER)
    first = paywalled(961001, "A pair of workqueue improvements", first_free)
    second = paywalled(961002, "Netgpu and proprietary modules", second_free)
    plain = e2e.headline(961003, "A plain headline", date=iso(time.time() - 3600))
    s.server.set_items([first, second, plain])
    s.server.release()
    atspi.wait_for(lambda: len(rows(window)) == 3, "the three rows")

    first_row = row_named(window, first["title"])
    second_row = row_named(window, second["title"])
    assert remind_button(row_named(window, plain["title"])) is None, "a toggle on a headline anyone can read"
    assert "Subscribers only \u2014 free on " in first_row.description, first_row.description
    button = wait_toggle(first_row, False, "the first row's toggle, off")
    assert button.sensitive, button

    # The mouse's way: the toggle.
    assert button.do_action("Click")
    wait_toggle(first_row, True, "the first row's toggle on")

    # The keyboard's: the context menu on the focused row, then Tab into the row and Space.
    tracker = atspi.FocusTracker(s.a11y)
    assert second_row.grab_focus()
    tracker.wait_focus(lambda node: node == second_row, "the focus on the second row")
    s.a11y.key("F10", ("Shift",))
    item = atspi.wait_for(lambda: context_item(app), "the context menu from Shift+F10")
    assert not item.checked, item.states()
    s.a11y.key("Return")
    wait_toggle(second_row, True, "the second row's toggle on from the menu")
    atspi.wait_for(lambda: context_item(app) is None, "the menu closed")

    atspi.wait_for(lambda: second_row.focused, "the focus back on the row")
    s.a11y.key("Menu")
    item = atspi.wait_for(lambda: context_item(app), "the context menu from the Menu key")
    assert item.checked, item.states()
    s.a11y.key("Escape")
    atspi.wait_for(lambda: context_item(app) is None, "Escape to close the menu")

    atspi.wait_for(lambda: second_row.focused, "the focus on the row after the menu")
    s.a11y.key("Tab")
    toggle = tracker.wait_focus(lambda node: node.role == int(Role.TOGGLE_BUTTON), "Tab into the row's toggle")
    assert toggle.name == REMINDER_SET, toggle.name
    s.a11y.key("space")
    wait_toggle(second_row, False, "Space to take the reminder back")
    s.a11y.key("space")
    wait_toggle(second_row, True, "Space to set it again")
    tracker.close()
    assert time.time() < first_free, "too slow: the article was free before the reminders were set"
    assert not now_free(s), now_free(s)

    # The running applet: once, at the first poll after the moment, and the toggle goes.
    told = atspi.wait_for(lambda: now_free(s), "the first reminder", timeout=FIRST_FREE_IN + 10 * INTERVAL)
    assert time.time() >= first_free
    assert [n.summary for n in told] == [NOW_FREE + "A pair of workqueue improvements"], told
    atspi.wait_for(lambda: remind_button(first_row) is None, "the first row's toggle gone")
    applet.menu().click(QUIT)
    assert applet.wait_exit() == 0, applet.log()
    assert time.time() < second_free, "too slow: the second article was free before Quit"
    assert len(now_free(s)) == 1, now_free(s)

    # The second one falls due while the applet is not running, and its article leaves
    # the feed meanwhile: the reminder is told all the same, and its action reads it.
    s.server.set_items([first, plain])
    time.sleep(max(0.0, second_free - time.time()) + 1)
    again = s.start(interval=INTERVAL)
    told = atspi.wait_for(lambda: len(now_free(s)) >= 2 and now_free(s), "the second reminder at start")
    assert told[1].summary == NOW_FREE + "Netgpu and proprietary modules", told
    assert told[1].actions.get("default") == "Open", told[1]
    again.menu().wait(
        lambda entries: labels_with(entries, plain["title"]) and not labels_with(entries, second["title"]),
        "the feed without the second article",
    )
    s.notifier.invoke(told[1].id, "default")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/961002/"], s.recorder.urls()
    time.sleep(SETTLE)
    assert len(now_free(s)) == 2, now_free(s)
    assert_healthy(again)
    again.menu().click(QUIT)
    assert again.wait_exit() == 0, again.log()

    # Never twice: another start, and polls after it, tell nothing; the article, back in
    # the feed, is read.
    s.server.set_items([first, second, plain])
    last = s.start(interval=INTERVAL)
    last.menu().wait(
        lambda entries: labels_with(entries, second["title"]) == [second["title"]], "the second article back, read"
    )
    before = s.server.count()
    s.server.wait_requests(before + 2, timeout=10 * INTERVAL * e2e.SLOWDOWN)
    time.sleep(SETTLE)
    assert len(now_free(s)) == 2, now_free(s)
    assert s.recorder.urls() == ["https://lwn.net/Articles/961002/"], s.recorder.urls()
    assert_healthy(last)


def test_subscriber(s):
    """With "I am an LWN subscriber" switched on in the preferences, subscriber-only rows
    lose the toggle and the free-on day at once, and get both back when it is off."""
    article = paywalled(962001, "Subscriber-only news", time.time() + 3 * 24 * 3600)
    s.server.set_items([article, e2e.headline(962002, "A plain headline")])
    applet = s.start()
    app, window = open_window(s, applet)
    row = atspi.wait_for(lambda: row_named(window, article["title"]), "the subscriber-only row")
    wait_toggle(row, False, "the toggle")
    assert "Subscribers only" in row.description, row.description

    applet.menu().click(PREFERENCES)
    # Below the feeds, the switch may need the page scrolled to it, as focus does.
    switch = atspi.wait_for(lambda: app.find(role=Role.TOGGLE_BUTTON, name=SUBSCRIBER), "the subscriber switch")
    switch.grab_focus()
    assert not switch.checked and "no reminder" in switch.description, (switch.states(), switch.description)
    assert switch.do_action("Toggle")
    atspi.wait_for(lambda: s.gsettings("get", SCHEMA, "lwn-subscriber") == "true", "the setting written")
    atspi.wait_for(lambda: remind_button(row) is None, "the toggle gone")
    atspi.wait_for(lambda: "Subscribers only" not in row.description, "the free-on day gone")

    s.gsettings("set", SCHEMA, "lwn-subscriber", "false")
    atspi.wait_for(lambda: not switch.checked, "the switch off again")
    wait_toggle(row, False, "the toggle back")
    atspi.wait_for(lambda: "Subscribers only" in row.description, "the free-on day back")
    assert_healthy(applet)


def test_menu_outlived(s):
    """A right click opens the context menu of a subscriber-only row and of no other; one
    open when a refresh takes the row away goes with it, and a row made again for the
    article has a menu of its own that works."""
    article = paywalled(963001, "Going and coming back", time.time() + 3 * 24 * 3600)
    plain = e2e.headline(963002, "A plain headline")
    s.server.set_items([article, plain])
    applet = s.start()
    app, window = open_window(s, applet)
    row = atspi.wait_for(lambda: row_named(window, article["title"]), "the subscriber-only row")
    assert row_named(window, plain["title"]) is not None
    # A right click on the plain row opens nothing; on the other, its menu.
    x, y, _width, _height = row_named(window, plain["title"]).extents()
    s.a11y.click(x + 40, y + 12, 3)
    time.sleep(SETTLE)
    assert context_item(app) is None, "a context menu on a headline anyone can read"
    x, y, _width, _height = row.extents()
    s.a11y.click(x + 40, y + 12, 3)
    item = atspi.wait_for(lambda: context_item(app), "the context menu from a right click")
    assert not item.checked, item.states()

    s.server.set_items([plain])
    before = len(s.server.answered())
    applet.menu().click("Refresh now")
    s.server.wait_answer(before, "the feed without the article", lambda record: record["status"] == 200)
    atspi.wait_for(lambda: row_named(window, article["title"]) is None, "the row gone")
    atspi.wait_for(lambda: context_item(app) is None, "its menu gone with it")
    assert_healthy(applet)

    s.server.set_items([article, plain])
    before = len(s.server.answered())
    applet.menu().click("Refresh now")
    s.server.wait_answer(before, "the feed with the article again", lambda record: record["status"] == 200)
    row = atspi.wait_for(lambda: row_named(window, article["title"]), "the row back")
    assert row.grab_focus()
    atspi.wait_for(lambda: row.focused, "the focus on the new row")
    s.a11y.key("F10", ("Shift",))
    atspi.wait_for(lambda: context_item(app), "the new row's context menu")
    s.a11y.key("Return")
    wait_toggle(row, True, "the reminder set from the new row's menu")
    assert_healthy(applet)


TESTS = [
    ("a reminder told once while running, once after a restart, never twice", test_remind_when_free),
    ("the subscriber preference takes the toggle and the free-on day away", test_subscriber),
    ("a context menu open when a refresh takes its row away goes with it", test_menu_outlived),
]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-reminders.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, lambda func: atspi.Scenario(BINARY))


if __name__ == "__main__":
    sys.exit(main())
