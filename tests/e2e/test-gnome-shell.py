#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""lwn-tray on a real, headless GNOME Shell, checked as a GNOME user sees it.

tray: with the AppIndicator extension on a 1280x800 monitor, the item shows in the top
bar with a symbolic icon; a real click opens its menu, which lies wholly on the screen;
a click on a headline opens its article; Quit quits. A second shell at 1366x768 shows
the whole menu too.

no-tray: with no extension (no StatusNotifierWatcher), the applet runs on with no
critical and no warning, posts one notice after its grace period, with a Show Headlines
action that brings up the headlines window, and so does a second `lwn-tray --show`.

search: with the applet's search provider file, launcher and D-Bus service file in the
session's data folder and the applet not running, the shell loads the provider; words
typed in the overview start the applet through D-Bus, and the shell's own result list
shows LWN's matching headlines; choosing one opens its article and reads it; "launch
search" opens the headlines window.

Usage: test-gnome-shell.py tray|no-tray|search PATH-TO-lwn-tray [LOG-FOLDER]
Each mode writes its sessions' logs, and a screenshot of each failed step, to
LOG-FOLDER/MODE (meson gives build/meson-logs/desktop)."""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import lwn_e2e as e2e
import lwn_gnome as gnome
from gi.repository import GLib

MODES = ("tray", "no-tray", "search")
APP_ID = e2e.APP_ID
SEARCH_PROVIDER_FILE = APP_ID + ".search-provider.ini"
PROVIDER_ID = APP_ID + ".desktop"
HEADLINE_CATEGORIES = ("x-lwn-tray.headline", "x-lwn-tray.reminder")
HEADLINE = re.compile(r"Headline number (\d+)$")
FIRST_ARTICLE = 940001
FEED_ITEMS = 40
# The applet waits this long for a tray before it tells that there is none, and the
# test as long again for a notice that comes late or twice.
GRACE_SECONDS = 5
NOTICE_WAIT = 2 * GRACE_SECONDS
SHOW_HEADLINES = ("show-headlines", "Show Headlines")
# What GLib prints for g_critical() and g_warning(), whatever the log domain.
BAD_LOG_LINE = re.compile(r"-(CRITICAL|WARNING) \*\*")
# Between two looks at something that may still move.
SETTLE = 0.3
# Well inside meson's timeout for this test, so that the test ends its sessions itself.
BUDGET = 240


def article_feed():
    """Forty LWN headlines in the 2020 form, whose links end in /rss: the applet opens
    the article itself (…/Articles/N/)."""
    return [e2e.headline(FIRST_ARTICLE + index, old_style=True) for index in range(FEED_ITEMS)]


def article_url(number):
    return "https://lwn.net/Articles/%d/" % number


def center(box):
    x, y, width, height = box
    return x + width // 2, y + height // 2


def on_monitor(box, monitor):
    x, y, width, height = box
    mx, my, mwidth, mheight = monitor
    return x >= mx and y >= my and x + width <= mx + mwidth and y + height <= my + mheight


def bad_log_lines(text):
    return [line for line in text.splitlines() if BAD_LOG_LINE.search(line)]


class Session:
    """The shells, the feed server and the applet runs of one mode, and what a failed
    step leaves behind: a screenshot of the screen at that moment."""

    def __init__(self, binary, logs):
        self.binary = binary
        self.logs = logs
        self.shell = None
        self.shells = []
        self.applet = None
        self.applet_started = None
        self.server = e2e.FeedServer()
        self.server.set_items(article_feed())
        self.runs = 0

    def start_shell(self, size, appindicator, data_dirs=()):
        if self.shell is not None:
            self.stop_shell()
        name = "%s-%dx%d" % ("tray" if appindicator else "no-tray", *size)
        shell = gnome.Shell(size, appindicator=appindicator, logs=os.path.join(self.logs, name), data_dirs=data_dirs)
        # Listed before it starts, so that a stop while it starts ends its processes too.
        self.shells.append(shell)
        try:
            shell.__enter__()
        finally:
            if shell.process is None or shell.process.poll() is not None:
                self.shells.remove(shell)
        self.shell = shell
        return shell

    def stop_shell(self):
        shell, self.shell, self.applet = self.shell, None, None
        if shell is not None:
            shell.close()
            self.shells.remove(shell)

    def start_applet(self, *args):
        """Starts the applet in the running shell and waits until it owns its
        GApplication name; returns the name's unique owner."""
        self.runs += 1
        argv = [self.binary, "--feed-url", self.server.url, "--interval", "3600", *args]
        # A critical aborts the applet, so that none can pass unseen.
        env = dict(self.shell.applet_env(), G_DEBUG="fatal-criticals")
        self.applet = self.shell.spawn("applet", argv, env, "lwn-tray-%d" % self.runs)
        self.applet_log = "lwn-tray-%d" % self.runs
        self.applet_started = time.monotonic()

        def owner():
            if self.applet.poll() is not None:
                raise AssertionError("lwn-tray exited with %r at start:\n%s" % (self.applet.poll(), self.log_tail()))
            return self.shell.name_owner(APP_ID)

        self.applet_name = self.shell.wait(owner, "lwn-tray to own %s on the session bus" % APP_ID)
        return self.applet_name

    def applet_log_text(self):
        return self.shell.log(self.applet_log) if self.shell else ""

    def log_tail(self, lines=30):
        return "\n".join(self.applet_log_text().splitlines()[-lines:])

    def assert_alive(self):
        code = self.applet.poll()
        assert code is None, "lwn-tray exited with %r; its last words:\n%s" % (code, self.log_tail())

    def failed(self, number):
        """A screenshot of what the screen shows now, for a step that failed."""
        if self.shell is None:
            return None
        path = os.path.join(self.logs, "step-%d.png" % number)
        return path if self.shell.screenshot(path) else None

    def close(self):
        while self.shells:
            self.shell = self.shells[-1]
            self.stop_shell()
        self.server.close()


