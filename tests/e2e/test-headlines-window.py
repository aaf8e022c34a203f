#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives lwn-tray's headlines window through the accessibility bus, as a screen reader
user would: opened from the tray menu and by a second `lwn-tray --show`, rows named and
described after the feed, a row and a summary link each opening exactly their own
address, no javascript: link, the loading and error pages with Retry, the keyboard
(arrows, Return, Ctrl+R, Escape, Ctrl+W), and a name on every control. Then what happens
over time: refreshes after the window closed, its size across Quit and a new start, a
refresh under the focused row, a 1,000-item feed, Mark All as Read, ages moving on."""

import os
import sys
import time

from gi.repository import GLib

import lwn_atspi as atspi
import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
Role = atspi.Role
SCHEMA = "io.github.lwntray.LwnTray"
SHOW_HEADLINES = "Show Headlines" + e2e.ELLIPSIS
REFRESH_NOW = "Refresh now"
QUIT = "Quit"
LOADING = "Loading headlines" + e2e.ELLIPSIS
UNREAD = ", unread"
HEADER_BUTTONS = {
    (int(Role.PUSH_BUTTON), "Refresh"),
    (int(Role.PUSH_BUTTON), "Mark All as Read"),
    (int(Role.TOGGLE_BUTTON), "Main Menu"),
}
CONTROL_ROLES = {int(role) for role in atspi.INTERACTIVE_ROLES}

# Long enough for a stray launch or a second window to show up.
SETTLE = 1.0


def seconds_ago(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - seconds))


def hours_ago(hours):
    return seconds_ago(hours * 3600)


def plain_items(count, first):
    return [e2e.headline(first + index, "Plain headline %d" % (first + index)) for index in range(count)]


def headline_labels(entries):
    return [entry["label"] for entry in e2e.split_menu(entries)[0]]


def wait_menu_headlines(menu, labels, what):
    return menu.wait(lambda entries: headline_labels(entries) == labels, what)


def assert_healthy(applet):
    """The applet runs and has logged no critical and no warning (G_DEBUG=fatal-criticals
    already turns a critical into a crash)."""
    applet.assert_alive()
    bad = [line for line in applet.log().splitlines() if "CRITICAL" in line or "WARNING **" in line]
    assert not bad, "\n".join(bad)


# The window on the accessibility bus --------------------------------------


def headlines_windows(app):
    """The application's headlines windows: frames with Mark All as Read in their
    header bar. GtkStack shows only its visible page to AT-SPI, so the list of
    headlines is no mark of the window while it loads or failed."""
    return [
        node
        for node in app.children()
        if node.role == int(Role.FRAME) and node.find_all(role=Role.PUSH_BUTTON, name="Mark All as Read")
    ]


def wait_window(app, what="the headlines window"):
    return atspi.wait_for(lambda: [w for w in headlines_windows(app) if w.showing], what)[0]


def list_box(window):
    """The list of headlines when it shows, else None. GTK 3 reports a viewport scrolled
    further than its own height as not showing, so viewports are looked into anyway; the
    list's rows are not."""
    stack = [window]
    while stack:
        node = stack.pop()
        if node.role == int(Role.LIST_BOX) and node.name == "Headlines":
            return node if node.showing else None
        stack.extend(child for child in node.children() if child.role == int(Role.VIEWPORT) or child.showing)
    return None


def rows(window):
    box = list_box(window)
    return [node for node in box.children() if node.role == int(Role.LIST_ITEM)] if box else []


def row_names(window):
    return [row.name for row in rows(window)]


def wait_row_names(window, names, what):
    return atspi.wait_for(lambda: row_names(window) == names, what)


def row_named(window, title):
    for row in rows(window):
        if row.name in (title, title + UNREAD):
            return row
    raise LookupError("no row for %r among %r" % (title, row_names(window)))


def wait_rows_at_least(window, count, what):
    return atspi.wait_for(lambda: len(rows(window)) >= count and rows(window), what)


def title_label(row):
    """The row's first label: its title, bold while unread."""
    return labels(row)[0]


def is_bold(label):
    return int(label.text_attributes(0).get("weight", "400")) >= 700


def labels(node):
    return node.find_all(role=Role.LABEL)


def links(node):
    """Every link in the labels under node, as atspi.Hyperlink objects."""
    return [link for label in labels(node) for link in label.links()]


def assert_controls_named(window, expected):
    """Every control on screen has a name, and those in expected (role, name) are there."""
    controls = [node for node in window.walk(showing_only=True) if node.role in CONTROL_ROLES]
    for node in controls:
        assert node.name.strip(), "a nameless control: %r in %r" % (node, node.parent)
    present = {(node.role, node.name) for node in controls}
    missing = set(expected) - present
    assert not missing, "missing %r among %r" % (missing, controls)


def focus_row(tracker, row):
    """Gives a row the keyboard focus the way a screen reader does, which also raises
    its window; GTK 3's list rows have no action of their own."""
    assert row.grab_focus(), row
    return tracker.wait_focus(lambda node: node == row, "the focus on %r" % row)


# Scenarios -----------------------------------------------------------------


