#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures from outside how long a window takes to show its first rows and how long the main loop stalls meanwhile.
#
# Usage:
#   window-probe.py measure (the options of stall_probe.py measure) [--app-id ID] PHASE...
#   window-probe.py report --samples FILE
#   window-probe.py report-feeds --samples FILE
#
# measure: bench/stall_probe.py's samplers (dbusmenu round-trips on the main loop, pings,
# ticks) and phases, and these:
#   LABEL=open:action:SECONDS   activate the application's "show-headlines" action over
#                               org.gtk.Actions, once; sample for SECONDS
#   LABEL=open:signal:SECONDS   send SIGHUP to --pid (floor-applet opens its window), sample
#                               for SECONDS, send SIGHUP again (it closes it); N times, so
#                               give --runs 1 for the first window of a process only
#   LABEL=open:HOW:SECONDS:painted  as above, for an empty window: its first frame is when
#                               the band no longer shows the root's black anywhere
#   LABEL=action:NAME:MODE:KEY  N times: switch the server to MODE and let it answer once
#                               with KEY, hold it back, give the applet two seconds to show
#                               that feed, then activate the application's action NAME and
#                               sample for a second
#   LABEL=type:TEXT             Ctrl+F in the window under the pointer, then N times: TEXT
#                               typed a key at a time, and erased again, each keystroke
#                               0.4 s apart and an event of its own; Escape at the end
#   LABEL=scroll:PAGES          Ctrl+F and Escape (the focus goes to the list's first row),
#                               then N times: PAGES Page Downs, 5 turns of the mouse wheel
#                               of 3 notches each over the list, and Home; each key and
#                               each turn an event, 0.4 s apart (Home 1 s)
#   LABEL=ends                  the same focus, then N times: End, and 3 s later Home; each
#                               an event
#   LABEL=choose:all            once: a click on the header bar's middle (the list of
#                               feeds) opens it, Home, Return: "All feeds"; each an event
#   LABEL=choose:cycle          N times: the list of feeds opened, Home, Down as many times
#                               as the round's number (1, 2, …), Return: one feed; then the
#                               list opened again, Home, Return: "All feeds". Each click
#                               and key an event, 0.3 s apart, 1.5 s after each Return
# An open phase also times the first frame: from the request until the screen shows the
# window's first rows, seen as a band of the screen (where a new window lands without a
# window manager, under its header bar) that stops being of one colour. The screen is
# read with GDK from this process's main thread, every 2 ms, until then.
#
# report: per applet and phase, the main-loop stalls as stall_probe.py reports them, the
# first frames, and each target met or missed (bench/bench-window.sh's applets and phases);
# report-feeds: the same for bench/bench-window-feeds.sh's.

import argparse
import ctypes
import os
import signal
import statistics
import sys
import time

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gdk, Gio, GLib  # noqa: E402

import stall_probe  # noqa: E402 (this script's folder is first on sys.path)

ACTIONS_INTERFACE = "org.gtk.Actions"
# Where the first rows of a window placed at the screen's corner are drawn: below the
# header bar, left of where a scroll bar would be.
BAND = (30, 70, 300, 140)
# A line through the header bar, where its title (the list of feeds) is.
HEADER_Y = 23
FRAME_POLL_S = 0.002
FRAME_TIMEOUT_S = 10.0


def uneven_lines(pixbuf):
    """How many lines of the pixbuf hold more than one colour: text, not a blank page."""
    pixels = pixbuf.get_pixels()
    stride = pixbuf.get_rowstride()
    width = pixbuf.get_width() * pixbuf.get_n_channels()
    count = 0
    for y in range(0, pixbuf.get_height(), 2):
        line = pixels[y * stride : y * stride + width]
        if line.count(line[:3]) * 3 != len(line):
            count += 1
    return count


def black_lines(pixbuf):
    """How many lines of the pixbuf still show the root window's black, which no window
    has drawn over."""
    pixels = pixbuf.get_pixels()
    stride = pixbuf.get_rowstride()
    width = pixbuf.get_width() * pixbuf.get_n_channels()
    count = 0
    for y in range(0, pixbuf.get_height(), 2):
        line = pixels[y * stride : y * stride + width]
        if line.count(0) == len(line):
            count += 1
    return count


def shows(pixbuf, criterion):
    """Whether the band shows a window's first frame: rows of text, or (painted) any
    window at all, an empty one."""
    if pixbuf is None:
        return False
    if criterion == "painted":
        return black_lines(pixbuf) == 0
    return uneven_lines(pixbuf) >= 4