# With the AppIndicator extension ---------------------------------------------------


def tray_ready(s, size):
    """Starts a shell with the extension at size and the applet in it, and waits for
    its button in the top bar."""
    s.start_shell(size, appindicator=True)
    name = s.start_applet()
    s.shell.wait(lambda: s.shell.find_tray_button(name), "the item's button in the top bar (Main.panel.statusArea)")

    def shown():
        button = s.shell.tray_button()
        return button if button and button["shown"] and button["box"][2] > 0 else None

    return s.shell.wait(shown, "the item's button to show")


def settled(s, read, what):
    """What read() returns once two reads a moment apart agree and it is not None:
    the button changes its width when the count appears, and the extension builds
    the menu's rows as their layout arrives."""
    last = [None]

    def same():
        now, before = read(), last[0]
        last[0] = now
        time.sleep(SETTLE)
        return now if now is not None and now == before else None

    return s.shell.wait(same, what, interval=0)


def open_menu(s):
    """Opens the item's menu with a real click on its button, unless it is open, and
    waits for the headlines in it; returns the menu once it has settled."""
    menu = s.shell.tray_menu()
    if menu is None or not menu["open"]:
        button = settled(s, s.shell.tray_button, "the item's button to settle")
        assert button["shown"], "the item's button does not show in the top bar: %r" % button
        s.shell.click(*center(button["box"]))
        s.shell.wait(lambda: (s.shell.tray_menu() or {}).get("open"), "the menu to open after a click on its button")

    def with_headlines():
        menu = s.shell.tray_menu()
        headlines = menu and menu["open"] and any(HEADLINE.search(item["label"]) for item in menu["items"])
        return menu if headlines else None

    return settled(s, with_headlines, "the open menu's headlines to settle")


def describe_fit(menu):
    """Why a menu does not fit, in the words of what a person sees."""
    x, y, width, height = menu["box"]
    mx, my, mwidth, mheight = menu["monitor"]
    off = [item for item in menu["items"] if not on_monitor(item["box"], menu["monitor"])]
    lines = [
        "the open menu is %dx%d at (%d, %d) and reaches y=%d on a %dx%d monitor"
        % (width, height, x, y, y + height, mwidth, mheight)
    ]
    if off:
        lines.append(
            "%d of its %d items lie off the screen, from %r down to %r"
            % (len(off), len(menu["items"]), off[0]["label"] or "a separator", off[-1]["label"] or "a separator")
        )
    return "; ".join(lines)