def test_rows_and_links(s):
    """Show Headlines… opens the window; its rows carry the feed's titles in order,
    described by age, author and summary; a summary link opens exactly that link and
    leaves the headline unread; javascript: is no link; Return on a row opens its full
    article, rewritten from the old /rss form, and marks it read in the window and
    the menu."""
    old = e2e.headline(952001, "An old-style headline", old_style=True, creator="Jonathan Corbet", date=hours_ago(2.5))
    linked = e2e.headline(
        952002,
        "A headline with links",
        summary='<p>Read <a href="https://example.org/thread">the thread</a> or'
        ' <a href="javascript:alert(1)">run this</a>.</p>'
        '<blockquote>A quote with <a href="https://example.org/quoted">a link</a>.</blockquote>',
        creator="Jake Edge",
        date=hours_ago(30),
    )
    items = [old, linked] + plain_items(3, 952003)
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    wait_menu_headlines(menu, [e2e.BULLET + item["title"] for item in items], "the headlines in the menu")
    app = s.application(applet)

    menu.click(SHOW_HEADLINES)
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows named after the feed, unread")
    assert_controls_named(window, HEADER_BUTTONS)

    old_row, linked_row = rows(window)[:2]
    assert old_row.description == "2 hours ago · Jonathan Corbet. Summary of article 952001 & more.", (
        old_row.description
    )
    described = linked_row.description
    assert described.startswith("yesterday · Jake Edge. Read the thread or run this."), described
    assert "A quote with a link." in described, described

    # The summary's links, the quoted one as well; javascript: is shown as text only.
    found = links(linked_row)
    assert [link.uri for link in found] == ["https://example.org/thread", "https://example.org/quoted"], found
    assert not [link for link in links(window) if link.uri.lower().startswith("javascript")], links(window)
    texts = [label.text for label in labels(linked_row)]
    assert any("run this" in text for text in texts), texts

    assert found[0].activate()
    assert s.recorder.wait_count(1) == ["https://example.org/thread"], s.recorder.urls()
    time.sleep(SETTLE)
    assert s.recorder.urls() == ["https://example.org/thread"], "a link click opened more: %r" % s.recorder.urls()
    assert linked_row.name == linked["title"] + UNREAD, linked_row.name
    assert e2e.BULLET + linked["title"] in menu.labels(), menu.labels()

    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, old_row)
    s.a11y.key("Return")
    article = "https://lwn.net/Articles/952001/"
    assert s.recorder.wait_count(2) == ["https://example.org/thread", article], s.recorder.urls()
    atspi.wait_for(lambda: old_row.name == old["title"], "the row no longer unread")
    wait_menu_headlines(
        menu,
        [old["title"]] + [e2e.BULLET + item["title"] for item in items[1:]],
        "the opened headline read in the menu",
    )
    time.sleep(SETTLE)
    assert s.recorder.urls() == ["https://example.org/thread", article], s.recorder.urls()
    tracker.close()
    applet.assert_alive()


def test_loading_show_and_keyboard(s):
    """A second start with --show presents the window in the running instance and exits
    0, while the feed is held the loading page shows, then the rows; another --show
    opens no second window. The arrows move between rows, Ctrl+R refreshes, Escape and
    Ctrl+W close."""
    items = plain_items(4, 953001)
    s.server.set_items(items)
    s.server.hold()
    applet = s.start()
    s.server.wait_requests(1)
    app = s.application(applet)

    show = s.launch("--show")
    assert show.wait_exit() == 0, show.log()
    window = wait_window(app, "the window from --show")
    loading = window.find(role=Role.NOTIFICATION, name=LOADING, showing_only=True)
    assert loading.find_all(role=Role.ANIMATION, name=LOADING, showing_only=True), "no spinner in %r" % (
        loading.children()
    )
    assert loading.find_all(role=Role.LABEL, name=LOADING, showing_only=True), loading.children()
    assert list_box(window) is None, "the list shows while loading"
    assert_controls_named(window, HEADER_BUTTONS)

    s.server.release()
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows after the feed arrived")
    atspi.wait_for(
        lambda: not window.find_all(role=Role.NOTIFICATION, showing_only=True), "the loading page gone from the window"
    )

    again = s.launch("--show")
    assert again.wait_exit() == 0, again.log()
    time.sleep(SETTLE)
    assert len(headlines_windows(app)) == 1, headlines_windows(app)

    tracker = atspi.FocusTracker(s.a11y)
    all_rows = rows(window)
    focus_row(tracker, all_rows[0])
    atspi.wait_for(lambda: window.has_state(atspi.State.ACTIVE), "the window active")
    for key, expected in (("Down", 1), ("Down", 2), ("Up", 1), ("Up", 0)):
        s.a11y.key(key)
        tracker.wait_focus(lambda node: node == all_rows[expected], "%s to focus row %d" % (key, expected))

    before = s.server.count()
    s.a11y.key("r", ("Control",))
    s.server.wait_requests(before + 1)

    s.a11y.key("Escape")
    atspi.wait_for(lambda: not headlines_windows(app), "Escape to close the window")

    reopen = s.launch("--show")
    assert reopen.wait_exit() == 0, reopen.log()
    window = wait_window(app, "the window from --show once more")
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows at once")
    focus_row(tracker, rows(window)[0])
    s.a11y.key("w", ("Control",))
    atspi.wait_for(lambda: not headlines_windows(app), "Ctrl+W to close the window")
    assert s.recorder.urls() == [], s.recorder.urls()
    tracker.close()
    applet.assert_alive()


def test_error_and_retry(s):
    """With nothing listening the window shows an alert with the reason as its
    description and a named Retry button; once a server listens there, Retry brings
    the rows."""
    port = e2e.free_port()
    url = "http://127.0.0.1:%d%s" % (port, e2e.FEED_PATH)
    applet = s.start("--show", feed_url=url)
    menu = applet.menu()
    app = s.application(applet)
    window = wait_window(app)

    alert = atspi.wait_for(
        lambda: window.find(role=Role.ALERT, name="Could not load headlines", showing_only=True),
        "the error page",
    )
    reason = alert.description
    assert str(port) in reason, reason
    assert alert.find_all(role=Role.LABEL, name=reason, showing_only=True), alert.children()
    menu.wait(
        lambda entries: "Could not load headlines: " + reason in [entry["label"] for entry in entries],
        "the same reason in the menu",
    )
    retry = window.find(role=Role.PUSH_BUTTON, name="Retry", showing_only=True)
    assert retry.sensitive, retry
    assert_controls_named(window, HEADER_BUTTONS | {(int(Role.PUSH_BUTTON), "Retry")})

    server = e2e.FeedServer(port=port)
    try:
        items = plain_items(3, 954001)
        server.set_items(items)
        assert retry.do_action("Click")
        server.wait_answered(1)
        wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows after Retry")
        atspi.wait_for(lambda: not window.find_all(role=Role.ALERT, showing_only=True), "the error page gone")
    finally:
        server.close()
    applet.assert_alive()


def test_close_then_refresh(s):
    """The window closed by Escape, by Ctrl+W or by its close button leaves nothing behind:
    after each close a changed feed is fetched and shown in the menu, and the applet lives
    on without a critical or a warning."""
    items = plain_items(4, 955001)
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    wait_menu_headlines(menu, [e2e.BULLET + item["title"] for item in items], "the headlines in the menu")
    app = s.application(applet)
    tracker = atspi.FocusTracker(s.a11y)

    for number, how in enumerate(("Escape", "Ctrl+W", "the close button")):
        menu.click(SHOW_HEADLINES)
        window = wait_window(app)
        wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows before %s" % how)
        focus_row(tracker, rows(window)[0])
        if how == "Escape":
            s.a11y.key("Escape")
        elif how == "Ctrl+W":
            s.a11y.key("w", ("Control",))
        else:
            assert window.find(role=Role.PUSH_BUTTON, name="Close", showing_only=True).do_action("Click")
        atspi.wait_for(lambda: not headlines_windows(app), "%s to close the window" % how)

        items = plain_items(1, 955101 + number) + items
        s.server.set_items(items)
        before = len(s.server.answered())
        menu.click(REFRESH_NOW)
        s.server.wait_answer(before, "the changed feed", lambda record: record["status"] == 200)
        wait_menu_headlines(
            menu, [e2e.BULLET + item["title"] for item in items], "the changed feed in the menu after %s" % how
        )
        assert_healthy(applet)
    tracker.close()