class XTestKeyboard:
    """Key presses as a keyboard makes them, through the XTEST extension (libXtst, which
    the accessibility stack brings): what a person typing in the window would send."""

    def __init__(self):
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x11.XStringToKeysym.restype = ctypes.c_ulong
        self.x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                                   ctypes.c_ulong]
        self.display = self.x11.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("window-probe: cannot open the X display")

    def keycode(self, name):
        return self.x11.XKeysymToKeycode(self.display, self.x11.XStringToKeysym(name.encode()))

    def move_pointer(self, x, y):
        self.xtst.XTestFakeMotionEvent(self.display, -1, x, y, 0)
        self.x11.XFlush(self.display)

    def click(self, x, y, button=1):
        self.move_pointer(x, y)
        self.xtst.XTestFakeButtonEvent(self.display, button, 1, 0)
        self.xtst.XTestFakeButtonEvent(self.display, button, 0, 0)
        self.x11.XFlush(self.display)

    def wheel(self, notches, gap_s=0.03):
        """Turns the wheel down by NOTCHES (buttons 5: what a wheel mouse sends) where
        the pointer is."""
        for _ in range(notches):
            self.xtst.XTestFakeButtonEvent(self.display, 5, 1, 0)
            self.xtst.XTestFakeButtonEvent(self.display, 5, 0, 0)
            self.x11.XFlush(self.display)
            time.sleep(gap_s)

    def tap(self, name, control=False):
        codes = ([self.keycode("Control_L")] if control else []) + [self.keycode(name)]
        for code in codes:
            self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        for code in reversed(codes):
            self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.x11.XFlush(self.display)

    def close(self):
        self.x11.XCloseDisplay(self.display)


