#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serves a minimal org.kde.StatusNotifierWatcher on the session bus for the end-to-end
tests, remembering every registration (sender and argument) for the test to read back."""

import os
import signal
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

WATCHER_NAME = "org.kde.StatusNotifierWatcher"
WATCHER_PATH = "/StatusNotifierWatcher"
WATCHER_IFACE = "org.kde.StatusNotifierWatcher"
RECORD_IFACE = "io.github.lwntray.Test.Watcher"

INTROSPECTION = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem">
      <arg name="service" type="s" direction="in"/>
    </method>
    <method name="RegisterStatusNotifierHost">
      <arg name="service" type="s" direction="in"/>
    </method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered">
      <arg type="s"/>
    </signal>
    <signal name="StatusNotifierItemUnregistered">
      <arg type="s"/>
    </signal>
    <signal name="StatusNotifierHostRegistered"/>
  </interface>
  <interface name="io.github.lwntray.Test.Watcher">
    <method name="GetRegistrations">
      <arg name="registrations" type="a(ss)" direction="out"/>
    </method>
  </interface>
</node>
"""


def log(message):
    print("mock-sni-watcher: " + message, file=sys.stderr, flush=True)


class Watcher:
    def __init__(self, connection):
        self.connection = connection
        # (bus name, object path) of every item currently registered.
        self.items = []
        # (sender, argument) of every RegisterStatusNotifierItem call, in order.
        self.history = []
        # How many registrations to refuse before accepting any.
        self.refuse = int(os.environ.get("LWN_TEST_WATCHER_REFUSE", "0"))
        node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
        for interface in node.interfaces:
            connection.register_object(WATCHER_PATH, interface, self.method_call, self.get_property, None)
        connection.signal_subscribe(
            "org.freedesktop.DBus",
            "org.freedesktop.DBus",
            "NameOwnerChanged",
            "/org/freedesktop/DBus",
            None,
            Gio.DBusSignalFlags.NONE,
            self.name_owner_changed,
        )

    @staticmethod
    def item_string(bus_name, path):
        return bus_name + path

    def emit(self, signal, parameters):
        self.connection.emit_signal(None, WATCHER_PATH, WATCHER_IFACE, signal, parameters)

    def method_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "RegisterStatusNotifierItem" and self.refuse > 0:
            # A host that is there but does not take the item, as a crashed or
            # still-starting panel does: the applet has to try again by itself.
            self.refuse -= 1
            self.history.append((sender, "refused"))
            log("refused a registration from %s" % sender)
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", "not ready")
        elif method == "RegisterStatusNotifierItem":
            (service,) = parameters.unpack()
            # The KDE watcher accepts either an object path (the item lives on the
            # sender's connection) or a bus name (the item is at the default path).
            if service.startswith("/"):
                item = (sender, service)
            else:
                item = (service, "/StatusNotifierItem")
            self.history.append((sender, service))
            if item not in self.items:
                self.items.append(item)
            log("registered %s from %s" % (self.item_string(*item), sender))
            invocation.return_value(None)
            self.emit("StatusNotifierItemRegistered", GLib.Variant("(s)", (self.item_string(*item),)))
        elif method == "RegisterStatusNotifierHost":
            invocation.return_value(None)
            self.emit("StatusNotifierHostRegistered", None)
        elif method == "GetRegistrations":
            invocation.return_value(GLib.Variant("(a(ss))", (self.history,)))
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def get_property(self, connection, sender, path, interface, name):
        if name == "RegisteredStatusNotifierItems":
            return GLib.Variant("as", [self.item_string(*item) for item in self.items])
        if name == "IsStatusNotifierHostRegistered":
            return GLib.Variant("b", True)
        if name == "ProtocolVersion":
            return GLib.Variant("i", 0)
        return None

    def name_owner_changed(self, connection, sender, path, interface, signal, parameters):
        name, old_owner, new_owner = parameters.unpack()
        if new_owner:
            return
        for item in [item for item in self.items if item[0] == name]:
            self.items.remove(item)
            log("unregistered %s" % self.item_string(*item))
            self.emit("StatusNotifierItemUnregistered", GLib.Variant("(s)", (self.item_string(*item),)))


def main():
    loop = GLib.MainLoop()
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    watcher = Watcher(connection)

    def name_lost(*args):
        log("could not own " + WATCHER_NAME)
        loop.quit()

    Gio.bus_own_name_on_connection(
        connection, WATCHER_NAME, Gio.BusNameOwnerFlags.NONE, lambda *args: log("ready"), name_lost
    )
    def terminate():
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, terminate)
    loop.run()
    del watcher
    return 0


if __name__ == "__main__":
    sys.exit(main())