def test_size_survives_quit(s):
    """A window made wider comes back as wide after Quit with the window still open and a
    new start."""
    items = plain_items(3, 956001)
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    app = s.application(applet)
    menu.click(SHOW_HEADLINES)
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows")

    _x, _y, width, height = window.extents()
    assert window.set_size(width + 120, height)
    atspi.wait_for(lambda: window.extents()[2] >= width + 120, "the window to grow")
    resized = window.extents()[2:]
    # Saved a moment after the last change, not on the way out.
    atspi.wait_for(
        lambda: s.gsettings("get", SCHEMA, "headlines-window-width") != "-1", "the window's size to be saved"
    )

    menu.click(QUIT)
    assert applet.wait_exit() == 0, applet.log()

    again = s.start()
    app = s.application(again)
    again.menu().click(SHOW_HEADLINES)
    window = wait_window(app, "the window after a new start")
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows after a new start")
    assert window.extents()[2:] == resized, "%r after a new start, %r before Quit (%r at first)" % (
        window.extents()[2:],
        resized,
        (width, height),
    )
    assert_healthy(again)


def test_refresh_keeps_focus_and_scroll(s):
    """A refresh that brings two new headlines and changes the title of another leaves the
    focused row focused, the same object for a screen reader, where it was on the screen;
    the new rows come in above it and the changed title shows."""
    items = plain_items(30, 957001)
    s.server.set_items(items)
    applet = s.start()
    app = s.application(applet)
    applet.menu().click(SHOW_HEADLINES)
    window = wait_window(app)
    shown = wait_rows_at_least(window, 12, "a dozen rows")
    tracker = atspi.FocusTracker(s.a11y)
    target, first = shown[10], shown[0]
    focus_row(tracker, target)
    atspi.wait_for(lambda: not first.showing, "the list scrolled down to the focused row")
    name = target.name
    where = target.extents()

    fresh = plain_items(2, 957101)
    changed = dict(items[12], title="A changed title")
    s.server.set_items(fresh + items[:12] + [changed] + items[13:])
    before = len(s.server.answered())
    s.a11y.key("r", ("Control",))
    s.server.wait_answer(before, "the changed feed", lambda record: record["status"] == 200)
    atspi.wait_for(lambda: row_names(window)[:2] == [item["title"] + UNREAD for item in fresh], "the new rows on top")
    atspi.wait_for(lambda: "A changed title" + UNREAD in row_names(window), "the changed title")

    time.sleep(SETTLE)
    assert tracker.focused == target, "the focus moved from %r to %r" % (name, tracker.focused)
    assert target.focused and target.name == name, (target, target.states())
    assert target.extents() == where, "the focused row moved from %r to %r" % (where, target.extents())
    tracker.close()
    assert_healthy(applet)


def test_large_feed_end(s):
    """A 1,000-item feed opens with its first rows, and has rows only for about what
    shows, also after a refresh; Page Down moves on down the list, End reaches the last
    headline and Home the first again."""
    items = plain_items(1000, 958001)
    s.server.set_items(items)
    applet = s.start()
    app = s.application(applet)
    applet.menu().click(SHOW_HEADLINES)
    window = wait_window(app)
    atspi.wait_for(
        lambda: row_names(window)[:3] == [item["title"] + UNREAD for item in items[:3]], "the first rows at once"
    )
    time.sleep(SETTLE)
    made = len(rows(window))
    assert made < 100, "%d rows made for a window that shows a few" % made

    items = [dict(items[0], title="A changed title")] + items[1:]
    s.server.set_items(items)
    before = len(s.server.answered())
    applet.menu().click(REFRESH_NOW)
    s.server.wait_answer(before, "the changed feed", lambda record: record["status"] == 200)
    atspi.wait_for(lambda: row_names(window)[:1] == ["A changed title" + UNREAD], "the changed title")
    time.sleep(SETTLE)
    assert len(rows(window)) <= made, "%d rows after a refresh, %d before" % (len(rows(window)), made)

    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])

    def position(node):
        title = node.name[: -len(UNREAD)] if node.name.endswith(UNREAD) else node.name
        return [item["title"] for item in items].index(title)

    s.a11y.key("Page_Down")
    down = tracker.wait_focus(lambda node: node.role == int(Role.LIST_ITEM) and position(node) > 1, "Page Down")
    s.a11y.key("Page_Down")
    tracker.wait_focus(
        lambda node: node.role == int(Role.LIST_ITEM) and position(node) > position(down), "Page Down again"
    )

    last = items[-1]["title"]
    s.a11y.key("End")
    tracker.wait_focus(lambda node: node.name == last + UNREAD, "End to reach the last headline")
    assert row_names(window)[-1] == last + UNREAD, row_names(window)[-3:]
    s.a11y.key("Home")
    tracker.wait_focus(lambda node: node.name == items[0]["title"] + UNREAD, "Home to reach the first headline")
    tracker.close()
    assert_healthy(applet)


def test_mark_all_read(s):
    """Mark All as Read shows every headline read: the rows' titles lose their bold and
    their ", unread", those made later further down too, and the menu agrees."""
    items = plain_items(60, 959001)
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    app = s.application(applet)
    menu.click(SHOW_HEADLINES)
    window = wait_window(app)
    shown = wait_rows_at_least(window, 3, "the first rows")
    assert all(row.name.endswith(UNREAD) for row in shown), [row.name for row in shown]
    assert is_bold(title_label(shown[0])), title_label(shown[0]).text_attributes(0)

    assert window.find(role=Role.PUSH_BUTTON, name="Mark All as Read", showing_only=True).do_action("Click")
    atspi.wait_for(lambda: not [name for name in row_names(window) if name.endswith(UNREAD)], "every row read")
    assert not is_bold(title_label(rows(window)[0])), title_label(rows(window)[0]).text_attributes(0)
    menu.wait(lambda entries: not [entry for entry in entries if entry["label"].startswith(e2e.BULLET)], "the menu read")

    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])
    s.a11y.key("End")
    tracker.wait_focus(lambda node: node.name == items[-1]["title"], "End to reach the last headline, read")
    assert row_names(window) == [item["title"] for item in items], row_names(window)
    assert not is_bold(title_label(rows(window)[-1])), title_label(rows(window)[-1]).text_attributes(0)
    tracker.close()
    assert_healthy(applet)


