# SPDX-License-Identifier: GPL-3.0-or-later
"""The world of tests/e2e/test-sequences.py: an accessibility-enabled scenario (tests/e2e/lwn_atspi.py)
with a multi-feed server, a menu latency probe, notification servers and tray hosts that come
and go, a state folder that can be made read-only, and the applet's runs; plus what the test
reads back: the menu, the windows over AT-SPI, every notification and every opened URL."""

import hashlib
import json
import os
import re
import select
import signal
import subprocess
import time
from xml.sax.saxutils import quoteattr

import lwn_atspi as atspi
import lwn_e2e as e2e
import lwn_seq_server
from gi.repository import GLib

SCHEMA = "io.github.lwntray.LwnTray"
# Seconds the menu probe may take to report: it answers at once unless stuck.
REPORT_TIMEOUT = 60
Role = atspi.Role
HERE = os.path.dirname(os.path.abspath(__file__))
MENU_IFACE = e2e.MENU_IFACE
HEADLINES_TITLE = "Mark All as Read"
PREFERENCES_TITLE = "Preferences"


def sanitizer_logs():
    """The path prefixes the sanitizers write their reports to, from the asan test setup."""
    prefixes = []
    for variable in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        for option in os.environ.get(variable, "").split(":"):
            if option.startswith("log_path="):
                prefixes.append(option[len("log_path=") :])
    return prefixes


def sanitizer_reports(pid):
    reports = []
    for prefix in sanitizer_logs():
        path = "%s.%d" % (prefix, pid)
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                reports.append("%s:\n%s" % (path, f.read()))
    return reports