class WindowProbe(stall_probe.Probe):
    def __init__(self, args):
        super().__init__(args)
        self.root = Gdk.get_default_root_window()

    def metric(self, phase, name, value):
        self.metrics.append((phase, name, value))

    def activate(self, name):
        path = "/" + self.args.app_id.replace(".", "/")
        self.bus.call_sync(self.args.app_id, path, ACTIONS_INTERFACE, "Activate",
                           GLib.Variant("(sava{sv})", (name, [], {})), None,
                           Gio.DBusCallFlags.NONE, stall_probe.CALL_TIMEOUT_MS, None)

    def band(self):
        x, y, width, height = BAND
        return Gdk.pixbuf_get_from_window(self.root, x, y, width, height)

    def wait_frame(self, start_ns, criterion="rows"):
        """Milliseconds from start_ns until the band shows the window (see shows()); None
        if it never does."""
        deadline = time.monotonic() + FRAME_TIMEOUT_S
        while time.monotonic() < deadline:
            shot = self.band()
            now = time.time_ns()
            if shows(shot, criterion):
                return (now - start_ns) / 1e6
            time.sleep(FRAME_POLL_S)
        return None

    def window_width(self):
        """The width of the window at the screen's corner: where its header bar's line
        turns to the root's black."""
        screen = self.root.get_width()
        line = Gdk.pixbuf_get_from_window(self.root, 0, HEADER_Y, screen, 1)
        pixels = line.get_pixels()
        channels = line.get_n_channels()
        for x in range(screen - 1, -1, -1):
            if any(pixels[x * channels : x * channels + 3]):
                return x + 1
        raise SystemExit("window-probe: no window at the screen's corner")

    def phase_open(self, label, how, seconds, criterion="rows"):
        for _ in range(self.args.runs if how == "signal" else 1):
            shot = self.band()
            if shot is not None and (uneven_lines(shot) >= 4 or black_lines(shot) == 0):
                raise SystemExit("window-probe: something already shows where the window will")
            begin = time.time_ns()
            if how == "signal":
                os.kill(self.args.pid, signal.SIGHUP)
            else:
                self.activate("show-headlines")
            frame = self.wait_frame(begin, criterion)
            self.metric(label, "frame", -1 if frame is None else frame)
            time.sleep(max(0.0, begin / 1e9 + float(seconds) - time.time()))
            self.record(label, begin, time.time_ns(), [begin])
            if how == "signal":
                os.kill(self.args.pid, signal.SIGHUP)
                time.sleep(1.0)

    def phase_action(self, label, name, mode, key):
        for _ in range(self.args.runs):
            before = len(self.server.answers(key))
            self.server.control(mode=mode, hold=0)
            self.server.wait_answers(key, before + 1, 30)
            self.server.control(hold=1)
            time.sleep(2.0)
            begin = time.time_ns()
            self.activate(name)
            time.sleep(1.0)
            self.record(label, begin, time.time_ns(), [begin])

    def phase_type(self, label, text):
        """Ctrl+F, then text a key at a time, 0.4 s apart, through XTest to the window
        under the pointer (no window manager: the X focus follows the pointer); each
        keystroke is an event. Then Escape closes the search again."""
        keyboard = XTestKeyboard()
        x, y, _width, _height = BAND
        keyboard.move_pointer(x + 20, y + 20)
        start = time.time_ns()
        keyboard.tap("f", control=True)
        time.sleep(1.0)
        events = []
        for _ in range(self.args.runs):
            for char in text:
                events.append(time.time_ns())
                keyboard.tap(char)
                time.sleep(0.4)
            for _ in text:
                events.append(time.time_ns())
                keyboard.tap("BackSpace")
                time.sleep(0.4)
        keyboard.tap("Escape")
        time.sleep(1.0)
        self.record(label, start, time.time_ns(), events)
        keyboard.close()

    def focus_list(self, keyboard):
        """Ctrl+F, then Escape: the search closes and the focus goes to the list's first
        row, where Page Down, End and Home act."""
        x, y, _width, _height = BAND
        keyboard.move_pointer(x + 20, y + 20)
        keyboard.tap("f", control=True)
        time.sleep(1.0)
        keyboard.tap("Escape")
        time.sleep(1.0)

    def phase_scroll(self, label, pages=None):
        keyboard = XTestKeyboard()
        x, y, _width, _height = BAND
        self.focus_list(keyboard)
        start = time.time_ns()
        events = []

        def key(name, pause):
            events.append(time.time_ns())
            keyboard.tap(name)
            time.sleep(pause)

        for _ in range(self.args.runs):
            if pages is None:
                key("End", 3.0)
                key("Home", 1.0)
                continue
            for _ in range(int(pages)):
                key("Page_Down", 0.4)
            keyboard.move_pointer(x + 20, y + 20)
            for _ in range(5):
                events.append(time.time_ns())
                keyboard.wheel(3)
                time.sleep(0.4)
            key("Home", 1.0)
        self.record(label, start, time.time_ns(), events)
        keyboard.close()

    def phase_ends(self, label):
        self.phase_scroll(label)

    def phase_choose(self, label, which):
        """Feeds chosen in the list of feeds, the header bar's title, as a person does
        with the mouse and the keys: its menu opened by a click, then Home, Down, Return."""
        keyboard = XTestKeyboard()
        middle = self.window_width() // 2
        start = time.time_ns()
        events = []

        def act(do, pause):
            events.append(time.time_ns())
            do()
            time.sleep(pause)

        def choose(downs):
            act(lambda: keyboard.click(middle, HEADER_Y), 0.8)
            act(lambda: keyboard.tap("Home"), 0.3)
            for _ in range(downs):
                act(lambda: keyboard.tap("Down"), 0.3)
            act(lambda: keyboard.tap("Return"), 1.5)

        if which == "all":
            choose(0)
        else:
            for round_number in range(self.args.runs):
                choose(round_number + 1)
                choose(0)
        self.record(label, start, time.time_ns(), events)
        keyboard.close()

    def run(self, phases):
        self.metrics = []
        super().run(phases)

    def write(self):
        super().write()
        with open(self.args.samples, "a", encoding="utf-8") as out:
            for phase, name, value in self.metrics:
                out.write(f"M {self.args.applet} {phase} {name} {value}\n")


# The report ------------------------------------------------------------------------

# (what, lwn-tray's applet label and phase, floor-applet's phase or None, stall target in ms)
ROWS = [
    ("open the window, 1,000 items", "lwn-tray-open", "open", "open", 16),
    ("changed 1,000-item feed, window open", "lwn-tray-window", "changed-1000", "relabel", 16),
    ("1,000 new items, window open", "lwn-tray-window", "fresh-1000", "relabel", 16),
    ("Mark All as Read, 1,000 unread", "lwn-tray-window", "mark-all-read", None, 16),
    ("search as one types, 1,000 items", "lwn-tray-window", "search", "relabel", 16),
]
FRAME_TARGET_MS = 150


def frames(path):
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] == "M" and fields[3] == "frame":
                found.setdefault((fields[1], fields[2]), []).append(float(fields[4]))
    return found