def test_ages_move_on(s):
    """The ages in an open window move on with the clock: a headline 45 seconds old when
    it arrives is "just now", then "1 minute ago" without a refresh."""
    s.server.hold()
    applet = s.start()
    s.server.wait_requests(1)
    app = s.application(applet)
    applet.menu().click(SHOW_HEADLINES)
    window = wait_window(app)
    young = e2e.headline(960001, "A young headline", date=seconds_ago(45))
    s.server.set_items([young] + plain_items(2, 960002))
    s.server.release()
    atspi.wait_for(lambda: row_names(window)[:1] == [young["title"] + UNREAD], "the young headline's row")
    row = rows(window)[0]
    assert row.description.startswith("just now · corbet."), row.description

    requests = s.server.count()
    atspi.wait_for(lambda: row.description.startswith("1 minute ago · corbet."), "the age to move on", timeout=30)
    assert s.server.count() == requests, "the feed was fetched again"
    assert_healthy(applet)


def search_entry(window):
    """The search entry while it shows, else None."""
    entries = window.find_all(role=Role.TEXT, name="Search headlines", showing_only=True)
    return entries[0] if entries else None


def shown_row_names(window):
    """The rows the search lets show."""
    return [row.name for row in rows(window) if row.showing]


def test_search(s):
    """Ctrl+F opens a labelled search entry; typing filters the rows on title, author and
    summary, case and accents aside, says how many match in the entry's description, and
    "No headlines match" when none does; the filter and the focused match survive a
    refresh; Enter opens the first match; Escape closes the search, then the window."""
    items = [
        e2e.headline(957001, "Plain news"),
        e2e.headline(957002, "Ünïcode in the kernel"),
        e2e.headline(957003, "Plain again", creator="Zoë Unicodé"),
        e2e.headline(957004, "Plain once more", summary="<p>About UNICODE strings.</p>"),
        e2e.headline(957005, "Nothing to see"),
    ]
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    wait_menu_headlines(menu, [e2e.BULLET + item["title"] for item in items[:5]], "the headlines in the menu")
    app = s.application(applet)
    menu.click(SHOW_HEADLINES)
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows")
    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])

    s.a11y.key("f", ("Control",))
    entry = atspi.wait_for(lambda: search_entry(window), "the search entry")
    tracker.wait_focus(lambda node: node == entry, "the focus in the search entry")
    s.a11y.type_text("unicode")
    matches = [items[1]["title"] + UNREAD, items[2]["title"] + UNREAD, items[3]["title"] + UNREAD]
    atspi.wait_for(lambda: shown_row_names(window) == matches, "the three matches")
    atspi.wait_for(lambda: entry.description == "3 headlines", "the count in the entry's description")
    title = title_label(row_named(window, items[1]["title"]))
    assert title.text == items[1]["title"], title.text

    s.a11y.type_text(" zzz")
    atspi.wait_for(lambda: shown_row_names(window) == [], "no match")
    atspi.wait_for(
        lambda: window.find_all(role=Role.LABEL, name="No headlines match \u201cunicode zzz\u201d", showing_only=True),
        "the empty list saying what was not found",
    )
    assert entry.description == "No matches", entry.description
    for _ in range(4):
        s.a11y.key("BackSpace")
    atspi.wait_for(lambda: shown_row_names(window) == matches, "the matches again")

    # A refresh: a new match on top, a new headline that does not match.
    focus_row(tracker, row_named(window, items[2]["title"]))
    fresh = [e2e.headline(957101, "More Unicode"), e2e.headline(957102, "Other news")]
    s.server.set_items(fresh + items)
    s.a11y.key("r", ("Control",))
    matches = [fresh[0]["title"] + UNREAD] + matches
    atspi.wait_for(lambda: shown_row_names(window) == matches, "the matches after a refresh")
    assert row_named(window, items[2]["title"]).has_state(atspi.State.FOCUSED), "the focused match lost the focus"

    assert entry.grab_focus()
    tracker.wait_focus(lambda node: node == entry, "the focus back in the entry")
    s.a11y.key("Return")
    assert s.recorder.wait_count(1) == [fresh[0]["link"]], s.recorder.urls()
    atspi.wait_for(lambda: shown_row_names(window)[0] == fresh[0]["title"], "the opened match read")

    s.a11y.key("Escape")
    atspi.wait_for(lambda: len(shown_row_names(window)) == len(fresh + items), "every row once the search closed")
    search_button = window.find(role=Role.TOGGLE_BUTTON, name="Search", showing_only=True)
    assert not search_button.has_state(atspi.State.CHECKED), "the search is still on"
    assert headlines_windows(app) == [window], "the first Escape closed the window"
    s.a11y.key("Escape")
    atspi.wait_for(lambda: not headlines_windows(app), "the second Escape to close the window")
    tracker.close()
    assert_healthy(applet)


def test_search_large(s):
    """In a 1,200-item feed, a search whose one match is the last headline finds it, and
    the search cleared again shows the first headlines with rows for about a screen, not
    for every headline the search went through; the match shows again at once."""
    items = plain_items(1199, 959001) + [e2e.headline(960200, "The zebra at the end")]
    s.server.set_items(items)
    applet = s.start()
    app = s.application(applet)
    applet.menu().click(SHOW_HEADLINES)
    window = wait_window(app)
    atspi.wait_for(lambda: row_names(window)[:3] == [item["title"] + UNREAD for item in items[:3]], "the first rows")
    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])

    s.a11y.key("f", ("Control",))
    entry = atspi.wait_for(lambda: search_entry(window), "the search entry")
    tracker.wait_focus(lambda node: node == entry, "the focus in the search entry")
    zebra = [items[-1]["title"] + UNREAD]
    s.a11y.type_text("zebra")
    atspi.wait_for(lambda: shown_row_names(window) == zebra, "the last headline, the one match")
    atspi.wait_for(lambda: entry.description == "1 headline", "the count in the entry's description")

    for _ in "zebra":
        s.a11y.key("BackSpace")
    first = [item["title"] + UNREAD for item in items[:3]]
    atspi.wait_for(lambda: shown_row_names(window)[:3] == first, "the first headlines again")
    time.sleep(SETTLE * 3)
    made = len(rows(window))
    assert made < 100, "%d rows made for a window that shows a few" % made
    assert items[-1]["title"] + UNREAD not in shown_row_names(window), "the last headline shows at the top"

    s.a11y.type_text("zebra")
    atspi.wait_for(lambda: shown_row_names(window) == zebra, "the match again")
    assert len(rows(window)) == made, "%d rows for the same search, %d before" % (len(rows(window)), made)
    tracker.close()
    assert_healthy(applet)


