# SPDX-License-Identifier: GPL-3.0-or-later
"""A KDE Plasma 5 session (kwin_x11, kded5 and plasmashell with its default panel) on a
private Xvfb, home, runtime folder, session bus and stand-in system bus, for
bench/desktop-plasma.py, which looks at lwn-tray the way a Plasma user does. Plasma has
no interface that tells where it draws an item, so the session reads the screen: the
icon is what the panel draws after the item registered that it did not draw before,
the menu is the popup window that a click on the icon maps, and a row of the menu is
what the popup highlights under the pointer. Clicks are XTest clicks (xdotool), as a
mouse makes them. A monitor connection on the session bus records what the applet is
told (dbusmenu events), every notification sent, and when the tray's registry comes
and goes; a stand-in browser records every URL opened.

kded5 owns org.kde.StatusNotifierWatcher and plasmashell's System Tray is the host:
both are up before the applet starts, which would otherwise find no tray. Qt Quick
needs its software backend on Xvfb, and with animations off what the screen shows
stops changing. A private dbus-daemon stands in
for the system bus, so that nothing in the session waits for logind or NetworkManager.
Every process started here carries a tag in its environment, so that the end of a
session finds and ends all of them, also the services that the session bus started on
demand and the daemons that left their parent.

Debian packages (--no-install-recommends): plasma-workspace plasma-desktop kded5
plasma-integration breeze-icon-theme kwin-x11 xvfb xdotool x11-utils imagemagick
dbus-daemon dbus-bin libglib2.0-bin."""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "e2e"))

import gi  # noqa: E402

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

import lwn_e2e as e2e  # noqa: E402
import lwn_gnome as gnome  # noqa: E402

PACKAGES = (
    "plasma-workspace",
    "plasma-desktop",
    "kded5",
    "plasma-integration",
    "breeze-icon-theme",
    "kwin-x11",
    "xvfb",
    "xdotool",
    "x11-utils",
    "imagemagick",
    "dbus-daemon",
    "dbus-bin",
    "libglib2.0-bin",
)
WATCHER_NAME = e2e.WATCHER_NAME
WATCHER_PATH = e2e.WATCHER_PATH
TAG_KEY = "LWN_PLASMA_BENCH_RUN"
# The Plasma whose insides this module knows: 5's, where kded5 holds the registry.
PLASMA_MAJOR = 5
# Plasma takes 10 to 40 s to come up on two cores with software rendering, the first
# time on a cold disk the longest.
PLASMA_START_TIMEOUT = 90.0
# Between two looks at a screen that may still change.
SETTLE = 0.5
# Screenshots that may be in use at once, besides those kept.
TRANSIENT_SHOTS = 8

# The parts of the session that must live; a wait fails at once when one of them exits.
ESSENTIAL = ("xvfb", "session-bus", "kwin", "kded", "plasmashell")


class PlasmaError(AssertionError):
    pass


