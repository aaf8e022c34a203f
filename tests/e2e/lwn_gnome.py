# SPDX-License-Identifier: GPL-3.0-or-later
"""A headless GNOME Shell (Wayland, one virtual monitor) on a private home, runtime
folder, session bus and stand-in system bus, for tests that look at lwn-tray the way a
GNOME user does. The shell evaluates JavaScript for the test (org.gnome.Shell.Eval),
clicks with a virtual pointer, takes screenshots, shows notifications and, with the
AppIndicator extension, hosts the tray item. A monitor connection on the session bus
records every notification that is sent, and a stand-in browser every URL opened.

GNOME Shell 43 and 48 have no --unsafe-mode option, and Eval and the screenshot API
answer only in unsafe mode, so a three-line extension of the session's own, in the
extension format of the shell that runs, turns it on. The shell leaves at startup when
/run/systemd/seats exists and no system bus answers: a private dbus-daemon stands in
for the system bus. Every process started here carries a tag in its environment, so
that the end of a session finds and ends all of them, also the services that the
session bus started on demand."""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

import lwn_e2e as e2e  # noqa: E402

APPINDICATOR_UUID = "ubuntu-appindicators@ubuntu.com"
APPINDICATOR_DIR = "/usr/share/gnome-shell/extensions/" + APPINDICATOR_UUID
UNSAFE_UUID = "unsafe-mode@lwn-tray.test"
WAYLAND_DISPLAY = "wayland-lwn-test"
SHELL_NAME = "org.gnome.Shell"
WATCHER_NAME = "org.kde.StatusNotifierWatcher"
TAG_KEY = "LWN_DESKTOP_TEST_RUN"
# The shells whose insides (the AppIndicator extension's objects, the notifications'
# fields, the extension format of the unsafe-mode switch) this module knows: Debian 12's
# and Debian 13's.
SHELL_MAJORS = frozenset({43, 48})
# The shell starts in a couple of seconds; the first start on a cold disk takes longer.
SHELL_START_TIMEOUT = 60.0

STOPPED_BY = {signal.SIGTERM: "SIGTERM", signal.SIGINT: "SIGINT", signal.SIGALRM: "its time limit"}

# No service is started on demand on the stand-in system bus: the shell asks it for
# logind, accounts, NetworkManager and the like, and should hear at once that none is there.
SYSTEM_BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

# GNOME Shell 45 and later load an extension as an ES module with a default export.
UNSAFE_EXTENSION_LEGACY = """class Extension {
  enable() { global.context.unsafe_mode = true; }
  disable() {}
}
function init() { return new Extension(); }
"""
UNSAFE_EXTENSION_MODULE = """import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
export default class UnsafeMode extends Extension {
  enable() { global.context.unsafe_mode = true; }
  disable() {}
}
"""


class ShellError(AssertionError):
    pass


class Stopped(BaseException):
    """Raised in the main thread when the test is told to stop (meson's timeout sends
    SIGTERM) or runs out of its own time: a BaseException, so that no step takes it
    for a failure of its own and every context manager still cleans up."""


def shell_major():
    """The major version of the installed gnome-shell, or None when there is none."""
    if shutil.which("gnome-shell") is None:
        return None
    try:
        out = subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"(\d+)", out)
    return int(match.group(1)) if match else None


def tagged_pids(tag):
    """The processes whose environment holds tag (KEY=VALUE), whoever started them."""
    wanted = tag.encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                if wanted in f.read().split(b"\0"):
                    pids.append(int(entry))
        except OSError:
            pass
    return pids


def kill_pids(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


class SessionBus(e2e.Bus):
    """A client of a bus that another part of the session started."""

    def __init__(self, address):
        self.proc = None
        self.address = address
        self.connection = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )

    def close(self):
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass


class NotificationMonitor:
    """Records each org.freedesktop.Notifications.Notify call on a bus, from a monitor
    connection (org.freedesktop.DBus.Monitoring): the calls exactly as the applet sent
    them, whichever server answers and whatever it shows."""

    RULE = "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"

    def __init__(self, address):
        self.lock = threading.Lock()
        self.calls = []
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
            GLib.Variant("(asu)", ([self.RULE], 0)),
            None,
            Gio.DBusCallFlags.NONE,
            5000,
            None,
        )

    def _filter(self, connection, message, incoming):
        if not incoming or message.get_message_type() != Gio.DBusMessageType.METHOD_CALL:
            return message
        if message.get_member() == "Notify" and message.get_body() is not None:
            app, replaces, icon, summary, body, actions, hints, timeout = message.get_body().unpack()
            call = {
                "sender": message.get_sender(),
                "app": app,
                "replaces": replaces,
                "summary": summary,
                "body": body,
                "actions": dict(zip(actions[0::2], actions[1::2])),
                "category": hints.get("category"),
                "hints": hints,
                "timeout": timeout,
                "time": time.monotonic(),
            }
            with self.lock:
                self.calls.append(call)
        # A monitor may not answer what it sees: GDBus would reply to a method call.
        return None

    def notifications(self, sender=None):
        with self.lock:
            return [dict(call) for call in self.calls if sender is None or call["sender"] == sender]

    def close(self):
        self.connection.remove_filter(self.filter_id)
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass


class Shell:
    """One run of GNOME Shell with its own buses and folders; use it as a context
    manager. size is the virtual monitor's (width, height); appindicator says whether
    the AppIndicator extension (the tray) is on; logs is where the session's logs go."""

    def __init__(self, size=(1280, 800), *, appindicator=True, logs=None, data_dirs=()):
        self.size = size
        self.appindicator = appindicator
        # Folders the shell and its buses look in before the system's, as a package's
        # files in /usr/share are seen (search providers, D-Bus services, launchers).
        self.data_dirs = list(data_dirs)
        self.tag = "%s=%d-%s" % (TAG_KEY, os.getpid(), uuid.uuid4().hex)
        self.root = tempfile.mkdtemp(prefix="lwn-desktop-")
        self.logs = logs or os.path.join(self.root, "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.procs = []
        self.bus = None
        self.monitor = None
        self.process = None

    # Processes ---------------------------------------------------------------

    def spawn(self, name, argv, env, log_name=None):
        """Starts argv with env and the session's tag; its output goes to LOGS/NAME.log.
        It stays in the test's process group, so that meson's kill on a timeout reaches
        it even when this process cannot clean up."""
        env = dict(env)
        key, _, value = self.tag.partition("=")
        env[key] = value
        with open(os.path.join(self.logs, (log_name or name) + ".log"), "w") as log:
            proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append((name, proc))
        return proc

    def log(self, name):
        try:
            with open(os.path.join(self.logs, name + ".log"), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def kill_everything(self):
        """Ends every process of the session at once: for a test that must stop now."""
        kill_pids([proc.pid for _, proc in self.procs if proc.poll() is None], signal.SIGKILL)
        kill_pids(tagged_pids(self.tag), signal.SIGKILL)

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
        self.major = shell_major()
        if self.major not in SHELL_MAJORS:
            known = " and ".join(str(major) for major in sorted(SHELL_MAJORS))
            raise ShellError("this module knows the insides of GNOME Shell %s, not of %s" % (known, self.major))
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
        # The shell's environment is made from nothing, so that nothing of the test's
        # (G_DEBUG=fatal-criticals, the build tree's schemas, a DISPLAY) reaches it.
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "NO_AT_BRIDGE": "1",
            "XDG_SESSION_TYPE": "wayland",
            "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_SESSION_DESKTOP": "gnome",
            "DBUS_SESSION_BUS_ADDRESS": self.session_address,
            "DBUS_SYSTEM_BUS_ADDRESS": self.system_address,
            **self.dirs,
        }
        if self.data_dirs:
            self.env["XDG_DATA_DIRS"] = ":".join(self.data_dirs + ["/usr/local/share", "/usr/share"])
        self.recorder = e2e.UrlRecorder(self.root, self.dirs["XDG_DATA_HOME"], self.dirs["XDG_CONFIG_HOME"])

        config = os.path.join(self.root, "system-bus.conf")
        with open(config, "w") as f:
            f.write(SYSTEM_BUS_CONFIG.format(path=os.path.join(runtime, "system_bus")))
        self.spawn("system-bus", ["dbus-daemon", "--nofork", "--nopidfile", "--config-file=" + config], self.env)
        # The session bus starts services on demand as a desktop's does: the shell's
        # notification service, dconf.
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
        self.bus = SessionBus(self.session_address)
        self.monitor = NotificationMonitor(self.session_address)

        # No Xwayland: the applet is a Wayland client, and the shell then takes no
        # X display number that a test running beside this one may want.
        argv = ["gnome-shell", "--headless", "--wayland", "--no-x11", "--wayland-display", WAYLAND_DISPLAY]
        argv += ["--virtual-monitor", "%dx%d" % self.size]
        self._write_unsafe_extension()
        extensions = [UNSAFE_UUID]
        if self.appindicator:
            extensions.append(APPINDICATOR_UUID)
        for schema, key, value in (
            ("org.gnome.shell", "enabled-extensions", GLib.Variant("as", extensions).print_(False)),
            ("org.gnome.shell", "disabled-extensions", "@as []"),
            ("org.gnome.shell", "welcome-dialog-last-shown-version", "'999'"),
            ("org.gnome.desktop.interface", "enable-animations", "false"),
            ("org.gnome.desktop.session", "idle-delay", "uint32 0"),
        ):
            self.gsettings("set", schema, key, value)

        self.process = self.spawn("shell", argv, self.env)
        self.wait(
            lambda: self.eval_quiet("!Main.layoutManager._startingUp"), "gnome-shell to start", SHELL_START_TIMEOUT
        )
        # The shell starts in the overview; it is hidden until it stays hidden.
        self.wait(
            lambda: self.eval("Main.overview.hide(); !(Main.overview.visible || Main.overview.animationInProgress)"),
            "the overview to close",
        )
        self.eval("Main.messageTray.getSources().forEach(s => s.destroy()); true")
        # The virtual pointer and keyboard are made now: a key sent right after its
        # device appeared is lost, as the seat tells the clients of the new keyboard.
        self.eval(
            "const C = imports.gi.Clutter, seat = C.get_default_backend().get_default_seat();"
            "global._lwnPointer = seat.create_virtual_device(C.InputDeviceType.POINTER_DEVICE);"
            "global._lwnKeyboard = seat.create_virtual_device(C.InputDeviceType.KEYBOARD_DEVICE); true"
        )
        monitor = self.eval(
            "const m = Main.layoutManager.primaryMonitor; [m.x, m.y, m.width, m.height, Main.panel.height]"
        )
        self.monitor_box = tuple(monitor[:4])
        self.panel_height = monitor[4]
        if tuple(monitor[2:4]) != tuple(self.size):
            raise ShellError("the shell made a %dx%d monitor, not %dx%d" % (*monitor[2:4], *self.size))

    def _write_unsafe_extension(self):
        folder = os.path.join(self.dirs["XDG_DATA_HOME"], "gnome-shell", "extensions", UNSAFE_UUID)
        os.makedirs(folder)
        metadata = {
            "uuid": UNSAFE_UUID,
            "name": "Unsafe mode for tests",
            "description": "Lets a test use org.gnome.Shell.Eval and the screenshot API",
            "shell-version": [str(self.major)],
        }
        with open(os.path.join(folder, "metadata.json"), "w") as f:
            json.dump(metadata, f)
        with open(os.path.join(folder, "extension.js"), "w") as f:
            f.write(UNSAFE_EXTENSION_MODULE if self.major >= 45 else UNSAFE_EXTENSION_LEGACY)

    def gsettings(self, *args):
        key, _, value = self.tag.partition("=")
        result = subprocess.run(
            ["gsettings", *args],
            env=dict(self.env, **{key: value}),
            capture_output=True,
            text=True,
            timeout=e2e.TIMEOUT,
        )
        if result.returncode != 0:
            raise ShellError("gsettings %s failed: %s" % (" ".join(args), result.stderr.strip()))
        return result.stdout.strip()

    def wait(self, predicate, what, timeout=e2e.TIMEOUT, interval=0.1):
        """wait_for, failing at once with the shell's last words when the shell exits."""

        def check():
            if self.process is not None and self.process.poll() is not None:
                tail = "\n".join(self.log("shell").splitlines()[-15:])
                raise ShellError(
                    "gnome-shell exited with %r while waiting for %s:\n%s" % (self.process.poll(), what, tail)
                )
            return predicate()

        return e2e.wait_for(check, what, timeout, interval)

    # The shell ---------------------------------------------------------------

    def eval(self, code):
        """The value of JavaScript code in the shell (its last expression, as JSON),
        or ShellError with the exception it raised."""
        ok, result = self.bus.call(
            SHELL_NAME, "/org/gnome/Shell", SHELL_NAME, "Eval", GLib.Variant("(s)", (code,)), "(bs)"
        )
        if not ok:
            raise ShellError("the shell could not evaluate %r: %s" % (code[:200], result or "(unsafe mode is off)"))
        return json.loads(result) if result else None

    def eval_quiet(self, code):
        """eval, with None while the shell does not answer yet."""
        try:
            return self.eval(code)
        except (GLib.Error, ShellError):
            return None

    def click(self, x, y, button=1):
        """A real click at (x, y): motion, press and release from a virtual pointer of
        the shell's seat. The event times come from the same clock as the shell's own,
        or a second click might count as part of the first and close a menu again."""
        self.eval(
            "const C = imports.gi.Clutter, p = global._lwnPointer, t = imports.gi.GLib.get_monotonic_time();"
            "p.notify_absolute_motion(t, %d, %d);"
            "p.notify_button(t + 1000, %d, C.ButtonState.PRESSED);"
            "p.notify_button(t + 60000, %d, C.ButtonState.RELEASED); true" % (x, y, button, button)
        )

    def press_key(self, name):
        """A real key press and release from a virtual keyboard of the shell's seat;
        name is a Clutter key name such as "Return"."""
        self.eval(
            "const C = imports.gi.Clutter, k = global._lwnKeyboard, t = imports.gi.GLib.get_monotonic_time();"
            "k.notify_keyval(t, C.KEY_%s, C.KeyState.PRESSED);"
            "k.notify_keyval(t + 30000, C.KEY_%s, C.KeyState.RELEASED); true" % (name, name)
        )

    def screenshot(self, path):
        """Writes what the screen shows to path (PNG); returns whether it could."""
        try:
            ok, _written = self.bus.call(
                "org.gnome.Shell.Screenshot",
                "/org/gnome/Shell/Screenshot",
                "org.gnome.Shell.Screenshot",
                "Screenshot",
                GLib.Variant("(bbs)", (False, False, path)),
                "(bs)",
                timeout=10,
            )
            return ok and os.path.exists(path)
        except GLib.Error:
            return False

    def windows(self):
        """The shell's windows: title, Wayland app id (wm_class), GApplication id
        (app_id), process, frame rectangle, and whether each shows and has the focus."""
        return self.eval(
            "global.get_window_actors().map(a => a.meta_window).map(w => { const r = w.get_frame_rect();"
            " return { title: w.get_title(), wm_class: w.get_wm_class(), app_id: w.get_gtk_application_id(),"
            " pid: w.get_pid(), x: r.x, y: r.y, width: r.width, height: r.height,"
            " showing: w.showing_on_its_workspace(), minimized: w.minimized,"
            " focused: global.display.focus_window === w }; })"
        )

    def shown_notifications(self):
        """The notifications the shell holds: its source's title, the title, the body
        and the labels of its buttons."""
        return self.eval(
            "Main.messageTray.getSources().flatMap(s => s.notifications.map(n => ({ source: s.title,"
            "title: n.title, body: n.%s, actions: (n.actions || []).map(a => a.label) })))"
            % ("body" if self.major >= 46 else "bannerBodyText")
        )

    def press_notification_button(self, title, label):
        """Does what a click on the button labelled label of the notification titled
        title does in its banner: runs the button's action and takes the notification
        away. Returns None, or why it could not."""
        # From GNOME Shell 46 an action is an object whose activate() is what its button
        # runs, the notification's destruction included; before, it was a plain callback
        # that the banner followed with the destruction itself.
        press = "a.activate();" if self.major >= 46 else "a.callback(); if (!n.resident) n.destroy();"
        return self.eval(
            "(() => { const n = Main.messageTray.getSources().flatMap(s => s.notifications)"
            ".find(n => n.title === %s); if (!n) return 'no notification is titled so';"
            " const a = (n.actions || []).find(a => a.label === %s); if (!a) return 'it has no such button';"
            " %s return null; })()" % (json.dumps(title), json.dumps(label), press)
        )

    def close_window(self, pid):
        """Asks each window of process pid to close, as its close button does."""
        self.eval(
            "global.get_window_actors().map(a => a.meta_window).filter(w => w.get_pid() === %d)"
            ".forEach(w => w.delete(global.get_current_time())); true" % pid
        )

    def focus_window(self, pid):
        """Gives the first window of process pid the keyboard focus, as a click on it does."""
        self.eval(
            "global.get_window_actors().map(a => a.meta_window).filter(w => w.get_pid() === %d)"
            ".slice(0, 1).forEach(w => w.activate(global.get_current_time())); true" % pid
        )

    # The AppIndicator extension's button and menu ----------------------------

    def find_tray_button(self, bus_name):
        """The top bar's button for the item that bus_name (a unique name) serves, as
        its key in Main.panel.statusArea, or None while there is none."""
        return self.eval(
            "(() => { const ks = Object.keys(Main.panel.statusArea).filter(k => Main.panel.statusArea[k] &&"
            " k.startsWith(%s)); global._lwnButton = ks.length ? Main.panel.statusArea[ks[0]] : null;"
            " return ks.length ? ks[0] : null; })()" % json.dumps("appindicator-%s@" % bus_name)
        )

    def tray_button(self):
        """The button found last: whether it is there and shows, its box [x, y, width,
        height] and the icon it draws (a GIcon's string)."""
        return self.eval(
            "(() => { const b = global._lwnButton; if (!b || !b.get_stage()) return null;"
            " const [x, y] = b.get_transformed_position(), [w, h] = b.get_transformed_size();"
            " const icon = b._icon && b._icon.gicon;"
            " return { shown: b.visible && b.mapped, box: [x, y, w, h].map(v => Math.round(v) || 0),"
            " icon: icon ? icon.to_string() : null, key: Object.keys(Main.panel.statusArea)"
            ".find(k => Main.panel.statusArea[k] === b) || null }; })()"
        )

    def tray_menu(self):
        """The button's menu: whether it is open, the box that is drawn ([x, y, width,
        height], with the part that reaches past the monitor), the monitor the button
        is on, and each item that shows, with its label, box and whether it reacts."""
        return self.eval(
            "(() => { const C = imports.gi.Clutter, b = global._lwnButton; if (!b || !b.menu) return null;"
            " const m = b.menu, L = Main.layoutManager;"
            " const mon = L.monitors[L.findIndexForActor(b)] || L.primaryMonitor;"
            " const box = a => { const [x, y] = a.get_transformed_position(), [w, h] = a.get_transformed_size();"
            " return [x, y, w, h].map(v => Math.round(v) || 0); };"
            " const [x, y, w, h] = box(m.actor), [, cy, , ch] = box(m.box);"
            " const items = m._getMenuItems().map(i => i instanceof C.Actor ? i : i.actor)"
            ".filter(a => a && a.visible && a.mapped)"
            ".map(a => ({ label: (a.label && a.label.text) || '', box: box(a), reactive: a.reactive,"
            " sensitive: a.sensitive === undefined ? true : a.sensitive }));"
            " return { open: m.isOpen, box: [x, y, w, Math.max(y + h, cy + ch) - y],"
            " monitor: [mon.x, mon.y, mon.width, mon.height], items }; })()"
        )

    def menu_item_at(self, x, y):
        """The label of the menu item that a click at (x, y) reaches, or a description of
        whatever else is there."""
        return self.eval(
            "(() => { const C = imports.gi.Clutter, b = global._lwnButton;"
            " const a = global.stage.get_actor_at_pos(C.PickMode.REACTIVE, %d, %d);"
            " const hit = b && b.menu ? b.menu._getMenuItems().find(i => i.contains && i.contains(a)) : null;"
            " return hit ? { item: (hit.label && hit.label.text) || '' } : { other: a ? String(a) : null }; })()"
            % (x, y)
        )

    # The applet --------------------------------------------------------------

    def applet_env(self, base=None):
        """The environment of an applet in this session: the test's own (the build tree's
        schemas and icons, G_DEBUG=fatal-criticals), on this session's bus and display,
        on GNOME."""
        env = dict(base if base is not None else os.environ)
        for key in ("DISPLAY", "XAUTHORITY", "DESKTOP_SESSION", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"):
            env.pop(key, None)
        env.update(self.dirs)
        env.update(
            {
                "DBUS_SESSION_BUS_ADDRESS": self.session_address,
                "DBUS_SYSTEM_BUS_ADDRESS": self.system_address,
                "WAYLAND_DISPLAY": WAYLAND_DISPLAY,
                "GDK_BACKEND": "wayland",
                "XDG_SESSION_TYPE": "wayland",
                "XDG_CURRENT_DESKTOP": "GNOME",
                "GIO_USE_VFS": "local",
                "G_MESSAGES_DEBUG": "lwn-tray",
                "LC_ALL": "C.UTF-8",
            }
        )
        return env

    def name_owner(self, name):
        return self.bus.name_owner(name)

    # End ---------------------------------------------------------------------

    def close(self):
        """Ends every process of the session, the newest first (the applet before the
        shell, the shell before its buses), then whatever the buses started on demand."""
        if self.monitor is not None:
            self.monitor.close()
            self.monitor = None
        if self.bus is not None:
            self.bus.close()
            self.bus = None
        for _name, proc in reversed(self.procs):
            e2e.stop_process(proc, timeout=5.0)
        left = tagged_pids(self.tag)
        if left:
            kill_pids(left, signal.SIGTERM)
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline and tagged_pids(self.tag):
                time.sleep(0.1)
            kill_pids(tagged_pids(self.tag), signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)


def install_stop_handlers(budget, shells):
    """Turns SIGTERM, SIGINT and a time budget (seconds) into Stopped in the main thread.
    meson sends SIGTERM to the test's process group on a timeout and SIGKILL half a
    second later, so the handler first kills every process of the running sessions
    (shells(): the Shell objects alive now) and the cleanup after it finds nothing left."""

    def stop(signum, frame):
        for shell in shells():
            shell.kill_everything()
        raise Stopped("stopped by %s" % STOPPED_BY.get(signum, signum))

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
        signal.signal(signum, stop)
    signal.alarm(int(budget))