def background_bar(window):
    """The message that the applet runs on, when it shows."""
    return [
        node
        for node in window.find_all(role=Role.ALERT, showing_only=True)
        if node.name == "LWN.net Headlines keeps running"
    ]


def close_window(s, app, how):
    s.a11y.key("Escape") if how == "Escape" else s.a11y.key("w", ("Control",))
    atspi.wait_for(lambda: not headlines_windows(app), "%s to close the window" % how)


def test_no_tray_close_tells_once(s):
    """Without a tray host, the window is the applet's only face: the first close
    says, in the window, that the applet runs on and how to quit it, and the window
    stays; the next close goes, and the applet runs on. It says so once: not at the
    next close, nor after a new start. Ctrl+Q and the message's Quit quit. With a tray
    host (every other scenario here), a close closes at once."""
    items = plain_items(3, 959001)
    s.server.set_items(items)
    applet = s.launch("--show")
    app = s.application(applet)
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows")
    assert not background_bar(window), "the message shows before any close"
    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])

    s.a11y.key("Escape")
    bar = atspi.wait_for(lambda: background_bar(window), "the message that the applet runs on")[0]
    text = " ".join(label.name for label in bar.find_all(role=Role.LABEL, showing_only=True))
    assert "keeps running" in text and "Quit" in text, text
    assert_controls_named(bar, {(int(Role.PUSH_BUTTON), "Quit"), (int(Role.PUSH_BUTTON), "Keep Running")})
    time.sleep(SETTLE)
    assert headlines_windows(app) == [window], "the first close closed the window"
    assert s.gsettings("get", SCHEMA, "background-notice-shown") == "true"

    close_window(s, app, "Escape")
    time.sleep(SETTLE)
    applet.assert_alive()

    for how in ("Ctrl+W", "Escape"):
        show = s.launch("--show")
        assert show.wait_exit() == 0, show.log()
        window = wait_window(app, "the window again")
        wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows again")
        focus_row(tracker, rows(window)[0])
        close_window(s, app, how)
        applet.assert_alive()

    show = s.launch("--show")
    assert show.wait_exit() == 0, show.log()
    window = wait_window(app, "the window for Ctrl+Q")
    focus_row(tracker, rows(window)[0])
    s.a11y.key("q", ("Control",))
    assert applet.wait_exit() == 0, applet.log()
    tracker.close()

    again = s.launch("--show")
    app = s.application(again)
    window = wait_window(app, "the window after a new start")
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows after a new start")
    tracker = atspi.FocusTracker(s.a11y)
    focus_row(tracker, rows(window)[0])
    close_window(s, app, "Escape")
    assert_healthy(again)

    s.gsettings("reset", SCHEMA, "background-notice-shown")
    # The applet learns of the change through its key file's monitor.
    time.sleep(SETTLE)
    show = s.launch("--show")
    assert show.wait_exit() == 0, show.log()
    window = wait_window(app, "the window once the setting is reset")
    focus_row(tracker, rows(window)[0])
    s.a11y.key("w", ("Control",))
    bar = atspi.wait_for(lambda: background_bar(window), "the message once more")[0]
    # By the keyboard: a screen reader's "Click" on a button with a mnemonic asks
    # GTK 3 for its key binding, a string GTK never frees, which LeakSanitizer
    # would report against the applet.
    quit_button = bar.find(role=Role.PUSH_BUTTON, name="Quit", showing_only=True)
    assert quit_button.grab_focus()
    tracker.wait_focus(lambda node: node == quit_button, "the focus on the message's Quit")
    s.a11y.key("Return")
    assert again.wait_exit() == 0, again.log()
    tracker.close()

test_no_tray_close_tells_once.scenario = {"watcher": False}