def assert_menu_fits(menu):
    assert menu["items"], "the open menu shows no items"
    fits = on_monitor(menu["box"], menu["monitor"]) and all(
        on_monitor(i["box"], menu["monitor"]) for i in menu["items"]
    )
    assert fits, describe_fit(menu)


def click_menu_item(s, menu, item):
    """A real click on item of the open menu, which must lie on the screen where the
    click lands on it and nothing else."""
    assert on_monitor(item["box"], menu["monitor"]), "%r cannot be clicked: %s" % (item["label"], describe_fit(menu))
    x, y = center(item["box"])
    hit = s.shell.menu_item_at(x, y)
    assert hit.get("item") == item["label"], "a click at (%d, %d) would reach %r, not %r" % (x, y, hit, item["label"])
    s.shell.click(x, y)


def test_item_symbolic(s):
    """The item registers with the symbolic icon, and the top bar draws it."""
    button = tray_ready(s, (1280, 800))
    key = button["key"]
    path = key.split("@", 1)[1]
    props = s.shell.bus.get_all(s.applet_name, path, e2e.SNI_IFACE)
    icon = props.get("IconName", "")
    assert icon.endswith("-symbolic"), (
        "the item's IconName is %r, not a -symbolic icon (XDG_CURRENT_DESKTOP=GNOME)" % icon
    )
    status = props.get("Status")
    # Unread headlines ask for attention, with an icon of their own: symbolic too.
    assert status in ("Active", "NeedsAttention"), "the item's Status is %r" % status
    if status == "NeedsAttention":
        attention = props.get("AttentionIconName", "")
        assert attention.endswith("-symbolic"), "the item's AttentionIconName is %r, not a -symbolic icon" % attention
        icon = attention
    drawn = s.shell.wait(lambda: (s.shell.tray_button() or {}).get("icon"), "the top bar to load the item's icon")
    assert "-symbolic" in drawn, "the top bar draws %r, not the symbolic icon %r" % (drawn, icon)
    _x, y, width, height = button["box"]
    assert y == 0 and 0 < height <= s.shell.panel_height, "the button's box %r is not in the top bar" % button["box"]
    print("# %s: %s, icon %s, drawn as %s, %dx%d" % (key, status, icon, drawn.split("/")[-1], width, height))


def test_menu_fits(s):
    """A real click on the item opens its menu, and the whole menu lies on the screen."""
    menu = open_menu(s)
    print("# the menu: %dx%d at (%d, %d), %d items" % (*menu["box"][2:], *menu["box"][:2], len(menu["items"])))
    assert_menu_fits(menu)


def test_headline_opens_article(s):
    """A click on a headline in the shell's menu opens that article in the browser."""
    menu = open_menu(s)
    headlines = [item for item in menu["items"] if HEADLINE.search(item["label"]) and item["reactive"]]
    assert len(headlines) >= 2, "the menu shows %d headlines" % len(headlines)
    item = headlines[1]
    number = int(HEADLINE.search(item["label"]).group(1))
    click_menu_item(s, menu, item)
    opened = s.shell.wait(lambda: s.shell.recorder.urls(), "the browser to open %s" % article_url(number))
    # Long enough for a second launch, which must not come, to show.
    time.sleep(0.5)
    assert s.shell.recorder.urls() == [article_url(number)], "the browser was given %r, not %r" % (
        s.shell.recorder.urls(),
        [article_url(number)],
    )
    s.shell.wait(lambda: not (s.shell.tray_menu() or {}).get("open"), "the menu to close after the click")
    print("# %r opened %s" % (item["label"], opened[0]))