def report(args):
    phases = stall_probe.load(args.samples)
    applets = {name: stall_probe.Applet(phases, name) for name, _ in phases}
    first_frames = frames(args.samples)
    columns = stall_probe.columns
    fmt = stall_probe.fmt

    print("Idle, ms: a menu round-trip to each applet while nothing happens")
    for name in ("lwn-tray-open", "lwn-tray-window", "floor-applet"):
        idle = phases.get((name, "idle"))
        if idle is not None and idle.menu:
            menu = [sample[1] for sample in idle.menu]
            print(f"  {name:<16} median {statistics.median(menu):.3f}, p99 {stall_probe.percentile(menu, 0.99):.2f}, "
                  f"worst {max(menu):.2f} ({len(menu)} calls)")
    print()
    print("Stall, ms: a menu round-trip less the applet's idle median, as bench/stall_probe.py reports")
    print("it (worst, p99, typ: the median over the N events of the longest after each; beside the")
    print("worst: the main thread's cpu and wait, the ping and the tick). floor-applet: opening its")
    print("window of 12 rows (SIGHUP), the first of its process as lwn-tray's are, or relabelling")
    print("its three menu items (SIGUSR1). work: the longest stall during which the main thread was")
    print("on a CPU for at least half of it and the ping and the tick were not held up half as long:")
    print("the applet's own work, not a wait for the X server or a virtual CPU that did not run.")
    print()
    print(f"{'phase':<38} {'lwn-tray':^53}   {'floor-applet':^37}   target, ms")
    head = f"{'worst':>6} {'p99':>5} {'typ':>5} {'N':>3} {'cpu':>5} {'wait':>5} {'ping':>5} {'tick':>5}"
    print(f"{'':<38} {head} {'work':>6}   {'':<8}{head[:22]} {'work':>6}")
    for what, name, phase, floor_phase, target in ROWS:
        ours = applets[name].summary(phase, target) if name in applets else None
        work = applets[name].worst_working(phase) if name in applets else None
        floor = applets["floor-applet"].summary(floor_phase) if floor_phase and "floor-applet" in applets else None
        if ours is None:
            verdict = "not measured"
        elif ours["worst"] < target:
            verdict = f"< {target}: met"
        else:
            verdict = (f"< {target}: MISSED, {ours['over']}/{ours['events']} events ({ours['working']} working)"
                       + (f"; working < {target}" if work is not None and work < target else ""))
        floor_text = " " * 37
        if floor:
            floor_work = applets["floor-applet"].worst_working(floor_phase)
            floor_text = f"{floor_phase:<8}{columns(floor)[:22]} {fmt(floor_work, 6)}"
        print(f"{what:<38} {columns(ours)} {fmt(work, 6)}   {floor_text}   {verdict}")

    print()
    print("First frame, ms: from the request until the window's first rows are on the screen")
    for name, label in (("lwn-tray-open", "lwn-tray, 1,000 items"), ("floor-applet", "floor-applet, 12 rows")):
        values = first_frames.get((name, "open"), [])
        shown = [value for value in values if value >= 0]
        if not values:
            print(f"  {label:<24} not measured")
            continue
        text = (f"median {statistics.median(shown):6.1f}, worst {max(shown):6.1f} ({len(shown)} opens"
                + (f", {len(values) - len(shown)} never drawn" if len(shown) < len(values) else "") + ")"
                if shown else f"never drawn ({len(values)} opens)")
        verdict = ""
        if name == "lwn-tray-open":
            met = shown and len(shown) == len(values) and max(shown) < FRAME_TARGET_MS
            verdict = f"   < {FRAME_TARGET_MS}: {'met' if met else 'MISSED'}"
        print(f"  {label:<24} {text}{verdict}")


# bench/bench-window-feeds.sh: (what, lwn-tray's applet label and phase, stall target in ms)
FEEDS_ROWS = [
    ("open the window, 200 feeds loaded", "lwn-tray-feeds-open", "open", 16),
    ('"All feeds" chosen (4,000 headlines)', "lwn-tray-feeds", "all-feeds", 16),
    ("search All feeds as one types", "lwn-tray-feeds", "search", 16),
    ("a feed chosen, then All feeds again", "lwn-tray-feeds", "filter", 16),
    ("scroll All feeds: Page Down, the wheel", "lwn-tray-feeds", "scroll", 16),
    ("End, then Home", "lwn-tray-feeds", "ends", 16),
    ("search as one types, after End", "lwn-tray-feeds", "search-end", 16),
    ("a feed chosen and All feeds, after End", "lwn-tray-feeds", "filter-end", 16),
]
FEEDS_OPEN_TARGET_MS = 16


