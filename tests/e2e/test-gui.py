#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs the built lwn-tray applet against a mock StatusNotifierWatcher, a mock
notification daemon and a local feed server, and checks its tray item, menu,
notifications, refreshes, persisted state and exit codes as a user would see them."""

import glob
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import lwn_e2e as e2e
from gi.repository import Gio, GLib

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""

BULLET = e2e.BULLET
ELLIPSIS = e2e.ELLIPSIS
GROUPED = re.compile(r"\b(\d+) new headlines from LWN\.net\b")
COMMANDS = ["Refresh now", "Mark all as read", "Open LWN.net", "Quit"]

# Long enough to notice a repeated or late notification, short enough to keep the
# suite quick.
SETTLE = 1.0
EM_DASH = "\u2014"
# How long no tray host may be on the bus before the applet says so.
NO_TRAY_GRACE_SECONDS = 5


def current(number, title=None):
    return e2e.headline(number, title or "Current headline %d" % number)


def old(number, title=None):
    return e2e.headline(number, title or "Old-style headline %d" % number, old_style=True)


def shown(item, unread=True):
    return (BULLET if unread else "") + item["title"]


def split(entries):
    return e2e.split_menu(entries)


def headline_labels(entries):
    return [entry["label"] for entry in split(entries)[0]]


def wait_headlines(menu, items, read=(), what=None):
    expected = [shown(item, item["title"] not in read) for item in items]
    return menu.wait(lambda entries: headline_labels(entries) == expected, what or "headlines %r" % expected)


def status_line(entries):
    for entry in split(entries)[1]:
        if e2e.is_status_line(entry["label"]):
            return entry
    raise AssertionError("no status line in %r" % [entry["label"] for entry in entries])


def status_label(entries):
    """The status line's label, or None while the menu has none (as between a failure
    and the update that a Retry brings)."""
    found = [entry["label"] for entry in split(entries)[1] if e2e.is_status_line(entry["label"])]
    return found[0] if found else None


def assert_recent(hhmm):
    """hhmm is the applet's local HH:MM; it must be this minute or the one before."""
    now = time.time()
    allowed = {time.strftime("%H:%M", time.localtime(now - delta)) for delta in (0, 60, -60)}
    assert hhmm in allowed, "time %r is not now (%r)" % (hhmm, sorted(allowed))


def assert_updated(entry):
    match = re.fullmatch(r"Updated (\d\d:\d\d)", entry["label"])
    assert match, entry["label"]
    assert entry["enabled"] is False, entry
    assert_recent(match.group(1))


def assert_failed(entry):
    match = re.fullmatch(r"Last update failed: (.+) \((\d\d:\d\d)\)", entry["label"])
    assert match, entry["label"]
    assert entry["enabled"] is False, entry
    assert_recent(match.group(2))
    return match.group(1)


def assert_commands(entries):
    """The command block after the separator: the status line first, then the
    commands in this relative order, whatever else sits between them."""
    _top, commands = split(entries)
    labels = [entry["label"] for entry in commands]
    assert labels and e2e.is_status_line(labels[0]), labels
    positions = []
    for command in COMMANDS:
        assert command in labels, "%r missing from %r" % (command, labels)
        positions.append(labels.index(command))
        entry = commands[labels.index(command)]
        assert entry["enabled"] is True, entry
    assert positions == sorted(positions), labels


def settle_notifications(scenario, expected, what):
    """Waits for exactly `expected` Notify calls in total and checks no more follow."""
    scenario.notifier.wait_count(expected)
    time.sleep(SETTLE)
    notifications = scenario.notifier.notifications()
    assert len(notifications) == expected, "%s: expected %d notifications, got %r" % (what, expected, notifications)
    return notifications


def start_loaded(scenario, items, *args, **kwargs):
    scenario.server.set_items(items)
    applet = scenario.start(*args, **kwargs)
    menu = applet.menu()
    wait_headlines(menu, items)
    return applet, menu


def stop_ok(applet, sig=signal.SIGTERM):
    code = applet.stop(sig)
    assert code == 0, "lwn-tray exited with %r after signal %d" % (code, sig)


# Scenarios -----------------------------------------------------------------


def test_harness(s):
    """The fixtures themselves: recorder, feed server, notification mock, watcher."""
    assert e2e.display_label("Open __LWN.net") == "Open _LWN.net"
    assert e2e.display_label("_Quit") == "Quit"
    assert e2e.display_label("Refresh _now") == "Refresh now"

    result = subprocess.run(["gio", "open", "https://example.com/"], env=s.env, capture_output=True, text=True)
    assert result.returncode == 0, result
    assert s.recorder.wait_count(1) == ["https://example.com/"]

    s.server.set_items([current(937631)])
    with urllib.request.urlopen(s.server.url, timeout=10) as response:
        etag = response.headers["ETag"]
        body = response.read()
    assert etag and b"https://lwn.net/Articles/937631/" in body, (etag, body[:200])
    request = urllib.request.Request(s.server.url, headers={"If-None-Match": etag})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("no 304 for a matching If-None-Match")
    except urllib.error.HTTPError as error:
        assert error.code == 304, error
    s.server.fail(500)
    try:
        urllib.request.urlopen(s.server.url, timeout=10)
        raise AssertionError("forced 500 not served")
    except urllib.error.HTTPError as error:
        assert error.code == 500, error
    assert [record["status"] for record in s.server.log()] == [200, 304, 500]

    (notification_id,) = s.bus.call(
        e2e.NOTIFY_NAME,
        e2e.NOTIFY_PATH,
        e2e.NOTIFY_NAME,
        "Notify",
        GLib.Variant(
            "(susssasa{sv}i)", ("test", 0, "icon", "Summary", "Body", ["default", "Open"], {}, -1)
        ),
        "(u)",
    )
    notifications = s.notifier.notifications()
    assert len(notifications) == 1 and notifications[0].id == notification_id, notifications
    assert notifications[0].summary == "Summary" and notifications[0].actions == {"default": "Open"}
    s.notifier.invoke(notification_id, "default")

    s.bus.call(
        e2e.WATCHER_NAME,
        e2e.WATCHER_PATH,
        e2e.WATCHER_NAME,
        "RegisterStatusNotifierItem",
        GLib.Variant("(s)", ("/org/example/Item",)),
    )
    unique = s.bus.connection.get_unique_name()
    assert s.watcher.registrations() == [(unique, "/org/example/Item")]
    assert s.watcher.items() == [unique + "/org/example/Item"]
    assert s.bus.get_property(e2e.WATCHER_NAME, e2e.WATCHER_PATH, e2e.WATCHER_NAME, "IsStatusNotifierHostRegistered")


def test_loading_placeholder(s):
    """Cold start: an insensitive "Loading headlines…" until the feed answers."""
    items = [current(937631, "Going Rogue (Digital Antiquarian)"), current(937416)]
    s.server.set_items(items)
    s.server.hold()
    applet = s.start()
    menu = applet.menu()
    entries = menu.wait(lambda entries: entries and entries[0]["label"] == e2e.LOADING, "the loading placeholder")
    assert entries[0]["enabled"] is False, entries[0]
    s.server.wait_requests(1)
    assert s.server.answered() == [], "the placeholder must be up before the server answers"
    s.server.release()
    wait_headlines(menu, items)
    assert e2e.LOADING not in menu.labels()
    stop_ok(applet)


def test_menu_layout(s):
    """Headline items: feed order, at most 20, bullets, ellipsis, [$], unsafe URLs."""
    long_title = "A rather long headline about the kernel's memory management, folios, and much more besides"
    items = [
        current(937000, long_title),
        current(937001, "[$] A subscriber-only article"),
        current(937003, "io_uring, __user and &-ampersands"),
        e2e.headline(937002, "An item with an unsafe link", link="javascript:alert(1)"),
        old(826124),
    ] + [current(937100 + index) for index in range(20)]
    s.server.set_items(items)
    applet = s.start()
    assert applet.prop("Id") == e2e.ITEM_ID
    assert applet.prop("Title"), applet.props()
    assert applet.prop("IconName"), applet.props()
    menu = applet.menu()
    entries = menu.wait(
        lambda entries: len(split(entries)[0]) == 20 and split(entries)[1], "twenty headlines and the commands"
    )
    top, _commands = split(entries)
    labels = [entry["label"] for entry in top]
    assert all(label.startswith(BULLET) for label in labels), labels

    first = labels[0][len(BULLET) :]
    assert first.endswith(ELLIPSIS), first
    assert 60 <= len(first) <= 72, (len(first), first)
    assert long_title.startswith(first[:-1].rstrip()), first

    assert labels[1] == BULLET + "[$] A subscriber-only article", labels[1]
    assert labels[2] == BULLET + "io_uring, __user and &-ampersands", labels[2]
    assert labels[3] == BULLET + "An item with an unsafe link", labels[3]
    assert top[3]["enabled"] is False, top[3]
    assert labels[4:] == [shown(item) for item in items[4:20]], labels[4:]
    assert all(entry["enabled"] is True for index, entry in enumerate(top) if index != 3), top

    assert_commands(entries)
    assert_updated(status_line(entries))
    status, _label = applet.indicator()
    assert status == "NeedsAttention", applet.props()
    assert applet.prop("AttentionIconName"), applet.props()
    stop_ok(applet)


