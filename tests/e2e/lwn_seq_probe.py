#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Times lwn-tray's menu from outside, in a process of its own, for tests/e2e/test-sequences.py.

Every PERIOD_MS it sends the applet a dbusmenu GetLayout and, at the same moment, GetId to
the bus daemon. What counts is how long the applet's main loop kept the menu waiting:

    answer = GetLayout round trip - GetId round trip - the time the applet (its main
             thread and GDBus worker) and the processes it waits for (the session bus,
             the X server, the accessibility bus and registry) and the probe itself
             spent waiting for a CPU meanwhile (run-queue time in
             /proc/PID/task/TID/schedstat)

Why: on a loaded two-core machine (builds and test suites of other people beside this one)
a runnable process can wait a hundred milliseconds for a core, which says nothing about the
applet. The bus round trip takes out the transit through dbus-daemon; the run-queue times
take out the waiting for a CPU of every process the answer may wait for, such as an X
server that a first window's round trips wait on (a little too much at worst: the
lenient side). What remains is the main loop running something else, or
sleeping in a system call, before it answers, plus building the answer: what a blocked main
loop costs a person at the panel. A round trip to the mock tray host's main loop at the same
moment is reported beside it, for comparison; it is no baseline, since a Python process and
the applet need not get a CPU at the same time. A separate process, so that the test's own
work (and Python's GIL) never sits inside a measurement.

Reads commands on stdin, one per line:
  target NAME PATH   probe the menu at bus name NAME, object PATH
  helpers PID...     the processes whose CPU waits do not count against the applet
  idle               stop probing (the applet is restarting)
  report             print one JSON line with the worst sample since the last report
"""

import json
import os
import sys
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

PERIOD_MS = 25
SLOW_MS = 25
TIMEOUT_MS = 10000
WATCHER_NAME = "org.kde.StatusNotifierWatcher"
WATCHER_PATH = "/StatusNotifierWatcher"
DBUS = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")


def run_queue_ms(pid, every_thread=False):
    """How long a process has waited for a CPU so far, in ms: its main thread and GDBus's
    worker, which reads and writes its messages, or every thread. None if unknown."""
    total = 0.0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                name = f.read().strip()
            if not every_thread and int(tid) != pid and name != "gdbus":
                continue
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None
    return total


def waits(applet, helpers):
    """The CPU waits of the processes a call may wait for: the applet, and its helpers (the
    bus daemons, the X server, the accessibility registry, this probe). A helper that has
    gone counts nothing."""
    total = run_queue_ms(applet)
    if total is None:
        return None
    for pid in helpers:
        total += run_queue_ms(pid, every_thread=True) or 0.0
    return total


class Probe:
    def __init__(self, address):
        self.helpers = [os.getpid()]
        self.best_work = float("inf")
        self.bus = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )
        self.target = None
        self.pid = None
        self.busy = False
        self.pending = ""
        self.reset()
        GLib.timeout_add(PERIOD_MS, self.tick)
        channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
        GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, self.command)
        self.loop = GLib.MainLoop()

    def reset(self):
        self.samples = 0
        self.errors = 0
        self.worst = None
        self.worst_round_trip = 0.0

    def call_sync(self, method, args, reply):
        result = self.bus.call_sync(
            *DBUS, method, args, GLib.VariantType.new(reply), Gio.DBusCallFlags.NONE, TIMEOUT_MS, None
        )
        return result.unpack()[0]

    def command(self, channel, condition):
        # Read what the pipe holds, not one buffered line: the commands that came
        # with it would wait in Python's buffer, where the watch never sees them.
        data = os.read(sys.stdin.fileno(), 65536)
        if not data:
            self.loop.quit()
            return False
        self.pending += data.decode()
        while "\n" in self.pending:
            line, self.pending = self.pending.split("\n", 1)
            self.handle(line)
        return True

    def handle(self, line):
        words = line.split()
        if words[:1] == ["target"] and len(words) == 3:
            self.target = (words[1], words[2])
            try:
                self.pid = self.call_sync("GetConnectionUnixProcessID", GLib.Variant("(s)", (words[1],)), "(u)")
            except GLib.Error:
                self.pid = None
        elif words[:1] == ["helpers"]:
            self.helpers = [os.getpid()] + [int(word) for word in words[1:]]
        elif words[:1] == ["idle"]:
            self.target = None
        elif words[:1] == ["report"]:
            print(
                json.dumps(
                    {
                        "samples": self.samples,
                        "errors": self.errors,
                        "worst": self.worst,
                        "worst_round_trip_ms": round(self.worst_round_trip, 1),
                    }
                ),
                flush=True,
            )
            self.reset()

    def owner(self, name):
        try:
            return self.call_sync("GetNameOwner", GLib.Variant("(s)", (name,)), "(s)")
        except GLib.Error:
            return None

    def tick(self):
        if self.target is None or self.busy:
            return True
        name, path = self.target
        self.busy = True
        results = {}
        watcher = self.owner(WATCHER_NAME)
        applet, helpers = self.pid, list(self.helpers)
        waited = waits(applet, helpers) if applet else None
        extra = self.extra(applet)
        started = time.monotonic()
        expected = 3 if watcher else 2

        def done(connection, result, which):
            try:
                connection.call_finish(result)
                results[which] = (time.monotonic() - started) * 1000
            except GLib.Error:
                results[which] = None
            if len(results) == expected:
                after = waits(applet, helpers) if applet else None
                results["run_queue"] = after - waited if waited is not None and after is not None else 0.0
                extra_after = self.extra(applet)
                results["extra"] = (
                    [round(b - a, 1) for a, b in zip(extra[:2], extra_after[:2])]
                    + [round(extra[2], 3), round(extra_after[2], 3)]
                    if extra and extra_after else None
                )
                self.record(results)

        flags = Gio.DBusCallFlags.NO_AUTO_START
        self.bus.call(*DBUS, "GetId", None, None, flags, TIMEOUT_MS, None, done, "bus")
        self.bus.call(
            name, path, "com.canonical.dbusmenu", "GetLayout", GLib.Variant("(iias)", (0, -1, [])),
            None, flags, TIMEOUT_MS, None, done, "menu",
        )
        if watcher:
            self.bus.call(
                watcher, WATCHER_PATH, "org.freedesktop.DBus.Properties", "Get",
                GLib.Variant("(ss)", (WATCHER_NAME, "RegisteredStatusNotifierItems")),
                None, flags, TIMEOUT_MS, None, done, "watcher",
            )
        return True

    def extra(self, applet):
        """For the log: the applet's main thread on a CPU, all its threads waiting for one,
        and how long a fixed piece of this probe's own work took on its CPU."""
        if not applet:
            return None
        try:
            with open("/proc/%d/task/%d/schedstat" % (applet, applet)) as f:
                on_cpu = int(f.read().split()[0]) / 1e6
        except (OSError, ValueError):
            return None
        started = time.thread_time()
        total = 0
        for number in range(20000):
            total += number
        work = (time.thread_time() - started) * 1000
        return [on_cpu, run_queue_ms(applet, every_thread=True) or 0.0, work]

    def record(self, results):
        self.busy = False
        menu, bus = results["menu"], results["bus"]
        if menu is None or bus is None:
            # The applet is exiting; the test sees that for itself.
            self.errors += 1
            return
        self.samples += 1
        self.worst_round_trip = max(self.worst_round_trip, menu)
        answer = menu - bus - results["run_queue"]
        extra = results.get("extra")
        slowdown = None
        if extra:
            self.best_work = min(self.best_work, extra[2], extra[3])
            slowdown = round(max(extra[2], extra[3]) / self.best_work, 1) if self.best_work > 0 else None
        if answer > SLOW_MS:
            # For the test's diagnostics, with the time of day to find it in the applet's log.
            print(
                "%s.%03d the menu answered in %.1f ms: a round trip of %.1f ms, %.1f ms to the bus, %.1f ms of CPU "
                "waits, %s ms to the tray host; the applet's main thread ran %s ms, its threads waited %s ms; "
                "the machine ran %s times slower than at its best"
                % (time.strftime("%H:%M:%S"), int(time.time() * 1000) % 1000, answer, menu, bus,
                   results["run_queue"], results.get("watcher") and round(results["watcher"], 1),
                   extra and extra[0], extra and extra[1], slowdown),
                file=sys.stderr, flush=True,
            )
        if self.worst is None or answer > self.worst["answer_ms"]:
            self.worst = {
                "machine_slowdown": slowdown,
                "answer_ms": round(answer, 1),
                "round_trip_ms": round(menu, 1),
                "bus_ms": round(bus, 1),
                "run_queue_ms": round(results["run_queue"], 1),
                "tray_host_ms": round(results["watcher"], 1) if results.get("watcher") is not None else None,
            }


def main():
    probe = Probe(sys.argv[1])
    probe.loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
