#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives lwn-tray's preferences window through the accessibility bus, as a screen
reader user would: opened from the tray menu, every control named, reachable with Tab,
changes applied at once and followed by the menu, changes made elsewhere shown, the
custom feed address checked as typed, Start at login in step with the menu, and the
window closed with Escape or Ctrl+W. A list of two hundred feeds opens with a row made
once for each, keeps its rows while feeds change, is searched, and loses many feeds in
one write, the feeds of an OPML import among them, with an Undo that puts them back."""

import os
import re
import sys
import time
from xml.sax.saxutils import quoteattr

from gi.repository import GLib

import lwn_atspi as atspi
import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
SCHEMA = "io.github.lwntray.LwnTray"
TITLE = "Preferences"
OVERRIDDEN = "Set on the command line for this run"
Role = atspi.Role
INTERACTIVE = {int(role) for role in atspi.INTERACTIVE_ROLES}

# Long enough for a stray write or a second window to show up.
SETTLE = 1.0


def items(count, first=938000, title="Headline %d"):
    return [e2e.headline(first + index, title % (first + index)) for index in range(count)]


def headline_labels(entries):
    return [entry["label"] for entry in e2e.split_menu(entries)[0]]


def wait_headline_count(menu, count, what):
    return menu.wait(lambda entries: len(headline_labels(entries)) == count, what)


def start(s, feed=None, *args, overrides=False):
    """Starts the applet on the scenario's feed and waits for the headlines. The feed
    and interval come from the settings unless overrides is set, when they are given
    on the command line as well. The applet is never pointed at LWN.net itself: a
    test reaches 127.0.0.1 only."""
    feed = feed or items(6)
    s.server.set_items(feed)
    if overrides:
        applet = s.start(*args)
    else:
        s.gsettings("set", SCHEMA, "feed-url", s.server.url)
        applet = s.start(*args, use_settings=True)
    menu = applet.menu()
    wait_headline_count(menu, len(feed), "the headlines")
    return applet, menu


def windows(app):
    return [node for node in app.children() if node.role == int(Role.FRAME) and node.name == TITLE]


def open_preferences(s, applet, menu):
    """Clicks "Preferences…" in the tray menu and returns (application, window)."""
    app = s.application(applet)
    menu.click("Preferences" + e2e.ELLIPSIS)
    window = e2e.wait_for(lambda: [w for w in windows(app) if w.showing], "the preferences window")[0]
    return app, window


def control(window, role, name):
    return window.find(role=role, name=name)


def setting(s, key):
    return s.gsettings("get", SCHEMA, key)


def control_of(node):
    """The control a focused object belongs to: GTK 3 gives a combo box's keyboard
    focus to an inner toggle button with an accessible of its own."""
    if node.role == Role.TOGGLE_BUTTON:
        ancestor = node.parent
        for _ in range(3):
            if ancestor is None:
                break
            if ancestor.role == Role.COMBO_BOX:
                return ancestor
            ancestor = ancestor.parent
    return node


def focus_window(s, window, tracker):
    """Gives the window the keyboard focus the way a screen reader does: by focusing
    one of its controls, which also raises the window."""
    spin = control(window, Role.SPIN_BUTTON, "Headlines in the menu")
    assert spin.grab_focus(), spin
    tracker.wait_focus(lambda node: node == spin, "the spin button focused")
    atspi.wait_for(lambda: window.has_state(atspi.State.ACTIVE), "the window active")


# Scenarios -----------------------------------------------------------------


def test_open_and_label(s):
    """"Preferences…" sits just above "Start at login"; it opens one window however
    often it is clicked; every control has a name of its own, taken from the label
    next to it, which is also its labelled-by relation."""
    applet, menu = start(s)
    labels = menu.labels()
    position = labels.index("Preferences" + e2e.ELLIPSIS)
    assert labels[position + 1] == "Start at login", labels

    app, window = open_preferences(s, applet, menu)
    menu.click("Preferences" + e2e.ELLIPSIS)
    time.sleep(SETTLE)
    assert len(windows(app)) == 1, windows(app)

    controls = [node for node in window.walk(showing_only=True) if node.role in INTERACTIVE]
    named = {(node.role, node.name) for node in controls}
    for role, name in (
        (Role.TEXT, "Add a feed"),
        (Role.TOGGLE_BUTTON, "Notifications from 127.0.0.1"),
        (Role.PUSH_BUTTON, "Remove 127.0.0.1"),
        (Role.PUSH_BUTTON, "Import OPML" + e2e.ELLIPSIS),
        (Role.PUSH_BUTTON, "Export OPML" + e2e.ELLIPSIS),
        (Role.COMBO_BOX, "Refresh every"),
        (Role.TOGGLE_BUTTON, "Notify about new headlines"),
        (Role.TOGGLE_BUTTON, "Notify about \u201cSecurity updates\u201d lists"),
        (Role.TOGGLE_BUTTON, "Headlines in the desktop\u2019s search"),
        (Role.SPIN_BUTTON, "Headlines in the menu"),
        (Role.COMBO_BOX, "Panel icon"),
        (Role.TOGGLE_BUTTON, "I am an LWN subscriber"),
        (Role.TOGGLE_BUTTON, "Start at login"),
    ):
        assert (int(role), name) in named, "no %s named %r among %r" % (role, name, controls)

    for node in controls:
        assert node.name.strip(), "a nameless control: %r" % node
        if node.role == int(Role.PUSH_BUTTON):
            continue  # window buttons, and buttons named by what they do
        if node.name.startswith("Notifications from "):
            continue  # a feed's switch, named after its feed and what it does
        labels = node.labelled_by()
        assert labels and labels[0].name == node.name, (node, labels)

    interval = control(window, Role.COMBO_BOX, "Refresh every")
    assert "back-off" in interval.description, interval.description
    assert interval.sensitive and not interval.description.startswith(OVERRIDDEN)
    applet.assert_alive()


def test_keyboard(s):
    """Tab and Shift+Tab reach every control in turn; Ctrl+W closes the window, and
    the menu item opens a fresh one."""
    applet, menu = start(s)
    app, window = open_preferences(s, applet, menu)
    tracker = atspi.FocusTracker(s.a11y)
    focus_window(s, window, tracker)
    # The header bar's window buttons take no focus; a button that cannot act takes none either.
    expected = {
        node
        for node in window.walk(showing_only=True)
        if node.role in INTERACTIVE
        and node.sensitive
        and not (node.role == Role.PUSH_BUTTON and node.name in ("Minimize", "Maximize", "Close"))
    }

    for key, modifiers in (("Tab", ()), ("ISO_Left_Tab", ("Shift",))):
        reached = []
        for _ in range(len(expected)):
            before = tracker.focused
            s.a11y.key(key, modifiers)
            focused = tracker.wait_focus(lambda node: node != before, "the focus to move on %s" % key)
            assert focused.name.strip(), "the focus is on a nameless %r in %r" % (focused, focused.parent)
            reached.append(control_of(focused))
        assert set(reached) == expected, "%s reached %r, not %r" % (key, reached, expected)
    tracker.close()

    s.a11y.key("w", ("Control",))
    e2e.wait_for(lambda: not windows(app), "Ctrl+W to close the window")
    app, window = open_preferences(s, applet, menu)
    assert len(windows(app)) == 1


def test_max_items_and_outside_changes(s):
    """Headlines in the menu set through AT-SPI applies at once and the menu follows;
    gsettings-style changes made while the window is open show in it, including an
    interval that is none of the choices, which is shown as it is."""
    applet, menu = start(s, items(8))
    app, window = open_preferences(s, applet, menu)

    spin = control(window, Role.SPIN_BUTTON, "Headlines in the menu")
    assert spin.value == 20, spin.value
    spin.set_value(3)
    e2e.wait_for(lambda: setting(s, "max-items") == "uint32 3", "max-items written")
    wait_headline_count(menu, 3, "three headlines after max-items=3")

    s.gsettings("set", SCHEMA, "max-items", "5")
    e2e.wait_for(lambda: spin.value == 5, "the spin button showing 5")
    wait_headline_count(menu, 5, "five headlines")

    notify = control(window, Role.TOGGLE_BUTTON, "Notify about new headlines")
    security = control(window, Role.TOGGLE_BUTTON, "Notify about \u201cSecurity updates\u201d lists")
    assert notify.checked and security.checked and security.sensitive
    s.gsettings("set", SCHEMA, "notifications", "false")
    e2e.wait_for(lambda: not notify.checked, "the notification switch off")
    e2e.wait_for(lambda: not security.sensitive, "the security filter insensitive without notifications")
    security_state = security.checked
    notify.do_action("Toggle")
    e2e.wait_for(lambda: setting(s, "notifications") == "true", "notifications switched back on")
    security.do_action("Toggle")
    e2e.wait_for(lambda: setting(s, "notify-security-updates") == str(not security_state).lower(), "the filter written")

    search = control(window, Role.TOGGLE_BUTTON, "Headlines in the desktop\u2019s search")
    assert search.checked and "KRunner" in search.description, search.description
    search.do_action("Toggle")
    e2e.wait_for(lambda: setting(s, "search-provider") == "false", "the desktop's search switched off")
    s.gsettings("set", SCHEMA, "search-provider", "true")
    e2e.wait_for(lambda: search.checked, "the switch on again after the setting")

    interval = control(window, Role.COMBO_BOX, "Refresh every")
    assert interval.selected_child().name == "30 minutes", interval.selected_child()
    s.gsettings("set", SCHEMA, "refresh-interval", "7200")
    e2e.wait_for(lambda: interval.selected_child().name == "2 hours", "the interval showing 2 hours")
    s.gsettings("set", SCHEMA, "refresh-interval", "600")
    e2e.wait_for(lambda: interval.selected_child().name == "10 minutes", "an extra choice for 10 minutes")
    time.sleep(SETTLE)
    assert setting(s, "refresh-interval") == "uint32 600", "an interval shown must never be rewritten"
    menu_items = interval.children()[0].children()
    assert [item.name for item in menu_items][:2] == ["10 minutes", "15 minutes"], menu_items

    icon = control(window, Role.COMBO_BOX, "Panel icon")
    assert icon.selected_child().name == "Automatic", icon.selected_child()
    icon.select_child([item.name for item in icon.children()[0].children()].index("Monochrome"))
    e2e.wait_for(lambda: setting(s, "tray-icon-style") == "'symbolic'", "the symbolic icon style written")
    e2e.wait_for(lambda: applet.prop("IconName").endswith("-symbolic"), "the panel icon in monochrome")
    s.gsettings("set", SCHEMA, "tray-icon-style", "colour")
    e2e.wait_for(lambda: icon.selected_child().name == "Full colour", "the style combo showing Full colour")
    e2e.wait_for(lambda: not applet.prop("IconName").endswith("-symbolic"), "the panel icon in colour")

    interval.select_child(len(menu_items) - 1)
    e2e.wait_for(lambda: setting(s, "refresh-interval") == "uint32 86400", "one day written")
    e2e.wait_for(lambda: re.search(r"Next refresh in 86[34]\d\d s", applet.log()), "the applet rescheduled to a day")
    e2e.wait_for(
        lambda: "10 minutes" not in [item.name for item in interval.children()[0].children()],
        "the extra choice gone",
    )
    applet.assert_alive()


def feeds_setting(s):
    return setting(s, "feeds")


def test_feeds(s):
    """The feeds: an address is checked as it is typed, the reason shown under it and
    given as the entry's description; nothing is added before Enter. Enter on a web
    page's address finds the feed the page names, loads it once and adds it under its
    title; the applet follows it at once, in a section of its own. A feed moves with
    its buttons, the focus staying on the button; Remove takes a feed away with an
    Undo that brings it back where it was; a feed's switch turns its notifications
    off. Escape first takes back what was typed, and only then closes the window."""
    applet, menu = start(s)
    other = e2e.FeedServer()
    try:
        other.set_items(items(2, 939000, "Other feed headline %d"))
        page = "http://127.0.0.1:%d/blog/" % other.port
        other.add_page(
            "/blog/",
            "text/html; charset=utf-8",
            b'<!DOCTYPE html><html><head><title>A blog</title>'
            b'<link rel="alternate" type="application/rss+xml" title="Posts" href="/headlines/rss">'
            b"</head><body><p>Posts</p></body></html>",
        )
        app, window = open_preferences(s, applet, menu)
        entry = control(window, Role.TEXT, "Add a feed")
        before = feeds_setting(s)
        assert before == "[('%s', '', true)]" % s.server.url, before

        entry.set_text("ftp://x")
        error = e2e.wait_for(
            lambda: [
                node
                for node in window.walk(showing_only=True)
                if node.role == Role.LABEL and node.name.startswith("Only http")
            ],
            "an inline error",
        )[0]
        assert entry.description == error.name, (entry.description, error.name)
        assert error in entry.described_by(), entry.relations()
        assert entry.grab_focus()
        s.a11y.key("Return")
        time.sleep(SETTLE)
        assert feeds_setting(s) == before, "a bad address was added"

        entry.set_text(page)
        e2e.wait_for(lambda: entry.description == "", "the error cleared for a good address")
        time.sleep(SETTLE)
        assert feeds_setting(s) == before, "added before Enter"
        s.a11y.key("Return")
        e2e.wait_for(lambda: other.url in feeds_setting(s), "the page's feed added")
        assert feeds_setting(s) == "[('%s', '', true), ('%s', 'LWN.net', true)]" % (s.server.url, other.url)
        e2e.wait_for(lambda: entry.text == "", "the entry emptied")
        assert entry.description.startswith("Added "), entry.description
        menu.wait(
            lambda entries: any("Other feed headline" in label for label in headline_labels(entries)),
            "the new feed's headlines in the menu",
        )

        # Both feeds are named after the host; the second's buttons say so too.
        removes = e2e.wait_for(lambda: window.find_all(role=Role.PUSH_BUTTON, name="Remove 127.0.0.1") or None, "rows")
        assert len(removes) == 1, "one row is called LWN.net, the other after its host"
        # A row added at the end: its buttons are bound to the editor's actions once it is shown.
        time.sleep(SETTLE)
        assert not control(window, Role.PUSH_BUTTON, "Move LWN.net down").sensitive, "the new last feed can move down"
        assert not control(window, Role.PUSH_BUTTON, "Move 127.0.0.1 up").sensitive, "the first feed can move up"
        down = control(window, Role.PUSH_BUTTON, "Move 127.0.0.1 down")
        assert down.do_action("Click")
        e2e.wait_for(
            lambda: feeds_setting(s) == "[('%s', 'LWN.net', true), ('%s', '', true)]" % (other.url, s.server.url),
            "the first feed moved down",
        )
        up = e2e.wait_for(lambda: window.find(role=Role.PUSH_BUTTON, name="Move 127.0.0.1 up"), "its up button")
        assert e2e.wait_for(lambda: up.focused or None, "the focus on the moved feed's button")
        # Buttons bound to the editor's actions: the ends' must stay insensitive once shown.
        time.sleep(SETTLE)
        assert up.sensitive, "the last feed cannot move up"
        assert not control(window, Role.PUSH_BUTTON, "Move 127.0.0.1 down").sensitive, "the last feed can move down"
        assert not control(window, Role.PUSH_BUTTON, "Move LWN.net up").sensitive, "the first feed can move up"

        switch = control(window, Role.TOGGLE_BUTTON, "Notifications from LWN.net")
        assert switch.checked
        switch.do_action("Toggle")
        e2e.wait_for(lambda: "'LWN.net', false" in feeds_setting(s), "the feed's notifications off")

        remove = control(window, Role.PUSH_BUTTON, "Remove LWN.net")
        assert remove.do_action("Click")
        e2e.wait_for(lambda: feeds_setting(s) == "[('%s', '', true)]" % s.server.url, "the feed removed")
        undo = e2e.wait_for(lambda: window.find(role=Role.PUSH_BUTTON, name="Undo", showing_only=True), "Undo")
        last = e2e.wait_for(lambda: window.find(role=Role.PUSH_BUTTON, name="Remove 127.0.0.1"), "the one row")
        assert not last.sensitive, "the last feed can be removed"
        assert undo.do_action("Click")
        e2e.wait_for(
            lambda: feeds_setting(s) == "[('%s', 'LWN.net', false), ('%s', '', true)]" % (other.url, s.server.url),
            "the feed back where it was, as it was",
        )

        entry = control(window, Role.TEXT, "Add a feed")
        entry.set_text("https://example.org/typed")
        assert entry.grab_focus()
        s.a11y.key("Escape")
        e2e.wait_for(lambda: entry.text == "", "Escape to take the typing back")
        assert windows(app), "the first Escape closed the window"
        s.a11y.key("Escape")
        e2e.wait_for(lambda: not windows(app), "the second Escape to close the window")
        applet.assert_alive()
    finally:
        other.close()


def autostart_path(s):
    return os.path.join(s.dirs["XDG_CONFIG_HOME"], "autostart", SCHEMA + ".desktop")


def test_start_at_login(s):
    """The window's switch and the menu's check item show one state whichever is used."""
    applet, menu = start(s)
    app, window = open_preferences(s, applet, menu)
    switch = control(window, Role.TOGGLE_BUTTON, "Start at login")
    assert not switch.checked and menu.find("Start at login")["toggle-state"] == 0

    switch.do_action("Toggle")
    e2e.wait_for(lambda: os.path.exists(autostart_path(s)), "the autostart entry written")
    menu.wait(lambda entries: menu.find("Start at login")["toggle-state"] == 1, "the menu item ticked")
    assert switch.checked

    menu.click("Start at login")
    e2e.wait_for(lambda: not os.path.exists(autostart_path(s)), "the autostart entry removed")
    e2e.wait_for(lambda: not switch.checked, "the switch off after the menu item")

    menu.click("Start at login")
    e2e.wait_for(lambda: switch.checked, "the switch on after the menu item")
    # The switch shows what was asked at once; the entry is written in a worker.
    e2e.wait_for(lambda: os.path.exists(autostart_path(s)), "the autostart entry written again")

    # A refusal leaves both showing what is true on disk: here a folder stands
    # where the entry would be written, which stops root as well.
    menu.click("Start at login")
    e2e.wait_for(lambda: not switch.checked, "the switch off again")
    # The switch shows the click at once; the worker removes the entry after.
    e2e.wait_for(lambda: not os.path.exists(autostart_path(s)), "the autostart entry removed again")
    os.mkdir(autostart_path(s))
    switch.do_action("Toggle")
    e2e.wait_for(lambda: "Could not change Start at login" in applet.log(), "the failure reported")
    e2e.wait_for(lambda: not switch.checked, "the switch back off after the failure")
    menu.wait(lambda entries: menu.find("Start at login")["toggle-state"] == 0, "the menu item unticked")
    os.rmdir(autostart_path(s))
    applet.assert_alive()


def test_overrides(s):
    """--feed-url, --interval and --no-notify: their controls are insensitive and say
    why, while still showing the settings, which apply again on the next run."""
    s.gsettings("set", SCHEMA, "feeds", "[('https://lwn.net/headlines/Features', 'Features', true)]")
    applet, menu = start(s, None, "--no-notify", overrides=True)
    app, window = open_preferences(s, applet, menu)
    for role, name in (
        (Role.TEXT, "Add a feed"),
        (Role.COMBO_BOX, "Refresh every"),
        (Role.TOGGLE_BUTTON, "Notify about new headlines"),
    ):
        node = control(window, role, name)
        assert not node.sensitive, node
        assert node.description == OVERRIDDEN, (node, node.description)
    shown = window.find_all(role=Role.LABEL, name=OVERRIDDEN, showing_only=True)
    assert len(shown) == 3, shown

    feed = e2e.wait_for(lambda: window.find(role=Role.TOGGLE_BUTTON, name="Notifications from Features"), "its row")
    assert not feed.sensitive, feed
    assert not control(window, Role.PUSH_BUTTON, "Import OPML" + e2e.ELLIPSIS).sensitive
    spin = control(window, Role.SPIN_BUTTON, "Headlines in the menu")
    assert spin.sensitive and spin.description == "", spin.description
    applet.assert_alive()


# A long list ------------------------------------------------------------------

# Names of the kind people follow; each is in the long list five times, numbered. Two
# are found by words only their address has ("kdist"), or only with the accents and
# case set aside ("SECURITE").
LONG_LIST_NAMES = [
    ("Debian Security Advisories", "security/dsa"),
    ("Planet GNOME", "planet-gnome/atom.xml"),
    ("Phoronix", "phoronix/rss.php"),
    ("Planet KDE", "planet-kde/atom.xml"),
    ("Kernel.org releases", "feeds/kdist.xml"),
    ("Fedora Magazine", "fedora-magazine/feed"),
    ("Ubuntu Security Notices", "ubuntu/notices.xml"),
    ("Hacker News", "hn/rss"),
    ("Ars Technica", "arstechnica/index"),
    ("Planet Debian", "planet-debian/rss20.xml"),
    ("This Week in GNOME", "twig/index.xml"),
    ("Rust Blog", "rust/feed.xml"),
    ("Python Insider", "python-insider/posts"),
    ("OpenBSD Journal", "undeadly/rss"),
    ("Arch Linux News", "archlinux/news"),
    ("Mozilla Hacks", "mozilla-hacks/feed"),
    ("Schneier on Security", "schneier/atom"),
    ("Le Monde Informatique \u2014 S\u00e9curit\u00e9", "lmi/securite"),
    ("GNOME Discourse", "discourse/latest.rss"),
    ("KDE Announcements", "kde/announcements.rss"),
    ("Linux Foundation", "linuxfoundation/feed"),
    ("LibreOffice Blog", "libreoffice/feed"),
    ("GIMP News", "gimp/feeds/atom.xml"),
    ("Inkscape News", "inkscape/news.rss"),
    ("Blender Developers", "blender/dev.rss"),
    ("Thunderbird Blog", "thunderbird/feed"),
    ("Firefox Nightly", "nightly/feed"),
    ("Chromium Blog", "chromium/posts"),
    ("Postgres Weekly", "postgres/weekly.rss"),
    ("SQLite Releases", "sqlite/releases.rss"),
    ("curl Changes", "curl/changes.rss"),
    ("systemd Releases", "systemd/releases.atom"),
    ("Mesa Releases", "mesa/releases.rss"),
    ("Wine HQ News", "winehq/news.rss"),
    ("Flathub New Apps", "flathub/new.rss"),
    ("Debian Micronews", "micronews/feeds/atom.xml"),
    ("Ubuntu Blog", "ubuntu/blog.rss"),
    ("openSUSE News", "opensuse/news.rss"),
    ("Alpine Linux News", "alpine/atom.xml"),
    ("NixOS Weekly", "nixos/weekly.rss"),
]
LONG_LIST_COPIES = 5


def long_list(s):
    """Two hundred (url, name, notify) feeds: the scenario's own feed first, then
    others on its server, which fail quietly as unreachable feeds do."""
    feeds = [(s.server.url, "LWN.net", True)]
    for copy in range(LONG_LIST_COPIES):
        for name, path in LONG_LIST_NAMES:
            shown = name if copy == 0 else "%s %d" % (name, copy + 1)
            feeds.append(("http://127.0.0.1:%d/%s/%d" % (s.server.port, path, copy + 1), shown, copy % 2 == 0))
    return feeds[:200]


def feeds_text(feeds):
    return GLib.Variant("a(ssb)", feeds).print_(False)


def feeds_value(s):
    return GLib.Variant.parse(GLib.VariantType.new("a(ssb)"), feeds_setting(s), None, None).unpack()


def set_feeds(s, feeds):
    s.gsettings("set", SCHEMA, "feeds", feeds_text(feeds))


def log_lines(applet, prefix):
    """The applet's debug messages that start with prefix."""
    messages = re.findall(r"lwn-tray-DEBUG: [0-9:.]+: (.*)", applet.log())
    return [message for message in messages if message.startswith(prefix)]