def test_fixture_unread_count(s):
    """The real LWN feed: 15 unread items, the count on the indicator, [$] kept;
    opening one marks it read."""
    s.server.set_body(e2e.lwn_fixture())
    applet = s.start()
    menu = applet.menu()
    entries = menu.wait(lambda entries: len(split(entries)[0]) == 15, "the 15 LWN headlines")
    labels = headline_labels(entries)
    # The unread mark is a radio indicator in a column of its own: the titles
    # themselves carry no marker, so read and unread ones line up.
    for entry in split(entries)[0]:
        assert entry["toggle-type"] == "radio" and entry["toggle-state"] == 1, entry
        assert not entry["raw_label"].startswith("\u2022"), entry
    assert labels[0] == BULLET + "Going Rogue (Digital Antiquarian)", labels[0]
    assert all(label.startswith(BULLET) for label in labels), labels
    assert any(label.startswith(BULLET + "[$] ") for label in labels), labels
    applet.wait_indicator("NeedsAttention", "15")
    # Plasma shows no label, but shows the title as the item's tooltip.
    e2e.wait_for(lambda: applet.prop("Title") == "LWN.net — 15 unread", "the count in the title")
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) <= 1, s.notifier.notifications()

    menu.click(BULLET + "Going Rogue")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/937631/"]
    entries = menu.wait(
        lambda entries: headline_labels(entries)[0] == "Going Rogue (Digital Antiquarian)", "the first item read"
    )
    assert all(label.startswith(BULLET) for label in headline_labels(entries)[1:]), headline_labels(entries)
    assert split(entries)[0][0]["toggle-type"] == "radio" and split(entries)[0][0]["toggle-state"] == 0, entries[0]
    applet.wait_indicator("NeedsAttention", "14")

    # Opening a read headline again opens it and leaves it read: the click
    # toggles nothing the reading model did not.
    menu.click("Going Rogue")
    assert s.recorder.wait_count(2)[1] == "https://lwn.net/Articles/937631/"
    time.sleep(SETTLE)
    assert len(s.recorder.urls()) == 2, s.recorder.urls()
    first = split(menu.visible_items())[0][0]
    assert first["label"] == "Going Rogue (Digital Antiquarian)" and first["toggle-state"] == 0, first
    e2e.wait_for(lambda: applet.prop("Title") == "LWN.net — 14 unread", "the new count in the title")
    stop_ok(applet)


def test_open_headline(s):
    """Clicking a headline opens the article URL (2020 /rss links rewritten), with a
    startup id from the display, and marks it read; with nothing unread the indicator
    goes back to Active."""
    items = [old(826124, "Kernel news from 2020: io_uring"), current(937631, "Going Rogue (Digital Antiquarian)")]
    applet, menu = start_loaded(s, items)
    applet.wait_indicator("NeedsAttention", "2")

    menu.click(BULLET + "Kernel news from 2020: io_uring")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/826124/"]
    wait_headlines(menu, items, read={items[0]["title"]})
    applet.wait_indicator("NeedsAttention", "1")

    menu.click(BULLET + "Going Rogue")
    assert s.recorder.wait_count(2) == ["https://lwn.net/Articles/826124/", "https://lwn.net/Articles/937631/"]
    wait_headlines(menu, items, read={item["title"] for item in items})
    applet.wait_indicator("Active", "")

    menu.click("Open LWN.net")
    urls = s.recorder.wait_count(3)
    assert urls[2].startswith("https://lwn.net"), urls

    # Each launch brought the display's startup id (X11 here), a new one each time,
    # so that the browser may come to the front.
    tokens = s.recorder.tokens()
    assert len(tokens) == 3, tokens
    for activation, startup in tokens:
        assert activation and activation == startup and "_TIME" in startup, tokens
    assert len(set(tokens)) == 3, tokens
    stop_ok(applet)


def zombie_children(pid):
    """The ended children of `pid` that nobody has collected yet."""
    zombies = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == "Z" and int(fields[1]) == pid:
            zombies.append(int(entry))
    return zombies


def test_browser_inherits_nothing(s):
    """The browser gets none of the applet's descriptors (its bus, display and feed
    connections, its pipes and watches, its state file being saved, nor one its own
    parent left open), and once it ends, the applet collects it."""
    items = [current(937631, "Going Rogue (Digital Antiquarian)"), current(937416, "Another headline")]
    left_open = os.open(s.path("left-open-by-the-parent"), os.O_WRONLY | os.O_CREAT)
    try:
        applet, menu = start_loaded(s, items, pass_fds=(left_open,))
    finally:
        os.close(left_open)
    for number, title in enumerate(item["title"] for item in items):
        menu.click(BULLET + title)
        s.recorder.wait_count(number + 1)
    assert s.recorder.descriptors() == [[], []], s.recorder.descriptors()
    e2e.wait_for(lambda: not zombie_children(applet.proc.pid), "the ended browsers to be collected")
    stop_ok(applet)


def test_no_startup_notify(s):
    """A browser whose entry lacks StartupNotify=true gets no startup id: the desktop
    would show a busy cursor for it until that timed out."""
    s.recorder.without_startup_notify()
    items = [current(937631, "Going Rogue (Digital Antiquarian)")]
    applet, menu = start_loaded(s, items)
    menu.click(BULLET + "Going Rogue")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/937631/"]
    assert s.recorder.tokens() == [("", "")], s.recorder.tokens()
    stop_ok(applet)


def test_mark_all_read_persists(s):
    """Mark all as read clears bullets and attention, and stays so after a restart."""
    items = [current(937600 + index) for index in range(5)]
    applet, menu = start_loaded(s, items)
    applet.wait_indicator("NeedsAttention", "5")
    menu.click("Mark all as read")
    read = {item["title"] for item in items}
    wait_headlines(menu, items, read=read)
    applet.wait_indicator("Active", "")
    stop_ok(applet)
    for key in ("XDG_STATE_HOME", "XDG_CACHE_HOME"):
        directory = os.path.join(s.dirs[key], "lwn-tray")
        assert os.path.isdir(directory) and os.listdir(directory), "nothing saved in %s" % directory

    applet = s.start()
    menu = applet.menu()
    wait_headlines(menu, items, read=read, what="read headlines after a restart")
    s.server.wait_answered(2)
    time.sleep(SETTLE)
    assert headline_labels(menu.visible_items()) == [item["title"] for item in items], menu.labels()
    assert applet.indicator() == ("Active", ""), applet.props()
    stop_ok(applet)


def test_notifications(s):
    """New items found by a refresh are notified one by one (up to three) or grouped;
    the first run shows at most one; a restart repeats none. The refreshes come from
    a short timer because manual refreshes are rate-limited."""
    first = [current(937500 + index) for index in range(4)]
    applet, menu = start_loaded(s, first, interval=2)
    time.sleep(SETTLE)
    initial = len(s.notifier.notifications())
    assert initial <= 1, s.notifier.notifications()

    fresh = [current(937700, "Two new items arrive"), old(826124, "And one in the 2020 style")]
    items = fresh + first
    s.server.set_items(items)
    wait_headlines(menu, items)
    notifications = settle_notifications(s, initial + 2, "two new items")[initial:]
    titles = sorted(notification.summary for notification in notifications)
    assert titles == sorted(item["title"] for item in fresh), notifications
    for notification in notifications:
        number = 937700 if notification.summary == fresh[0]["title"] else 826124
        assert "Summary of article %d" % number in notification.body, notification
        assert "<" not in notification.body and ">" not in notification.body, notification
        assert notification.app_icon, notification
        assert notification.hints.get("desktop-entry") == e2e.APP_ID, notification
        assert notification.actions == {"default": "Open"}, notification
        assert notification.hints.get("category") == "x-lwn-tray.headline", notification

    many = [current(937800 + index) for index in range(5)]
    items = many + items
    s.server.set_items(items)
    wait_headlines(menu, items[:20])
    grouped = settle_notifications(s, initial + 3, "five new items")[-1]
    match = GROUPED.search(grouped.summary + "\n" + grouped.body)
    # The first run's group, never closed, is updated in place and counts its four too.
    assert match and match.group(1) == ("9" if initial else "5"), grouped
    stop_ok(applet)

    # A new ETag makes the restart fetch the whole feed again rather than get a 304.
    s.server.set_items(items)
    answered = len(s.server.answered())
    applet = s.start()
    menu = applet.menu()
    s.server.wait_answer(answered, "the full feed after a restart", lambda record: record["status"] == 200)
    wait_headlines(menu, items[:20], what="headlines after a restart")
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) == initial + 3, s.notifier.notifications()
    stop_ok(applet)


