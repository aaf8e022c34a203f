#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""End-to-end checks of what the reading model promises the person at the panel: a late click opens
the headline that was shown, grouped notifications keep their action, a hung notification server
never freezes the menu, "Refresh now" is never a dead click, and a second start applies its options."""

import os
import re
import subprocess
import sys
import threading
import time

import lwn_e2e as e2e
from gi.repository import Gio, GLib

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
BULLET = e2e.BULLET
SETTLE = 1.0
# A main thread held by a hung server would not answer for libnotify's 25 s;
# an answer within this many seconds means it was not held.
ANSWER_TIMEOUT = 5.0
APP_PATH = "/" + e2e.APP_ID.replace(".", "/")


def current(number, title=None):
    return e2e.headline(number, title or "Current headline %d" % number)


def headline_labels(entries):
    return [entry["label"] for entry in e2e.split_menu(entries)[0]]


def wait_headlines(menu, items, what=None):
    expected = [BULLET + item["title"] for item in items]
    return menu.wait(lambda entries: headline_labels(entries) == expected, what or "headlines %r" % expected)


def start_loaded(s, items, *args, **kwargs):
    s.server.set_items(items)
    applet = s.start(*args, **kwargs)
    menu = applet.menu()
    wait_headlines(menu, items)
    return applet, menu


def status_line(menu):
    for entry in e2e.split_menu(menu.visible_items())[1]:
        if e2e.is_status_line(entry["label"]):
            return entry["label"]
    return ""


def method_calls(s, method):
    (calls,) = s.bus.call(
        e2e.NOTIFY_NAME, e2e.NOTIFY_PATH, e2e.MOCK_IFACE, "GetMethodCalls", GLib.Variant("(s)", (method,)), "(a(tav))"
    )
    return calls


def test_late_click(s):
    """A click on a row the host still shows from before a refresh opens that row's
    article; a click on a row that is gone opens nothing."""
    first = [current(940003), current(940002), current(940001)]
    applet, menu = start_loaded(s, first, interval=2)
    ids = {entry["label"]: entry["id"] for entry in e2e.split_menu(menu.visible_items())[0]}

    # A new item on top, the oldest one gone: every row moved.
    second = [current(940004), first[0], first[1]]
    s.server.set_items(second)
    wait_headlines(menu, second, "the refreshed menu")

    # The host clicks with the ids of the menu it had drawn before the refresh.
    menu.click_id(ids[BULLET + first[1]["title"]])
    assert s.recorder.wait_count(1) == [first[1]["link"]], s.recorder.urls()
    # libdbusmenu refuses an id it no longer has: nothing may open either way.
    try:
        menu.click_id(ids[BULLET + first[2]["title"]])
    except GLib.Error as error:
        assert "does not refer to a menu item" in error.message, error.message
    time.sleep(SETTLE)
    assert s.recorder.urls() == [first[1]["link"]], s.recorder.urls()
    applet.assert_alive()
    assert applet.stop() == 0


def application_windows(s, applet):
    """The windows GtkApplication exports on the bus, one object each."""
    (xml,) = s.bus.call(
        applet.name,
        "/io/github/lwntray/LwnTray/window",
        "org.freedesktop.DBus.Introspectable",
        "Introspect",
        None,
        "(s)",
    )
    return re.findall(r'<node name="(\d+)"', xml)


def test_grouped_notification_keeps_action(s):
    """A second grouped notification updates the first in place, and the action of the
    one on screen still works."""
    first = [current(941000)]
    applet, menu = start_loaded(s, first, interval=2)
    s.notifier.wait_count(1)

    batch1 = [current(941100 + n) for n in range(5)] + first
    s.server.set_items(batch1)
    wait_headlines(menu, batch1)
    group = s.notifier.wait_count(2)[-1]
    assert "5 new headlines from LWN.net" in group.summary, group

    batch2 = [current(941200 + n) for n in range(4)] + batch1
    s.server.set_items(batch2)
    wait_headlines(menu, batch2[:20])
    notifications = s.notifier.wait_count(3)
    assert notifications[-1].replaces_id == group.id, notifications
    # The one on screen still counts the five it announced: they are not seen yet.
    assert "9 new headlines from LWN.net" in notifications[-1].summary, notifications[-1]

    # Its action, on the one still on screen, opens the headlines window.
    s.notifier.invoke(group.id, "default")
    e2e.wait_for(lambda: application_windows(s, applet), "the headlines window")

    # The capabilities were asked for once, not per notification.
    assert len(method_calls(s, "GetCapabilities")) == 1, method_calls(s, "GetCapabilities")
    assert applet.stop() == 0


def test_notification_server_returns(s):
    """A notification server that leaves and comes back gets what was announced while it was
    away, once each, and nothing it had shown before."""
    first = [current(945000)]
    applet, menu = start_loaded(s, first, interval=2)
    s.notifier.wait_count(1)

    s.notifier.close()
    e2e.wait_for(lambda: not s.bus.name_owner(e2e.NOTIFY_NAME), "the notification server to leave")
    away = [current(945002), current(945001)] + first
    s.server.set_items(away)
    wait_headlines(menu, away)
    # The applet has tried to announce them, and found no server.
    e2e.wait_for(lambda: "No notification server answers" in applet.log(), "the announcement without a server")

    s.notifier = e2e.NotificationDaemon(s.bus, s.env, s.path("notification-daemon-2.log"))
    s.notifier.wait_count(2)
    time.sleep(SETTLE)
    notifications = s.notifier.notifications()
    assert sorted(n.summary for n in notifications) == sorted(item["title"] for item in away[:2]), notifications
    assert all(n.replaces_id == 0 for n in notifications), notifications
    assert len(method_calls(s, "GetCapabilities")) == 1, method_calls(s, "GetCapabilities")

    # While it is there, a new headline is shown at once, and nothing twice.
    back = [current(945003)] + away
    s.server.set_items(back)
    wait_headlines(menu, back)
    s.notifier.wait_count(3)
    time.sleep(SETTLE)
    summaries = [n.summary for n in s.notifier.notifications()]
    assert sorted(summaries) == sorted(item["title"] for item in back[:3]), summaries
    applet.assert_alive()
    assert applet.stop() == 0


def test_announced_to_nobody(s):
    """Headlines announced while no notification server runs are announced again at the next
    start, once a server is there: a first run's as one group. What a server showed is never
    shown again (issue 23)."""
    first = [current(948000 + n) for n in range(15)]
    applet, menu = start_loaded(s, first)
    e2e.wait_for(lambda: "No notification server answers" in applet.log(), "the first run's announcement")
    assert applet.stop() == 0

    s.notifier = e2e.NotificationDaemon(s.bus, s.env, s.path("notification-daemon.log"))
    applet, menu = start_loaded(s, first)
    (group,) = s.notifier.wait_count(1)
    assert group.summary == "15 new headlines from LWN.net", group
    s.server.wait_answered(2)
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) == 1, s.notifier.notifications()
    assert applet.stop() == 0

    # Shown: not again. Then one more while the server is away, and a start with it back.
    applet, menu = start_loaded(s, first)
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) == 1, s.notifier.notifications()
    assert applet.stop() == 0
    s.notifier.close()
    e2e.wait_for(lambda: not s.bus.name_owner(e2e.NOTIFY_NAME), "the notification server to leave")
    later = [current(948100)] + first
    applet, menu = start_loaded(s, later)
    e2e.wait_for(lambda: "No notification server answers" in applet.log(), "the new headline's announcement")
    assert applet.stop() == 0

    s.notifier = e2e.NotificationDaemon(s.bus, s.env, s.path("notification-daemon-2.log"))
    applet, menu = start_loaded(s, later)
    (single,) = s.notifier.wait_count(1)
    assert single.summary == later[0]["title"], single
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) == 1, s.notifier.notifications()
    assert applet.stop() == 0
    applet, menu = start_loaded(s, later)
    time.sleep(SETTLE)
    assert len(s.notifier.notifications()) == 1, s.notifier.notifications()
    assert applet.stop() == 0


def test_item_named_like_group(s):
    """A feed item whose id is spelt like the notifier's grouped notification keeps a
    notification of its own, and its action opens that item."""
    first = [current(946000)]
    applet, menu = start_loaded(s, first, interval=2)
    s.notifier.wait_count(1)

    lookalike = current(946001, "Named like the group")
    lookalike["about"] = "lwn-tray:group"
    batch1 = [lookalike] + first
    s.server.set_items(batch1)
    wait_headlines(menu, batch1)
    single = s.notifier.wait_count(2)[-1]
    assert single.summary == lookalike["title"], single

    batch2 = [current(946100 + n) for n in range(5)] + batch1
    s.server.set_items(batch2)
    wait_headlines(menu, batch2)
    group = s.notifier.wait_count(3)[-1]
    assert group.replaces_id == 0, group
    assert "5 new headlines from LWN.net" in group.summary, group

    s.notifier.invoke(single.id, "default")
    assert s.recorder.wait_count(1) == [lookalike["link"]], s.recorder.urls()
    time.sleep(SETTLE)
    assert not application_windows(s, applet), "the item's action opened the headlines window"
    assert applet.stop() == 0


class HungNotificationServer:
    """Owns org.freedesktop.Notifications on the scenario's bus and never answers; or, with
    answer_setup, answers what libnotify asks before showing (GetServerInformation,
    GetCapabilities) and holds every Notify call."""

    def __init__(self, bus_address, answer_setup=False):
        self.answer_setup = answer_setup
        self.invocations = []
        self.methods = []
        self.loop = GLib.MainLoop(GLib.MainContext.new())
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.run, args=(bus_address,), daemon=True)
        self.thread.start()
        assert self.ready.wait(e2e.TIMEOUT), "the hung notification server did not start"

    def run(self, bus_address):
        context = self.loop.get_context()
        context.push_thread_default()
        self.connection = Gio.DBusConnection.new_for_address_sync(
            bus_address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )
        info = Gio.DBusNodeInfo.new_for_xml(
            """<node><interface name="org.freedesktop.Notifications">
            <method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
              <arg type="s" direction="out"/><arg type="s" direction="out"/></method>
            <method name="GetCapabilities"><arg type="as" direction="out"/></method>
            <method name="Notify"><arg type="s"/><arg type="u"/><arg type="s"/><arg type="s"/><arg type="s"/>
              <arg type="as"/><arg type="a{sv}"/><arg type="i"/><arg type="u" direction="out"/></method>
            <method name="CloseNotification"><arg type="u"/></method>
            </interface></node>"""
        )
        self.connection.register_object(e2e.NOTIFY_PATH, info.interfaces[0], self.method_call, None, None)
        self.connection.call_sync(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "RequestName",
            GLib.Variant("(su)", (e2e.NOTIFY_NAME, 4)),
            None,
            Gio.DBusCallFlags.NONE,
            -1,
            None,
        )
        self.ready.set()
        self.loop.run()

    def method_call(self, connection, sender, path, interface, method, parameters, invocation):
        self.methods.append(method)
        if self.answer_setup and method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("hung", "lwn-tray tests", "1.0", "1.2")))
        elif self.answer_setup and method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
        else:
            self.invocations.append(invocation)

    def close(self):
        self.loop.quit()
        self.thread.join(5)


def test_hung_notification_server(s):
    """A notification server that never answers: new headlines still reach the menu,
    the menu answers during the announcement, and clicks work."""
    hung = HungNotificationServer(s.bus.address)
    try:
        first = [current(942000)]
        applet, menu = start_loaded(s, first, interval=2)
        fresh = [current(942001), current(942002)] + first
        s.server.set_items(fresh)
        wait_headlines(menu, fresh)

        # A main thread held by the Notify call would not answer for libnotify's
        # 25 s; how quickly the menu answers is a figure for bench/bench-stall.sh.
        menu.answers_while(3, ANSWER_TIMEOUT, "while the notification server hung")
        assert hung.invocations, "nothing was asked of the notification server"

        menu.click(BULLET + fresh[0]["title"])
        assert s.recorder.wait_count(1) == [fresh[0]["link"]], s.recorder.urls()
        assert applet.stop() == 0
    finally:
        hung.close()


def test_quit_while_notify_hangs(s):
    """Quitting while the notification server holds a Notify call waits for it a moment,
    then goes, cleanly."""
    hung = HungNotificationServer(s.bus.address, answer_setup=True)
    try:
        first = [current(947000)]
        applet, menu = start_loaded(s, first, interval=2)
        fresh = [current(947001)] + first
        s.server.set_items(fresh)
        wait_headlines(menu, fresh)
        e2e.wait_for(lambda: "Notify" in hung.methods, "a Notify call for the server to hold")

        started = time.monotonic()
        status = applet.stop()
        took = time.monotonic() - started
        print("# quit with a Notify call held took %.0f ms" % (took * 1000))
        assert status == 0, applet.log()
        # libnotify's own wait for an answer is 25 s; the applet waits about one.
        assert took < 8, took
    finally:
        hung.close()


def test_refresh_now_answers(s):
    """Refresh now right after a check is never a dead click: the server is asked
    (conditionally) within seconds, and the status line says nothing changed."""
    items = [current(943000)]
    applet, menu = start_loaded(s, items)
    s.server.wait_answered(1)
    requests = s.server.count()
    menu.click("Refresh now")
    s.server.wait_requests(requests + 1)
    menu.wait(lambda entries: status_line(menu).startswith("Up to date — checked "), "the up-to-date answer")
    assert applet.stop() == 0


def test_second_start_options(s):
    """A second start applies its options in the running applet, or refuses bad ones
    with one line and a non-zero exit; one without changes refreshes."""
    items = [current(944000)]
    applet, menu = start_loaded(s, items)
    s.server.wait_answered(1)

    other = e2e.FeedServer()
    try:
        other_items = [current(944100, "From the other feed")]
        other.set_items(other_items)
        second = s.launch(feed_url=other.url)
        assert second.wait_exit() == 0, second.log()
        wait_headlines(menu, other_items, "the other feed after a second start")

        bad = s.launch(feed_url="ftp://example.com/feed")
        assert bad.wait_exit() == 1, bad.log()
        assert re.search(r"^lwn-tray: .*http", bad.log(), re.M), bad.log()
        wait_headlines(menu, other_items, "nothing changed by the refused start")

        zero = s.launch(interval=0)
        assert zero.wait_exit() == 1, zero.log()

        requests = other.count()
        again = s.launch(feed_url=other.url)
        assert again.wait_exit() == 0, again.log()
        other.wait_requests(requests + 1)
    finally:
        other.close()
    applet.assert_alive()
    assert applet.stop() == 0


def activate_action(s, name, parameter=None):
    """Activates one of the applet's actions over D-Bus, as any other process on the
    session bus can; a D-Bus error (the applet going away) is returned, not raised."""
    args = GLib.Variant("(sava{sv})", (name, [parameter] if parameter is not None else [], {}))
    try:
        s.bus.call(e2e.APP_ID, APP_PATH, "org.gtk.Actions", "Activate", args, None)
    except GLib.Error as error:
        return error
    return None


def test_open_after_quit(s):
    """Once Quit is asked for, a headline opened from the menu or by the action (here
    while quitting waits for a notification server that holds its answer) opens no
    browser and is not marked read; the next start shows it unread."""
    hung = HungNotificationServer(s.bus.address, answer_setup=True)
    try:
        first = [current(949000)]
        applet, menu = start_loaded(s, first, interval=2)
        fresh = [current(949001, "Opened after Quit")] + first
        s.server.set_items(fresh)
        wait_headlines(menu, fresh)
        e2e.wait_for(lambda: "Notify" in hung.methods, "a Notify call for the server to hold")

        assert activate_action(s, "quit") is None
        activate_action(s, "open-headline", GLib.Variant("(ss)", (s.server.url, fresh[0]["link"])))
        try:
            menu.click(BULLET + fresh[0]["title"])
        except (GLib.Error, AssertionError, e2e.Timeout):
            pass  # the menu has gone already
        assert applet.wait_exit() == 0, applet.log()
        time.sleep(SETTLE)
        assert s.recorder.urls() == [], s.recorder.urls()
    finally:
        hung.close()

    s.server.set_items(fresh)
    applet, menu = start_loaded(s, fresh)
    applet.wait_indicator("NeedsAttention", "2")
    assert applet.stop() == 0
    assert s.recorder.urls() == [], s.recorder.urls()


def test_remote_options_without_display(s):
    """A second start from a shell without a display (ssh) hands its options to the
    running applet, which has one, and exits 0."""
    items = [current(949100)]
    applet, menu = start_loaded(s, items)
    s.server.wait_answered(1)
    requests = s.server.count()

    env = dict(s.env)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)

    def second_start(*args):
        return subprocess.run([BINARY, *args], env=env, capture_output=True, text=True, timeout=e2e.TIMEOUT)

    changed = second_start("--interval", "600")
    assert changed.returncode == 0, (changed.returncode, changed.stdout, changed.stderr)
    # The same options again change nothing, so the running applet refreshes.
    same = second_start("--feed-url", s.server.url, "--interval", "600")
    assert same.returncode == 0, (same.returncode, same.stdout, same.stderr)
    s.server.wait_requests(requests + 1)
    e2e.wait_for(lambda: "Started again: refreshing" in applet.log(), "the running applet to refresh")
    applet.assert_alive()
    assert applet.stop() == 0


TESTS = [
    ("a late click opens the headline it was shown for", test_late_click),
    ("grouped notifications update in place and keep their action", test_grouped_notification_keeps_action),
    ("a notification server that comes back gets what was announced meanwhile", test_notification_server_returns),
    ("what no server showed is announced at the next start, once", test_announced_to_nobody),
    ("a feed item named like the grouped notification keeps its own", test_item_named_like_group),
    ("a hung notification server never freezes the menu", test_hung_notification_server),
    ("quitting does not wait for a hung notification server", test_quit_while_notify_hangs),
    ("Refresh now right after a check asks the server and answers", test_refresh_now_answers),
    ("a second start applies or refuses its options", test_second_start_options),
    ("a headline opened after Quit opens nothing and stays unread", test_open_after_quit),
    ("a second start without a display hands its options to the running applet", test_remote_options_without_display),
]


def make_scenario(func):
    return e2e.Scenario(
        BINARY,
        notifications=func
        not in (test_hung_notification_server, test_quit_while_notify_hangs, test_announced_to_nobody, test_open_after_quit),
    )


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-reading.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, make_scenario)


if __name__ == "__main__":
    sys.exit(main())