def test_reader_asks_closed_window(s):
    """A screen reader may still hold a window that has closed and ask it for its children,
    as the sequence test's probe did: the applet answers without a critical, for the
    headlines window and for the preferences window, and a window opened again works."""
    items = plain_items(3, 957001)
    s.server.set_items(items)
    applet = s.start()
    menu = applet.menu()
    wait_menu_headlines(menu, [e2e.BULLET + item["title"] for item in items], "the headlines in the menu")
    app = s.application(applet)

    menu.click(SHOW_HEADLINES)
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows")
    menu.click("Preferences" + e2e.ELLIPSIS)
    preferences = atspi.wait_for(
        lambda: [node for node in app.children() if node.role == int(Role.FRAME) and node.name == "Preferences"],
        "the preferences window",
    )[0]
    stale = [window, preferences]
    assert all(node.get(atspi.ACCESSIBLE, "ChildCount") > 0 for node in stale), stale

    assert window.find(role=Role.PUSH_BUTTON, name="Close", showing_only=True).do_action("Click")
    assert preferences.find(role=Role.PUSH_BUTTON, name="Close", showing_only=True).do_action("Click")
    atspi.wait_for(lambda: not [node for node in app.children() if node.role == int(Role.FRAME)], "both windows to close")
    # What GTK answers for a closed window does not matter, as long as it answers.
    for node in stale:
        for interface, method, args in (
            ("org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (atspi.ACCESSIBLE, "ChildCount"))),
            (atspi.ACCESSIBLE, "GetChildren", None),
            (atspi.ACCESSIBLE, "GetChildAtIndex", GLib.Variant("(i)", (0,))),
        ):
            try:
                node.call(interface, method, args)
            except GLib.Error:
                pass
    applet.assert_alive()

    menu.click(SHOW_HEADLINES)
    window = wait_window(app, "the headlines window opened again")
    wait_row_names(window, [item["title"] + UNREAD for item in items], "the rows in the window opened again")
    assert_healthy(applet)


def feed_chooser(window):
    """The header bar's title with several feeds: a button named "Feed" that names the
    feed shown and opens the list of feeds."""
    return window.find(role=Role.TOGGLE_BUTTON, name="Feed", showing_only=True)


def shown_feed(window):
    """The feed shown and its unread count, as the chooser's button says them: its
    description, before the feed's status."""
    return feed_chooser(window).description.split(". ")[0]


def feed_list(window):
    """The list of feeds' table while its popover shows, or None."""
    found = window.find_all(role=Role.TABLE, name="Feeds", showing_only=True)
    return found[0] if found else None


def feed_list_closed(window):
    return not feed_chooser(window).checked and feed_list(window) is None


def open_feed_list(window):
    """Opens the list of feeds, if it is not open, and returns its table. A popover
    still fading out as the button is pressed again can end its closing after the
    press and leave the button up: then it is pressed again, as a person would."""

    def look():
        chooser = feed_chooser(window)
        if not chooser.checked:
            assert chooser.do_action("Click")
            return None
        return feed_list(window)

    return atspi.wait_for(look, "the list of feeds open", interval=0.2)


def feed_cells(table):
    return [cell for cell in table.children() if cell.role == int(Role.TABLE_CELL)]


def feed_entries(window):
    """The entries of the list of feeds, read with the list open, which closes again."""
    names = [cell.name for cell in feed_cells(open_feed_list(window))]
    close_feed_list(window)
    return names


def close_feed_list(window):
    chooser = feed_chooser(window)
    if chooser.checked:
        assert chooser.do_action("Click")
    atspi.wait_for(lambda: feed_list_closed(window), "the list of feeds closed")


def choose_feed(window, index):
    """Activates the entry at index of the list of feeds, as a click on it would. The
    list is made anew when a feed's unread count changes, which can take the cell
    away between finding it and activating it: then the cell is found again."""
    for _attempt in range(3):
        assert feed_cells(open_feed_list(window))[index].do_action("Activate")
        try:
            atspi.wait_for(lambda: feed_list_closed(window), "the list of feeds closed on a choice", timeout=3)
            return
        except e2e.Timeout:
            continue
    atspi.wait_for(lambda: feed_list_closed(window), "the list of feeds closed on a choice")


def open_window_on_two_feeds(s, other, first, second):
    """Follows the test server's feed with first and other's with second, and opens the
    window once the menu shows both; returns the applet, its menu, application and window."""
    s.server.set_items(first)
    other.set_body(e2e.rss1(second, "Second News"))
    applet = s.start("--feed-url", other.url)
    menu = applet.menu()
    last = e2e.BULLET + second[-1]["title"]
    menu.wait(lambda entries: [entry["label"] for entry in entries].count(last) == 1, "both feeds in the menu")
    app = s.application(applet)
    menu.click(SHOW_HEADLINES)
    return applet, menu, app, wait_window(app)


def test_several_feeds(s):
    """With two feeds the header bar's title is the list of feeds, "All feeds" first, each
    with its unread count; a feed shows its own rows, "All feeds" every feed's rows one
    feed after the other, each naming its feed after its details, and a search there finds
    the rows of either feed."""
    first = [e2e.headline(958001, "First feed news"), e2e.headline(958002, "First feed more")]
    second = [e2e.headline(958101, "Second feed news"), e2e.headline(958102, "Second feed more")]
    other = e2e.FeedServer()
    try:
        applet, menu, app, window = open_window_on_two_feeds(s, other, first, second)
        wait_row_names(window, [item["title"] + UNREAD for item in first], "the first feed's rows")
        assert shown_feed(window) == "LWN.net (2)"
        atspi.wait_for(
            lambda: feed_entries(window) == ["All feeds (4)", "LWN.net (2)", "Second News (2)"], "the feeds listed"
        )
        assert "Second News" not in row_named(window, first[0]["title"]).description

        choose_feed(window, 0)
        atspi.wait_for(lambda: shown_feed(window) == "All feeds (4)", "All feeds named on the button")
        every = [item["title"] + UNREAD for item in first + second]
        wait_row_names(window, every, "every feed's rows")
        for items, name in ((first, "LWN.net"), (second, "Second News")):
            for item in items:
                description = row_named(window, item["title"]).description
                assert description.split(". ")[0].endswith(" \u00b7 " + name), (item["title"], description)
        assert window.find(role=Role.TOGGLE_BUTTON, name="Search", showing_only=True).do_action("Click")
        entry = atspi.wait_for(lambda: search_entry(window), "the search entry")
        entry.set_text("news")
        atspi.wait_for(
            lambda: shown_row_names(window) == [first[0]["title"] + UNREAD, second[0]["title"] + UNREAD],
            "a match in each feed",
        )
        entry.set_text("")
        atspi.wait_for(lambda: len(shown_row_names(window)) == 4, "every row once the search is empty")

        choose_feed(window, 2)
        wait_row_names(window, [item["title"] + UNREAD for item in second], "the second feed's rows")
        atspi.wait_for(
            lambda: "Second News" not in row_named(window, second[0]["title"]).description,
            "a feed's own rows without its name",
        )
        tracker = atspi.FocusTracker(s.a11y)
        focus_row(tracker, row_named(window, second[0]["title"]))
        s.a11y.key("Return")
        tracker.close()
        assert s.recorder.wait_count(1) == [second[0]["link"]], s.recorder.urls()
        atspi.wait_for(lambda: feed_entries(window)[0] == "All feeds (3)", "one read in all")
        assert_healthy(applet)
    finally:
        other.close()


def test_feed_list_made_late(s):
    """The list of feeds is made the first time it opens: opened only after a feed's
    unread count changed, it lists every feed with its count as it is then, and it
    follows the next change once made."""
    first = [e2e.headline(959001, "First feed news")]
    second = [e2e.headline(959101, "Second feed news")]
    other = e2e.FeedServer()
    try:
        applet, menu, app, window = open_window_on_two_feeds(s, other, first, second)
        wait_row_names(window, [first[0]["title"] + UNREAD], "the first feed's row")
        assert feed_list(window) is None

        second.insert(0, e2e.headline(959102, "Second feed later"))
        other.set_body(e2e.rss1(second, "Second News"))
        menu.click(REFRESH_NOW)
        menu.wait(
            lambda entries: [entry["label"] for entry in entries].count(e2e.BULLET + "Second feed later") == 1,
            "the second feed's new headline in the menu",
        )
        assert feed_entries(window) == ["All feeds (3)", "LWN.net (1)", "Second News (2)"]
        # As wide as its names need, not a sliver that cuts them to their first letter.
        width = open_feed_list(window).extents()[2]
        close_feed_list(window)
        assert width >= 250, "the list of feeds is %d px wide" % width

        second.insert(0, e2e.headline(959103, "Second feed latest"))
        other.set_body(e2e.rss1(second, "Second News"))
        menu.click(REFRESH_NOW)
        atspi.wait_for(
            lambda: feed_entries(window) == ["All feeds (4)", "LWN.net (1)", "Second News (3)"],
            "the list made before follows the next change",
        )
        assert_healthy(applet)
    finally:
        other.close()


def test_many_feeds_menu(s):
    """Twelve feeds: the menu shows the newest headlines of all, each after its feed's
    name, no heading per feed, and every command; All Feeds lists every feed with its
    unread count, and choosing one opens the window on that feed's headlines."""
    folder = os.path.join(s.root, "feeds")
    os.makedirs(folder)
    names = ["Feed %02d" % number for number in range(12)]
    feeds = []
    for number, name in enumerate(names):
        items = [
            e2e.headline(960000 + 100 * number + k, "%s story %d" % (name, k), date=hours_ago(number + 24 * k))
            for k in range(2)
        ]
        path = os.path.join(folder, "feed%02d.rdf" % number)
        with open(path, "wb") as feed:
            feed.write(e2e.rss1(items, name))
        feeds.append(("file://" + path, items))
    arguments = []
    for url, _items in feeds[1:]:
        arguments += ["--feed-url", url]
    applet = s.start(*arguments, feed_url=feeds[0][0])
    menu = applet.menu()

    def every_feed_listed(entries):
        submenus = [entry for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
        return submenus and [child["label"] for child in submenus[0]["submenu"] if child["visible"]] == [
            name + " \u2014 2 unread" for name in names
        ]

    entries = menu.wait(every_feed_listed, "every feed in the All Feeds submenu")
    top, commands = e2e.split_menu([entry for entry in entries if entry["visible"]])
    headlines = [entry["label"] for entry in top if entry["label"] != "All Feeds"]
    # The newest first: each feed's first story, feed 00 the newest.
    assert len(headlines) >= 8, headlines
    assert headlines[:3] == [e2e.BULLET + "%s: %s story 0" % (name, name) for name in names[:3]], headlines
    assert not [label for label in headlines if label.lstrip(e2e.BULLET) in names], "a feed heading: %r" % headlines
    labels = [entry["label"] for entry in commands]
    for command in (SHOW_HEADLINES, "Refresh now", "Mark all as read", "Preferences" + e2e.ELLIPSIS, "Quit"):
        assert command in labels, (command, labels)
    assert [entry for entry in entries if entry["label"] == "All Feeds"][0]["children-display"] == "submenu"

    app = s.application(applet)
    submenu = [entry for entry in menu.items() if entry["label"] == "All Feeds"][0]["submenu"]
    chosen = [child for child in submenu if child["label"].startswith(names[7])][0]
    menu.click_id(chosen["id"])
    window = wait_window(app)
    wait_row_names(window, [item["title"] + UNREAD for item in feeds[7][1]], "feed 07's rows")
    assert_healthy(applet)


def one_item_feeds(s, names, first_id):
    """Writes a feed of one headline, "NAME story", for each name, the first one the
    newest, and returns their file: addresses."""
    folder = os.path.join(s.root, "feeds")
    os.makedirs(folder)
    urls = []
    for number, name in enumerate(names):
        items = [e2e.headline(first_id + number, "%s story" % name, date=hours_ago(number))]
        path = os.path.join(folder, "feed%02d.rdf" % number)
        with open(path, "wb") as feed:
            feed.write(e2e.rss1(items, name))
        urls.append("file://" + path)
    return urls


def follow_feeds(s, feeds):
    """Sets the feeds setting to feeds, (address, name, notify) triples."""
    s.gsettings("set", SCHEMA, "feeds", GLib.Variant("a(ssb)", feeds).print_(False))


def start_beside_menu(s, size):
    """An X server of its own of that size, and the applet on it, told it runs on Xfce,
    whose panel opens a submenu beside the menu; returns the server and the applet."""
    xvfb, display = e2e.start_xvfb(size)
    s.env["DISPLAY"] = display
    s.env["XDG_CURRENT_DESKTOP"] = "XFCE"
    try:
        return xvfb, s.start(use_settings=True)
    except BaseException:
        e2e.stop_process(xvfb)
        raise


def feeds_submenu_labels(entries):
    """The visible entries of the All Feeds submenu, or None while it does not show."""
    submenus = [entry for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
    return [child["label"] for child in submenus[0]["submenu"] if child["visible"]] if submenus else None


def test_more_feeds_than_fit(s):
    """Sixty feeds on a 1024x768 screen beside the menu (no GNOME Shell, which opens
    the submenu inside the menu): All Feeds lists as many as the screen holds, and last
    "36 more feeds…", which opens the window with its list of every feed open at the
    first the submenu left out, at the top, where that feed is one click away."""
    names = ["Feed %02d" % number for number in range(60)]
    urls = one_item_feeds(s, names, 962000)
    # Feed 40 goes by the name the person gave it.
    names[40] = "Forty, renamed"
    follow_feeds(s, [(url, name if number == 40 else "", True) for number, (url, name) in enumerate(zip(urls, names))])
    xvfb, applet = start_beside_menu(s, "1024x768")
    try:
        menu = applet.menu()
        # (768 px less 64 for the panel and the frame) / 28 px a row: 25 rows.
        listed = [name + " \u2014 1 unread" for name in names[:24]] + ["36 more feeds" + e2e.ELLIPSIS]
        menu.wait(lambda entries: feeds_submenu_labels(entries) == listed, "24 feeds and the rest in one entry")

        def in_view(table):
            top, height = table.extents()[1], table.extents()[3]
            return [cell.name for cell in feed_cells(table) if top <= cell.extents()[1] < top + height]

        # The list opened with the window, before it has its size, still shows the
        # feed shown, with the cursor.
        app_path = "/" + e2e.APP_ID.replace(".", "/")

        def activate(name, parameter):
            args = GLib.Variant("(sava{sv})", (name, [GLib.Variant("s", parameter)], {}))
            s.bus.call(e2e.APP_ID, app_path, "org.gtk.Actions", "Activate", args, None)

        def at_top(table, index):
            """Whether the entry at index is the first in the list's view, whole."""
            return abs(feed_cells(table)[index].extents()[1] - table.extents()[1]) <= 1

        activate("show-feed", urls[40])
        activate("choose-feed", "")
        app = s.application(applet)
        window = wait_window(app)
        table = atspi.wait_for(lambda: feed_list(window), "the list of feeds open with the window")
        atspi.wait_for(lambda: "Forty, renamed (1)" in in_view(table), "feed 40, shown, in the list's view")
        assert feed_cells(table)[41].has_state(atspi.State.SELECTED)
        # The window's title names the feed as the list does.
        assert window.name == "Headlines \u2014 Forty, renamed", window.name
        close_feed_list(window)

        submenu = [entry for entry in menu.items() if entry["label"] == "All Feeds"][0]["submenu"]
        more = [child for child in submenu if child["label"] == listed[-1]][0]
        menu.click_id(more["id"])
        table = atspi.wait_for(lambda: feed_list(window), "the list of feeds open again")
        cells = feed_cells(table)
        assert [cell.name for cell in cells] == ["All feeds (60)"] + [name + " (1)" for name in names], [
            cell.name for cell in cells
        ]
        # "All feeds" first: feed 24, the first left out, is the 26th entry, at the top
        # of the list's view, with the cursor.
        atspi.wait_for(lambda: at_top(table, 25), "the list of feeds at feed 24")
        assert cells[25].has_state(atspi.State.SELECTED), cells[25].states()
        # Asked again while it is open, the list moves to that feed.
        activate("choose-feed", urls[35])
        atspi.wait_for(lambda: at_top(table, 36), "the open list of feeds at feed 35")
        assert cells[36].has_state(atspi.State.SELECTED), cells[36].states()
        assert cells[36].do_action("Activate")
        atspi.wait_for(lambda: feed_list_closed(window), "the list of feeds closed on a choice")
        wait_row_names(window, ["Feed 35 story" + UNREAD], "the rows of a feed the submenu did not list")
        assert_healthy(applet)
    finally:
        e2e.stop_process(xvfb)


def test_feeds_submenu_boundary(s):
    """At 1280x800 beside the menu the Feeds submenu has 26 rows: 26 feeds are all
    listed, with no "more" entry; a 27th, added to the list, leaves 25 and "2 more
    feeds…"; removed again, every feed is listed once more."""
    names = ["Feed %02d" % number for number in range(27)]
    feeds = [(url, "", True) for url in one_item_feeds(s, names, 963000)]
    entry = [name + " \u2014 1 unread" for name in names]
    follow_feeds(s, feeds[:26])
    xvfb, applet = start_beside_menu(s, "1280x800")
    try:
        menu = applet.menu()
        menu.wait(lambda entries: feeds_submenu_labels(entries) == entry[:26], "all 26 feeds in the submenu")
        follow_feeds(s, feeds)
        menu.wait(
            lambda entries: feeds_submenu_labels(entries) == entry[:25] + ["2 more feeds" + e2e.ELLIPSIS],
            "25 feeds and 2 more",
        )
        follow_feeds(s, feeds[:26])
        menu.wait(lambda entries: feeds_submenu_labels(entries) == entry[:26], "all 26 feeds again")
        assert_healthy(applet)
    finally:
        e2e.stop_process(xvfb)


def test_all_feeds_submenu_from_the_start(s):
    """All Feeds is a submenu from the menu's first layout, before any feed has answered:
    a host that first sees it without children-display (Plasma's) keeps it a plain item,
    which a click closes, whatever the layouts after say."""
    urls = []
    for number in range(5):
        name = "Early feed %d" % number
        path = "/early%d.rdf" % number
        s.server.add_page(path, "application/rdf+xml", e2e.rss1([e2e.headline(970000 + number, "%s story" % name)], name))
        urls.append("http://127.0.0.1:%d%s" % (s.server.port, path))
    arguments = []
    for url in urls[1:]:
        arguments += ["--feed-url", url]
    s.server.hold()
    try:
        applet = s.start(*arguments, feed_url=urls[0])
        menu = applet.menu()
        entries = menu.items()
        assert any(entry["label"] == LOADING and entry["visible"] for entry in entries), entries
        feeds = [entry for entry in entries if entry["label"] == "All Feeds"]
        assert feeds and feeds[0]["children-display"] == "submenu", feeds
    finally:
        s.server.release()

    def listed(entries):
        feeds = [entry for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
        return feeds and len([child for child in feeds[0]["submenu"] if child["visible"]]) == 5

    entries = menu.wait(listed, "the five feeds in All Feeds")
    assert [entry for entry in entries if entry["label"] == "All Feeds"][0]["children-display"] == "submenu"
    assert_healthy(applet)


TESTS = [
    ("rows named and described; a summary link and a row each open their own URL", test_rows_and_links),
    ("--show presents one window; loading page; arrows, Ctrl+R, Escape, Ctrl+W", test_loading_show_and_keyboard),
    ("the error page has its reason and Retry, which loads the rows", test_error_and_retry),
    ("a refresh after each way of closing the window", test_close_then_refresh),
    ("the window's size survives Quit with the window open", test_size_survives_quit),
    ("a refresh keeps the focused row focused and in place", test_refresh_keeps_focus_and_scroll),
    ("a 1,000-item feed: Page Down, End and Home", test_large_feed_end),
    ("Mark All as Read shows every row read", test_mark_all_read),
    ("ages move on in an open window", test_ages_move_on),
    ("without a tray, the first close says the applet runs on, once", test_no_tray_close_tells_once),
    ("search: filter as one types, count, no match, a refresh, Enter, Escape", test_search),
    ("search a 1,200-item feed for its last headline, then clear it", test_search_large),
    ("several feeds: one at a time or all, searched across", test_several_feeds),
    ("the list of feeds first opened after a feed changed", test_feed_list_made_late),
    ("twelve feeds: the newest of all in the menu, and a feed opened from All Feeds", test_many_feeds_menu),
    ("sixty feeds on a short screen: All Feeds ends in the window's list of the rest", test_more_feeds_than_fit),
    ("26 and 27 feeds at 1280x800: the Feeds submenu's last row, a feed or the rest", test_feeds_submenu_boundary),
    ("All Feeds is a submenu before the feeds answer", test_all_feeds_submenu_from_the_start),
    ("a screen reader that asks a closed window for its children", test_reader_asks_closed_window),
]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-headlines-window.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, lambda func: atspi.Scenario(BINARY, **getattr(func, "scenario", {})))


if __name__ == "__main__":
    sys.exit(main())
