#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""lwn-tray on a real KDE Plasma 5.27 session (X11, on Xvfb), checked as a Plasma user
sees it, at 1280x800 with a 40-item feed:

  1. the item registers with kded5's StatusNotifierWatcher with a -symbolic icon and
     the unread count in its title (Plasma shows no label: the title is the tooltip),
     the System Tray draws it, and the applet makes no XEmbed icon;
  2. a click on the icon opens the menu, which lies wholly on the screen in a single
     column with every command where the dbusmenu layout puts it;
  3. a click on a headline opens exactly its article in the browser;
  4. plasmashell restarted: the item stays registered, makes no XEmbed icon while no
     host is there, is read by the new host within a few seconds and shows again in
     the new panel, whose click opens its menu; no notice;
  5. kded5 restarted (the registry away for less than the applet's 5 s grace period):
     the item registers again within a few seconds, and no notice says that it runs
     without a panel icon;
  6. Quit in the menu: the applet exits with status 0, the item leaves the registry
     and the panel, and its log holds no critical and no warning.

Plasma draws the menu itself (libdbusmenu-qt's QMenu) and says nowhere where, so the
script reads the screen: the menu is plasmashell's popup window, and its rows are
found by moving the pointer over them and seeing which band of the popup lights up.
A click lands at the row that the dbusmenu layout and those measurements put a
headline on; the script then checks, from a monitor connection on the bus, that the
applet was told of a click on that very item, and that the browser got its URL.

It is not part of the test suite: Plasma's packages are too heavy for CI's time
budget, and build-aux/install-deps.sh leaves them out. They are, for Debian 12
(--no-install-recommends): plasma-workspace plasma-desktop kded5 plasma-integration
breeze-icon-theme kwin-x11 xvfb xdotool x11-utils imagemagick dbus-daemon dbus-bin
libglib2.0-bin, besides python3-gi. Without them it says which are missing and exits
77, as it does on a Plasma other than 5.

Usage: desktop-plasma.py PATH-TO-lwn-tray [OUTDIR]
OUTDIR (default: a new temporary folder) gets menu-*.png (the open menu, with a
headline lit up, and opened by a restarted plasmashell), a screenshot of each failed
step and the session's logs in logs/. Prints TAP; exits 0 when every step passed, 1
when one failed, 2 on wrong usage, 77 without Plasma."""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import lwn_plasma as plasma
from lwn_plasma import e2e, gnome

SOURCE_ROOT = os.path.dirname(plasma.HERE)
APP_ID = e2e.APP_ID
SCREEN = (1280, 800)
FEED_ITEMS = 40
FIRST_ARTICLE = 940001
TITLE = "LWN.net \u2014 %d unread" % FEED_ITEMS
HEADLINE = re.compile(r"Headline number (\d+)$")
HEADLINE_CATEGORIES = ("x-lwn-tray.headline", "x-lwn-tray.reminder")
# The applet waits this long for the tray's registry to come back before it tells that
# there is none (src/lwn-tray-host.c), and the script one second more for a late notice.
GRACE_SECONDS = 5
# What GLib prints for g_critical() and g_warning(), whatever the log domain.
BAD_LOG_LINE = re.compile(r"-(CRITICAL|WARNING) \*\*")
# A menu row is at least this tall and the popup's frame thinner, whatever the style.
MIN_ROW = 16
# A click on the icon opens the menu within this time, or it was not the icon.
MENU_WAIT = 5.0
# The whole run; Plasma's start takes most of it.
BUDGET = 420
STARTED = time.monotonic()


def article_feed():
    """Forty LWN headlines in the 2020 form, whose links end in /rss: the applet opens
    the article itself (…/Articles/N/)."""
    return [e2e.headline(FIRST_ARTICLE + index, old_style=True) for index in range(FEED_ITEMS)]


def article_url(number):
    return "https://lwn.net/Articles/%d/" % number


def center(box):
    x, y, width, height = box
    return x + width // 2, y + height // 2


def bad_log_lines(text):
    return [line for line in text.splitlines() if BAD_LOG_LINE.search(line)]


def describe(box):
    return "%dx%d at (%d, %d)" % (box[2], box[3], box[0], box[1])


class Session:
    """The Plasma session, the feed server and the applet, and what the steps learn of
    the screen on their way: where the icon is and how the menu's rows lie."""

    def __init__(self, binary, out):
        self.binary = binary
        self.out = out
        self.logs = os.path.join(out, "logs")
        self.plasma = None
        self.sessions = []
        self.applet = None
        self.applet_name = None
        self.item_path = None
        self.icon = None
        self.panel_before = None
        self.menu = None
        self.rows = None
        self.senders = {}
        self.stopped = None
        self.server = e2e.FeedServer()
        self.server.set_items(article_feed())

    def start_plasma(self):
        session = plasma.Plasma(SCREEN, logs=self.logs)
        # Listed before it starts, so that a stop while it starts ends its processes too.
        self.sessions.append(session)
        session.__enter__()
        self.plasma = session
        return session

    def need(self):
        """The running session, for a step that cannot do without one."""
        if self.plasma is None or self.item_path is None:
            raise AssertionError("no Plasma session with the applet's item registered (see step 1)")
        self.assert_alive()
        return self.plasma

    def applet_env(self):
        """The applet's environment: the build tree's schemas and icons as meson's tests
        have them, settings in memory, and a critical makes it abort, so that none can
        pass unseen."""
        env = self.plasma.applet_env()
        env.update(
            {
                "GSETTINGS_SCHEMA_DIR": os.path.join(os.path.dirname(os.path.abspath(self.binary)), "..", "data"),
                "GSETTINGS_BACKEND": "memory",
                "XDG_DATA_DIRS": "/usr/local/share:/usr/share:" + SOURCE_ROOT,
                "G_DEBUG": "fatal-criticals",
            }
        )
        return env

    def start_applet(self):
        argv = [self.binary, "--feed-url", self.server.url, "--interval", "3600"]
        self.applet = self.plasma.spawn("applet", argv, self.applet_env(), "lwn-tray")
        self.applet_started = time.monotonic()

        def owner():
            self.assert_alive()
            return self.plasma.name_owner(APP_ID)

        self.applet_name = self.plasma.wait(owner, "lwn-tray to own %s on the session bus" % APP_ID)
        return self.applet_name

    def log_text(self):
        return self.plasma.log("lwn-tray") if self.plasma else ""

    def log_tail(self, lines=30):
        return "\n".join(self.log_text().splitlines()[-lines:])

    def assert_alive(self):
        code = self.applet.poll()
        assert code is None, "lwn-tray exited with %r; its last words:\n%s" % (code, self.log_tail())

    def item_props(self):
        return self.plasma.bus.get_all(self.applet_name, self.item_path, e2e.SNI_IFACE)

    def titled(self):
        """The item's properties once its title is TITLE, else None."""
        props = self.item_props()
        return props if props.get("Title") == TITLE else None

    def registered(self):
        """The applet's entry in the registry ("NAME/PATH"), or None."""
        items = self.plasma.registered_items() or []
        mine = [item for item in items if item.split("/", 1)[0] == self.applet_name]
        return mine[0] if mine else None

    def sender_pid(self, sender):
        if sender not in self.senders:
            self.senders[sender] = self.plasma.unique_name_pid(sender)
        return self.senders[sender]

    def notices(self, since=0.0):
        """What the applet posted since since that is not about a headline: the notices
        about itself."""
        return [
            call
            for call in self.plasma.monitor.notifications()
            if call["time"] >= since
            and call["category"] not in HEADLINE_CATEGORIES
            and self.sender_pid(call["sender"]) == self.applet.pid
        ]

    def failed(self, number):
        """A screenshot of what the screen shows now, for a step that failed."""
        if self.plasma is None:
            return None
        path = os.path.join(self.out, "step-%d.png" % number)
        return path if self.plasma.screenshot(path) else None

    def close(self):
        for session in reversed(self.sessions):
            session.close()
        self.sessions = []
        self.server.close()


# The icon and the menu ------------------------------------------------------------


def find_icon(s, before):
    """The places where the panel changed since the applet started, icon-sized ones
    only, leftmost first: Plasma's tray grows to the left, and the neighbours that
    moved aside or a clock that ticked over changed too."""
    p = s.plasma
    p.wait(lambda: not p.same(before, p.shot(), p.panel), "the panel to change")
    after = p.wait_panel_settled("the panel to settle with the icon")
    height = p.panel[3]
    blobs = p.blobs(before, after, p.panel)
    icons = [b for b in blobs if MIN_ROW // 2 <= b[2] <= height and MIN_ROW // 2 <= b[3] <= height]
    return sorted(icons, key=lambda box: box[0]), blobs


def menu_opened(s, since):
    """The popup that a click since since opened, as (window, box), once the applet was
    told that its menu opened and the popup stopped changing its size; else None."""
    p = s.plasma
    if not p.monitor.menu_events(s.applet_name, "opened", since):
        return None
    popups = p.popup_menus()
    if len(popups) != 1:
        return None
    (window, box), last = next(iter(popups.items())), None
    while box != last:
        time.sleep(plasma.SETTLE / 2)
        last, box = box, p.window_box(window)
    return (window, box) if box else None


def open_menu(s, candidates):
    """Clicks the first of candidates (boxes in the panel) that opens the applet's menu,
    with Escape after each that opened something else or nothing; returns the icon's box
    and the menu's (window, box)."""
    p = s.plasma
    p.wait_notification_popups_gone()
    tried = []
    for box in candidates:
        since = time.monotonic()
        p.click(*center(box))
        try:
            menu = p.wait(lambda: menu_opened(s, since), "the menu to open", MENU_WAIT)
            return box, menu
        except e2e.Timeout:
            tried.append(describe(box))
            p.key("Escape")
            time.sleep(plasma.SETTLE)
    raise AssertionError(
        "a click on each of %d places in the panel (%s) opened no menu of the applet's"
        % (len(candidates), "; ".join(tried) or "none")
    )


def open_menu_at_icon(s):
    """Opens the menu with a click on the icon found in step 1, unless it is open."""
    if s.menu is not None and s.menu[0] in s.plasma.popup_menus():
        return s.menu[1]
    if s.icon is None:
        raise AssertionError("the icon was not found in the panel (see step 1)")
    _icon, s.menu = open_menu(s, [s.icon])
    return s.menu[1]


def close_menu(s):
    if s.menu is not None and s.menu[0] in s.plasma.popup_menus():
        s.plasma.key("Escape")
        s.plasma.wait(lambda: s.menu[0] not in s.plasma.popup_menus(), "the menu to close on Escape")
    s.menu = None


class Rows:
    """Where the open menu draws each row of the dbusmenu layout, found by what lights up
    under the pointer. base is a screenshot of the open menu, drawn whole, with the
    pointer off it."""

    def __init__(self, s, box, layout):
        self.s = s
        self.box = box
        self.layout = layout
        # Off the popup, the pointer lights up no row, and on the desktop it shows no
        # tooltip.
        x0, y0, width, height = box
        s.plasma.move(x0 - 50 if x0 >= 50 else x0 + width + 50, y0 + height // 2)
        self.base = s.plasma.keep(s.plasma.settled(box, "the open menu to settle with no row lit"))
        self.woken = False

    def shape(self):
        """What the rows' places depend on: the popup's box and which entries are
        separators."""
        return self.box, [entry["type"] == "separator" for entry in self.layout]

    def band(self, y):
        """The band of the popup that lights up with the pointer at height y (screen
        coordinates), as (top, height), or an error if none does."""
        p, (x0, y0, width, height) = self.s.plasma, self.box
        if not self.woken:
            # QMenu takes no notice of the pointer until it has moved within the menu.
            p.move(x0 + width // 2, y0 + height // 2)
            p.move(x0 + width // 2 + 1, y0 + height // 2 + 1)
            self.woken = True
        p.move(x0 + width // 2, y)

        last = [None]

        def lit():
            found = p.changed(self.base, p.shot(), self.box)
            # A row's highlight spans the popup's width and holds the pointer. A screenshot
            # may catch the popup half redrawn, the row left still lit, so the band
            # counts once two screenshots in a row show it.
            band = None
            if found and found[1] <= y < found[1] + found[3] and found[2] >= width // 2:
                band = found[1], found[3]
            seen, last[0] = last[0], band
            return band if band is not None and band == seen else None

        return p.wait(lit, "a row of the menu to light up under the pointer at y=%d" % y, timeout=5, interval=0.05)

    def measure(self, known=None):
        """Row height, separator height and the frame above the first row, from the
        first, second and last rows' highlights, or from known (a Rows of the same
        shape); fails unless the popup's height is what one column of the layout's rows
        takes."""
        if known is not None and known.shape() == self.shape():
            self.row, self.separator, self.frame = known.row, known.separator, known.frame
            return self
        x0, y0, width, height = self.box
        kinds = [entry["type"] == "separator" for entry in self.layout]
        rows, separators = kinds.count(False), kinds.count(True)
        assert separators > 0 and not kinds[-1], "the layout has no separator, or ends with one: %r" % kinds
        first, first_height = self.band(y0 + MIN_ROW // 2)
        second, second_height = self.band(first + first_height + MIN_ROW // 2)
        last, last_height = self.band(y0 + height - 1 - MIN_ROW // 2)
        assert first_height == second_height, "the first row lights up %d px high, the second %d px" % (
            first_height,
            second_height,
        )
        self.row = second - first
        self.frame = first - y0
        spare = last - first - (rows - 1) * self.row
        self.separator = spare // separators
        bottom = y0 + height - (last + self.row)
        single = (
            spare % separators == 0
            and 0 <= self.separator < self.row
            and abs(bottom - self.frame) <= 1
            and last_height == first_height
        )
        assert single, (
            "the popup (%s) is not one column of %d rows of %d px and %d separators: %d px lie between its first"
            " and last rows' tops, its frame is %d px above and %d px below, its last row is %d px high"
            % (describe(self.box), rows, self.row, separators, last - first, self.frame, bottom, last_height)
        )
        return self

    def top(self, index):
        """The top of the row of layout entry index, as the measurements put it."""
        before = self.layout[:index]
        separators = sum(1 for entry in before if entry["type"] == "separator")
        return self.box[1] + self.frame + (len(before) - separators) * self.row + separators * self.separator

    def check(self, index):
        """Fails unless the row of entry index lights up where it is reckoned to be;
        returns its top."""
        top = self.top(index)
        found, lit = self.band(top + self.row // 2)
        assert abs(found - top) <= 1 and lit <= self.row, "%r lights up %d px at y=%d, not a row at y=%d" % (
            self.layout[index]["label"],
            lit,
            found,
            top,
        )
        return top

    def room(self, screen_height):
        """How many headlines the screen has room for beside the other rows."""
        others = [entry for entry in self.layout if not HEADLINE.search(entry["label"])]
        separators = sum(1 for entry in others if entry["type"] == "separator")
        fixed = 2 * self.frame + (len(others) - separators) * self.row + separators * self.separator
        return (screen_height - fixed) // self.row


def menu_rows(s, box):
    """The rows of the menu open in box, measured, or taken from the last measurement
    when the menu has the same shape."""
    s.rows = Rows(s, box, visible_layout(s)).measure(s.rows)
    return s.rows


def visible_layout(s):
    return e2e.Menu(s.plasma.bus, s.applet_name, s.item_props()["Menu"]).visible_items()


def click_row(s, rows, index):
    """A real click on the row of entry index, after checking that the row lights up
    where the layout puts it; returns what the applet was told, as (id, host) pairs."""
    p = s.plasma
    top = rows.check(index)
    since = time.monotonic()
    x = rows.box[0] + rows.box[2] // 2
    p.click(x, top + rows.row // 2)
    p.wait(
        lambda: p.monitor.menu_events(s.applet_name, "clicked", since),
        "the applet to be told of a click on %r" % rows.layout[index]["label"],
    )
    # Long enough for a second event, which must not come, to show.
    time.sleep(plasma.SETTLE)
    return p.monitor.menu_events(s.applet_name, "clicked", since)


# Steps -----------------------------------------------------------------------------


def test_item(s):
    """The item registers with Plasma's watcher, with a -symbolic icon and the count in
    its title; the panel draws it; no XEmbed tray icon anywhere."""
    p = s.start_plasma()
    print(
        "# Plasma %s up in %.1fs, its panel %s"
        % (plasma.plasma_version(), time.monotonic() - STARTED, describe(p.panel))
    )
    s.panel_before = p.keep(p.wait_panel_settled("the panel to settle before the applet starts"))
    s.start_applet()
    entry = p.wait(s.registered, "the item to register with %s" % plasma.WATCHER_NAME)
    s.item_path = "/" + entry.split("/", 1)[1]
    props = p.wait(s.titled, "the item's title to be %r" % TITLE)
    icon = props.get("IconName", "")
    assert icon.endswith("-symbolic"), (
        "the item's IconName is %r, not a -symbolic icon (XDG_CURRENT_DESKTOP=KDE)" % icon
    )
    status = props.get("Status")
    assert status in ("Active", "NeedsAttention"), "the item's Status is %r" % status
    if status == "NeedsAttention":
        attention = props.get("AttentionIconName", "")
        assert attention.endswith("-symbolic"), "the item's AttentionIconName is %r, not -symbolic" % attention
    s.candidates, blobs = find_icon(s, s.panel_before)
    assert s.candidates, "the panel did not change where an icon could be: %r" % blobs
    xembed = p.xembed_windows(s.applet.pid)
    assert xembed == [], "the applet made an XEmbed tray icon: %r" % xembed
    print(
        "# %s: %s, icon %s, title %r, label %r (not shown)"
        % (entry, status, icon, props["Title"], props.get("XAyatanaLabel"))
    )
    print("# the panel changed at %s" % "; ".join(describe(b) for b in blobs))


def test_menu_fits(s):
    """A click on the icon opens the menu, which lies wholly on the screen, in one
    column, with every command where the layout puts it."""
    p = s.need()
    s.icon, s.menu = open_menu(s, s.candidates)
    window, box = s.menu
    print("# the icon: %s in the panel; the menu: window %s, %s" % (describe(s.icon), window, describe(box)))
    p.screenshot(os.path.join(s.out, "menu-%dx%d.png" % SCREEN))
    screen = (0, 0) + SCREEN
    assert plasma.inside(box, screen), "the menu (%s) reaches off the %dx%d screen" % ((describe(box),) + SCREEN)
    rows = menu_rows(s, box)
    layout = rows.layout
    headlines = [i for i, entry in enumerate(layout) if HEADLINE.search(entry["label"])]
    assert headlines, "the layout holds no headline: %r" % [entry["label"] for entry in layout]
    commands = [i for i, entry in enumerate(layout) if i > headlines[-1] and entry["type"] != "separator"]
    for index in commands:
        if layout[index]["enabled"]:
            rows.check(index)
    print(
        "# %d of %d headlines and %d more entries, in rows of %d px, separators of %d px and a frame of %d px: the"
        " menu is %d px high on a %d px screen, from y=%d; the screen has room for %d headlines"
        % (
            len(headlines),
            FEED_ITEMS,
            len(layout) - len(headlines),
            rows.row,
            rows.separator,
            rows.frame,
            box[3],
            SCREEN[1],
            box[1],
            rows.room(SCREEN[1]),
        )
    )
    print(
        "# every enabled command lit up where the layout puts it: %s"
        % ", ".join(layout[i]["label"] for i in commands if layout[i]["enabled"])
    )
    close_menu(s)


def test_headline_opens_article(s):
    """A click on the second headline's row opens exactly its article."""
    p = s.need()
    rows = menu_rows(s, open_menu_at_icon(s))
    layout = rows.layout
    headlines = [i for i, entry in enumerate(layout) if HEADLINE.search(entry["label"])]
    index = headlines[1]
    entry = layout[index]
    number = int(HEADLINE.search(entry["label"]).group(1))
    rows.check(index)
    p.screenshot(os.path.join(s.out, "menu-headline.png"))
    told = click_row(s, rows, index)
    assert [item for item, _host in told] == [entry["id"]], "the applet was told of clicks on %r, not on %r (%d)" % (
        told,
        entry["label"],
        entry["id"],
    )
    opened = p.wait(lambda: p.recorder.urls(), "the browser to open %s" % article_url(number))
    # Long enough for a second launch, which must not come, to show.
    time.sleep(0.5)
    assert p.recorder.urls() == [article_url(number)], "the browser was given %r, not %r" % (
        p.recorder.urls(),
        [article_url(number)],
    )
    p.wait(lambda: s.menu[0] not in p.popup_menus(), "the menu to close after the click")
    s.menu = None
    print("# %r (item %d) at y=%d opened %s" % (entry["label"], entry["id"], rows.top(index), opened[0]))


def test_plasmashell_restart(s):
    """plasmashell restarted: the item stays registered, no XEmbed icon stands in while
    no host is there, and the new host reads the item at once and shows it; no notice."""
    p = s.need()
    close_menu(s)
    since = time.monotonic()
    code = p.stop("plasmashell")
    time.sleep(1)
    s.assert_alive()
    assert s.registered(), "the item left the registry with plasmashell: %r" % p.registered_items()
    xembed = p.xembed_windows(s.applet.pid)
    assert xembed == [], "without a host, the applet made an XEmbed tray icon: %r" % xembed
    restarted = time.monotonic()
    shell = p.start_plasmashell()
    host = time.monotonic()

    def read():
        reads = [
            at for sender, at in p.monitor.property_reads(s.applet_name, restarted) if s.sender_pid(sender) == shell.pid
        ]
        return reads[0] if reads else None

    read_at = p.wait(read, "the new plasmashell to read the item's properties")
    assert read_at - host < GRACE_SECONDS, "the new host read the item %.1fs after it registered" % (read_at - host)
    p.panel = p.wait(p.panel_box, "the new plasmashell's panel", plasma.PLASMA_START_TIMEOUT)
    p.move(SCREEN[0] // 2, SCREEN[1] // 3)
    p.wait_panel_settled("the new panel to settle")
    # The icon's place looks as it did before the applet started until the icon shows.
    p.wait(lambda: not p.same(s.panel_before, p.shot(), s.icon), "the icon to show again in the new panel")
    shown = time.monotonic()
    candidates, _blobs = find_icon(s, s.panel_before)
    s.icon, s.menu = open_menu(s, [s.icon] + [box for box in candidates if box != s.icon])
    p.screenshot(os.path.join(s.out, "menu-new-plasmashell.png"))
    hosts = {host for _id, host in p.monitor.menu_events(s.applet_name, "opened", restarted)}
    assert {s.sender_pid(host) for host in hosts} == {shell.pid}, "the menu was opened by %r, not by %d" % (
        hosts,
        shell.pid,
    )
    close_menu(s)
    s.assert_alive()
    found = s.notices(since)
    assert not found, "lwn-tray posted %r while plasmashell restarted" % [call["summary"] for call in found]
    print(
        "# plasmashell ended with %r; a new one became the host %.1fs after its start, read the item at %.1fs and"
        " showed the icon at %.1fs; a click on it opened the menu (%.1fs without a host)"
        % (code, host - restarted, read_at - restarted, shown - restarted, host - since)
    )


def test_watcher_restart(s):
    """kded5 restarted: its registry is away for less than the applet's grace period,
    and the item registers again within a few seconds, with no notice."""
    p = s.need()
    since = time.monotonic()
    code = p.stop("kded")
    p.start_kded()
    changes = p.monitor.watcher_changes(since)
    gone = [at for owner, at in changes if owner is None]
    back = [at for owner, at in changes if owner is not None]
    assert gone and back, "the registry's owner changed so: %r" % changes
    away = back[-1] - gone[0]
    p.wait(s.registered, "the item to register again with the new %s" % plasma.WATCHER_NAME, timeout=GRACE_SECONDS)
    again = time.monotonic() - back[-1]
    assert away < GRACE_SECONDS, "the registry was away %.1fs, not less than the %ds grace period" % (
        away,
        GRACE_SECONDS,
    )
    # Past the grace period, and a second more for a notice on its way.
    time.sleep(max(0.0, gone[0] + GRACE_SECONDS + 1 - time.monotonic()))
    s.assert_alive()
    found = s.notices(since)
    assert not found, "lwn-tray posted %r while the registry restarted for %.1fs" % (
        ["%s: %s" % (call["summary"], call["body"]) for call in found],
        away,
    )
    s.icon, s.menu = open_menu(s, [s.icon])
    close_menu(s)
    print(
        "# kded5 exited with %r; the registry was away %.2fs, the item registered again %.2fs after it came back,"
        " and the panel's icon opened the menu; no notice in the %ds after it left" % (code, away, again, GRACE_SECONDS)
    )


def test_quit(s):
    """Quit in the menu quits: status 0, the item leaves the registry and the panel, and
    the applet logged no critical and no warning over the whole run."""
    p = s.need()
    rows = menu_rows(s, open_menu_at_icon(s))
    layout = rows.layout
    quits = [i for i, entry in enumerate(layout) if entry["label"] == "Quit"]
    assert quits, "no Quit in the menu: %r" % [entry["label"] for entry in layout]
    told = click_row(s, rows, quits[0])
    assert [item for item, _host in told] == [layout[quits[0]]["id"]], "the applet was told of clicks on %r" % told
    try:
        code = s.applet.wait(e2e.TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("lwn-tray still runs %gs after Quit" % e2e.TIMEOUT) from None
    assert code == 0, "lwn-tray exited with %r after Quit:\n%s" % (code, s.log_tail())
    p.wait(lambda: s.registered() is None, "the item to leave the registry")
    p.wait(lambda: p.same(s.panel_before, p.shot(), s.icon), "the icon to leave the panel")
    bad = bad_log_lines(s.log_text())
    assert not bad, "lwn-tray logged:\n" + "\n".join(bad)


STEPS = [
    ("1280x800: the item registers with a -symbolic icon and %r as its title; no XEmbed icon" % TITLE, test_item),
    ("a click on the icon opens the menu, wholly on the screen, one column, every command in place", test_menu_fits),
    ("a click on a headline opens exactly its article", test_headline_opens_article),
    (
        "plasmashell restarted: the item stays registered, shows in the new panel; no XEmbed icon, no notice",
        test_plasmashell_restart,
    ),
    ("kded5 restarted within the grace period: the item registers again, and no notice comes", test_watcher_restart),
    ("Quit in the menu: status 0, the item leaves registry and panel, no critical or warning", test_quit),
]


# Running ---------------------------------------------------------------------------


def run_steps(session):
    """Runs the steps in order, as TAP. A failed step does not stop the ones after it
    (each checks what it needs); a stop (Ctrl+C, SIGTERM, the time budget) does, and
    counts the rest as failed."""
    print("1..%d" % len(STEPS), flush=True)
    failed = 0
    for number, (name, func) in enumerate(STEPS, 1):
        started = time.monotonic()
        reason = None
        try:
            func(session)
        except gnome.Stopped as stop:
            session.stopped = str(stop)
        except Exception:
            reason = traceback.format_exc().splitlines()
        # A stop that came while PyGObject made a GLib.Error is lost in that error, and
        # the step fails on the processes it ended: the handler's mark tells.
        if session.stopped is not None:
            for rest in range(number, len(STEPS) + 1):
                print("not ok %d - %s # %s" % (rest, STEPS[rest - 1][0], session.stopped), flush=True)
            return 1
        if reason is None:
            print("ok %d - %s" % (number, name))
            print("# %.1fs" % (time.monotonic() - started), flush=True)
            continue
        failed += 1
        picture = session.failed(number)
        if picture:
            reason.append("the screen at that moment: " + picture)
        print("not ok %d - %s" % (number, name))
        for line in reason:
            print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


def install_stop_handlers(session):
    """lwn_gnome's handlers, which end the session's processes and raise Stopped, and a
    mark on the session that says the run was stopped, and by what."""
    gnome.install_stop_handlers(BUDGET, lambda: list(session.sessions))
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
        stop = signal.getsignal(signum)

        def mark(number, frame, stop=stop):
            session.stopped = "stopped by %s" % gnome.STOPPED_BY.get(number, number)
            stop(number, frame)

        signal.signal(signum, mark)


def prepare(out):
    """Makes out, and clears what an earlier run wrote there: nothing of it may be taken
    for this run's."""
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    for folder, pattern in ((out, r"(menu-.*|step-\d+)\.png$"), (os.path.join(out, "logs"), r".*\.log$")):
        for name in os.listdir(folder):
            if re.match(pattern, name):
                os.remove(os.path.join(folder, name))


def main():
    if len(sys.argv) not in (2, 3) or not os.access(sys.argv[1], os.X_OK):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    missing = plasma.missing_packages()
    if missing:
        print("1..0 # SKIP Plasma's packages are missing: %s" % " ".join(missing))
        return 77
    version = plasma.plasma_version()
    if not version or int(version.split(".")[0]) != plasma.PLASMA_MAJOR:
        print(
            "1..0 # SKIP written for Plasma %d's session (kded5 holds the registry), not %s"
            % (plasma.PLASMA_MAJOR, version)
        )
        return 77
    binary = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="lwn-plasma-out-")
    prepare(out)
    print("# screenshots in %s, logs in %s" % (out, os.path.join(out, "logs")), flush=True)

    session = Session(binary, out)
    install_stop_handlers(session)
    try:
        return run_steps(session)
    finally:
        signal.alarm(0)
        session.close()
        print("# %.0fs in all" % (time.monotonic() - STARTED), flush=True)


if __name__ == "__main__":
    sys.exit(main())