def test_notification_action(s):
    """Invoking a notification's default action opens the article, with the activation
    token the server sent, and marks it read."""
    known = [current(937400)]
    applet, menu = start_loaded(s, known)
    time.sleep(SETTLE)
    before = len(s.notifier.notifications())
    fresh = old(826124, "Notified 2020-style article")
    items = [fresh] + known
    s.server.set_items(items)
    menu.click("Refresh now")
    wait_headlines(menu, items)
    notification = settle_notifications(s, before + 1, "one new item")[-1]
    assert notification.summary == fresh["title"], notification
    s.notifier.invoke(notification.id, "default", activation_token="lwn-test-token-826124")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/826124/"]
    # The server's token goes to the browser, under both names, to bring it to the front.
    assert s.recorder.tokens() == [("lwn-test-token-826124", "lwn-test-token-826124")], s.recorder.tokens()
    wait_headlines(menu, items, read={fresh["title"]}, what="the notified item read")
    stop_ok(applet)


def test_no_notify(s):
    """--no-notify: new headlines reach the menu but no notification is sent."""
    first = [current(937300)]
    applet, menu = start_loaded(s, first, "--no-notify")
    items = [current(937301), current(937302)] + first
    s.server.set_items(items)
    menu.click("Refresh now")
    wait_headlines(menu, items)
    time.sleep(SETTLE)
    assert s.notifier.notifications() == [], s.notifier.notifications()
    stop_ok(applet)


def test_second_instance(s):
    """A second start asks the running instance to refresh and exits 0."""
    items = [current(937200)]
    applet, menu = start_loaded(s, items)
    s.server.wait_answered(1)
    requests = s.server.count()
    second = s.launch()
    assert second.wait_exit() == 0, second.log()
    s.server.wait_requests(requests + 1)
    applet.assert_alive()
    senders = {sender for sender, _path in s.watcher.registrations()}
    assert senders == {applet.name}, s.watcher.registrations()
    stop_ok(applet)


def test_timer_conditional_get(s):
    """--interval below 60 is accepted with a warning; the timer refreshes with
    If-None-Match and a 304 keeps everything but the status time."""
    items = [current(937100), current(937101)]
    applet, menu = start_loaded(s, items, interval=2)
    etag = s.server.etag
    s.server.wait_answered(2, timeout=15)
    second = s.server.log()[1]
    assert second["headers"].get("if-none-match") == etag, second
    assert second["status"] == 304, second
    # Refreshing… shows while a request is under way; the 304 leaves "Updated".
    entries = menu.wait(lambda entries: status_line(entries)["label"].startswith("Updated "), "the status after the 304")
    assert headline_labels(entries) == [shown(item) for item in items], menu.labels()
    assert_updated(status_line(entries))
    applet.assert_alive()
    log = applet.log()
    assert re.search(r"(?i)warning.*(interval|60)", log), log
    stop_ok(applet)


def test_refresh_failures(s):
    """HTTP 500 and malformed XML keep the headlines and report the failure; the next
    good answer clears it. Driven by a short timer, as manual refreshes are rate-limited."""
    items = [current(937050), current(937051)]
    applet, menu = start_loaded(s, items, interval=2)
    expected = [shown(item) for item in items]

    answered = len(s.server.answered())
    s.server.fail(500)
    s.server.wait_answer(answered, "an HTTP 500 answer", lambda record: record["status"] == 500)
    entries = menu.wait(
        lambda entries: status_line(entries)["label"].startswith("Last update failed: "), "the HTTP 500 failure"
    )
    reason = assert_failed(status_line(entries))
    assert "500" in reason, reason
    assert headline_labels(entries) == expected, menu.labels()
    applet.assert_alive()

    s.server.heal()
    entries = menu.wait(lambda entries: status_line(entries)["label"].startswith("Updated "), "recovery from 500")
    assert_updated(status_line(entries))

    answered = len(s.server.answered())
    s.server.break_body()
    s.server.wait_answer(answered, "a malformed answer", lambda record: record["malformed"])
    entries = menu.wait(
        lambda entries: status_line(entries)["label"].startswith("Last update failed: "),
        "the malformed-feed failure",
    )
    reason = assert_failed(status_line(entries))
    assert "500" not in reason, reason
    assert headline_labels(entries) == expected, menu.labels()
    applet.assert_alive()

    s.server.heal()
    entries = menu.wait(lambda entries: status_line(entries)["label"].startswith("Updated "), "recovery")
    assert_updated(status_line(entries))
    assert headline_labels(entries) == expected, menu.labels()
    stop_ok(applet)


def test_connection_refused(s):
    """A dead server on a cold start: "Could not load headlines" and a Retry item
    that loads the feed once the server is up."""
    port = e2e.free_port()
    url = "http://127.0.0.1:%d%s" % (port, e2e.FEED_PATH)
    applet = s.start(feed_url=url)
    menu = applet.menu()
    entries = menu.wait(
        lambda entries: entries and entries[0]["label"].startswith("Could not load headlines: "),
        "the load failure",
    )
    assert entries[0]["enabled"] is False, entries[0]
    assert len(entries[0]["label"]) > len("Could not load headlines: "), entries[0]
    retry = menu.find("Retry")
    assert retry["enabled"] is True, retry
    applet.assert_alive()

    s.server.close()
    s.server = e2e.FeedServer(port)
    items = [current(937010)]
    s.server.set_items(items)
    menu.click("Retry")
    wait_headlines(menu, items)
    assert_updated(status_line(menu.visible_items()))
    stop_ok(applet)


def test_refresh_under_way(s):
    """Retry and Refresh now against a slow server: the status line says
    "Refreshing…" and the command is insensitive until the answer comes."""
    items = [current(937024)]
    s.server.set_items(items)
    s.server.fail(500)
    applet = s.start()
    menu = applet.menu()
    menu.wait(lambda entries: entries and entries[0]["label"].startswith("Could not load headlines: "), "the failure")
    s.server.heal()
    s.server.hold()
    menu.click("Retry")
    entries = menu.wait(
        lambda entries: status_label(entries) == e2e.REFRESHING and not menu.find("Retry")["enabled"],
        "Refreshing… with Retry insensitive",
    )
    assert entries[0]["label"].startswith("Could not load headlines: "), entries[0]
    s.server.release()
    wait_headlines(menu, items)
    menu.wait(
        lambda entries: status_line(entries)["label"].startswith("Updated ") and menu.find("Refresh now")["enabled"],
        "the headlines, and Refresh now",
    )

    s.server.hold()
    menu.click("Refresh now")
    entries = menu.wait(
        lambda entries: status_line(entries)["label"] == e2e.REFRESHING and not menu.find("Refresh now")["enabled"],
        "Refreshing… with Refresh now insensitive",
    )
    assert headline_labels(entries) == [shown(item) for item in items], headline_labels(entries)
    s.server.release()
    menu.wait(
        lambda entries: status_line(entries)["label"].startswith(("Updated ", "Up to date"))
        and menu.find("Refresh now")["enabled"],
        "the answer, and Refresh now again",
    )
    stop_ok(applet)


def test_cache_before_answer(s):
    """A restart shows the cached headlines before the server answers."""
    items = [current(937020), current(937021), old(826124)]
    applet, menu = start_loaded(s, items)
    stop_ok(applet)

    s.server.hold()
    applet = s.start()
    menu = applet.menu()
    wait_headlines(menu, items, what="cached headlines")
    assert len(s.server.answered()) == 1, s.server.log()
    s.server.release()
    s.server.wait_answered(2)
    applet.assert_alive()
    stop_ok(applet)