def processes():
    """{pid: (parent pid, command name, arguments)} of every process we can see."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        found[int(name)] = (parent, comm, [arg.decode(errors="replace") for arg in args])
    return found


def descendants(table, root):
    pids = {root}
    grew = True
    while grew:
        grew = False
        for pid, (parent, _comm, _args) in table.items():
            if parent in pids and pid not in pids:
                pids.add(pid)
                grew = True
    return pids


def is_sanitized(binary):
    """Whether the program was built with AddressSanitizer (meson's b_sanitize)."""
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


class StateLock:
    """Makes the state folder unwritable and writable again, for whoever runs the test:
    a read-only mode for a normal user; for root, whom modes do not stop, the immutable
    attribute where the file system has one, or else a file in the folder's place (then
    a start while it is there gets the folder back long enough to read the state)."""

    def __init__(self, state_home):
        self.path = os.path.join(state_home, "lwn-tray")
        self.aside = self.path + ".aside"
        self.locked = False
        self.how = os.environ.get("LWN_SEQ_LOCK") or self._choose()

    def _choose(self):
        if os.geteuid() != 0:
            return "mode"
        probe = self.path + ".probe"
        os.makedirs(probe, exist_ok=True)
        try:
            result = subprocess.run(["chattr", "+i", probe], capture_output=True, timeout=30)
            if result.returncode == 0:
                subprocess.run(["chattr", "-i", probe], check=True, timeout=30)
                return "immutable"
        except FileNotFoundError:
            pass
        finally:
            os.rmdir(probe)
        return "swap"

    def _folders(self):
        """The state folder and those below it (a feed's own), parents first."""
        return [root for root, _dirs, _files in os.walk(self.path)]

    def lock(self):
        """Every folder of the state: a feed's own too, and a feed's that is not there yet
        cannot be made."""
        os.makedirs(self.path, mode=0o700, exist_ok=True)
        if self.how == "mode":
            for folder in reversed(self._folders()):
                os.chmod(folder, 0o500)
        elif self.how == "immutable":
            subprocess.run(["chattr", "+i"] + self._folders(), check=True, timeout=30)
        else:
            os.rename(self.path, self.aside)
            with open(self.path, "w") as f:
                f.write("in the way\n")
        self.locked = True
        self._check(writable=False)

    def unlock(self):
        if self.how == "mode":
            for folder in self._folders():
                os.chmod(folder, 0o700)
        elif self.how == "immutable":
            subprocess.run(["chattr", "-i"] + self._folders(), check=True, timeout=30)
        else:
            os.unlink(self.path)
            os.rename(self.aside, self.path)
        self.locked = False
        self._check(writable=True)

    def _check(self, writable):
        probe = os.path.join(self.path, ".lwn-seq-probe")
        try:
            with open(probe, "w"):
                pass
            os.unlink(probe)
            can = True
        except OSError:
            can = False
        assert can == writable, "the state folder is %swritable (%s)" % ("" if can else "not ", self.how)

    def needs_reading_window(self):
        """Whether a start while locked must get the folder back to read it."""
        return self.locked and self.how == "swap"

    def state_dir(self, feed_url):
        """The state folder of the feed at this address (not the first feed's, whose file
        is the folder's own state.ini)."""
        digest = hashlib.sha256(feed_url.encode()).hexdigest()[:16]
        return os.path.join(self.path, "feeds", digest)

    def feed_state_mtime(self, feed_url, first=False):
        """When the state file of the feed at this address was last written: the first
        feed's is the folder's own state.ini."""
        folder = self.path if first else self.state_dir(feed_url)
        try:
            return os.stat(os.path.join(folder, "state.ini")).st_mtime
        except OSError:
            return None

    def state_mtime(self, feed_url=None):
        """When a state file was last written: any feed's, or the feed's at this address
        (not the first feed's, whose file is the folder's own state.ini)."""
        if feed_url is not None:
            folders = [self.state_dir(feed_url)]
        else:
            folders = self._folders()
        times = []
        for folder in folders:
            try:
                times.append(os.stat(os.path.join(folder, "state.ini")).st_mtime)
            except OSError:
                pass
        return max(times, default=None)

    def release(self):
        if self.locked:
            self.unlock()


class Probe:
    """tests/e2e/lwn_seq_probe.py in a process of its own."""

    def __init__(self, bus, log_path):
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(
            [e2e.PYTHON, os.path.join(HERE, "lwn_seq_probe.py"), bus.address],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def target(self, name, path):
        self.send("target %s %s" % (name, path))

    def idle(self):
        self.send("idle")

    def helpers(self, pids):
        self.send("helpers " + " ".join(str(pid) for pid in pids))

    def report(self):
        self.send("report")
        # The probe answers at once; a minute means it is stuck, which must fail
        # the run rather than hang it.
        ready, _, _ = select.select([self.proc.stdout], [], [], REPORT_TIMEOUT)
        assert ready, "the menu probe did not report within %d s" % REPORT_TIMEOUT
        line = self.proc.stdout.readline()
        assert line, "the menu probe died"
        return json.loads(line)

    def close(self):
        e2e.stop_process(self.proc)
        self.log.close()


class World:
    def __init__(self, binary, feed_titles):
        self.binary = binary
        self.feed_titles = feed_titles
        self.s = None
        self.applet = None
        self.app = None
        self.name = None
        self.item_path = None
        self.menu_path = None
        self.archive = []  # notifications of notification servers that have gone
        self.runs = 0
        self.imports = 0
        self.sanitized = is_sanitized(binary)

    def __enter__(self):
        self.s = atspi.Scenario(self.binary).__enter__()
        try:
            self.server = self.s.add_server(lwn_seq_server.SeqFeedServer())
            for name, title in self.feed_titles.items():
                self.server.add_feed(name, title)
            self.lock = StateLock(self.s.dirs["XDG_STATE_HOME"])
            self.probe = Probe(self.s.bus, self.s.path("probe.log"))
        except BaseException:
            self.s.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        try:
            self.lock.release()
        finally:
            self.probe.close()
            self.s.__exit__(*exc)
        return False

    # The applet -----------------------------------------------------------

    def settings(self, key, value):
        self.s.gsettings("set", SCHEMA, key, value)

    def follow(self, names):
        """Sets the list of feeds, as the preferences' Feeds list does."""
        feeds = [(self.server.url(name), self.feed_titles[name], True) for name in names]
        self.settings("feeds", GLib.Variant("a(ssb)", feeds).print_(False))

    def import_opml(self, names):
        """Writes an OPML subscription list of these feeds and adds it to the list of
        feeds with `lwn-tray --import-opml`, as a second process beside the applet: one
        write of the settings, which the applet sees change. Returns what it printed."""
        self.imports += 1
        path = self.s.path("import-%d.opml" % self.imports)
        outlines = "".join(
            '    <outline type="rss" text=%s title=%s xmlUrl=%s/>\n'
            % (quoteattr(self.feed_titles[name]), quoteattr(self.feed_titles[name]), quoteattr(self.server.url(name)))
            for name in names
        )
        with open(path, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head><title>Feeds</title></head>\n'
                    "  <body>\n%s  </body>\n</opml>\n" % outlines)
        # Its debug messages would go to stdout, after what it says.
        env = {key: value for key, value in self.s.env.items() if key != "G_MESSAGES_DEBUG"}
        proc = subprocess.Popen([self.binary, "--import-opml", path], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        out, err = proc.communicate(timeout=e2e.TIMEOUT * 3)
        reports = sanitizer_reports(proc.pid)
        assert proc.returncode == 0 and not reports, "lwn-tray --import-opml exited with %r: %s%s\n%s" % (
            proc.returncode, out, err, "\n".join(reports))
        return out.strip(), err.strip()

    def start(self, hold=False):
        """Starts lwn-tray on the settings and waits for it on the bus: registered with
        the tray host if there is one, else owning its application id. With hold, the feed
        server keeps every request waiting until the caller releases it."""
        # A locked folder that is a file in the folder's place cannot be read either:
        # it is the folder again while the applet reads its state, which happens
        # before it registers, and no answer (so no save) comes before it is locked.
        reading = self.lock.needs_reading_window()
        if reading or hold:
            self.server.hold()
        if reading:
            self.lock.unlock()
        # Under the sanitizers, the applet's allocations are traced to their callers,
        # as the suppression of GLib's replaced quark table needs (tests/sanitizers/
        # lsan.supp): a sequence opens the windows and follows dozens of feeds in one
        # process, which makes more quarks than the table's first block holds.
        asan = self.s.env.get("ASAN_OPTIONS")
        if asan and "fast_unwind_on_malloc=0" not in asan:
            self.s.env["ASAN_OPTIONS"] = asan + ":fast_unwind_on_malloc=0"
        try:
            self.applet = self.s.launch(use_settings=True)
            self.runs += 1
            self.app = None
            if self.s.watcher is not None:
                self.name, self.item_path = self.applet.wait_registered()
                self.menu_path = self.applet.prop("Menu")
            else:
                self.name = e2e.wait_for(
                    lambda: self.applet.alive() and self.s.bus.name_owner(e2e.APP_ID),
                    "lwn-tray to own its application id",
                )
                assert self.menu_path, "no tray host seen yet, so no menu path known"
        finally:
            if reading:
                self.lock.lock()
            if reading and not hold:
                self.server.release()
        self.update_probe()
        self.probe.target(self.name, self.menu_path)
        return self.applet

    def stop(self, how):
        """A clean exit, by SIGTERM or SIGINT or by the menu's Quit: status 0."""
        self.probe.idle()
        if how == "quit":
            self.menu_click_label("Quit")
            code = self.applet.wait_exit()
            self.applet.kill()
        else:
            code = self.applet.stop(signal.SIGINT if how == "sigint" else signal.SIGTERM)
        assert code == 0, "lwn-tray exited with %r after %s" % (code, how)
        reports = sanitizer_reports(self.applet.proc.pid)
        assert not reports, "\n".join(reports)

    def alive_problems(self):
        """Why the applet is not well, or None: it exited, a sanitizer or GLib spoke."""
        problems = []
        if not self.applet.alive():
            problems.append("lwn-tray exited with %r" % self.applet.proc.returncode)
        log = self.applet.log()
        for line in log.splitlines():
            if re.search(r"CRITICAL|runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer", line):
                problems.append(line)
        problems.extend(sanitizer_reports(self.applet.proc.pid))
        return problems

    def helper_pids(self):
        """The processes the applet's answers may wait for: its session bus, its X
        server, and the accessibility bus with its registry."""
        table = processes()
        pids = {self.s.bus.proc.pid}
        display = os.environ.get("DISPLAY", "")
        pids |= {pid for pid, (_p, comm, args) in table.items() if comm == "Xvfb" and display in args}
        if e2e._xvfb is not None:
            pids.add(e2e._xvfb.pid)
        if self.s.a11y is not None:
            pids |= descendants(table, self.s.a11y.proc.pid)
        return sorted(pids)

    def update_probe(self):
        self.probe.helpers(self.helper_pids())

    # The menu -------------------------------------------------------------

    def menu(self):
        return e2e.Menu(self.s.bus, self.name, self.menu_path)

    def menu_entries(self):
        return self.menu().visible_items()

    def menu_click_label(self, label):
        return self.menu().click(label)

    def menu_click_id(self, item_id):
        try:
            self.menu().click_id(item_id)
            return True
        except GLib.Error as error:
            # libdbusmenu refuses an id whose item is gone: that is a click on nothing.
            if "does not refer to a menu item" in error.message:
                return False
            raise

    def layout_time(self):
        started = time.monotonic()
        self.menu().layout()
        return (time.monotonic() - started) * 1000

    # Windows over AT-SPI --------------------------------------------------

    def application(self):
        if self.app is None:
            self.app = self.s.application(self.applet)
        return self.app

    def frames(self, marker):
        """The application's frames that are headlines windows (marker HEADLINES_TITLE,
        a button only they have) or preferences windows (marker PREFERENCES_TITLE)."""
        found = []
        for node in self.application().children():
            if node.role != int(Role.FRAME):
                continue
            if marker == PREFERENCES_TITLE and node.name == PREFERENCES_TITLE:
                found.append(node)
            elif marker == HEADLINES_TITLE and node.find_all(role=Role.PUSH_BUTTON, name=HEADLINES_TITLE):
                found.append(node)
        return found

    def headlines_window(self):
        windows = self.frames(HEADLINES_TITLE)
        return windows[0] if windows else None

    def preferences_window(self):
        windows = self.frames(PREFERENCES_TITLE)
        return windows[0] if windows else None

    @staticmethod
    def headline_lists(window):
        """The window's list of headlines if it is on screen. A walk of what is showing
        would miss it once the list is scrolled down by more than a page: GTK 3 then
        reports its viewport as not showing (it measures the viewport against its own
        scroll position), though the viewport and the list are on screen. The rows of
        the list are not walked: there may be thousands."""
        found = []
        stack = [window]
        while stack:
            node = stack.pop()
            if node.role == int(Role.LIST_BOX):
                if node.name == "Headlines" and node.showing:
                    found.append(node)
                continue
            if node is not window and node.role != int(Role.VIEWPORT) and not node.showing:
                continue
            stack.extend(reversed(node.children()))
        return found

    def window_rows(self, window, limit):
        """(page, [row names]) of the headlines window: "headlines" with the names of its
        first `limit` rows, or "loading" or "error"."""
        boxes = self.headline_lists(window)
        if boxes:
            rows = [node for node in boxes[0].children() if node.role == int(Role.LIST_ITEM)]
            return "headlines", [row.name for row in rows[:limit]]
        if window.find_all(role=Role.ALERT, name="Could not load headlines", showing_only=True):
            return "error", []
        return "loading", []

    def close_window(self, window, how):
        """Closes a window by its header bar's close button or a key."""
        if how == "button":
            button = window.find(role=Role.PUSH_BUTTON, name="Close")
            assert button.do_action(button.actions()[0]), button
            return
        # Keys go to the window with the focus: give it to one of its controls first,
        # which also raises it, as a screen reader does.
        targets = window.find_all(role=Role.SPIN_BUTTON, name="Headlines in the menu")
        targets += window.find_all(role=Role.LIST_ITEM)
        targets += window.find_all(role=Role.PUSH_BUTTON, name="Refresh")
        assert any(target.grab_focus() for target in targets), "nothing to focus in %r: %r" % (window, targets)
        atspi.wait_for(lambda: window.has_state(atspi.State.ACTIVE), "the window active")
        if how == "escape":
            self.s.a11y.key("Escape")
        else:
            self.s.a11y.key("w", ("Control",))

    def wait_background_notice(self, window):
        """Waits for the window's message that the applet runs on without it."""
        atspi.wait_for(
            lambda: window.find_all(role=Role.ALERT, name="LWN.net Headlines keeps running", showing_only=True),
            "the message that the applet runs on without its window",
        )

    def activate_row(self, window, title):
        """Return on the row of this title, as a keyboard user opens a headline."""
        boxes = self.headline_lists(window)
        assert boxes, "no list of headlines in the window"
        for row in boxes[0].children():
            if row.name in (title, title + ", unread"):
                assert row.grab_focus(), row
                atspi.wait_for(lambda: row.has_state(atspi.State.FOCUSED), "the row focused")
                self.s.a11y.key("Return")
                return
        raise AssertionError("no row for %r" % title)

    # Notification servers and tray hosts ----------------------------------

    def notifications(self):
        """Every Notify call of every notification server so far, oldest first, as
        (server number, Notification)."""
        current = []
        if self.s.notifier is not None:
            current = [(len(self.archive), n) for n in self.s.notifier.notifications()]
        return [entry for server in self.archive for entry in server] + current

    def closed_ids(self):
        """Ids the current notification server was asked to close."""
        if self.s.notifier is None:
            return set()
        (calls,) = self.s.bus.call(
            e2e.NOTIFY_NAME, e2e.NOTIFY_PATH, e2e.MOCK_IFACE, "GetMethodCalls",
            GLib.Variant("(s)", ("CloseNotification",)), "(a(tav))",
        )
        return {args[0] for _timestamp, args in calls}

    def stop_notifier(self):
        number = len(self.archive)
        self.archive.append([(number, n) for n in self.s.notifier.notifications()])
        self.s.notifier.close()
        self.s.notifier = None
        e2e.wait_for(lambda: not self.s.bus.name_owner(e2e.NOTIFY_NAME), "the notification server gone")

    def start_notifier(self):
        path = self.s.path("notification-daemon-%d.log" % (len(self.archive) + 1))
        self.s.notifier = e2e.NotificationDaemon(self.s.bus, self.s.env, path)

    def stop_host(self):
        self.s.watcher.close()
        self.s.watcher = None
        e2e.wait_for(lambda: not self.s.bus.name_owner(e2e.WATCHER_NAME), "the tray host gone")

    def start_host(self):
        self.s.start_watcher()
        self.applet.known = set()
        name, self.item_path = self.applet.wait_registered()
        assert name == self.name, "registered as %s, not as %s" % (name, self.name)
        self.menu_path = self.applet.prop("Menu")
        self.probe.target(self.name, self.menu_path)

    def diagnostics(self):
        lines = self.s.diagnostics()
        path = self.s.path("probe.log")
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                slow = f.read().splitlines()
            if slow:
                lines.append("menu probe:")
                lines.extend("  " + line for line in slow[-20:])
        for number, server in enumerate(self.archive):
            lines.append("notification server %d:" % (number + 1))
            lines.extend("  %r" % n for _, n in server)
        return lines