def missing_packages():
    """The packages of PACKAGES that dpkg does not have installed."""
    missing = []
    for package in PACKAGES:
        try:
            status = subprocess.run(
                ["dpkg-query", "-W", "-f", "${db:Status-Status}", package],
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            status = ""
        if status != "installed":
            missing.append(package)
    return missing


def plasma_version():
    """The version of Plasma's session (plasma-workspace), as Debian gives it, or None."""
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", "plasma-workspace"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.match(r"(?:\d+:)?(\d+\.\d+(?:\.\d+)?)", out)
    return match.group(1) if match else None


def inside(box, outer):
    """Whether box (x, y, width, height) lies wholly in outer."""
    x, y, width, height = box
    ox, oy, owidth, oheight = outer
    return x >= ox and y >= oy and x + width <= ox + owidth and y + height <= oy + oheight


class BusMonitor:
    """Records, from a monitor connection (org.freedesktop.DBus.Monitoring), each
    org.freedesktop.Notifications.Notify call (in the form of lwn_gnome's
    NotificationMonitor), each call of the com.canonical.dbusmenu and
    org.kde.StatusNotifierItem interfaces and each read of an item's properties (a
    host that shows an item reads them first), and each change of the tray registry's
    owner: the calls exactly as they were sent, whoever answers them."""

    RULES = [
        "type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
        "type='method_call',interface='%s'" % e2e.MENU_IFACE,
        "type='method_call',interface='%s'" % e2e.SNI_IFACE,
        "type='method_call',interface='org.freedesktop.DBus.Properties',member='GetAll',arg0='%s'" % e2e.SNI_IFACE,
        "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'" % WATCHER_NAME,
    ]

    def __init__(self, address):
        self.lock = threading.Lock()
        self.calls = []
        self.item_calls_seen = []
        self.watcher_owners = []
        self.connection = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )
        self.filter_id = self.connection.add_filter(self._filter)
        self.connection.call_sync(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.Monitoring",
            "BecomeMonitor",
            GLib.Variant("(asu)", (self.RULES, 0)),
            None,
            Gio.DBusCallFlags.NONE,
            5000,
            None,
        )

    def _filter(self, connection, message, incoming):
        if not incoming:
            return message
        kind, body, now = message.get_message_type(), message.get_body(), time.monotonic()
        if kind == Gio.DBusMessageType.SIGNAL and message.get_member() == "NameOwnerChanged" and body is not None:
            name, _old, new = body.unpack()
            if name == WATCHER_NAME:
                with self.lock:
                    self.watcher_owners.append({"owner": new or None, "time": now})
            return message
        if kind != Gio.DBusMessageType.METHOD_CALL:
            return message
        if message.get_member() == "Notify" and body is not None:
            app, replaces, _icon, summary, text, actions, hints, timeout = body.unpack()
            with self.lock:
                self.calls.append(
                    {
                        "sender": message.get_sender(),
                        "app": app,
                        "replaces": replaces,
                        "summary": summary,
                        "body": text,
                        "actions": dict(zip(actions[0::2], actions[1::2])),
                        "category": hints.get("category"),
                        "timeout": timeout,
                        "time": now,
                    }
                )
        else:
            with self.lock:
                self.item_calls_seen.append(
                    {
                        "sender": message.get_sender(),
                        "destination": message.get_destination(),
                        "interface": message.get_interface(),
                        "member": message.get_member(),
                        "args": body.unpack() if body is not None else (),
                        "time": now,
                    }
                )
        # A monitor may not answer what it sees: GDBus would reply to a method call.
        return None

    def notifications(self):
        with self.lock:
            return [dict(call) for call in self.calls]

    def item_calls(self, destination, since=0.0):
        """The dbusmenu and StatusNotifierItem calls made to destination (a unique
        name) since the monotonic time since."""
        with self.lock:
            return [dict(c) for c in self.item_calls_seen if c["destination"] == destination and c["time"] >= since]

    def property_reads(self, destination, since=0.0):
        """The senders that read destination's StatusNotifierItem properties since since,
        with the time of each first read, in order."""
        first = {}
        for call in self.item_calls(destination, since):
            if call["member"] == "GetAll":
                first.setdefault(call["sender"], call["time"])
        return sorted(first.items(), key=lambda pair: pair[1])

    def menu_events(self, destination, event, since=0.0):
        """The ids of the dbusmenu items that destination was told of event ("opened",
        "clicked") since the monotonic time since, with the host that told it."""
        found = []
        for call in self.item_calls(destination, since):
            if call["member"] == "Event" and call["args"][1] == event:
                found.append((call["args"][0], call["sender"]))
            elif call["member"] == "EventGroup":
                found += [(args[0], call["sender"]) for args in call["args"][0] if args[1] == event]
        return found

    def watcher_changes(self, since=0.0):
        """Each change of the tray registry's owner since since: (owner or None, time)."""
        with self.lock:
            return [(c["owner"], c["time"]) for c in self.watcher_owners if c["time"] >= since]

    def close(self):
        self.connection.remove_filter(self.filter_id)
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass


class Plasma:
    """One Plasma session with its own X display, buses and folders; use it as a context
    manager. size is the screen's (width, height); logs is where the session's logs go."""

    def __init__(self, size=(1280, 800), *, logs=None):
        self.size = size
        self.tag = "%s=%d-%s" % (TAG_KEY, os.getpid(), uuid.uuid4().hex)
        self.root = tempfile.mkdtemp(prefix="lwn-plasma-")
        self.logs = logs or os.path.join(self.root, "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.procs = []
        self.named = {}
        self.starts = {}
        self.bus = None
        self.monitor = None
        self.display = None
        self.shots = 0

    # Processes ---------------------------------------------------------------

    def spawn(self, name, argv, env, log_name=None):
        """Starts argv with env and the session's tag; its output goes to LOGS/NAME.log.
        It stays in the script's process group, so that a Ctrl+C reaches it even when
        this process cannot clean up."""
        env = dict(env)
        key, _, value = self.tag.partition("=")
        env[key] = value
        with open(os.path.join(self.logs, (log_name or name) + ".log"), "w") as log:
            proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append((name, proc))
        self.named[name] = (proc, log_name or name)
        return proc

    def run(self, argv, timeout=e2e.TIMEOUT, check=True):
        """Runs a short command of the session (xdotool, xwininfo, ImageMagick) to its
        end and returns its standard output."""
        key, _, value = self.tag.partition("=")
        result = subprocess.run(
            argv, env=dict(self.env, **{key: value}), capture_output=True, text=True, timeout=timeout
        )
        if check and result.returncode != 0:
            raise PlasmaError("%s failed with %d: %s" % (" ".join(argv), result.returncode, result.stderr.strip()))
        return result.stdout

    def next_log(self, name):
        """A log's name for one more start of name: NAME-1, NAME-2…"""
        self.starts[name] = self.starts.get(name, 0) + 1
        return "%s-%d" % (name, self.starts[name])

    def log(self, name):
        try:
            with open(os.path.join(self.logs, name + ".log"), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def kill_everything(self):
        """Ends every process of the session at once: for a script that must stop now.
        Xvfb ends as soon on SIGTERM, and removes its lock file, which SIGKILL leaves."""
        for name, proc in self.procs:
            if proc.poll() is None:
                gnome.kill_pids([proc.pid], signal.SIGTERM if name == "xvfb" else signal.SIGKILL)
        gnome.kill_pids(gnome.tagged_pids(self.tag), signal.SIGKILL)

    def stop(self, name, sig=signal.SIGTERM):
        """Ends the process started as name and waits for it; returns its status."""
        proc, _log = self.named.pop(name)
        self.procs = [(n, p) for n, p in self.procs if p is not proc]
        return e2e.stop_process(proc, sig)

    # Start -------------------------------------------------------------------

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def start(self):
        self.dirs = {}
        for key, name in (
            ("HOME", "home"),
            ("XDG_CONFIG_HOME", "config"),
            ("XDG_DATA_HOME", "data"),
            ("XDG_STATE_HOME", "state"),
            ("XDG_CACHE_HOME", "cache"),
            ("XDG_RUNTIME_DIR", "runtime"),
        ):
            path = os.path.join(self.root, name)
            os.makedirs(path, mode=0o700)
            self.dirs[key] = path
        runtime = self.dirs["XDG_RUNTIME_DIR"]
        self.session_address = "unix:path=" + os.path.join(runtime, "bus")
        self.system_address = "unix:path=" + os.path.join(runtime, "system_bus")
        config = self.dirs["XDG_CONFIG_HOME"]
        # No animations (a menu shows at once, and whole), no splash screen, no locker.
        for name, text in (
            ("kdeglobals", "[KDE]\nAnimationDurationFactor=0\n"),
            ("ksplashrc", "[KSplash]\nEngine=none\nTheme=None\n"),
            ("kscreenlockerrc", "[Daemon]\nAutolock=false\nLockOnResume=false\n"),
        ):
            with open(os.path.join(config, name), "w") as f:
                f.write(text)
        self.recorder = e2e.UrlRecorder(self.root, self.dirs["XDG_DATA_HOME"], config)

        xvfb, self.display = e2e.start_xvfb("%dx%d" % self.size)
        self.procs.append(("xvfb", xvfb))
        self.named["xvfb"] = (xvfb, None)
        # Plasma's environment is made from nothing, so that nothing of the caller's
        # (a desktop's DISPLAY or bus, the applet's G_DEBUG) reaches it.
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "NO_AT_BRIDGE": "1",
            "DISPLAY": self.display,
            "XDG_SESSION_TYPE": "x11",
            "XDG_CURRENT_DESKTOP": "KDE",
            "KDE_FULL_SESSION": "true",
            "KDE_SESSION_VERSION": "5",
            "DESKTOP_SESSION": "plasma",
            "QT_QUICK_BACKEND": "software",
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "DBUS_SESSION_BUS_ADDRESS": self.session_address,
            "DBUS_SYSTEM_BUS_ADDRESS": self.system_address,
            **self.dirs,
        }

        system_config = os.path.join(self.root, "system-bus.conf")
        with open(system_config, "w") as f:
            f.write(gnome.SYSTEM_BUS_CONFIG.format(path=os.path.join(runtime, "system_bus")))
        self.spawn("system-bus", ["dbus-daemon", "--nofork", "--nopidfile", "--config-file=" + system_config], self.env)
        # The session bus starts services on demand as a desktop's does (kglobalaccel,
        # the activity manager), with the display and the tag in their environment.
        self.spawn(
            "session-bus",
            ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + self.session_address],
            self.env,
        )
        e2e.wait_for(
            lambda: all(os.path.exists(os.path.join(runtime, name)) for name in ("bus", "system_bus")),
            "the session and system buses' sockets",
            timeout=10,
        )
        self.bus = gnome.SessionBus(self.session_address)
        self.monitor = BusMonitor(self.session_address)

        # Plasma runs at a lower priority than the applet and the script, as it has
        # more to draw: on two cores its start would otherwise slow every wait here.
        self.run(["nice", "-n", "10", "kbuildsycoca5"], timeout=120)
        self.spawn("kwin", ["nice", "-n", "10", "kwin_x11"], self.env)
        self.start_kded()
        self.start_plasmashell()
        self.panel = self.wait(self.panel_box, "plasmashell's panel", PLASMA_START_TIMEOUT)
        # The pointer away from the panel: no hover, no tooltip.
        self.move(self.size[0] // 2, self.size[1] // 3)
        self.wait_panel_settled("the panel to settle")

    def start_kded(self):
        """Starts kded5 and waits until its StatusNotifierWatcher owns its name."""
        self.spawn("kded", ["nice", "-n", "10", "kded5"], self.env, self.next_log("kded5"))
        self.wait(lambda: self.bus.name_owner(WATCHER_NAME), "kded5's %s" % WATCHER_NAME, PLASMA_START_TIMEOUT)

    def start_plasmashell(self):
        """Starts plasmashell and waits until its System Tray is the registry's host. The
        host owns org.kde.StatusNotifierHost-PID; the registry's
        IsStatusNotifierHostRegistered is no sign, as it stays true after a host left."""
        argv = ["nice", "-n", "10", "plasmashell", "--no-respawn"]
        proc = self.spawn("plasmashell", argv, self.env, self.next_log("plasmashell"))
        # nice replaces itself with plasmashell: the process is plasmashell's.
        host = "org.kde.StatusNotifierHost-%d" % proc.pid
        self.wait(lambda: self.bus.name_owner(host), "plasmashell's System Tray to own %s" % host, PLASMA_START_TIMEOUT)
        self.wait(self.host_registered, "the System Tray to register as the host", PLASMA_START_TIMEOUT)
        return proc

    def wait(self, predicate, what, timeout=e2e.TIMEOUT, interval=0.2):
        """wait_for, failing at once with the last words of any part of the session that
        exited meanwhile."""

        def check():
            for name in ESSENTIAL:
                proc, log = self.named.get(name, (None, None))
                if proc is not None and proc.poll() is not None:
                    tail = "\n".join(self.log(log).splitlines()[-15:]) if log else ""
                    raise PlasmaError("%s exited with %r while waiting for %s:\n%s" % (name, proc.poll(), what, tail))
            return predicate()

        return e2e.wait_for(check, what, timeout, interval)

    # The tray registry --------------------------------------------------------

    def watcher_property(self, name):
        return self.bus.get_property(WATCHER_NAME, WATCHER_PATH, WATCHER_NAME, name)

    def host_registered(self):
        try:
            return self.watcher_property("IsStatusNotifierHostRegistered")
        except GLib.Error:
            return False

    def registered_items(self):
        """The registry's RegisteredStatusNotifierItems ("NAME/PATH" each), or None
        while there is no registry."""
        try:
            return list(self.watcher_property("RegisteredStatusNotifierItems"))
        except GLib.Error:
            return None

    def name_owner(self, name):
        return self.bus.name_owner(name)

    def unique_name_pid(self, name):
        try:
            (pid,) = self.bus.call(
                "org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "GetConnectionUnixProcessID",
                GLib.Variant("(s)", (name,)),
                "(u)",
            )
            return pid
        except GLib.Error:
            return None

    # The screen --------------------------------------------------------------

    def screenshot(self, path):
        """Writes the whole screen to path, in the format its name ends with (.png,
        .ppm); returns whether it could."""
        try:
            self.run(["import", "-window", "root", path], timeout=30)
            return os.path.exists(path)
        except (PlasmaError, subprocess.TimeoutExpired):
            return False

    def shot(self, keep=False):
        """A screenshot in the session's own folder, for comparisons; returns its path.
        Uncompressed, as PNG takes import a second a shot. The file is reused after
        TRANSIENT_SHOTS more shots unless keep."""
        self.shots += 1
        name = "kept-%d.ppm" % self.shots if keep else "shot-%d.ppm" % (self.shots % TRANSIENT_SHOTS)
        path = os.path.join(self.root, name)
        if not self.screenshot(path):
            raise PlasmaError("import could not take a screenshot of %s" % self.display)
        return path

    def keep(self, path):
        """A copy of a screenshot that no later shot overwrites."""
        self.shots += 1
        kept = os.path.join(self.root, "kept-%d.ppm" % self.shots)
        shutil.copyfile(path, kept)
        return kept

    def difference(self, before, after, box, fmt):
        """What convert prints with fmt for the difference of two screenshots, within box
        (x, y, width, height) if given."""
        crop = ["-crop", "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]), "+repage"] if box else []
        argv = ["convert", before, after, "-compose", "difference", "-composite", *crop, "-format", fmt, "info:"]
        return self.run(argv).strip()

    def changed(self, before, after, box=None):
        """The box (x, y, width, height) around every pixel that differs between two
        screenshots, within box if given, or None when none does."""
        out = self.difference(before, after, box, "%@")
        match = re.match(r"(\d+)x(\d+)\+(\d+)\+(\d+)$", out)
        if not match:
            raise PlasmaError("convert printed %r for a difference" % out)
        width, height, x, y = (int(v) for v in match.groups())
        if width == 0 or height == 0:
            return None
        return (x + (box[0] if box else 0), y + (box[1] if box else 0), width, height)

    def same(self, before, after, box=None):
        """Whether two screenshots are the same, within box if given."""
        return float(self.difference(before, after, box, "%[max]") or 0) == 0

    def blobs(self, before, after, box):
        """The boxes of the separate places where two screenshots differ within box,
        each grown by 3 px so that the parts of one icon make one place."""
        out = self.run(
            [
                "convert",
                before,
                after,
                "-compose",
                "difference",
                "-composite",
                "-crop",
                "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]),
                "+repage",
                "-threshold",
                "0",
                "-morphology",
                "Dilate",
                "Square:3",
                "-define",
                "connected-components:verbose=true",
                "-connected-components",
                "8",
                "null:",
            ]
        )
        found = []
        for line in out.splitlines():
            match = re.match(r"\s*\d+: (\d+)x(\d+)\+(\d+)\+(\d+) .*(srgb\(255,255,255\)|gray\(255\)|white)", line)
            if match:
                width, height, x, y = (int(v) for v in match.groups()[:4])
                found.append((box[0] + x + 3, box[1] + y + 3, width - 6, height - 6))
        return found

    def settled(self, box, what, timeout=e2e.TIMEOUT):
        """The path of a screenshot taken once box showed the same in two screenshots
        SETTLE apart."""
        last = [self.shot()]

        def same():
            time.sleep(SETTLE)
            now = self.shot()
            before, last[0] = last[0], now
            return now if self.same(before, now, box) else None

        return self.wait(same, what, timeout, interval=0)

    def wait_panel_settled(self, what):
        return self.settled(self.panel, what)

    # X windows and the pointer ------------------------------------------------

    def move(self, x, y):
        self.run(["xdotool", "mousemove", str(x), str(y)])

    def click(self, x, y, button=1):
        """A real click at (x, y): the pointer moves there, and a press and a release
        of button follow, through XTest."""
        self.run(["xdotool", "mousemove", str(x), str(y), "click", str(button)])

    def key(self, name):
        self.run(["xdotool", "key", name])

    def window_box(self, window):
        """(x, y, width, height) of an X window on the screen, or None when it is not
        mapped and viewable."""
        out = self.run(["xwininfo", "-id", window], check=False)
        fields = dict(
            re.findall(r"^\s*(Absolute upper-left X|Absolute upper-left Y|Width|Height|Map State):\s*(\S+)", out, re.M)
        )
        if fields.get("Map State") != "IsViewable":
            return None
        return tuple(int(fields[k]) for k in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height"))

    def window_types(self, window):
        out = self.run(["xprop", "-id", window, "_NET_WM_WINDOW_TYPE"], check=False)
        return re.findall(r"_NET_WM_WINDOW_TYPE_(\w+)", out)

    def plasma_windows(self):
        """plasmashell's viewable windows: {id: (box, [window types])}."""
        out = self.run(["xdotool", "search", "--onlyvisible", "--class", "plasmashell"], check=False)
        windows = {}
        for window in out.split():
            box = self.window_box(window)
            if box is not None:
                windows[window] = (box, self.window_types(window))
        return windows

    def panel_box(self):
        """plasmashell's panel (its dock window, the widest if there are several), or None."""
        docks = [box for box, types in self.plasma_windows().values() if "DOCK" in types]
        return max(docks, key=lambda box: max(box[2], box[3])) if docks else None

    def popup_menus(self):
        """plasmashell's popup menus that show now: {window id: box}."""
        return {
            window: box
            for window, (box, types) in self.plasma_windows().items()
            if "POPUP_MENU" in types or "DROPDOWN_MENU" in types
        }

    def notification_popups(self):
        """plasmashell's notification popups that show now: {window id: box}."""
        return {window: box for window, (box, types) in self.plasma_windows().items() if "NOTIFICATION" in types}

    def wait_notification_popups_gone(self):
        """Waits until no notification popup shows: one lies where the menu opens, above
        the System Tray, and goes after some seconds."""
        self.wait(lambda: not self.notification_popups(), "Plasma's notification popups to close", timeout=30)

    def xembed_windows(self, pid):
        """The X windows of process pid that offer themselves for XEmbed, as a
        GtkStatusIcon's tray icon does (tests/e2e/test-gui.py looks for them the same way).
        Qt marks each of its own windows so, plasmashell's among them: a window counts
        when its _NET_WM_PID is pid or its WM_CLASS is the applet's."""
        tree = self.run(["xwininfo", "-root", "-tree"])
        found = []
        for window in re.findall(r"^\s*(0x[0-9a-f]+) ", tree, re.MULTILINE):
            info = self.run(["xprop", "-id", window, "_XEMBED_INFO", "_NET_WM_PID", "WM_CLASS"], check=False)
            if not re.search(r"^_XEMBED_INFO\(", info, re.MULTILINE):
                continue
            if re.search(r"^_NET_WM_PID\(CARDINAL\) = %d$" % pid, info, re.MULTILINE) or '"lwn-tray"' in info:
                found.append(window)
        return found

    # The applet --------------------------------------------------------------

    def applet_env(self, base=None):
        """The environment of an applet in this session: the caller's own (the build
        tree's schemas and icons), on this session's display and buses, on KDE."""
        env = dict(base if base is not None else os.environ)
        for key in (
            "WAYLAND_DISPLAY",
            "XAUTHORITY",
            "DESKTOP_SESSION",
            "DBUS_STARTER_ADDRESS",
            "DBUS_STARTER_BUS_TYPE",
            "SESSION_MANAGER",
        ):
            env.pop(key, None)
        env.update(self.dirs)
        env.update(
            {
                "DISPLAY": self.display,
                "DBUS_SESSION_BUS_ADDRESS": self.session_address,
                "DBUS_SYSTEM_BUS_ADDRESS": self.system_address,
                "GDK_BACKEND": "x11",
                "XDG_SESSION_TYPE": "x11",
                "XDG_CURRENT_DESKTOP": "KDE",
                "NO_AT_BRIDGE": "1",
                "GIO_USE_VFS": "local",
                "G_MESSAGES_DEBUG": "lwn-tray",
                "LC_ALL": "C.UTF-8",
            }
        )
        return env

    # End ---------------------------------------------------------------------

    def close(self):
        """Ends every process of the session, the newest first (the applet before
        Plasma, Plasma before its buses and display), then whatever the buses started on
        demand or left their parent."""
        if self.monitor is not None:
            self.monitor.close()
            self.monitor = None
        if self.bus is not None:
            self.bus.close()
            self.bus = None
        for _name, proc in reversed(self.procs):
            e2e.stop_process(proc, timeout=5.0)
        self.procs = []
        left = gnome.tagged_pids(self.tag)
        if left:
            gnome.kill_pids(left, signal.SIGTERM)
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline and gnome.tagged_pids(self.tag):
                time.sleep(0.1)
            gnome.kill_pids(gnome.tagged_pids(self.tag), signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)