def test_quit(s):
    """Quit in the menu quits: the applet exits with status 0 and its button leaves; it
    logged no critical and no warning on its way."""
    menu = open_menu(s)
    quits = [item for item in menu["items"] if item["label"] == "Quit"]
    assert quits, "no Quit in the menu: %r" % [item["label"] for item in menu["items"]]
    click_menu_item(s, menu, quits[0])
    try:
        code = s.applet.wait(e2e.TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("lwn-tray still runs %gs after Quit" % e2e.TIMEOUT) from None
    assert code == 0, "lwn-tray exited with %r after Quit:\n%s" % (code, s.log_tail())
    s.shell.wait(lambda: s.shell.tray_button() is None, "the item's button to leave the top bar")
    bad = bad_log_lines(s.applet_log_text())
    assert not bad, "lwn-tray logged:\n" + "\n".join(bad)


def test_menu_fits_1366(s):
    """On a 1366x768 monitor, the whole menu lies on the screen as well."""
    tray_ready(s, (1366, 768))
    test_menu_fits(s)


TRAY_STEPS = [
    ("1280x800: the item shows in the top bar with the symbolic icon", test_item_symbolic),
    ("1280x800: a click on the item opens its menu, and the whole menu lies on the screen", test_menu_fits),
    ("1280x800: a click on a headline in the menu opens its article", test_headline_opens_article),
    ("1280x800: Quit in the menu quits with status 0, with no critical and no warning", test_quit),
    ("1366x768: the whole menu lies on the screen", test_menu_fits_1366),
]


# Without a tray --------------------------------------------------------------------


def notices(s):
    """What the applet posted that is not about a headline: the notices about itself."""
    pid = s.applet.pid
    owners = {}

    def sender_pid(sender):
        if sender not in owners:
            try:
                (owners[sender],) = s.shell.bus.call(
                    "org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus",
                    "GetConnectionUnixProcessID",
                    GLib.Variant("(s)", (sender,)),
                    "(u)",
                )
            except GLib.Error:
                owners[sender] = None
        return owners[sender]

    return [
        call
        for call in s.shell.monitor.notifications()
        if call["category"] not in HEADLINE_CATEGORIES and sender_pid(call["sender"]) == pid
    ]


def test_no_tray_runs_on(s):
    """Without a StatusNotifierWatcher the applet runs on, with no critical and no warning."""
    s.start_shell((1280, 800), appindicator=False)
    s.start_applet()
    assert s.shell.name_owner(gnome.WATCHER_NAME) is None, "a StatusNotifierWatcher is on the bus"
    deadline = s.applet_started + NOTICE_WAIT
    while time.monotonic() < deadline:
        s.assert_alive()
        time.sleep(0.2)
    s.assert_alive()
    bad = bad_log_lines(s.applet_log_text())
    assert not bad, "lwn-tray logged:\n" + "\n".join(bad)


def test_one_notice(s):
    """After its grace period the applet posts exactly one notice that no tray is there,
    with a Show Headlines action, and the shell shows it with that button."""
    found = notices(s)
    summary = "; ".join("%r %r %r" % (call["summary"], call["body"], call["actions"]) for call in found)
    assert len(found) == 1, "lwn-tray posted %d notices in %gs without a tray: %s" % (len(found), NOTICE_WAIT, summary)
    notice = found[0]
    after = notice["time"] - s.applet_started
    assert after >= GRACE_SECONDS - 1, "the notice came %.1fs after the start, before the %ds grace period ended" % (
        after,
        GRACE_SECONDS,
    )
    key, label = SHOW_HEADLINES
    assert notice["actions"].get(key) == label, "the notice's actions are %r, without %r labelled %r" % (
        notice["actions"],
        key,
        label,
    )
    shown = [n for n in s.shell.shown_notifications() if n["title"] == notice["summary"]]
    assert len(shown) == 1, "the shell holds %r" % s.shell.shown_notifications()
    assert label in shown[0]["actions"], "the shell shows the notice with the buttons %r" % shown[0]["actions"]
    print("# %.1fs after the start: %r with %r" % (after, notice["summary"], notice["actions"]))


def headlines_window(s):
    """The applet's headlines window while it shows, else None."""
    for win in s.shell.windows():
        # GTK 3 names the Wayland app id after the program; the application's id
        # reaches the shell through GTK's own protocol.
        if win["app_id"] == APP_ID and win["pid"] == s.applet.pid and win["showing"] and win["width"] > 0:
            return win
    return None


def wait_headlines_window(s, after):
    win = s.shell.wait(lambda: headlines_window(s), "the headlines window to show %s" % after)
    box = (win["x"], win["y"], win["width"], win["height"])
    assert on_monitor(box, s.shell.monitor_box), "the window %r lies off the %r monitor" % (box, s.shell.monitor_box)
    print("# %r, %dx%d at (%d, %d), focused: %s" % (win["title"], box[2], box[3], box[0], box[1], win["focused"]))
    return win


def close_headlines_window(s):
    """Closes the headlines window as a person does. Without a tray, the first close
    says instead that the applet keeps running, with the focus on Keep Running: a
    person presses Return, and the window goes."""
    if not headlines_window(s):
        return
    s.shell.close_window(s.applet.pid)
    try:
        s.shell.wait(lambda: not headlines_window(s), "the headlines window to close", timeout=2)
        return
    except e2e.Timeout:
        pass
    s.shell.focus_window(s.applet.pid)
    s.shell.wait(lambda: (headlines_window(s) or {}).get("focused"), "the headlines window to take the focus")
    s.shell.press_key("Return")
    s.shell.wait(lambda: not headlines_window(s), "the headlines window to close after Keep Running")


def test_notice_action(s):
    """The notice's Show Headlines button brings up the headlines window."""
    key, label = SHOW_HEADLINES
    found = [call for call in notices(s) if key in call["actions"]]
    assert found, "no notice with a %r action to press" % key
    why = s.shell.press_notification_button(found[0]["summary"], label)
    assert why is None, "the shell's notice %r cannot be pressed: %s" % (found[0]["summary"], why)
    wait_headlines_window(s, "after %s in the notice" % label)
    close_headlines_window(s)
    s.assert_alive()


def test_show_window(s):
    """A second `lwn-tray --show` hands the request to the running applet, whose
    headlines window then shows on the screen."""
    s.assert_alive()
    close_headlines_window(s)
    show = s.shell.spawn("show", [s.binary, "--show"], s.shell.applet_env(), "lwn-tray-show")
    try:
        code = show.wait(e2e.TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("lwn-tray --show still runs after %gs" % e2e.TIMEOUT) from None
    assert code == 0, "lwn-tray --show exited with %r:\n%s" % (code, s.shell.log("lwn-tray-show"))
    wait_headlines_window(s, "after lwn-tray --show")


def test_clean_end(s):
    """Over the whole run: still one notice, nothing critical or warned, and SIGTERM ends
    the applet with status 0."""
    assert len(notices(s)) == 1, "lwn-tray has posted %d notices by now" % len(notices(s))
    s.assert_alive()
    bad = bad_log_lines(s.applet_log_text() + s.shell.log("lwn-tray-show"))
    assert not bad, "lwn-tray logged:\n" + "\n".join(bad)
    s.applet.send_signal(signal.SIGTERM)
    try:
        code = s.applet.wait(e2e.TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError("lwn-tray still runs %gs after SIGTERM" % e2e.TIMEOUT) from None
    assert code == 0, "lwn-tray exited with %r on SIGTERM:\n%s" % (code, s.log_tail())


NO_TRAY_STEPS = [
    ("no tray: the applet runs on, with no critical and no warning", test_no_tray_runs_on),
    ("no tray: one notice after the grace period, with a Show Headlines action", test_one_notice),
    ("no tray: the notice's Show Headlines button brings up the headlines window", test_notice_action),
    ("no tray: lwn-tray --show brings up the headlines window", test_show_window),
    ("no tray: still one notice and no warning; SIGTERM ends it with status 0", test_clean_end),
]


# The overview's search ---------------------------------------------------------------

SEARCH_RESULTS = "Main.overview._overview.controls._searchController._searchResults"


def install_search_files(s, folder):
    """The provider file, the launcher it names and the D-Bus service file, in folder
    as a package has them in /usr/share. The service runs a script, written once the
    session is up (write_start_script), that starts the build tree's applet."""
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build_data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(s.binary))), "data")
    providers = os.path.join(folder, "gnome-shell", "search-providers")
    os.makedirs(providers)
    shutil.copy(os.path.join(source, "data", "search", SEARCH_PROVIDER_FILE), providers)
    applications = os.path.join(folder, "applications")
    os.makedirs(applications)
    # GIO takes no launcher whose program is not on PATH, and the shell no provider
    # without its launcher: installed, lwn-tray is on PATH; here it is named.
    with open(os.path.join(build_data, PROVIDER_ID)) as f:
        entry = f.read()
    with open(os.path.join(applications, PROVIDER_ID), "w") as f:
        f.write(re.sub(r"(?m)^Exec=lwn-tray", "Exec=" + s.binary, entry))
    services = os.path.join(folder, "dbus-1", "services")
    os.makedirs(services)
    with open(os.path.join(services, APP_ID + ".service"), "w") as f:
        f.write("[D-BUS Service]\nName=%s\nExec=%s\n" % (APP_ID, os.path.join(folder, "start-lwn-tray")))


