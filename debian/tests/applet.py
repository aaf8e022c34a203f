#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Starts the installed lwn-tray on this session bus (xvfb-run and dbus-run-session make
both private) next to tests/e2e/mock-sni-watcher.py, and checks that it registers its tray
item, that the item names the installed icon, that the menu lists the feed's headlines,
and that SIGTERM ends it with status 0."""

import os
import signal
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

APP_ID = "io.github.lwntray.LwnTray"
FEED = os.path.abspath("tests/data/lwn-headlines-2023-07.rdf")
FIRST_TITLE = "Going Rogue"
TIMEOUT = 30.0


def wait_for(predicate, what):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def call(bus, name, path, iface, method, args, reply):
    return bus.call_sync(name, path, iface, method, args, GLib.VariantType(reply),
                         Gio.DBusCallFlags.NONE, 5000, None).unpack()


def labels(node):
    _id, props, children = node
    found = [props.get("label", "")]
    for child in children:
        found += labels(child)
    return found


def main():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    home = tempfile.mkdtemp(prefix="lwn-tray-applet.")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_CACHE_HOME=home + "/cache",
               XDG_STATE_HOME=home + "/state", GSETTINGS_BACKEND="memory", LC_ALL="C.UTF-8")

    watcher = subprocess.Popen([sys.executable, "tests/e2e/mock-sni-watcher.py"], env=env)
    applet = None
    try:
        wait_for(lambda: call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "NameHasOwner", GLib.Variant("(s)", ("org.kde.StatusNotifierWatcher",)), "(b)")[0],
                 "the mock StatusNotifierWatcher")

        applet = subprocess.Popen(["lwn-tray", "--no-notify", "--feed-url", "file://" + FEED], env=env)

        def registered():
            assert applet.poll() is None, "lwn-tray exited with %r" % applet.returncode
            (history,) = call(bus, "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                              "io.github.lwntray.Test.Watcher", "GetRegistrations", None, "(a(ss))")
            return [entry for entry in history if entry[1] != "refused"]

        sender, argument = wait_for(registered, "lwn-tray to register its tray item")[0]
        path = argument if argument.startswith("/") else "/StatusNotifierItem"
        print("ok - registered %s%s" % (sender, path))

        (props,) = call(bus, sender, path, "org.freedesktop.DBus.Properties", "GetAll",
                        GLib.Variant("(s)", ("org.kde.StatusNotifierItem",)), "(a{sv})")
        assert props.get("IconName", "").startswith(APP_ID), props.get("IconName")
        # Installed, the icons are in the system's theme: no folder of its own for the host.
        assert props.get("IconThemePath", "") == "", props.get("IconThemePath")
        print("ok - the item shows %s from the system's icon theme" % props["IconName"])

        def menu_has_headlines():
            _revision, root = call(bus, sender, props["Menu"], "com.canonical.dbusmenu", "GetLayout",
                                   GLib.Variant("(iias)", (0, -1, [])), "(u(ia{sv}av))")
            return any(FIRST_TITLE in label for label in labels(root))

        wait_for(menu_has_headlines, "the menu to list the feed's headlines")
        print("ok - the menu lists the feed's headlines")

        applet.send_signal(signal.SIGTERM)
        code = applet.wait(timeout=TIMEOUT)
        assert code == 0, "lwn-tray exited with %r after SIGTERM" % code
        print("ok - SIGTERM ends lwn-tray with status 0")
        return 0
    finally:
        if applet is not None and applet.poll() is None:
            applet.kill()
            applet.wait()
        watcher.terminate()
        watcher.wait()
        subprocess.run(["rm", "-rf", home], check=False)


if __name__ == "__main__":
    sys.exit(main())