def start_with_feeds(s, feeds):
    """Starts the applet on feeds from the settings and opens the preferences;
    returns (applet, window, the list of feeds)."""
    set_feeds(s, feeds)
    s.server.set_items(items(3))
    applet = s.start(use_settings=True)
    menu = applet.menu()
    app, window = open_preferences(s, applet, menu)
    feed_list = window.wait_find(role=Role.LIST_BOX, name="Feeds followed", showing_only=True)
    e2e.wait_for(lambda: len(feed_rows(feed_list)) == len(feeds), "a row for each feed")
    return applet, window, feed_list


def feed_rows(feed_list):
    return [node for node in feed_list.children() if node.role == int(Role.LIST_ITEM)]


def shown_rows(feed_list):
    return [row for row in feed_rows(feed_list) if row.showing]


def test_long_list_and_search(s):
    """Two hundred feeds: the window opens with a row made once for each, in the list's
    order, each named after its feed with its address as description. The search
    above the list finds feeds by name or address, case and accents set aside, says
    how many it found, shows "No feeds match" when none does, and gives every row
    back when cleared, the same rows as before. Ctrl+F goes to it."""
    feeds = long_list(s)
    assert len(feeds) == 200
    applet, window, feed_list = start_with_feeds(s, feeds)

    rows = feed_rows(feed_list)
    assert [row.name for row in rows] == [name for _url, name, _notify in feeds], [row.name for row in rows][:5]
    assert rows[1].description == feeds[1][0], rows[1].description
    made = log_lines(applet, "Made ")
    assert made == ["Made 200 rows for the feeds list"], made
    paths = [row.path for row in rows]

    search = window.find(role=Role.TEXT, name="Search feeds", showing_only=True)
    assert search.showing and search.description == "200 feeds", search.description
    for query, expected in (
        ("phoronix", ["Phoronix"] + ["Phoronix %d" % n for n in range(2, 6)]),
        ("SECURITE", ["Le Monde Informatique \u2014 S\u00e9curit\u00e9"] + ["Le Monde Informatique \u2014 S\u00e9curit\u00e9 %d" % n for n in range(2, 6)]),
        ("kdist", ["Kernel.org releases"] + ["Kernel.org releases %d" % n for n in range(2, 6)]),
        ("planet-gnome/atom.xml/3", ["Planet GNOME 3"]),
    ):
        search.set_text(query)
        count = "%d of 200 feeds" % len(expected)
        atspi.wait_for(lambda: search.description == count, "%r to find %s" % (query, count))
        atspi.wait_for(lambda: [row.name for row in shown_rows(feed_list)] == expected, "the rows %r finds" % query)

    search.set_text("no such feed")
    atspi.wait_for(lambda: search.description == "0 of 200 feeds", "nothing found")
    window.wait_find(role=Role.LABEL, name="No feeds match \u201cno such feed\u201d", showing_only=True)
    assert not shown_rows(feed_list)

    search.set_text("")
    atspi.wait_for(lambda: search.description == "200 feeds", "the count of all feeds back")
    atspi.wait_for(lambda: shown_rows(feed_list) and shown_rows(feed_list)[0].name == "LWN.net", "the list from its top")
    assert [row.path for row in feed_rows(feed_list)] == paths, "a search made rows anew"
    assert log_lines(applet, "Made ") == made

    tracker = atspi.FocusTracker(s.a11y)
    focus_window(s, window, tracker)
    s.a11y.key("f", ("Control",))
    tracker.wait_focus(lambda node: node == search, "Ctrl+F to focus the search")
    tracker.close()
    applet.assert_alive()