def write_start_script(s, folder):
    """The bus starts services with its own environment: the script gives the applet
    the session's, as gnome-session's activation environment would, and the feed."""
    env = dict(s.shell.applet_env(), G_DEBUG="fatal-criticals")
    script = os.path.join(folder, "start-lwn-tray")
    with open(script, "w") as f:
        f.write(
            "#!/bin/sh\nexec env -i %s %s --search-service --feed-url %s --interval 3600\n"
            % (
                " ".join(shlex.quote("%s=%s" % item) for item in sorted(env.items())),
                shlex.quote(s.binary),
                shlex.quote(s.server.url),
            )
        )
    os.chmod(script, 0o755)


def remote_providers(s):
    return s.shell.eval_quiet("%s._providers.map(p => p.id)" % SEARCH_RESULTS) or []


def shown_results(s):
    """What the shell's own result list shows for the applet's provider: (id, name,
    description) of each visible row, or None while the provider shows none."""
    return s.shell.eval_quiet(
        "const p = %s._providers.find(p => p.id === '%s');"
        "p && p.display && p.display.visible ? p.display._content.get_children().filter(c => c.visible)"
        ".map(c => [c.metaInfo.id, c.metaInfo.name, c.metaInfo.description]) : null" % (SEARCH_RESULTS, PROVIDER_ID)
    )


