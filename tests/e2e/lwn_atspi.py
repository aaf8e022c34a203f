# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads and drives lwn-tray's windows the way a screen reader does: an accessibility
bus on a scenario's private session bus, and the AT-SPI D-Bus interfaces spoken with
GDBus. libatspi is not used: it binds one accessibility bus per process, and called
synchronously without a main loop of its own it can deadlock when an event handler
makes a second call while the first waits on libdbus's lock."""

import os
import subprocess

import gi

gi.require_version("Atspi", "2.0")
gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
# Atspi is imported for its enumerations only; nothing here initialises libatspi.
from gi.repository import Atspi, Gio, GLib  # noqa: E402

import lwn_e2e as e2e  # noqa: E402

Role = Atspi.Role
State = Atspi.StateType
Relation = Atspi.RelationType

REGISTRY = "org.a11y.atspi.Registry"
REGISTRY_PATH = "/org/a11y/atspi/registry"
ROOT_PATH = "/org/a11y/atspi/accessible/root"
DEC_PATH = "/org/a11y/atspi/registry/deviceeventcontroller"
ACCESSIBLE = "org.a11y.atspi.Accessible"
ACTION = "org.a11y.atspi.Action"
COMPONENT = "org.a11y.atspi.Component"
EDITABLE_TEXT = "org.a11y.atspi.EditableText"
HYPERLINK = "org.a11y.atspi.Hyperlink"
HYPERTEXT = "org.a11y.atspi.Hypertext"
SELECTION = "org.a11y.atspi.Selection"
TEXT = "org.a11y.atspi.Text"
VALUE = "org.a11y.atspi.Value"
DEC = "org.a11y.atspi.DeviceEventController"
A11Y_BUS_NAME = "org.a11y.Bus"

LAUNCHERS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")

# The controls a person operates; each must carry a name of its own.
INTERACTIVE_ROLES = {
    Role.PUSH_BUTTON,
    Role.TOGGLE_BUTTON,
    Role.CHECK_BOX,
    Role.RADIO_BUTTON,
    Role.COMBO_BOX,
    Role.SPIN_BUTTON,
    Role.TEXT,
    Role.ENTRY,
    Role.PASSWORD_TEXT,
    Role.SLIDER,
}

# X keysyms of the keys the tests press (see X11/keysymdef.h).
KEYSYMS = {
    "BackSpace": 0xFF08,
    "Tab": 0xFF09,
    "ISO_Left_Tab": 0xFE20,
    "Return": 0xFF0D,
    "Escape": 0xFF1B,
    "Home": 0xFF50,
    "Up": 0xFF52,
    "Down": 0xFF54,
    "Page_Up": 0xFF55,
    "Page_Down": 0xFF56,
    "End": 0xFF57,
    "space": 0x0020,
    "f": 0x0066,
    "q": 0x0071,
    "F10": 0xFFC7,
    "Menu": 0xFF67,
    "r": 0x0072,
    "l": 0x006C,
    "w": 0x0077,
}
MODIFIERS = {"Shift": 1 << 0, "Control": 1 << 2, "Alt": 1 << 3}


def pump():
    """Dispatches what has arrived for this process's main context, such as the
    accessibility events a FocusTracker listens to."""
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)


def wait_for(predicate, what, timeout=e2e.TIMEOUT, interval=0.05):
    """lwn_e2e.wait_for, with pending events dispatched before each look."""

    def look():
        pump()
        return predicate()

    return e2e.wait_for(look, what, timeout, interval)


def find_launcher():
    for path in LAUNCHERS:
        if os.access(path, os.X_OK):
            return path
    raise RuntimeError("at-spi-bus-launcher is not installed (Debian package at-spi2-core)")