def test_rows_kept(s):
    """A change of the list made elsewhere, which renames a feed, removes another and
    turns a third's notifications off, updates those rows alone: every other row is
    the same object as before, and the keyboard focus and the ticked boxes of a
    selection stay where they were."""
    feeds = list(long_list(s))
    applet, window, feed_list = start_with_feeds(s, feeds)

    def check_kept(before, after, paths):
        """Every row of a feed in both lists is the row it was."""
        rows = feed_rows(feed_list)
        assert [row.name for row in rows] == [name for _url, name, _notify in after]
        was = {url: paths[index] for index, (url, _name, _notify) in enumerate(before)}
        made_anew = [after[index][1] for index, row in enumerate(rows) if row.path != was.get(after[index][0])]
        assert not made_anew, "rows made anew for %r" % made_anew[:5]

    rows = feed_rows(feed_list)
    paths = [row.path for row in rows]
    focused = rows[5].find(role=Role.TOGGLE_BUTTON)
    assert focused.grab_focus()
    atspi.wait_for(lambda: focused.focused, "a feed's switch focused")
    changed = list(feeds)
    changed[1] = (feeds[1][0], "Renamed advisories", feeds[1][2])
    del changed[2]
    changed[6] = (changed[6][0], changed[6][1], not changed[6][2])
    switch = rows[7].find(role=Role.TOGGLE_BUTTON)
    assert switch.checked == feeds[7][2]
    set_feeds(s, changed)
    atspi.wait_for(lambda: len(feed_rows(feed_list)) == 199, "the removed feed's row gone")
    atspi.wait_for(lambda: switch.checked == changed[6][2], "the switch turned")
    check_kept(feeds, changed, paths)
    assert focused.focused, "the focus lost"

    select = window.find(role=Role.TOGGLE_BUTTON, name="Select feeds", showing_only=True)
    assert select.do_action("Click")
    atspi.wait_for(lambda: select.checked, "selecting")
    rows = feed_rows(feed_list)
    paths = [row.path for row in rows]
    ticked = [rows[3].find(role=Role.CHECK_BOX), rows[4].find(role=Role.CHECK_BOX)]
    for box in ticked:
        assert box.do_action("Click")
    atspi.wait_for(lambda: all(box.checked for box in ticked), "two feeds ticked")
    focused = rows[5].find(role=Role.CHECK_BOX)
    assert focused.grab_focus()
    atspi.wait_for(lambda: focused.focused, "a box focused")
    window.find(role=Role.LABEL, name="2 selected", showing_only=True)
    again = [feed for feed in changed if feed[1] != "Hacker News"]
    again[0] = (again[0][0], "LWN", again[0][2])
    set_feeds(s, again)
    atspi.wait_for(lambda: len(feed_rows(feed_list)) == 198, "another feed's row gone")
    atspi.wait_for(lambda: feed_rows(feed_list)[0].name == "LWN", "the renamed feed's row")
    check_kept(changed, again, paths)
    assert all(box.checked for box in ticked), "the ticks lost"
    assert focused.focused, "the focus lost"
    window.find(role=Role.LABEL, name="2 selected", showing_only=True)

    assert log_lines(applet, "Made ") == ["Made 200 rows for the feeds list"]
    assert not log_lines(applet, "Writing "), "the window wrote what it was shown"
    applet.assert_alive()