def search_ready(s):
    folder = os.path.join(s.logs, "share")
    shutil.rmtree(folder, ignore_errors=True)
    install_search_files(s, folder)
    s.start_shell((1280, 800), appindicator=False, data_dirs=[folder])
    write_start_script(s, folder)
    s.shell.wait(lambda: PROVIDER_ID in remote_providers(s), "the shell to load the applet's search provider")


def test_search_provider_loaded(s):
    """The shell loads the provider from its file, before the applet runs."""
    search_ready(s)
    assert s.shell.name_owner(APP_ID) is None, "the applet runs already"


def test_search_shows_headlines(s):
    """Words typed in the overview start the applet through D-Bus, and the shell's own
    result list shows the matching headlines, newest first, each with its feed's name."""
    s.shell.eval("Main.overview.show(); true")
    s.shell.wait(lambda: s.shell.eval("Main.overview.visible && !Main.overview.animationInProgress"), "the overview")
    s.shell.eval("Main.overview.searchEntry.set_text('headline number 94000'); true")
    results = settled(s, lambda: shown_results(s) or None, "the applet's headlines among the search results")
    s.applet_name = s.shell.name_owner(APP_ID)
    assert s.applet_name, "the applet does not own its name"
    (pid,) = s.shell.bus.call(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID",
        GLib.Variant("(s)", (s.applet_name,)), "(u)",
    )
    s.applet_pid = pid
    names = [name for _id, name, _description in results]
    assert names and all(HEADLINE.search(name) for name in names), results
    # 940001 to 940009 match; the feed's dates grow with the number.
    assert names[0] == "Headline number %d" % (FIRST_ARTICLE + 8), "newest first: %r" % names
    assert all(description.startswith("LWN.net · unread") for _id, _name, description in results), results
    picture = os.path.join(s.logs, "search.png")
    assert s.shell.screenshot(picture), "no screenshot"
    print("# %d results shown, the first %r; the screen in %s" % (len(results), names[0], picture))


def test_search_activates(s):
    """A result chosen, as a click on it does, opens its full article and reads it."""
    key, name, _description = shown_results(s)[0]
    number = int(HEADLINE.search(name).group(1))
    s.shell.eval(
        "const p = %s._providers.find(p => p.id === '%s'); p.activateResult('%s', ['headline']); true"
        % (SEARCH_RESULTS, PROVIDER_ID, key.replace("\\", "\\\\").replace("'", "\\'"))
    )
    s.shell.wait(lambda: article_url(number) in s.shell.recorder.urls(), "the article opened")
    assert s.shell.recorder.urls() == [article_url(number)], s.shell.recorder.urls()