class AccessibilityBus:
    """at-spi-bus-launcher on a scenario's session bus: it starts the accessibility bus,
    where the registry daemon is activated on demand, and answers org.a11y.Bus.GetAddress."""

    def __init__(self, session, env, log_path):
        self.session = session
        self.log_file = open(log_path, "w")
        self.proc = subprocess.Popen(
            [find_launcher(), "--launch-immediately", "--a11y=1"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        wait_for(lambda: session.name_owner(A11Y_BUS_NAME), "the accessibility bus launcher to own its name")
        (self.address,) = wait_for(
            lambda: session.call(A11Y_BUS_NAME, "/org/a11y/bus", A11Y_BUS_NAME, "GetAddress", None, "(s)"),
            "the accessibility bus address",
        )
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
            Gio.DBusCallFlags.NONE,
            int(timeout * 1000),
            None,
        )
        return result.unpack() if result is not None else None

    def desktop(self):
        return Accessible(self, REGISTRY, ROOT_PATH)

    def applications(self):
        return self.desktop().children()

    def pid_of(self, name):
        (pid,) = self.call(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "GetConnectionUnixProcessID",
            GLib.Variant("(s)", (name,)),
            "(u)",
        )
        return pid

    def application(self, pid, timeout=e2e.TIMEOUT):
        """The accessible application of process pid, once it has registered."""

        def find():
            for app in self.applications():
                if self.pid_of(app.bus_name) == pid:
                    return app
            return None

        return wait_for(find, "process %d on the accessibility bus" % pid, timeout)

    def key(self, name, modifiers=()):
        """Presses and releases a key through the registry's device event controller,
        which synthesises it with XTest: it reaches the window with the keyboard focus."""
        mask = 0
        for modifier in modifiers:
            mask |= MODIFIERS[modifier]
        if mask:
            self._generate(mask, "", Atspi.KeySynthType.LOCKMODIFIERS)
        try:
            self._generate(KEYSYMS[name], "", Atspi.KeySynthType.SYM)
        finally:
            if mask:
                self._generate(mask, "", Atspi.KeySynthType.UNLOCKMODIFIERS)

    def type_text(self, text):
        self._generate(0, text, Atspi.KeySynthType.STRING)

    def click(self, x, y, button=1):
        """Clicks mouse button at (x, y) on the screen, through the device event
        controller, as a person's pointer would."""
        self.call(
            REGISTRY,
            DEC_PATH,
            DEC,
            "GenerateMouseEvent",
            GLib.Variant("(iis)", (x, y, "b%dc" % button)),
        )

    def _generate(self, keycode, keystring, synth_type):
        self.call(
            REGISTRY,
            DEC_PATH,
            DEC,
            "GenerateKeyboardEvent",
            GLib.Variant("(isu)", (keycode, keystring, int(synth_type))),
        )

    def close(self):
        try:
            self.connection.close_sync(None)
        except GLib.Error:
            pass
        e2e.stop_process(self.proc)
        self.log_file.close()


class FocusTracker:
    """Follows the keyboard focus as a screen reader does, through the focus events
    programs send: GTK 3 puts no FOCUSED state on a combo box, whose focus sits on an
    inner button, but it does announce the combo box as focused."""

    EVENT = "object:state-changed:focused"

    def __init__(self, bus):
        self.bus = bus
        self.focused = None
        self.history = []
        self.subscription = bus.connection.signal_subscribe(
            None,
            "org.a11y.atspi.Event.Object",
            "StateChanged",
            None,
            "focused",
            Gio.DBusSignalFlags.NONE,
            self._state_changed,
        )
        bus.call(REGISTRY, REGISTRY_PATH, REGISTRY, "RegisterEvent", GLib.Variant("(sass)", (self.EVENT, [], "")))

    def _state_changed(self, _connection, sender, path, _interface, _member, parameters):
        _detail, gained, _detail2, _data, _properties = parameters.unpack()
        if gained:
            self.focused = Accessible(self.bus, sender, path)
            self.history.append(self.focused)

    def wait_focus(self, predicate, what, timeout=e2e.TIMEOUT):
        """Waits until predicate(the focused object) holds and returns that object."""
        return wait_for(lambda: self.focused is not None and predicate(self.focused) and self.focused, what, timeout)

    def close(self):
        self.bus.connection.signal_unsubscribe(self.subscription)
        try:
            self.bus.call(REGISTRY, REGISTRY_PATH, REGISTRY, "DeregisterEvent", GLib.Variant("(s)", (self.EVENT,)))
        except GLib.Error:
            pass


class Accessible:
    """One object of a program's accessible tree, addressed by (bus name, object path)."""

    def __init__(self, bus, bus_name, path):
        self.bus = bus
        self.bus_name = bus_name
        self.path = path

    def __eq__(self, other):
        return isinstance(other, Accessible) and (self.bus_name, self.path) == (other.bus_name, other.path)

    def __hash__(self):
        return hash((self.bus_name, self.path))

    def __repr__(self):
        try:
            return "<%s %r%s>" % (self.role_name, self.name, " " + self.path.rsplit("/", 1)[-1])
        except GLib.Error:
            return "<gone %s%s>" % (self.bus_name, self.path)

    def call(self, interface, method, args=None, reply=None):
        return self.bus.call(self.bus_name, self.path, interface, method, args, reply)

    def get(self, interface, prop):
        (value,) = self.call("org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (interface, prop)), "(v)")
        return value

    def set(self, interface, prop, value):
        self.call("org.freedesktop.DBus.Properties", "Set", GLib.Variant("(ssv)", (interface, prop, value)))

    def _ref(self, pair):
        bus_name, path = pair
        if path == "/org/a11y/atspi/null":
            return None
        return Accessible(self.bus, bus_name, path)

    # org.a11y.atspi.Accessible

    @property
    def name(self):
        return self.get(ACCESSIBLE, "Name")

    @property
    def description(self):
        return self.get(ACCESSIBLE, "Description")

    @property
    def role(self):
        (role,) = self.call(ACCESSIBLE, "GetRole", None, "(u)")
        return role

    @property
    def role_name(self):
        (name,) = self.call(ACCESSIBLE, "GetRoleName", None, "(s)")
        return name

    @property
    def parent(self):
        return self._ref(self.get(ACCESSIBLE, "Parent"))

    def children(self):
        (children,) = self.call(ACCESSIBLE, "GetChildren", None, "(a(so))")
        return [child for child in (self._ref(pair) for pair in children) if child is not None]

    def interfaces(self):
        (names,) = self.call(ACCESSIBLE, "GetInterfaces", None, "(as)")
        return set(names)

    def states(self):
        """The set of Atspi.StateType values that hold."""
        (words,) = self.call(ACCESSIBLE, "GetState", None, "(au)")
        states = set()
        for index, word in enumerate(words):
            for bit in range(32):
                if word & (1 << bit):
                    states.add(index * 32 + bit)
        return states

    def has_state(self, state):
        return int(state) in self.states()

    @property
    def showing(self):
        return self.has_state(State.SHOWING)

    @property
    def sensitive(self):
        return self.has_state(State.SENSITIVE)

    @property
    def checked(self):
        return self.has_state(State.CHECKED)

    @property
    def focused(self):
        return self.has_state(State.FOCUSED)

    def relations(self):
        """{Atspi.RelationType value: [Accessible, …]}"""
        (relations,) = self.call(ACCESSIBLE, "GetRelationSet", None, "(a(ua(so)))")
        return {kind: [target for target in map(self._ref, targets) if target] for kind, targets in relations}

    def labelled_by(self):
        return self.relations().get(int(Relation.LABELLED_BY), [])

    def described_by(self):
        return self.relations().get(int(Relation.DESCRIBED_BY), [])

    # Walking the tree

    def walk(self, showing_only=False):
        """This object and its descendants, depth first. With showing_only, branches
        that are not on screen are skipped."""
        stack = [self]
        while stack:
            node = stack.pop()
            if showing_only and node is not self and not node.showing:
                continue
            yield node
            stack.extend(reversed(node.children()))

    def find_all(self, role=None, name=None, predicate=None, showing_only=False):
        found = []
        for node in self.walk(showing_only):
            if role is not None and node.role != int(role):
                continue
            if name is not None and node.name != name:
                continue
            if predicate is not None and not predicate(node):
                continue
            found.append(node)
        return found

    def find(self, role=None, name=None, predicate=None, showing_only=False):
        found = self.find_all(role, name, predicate, showing_only)
        if not found:
            raise LookupError("no %s named %r under %r" % (role, name, self))
        return found[0]

    def wait_find(self, role=None, name=None, predicate=None, showing_only=False, timeout=e2e.TIMEOUT):
        def look():
            try:
                return self.find(role, name, predicate, showing_only)
            except LookupError:
                return None

        return wait_for(look, "a %s named %r" % (role, name), timeout)

    # org.a11y.atspi.Action

    def actions(self):
        (actions,) = self.call(ACTION, "GetActions", None, "(a(sss))")
        return [name for name, _description, _keys in actions]

    def do_action(self, name):
        index = self.actions().index(name)
        (done,) = self.call(ACTION, "DoAction", GLib.Variant("(i)", (index,)), "(b)")
        return done

    # org.a11y.atspi.Value

    @property
    def value(self):
        return self.get(VALUE, "CurrentValue")

    def set_value(self, value):
        self.set(VALUE, "CurrentValue", GLib.Variant("d", float(value)))

    # org.a11y.atspi.Text and EditableText

    @property
    def text(self):
        (text,) = self.call(TEXT, "GetText", GLib.Variant("(ii)", (0, -1)), "(s)")
        return text

    def text_attributes(self, offset=0):
        """The text attributes at offset, such as {"weight": "700"} for bold text."""
        attributes, _start, _end = self.call(TEXT, "GetAttributes", GLib.Variant("(i)", (offset,)), "(a{ss}ii)")
        return attributes

    def set_text(self, text):
        (done,) = self.call(EDITABLE_TEXT, "SetTextContents", GLib.Variant("(s)", (text,)), "(b)")
        return done

    # org.a11y.atspi.Hypertext

    def links(self):
        """The links in this object's text, such as a GtkLabel's <a> elements, in order."""
        (count,) = self.call(HYPERTEXT, "GetNLinks", None, "(i)")
        links = []
        for index in range(count):
            (pair,) = self.call(HYPERTEXT, "GetLink", GLib.Variant("(i)", (index,)), "((so))")
            link = self._ref(pair)
            if link is not None:
                links.append(Hyperlink(self.bus, link.bus_name, link.path))
        return links

    # org.a11y.atspi.Selection

    def select_child(self, index):
        (done,) = self.call(SELECTION, "SelectChild", GLib.Variant("(i)", (index,)), "(b)")
        return done

    def selected_child(self):
        (pair,) = self.call(SELECTION, "GetSelectedChild", GLib.Variant("(i)", (0,)), "((so))")
        return self._ref(pair)

    # org.a11y.atspi.Component

    def grab_focus(self):
        (done,) = self.call(COMPONENT, "GrabFocus", None, "(b)")
        return done

    def extents(self):
        """(x, y, width, height) on the screen."""
        (box,) = self.call(COMPONENT, "GetExtents", GLib.Variant("(u)", (0,)), "((iiii))")
        return box

    def set_size(self, width, height):
        """Asks a window for a size, as a screen reader's command can: GTK 3 takes it as
        the window's least size, so the window grows to it."""
        (done,) = self.call(COMPONENT, "SetSize", GLib.Variant("(ii)", (width, height)), "(b)")
        return done


class Hyperlink:
    """A link inside an object's text, from Hypertext.GetLink: not an accessible object
    of its own, but it has a target and an action that follows it."""

    def __init__(self, bus, bus_name, path):
        self.bus = bus
        self.bus_name = bus_name
        self.path = path

    def __repr__(self):
        try:
            return "<link %r %d-%d>" % (self.uri, self.start, self.end)
        except GLib.Error:
            return "<gone link %s%s>" % (self.bus_name, self.path)

    def call(self, interface, method, args=None, reply=None):
        return self.bus.call(self.bus_name, self.path, interface, method, args, reply)

    def get(self, interface, prop):
        (value,) = self.call("org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (interface, prop)), "(v)")
        return value

    @property
    def uri(self):
        (uri,) = self.call(HYPERLINK, "GetURI", GLib.Variant("(i)", (0,)), "(s)")
        return uri

    @property
    def start(self):
        """Where the link's text starts in its object's Text, in characters."""
        return self.get(HYPERLINK, "StartIndex")

    @property
    def end(self):
        return self.get(HYPERLINK, "EndIndex")

    def activate(self):
        """Follows the link as a screen reader does: its first action. GTK names it ""."""
        (done,) = self.call(ACTION, "DoAction", GLib.Variant("(i)", (0,)), "(b)")
        return done


class Scenario(e2e.Scenario):
    """An end-to-end scenario whose applet runs with the accessibility bridge on and
    an accessibility bus of its own on the scenario's session bus. Settings live in a
    key file, so that the test can change them from outside as gsettings would."""

    def __init__(self, binary, **kwargs):
        kwargs.setdefault("keyfile_settings", True)
        super().__init__(binary, **kwargs)
        self.a11y = None

    def __enter__(self):
        super().__enter__()
        try:
            self.a11y = AccessibilityBus(self.bus, self.env, self.path("at-spi-bus-launcher.log"))
        except BaseException:
            self.__exit__(None, None, None)
            raise
        for key in ("NO_AT_BRIDGE", "GTK_A11Y"):
            self.env.pop(key, None)
        # Named outright: the launcher also writes its address on the X root window,
        # which every scenario on this display shares.
        self.env["AT_SPI_BUS_ADDRESS"] = self.a11y.address
        return self

    def application(self, applet):
        return self.a11y.application(applet.proc.pid)

    def diagnostics(self):
        lines = super().diagnostics()
        path = self.path("at-spi-bus-launcher.log")
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                content = f.read().splitlines()
            if content:
                lines.append("at-spi-bus-launcher:")
                lines.extend("  " + line for line in content[-30:])
        return lines

    def __exit__(self, *exc):
        # The applets go before their accessibility bus, and that before the session bus.
        for applet in self.runs:
            applet.kill()
        if self.a11y is not None:
            self.a11y.close()
            self.a11y = None
        return super().__exit__(*exc)