def test_remove_many(s):
    """Select, tick three feeds and remove them: the list loses exactly those, in one
    write, and Undo puts them back where they were, in one write. "Select All" with a
    search ticks what the search found; with every feed ticked, Remove is refused,
    since one feed must stay. Every control of the selection is named."""
    feeds = long_list(s)
    applet, window, feed_list = start_with_feeds(s, feeds)
    select = window.find(role=Role.TOGGLE_BUTTON, name="Select feeds", showing_only=True)
    assert select.do_action("Click")
    atspi.wait_for(lambda: select.checked, "selecting")
    for node in window.walk(showing_only=True):
        if node.role in INTERACTIVE:
            assert node.name.strip(), "a nameless control: %r in %r" % (node, node.parent)

    rows = feed_rows(feed_list)
    for index in (1, 4, 6):
        assert rows[index].find(role=Role.CHECK_BOX).do_action("Click")
    remove = window.wait_find(role=Role.PUSH_BUTTON, name="Remove 3 Feeds", showing_only=True)
    atspi.wait_for(lambda: remove.sensitive, "Remove 3 Feeds")
    assert not log_lines(applet, "Writing ")
    assert remove.do_action("Click")
    expected = [feed for index, feed in enumerate(feeds) if index not in (1, 4, 6)]
    e2e.wait_for(lambda: feeds_value(s) == expected, "the three feeds removed")
    time.sleep(SETTLE)
    assert log_lines(applet, "Writing ") == ["Writing a list of 197 feeds"], log_lines(applet, "Writing ")
    atspi.wait_for(lambda: not select.checked, "the selection over")
    atspi.wait_for(lambda: len(feed_rows(feed_list)) == 197, "their rows gone")
    window.wait_find(role=Role.LABEL, name="3 feeds removed", showing_only=True)
    undo = window.wait_find(role=Role.PUSH_BUTTON, name="Undo", showing_only=True)
    assert undo.do_action("Click")
    e2e.wait_for(lambda: feeds_value(s) == feeds, "the three feeds back in their places")
    assert len(log_lines(applet, "Writing ")) == 2, log_lines(applet, "Writing ")
    atspi.wait_for(lambda: [row.name for row in feed_rows(feed_list)] == [name for _url, name, _notify in feeds], "rows")

    assert select.do_action("Click")
    atspi.wait_for(lambda: select.checked, "selecting again")
    search = window.find(role=Role.TEXT, name="Search feeds", showing_only=True)
    search.set_text("phoronix")
    atspi.wait_for(lambda: search.description == "5 of 200 feeds", "the search")
    assert window.find(role=Role.PUSH_BUTTON, name="Select All", showing_only=True).do_action("Click")
    remove = window.wait_find(role=Role.PUSH_BUTTON, name="Remove 5 Feeds", showing_only=True)
    atspi.wait_for(lambda: remove.sensitive, "Remove 5 Feeds")
    assert remove.do_action("Click")
    e2e.wait_for(lambda: feeds_value(s) == [feed for feed in feeds if not feed[1].startswith("Phoronix")], "Phoronix gone")
    assert len(log_lines(applet, "Writing ")) == 3

    search.set_text("")
    assert select.do_action("Click")
    atspi.wait_for(lambda: select.checked, "selecting once more")
    assert window.find(role=Role.PUSH_BUTTON, name="Select All", showing_only=True).do_action("Click")
    remove = window.wait_find(role=Role.PUSH_BUTTON, name="Remove 195 Feeds", showing_only=True)
    assert not remove.sensitive and "One feed must stay" in remove.description, remove.description
    assert window.find(role=Role.PUSH_BUTTON, name="Select None", showing_only=True).do_action("Click")
    window.wait_find(role=Role.LABEL, name="Tick the feeds to remove", showing_only=True)
    applet.assert_alive()


