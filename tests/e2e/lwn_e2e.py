# SPDX-License-Identifier: GPL-3.0-or-later
"""Gives each end-to-end scenario of lwn-tray its own D-Bus bus, StatusNotifierWatcher,
notification daemon, feed server, URL recorder and state directories, plus the clients
that read the tray item, its dbusmenu and the notifications back."""

import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from xml.sax.saxutils import escape, quoteattr

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"
DATA = os.path.join(os.environ.get("G_TEST_SRCDIR", os.path.dirname(HERE)), "data")
LWN_FEED = os.path.join(DATA, "lwn-headlines-2023-07.rdf")

# Bounded waits: long enough for a loaded two-core machine, short enough that a
# broken applet fails the scenario instead of the whole suite timing out.
TIMEOUT = float(os.environ.get("LWN_E2E_TIMEOUT", "20"))
# How much slower the applet runs in this build: 3 under the sanitizers, as
# meson's asan setup multiplies its timeouts. Latency bounds scale with it.
SLOWDOWN = float(os.environ.get("LWN_E2E_SLOWDOWN", "1"))

APP_ID = "io.github.lwntray.LwnTray"
ITEM_ID = "lwn-tray"
ELLIPSIS = "\u2026"
# How the tests write an unread headline: the menu marks it with a filled
# radio indicator (toggle-type "radio", toggle-state 1), drawn in a column of
# its own, and leaves the title as it is.
BULLET = "\u2022 "
LOADING = "Loading headlines" + ELLIPSIS
FEED_PATH = "/headlines/rss"

WATCHER_NAME = "org.kde.StatusNotifierWatcher"
WATCHER_PATH = "/StatusNotifierWatcher"
SNI_IFACE = "org.kde.StatusNotifierItem"
MENU_IFACE = "com.canonical.dbusmenu"
NOTIFY_NAME = "org.freedesktop.Notifications"
NOTIFY_PATH = "/org/freedesktop/Notifications"
MOCK_IFACE = "org.freedesktop.DBus.Mock"

# What a typical notification server advertises; "actions" matters because libnotify
# clients only attach actions when the server supports them.
NOTIFY_CAPS = "actions body body-markup icon-static persistence"

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={directory}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Timeout(AssertionError):
    pass


def wait_for(predicate, what, timeout=TIMEOUT, interval=0.05):
    """Polls predicate until it returns something true and returns that value;
    D-Bus errors count as "not yet" so that objects may appear late."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = predicate()
            last = value
        except GLib.Error as error:
            value = None
            last = error
        if value:
            return value
        if time.monotonic() >= deadline:
            raise Timeout("timed out after %gs waiting for %s (last seen: %r)" % (timeout, what, last))
        time.sleep(interval)


def display_label(label):
    """Undoes GTK mnemonic escaping: "__" is a literal underscore, a single "_" marks
    the next character as the mnemonic and is not shown."""
    shown = []
    index = 0
    while index < len(label):
        char = label[index]
        if char == "_":
            if index + 1 < len(label) and label[index + 1] == "_":
                shown.append("_")
                index += 2
                continue
            index += 1
            continue
        shown.append(char)
        index += 1
    return "".join(shown)


def free_port():
    """A port on 127.0.0.1 where nothing listens, so connecting to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Feeds ---------------------------------------------------------------------


def headline(number, title=None, *, old_style=False, link=None, summary=None, creator="corbet", date=None):
    """One LWN-style feed entry. old_style gives the 2020 form whose link ends in /rss."""
    url = "https://lwn.net/Articles/%d/" % number
    if old_style:
        url += "rss"
    if link is None:
        link = url
    if title is None:
        title = "Headline number %d" % number
    if summary is None:
        summary = '<p>Summary of <a href="%s">article %d</a> &amp; more.</p>' % (url, number)
    if date is None:
        date = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1688750000 + number))
    return {"about": link, "title": title, "link": link, "summary": summary, "creator": creator, "date": date}