def test_quit_and_signals(s):
    """Quit in the menu exits 0; so do SIGINT and SIGTERM."""
    items = [current(937030)]
    applet, menu = start_loaded(s, items)
    menu.click("Quit")
    assert applet.wait_exit() == 0, applet.log()

    applet = s.start()
    stop_ok(applet, signal.SIGINT)
    applet = s.start()
    stop_ok(applet, signal.SIGTERM)


# Quitting takes a fraction of a second; this bound only tells "prompt" from "hangs".
QUIT_TIMEOUT = 5.0


def open_windows(applet, menu):
    """Opens the headlines and preferences windows from the menu and waits until
    the applet has made both."""
    menu.click("Show Headlines")
    menu.click("Preferences")
    e2e.wait_for(
        lambda: "Showing the headlines window" in applet.log() and "Showing the preferences window" in applet.log(),
        "both windows to open",
    )


def assert_clean_exit(applet, code, how):
    log = applet.log()
    assert code == 0, "%s: lwn-tray exited with %r\n%s" % (how, code, log)
    assert "CRITICAL" not in log and "WARNING" not in log, "%s: the applet complained\n%s" % (how, log)
    # The last reference goes only once the windows are gone, and with it
    # everything the application owns.
    assert "Application finalized" in log, "%s: the application was never finalized\n%s" % (how, log)


def test_quit_with_windows_open(s):
    """Quit in the menu and SIGTERM, with the headlines and preferences windows open,
    exit 0 at once and dispose of the windows and of the application."""
    items = [current(937035)]
    applet, menu = start_loaded(s, items)
    open_windows(applet, menu)
    menu.click("Quit")
    assert_clean_exit(applet, applet.wait_exit(QUIT_TIMEOUT), "Quit")

    applet = s.start()
    menu = applet.menu()
    wait_headlines(menu, items)
    open_windows(applet, menu)
    assert_clean_exit(applet, applet.stop(signal.SIGTERM, QUIT_TIMEOUT), "SIGTERM")


def loaders_without_svg(path):
    """Writes a gdk-pixbuf loaders cache without the SVG loader, as on a system
    without librsvg2-common, and returns its path."""
    system = glob.glob("/usr/lib/*/gdk-pixbuf-2.0/2.10.0/loaders.cache") + glob.glob(
        "/usr/lib/gdk-pixbuf-2.0/2.10.0/loaders.cache"
    )
    assert system, "no gdk-pixbuf loaders cache found"
    with open(system[0]) as cache:
        entries = cache.read().split("\n\n")
    with open(path, "w") as cache:
        cache.write("\n\n".join(entry for entry in entries if "svg" not in entry.lower()))
    return path


def viewable_window(env, title):
    """Whether the X server shows a window of this title."""
    info = subprocess.run(["xwininfo", "-name", title], env=env, capture_output=True, text=True)
    return info.returncode == 0 and "IsViewable" in info.stdout


def test_missing_icons(s):
    """With an icon theme that has none of the windows' icons and no SVG loader,
    the headlines and preferences windows open and the applet goes on: GTK shows
    its image-missing icon, which must stay reachable. GTK 3.24.49 (Debian 13)
    aborts the whole process when not even that icon loads."""
    theme = os.path.join(s.dirs["XDG_DATA_HOME"], "icons", "Empty")
    os.makedirs(theme)
    with open(os.path.join(theme, "index.theme"), "w") as index:
        index.write("[Icon Theme]\nName=Empty\nComment=No icons at all\nDirectories=\n")
    settings = os.path.join(s.dirs["XDG_CONFIG_HOME"], "gtk-3.0")
    os.makedirs(settings)
    with open(os.path.join(settings, "settings.ini"), "w") as ini:
        ini.write("[Settings]\ngtk-icon-theme-name=Empty\n")
    s.env["GDK_PIXBUF_MODULE_FILE"] = loaders_without_svg(s.path("loaders.cache"))

    items = [current(937036)]
    applet, menu = start_loaded(s, items)
    open_windows(applet, menu)
    # A window's icons load as it is first drawn, right after the X server maps it.
    for title in ("Preferences", "Headlines — LWN.net"):
        e2e.wait_for(lambda: viewable_window(s.env, title) or not applet.alive(), "the %r window mapped" % title)
        applet.assert_alive()
    time.sleep(SETTLE)
    applet.assert_alive()
    menu.click("Quit")
    code = applet.wait_exit(QUIT_TIMEOUT)
    assert code == 0, "lwn-tray exited with %r\n%s" % (code, applet.log())


NM_NAME = "org.freedesktop.NetworkManager"
# Owns a name on the bus it is given and never reads a message, so that no call
# to it is ever answered: a NetworkManager that hangs, as one may at login.
HANGING_OWNER = """
import sys
import dbus.bus
bus = dbus.bus.BusConnection(sys.argv[1])
bus.request_name(sys.argv[2], dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
sys.stdin.read()
"""
# GLib's NetworkManager monitor waits 25 s for an answer, D-Bus's default timeout;
# everything below happens well within that.
NM_GRACE = 10.0
# lwn-tray.c's HOST_CHECK_SECONDS: how long a present host has to take the icon.
HOST_CHECK_SECONDS = 4
# A main thread held by the monitor would not answer for NetworkManager's whole
# 25 s timeout; an answer within this many seconds means it was not held. How
# quickly the menu answers is a figure for bench/bench-stall.sh (its phase N),
# not a bound for this test.
ANSWER_TIMEOUT = 5.0


def test_network_monitor_hangs(s):
    """A NetworkManager that never answers on the system bus does not hold the
    applet: GLib's NetworkManager monitor is made off the main thread, so the item
    registers and the menu answers GetLayout while the monitor waits."""
    items = [current(937105)]
    s.server.set_items(items)
    system_dir = s.path("system-bus")
    os.makedirs(system_dir, mode=0o700)
    system_bus = e2e.Bus(system_dir)
    owner = subprocess.Popen(
        [e2e.PYTHON, "-c", HANGING_OWNER, system_bus.address, NM_NAME], env=s.env, stdin=subprocess.PIPE
    )
    try:
        e2e.wait_for(lambda: system_bus.name_owner(NM_NAME), "the hanging NetworkManager to own its name")
        s.env["DBUS_SYSTEM_BUS_ADDRESS"] = system_bus.address
        s.env["GIO_USE_NETWORK_MONITOR"] = "networkmanager"
        started = time.monotonic()
        applet = s.launch()
        applet.wait_registered(timeout=NM_GRACE)
        menu = applet.menu()
        wait_headlines(menu, items)
        menu.answers_while(
            max(0.0, NM_GRACE - (time.monotonic() - started)), ANSWER_TIMEOUT, "while the network monitor was made"
        )
        assert "Following the network" not in applet.log(), "the monitor did not wait for NetworkManager"
        stop_ok(applet)
    finally:
        owner.stdin.close()
        e2e.stop_process(owner)
        system_bus.close()


def explanations(s, items):
    """Notifications that are neither a headline nor a grouped headline summary."""
    titles = {item["title"] for item in items}
    return [
        notification
        for notification in s.notifier.notifications()
        if notification.summary not in titles and not GROUPED.search(notification.summary + notification.body)
    ]