def report_feeds(args):
    phases = stall_probe.load(args.samples)
    applets = {name: stall_probe.Applet(phases, name) for name, _ in phases}
    first_frames = frames(args.samples)
    columns = stall_probe.columns
    fmt = stall_probe.fmt

    print("First frame, ms: from the request until the window shows on the screen (lwn-tray and the")
    print("12-row window: their first rows; the empty window: its background), the first window of")
    print("each process")
    medians = {}
    for name, label in (("lwn-tray-feeds-open", "lwn-tray, 200 feeds"), ("floor-empty", "empty GtkWindow"),
                        ("floor-rows", "floor-applet, 12 rows")):
        values = first_frames.get((name, "open"), [])
        shown = [value for value in values if value >= 0]
        if not values:
            print(f"  {label:<24} not measured")
            continue
        if not shown:
            print(f"  {label:<24} never drawn ({len(values)} opens)")
            continue
        medians[name] = statistics.median(shown)
        print(f"  {label:<24} median {medians[name]:6.1f}, min {min(shown):6.1f}, worst {max(shown):6.1f} "
              f"({len(shown)} opens" + (f", {len(values) - len(shown)} never drawn" if len(shown) < len(values) else "")
              + ")")
    if "lwn-tray-feeds-open" in medians and "floor-empty" in medians:
        difference = medians["lwn-tray-feeds-open"] - medians["floor-empty"]
        verdict = "met" if difference <= FEEDS_OPEN_TARGET_MS else "MISSED"
        print(f"  lwn-tray less the empty window, medians: {difference:.1f} ms   <= {FEEDS_OPEN_TARGET_MS}: {verdict}")
    print()

    print("Idle, ms: a menu round-trip to each applet while nothing happens")
    for name in ("lwn-tray-feeds-open", "lwn-tray-feeds", "floor-empty", "floor-rows"):
        idle = phases.get((name, "idle"))
        if idle is not None and idle.menu:
            menu = [sample[1] for sample in idle.menu]
            print(f"  {name:<20} median {statistics.median(menu):.3f}, p99 {stall_probe.percentile(menu, 0.99):.2f}, "
                  f"worst {max(menu):.2f} ({len(menu)} calls)")
    print()
    print("Stall, ms: a menu round-trip less the applet's idle median, as bench/stall_probe.py reports")
    print("it (worst, p99, typ: the median over the N events of the longest after each; beside the")
    print("worst: the main thread's cpu and wait, the ping and the tick); work: the longest stall during")
    print("which the main thread was on a CPU for at least half of it and the ping and the tick were")
    print("not held up half as long. Beside the first row, the empty window's open.")
    print()
    print(f"{'phase':<42} {'lwn-tray':^53}   {'empty GtkWindow':^29}   target, ms")
    head = f"{'worst':>6} {'p99':>5} {'typ':>5} {'N':>3} {'cpu':>5} {'wait':>5} {'ping':>5} {'tick':>5}"
    print(f"{'':<42} {head} {'work':>6}   {head[:22]} {'work':>6}")
    for what, name, phase, target in FEEDS_ROWS:
        ours = applets[name].summary(phase, target) if name in applets else None
        work = applets[name].worst_working(phase) if name in applets else None
        floor = applets["floor-empty"].summary("open") if phase == "open" and "floor-empty" in applets else None
        if ours is None:
            verdict = "not measured"
        elif ours["worst"] < target:
            verdict = f"< {target}: met"
        else:
            verdict = (f"< {target}: MISSED, {ours['over']}/{ours['events']} events ({ours['working']} working)"
                       + (f"; working < {target}" if work is not None and work < target else ""))
        floor_text = " " * 29
        if floor:
            floor_text = f"{columns(floor)[:22]} {fmt(applets['floor-empty'].worst_working('open'), 6)}"
        print(f"{what:<42} {columns(ours)} {fmt(work, 6)}   {floor_text}   {verdict}")


def main():
    parser = argparse.ArgumentParser(description="Window opening and main-loop stall probe")
    sub = parser.add_subparsers(dest="command", required=True)
    measure = sub.add_parser("measure")
    stall_probe.add_measure_arguments(measure)
    measure.add_argument("--app-id", default="io.github.lwntray.LwnTray", help="the application's bus name")
    for command in ("report", "report-feeds"):
        sub.add_parser(command).add_argument("--samples", required=True)
    args = parser.parse_args()

    if args.command == "report":
        report(args)
        return
    if args.command == "report-feeds":
        report_feeds(args)
        return
    sys.setswitchinterval(0.0005)
    WindowProbe(args).run(args.phases)


if __name__ == "__main__":
    main()
