#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A stand-in org.kde.StatusNotifierWatcher that logs when each tray item registers and when its menu first shows a headline.
#
# Usage: mock-watcher.py --log FILE --title TEXT [--title TEXT...] [--timeout SECONDS]
# Each log line is "<event> <unix time in ns> <bus name> [<detail>]", with event one of
# ready, item, host, menu-path, menu, menu-timeout, menu-error, vanished. After an item
# registers, its dbusmenu is polled with GetLayout until a visible item whose label
# contains one of the titles appears (the "menu" line), then polling stops.

import argparse
import sys
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

WATCHER_NAME = "org.kde.StatusNotifierWatcher"
WATCHER_PATH = "/StatusNotifierWatcher"
ITEM_INTERFACE = "org.kde.StatusNotifierItem"
MENU_INTERFACE = "com.canonical.dbusmenu"
POLL_MS = 10

INTROSPECTION = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem">
      <arg direction="in" name="service" type="s"/>
    </method>
    <method name="RegisterStatusNotifierHost">
      <arg direction="in" name="service" type="s"/>
    </method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered">
      <arg name="service" type="s"/>
    </signal>
    <signal name="StatusNotifierItemUnregistered">
      <arg name="service" type="s"/>
    </signal>
    <signal name="StatusNotifierHostRegistered"/>
    <signal name="StatusNotifierHostUnregistered"/>
  </interface>
</node>
"""


class Watcher:
    def __init__(self, log, titles, timeout):
        self.log_file = log
        self.titles = titles
        self.timeout = timeout
        self.connection = None
        self.items = {}  # service string -> name watch id

    def log(self, event, name, detail=""):
        line = f"{event} {time.time_ns()} {name} {detail}".rstrip()
        self.log_file.write(line + "\n")
        self.log_file.flush()

    def emit(self, signal, parameters):
        self.connection.emit_signal(None, WATCHER_PATH, WATCHER_NAME, signal, parameters)

    def method_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "RegisterStatusNotifierItem":
            (service,) = parameters.unpack()
            # libayatana passes its object path; other items pass a bus name.
            if service.startswith("/"):
                name, item_path = sender, service
            else:
                name, item_path = service, "/StatusNotifierItem"
            key = name + item_path
            self.log("item", name, item_path)
            invocation.return_value(None)
            if key not in self.items:
                self.items[key] = Gio.bus_watch_name_on_connection(
                    connection, name, Gio.BusNameWatcherFlags.NONE, None,
                    lambda c, n, key=key: self.item_vanished(n, key))
                self.emit("StatusNotifierItemRegistered", GLib.Variant("(s)", (key,)))
                Probe(self, name, item_path).start()
        elif method == "RegisterStatusNotifierHost":
            self.log("host", sender)
            invocation.return_value(None)
            self.emit("StatusNotifierHostRegistered", None)
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def get_property(self, connection, sender, path, interface, prop):
        if prop == "RegisteredStatusNotifierItems":
            return GLib.Variant("as", list(self.items))
        if prop == "IsStatusNotifierHostRegistered":
            return GLib.Variant("b", True)
        if prop == "ProtocolVersion":
            return GLib.Variant("i", 0)
        return None

    def item_vanished(self, name, key):
        watch_id = self.items.pop(key, None)
        if watch_id is not None:
            Gio.bus_unwatch_name(watch_id)
            self.log("vanished", name)
            self.emit("StatusNotifierItemUnregistered", GLib.Variant("(s)", (key,)))

    def bus_acquired(self, connection, name):
        self.connection = connection
        node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
        connection.register_object(WATCHER_PATH, node.interfaces[0], self.method_call, self.get_property, None)

    def name_acquired(self, connection, name):
        self.log("ready", connection.get_unique_name())

    def name_lost(self, connection, name):
        print("mock-watcher: could not own " + WATCHER_NAME, file=sys.stderr)
        sys.exit(1)


class Probe:
    """Polls one item's menu until a known headline shows, or the timeout passes."""

    def __init__(self, watcher, name, item_path):
        self.watcher = watcher
        self.name = name
        self.item_path = item_path
        self.menu_path = None
        self.deadline = time.monotonic() + watcher.timeout
        self.busy = False

    def start(self):
        self.watcher.connection.call(
            self.name, self.item_path, "org.freedesktop.DBus.Properties", "Get",
            GLib.Variant("(ss)", (ITEM_INTERFACE, "Menu")), GLib.VariantType("(v)"),
            Gio.DBusCallFlags.NONE, 5000, None, self.menu_property_cb)

    def menu_property_cb(self, connection, result):
        try:
            (self.menu_path,) = connection.call_finish(result).unpack()
        except GLib.Error as error:
            self.watcher.log("menu-error", self.name, error.message.replace("\n", " "))
            return
        self.watcher.log("menu-path", self.name, self.menu_path)
        self.poll()
        GLib.timeout_add(POLL_MS, self.poll)

    def poll(self):
        if time.monotonic() > self.deadline:
            self.watcher.log("menu-timeout", self.name)
            return GLib.SOURCE_REMOVE
        if self.busy:
            return GLib.SOURCE_CONTINUE
        if self.menu_path is None:
            return GLib.SOURCE_REMOVE
        self.busy = True
        self.watcher.connection.call(
            self.name, self.menu_path, MENU_INTERFACE, "GetLayout",
            GLib.Variant("(iias)", (0, -1, ["label", "visible"])), GLib.VariantType("(u(ia{sv}av))"),
            Gio.DBusCallFlags.NONE, 5000, None, self.layout_cb)
        return GLib.SOURCE_CONTINUE

    def layout_cb(self, connection, result):
        self.busy = False
        try:
            _revision, layout = connection.call_finish(result).unpack()
        except GLib.Error as error:
            # The item may have gone: its menu goes with it.
            self.watcher.log("menu-error", self.name, error.message.replace("\n", " "))
            self.menu_path = None
            return
        label = self.find_headline(layout)
        if label is not None and self.menu_path is not None:
            self.watcher.log("menu", self.name, label)
            self.menu_path = None

    def find_headline(self, node):
        _id, props, children = node
        label = props.get("label", "")
        if props.get("visible", True) and any(title in label for title in self.watcher.titles):
            return label
        for child in children:
            found = self.find_headline(child)
            if found is not None:
                return found
        return None


def main():
    parser = argparse.ArgumentParser(description="Mock StatusNotifierWatcher for the applet benchmark")
    parser.add_argument("--log", required=True, help="file to append events to")
    parser.add_argument("--title", action="append", default=[], help="text of a headline to wait for in menus")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to poll a menu for")
    args = parser.parse_args()

    with open(args.log, "a", encoding="utf-8") as log:
        watcher = Watcher(log, args.title, args.timeout)
        Gio.bus_own_name(Gio.BusType.SESSION, WATCHER_NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE,
                         watcher.bus_acquired, watcher.name_acquired, watcher.name_lost)
        GLib.MainLoop().run()


if __name__ == "__main__":
    main()