def test_search_launch(s):
    """"Launch search", the provider's icon clicked, opens the headlines window."""
    s.shell.eval("Main.overview.hide(); true")
    s.shell.eval(
        "const p = %s._providers.find(p => p.id === '%s'); p.launchSearch(['headline']); true"
        % (SEARCH_RESULTS, PROVIDER_ID)
    )

    def window():
        for win in s.shell.windows():
            if win["app_id"] == APP_ID and win["pid"] == s.applet_pid and win["showing"] and win["width"] > 0:
                return win
        return None

    win = s.shell.wait(window, "the headlines window after launch search")
    print("# %r, %dx%d" % (win["title"], win["width"], win["height"]))


def test_search_clean_end(s):
    """Nothing critical or warned by the applet the bus started; SIGTERM ends it with 0."""
    # The bus's log holds what every service it started said; the applet's lines name it.
    bad = [line for line in bad_log_lines(s.shell.log("session-bus")) if "lwn-tray" in line]
    assert not bad, "the applet logged:\n" + "\n".join(bad)
    os.kill(s.applet_pid, signal.SIGTERM)
    s.shell.wait(lambda: s.shell.name_owner(APP_ID) is None, "the applet to end on SIGTERM")


SEARCH_STEPS = [
    ("search: the shell loads the applet's search provider", test_search_provider_loaded),
    ("search: words in the overview start the applet and show its headlines", test_search_shows_headlines),
    ("search: a result chosen opens its article", test_search_activates),
    ("search: launch search opens the headlines window", test_search_launch),
    ("search: no critical, no warning; SIGTERM ends it", test_search_clean_end),
]


# Running ---------------------------------------------------------------------------


def run_steps(steps, session):
    """Runs the steps in order on one session, as TAP. A failed step does not stop the
    ones after it (each checks what it needs); a stop (meson's timeout, the time budget)
    does, and counts the rest as failed."""
    print("1..%d" % len(steps), flush=True)
    failed = 0
    for number, (name, func) in enumerate(steps, 1):
        started = time.monotonic()
        try:
            func(session)
        except gnome.Stopped as stop:
            for rest in range(number, len(steps) + 1):
                print("not ok %d - %s # %s" % (rest, steps[rest - 1][0], stop), flush=True)
            print("%s during step %d" % (stop, number), file=sys.stderr, flush=True)
            return 1
        except Exception:
            failed += 1
            reason = traceback.format_exc().splitlines()
            picture = session.failed(number)
            if picture:
                reason.append("the screen at that moment: " + picture)
            print("not ok %d - %s" % (number, name))
            for line in reason:
                print("# " + line)
            sys.stdout.flush()
            # meson keeps a TAP test's standard output in its log; --print-errorlogs shows standard error.
            print("not ok %d - %s" % (number, name), *reason, sep="\n", file=sys.stderr, flush=True)
            continue
        print("ok %d - %s" % (number, name))
        print("# %.1fs" % (time.monotonic() - started), flush=True)
    return 1 if failed else 0


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in MODES or not os.access(sys.argv[2], os.X_OK):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    mode, binary = sys.argv[1], sys.argv[2]
    major = gnome.shell_major()
    if major is None:
        print("1..0 # SKIP gnome-shell is not installed")
        return 0
    if major not in gnome.SHELL_MAJORS:
        known = " and ".join("%d's" % known for known in sorted(gnome.SHELL_MAJORS))
        print("1..0 # SKIP written for GNOME Shell %s insides, not %d's" % (known, major))
        return 0
    if mode == "tray" and not os.path.isdir(gnome.APPINDICATOR_DIR):
        print("1..0 # SKIP the AppIndicator extension is not installed (gnome-shell-extension-appindicator)")
        return 0
    if len(sys.argv) == 4:
        logs = os.path.join(sys.argv[3], mode)
        # Nothing from an earlier run may be taken for this one's.
        shutil.rmtree(logs, ignore_errors=True)
        os.makedirs(logs)
    else:
        logs = tempfile.mkdtemp(prefix="lwn-desktop-%s-" % mode)
    print("# logs and screenshots in %s" % logs, flush=True)

    session = Session(binary, logs)
    gnome.install_stop_handlers(BUDGET, lambda: list(session.shells))
    try:
        steps = {"tray": TRAY_STEPS, "no-tray": NO_TRAY_STEPS, "search": SEARCH_STEPS}[mode]
        return run_steps(steps, session)
    finally:
        signal.alarm(0)
        session.close()


if __name__ == "__main__":
    sys.exit(main())