def rss1(items, title="LWN.net"):
    """An RSS 1.0 document shaped like LWN's headline feed."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
        ' xmlns="http://purl.org/rss/1.0/"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:syn="http://purl.org/rss/1.0/modules/syndication/">\n',
        '  <channel rdf:about="https://lwn.net/headlines/rss">\n',
        "    <title>%s</title>\n" % escape(title),
        "    <link>https://lwn.net</link>\n",
        "    <description>LWN.net is a comprehensive source of news and opinions"
        " from and about the Linux community.</description>\n",
        "    <syn:updatePeriod>hourly</syn:updatePeriod>\n",
        "    <syn:updateFrequency>2</syn:updateFrequency>\n",
        "    <items><rdf:Seq>\n",
    ]
    for item in items:
        parts.append("      <rdf:li resource=%s/>\n" % quoteattr(item["about"]))
    parts.append("    </rdf:Seq></items>\n  </channel>\n")
    for item in items:
        parts.append(
            "  <item rdf:about=%s>\n"
            "    <title>%s</title>\n"
            "    <link>%s</link>\n"
            "    <dc:date>%s</dc:date>\n"
            "    <dc:creator>%s</dc:creator>\n"
            "    <description>%s</description>\n"
            "  </item>\n"
            % (
                quoteattr(item["about"]),
                escape(item["title"]),
                escape(item["link"]),
                escape(item["date"]),
                escape(item["creator"]),
                escape(item["summary"]),
            )
        )
    parts.append("</rdf:RDF>\n")
    return "".join(parts).encode("utf-8")


def lwn_fixture():
    with open(LWN_FEED, "rb") as f:
        return f.read()


def serve_http(owner, port=0, protocol="HTTP/1.0", server_class=http.server.ThreadingHTTPServer):
    """Serves 127.0.0.1:port (0: any free port) from a thread of its own, handing every
    GET to owner.handle(request). Returns the server and its thread."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = protocol

        def do_GET(self):
            owner.handle(self)

        def log_message(self, *args):
            pass

        def finish(self):
            # A reset or a vanished client leaves nothing to flush.
            try:
                super().finish()
            except (OSError, ValueError):
                pass

    httpd = server_class(("127.0.0.1", port), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    return httpd, thread


class FeedServer:
    """A feed on http://127.0.0.1:PORT/headlines/rss whose answer each test scripts:
    body and ETag (304 on a matching If-None-Match), a forced status, a malformed body,
    or a hold that keeps requests waiting until release()."""

    def __init__(self, port=0):
        self.lock = threading.Lock()
        self.body = rss1([])
        self.etag = None
        self.status = None
        self.malformed = False
        self.generation = 0
        self.requests = []
        self.gate = threading.Event()
        self.gate.set()
        self.pages = {}
        self.httpd, self.thread = serve_http(self, port)

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        return "http://127.0.0.1:%d%s" % (self.port, FEED_PATH)

    def handle(self, request):
        record = {
            "path": request.path,
            "headers": {key.lower(): value for key, value in request.headers.items()},
            "time": time.time(),
            "status": None,
            "answered": None,
            "malformed": False,
        }
        with self.lock:
            self.requests.append(record)
        # A held request waits for release(); the bound keeps a forgotten hold from
        # wedging the server thread forever.
        self.gate.wait(60)
        with self.lock:
            body, etag, status, malformed = self.body, self.etag, self.status, self.malformed
        headers = {"Content-Type": "application/rdf+xml"}
        if request.path in self.pages:
            headers["Content-Type"], body = self.pages[request.path]
            status = 200
        elif request.path != FEED_PATH:
            status, body = 404, b"not found"
            headers["Content-Type"] = "text/plain"
        elif status is not None:
            body = b"server error"
            headers["Content-Type"] = "text/plain"
        elif malformed:
            status = 200
            body = body[: len(body) // 2]
            record["malformed"] = True
        elif etag is not None and etag in [
            tag.strip() for tag in record["headers"].get("if-none-match", "").split(",")
        ]:
            status, body = 304, b""
        else:
            status = 200
        if etag is not None and status in (200, 304) and not malformed:
            headers["ETag"] = etag
        # Recorded before the bytes go out so that a client which has its answer
        # always finds the request marked as answered.
        with self.lock:
            record["status"] = status
            record["answered"] = time.time()
        try:
            request.send_response(status)
            for key, value in headers.items():
                request.send_header(key, value)
            if status != 304:
                request.send_header("Content-Length", str(len(body)))
            request.end_headers()
            if status != 304:
                request.wfile.write(body)
        except OSError:
            pass

    def set_items(self, items, etag=True):
        self.set_body(rss1(items), etag)

    def set_body(self, body, etag=True):
        with self.lock:
            self.generation += 1
            self.body = body
            self.etag = '"lwn-%d"' % self.generation if etag else None
            self.status = None
            self.malformed = False

    def add_page(self, path, content_type, body):
        """Serves body as it is at path, beside the feed: a web page, say."""
        with self.lock:
            self.pages[path] = (content_type, body)

    def fail(self, status=500):
        with self.lock:
            self.status = status

    def break_body(self):
        with self.lock:
            self.malformed = True

    def heal(self):
        with self.lock:
            self.status = None
            self.malformed = False

    def hold(self):
        self.gate.clear()

    def release(self):
        self.gate.set()

    def log(self):
        with self.lock:
            return [dict(record) for record in self.requests]

    def count(self):
        with self.lock:
            return len(self.requests)

    def describe(self):
        """One line per request, for a failed scenario's diagnostics."""
        return [
            "%s status=%r%s if-none-match=%r"
            % (
                record["path"],
                record["status"],
                " (malformed)" if record["malformed"] else "",
                record["headers"].get("if-none-match"),
            )
            for record in self.log()
        ]

    def answered(self):
        with self.lock:
            return [record for record in self.requests if record["answered"] is not None]

    def wait_answer(self, after, what, predicate, timeout=TIMEOUT):
        """Waits for an answered request, among those after the first `after`, that
        satisfies predicate(record), and returns it."""

        def find():
            for record in self.answered()[after:]:
                if predicate(record):
                    return record
            return None

        return wait_for(find, what, timeout)

    def wait_requests(self, count, timeout=TIMEOUT):
        return wait_for(lambda: self.count() >= count, "%d feed request(s)" % count, timeout)

    def wait_answered(self, count, timeout=TIMEOUT):
        return wait_for(lambda: len(self.answered()) >= count, "%d answered feed request(s)" % count, timeout)

    def close(self):
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()


# D-Bus ---------------------------------------------------------------------


class Bus:
    """A private session bus with no service activation, so nothing but what the
    scenario starts can answer on it."""

    def __init__(self, directory):
        config = os.path.join(directory, "bus.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(directory=escape(directory)))
        with open(os.path.join(directory, "bus.log"), "w") as log:
            self.proc = subprocess.Popen(
                ["dbus-daemon", "--nofork", "--print-address=1", "--config-file=" + config],
                stdout=subprocess.PIPE,
                stderr=log,
                stdin=subprocess.DEVNULL,
                text=True,
            )
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            raise RuntimeError("dbus-daemon did not print an address")
        self.connection = Gio.DBusConnection.new_for_address_sync(
            self.address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )

    def call(self, name, path, interface, method, args=None, reply=None, timeout=5.0):
        result = self.connection.call_sync(
            name,
            path,
            interface,
            method,
            args,
            GLib.VariantType.new(reply) if reply else None,
            Gio.DBusCallFlags.NO_AUTO_START,
            int(timeout * 1000),
            None,
        )
        return result.unpack() if result is not None else None

    def name_owner(self, name):
        try:
            (owner,) = self.call(
                "org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "GetNameOwner",
                GLib.Variant("(s)", (name,)),
                "(s)",
            )
            return owner
        except GLib.Error:
            return None

    def get_property(self, name, path, interface, prop):
        (value,) = self.call(
            name,
            path,
            "org.freedesktop.DBus.Properties",
            "Get",
            GLib.Variant("(ss)", (interface, prop)),
            "(v)",
        )
        return value

    def get_all(self, name, path, interface):
        (values,) = self.call(
            name,
            path,
            "org.freedesktop.DBus.Properties",
            "GetAll",
            GLib.Variant("(s)", (interface,)),
            "(a{sv})",
        )
        return values

    def close(self):
        self.connection.close_sync(None)
        stop_process(self.proc)


def stop_process(proc, sig=signal.SIGTERM, timeout=5.0):
    """Stops a helper process we started, escalating to SIGKILL if it lingers."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return proc.returncode


class Watcher:
    """The mock StatusNotifierWatcher (tests/e2e/mock-sni-watcher.py) on a scenario's bus."""

    def __init__(self, bus, env, log_path):
        self.bus = bus
        self.log_path = log_path
        self.log_file = open(log_path, "w")
        self.proc = subprocess.Popen(
            [PYTHON, os.path.join(HERE, "mock-sni-watcher.py")],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        self.owner = wait_for(lambda: bus.name_owner(WATCHER_NAME), "the mock watcher to own its name")

    def registrations(self):
        """Every RegisterStatusNotifierItem call so far as (sender, argument)."""
        (history,) = self.bus.call(
            self.owner, WATCHER_PATH, "io.github.lwntray.Test.Watcher", "GetRegistrations", None, "(a(ss))"
        )
        return [tuple(entry) for entry in history]

    def items(self):
        return self.bus.get_property(WATCHER_NAME, WATCHER_PATH, WATCHER_NAME, "RegisteredStatusNotifierItems")

    def close(self):
        stop_process(self.proc)
        self.log_file.close()


class Notification:
    def __init__(self, number, args):
        app_name, replaces_id, app_icon, summary, body, actions, hints, expire = args
        self.app_name = app_name
        self.replaces_id = replaces_id
        self.app_icon = app_icon
        self.summary = summary
        self.body = body
        self.actions = dict(zip(actions[0::2], actions[1::2]))
        self.action_keys = actions[0::2]
        self.hints = hints
        self.expire = expire
        # The notification_daemon template hands out 1, 2, 3… to new notifications
        # and returns replaces_id unchanged for updates.
        self.id = replaces_id or number

    def __repr__(self):
        return "Notification(id=%d, summary=%r, body=%r, actions=%r, icon=%r, hints=%r)" % (
            self.id,
            self.summary,
            self.body,
            self.actions,
            self.app_icon,
            self.hints,
        )


class NotificationDaemon:
    """python-dbusmock's notification_daemon template on a scenario's bus."""

    def __init__(self, bus, env, log_path, capabilities=NOTIFY_CAPS):
        self.bus = bus
        self.log_path = log_path
        self.log_file = open(log_path, "w")
        self.proc = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "dbusmock",
                "--session",
                "-t",
                "notification_daemon",
                "-p",
                json.dumps({"capabilities": capabilities}),
            ],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        wait_for(lambda: bus.name_owner(NOTIFY_NAME), "the mock notification daemon to own its name")

    def notifications(self):
        """Every Notify call since the daemon started, oldest first."""
        (calls,) = self.bus.call(
            NOTIFY_NAME, NOTIFY_PATH, MOCK_IFACE, "GetMethodCalls", GLib.Variant("(s)", ("Notify",)), "(a(tav))"
        )
        result = []
        fresh = 0
        for _timestamp, args in calls:
            if not args[1]:
                fresh += 1
            result.append(Notification(fresh, args))
        return result

    def closed_ids(self):
        """The ids of every CloseNotification call since the daemon started."""
        (calls,) = self.bus.call(
            NOTIFY_NAME,
            NOTIFY_PATH,
            MOCK_IFACE,
            "GetMethodCalls",
            GLib.Variant("(s)", ("CloseNotification",)),
            "(a(tav))",
        )
        return [args[0] for _timestamp, args in calls]

    def wait_count(self, count, timeout=TIMEOUT):
        return wait_for(
            lambda: len(self.notifications()) >= count and self.notifications(),
            "%d notification(s)" % count,
            timeout,
        )

    def invoke(self, notification_id, action="default", activation_token=None):
        """The person acts on a notification; a server of spec 1.2 sends the
        activation token for the window it will raise first."""
        if activation_token is not None:
            self.emit("ActivationToken", "us", [GLib.Variant("u", notification_id), GLib.Variant("s", activation_token)])
        self.emit("ActionInvoked", "us", [GLib.Variant("u", notification_id), GLib.Variant("s", action)])

    def emit(self, signal_name, signature, args):
        self.bus.call(
            NOTIFY_NAME,
            NOTIFY_PATH,
            MOCK_IFACE,
            "EmitSignal",
            GLib.Variant(
                "(sssav)",
                ("org.freedesktop.Notifications", signal_name, signature, args),
            ),
        )

    def close(self):
        stop_process(self.proc)
        self.log_file.close()


class UrlRecorder:
    """The default http/https handler of a scenario: a desktop entry that appends every
    URL it is launched with to a file, so tests see exactly what the applet opened."""

    DESKTOP_ID = "lwn-test-browser.desktop"

    def __init__(self, root, data_home, config_home):
        self.record = os.path.join(root, "opened-urls")
        self.env_record = os.path.join(root, "opened-environments")
        self.fd_record = os.path.join(root, "opened-descriptors")
        script = os.path.join(root, "record-url")
        with open(script, "w") as f:
            f.write(
                "#!/bin/sh\n"
                'printf "%%s\\t%%s\\n" "${XDG_ACTIVATION_TOKEN-}" "${DESKTOP_STARTUP_ID-}" >> "%s"\n'
                # What the browser was handed, as ls sees it from outside (the shell
                # listing itself would show its own pipes), before the URL marks
                # the launch done.
                'ls -l /proc/$$/fd/ >> "%s"; echo "--" >> "%s"\n'
                'printf "%%s\\n" "$1" >> "%s"\n' % (self.env_record, self.fd_record, self.fd_record, self.record)
            )
        os.chmod(script, 0o755)
        self.script = script
        self.data_home = data_home
        self.config_home = config_home
        self._register(["x-scheme-handler/http", "x-scheme-handler/https"])

    # Whatever a launcher could be handed instead of a web page; see catch_everything().
    OTHER_TYPES = [
        "x-scheme-handler/file",
        "x-scheme-handler/javascript",
        "x-scheme-handler/data",
        "x-scheme-handler/ftp",
        "text/plain",
        "text/html",
        "application/xhtml+xml",
        "application/octet-stream",
        "inode/directory",
    ]

    def _register(self, types, startup_notify=True):
        applications = os.path.join(self.data_home, "applications")
        os.makedirs(applications, exist_ok=True)
        with open(os.path.join(applications, self.DESKTOP_ID), "w") as f:
            f.write(
                "[Desktop Entry]\n"
                "Type=Application\n"
                "Name=LWN test browser\n"
                "Exec=%s %%u\n"
                "StartupNotify=%s\n"
                "MimeType=%s;\n"
                "NoDisplay=true\n" % (self.script, "true" if startup_notify else "false", ";".join(types))
            )
        with open(os.path.join(self.config_home, "mimeapps.list"), "w") as f:
            f.write("[Default Applications]\n")
            for mime_type in types:
                f.write("%s=%s\n" % (mime_type, self.DESKTOP_ID))

    def catch_everything(self):
        """Makes the recorder the default handler for local files, javascript:,
        data: and the like as well, so that anything the applet launches, safe or
        not, is recorded instead of reaching a real program."""
        self._register(["x-scheme-handler/http", "x-scheme-handler/https"] + self.OTHER_TYPES)

    def urls(self):
        try:
            with open(self.record) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def wait_count(self, count, timeout=TIMEOUT):
        return wait_for(lambda: len(self.urls()) >= count and self.urls(), "%d opened URL(s)" % count, timeout)

    def without_startup_notify(self):
        """Makes the recorder a browser whose entry does not say it tells when it started."""
        self._register(["x-scheme-handler/http", "x-scheme-handler/https"], startup_notify=False)

    def descriptors(self):
        """Per launch, the browser's descriptors above stderr: (number, target) pairs,
        less the shell's own copies of its script and of its stdout and stderr."""
        try:
            with open(self.fd_record) as f:
                listings = f.read().split("--\n")
        except FileNotFoundError:
            return []
        launches = []
        for listing in listings[:-1]:
            targets = {}
            for line in listing.splitlines():
                if " -> " in line:
                    name, target = line.split(" -> ", 1)
                    targets[int(name.split()[-1])] = target
            own = {os.path.realpath(self.script), targets.get(1), targets.get(2)}
            launches.append([(fd, target) for fd, target in sorted(targets.items()) if fd > 2 and target not in own])
        return launches

    def tokens(self):
        """(XDG_ACTIVATION_TOKEN, DESKTOP_STARTUP_ID) of each launch, oldest first."""
        try:
            with open(self.env_record) as f:
                return [tuple(line.split("\t")) for line in f.read().splitlines()]
        except FileNotFoundError:
            return []


# The applet ----------------------------------------------------------------


class Menu:
    """A com.canonical.dbusmenu client for the tray item's menu."""

    def __init__(self, bus, name, path):
        self.bus = bus
        self.name = name
        self.path = path

    def layout(self, timeout=5.0):
        revision, root = self.bus.call(
            self.name,
            self.path,
            MENU_IFACE,
            "GetLayout",
            GLib.Variant("(iias)", (0, -1, [])),
            "(u(ia{sv}av))",
            timeout=timeout,
        )
        return root

    def answers_while(self, seconds, timeout, what):
        """Asks for the layout over and over for `seconds`: each call must be answered
        within `timeout` seconds, or the test fails saying `what` held the menu. How
        quickly the menu answers is a figure for bench/, never a bound here."""
        ends = time.monotonic() + seconds
        asked = 0
        while True:
            try:
                self.layout(timeout=timeout)
            except GLib.Error as error:
                raise AssertionError(
                    "the menu did not answer GetLayout within %gs %s: %s" % (timeout, what, error.message)
                ) from None
            asked += 1
            if time.monotonic() >= ends:
                return asked
            time.sleep(0.05)

    def items(self):
        """Top-level entries in order, invisible ones included."""
        _root_id, _props, children = self.layout()
        return [menu_entry(child) for child in children]

    def visible_items(self):
        return [entry for entry in self.items() if entry["visible"]]

    def labels(self):
        return [entry["label"] for entry in self.visible_items()]

    def find(self, prefix):
        for entry in self.visible_items():
            if entry["type"] != "separator" and entry["label"].startswith(prefix):
                return entry
        raise AssertionError("no visible menu item starting with %r in %r" % (prefix, self.labels()))

    def wait_item(self, prefix, timeout=TIMEOUT):
        def present():
            return any(
                entry["type"] != "separator" and entry["label"].startswith(prefix) for entry in self.visible_items()
            )

        wait_for(present, "a menu item starting with %r" % prefix, timeout)
        return self.find(prefix)

    def wait(self, predicate, what, timeout=TIMEOUT):
        """Waits until predicate(visible items) holds and returns those items."""

        def check():
            entries = self.visible_items()
            return entries if predicate(entries) else None

        try:
            return wait_for(check, what, timeout)
        except Timeout as error:
            raise Timeout("%s\nmenu: %r" % (error, self.labels())) from None

    def click(self, prefix):
        entry = self.find(prefix)
        self.click_id(entry["id"])
        return entry

    def click_id(self, item_id):
        self.bus.call(
            self.name,
            self.path,
            MENU_IFACE,
            "Event",
            GLib.Variant("(isvu)", (item_id, "clicked", GLib.Variant("s", ""), int(time.time()) & 0xFFFFFFFF)),
        )

    def click_ids(self, item_ids):
        """Clicks several items in one call, as fast as a host can send them: the
        applet gets them all before its main loop runs anything else they start."""
        stamp = int(time.time()) & 0xFFFFFFFF
        events = [(item_id, "clicked", GLib.Variant("s", ""), stamp) for item_id in item_ids]
        self.bus.call(self.name, self.path, MENU_IFACE, "EventGroup", GLib.Variant("(a(isvu))", (events,)))


def menu_entry(child):
    """One dbusmenu item as a dict; "submenu" lists its children's entries."""
    item_id, props, grandchildren = child
    raw = props.get("label", "")
    marked = props.get("toggle-type", "") == "radio" and props.get("toggle-state", -1) == 1
    return {
        "id": item_id,
        "label": (BULLET if marked else "") + display_label(raw),
        "raw_label": raw,
        "enabled": props.get("enabled", True),
        "visible": props.get("visible", True),
        "type": props.get("type", "standard"),
        "toggle-type": props.get("toggle-type", ""),
        "toggle-state": props.get("toggle-state", -1),
        "children-display": props.get("children-display", ""),
        "submenu": [menu_entry(grandchild) for grandchild in grandchildren],
    }


def split_menu(entries):
    """Splits the visible entries at the first separator into (top, commands)."""
    for index, entry in enumerate(entries):
        if entry["type"] == "separator":
            return entries[:index], entries[index + 1 :]
    return entries, []


REFRESHING = "Refreshing" + ELLIPSIS
STATUS_PREFIXES = (
    "Updated ",
    "Last update failed: ",
    "Update failed: ",
    "Updates failed: ",
    "Up to date",
    "Notifications paused: ",
    "The feed is gone",
    REFRESHING,
)


def is_status_line(label):
    return label.startswith(STATUS_PREFIXES)


class Applet:
    """One run of the lwn-tray binary inside a scenario."""

    def __init__(self, scenario, args, log_path, pass_fds=()):
        self.scenario = scenario
        self.bus = scenario.bus
        self.args = args
        self.log_path = log_path
        self.log_file = open(log_path, "w")
        self.name = None
        self.path = None
        self.known = set(scenario.watcher.registrations()) if scenario.watcher else set()
        self.proc = subprocess.Popen(
            [scenario.binary, *args],
            env=scenario.env,
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            pass_fds=pass_fds,
        )

    def log(self):
        if not self.log_file.closed:
            self.log_file.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def alive(self):
        return self.proc.poll() is None

    def assert_alive(self):
        assert self.alive(), "lwn-tray exited with %r" % self.proc.returncode

    def wait_registered(self, timeout=TIMEOUT):
        """Waits for the first RegisterStatusNotifierItem this run makes and returns
        (sender, path)."""
        watcher = self.scenario.watcher
        assert watcher is not None, "no watcher in this scenario"

        def registered():
            if not self.alive():
                raise AssertionError("lwn-tray exited with %r before registering" % self.proc.returncode)
            fresh = [
                entry for entry in watcher.registrations() if entry not in self.known and entry[1] != "refused"
            ]
            return fresh[0] if fresh else None

        sender, argument = wait_for(registered, "lwn-tray to register with the StatusNotifierWatcher", timeout)
        self.name = sender
        self.path = argument if argument.startswith("/") else "/StatusNotifierItem"
        return self.name, self.path

    def prop(self, name):
        return self.bus.get_property(self.name, self.path, SNI_IFACE, name)

    def props(self):
        return self.bus.get_all(self.name, self.path, SNI_IFACE)

    def menu(self):
        path = self.prop("Menu")
        return Menu(self.bus, self.name, path)

    def indicator(self):
        """(Status, XAyatanaLabel) of the tray item."""
        props = self.props()
        return props.get("Status"), props.get("XAyatanaLabel", "")

    def wait_indicator(self, status, label, timeout=TIMEOUT):
        return wait_for(lambda: self.indicator() == (status, label), "indicator %r/%r" % (status, label), timeout)

    def stop(self, sig=signal.SIGTERM, timeout=TIMEOUT):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("lwn-tray did not exit within %gs of signal %d" % (timeout, sig))
        finally:
            self.log_file.close()

    def proc_status(self):
        """The numeric fields of /proc/PID/status in bytes (VmRSS, VmHWM, …) or counts."""
        fields = {}
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                parts = value.split()
                if parts and parts[0].isdigit():
                    fields[key] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
        return fields

    def cpu_seconds(self):
        """User plus system CPU time the process has used so far."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # utime and stime are fields 14 and 15 of stat(5); the split starts at field 3.
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def fds(self):
        """The targets of the process's open file descriptors, by number."""
        directory = "/proc/%d/fd" % self.proc.pid
        targets = {}
        for name in os.listdir(directory):
            try:
                targets[int(name)] = os.readlink(os.path.join(directory, name))
            except FileNotFoundError:
                pass
        return targets

    def wait_exit(self, timeout=TIMEOUT):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("lwn-tray still running after %gs" % timeout) from None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.log_file.closed:
            self.log_file.close()


_xvfb = None


def start_xvfb(size="1280x1800"):
    """Starts an Xvfb with one screen of size WxH; returns (process, DISPLAY)."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        # -noreset, as build-aux/test-session.sh has it: no reset between two applets.
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", size + "x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_end,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as f:
        number = f.readline().strip()
    if not number:
        stop_process(proc)
        raise RuntimeError("Xvfb did not report a display")
    return proc, ":" + number


def ensure_display():
    """Starts a private Xvfb when the tests run outside test-session.sh, of the
    same size: room for a menu of 50 headlines."""
    global _xvfb
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    _xvfb, os.environ["DISPLAY"] = start_xvfb()
    return os.environ["DISPLAY"]


def stop_display():
    global _xvfb
    if _xvfb is not None:
        stop_process(_xvfb)
        _xvfb = None


class Scenario:
    """Fresh directories, bus and services for one test; the state directories survive
    applet restarts within the scenario."""

    def __init__(self, binary, *, watcher=True, notifications=True, keyfile_settings=False):
        self.binary = binary
        self.keyfile_settings = keyfile_settings
        self.want_watcher = watcher
        self.want_notifications = notifications
        self.runs = []
        self.watcher = None
        self.notifier = None
        self.server = None
        self.bus = None
        self.extra_servers = []

    def __enter__(self):
        ensure_display()
        self.root = tempfile.mkdtemp(prefix="lwn-e2e-")
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
        self.recorder = UrlRecorder(self.root, self.dirs["XDG_DATA_HOME"], self.dirs["XDG_CONFIG_HOME"])
        bus_dir = os.path.join(self.root, "bus")
        os.makedirs(bus_dir, mode=0o700)
        self.bus = Bus(bus_dir)
        env = dict(os.environ)
        for key in ("WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "DBUS_STARTER_ADDRESS"):
            env.pop(key, None)
        env.update(self.dirs)
        env.update(
            {
                "DBUS_SESSION_BUS_ADDRESS": self.bus.address,
                "NO_AT_BRIDGE": "1",
                "GSETTINGS_BACKEND": "memory",
                "GIO_USE_VFS": "local",
                "GDK_BACKEND": "x11",
                "G_MESSAGES_DEBUG": "lwn-tray",
                "LC_ALL": "C.UTF-8",
            }
        )
        if self.keyfile_settings:
            # Settings in a key file under XDG_CONFIG_HOME, which the applet watches,
            # so that `gsettings set` from the test reaches the running applet.
            env["GSETTINGS_BACKEND"] = "keyfile"
            env["GSETTINGS_SCHEMA_DIR"] = os.path.join(os.path.dirname(os.path.abspath(self.binary)), "..", "data")
        self.env = env
        self.server = FeedServer()
        if self.want_watcher:
            self.start_watcher()
        if self.want_notifications:
            self.notifier = NotificationDaemon(self.bus, env, os.path.join(self.root, "notification-daemon.log"))
        return self

    def start_watcher(self, refuse=0):
        env = dict(self.env, LWN_TEST_WATCHER_REFUSE=str(refuse))
        self.watcher = Watcher(self.bus, env, os.path.join(self.root, "watcher.log"))
        return self.watcher

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def add_server(self, server):
        """Hands another feed server (such as lwn_fault_server.FaultServer) to the
        scenario, which closes it at the end and lists its requests on failure."""
        self.extra_servers.append(server)
        return server

    def gsettings(self, *args):
        """Runs gsettings against the scenario's settings (keyfile_settings scenarios)."""
        result = subprocess.run(
            ["gsettings", *args], env=self.env, capture_output=True, text=True, timeout=TIMEOUT, check=True
        )
        return result.stdout.strip()

    def launch(self, *args, feed_url=None, interval=3600, use_settings=False, pass_fds=()):
        """Starts lwn-tray with --feed-url and --interval plus args, without waiting;
        with use_settings, without either, so that the settings apply; pass_fds are
        descriptors it inherits, as from a careless parent."""
        argv = []
        if not use_settings:
            argv += ["--feed-url", feed_url or self.server.url]
        if interval is not None and not use_settings:
            argv += ["--interval", str(interval)]
        argv += list(args)
        applet = Applet(self, argv, self.path("lwn-tray-%d.log" % (len(self.runs) + 1)), pass_fds)
        self.runs.append(applet)
        return applet

    def start(self, *args, **kwargs):
        """Starts lwn-tray and waits until its tray item is registered."""
        applet = self.launch(*args, **kwargs)
        applet.wait_registered()
        return applet

    def diagnostics(self):
        lines = []
        for number, applet in enumerate(self.runs, 1):
            lines.append("lwn-tray run %d: %s (exit %r)" % (number, " ".join(applet.args), applet.proc.poll()))
            # Scenarios that start the applet many times only need the last runs.
            if number > len(self.runs) - 3:
                lines.extend("  " + line for line in applet.log().splitlines()[-80:])
        for label, name in (("watcher", "watcher.log"), ("notification daemon", "notification-daemon.log")):
            path = self.path(name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    content = f.read().splitlines()
                if content:
                    lines.append(label + ":")
                    lines.extend("  " + line for line in content[-30:])
        if self.server is not None:
            lines.append("feed requests:")
            lines.extend("  " + line for line in self.server.describe())
        for server in self.extra_servers:
            lines.append("%s requests:" % type(server).__name__)
            lines.extend("  " + line for line in server.describe())
        if self.notifier is not None:
            try:
                for notification in self.notifier.notifications():
                    lines.append("  %r" % notification)
            except GLib.Error as error:
                lines.append("notifications unavailable: %s" % error.message)
        lines.append("opened URLs: %r" % self.recorder.urls())
        return lines

    def __exit__(self, *exc):
        for applet in self.runs:
            applet.kill()
        if self.notifier is not None:
            self.notifier.close()
        if self.watcher is not None:
            self.watcher.close()
        if self.server is not None:
            self.server.close()
        for server in self.extra_servers:
            server.close()
        if self.bus is not None:
            self.bus.close()
        shutil.rmtree(self.root, ignore_errors=True)
        return False


def run_tap(tests, make_scenario):
    """Runs (name, function) pairs as TAP; each function gets a fresh scenario from
    make_scenario(function) and any failure prints the traceback and the scenario's logs."""
    print("1..%d" % len(tests), flush=True)
    failed = 0
    for number, (name, func) in enumerate(tests, 1):
        started = time.monotonic()
        diagnostics = []
        try:
            with make_scenario(func) as scenario:
                try:
                    func(scenario)
                except BaseException:
                    diagnostics = scenario.diagnostics()
                    raise
            print("ok %d - %s" % (number, name))
            print("# %.1fs" % (time.monotonic() - started), flush=True)
        except Exception:
            failed += 1
            print("not ok %d - %s" % (number, name))
            reason = traceback.format_exc().splitlines() + diagnostics
            for line in reason:
                print("# " + line)
            sys.stdout.flush()
            # meson reads a TAP test's stdout into its log file only; what
            # `meson test --print-errorlogs` shows on the terminal is stderr.
            print("not ok %d - %s" % (number, name), *reason, sep="\n", file=sys.stderr, flush=True)
    stop_display()
    return 1 if failed else 0