def write_opml(path, feeds):
    outlines = "".join(
        '<outline type="rss" text=%s xmlUrl=%s/>\n' % (quoteattr(name), quoteattr(url)) for url, name in feeds
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0"?>\n<opml version="2.0"><head><title>Fifty</title></head><body>\n')
        f.write(outlines)
        f.write("</body></opml>\n")


def choose_file(s, app, title, name):
    """Answers the file chooser an Import button opens: Home in the places, the file in
    the list, then Import. No key is typed: GTK 3's file chooser hands the keys typed
    in its Recent view to a search entry it has not realized yet, with a critical."""
    dialog = e2e.wait_for(
        lambda: [node for node in app.children() if node.name == title and node.showing] or None, "the file chooser"
    )[0]
    home = dialog.wait_find(role=Role.LABEL, name="Home", showing_only=True).parent
    while home.role != Role.LIST_ITEM:
        home = home.parent
    # A click, not Return: GTK 3's file chooser hands keys to its search first.
    x, y, width, height = home.extents()
    s.a11y.click(x + width // 2, y + height // 2)
    cell = dialog.wait_find(role=Role.TABLE_CELL, name=name, showing_only=True)
    assert cell.grab_focus()
    atspi.wait_for(lambda: cell.has_state(atspi.State.SELECTED), "the file selected")
    import_button = dialog.find(role=Role.PUSH_BUTTON, name="Import", showing_only=True)
    atspi.wait_for(lambda: import_button.sensitive, "Import")
    assert import_button.do_action("Click")
    e2e.wait_for(lambda: not [node for node in app.children() if node.name == title], "the file chooser closed")


def test_import_then_remove_all(s):
    """An OPML list of fifty feeds, one of them followed already, is imported from the
    window; "Remove All from This Import" takes the forty-nine it added away again in
    one write, and the list is what it was. Undo brings them back."""
    before = [(s.server.url, "LWN.net", True), ("http://127.0.0.1:%d/planet-gnome/1" % s.server.port, "Planet GNOME", False)]
    listed = [("http://127.0.0.1:%d/import/%d" % (s.server.port, n), "Imported feed %d" % n) for n in range(49)]
    listed.insert(20, (before[1][0], "Planet GNOME in the list"))
    write_opml(os.path.join(s.dirs["HOME"], "fifty.opml"), listed)

    applet, window, feed_list = start_with_feeds(s, before)
    app = s.application(applet)
    assert window.find(role=Role.PUSH_BUTTON, name="Import OPML" + e2e.ELLIPSIS, showing_only=True).do_action("Click")
    choose_file(s, app, "Import Feeds", "fifty.opml")
    window.wait_find(role=Role.LABEL, name="Added 49 feeds; 1 was followed already", showing_only=True)
    imported = before + [(url, name, True) for url, name in listed if url != before[1][0]]
    e2e.wait_for(lambda: feeds_value(s) == imported, "the list's new feeds added at the end")
    atspi.wait_for(lambda: len(feed_rows(feed_list)) == 51, "their rows")
    writes = len(log_lines(applet, "Writing "))

    remove = window.wait_find(role=Role.PUSH_BUTTON, name="Remove All from This Import", showing_only=True)
    assert remove.do_action("Click")
    e2e.wait_for(lambda: feeds_value(s) == before, "the list as it was before the import")
    assert len(log_lines(applet, "Writing ")) == writes + 1
    window.wait_find(role=Role.LABEL, name="Removed the 49 feeds the import added", showing_only=True)
    window.wait_find(role=Role.LABEL, name="49 feeds removed", showing_only=True)
    atspi.wait_for(lambda: not remove.showing, "the offer gone with the feeds")
    atspi.wait_for(lambda: len(feed_rows(feed_list)) == 2, "their rows gone")

    assert window.wait_find(role=Role.PUSH_BUTTON, name="Undo", showing_only=True).do_action("Click")
    e2e.wait_for(lambda: feeds_value(s) == imported, "the imported feeds back")
    applet.assert_alive()


TESTS = [
    ("Preferences… opens one window whose controls are all named", test_open_and_label),
    ("Tab and Shift+Tab reach every control; Ctrl+W closes", test_keyboard),
    ("max-items from the window reaches the menu; outside changes show", test_max_items_and_outside_changes),
    ("feeds: added from a web page, moved, muted, removed and put back", test_feeds),
    ("Start at login: the switch and the menu item agree both ways", test_start_at_login),
    ("command-line overrides are shown as such", test_overrides),
    ("200 feeds: a row made once for each; the search finds by name and address", test_long_list_and_search),
    ("a change elsewhere keeps the other rows, their ticks and the focus", test_rows_kept),
    ("several feeds removed in one write, and put back by Undo", test_remove_many),
    ("an OPML import removed again in one write", test_import_then_remove_all),
]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-preferences.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, lambda func: atspi.Scenario(BINARY))


if __name__ == "__main__":
    sys.exit(main())