def xembed_windows(env):
    """The X windows that offer themselves for XEmbed (a GtkStatusIcon's tray
    icon does, to dock in an XEmbed system tray)."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True, check=True)
    found = []
    for window in re.findall(r"^\s*(0x[0-9a-f]+) ", tree.stdout, re.MULTILINE):
        info = subprocess.run(["xprop", "-id", window, "_XEMBED_INFO"], env=env, capture_output=True, text=True)
        if info.returncode == 0 and "not found" not in info.stdout and "no such atom" not in info.stdout:
            found.append(window)
    return found


NOTICE = "LWN.net Headlines runs without a panel icon"


def notices(s):
    return [notification for notification in s.notifier.notifications() if notification.summary == NOTICE]


def test_no_watcher(s):
    """Without a StatusNotifierWatcher the applet keeps running, makes no XEmbed
    icon in its place (libayatana-appindicator's GtkStatusIcon fallback, which
    Plasma would show beside the real item) and, once the grace period has
    passed, says how to reach it: one notice, in the desktop's words, whose
    action opens the headlines window. A tray that appears withdraws it and
    gets the item; the notice never comes again, not after a restart either."""
    items = [current(937040), current(937041)]
    s.server.set_items(items)
    s.env["XDG_CURRENT_DESKTOP"] = "GNOME"
    applet = s.launch(interval=2)
    (notice,) = e2e.wait_for(lambda: notices(s), "the notice about the missing tray")
    assert "AppIndicator extension" in notice.body and "Activities" in notice.body, notice
    assert notice.actions.get("show-headlines") == "Show Headlines", notice
    assert notice.actions.get("default") == "Show Headlines", notice
    applet.assert_alive()
    assert xembed_windows(s.env) == [], "the applet made an XEmbed tray icon"
    answered = len(s.server.answered())
    s.server.wait_answered(answered + 2, timeout=15)
    applet.assert_alive()
    assert len(notices(s)) == 1, s.notifier.notifications()
    assert len(explanations(s, items)) == 1, s.notifier.notifications()

    s.notifier.invoke(notice.id, "show-headlines")
    e2e.wait_for(lambda: viewable_window(s.env, "Headlines — LWN.net"), "the headlines window from the notice")

    s.start_watcher()
    applet.wait_registered()
    e2e.wait_for(lambda: notice.id in s.notifier.closed_ids(), "the notice withdrawn once the icon shows")
    wait_headlines(applet.menu(), items)
    stop_ok(applet)

    # Once per installation: not at the next start without a tray either.
    s.watcher.close()
    s.watcher = None
    applet = s.launch(interval=3600)
    e2e.wait_for(lambda: "No system tray" in applet.log(), "the applet to find no tray again")
    time.sleep(SETTLE)
    assert len(notices(s)) == 1, s.notifier.notifications()
    stop_ok(applet)


def test_no_watcher_grace(s):
    """A tray registry that goes away and comes back within the grace period (a
    panel that restarts) is not an absence: no notice. Each desktop gets its own
    advice."""
    items = [current(937045)]
    s.server.set_items(items)
    s.env["XDG_CURRENT_DESKTOP"] = "KDE"
    applet = s.start()
    wait_headlines(applet.menu(), items)
    s.watcher.close()
    e2e.wait_for(lambda: "No tray host watcher on the bus" in applet.log(), "the applet to see the host go")
    time.sleep(1)
    s.start_watcher()
    applet.wait_registered()
    time.sleep(NO_TRAY_GRACE_SECONDS + SETTLE)
    assert notices(s) == [], s.notifier.notifications()

    s.watcher.close()
    (notice,) = e2e.wait_for(lambda: notices(s), "the notice once the tray stayed away")
    assert "System Tray widget" in notice.body and "application launcher" in notice.body, notice
    # Quit takes it away: its button would show a window that has gone.
    stop_ok(applet)
    assert notice.id in s.notifier.closed_ids(), s.notifier.closed_ids()


def allow_refused_registration_leak(s):
    """Under LeakSanitizer, tells it of one library leak on this scenario's path alone:
    libayatana-appindicator's callback for RegisterStatusNotifierItem (register_service_cb
    in app-indicator.c) logs the error of a refused registration and returns without
    freeing it, a GError of under 100 bytes per refusal. Debian 13's LeakSanitizer finds
    it; nothing of lwn-tray's holds or frees that error. Every other scenario keeps the
    suppressions of tests/sanitizers/lsan.supp alone."""
    options = s.env.get("LSAN_OPTIONS", "")
    match = re.search(r"(?:^|:)suppressions=([^:]+)", options)
    if match is None:
        return
    with open(match.group(1)) as f:
        suppressions = f.read()
    path = s.path("lsan-refused-registration.supp")
    with open(path, "w") as f:
        f.write(suppressions + "\n# The GError of a refused registration, which libayatana-appindicator drops.\n"
                "leak:g_dbus_message_to_gerror\n")
    # The slow unwinder: the fast one stops at GLib, whose frames tell the error apart.
    s.env = dict(
        s.env,
        LSAN_OPTIONS=options.replace(match.group(0), match.group(0).replace(match.group(1), path)),
        ASAN_OPTIONS=s.env.get("ASAN_OPTIONS", "") + ":fast_unwind_on_malloc=0",
    )


def test_impostor_ids(s):
    """A second feed that sends the ids of LWN's headlines, with its own titles and links
    to a look-alike site, listed after LWN's feed and then before it: each feed's section
    shows its own headlines, a click on LWN's opens LWN's article and one on the other
    feed's opens that feed's link, each read in its own feed only."""
    lwn = [e2e.headline(959001, "Kernel news one"), e2e.headline(959002, "Kernel news two")]
    impostor = [
        dict(item, title="Renew your subscription %d" % number, link="https://lwn.example.net/renew/%d" % number)
        for number, item in enumerate(lwn, 1)
    ]
    s.server.set_items(lwn)
    other = e2e.FeedServer()
    read = set()

    def shows(entries):
        labels = [entry["label"] for entry in entries]
        return all(
            labels.count(("" if item["title"] in read else e2e.BULLET) + item["title"]) == 1 for item in lwn + impostor
        )

    try:
        other.set_body(e2e.rss1(impostor, "Look-alike"))
        # LWN's feed first, and one headline of each feed clicked; then the other feed
        # first, and the two others clicked.
        for first, clicked in (("LWN's feed", (lwn[0], impostor[1])), ("the other feed", (lwn[1], impostor[0]))):
            if first == "LWN's feed":
                applet = s.start("--feed-url", other.url)
            else:
                applet = s.start("--feed-url", s.server.url, feed_url=other.url)
            menu = applet.menu()
            menu.wait(shows, "each feed's own headlines, %s first" % first)
            opened = len(s.recorder.urls())
            for item in clicked:
                menu.click(e2e.BULLET + item["title"])
                read.add(item["title"])
            urls = s.recorder.wait_count(opened + len(clicked))[opened:]
            assert sorted(urls) == sorted(item["link"] for item in clicked), urls
            menu.wait(shows, "each click read in its own feed, %s first" % first)
            stop_ok(applet)
    finally:
        other.close()


def test_watcher_refuses_first(s):
    """A tray host that refuses the first registration still gets the icon: the applet
    creates its indicator anew when a present host has not taken it."""
    items = [current(937050)]
    s.server.set_items(items)
    allow_refused_registration_leak(s)
    watcher = s.start_watcher(refuse=1)
    applet = s.launch()
    applet.wait_registered(timeout=20)
    assert watcher.registrations()[0][1] == "refused", watcher.registrations()
    wait_headlines(applet.menu(), items)
    stop_ok(applet)



def test_host_gone_after_registering(s):
    """A tray host that took the icon and then left is not a host that refused it:
    the applet does not create its indicator anew for a host that is not there, and
    registers again, once, when a host comes back."""
    items = [current(937060)]
    s.server.set_items(items)
    applet = s.launch()
    applet.wait_registered()
    s.watcher.close()
    e2e.wait_for(lambda: "No tray host watcher on the bus" in applet.log(), "the applet to see the host go")
    # Past the check the applet made when the host appeared.
    time.sleep(HOST_CHECK_SECONDS + 2)
    assert "creating it again" not in applet.log(), applet.log()
    watcher = s.start_watcher()
    e2e.wait_for(lambda: watcher.registrations(), "the item registered with the new host")
    time.sleep(HOST_CHECK_SECONDS + 2)
    assert "creating it again" not in applet.log(), applet.log()
    assert len(watcher.registrations()) == 1, watcher.registrations()
    stop_ok(applet)

SCHEMA = "io.github.lwntray.LwnTray"
APP_ID = e2e.APP_ID


def test_settings_live(s):
    """The feeds in GSettings apply at once: a feed-url of before becomes the list at
    the first start, a new list loads its feeds and drops those it left out, and with
    several feeds the menu gives each a section under its name, says which feeds
    failed in the status line and which in their heading, and counts all their
    unread headlines; changing refresh-interval reschedules the pending refresh."""
    first = [current(937080, "Headline of the first feed")]
    second = [current(937090, "Headline of the second feed"), current(937091, "Another of the second feed")]
    s.server.set_items(first)
    other = e2e.FeedServer()
    try:
        other.set_items(second)
        s.gsettings("set", SCHEMA, "feed-url", s.server.url)
        applet = s.start(use_settings=True)
        menu = applet.menu()
        wait_headlines(menu, first)
        assert s.gsettings("get", SCHEMA, "feeds").strip() == "[('%s', '', true)]" % s.server.url

        s.gsettings("set", SCHEMA, "feeds", "[('%s', '', true)]" % other.url)
        wait_headlines(menu, second, what="the second feed's headlines after the switch")
        assert len(other.answered()) >= 1

        dead = "http://127.0.0.1:9/feed"
        s.gsettings(
            "set",
            SCHEMA,
            "feeds",
            "[('%s', 'First', true), ('%s', 'Second', true), ('%s', 'Dead', true)]" % (s.server.url, other.url, dead),
        )
        expected = ["First"] + [shown(item) for item in first] + ["Second"] + [shown(item) for item in second]
        expected.append("Dead " + EM_DASH + " could not load")
        menu.wait(lambda entries: headline_labels(entries) == expected, "a section per feed, the dead one said so")
        menu.wait(lambda entries: status_line(entries)["label"] == "Update failed: Dead", "the status line naming it")
        e2e.wait_for(lambda: applet.prop("Title") == "LWN.net " + EM_DASH + " 3 unread", "three unread in all")
        headings = [entry for entry in split(menu.visible_items())[0] if not entry.get("toggle-type")]
        assert [entry["label"] for entry in headings] == ["First", "Second", "Dead " + EM_DASH + " could not load"]
        assert all(entry.get("enabled") is False for entry in headings), headings

        s.gsettings("set", SCHEMA, "refresh-interval", "7200")
        e2e.wait_for(lambda: "Next refresh in 7200 s" in applet.log(), "the refresh rescheduled to 7200 s")
        s.gsettings("set", SCHEMA, "max-items", "2")
        two = ["First", shown(first[0]), "Second", shown(second[0]), "Dead " + EM_DASH + " could not load"]
        menu.wait(lambda entries: headline_labels(entries) == two, "one headline each after max-items=2")
        stop_ok(applet)
    finally:
        other.close()


def test_icon_style(s):
    """The panel icon's style: symbolic on GNOME and KDE, in colour elsewhere, and
    as tray-icon-style says; the unread state shows in either style."""
    items = [current(937095)]
    s.server.set_items(items)
    s.gsettings("set", SCHEMA, "feed-url", s.server.url)

    def icons(symbolic):
        suffix = "-symbolic" if symbolic else ""
        return (APP_ID + "-unread" + suffix, APP_ID + "-unread" + suffix)

    def wait_icons(applet, symbolic, what):
        e2e.wait_for(lambda: (applet.prop("IconName"), applet.prop("AttentionIconName")) == icons(symbolic), what)

    for desktop, symbolic in (("ubuntu:GNOME", True), ("KDE", True), ("XFCE", False)):
        s.env["XDG_CURRENT_DESKTOP"] = desktop
        applet = s.start(use_settings=True)
        wait_headlines(applet.menu(), items)
        applet.wait_indicator("NeedsAttention", "1")
        wait_icons(applet, symbolic, "the %s icons on %s" % ("symbolic" if symbolic else "colour", desktop))
        stop_ok(applet)

    s.env["XDG_CURRENT_DESKTOP"] = "GNOME"
    applet = s.start(use_settings=True)
    menu = applet.menu()
    wait_headlines(menu, items)
    s.gsettings("set", SCHEMA, "tray-icon-style", "colour")
    wait_icons(applet, False, "the colour icons as set")
    menu.click(BULLET + items[0]["title"])
    applet.wait_indicator("Active", "")
    e2e.wait_for(lambda: applet.prop("IconName") == APP_ID, "the read colour icon")
    s.gsettings("set", SCHEMA, "tray-icon-style", "symbolic")
    e2e.wait_for(lambda: applet.prop("IconName") == APP_ID + "-symbolic", "the read symbolic icon")
    stop_ok(applet)


def autostart_file(s):
    return os.path.join(s.dirs["XDG_CONFIG_HOME"], "autostart", SCHEMA + ".desktop")


def test_start_at_login(s):
    """The Start at login item writes and removes the XDG autostart entry, and shows
    an entry disabled with Hidden=true as off."""
    s.server.set_items([current(937100)])
    applet = s.start()
    menu = applet.menu()
    item = menu.wait_item("Start at login")
    assert item["toggle-type"] == "checkmark" and item["toggle-state"] == 0, item
    assert not os.path.exists(autostart_file(s))

    menu.click("Start at login")
    e2e.wait_for(lambda: os.path.exists(autostart_file(s)), "the autostart entry")
    with open(autostart_file(s)) as entry:
        text = entry.read()
    assert "Exec=" in text and "Type=Application" in text, text
    menu.wait(lambda entries: menu.find("Start at login")["toggle-state"] == 1, "the item ticked")

    menu.click("Start at login")
    e2e.wait_for(lambda: not os.path.exists(autostart_file(s)), "the autostart entry removed")
    menu.wait(lambda entries: menu.find("Start at login")["toggle-state"] == 0, "the item unticked")
    stop_ok(applet)

    os.makedirs(os.path.dirname(autostart_file(s)), exist_ok=True)
    with open(autostart_file(s), "w") as entry:
        entry.write("[Desktop Entry]\nType=Application\nName=LWN.net Headlines\nExec=lwn-tray\nHidden=true\n")
    applet = s.start()
    item = applet.menu().wait_item("Start at login")
    assert item["toggle-state"] == 0, item
    stop_ok(applet)


def toggle_state(menu):
    return menu.find("Start at login")["toggle-state"]


def test_start_at_login_fast_and_failing(s):
    """Start at login clicked three times in a row ends ticked with the entry written;
    when the entry cannot be written, a notification says why and the tick goes back."""
    s.server.set_items([current(937101)])
    applet = s.start()
    menu = applet.menu()
    item = menu.wait_item("Start at login")
    for _ in range(3):
        menu.click_id(item["id"])
    e2e.wait_for(
        lambda: os.path.exists(autostart_file(s)) and toggle_state(menu) == 1,
        "the entry written and the item ticked after three clicks",
    )
    # Nothing still under way may change either afterwards.
    time.sleep(SETTLE)
    assert os.path.exists(autostart_file(s)) and toggle_state(menu) == 1, toggle_state(menu)

    menu.click_id(item["id"])
    e2e.wait_for(lambda: not os.path.exists(autostart_file(s)), "the entry removed")
    menu.wait(lambda entries: toggle_state(menu) == 0, "the item unticked")

    # A file where the autostart folder should be: the entry cannot be written.
    folder = os.path.dirname(autostart_file(s))
    os.rmdir(folder)
    with open(folder, "w") as blocker:
        blocker.write("not a folder\n")
    menu.click_id(item["id"])
    notification = e2e.wait_for(
        lambda: [n for n in s.notifier.notifications() if n.summary == "Could not change Start at login"],
        "the notification saying why",
    )[0]
    assert "autostart" in notification.body, notification
    menu.wait(lambda entries: toggle_state(menu) == 0, "the tick back off")
    assert "Could not change Start at login" in applet.log()
    stop_ok(applet)



def test_start_at_login_then_quit(s):
    """Start at login clicked four times and Quit at once: the applet writes the last
    choice (off) before it goes, and does not leave the first one (on) on disk."""
    s.server.set_items([current(937102)])
    applet = s.start()
    menu = applet.menu()
    item = menu.wait_item("Start at login")
    menu.click_ids([item["id"]] * 4 + [menu.find("Quit")["id"]])
    assert applet.wait_exit() == 0, applet.log()
    assert not os.path.exists(autostart_file(s)), "the first click's entry outlived the last click"

    applet = s.start()
    menu = applet.menu()
    item = menu.wait_item("Start at login")
    menu.click_ids([item["id"]] * 3 + [menu.find("Quit")["id"]])
    assert applet.wait_exit() == 0, applet.log()
    assert os.path.exists(autostart_file(s)), "the last click's entry was not written"

def test_menu_fits_screen(s):
    """A 40-item feed: the menu takes no more headlines than leave every command
    on the smallest monitor, drawn with the rows of the desktop's tray host
    (GNOME Shell's are 36 px); up to max-items on a screen with room."""
    items = [current(938000 + index) for index in range(40)]
    s.server.set_items(items)
    # (screen, XDG_CURRENT_DESKTOP, extra arguments, headlines expected)
    cases = [
        ("1280x800", "GNOME", (), 11),
        ("1366x768", "ubuntu:GNOME", (), 10),
        ("1280x800", "XFCE", (), 17),
        ("1280x1024", "KDE", (), 20),
    ]
    for size, desktop, args, expected in cases:
        xvfb, display = e2e.start_xvfb(size)
        try:
            s.env["DISPLAY"] = display
            s.env["XDG_CURRENT_DESKTOP"] = desktop
            applet = s.start(*args)
            menu = applet.menu()
            entries = menu.wait(
                lambda entries: len(split(entries)[0]) == expected and status_line(entries) is not None,
                "%d headlines on a %s %s screen" % (expected, size, desktop),
            )
            assert headline_labels(entries) == [shown(item) for item in items[:expected]], headline_labels(entries)
            assert [entry["label"] for entry in split(entries)[1] if entry["label"] in COMMANDS] == COMMANDS, entries
            stop_ok(applet)
        finally:
            e2e.stop_process(xvfb)


def test_many_feeds_fit_screen(s):
    """Fifty feeds: the menu has the newest headlines across them, as many as leave
    every command on the screen and the All Feeds submenu (which GNOME Shell opens
    inside the menu) a few rows to open into, yet at least eight on GNOME at
    1366x768; the submenu lists every feed where it scrolls inside the menu (GNOME
    Shell), and elsewhere as many as the screen holds, then the number of the rest."""
    folder = os.path.join(s.root, "feeds")
    os.makedirs(folder)
    urls = []
    for number in range(50):
        items = [e2e.headline(961000 + 100 * number + k, "Story %d of feed %d" % (k, number)) for k in range(20)]
        path = os.path.join(folder, "feed%02d.rdf" % number)
        with open(path, "wb") as feed:
            feed.write(e2e.rss1(items, "Feed %02d" % number))
        urls.append("file://" + path)
    arguments = []
    for url in urls[1:]:
        arguments += ["--feed-url", url]
    # (screen, XDG_CURRENT_DESKTOP, headlines expected, feeds the submenu lists)
    cases = [
        ("1366x768", "ubuntu:GNOME", 8, 50),
        ("1280x800", "GNOME", 8, 50),
        ("1280x1024", "GNOME", 12, 50),
        # (800 px less 64) / 28 px a row: 26 rows, the last for the 25 others.
        ("1280x800", "XFCE", 16, 25),
    ]
    for size, desktop, expected, listed in cases:
        xvfb, display = e2e.start_xvfb(size)
        try:
            s.env["DISPLAY"] = display
            s.env["XDG_CURRENT_DESKTOP"] = desktop
            applet = s.start(*arguments, feed_url=urls[0])
            menu = applet.menu()

            def loaded(entries, listed=listed):
                feeds = [entry for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
                labels = [child["label"] for child in feeds[0]["submenu"] if child["visible"]] if feeds else []
                rest = ["%d more feeds%s" % (50 - listed, e2e.ELLIPSIS)] if listed < 50 else []
                return labels == ["Feed %02d \u2014 20 unread" % number for number in range(listed)] + rest

            entries = [entry for entry in menu.wait(loaded, "fifty feeds loaded on %s %s" % (size, desktop))]
            top, commands = split([entry for entry in entries if entry["visible"]])
            headlines = [entry["label"] for entry in top if entry["label"] != "All Feeds"]
            assert len(headlines) == expected, (size, desktop, headlines)
            assert all(label.startswith(e2e.BULLET + "Feed ") for label in headlines), headlines
            # The first feed's site: "Open Feed 00" in LWN's place.
            expected_commands = [label.replace("LWN.net", "Feed 00") for label in COMMANDS]
            labels = [entry["label"] for entry in commands]
            assert [label for label in labels if label in expected_commands] == expected_commands, labels
            stop_ok(applet)
        finally:
            e2e.stop_process(xvfb)


def write_feeds(s, count, first_number):
    """count feeds of two headlines each, "Feed 00" on, as files: their file:// URLs."""
    folder = os.path.join(s.root, "feeds")
    os.makedirs(folder, exist_ok=True)
    urls = []
    for number in range(count):
        items = [e2e.headline(first_number + 10 * number + k, "Story %d of feed %d" % (k, number)) for k in range(2)]
        path = os.path.join(folder, "feed%02d.rdf" % number)
        with open(path, "wb") as feed:
            feed.write(e2e.rss1(items, "Feed %02d" % number))
        urls.append("file://" + path)
    return urls


class LayoutSignals:
    """The LayoutUpdated signals a tray item's menu sends, as (revision, parent) pairs."""

    def __init__(self, bus, menu):
        self.bus = bus
        self.heard = []
        self.subscription = bus.connection.signal_subscribe(
            menu.name,
            e2e.MENU_IFACE,
            "LayoutUpdated",
            menu.path,
            None,
            Gio.DBusSignalFlags.NONE,
            lambda *args: self.heard.append(args[5].unpack()),
        )

    def pump(self):
        context = GLib.MainContext.default()
        while context.pending():
            context.iteration(False)
        return self.heard

    def close(self):
        self.bus.connection.signal_unsubscribe(self.subscription)


def open_first_level(s, menu):
    """Opens the menu as KDE Plasma does: its first level only, then AboutToShow on
    it. Returns the All Feeds submenu's id, None while it is hidden."""
    _revision, (_root_id, _props, children) = s.bus.call(
        menu.name, menu.path, e2e.MENU_IFACE, "GetLayout", GLib.Variant("(iias)", (0, 1, [])), "(u(ia{sv}av))"
    )
    entries = [e2e.menu_entry(child) for child in children]
    feeds = [entry["id"] for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
    s.bus.call(menu.name, menu.path, e2e.MENU_IFACE, "AboutToShow", GLib.Variant("(i)", (0,)), "(b)")
    return feeds[0] if feeds else None


def assert_submenu_told(s, menu, signals, what):
    """Opening the menu's first level has the applet say the All Feeds submenu's layout
    changed, so that a host that fetches a submenu only as it opens it (KDE Plasma)
    fetches it now; the submenu's own layout then lists the feeds. The revision said
    is one the applet announced: never above the menu's, never below one said before
    (a libdbusmenu-glib host that heard an older revision would skip the newer layout)."""
    feeds_id = open_first_level(s, menu)
    assert feeds_id is not None, "All Feeds is not in the menu %s" % what
    before = len([heard for heard in signals.heard if heard[1] == feeds_id])
    told = e2e.wait_for(
        lambda: len([heard for heard in signals.pump() if heard[1] == feeds_id]) > before and signals.heard,
        "All Feeds announced %s" % what,
    )
    revision, (_id, _props, children) = s.bus.call(
        menu.name, menu.path, e2e.MENU_IFACE, "GetLayout", GLib.Variant("(iias)", (feeds_id, 1, [])), "(u(ia{sv}av))"
    )
    said = [heard[0] for heard in told if heard[1] == feeds_id][-1]
    assert 0 < said <= revision, (told, revision)
    revisions = [heard[0] for heard in told]
    assert revisions == sorted(revisions), "a revision older than one already said: %r" % told
    labels = [e2e.menu_entry(child)["label"] for child in children if e2e.menu_entry(child)["visible"]]
    assert labels[:2] == ["Feed 00 \u2014 2 unread", "Feed 01 \u2014 2 unread"], labels


def assert_nothing_told(s, menu, signals, what):
    """Opening the menu says no submenu's layout changed."""
    open_first_level(s, menu)
    time.sleep(SETTLE)
    assert [heard for heard in signals.pump() if heard[1] != 0] == [], "%s: %r" % (what, signals.heard)


def feeds_listed(count):
    """Whether All Feeds lists count feeds of write_feeds(), each by its name."""
    expected = ["Feed %02d \u2014 2 unread" % number for number in range(count)]

    def listed(entries):
        feeds = [entry for entry in entries if entry["label"] == "All Feeds" and entry["visible"]]
        return feeds and [child["label"] for child in feeds[0]["submenu"] if child["visible"]] == expected

    return listed


def test_submenu_fetched_as_menu_opens(s):
    """KDE Plasma fetches a submenu's entries only as it opens the submenu, and places
    it while it is still empty: the first time, a long All Feeds ran off the screen.
    Where the host opens submenus beside the menu, every opening of the menu tells the
    host the submenu's layout, so that it is filled before anyone reaches it. GNOME
    Shell, which gets submenus with the menu and fetches the whole menu again at any
    such word, is told nothing, and neither is a host when All Feeds is hidden (three
    feeds or fewer)."""
    urls = write_feeds(s, 5, 962000)
    # (XDG_CURRENT_DESKTOP, feeds followed, whether the host is told)
    cases = [("KDE", 5, True), ("XFCE", 5, True), ("GNOME", 5, False), ("KDE", 2, False)]
    for desktop, count, told in cases:
        s.env["XDG_CURRENT_DESKTOP"] = desktop
        arguments = [argument for url in urls[1:count] for argument in ("--feed-url", url)]
        applet = s.start(*arguments, feed_url=urls[0])
        menu = applet.menu()
        if count > 3:
            menu.wait(feeds_listed(count), "%d feeds in All Feeds on %s" % (count, desktop))
        else:
            stories = ["Story 1 of feed %d" % number for number in range(count)]
            menu.wait(
                lambda entries: all(any(story in entry["label"] for entry in entries) for story in stories),
                "the headlines of %d feeds" % count,
            )
        signals = LayoutSignals(s.bus, menu)
        try:
            if told:
                assert_submenu_told(s, menu, signals, "on " + desktop)
                assert_submenu_told(s, menu, signals, "at the second opening on " + desktop)
            else:
                assert_nothing_told(s, menu, signals, "%s with %d feeds" % (desktop, count))
        finally:
            signals.close()
        stop_ok(applet)


def test_submenu_fetched_after_new_indicator(s):
    """The indicator made anew for a host that refused the first registration tells
    the host its submenu as the first did."""
    urls = write_feeds(s, 5, 963000)
    arguments = [argument for url in urls[1:] for argument in ("--feed-url", url)]
    s.env["XDG_CURRENT_DESKTOP"] = "KDE"
    allow_refused_registration_leak(s)
    watcher = s.start_watcher(refuse=1)
    applet = s.launch(*arguments, feed_url=urls[0])
    applet.wait_registered(timeout=20)
    assert watcher.registrations()[0][1] == "refused", watcher.registrations()
    menu = applet.menu()
    menu.wait(feeds_listed(5), "five feeds in All Feeds")
    signals = LayoutSignals(s.bus, menu)
    try:
        assert_submenu_told(s, menu, signals, "by the new indicator")
    finally:
        signals.close()
    stop_ok(applet)


def test_submenu_fetched_after_host_returns(s):
    """A tray host that leaves and comes back (a panel that restarts) finds the same
    indicator and menu: its openings tell it the submenu as the first host's did."""
    urls = write_feeds(s, 5, 964000)
    arguments = [argument for url in urls[1:] for argument in ("--feed-url", url)]
    s.env["XDG_CURRENT_DESKTOP"] = "KDE"
    applet = s.start(*arguments, feed_url=urls[0])
    menu = applet.menu()
    menu.wait(feeds_listed(5), "five feeds in All Feeds")
    signals = LayoutSignals(s.bus, menu)
    try:
        assert_submenu_told(s, menu, signals, "before the host left")
        s.watcher.close()
        e2e.wait_for(lambda: "No tray host watcher on the bus" in applet.log(), "the applet to see the host go")
        s.start_watcher()
        applet.wait_registered()
        returned = applet.menu()
        assert (returned.name, returned.path) == (menu.name, menu.path), (returned.name, returned.path)
        returned.wait(feeds_listed(5), "five feeds in All Feeds, the host back")
        assert_submenu_told(s, returned, signals, "once the host came back")
    finally:
        signals.close()
    stop_ok(applet)


def test_bad_activation_token(s):
    """An activation token that could bring another variable or line into the
    browser's environment is not passed on: the display makes one instead."""
    known = [current(937410)]
    applet, menu = start_loaded(s, known)
    time.sleep(SETTLE)
    before = len(s.notifier.notifications())
    fresh = current(937411, "Notified with a bad token")
    items = [fresh] + known
    s.server.set_items(items)
    menu.click("Refresh now")
    wait_headlines(menu, items)
    notification = settle_notifications(s, before + 1, "one new item")[-1]
    s.notifier.invoke(notification.id, "default", activation_token="evil=1\nLD_PRELOAD=/tmp/x.so")
    assert s.recorder.wait_count(1) == ["https://lwn.net/Articles/937411/"]
    tokens = s.recorder.tokens()
    assert len(tokens) == 1, tokens
    activation, startup = tokens[0]
    assert activation == startup and "_TIME" in startup and "=" not in startup, tokens
    stop_ok(applet)


def test_open_link_not_exported(s):
    """Another process on the session bus can neither see nor activate open-link,
    which would open any http(s) URL and raise the browser."""
    applet, menu = start_loaded(s, [current(937420)])
    path = "/" + e2e.APP_ID.replace(".", "/")
    (names,) = s.bus.call(e2e.APP_ID, path, "org.gtk.Actions", "List", None, "(as)")
    assert "open-headline" in names and "open-link" not in names, names
    args = GLib.Variant("(sava{sv})", ("open-link", [GLib.Variant("s", "https://example.com/evil")], {}))
    try:
        s.bus.call(e2e.APP_ID, path, "org.gtk.Actions", "Activate", args, None)
    except GLib.Error:
        pass  # refused: as good as ignored
    time.sleep(SETTLE)
    assert s.recorder.urls() == [], s.recorder.urls()
    applet.assert_alive()
    stop_ok(applet)


TESTS = [
    ("harness: recorder, feed server, notification mock, watcher", test_harness),
    ("cold start shows the loading placeholder", test_loading_placeholder),
    ("menu layout: order, limit, bullets, ellipsis, unsafe links, commands", test_menu_layout),
    ("LWN fixture: unread count on the indicator", test_fixture_unread_count),
    ("the menu fits the screen: headlines by the monitor's height and the host's rows", test_menu_fits_screen),
    ("fifty feeds: the newest of all, as many as fit, and All Feeds", test_many_feeds_fit_screen),
    ("opening the menu has a host that fetches submenus late fetch All Feeds", test_submenu_fetched_as_menu_opens),
    ("a new indicator tells the host its submenu too", test_submenu_fetched_after_new_indicator),
    ("a tray host that leaves and comes back is told the submenu too", test_submenu_fetched_after_host_returns),
    ("opening headlines rewrites 2020 links and marks them read", test_open_headline),
    ("a browser without StartupNotify gets no startup id", test_no_startup_notify),
    ("the browser inherits no descriptor and is collected when it ends", test_browser_inherits_nothing),
    ("mark all as read survives a restart", test_mark_all_read_persists),
    ("notifications: single, grouped, none repeated after restart", test_notifications),
    ("notification default action opens the article", test_notification_action),
    ("a notification server's unsafe activation token is not passed on", test_bad_activation_token),
    ("open-link cannot be activated by another process", test_open_link_not_exported),
    ("--no-notify sends no notifications", test_no_notify),
    ("second instance refreshes the first and exits 0", test_second_instance),
    ("timer refresh uses If-None-Match; 304 keeps the menu", test_timer_conditional_get),
    ("HTTP 500 and malformed XML keep the headlines", test_refresh_failures),
    ("connection refused on cold start, then Retry", test_connection_refused),
    ("cached headlines appear before the server answers", test_cache_before_answer),
    ("Quit, SIGINT and SIGTERM exit 0", test_quit_and_signals),
    ("Quit and SIGTERM with both windows open exit 0 and finalize", test_quit_with_windows_open),
    ("windows open with no icon in the theme and no SVG loader", test_missing_icons),
    ("Refreshing… in the status line while a refresh is under way", test_refresh_under_way),
    ("a hanging NetworkManager does not hold the menu", test_network_monitor_hangs),
    ("no tray: one notice with its action, withdrawn when a tray comes, once per installation", test_no_watcher),
    ("a tray that restarts within the grace period is not missing; KDE's advice", test_no_watcher_grace),
    ("a second feed with LWN's ids shows, opens and reads its own items only", test_impostor_ids),
    ("a watcher that refuses the first registration gets the item later", test_watcher_refuses_first),
    ("a host that leaves after registering is not taken for one that refused", test_host_gone_after_registering),
    ("settings apply live: the feeds, refresh-interval, max-items", test_settings_live),
    ("the panel icon: symbolic on GNOME and KDE, colour elsewhere, as set", test_icon_style),
    ("Start at login writes, removes and reflects the autostart entry", test_start_at_login),
    ("Start at login clicked fast ends as clicked; a failure says why and unticks", test_start_at_login_fast_and_failing),
    ("Start at login clicked, then Quit at once: the last choice is on disk", test_start_at_login_then_quit),
]


def make_scenario(func):
    return e2e.Scenario(
        BINARY,
        watcher=func not in (test_no_watcher, test_watcher_refuses_first, test_submenu_fetched_after_new_indicator),
        keyfile_settings=func in (test_settings_live, test_icon_style, test_no_watcher),
    )


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-gui.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, make_scenario)


if __name__ == "__main__":
    sys.exit(main())
