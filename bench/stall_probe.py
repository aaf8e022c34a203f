#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures from outside how long a tray applet's main loop stays unavailable: dbusmenu round-trips, one at a time, while phases run.
#
# Usage:
#   stall_probe.py measure --name BUS_NAME --item-path PATH --applet LABEL --samples FILE
#                          [--server URL --server-log FILE] [--pid PID] [--runs N]
#                          [--realtime PRIORITY --bus-pid PID] PHASE...
#   stall_probe.py report --samples FILE
#   stall_probe.py figures --samples FILE
# and a module: bench/window-probe.py builds on its Probe, Applet and add_measure_arguments.
#
# measure: three threads, each with its own GMainContext, run side by side; the first two
# call the applet on connections of their own, one call at a time, 1 ms apart, and time
# every round-trip:
#   menu  com.canonical.dbusmenu.GetGroupProperties on the item's menu. libdbusmenu
#         answers it on the applet's main loop, so it is late when the main loop is busy.
#         The applet's main thread's schedstat, read around each call, tells how much of
#         a late answer it spent on a CPU (working) and waiting for one.
#   ping  org.freedesktop.DBus.Peer.Ping, which GDBus answers on its own thread without
#         the main loop: late when the bus, the whole process (a fork) or the machine is.
#   tick  no call: sleeps 1 ms over and over, and records how late it wakes: late when
#         the machine is (a virtual machine's CPUs do not always run when asked).
# Meanwhile the main thread runs the phases in order, each a LABEL=KIND[:ARGS]:
#   LABEL=idle:SECONDS        hold the feed server's answers back (if there is a server),
#                             let a second pass, then sample for SECONDS
#   LABEL=release:SECONDS     let the held answers go, then sample for SECONDS
#   LABEL=refresh:MODE:KEY    switch the server to MODE; once it has given a KEY answer
#                             (e.g. same-304), sample while it gives N more
#   LABEL=click               hold the server back, then send dbusmenu "clicked" events to
#                             N unread headlines (a filled radio mark), one a second
#   LABEL=signal:SIGNAL       send SIGNAL (e.g. USR1) to --pid N times, one a second
# Every sample sent during a phase is appended to the samples file with the phase's
# window and its events (server answers, clicks, signals), for the report.
# With --realtime, every thread a round-trip passes through runs SCHED_FIFO at that
# priority: the applet's main and GDBus threads (not its workers), the bus daemon, and
# the probe's threads. Other work on the machine then delays none of them.
#
# report: per applet and phase, how much longer than usual the main loop took to answer:
# a menu round-trip less the median one in that applet's idle phase, with, beside the
# worst, what the main thread, the ping and the tick did meanwhile.
#
# figures: one line per applet and phase, for a script to read: "APPLET PHASE EVENTS WORST
# MEDIAN", where WORST is the median over the phase's events of the longest menu round-trip
# after each (idle: each second), and MEDIAN the median round-trip, both in ms.

import argparse
import os
import signal
import statistics
import sys
import threading
import time
import urllib.request

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

MENU_INTERFACE = "com.canonical.dbusmenu"
ITEM_INTERFACE = "org.kde.StatusNotifierItem"
GAP_S = 0.001
CALL_TIMEOUT_MS = 10000


class Sampler(threading.Thread):
    """Round-trips of one kind to the applet, one at a time, on a connection of its own."""

    def __init__(self, kind, address, name, menu_path, priority, pid):
        super().__init__(daemon=True)
        self.kind = kind
        self.pid = pid
        self.address = address
        self.name = name
        self.menu_path = menu_path
        self.priority = priority
        self.samples = []  # (sent, ns since the epoch; round-trip, ns; the main thread's ns on a CPU, waiting for one)
        self.running = True
        self.ready = threading.Event()
        self.error = None

    def run(self):
        context = GLib.MainContext.new()
        context.push_thread_default()
        try:
            if self.priority:
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(self.priority))
            if self.kind == "tick":
                self.ready.set()
                self.tick()
                return
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            connection = Gio.DBusConnection.new_for_address_sync(self.address, flags, None, None)
            if self.kind == "menu":
                call = (self.name, self.menu_path, MENU_INTERFACE, "GetGroupProperties",
                        GLib.Variant("(aias)", ([0], ["type"])), GLib.VariantType("(a(ia{sv}))"))
            else:
                call = (self.name, "/", "org.freedesktop.DBus.Peer", "Ping", None, None)
            # The applet's main thread's time on a CPU and waiting for one (the first two
            # fields of its schedstat), read around each menu call: of a late answer, how
            # much was work, and how much the machine's.
            schedstat = None
            if self.kind == "menu" and self.pid:
                schedstat = os.open(f"/proc/{self.pid}/task/{self.pid}/schedstat", os.O_RDONLY)
            self.ready.set()
            samples = self.samples
            before = after = (0, 0)
            while self.running:
                if schedstat is not None:
                    before = os.pread(schedstat, 64, 0).split()
                sent = time.time_ns()
                start = time.perf_counter_ns()
                connection.call_sync(*call, Gio.DBusCallFlags.NONE, CALL_TIMEOUT_MS, None)
                rtt = time.perf_counter_ns() - start
                if schedstat is not None:
                    after = os.pread(schedstat, 64, 0).split()
                samples.append((sent, rtt, int(after[0]) - int(before[0]), int(after[1]) - int(before[1])))
                time.sleep(GAP_S)
            if schedstat is not None:
                os.close(schedstat)
            connection.close_sync(None)
        except (GLib.Error, OSError) as error:
            self.error = getattr(error, "message", None) or str(error)
            self.ready.set()
        finally:
            context.pop_thread_default()

    def tick(self):
        """Sleeps 1 ms over and over: how late it wakes is what the machine itself costs
        a thread of the same priority at that moment."""
        samples = self.samples
        while self.running:
            sent = time.time_ns()
            start = time.perf_counter_ns()
            time.sleep(GAP_S)
            samples.append((sent, time.perf_counter_ns() - start, 0, 0))


class Server:
    """The mock feed server: its control URL and the log of its answers."""

    def __init__(self, url, log_path):
        self.url = url
        self.log_path = log_path

    def control(self, **query):
        text = "&".join(f"{key}={value}" for key, value in query.items())
        with urllib.request.urlopen(f"{self.url}/control?{text}", timeout=5) as reply:
            reply.read()

    def answers(self, key):
        """Times (ns since the epoch) of the answers of kind KEY so far."""
        times = []
        with open(self.log_path, encoding="utf-8") as log:
            for line in log:
                fields = line.split()
                if len(fields) >= 2 and fields[1] == key:
                    times.append(int(fields[0]))
        return times

    def wait_answers(self, key, count, timeout):
        deadline = time.monotonic() + timeout
        while True:
            times = self.answers(key)
            if len(times) >= count:
                return times
            if time.monotonic() > deadline:
                raise SystemExit(f"stall_probe: timed out waiting for {count} {key} answers (have {len(times)})")
            # Polled gently: the probe must not compete with the applet for the CPU.
            time.sleep(0.1)


class Probe:
    def __init__(self, args):
        self.args = args
        address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.server = Server(args.server, args.server_log) if args.server else None
        reply = self.bus.call_sync(args.name, args.item_path, "org.freedesktop.DBus.Properties", "Get",
                                   GLib.Variant("(ss)", (ITEM_INTERFACE, "Menu")), GLib.VariantType("(v)"),
                                   Gio.DBusCallFlags.NONE, CALL_TIMEOUT_MS, None)
        (self.menu_path,) = reply.unpack()
        self.samplers = [Sampler(kind, address, args.name, self.menu_path, args.realtime, args.pid)
                         for kind in ("menu", "ping", "tick")]
        self.records = []

    def make_realtime(self):
        """SCHED_FIFO for the threads a round-trip needs; the samplers set their own."""
        param = os.sched_param(self.args.realtime)
        tids = [self.args.bus_pid] if self.args.bus_pid else []
        for pid in (self.args.pid, os.getpid()):
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/comm", encoding="utf-8") as f:
                    name = f.read().strip()
                # The probe's main thread too: preempted while holding the interpreter
                # lock, it would hold the samplers up.
                if int(tid) == pid or name == "gdbus":
                    tids.append(int(tid))
        for tid in tids:
            os.sched_setscheduler(tid, os.SCHED_FIFO, param)

    def record(self, phase, start, end, events):
        self.records.append((phase, start, end, list(events)))

    def hold(self):
        if self.server is not None:
            self.server.control(hold=1)
            # An answer already on its way is handled before the window opens.
            time.sleep(1.0)

    def phase_idle(self, label, seconds):
        self.hold()
        start = time.time_ns()
        time.sleep(float(seconds))
        self.record(label, start, time.time_ns(), [])

    def phase_release(self, label, seconds):
        start = time.time_ns()
        self.server.control(hold=0)
        time.sleep(float(seconds))
        self.record(label, start, time.time_ns(), [start])

    def phase_refresh(self, label, mode, key):
        runs = self.args.runs
        before = len(self.server.answers(key))
        self.server.control(mode=mode, hold=0)
        # The first answer of the new kind may follow a change of mode (a 200 before the
        # 304s): the window opens after it, once the applet has had time to show it.
        self.server.wait_answers(key, before + 1, 30)
        time.sleep(0.3)
        start = time.time_ns()
        first = len(self.server.answers(key))
        self.server.wait_answers(key, first + runs, 3 * runs + 30)
        time.sleep(0.8)
        end = time.time_ns()
        events = [t for t in self.server.answers(key) if start <= t <= end]
        self.record(label, start, end, events)

    def headline_ids(self):
        """The ids of the menu's unread headlines, and how many entries it shows."""
        _revision, root = self.bus.call_sync(
            self.args.name, self.menu_path, MENU_INTERFACE, "GetLayout",
            GLib.Variant("(iias)", (0, 1, ["visible", "toggle-type", "toggle-state"])),
            GLib.VariantType("(u(ia{sv}av))"),
            Gio.DBusCallFlags.NONE, CALL_TIMEOUT_MS, None).unpack()
        ids = []
        visible = 0
        for item_id, props, _children in root[2]:
            if props.get("visible", True):
                visible += 1
                # lwn-tray marks an unread headline with a filled radio indicator.
                if props.get("toggle-type") == "radio" and props.get("toggle-state") == 1:
                    ids.append(item_id)
        return ids, visible

    def phase_click(self, label):
        runs = self.args.runs
        self.hold()
        # Chosen before the window opens: a GetLayout is work for the applet too.
        ids, visible = self.headline_ids()
        print(f"  {label}: {len(ids)} unread headlines among {visible} menu entries", flush=True)
        if len(ids) < runs:
            raise SystemExit(f"stall_probe: {len(ids)} unread headlines in the menu, {runs} needed")
        time.sleep(0.5)
        start = time.time_ns()
        events = []
        for item_id in ids[:runs]:
            events.append(time.time_ns())
            self.bus.call_sync(
                self.args.name, self.menu_path, MENU_INTERFACE, "Event",
                GLib.Variant("(isvu)", (item_id, "clicked", GLib.Variant("s", ""), int(time.time()) & 0xFFFFFFFF)),
                None, Gio.DBusCallFlags.NONE, CALL_TIMEOUT_MS, None)
            time.sleep(max(0.0, events[-1] / 1e9 + 1.0 - time.time()))
        self.record(label, start, time.time_ns(), events)

    def phase_signal(self, label, name):
        number = getattr(signal, "SIG" + name)
        start = time.time_ns()
        events = []
        for _ in range(self.args.runs):
            events.append(time.time_ns())
            os.kill(self.args.pid, number)
            time.sleep(1.0)
        self.record(label, start, time.time_ns(), events)

    def check_samplers(self):
        for sampler in self.samplers:
            if sampler.error is not None:
                raise SystemExit(f"stall_probe: {sampler.kind} sampler: {sampler.error}")

    def run(self, phases):
        if self.args.realtime:
            self.make_realtime()
        for sampler in self.samplers:
            sampler.start()
            sampler.ready.wait()
        try:
            self.check_samplers()
            for spec in phases:
                label, _, action = spec.partition("=")
                kind, *params = action.split(":")
                getattr(self, "phase_" + kind)(label, *params)
                self.check_samplers()
        finally:
            for sampler in self.samplers:
                sampler.running = False
            for sampler in self.samplers:
                sampler.join(CALL_TIMEOUT_MS / 1000 + 1)
        self.write()

    def write(self):
        applet = self.args.applet
        with open(self.args.samples, "a", encoding="utf-8") as out:
            for phase, start, end, events in self.records:
                out.write(f"W {applet} {phase} {start} {end}\n")
                for t in events:
                    out.write(f"E {applet} {phase} {t}\n")
                for sampler in self.samplers:
                    for sent, rtt, cpu, wait in sampler.samples:
                        if start <= sent <= end:
                            out.write(f"S {applet} {phase} {sent} {rtt} {sampler.kind} {cpu} {wait}\n")


# The report ------------------------------------------------------------------------


class Phase:
    """The samples of one applet's phase, over all the runs that measured it."""

    def __init__(self):
        self.windows = []
        self.events = []
        self.menu = []  # (sent ns, round-trip ms, the main thread's ms on a CPU, waiting for one)
        self.ping = []  # (sent ns, round-trip ms)
        self.tick = []  # (slept from ns, slept ms)

    @staticmethod
    def longest_beside(samples, sent, rtt):
        """The longest of SAMPLES that overlapped a menu round-trip, in ms; 0 for none."""
        end = sent + rtt * 1e6
        return max((length for start, length in samples if start < end and start + length * 1e6 > sent), default=0.0)

    def ping_beside(self, sent, rtt):
        return self.longest_beside(self.ping, sent, rtt)

    def tick_beside(self, sent, rtt):
        """How much later than asked the tick woke, at worst, during a menu round-trip."""
        return max(0.0, self.longest_beside(self.tick, sent, rtt) - GAP_S * 1000)

    # What held up a stall of the main loop, each judged against half its length.

    @staticmethod
    def working(stall, cpu):
        """The main thread was on a CPU for most of it: the main loop was working, not
        blocked or held up."""
        return cpu >= stall / 2

    def ping_held(self, stall, sent, rtt):
        """The ping was held up as long: the process or the machine stalled, not the main
        loop alone."""
        return self.ping_beside(sent, rtt) >= stall / 2

    def tick_held(self, stall, sent, rtt):
        """The tick was held up as long: the machine stalled."""
        return self.tick_beside(sent, rtt) >= stall / 2

    def event_spans(self):
        """(from, to) for each event: until the next event or the end of its window. A
        phase without events (idle) counts each second as one."""
        spans = []
        for start, end in self.windows:
            events = sorted(t for t in self.events if start <= t <= end)
            if not self.events:
                events = list(range(start, end - 500_000_000, 1_000_000_000))
            spans += [(t, events[i + 1] if i + 1 < len(events) else end) for i, t in enumerate(events)]
        return spans


def load(path):
    phases = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            phase = phases.setdefault((fields[1], fields[2]), Phase())
            if fields[0] == "W":
                phase.windows.append((int(fields[3]), int(fields[4])))
            elif fields[0] == "E":
                phase.events.append(int(fields[3]))
            elif fields[0] == "S" and fields[5] == "menu":
                phase.menu.append((int(fields[3]), int(fields[4]) / 1e6, int(fields[6]) / 1e6, int(fields[7]) / 1e6))
            elif fields[0] == "S":
                getattr(phase, fields[5]).append((int(fields[3]), int(fields[4]) / 1e6))
    return phases


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Applet:
    """One applet's idle baseline, and its phases measured against it."""

    def __init__(self, phases, name):
        self.phases = phases
        self.name = name
        idle = phases.get((name, "idle"))
        self.median = statistics.median(sample[1] for sample in idle.menu) if idle and idle.menu else None

    def summary(self, phase_name, target=None):
        phase = self.phases.get((self.name, phase_name))
        if phase is None or not phase.menu or self.median is None:
            return None
        stalls = [(rtt - self.median, sent, rtt, cpu, wait) for sent, rtt, cpu, wait in phase.menu]
        maxima = []  # per event, the stall sample that was longest
        for start, end in phase.event_spans():
            during = [sample for sample in stalls if start <= sample[1] < end]
            if during:
                maxima.append(max(during))
        worst = max(stalls)
        over = [sample for sample in maxima if target is not None and sample[0] >= target]
        return {
            "worst": worst[0],
            "p99": percentile([sample[0] for sample in stalls], 0.99),
            "typical": statistics.median(sample[0] for sample in maxima) if maxima else None,
            "events": len(maxima),
            "over": len(over),
            "working": sum(1 for stall, _, _, cpu, _ in over if Phase.working(stall, cpu)),
            "shared": sum(1 for stall, sent, rtt, _, _ in over if phase.ping_held(stall, sent, rtt)),
            "machine": sum(1 for stall, sent, rtt, _, _ in over if phase.tick_held(stall, sent, rtt)),
            "ping": phase.ping_beside(worst[1], worst[2]),
            "tick": phase.tick_beside(worst[1], worst[2]),
            "cpu": worst[3],
            "wait": worst[4],
        }

    def worst_working(self, phase_name):
        """The longest stall during which the main thread was working while neither the
        ping nor the tick was held up as long: the applet's own work, not a wait for the X
        server, nor a virtual CPU that did not run. None if the phase was not measured."""
        phase = self.phases.get((self.name, phase_name))
        if phase is None or self.median is None:
            return None
        # Longest first, so that the first one to pass is the answer: the ping and tick
        # tests each look through all the samples, too slow to make for every round-trip.
        stalls = sorted(((rtt - self.median, sent, rtt, cpu) for sent, rtt, cpu, _wait in phase.menu), reverse=True)
        for stall, sent, rtt, cpu in stalls:
            if Phase.working(stall, cpu) and not phase.ping_held(stall, sent, rtt) \
                    and not phase.tick_held(stall, sent, rtt):
                return stall
        return 0.0


# (what, lwn-tray's applet label and phase, floor-applet's phase or None, target in ms)
ROWS = [
    ("304 Not Modified (LWN's feed)", "lwn-tray", "304", "idle", 8),
    ("changed, 15 items (LWN's feed)", "lwn-tray", "changed-15", "relabel", 8),
    ("changed, 1,000 items", "lwn-tray", "changed-1000", "relabel", 16),
    ("click: read + save + open (LWN's)", "lwn-tray", "click", None, 8),
    ("20 new items announced, running", "lwn-tray", "announce-20", "relabel", 8),
    ("20 new items announced, first run", "lwn-tray-first", "announce-20-first", None, 8),
    ("50 items × 60 KB descriptions", "lwn-tray-50", "changed-long", "relabel", 16),
    ("click among 50 items × 60 KB", "lwn-tray-50", "click-long", None, 16),
    ("20 new, notifications never answer", "lwn-tray-hung", "announce-20-hung", None, 8),
]


def fmt(value, width):
    return f"{'—' if value is None else f'{value:.1f}':>{width}}"


def columns(entry):
    if entry is None:
        return f"{'—':>6} {'':>5} {'':>5} {'':>3} {'':>5} {'':>5} {'':>5} {'':>5}"
    return (f"{fmt(entry['worst'], 6)} {fmt(entry['p99'], 5)} {fmt(entry['typical'], 5)} {entry['events']:>3} "
            f"{fmt(entry['cpu'], 5)} {fmt(entry['wait'], 5)} {fmt(entry['ping'], 5)} {fmt(entry['tick'], 5)}")


def report(args):
    phases = load(args.samples)
    applets = {name: Applet(phases, name) for name, _ in phases}

    print("Idle, ms        menu round-trip         ping round-trip       tick: late by")
    print(f"{'':<14}{'median':>7} {'p99':>6} {'worst':>6}   {'median':>6} {'p99':>6} {'worst':>6}   "
          f"{'median':>6} {'p99':>6} {'worst':>6}")
    # lwn-tray-nm is idle while NetworkManager never answers: GLib's monitor of it is
    # being made in a worker all along.
    for name in ("lwn-tray", "lwn-tray-first", "lwn-tray-50", "lwn-tray-nm", "lwn-tray-hung", "floor-applet"):
        idle = phases.get((name, "idle"))
        if idle is None or not idle.menu:
            continue
        menu = [sample[1] for sample in idle.menu]
        ping = [rtt for _, rtt in idle.ping] or [0.0]
        tick = [length - GAP_S * 1000 for _, length in idle.tick] or [0.0]
        print(f"  {name:<14} {statistics.median(menu):5.3f} {percentile(menu, 0.99):6.2f} {max(menu):6.2f}   "
              f"{statistics.median(ping):6.3f} {percentile(ping, 0.99):6.2f} {max(ping):6.2f}   "
              f"{statistics.median(tick):6.3f} {percentile(tick, 0.99):6.2f} {max(tick):6.2f}   "
              f"{len(menu)} calls, {sum(end - start for start, end in idle.windows) / 1e9:.0f} s")
    print()
    print("Stall, ms: a menu round-trip less the applet's idle median. worst: the longest; p99: the")
    print("99th percentile of all round-trips; typ: the median over the N events of the longest after")
    print("each (idle: each second). Beside the worst: cpu, wait: the main thread's time on a CPU and")
    print("waiting for one (the rest, it was blocked in a system call or its virtual CPU did not")
    print("run); ping: the longest ping round-trip (as long: the process or the machine was held up")
    print("too); tick: how late the tick woke (the machine). floor-applet: idle, or relabelling its")
    print("three items (SIGUSR1). A target is missed when the worst reaches it; then: how many events")
    print("reached it, and of those, in how many the main thread was mostly on a CPU (working), the")
    print("ping was late by half as much (ping), the tick was (tick).")
    print()
    print(f"{'phase':<34} {'lwn-tray':^46}   {'floor-applet':^30}   target, ms")
    head = f"{'worst':>6} {'p99':>5} {'typ':>5} {'N':>3} {'cpu':>5} {'wait':>5} {'ping':>5} {'tick':>5}"
    print(f"{'':<34} {head}   {'':<8}{head[:22]}")
    for what, name, phase, floor_phase, target in [("idle", "lwn-tray", "idle", "idle", None)] + ROWS:
        ours = applets[name].summary(phase, target) if name in applets else None
        floor = applets["floor-applet"].summary(floor_phase) if floor_phase and "floor-applet" in applets else None
        if target is None:
            verdict = ""
        elif ours is None:
            verdict = "not measured"
        elif ours["worst"] < target:
            verdict = f"< {target}: met"
        else:
            verdict = (f"< {target}: MISSED, {ours['over']}/{ours['events']} events "
                       f"({ours['working']} working, {ours['shared']} ping, {ours['machine']} tick)")
            if not ours["over"]:
                verdict = f"< {target}: MISSED, between events"
        floor_text = f"{floor_phase:<8}{columns(floor)[:22]}" if floor else " " * 30
        print(f"{what:<34} {columns(ours)}   {floor_text}   {verdict}")

    injected = applets["floor-applet"].summary("injected") if "floor-applet" in applets else None
    if injected is not None:
        print()
        print(f"Check: floor-applet kept busy 10 ms by SIGUSR2, {injected['events']} times: stall worst "
              f"{injected['worst']:.1f}, typ {fmt(injected['typical'], 0)}, cpu at the worst {injected['cpu']:.1f} ms.")


def figures(args):
    for (applet, name), phase in sorted(load(args.samples).items()):
        if not phase.menu:
            continue
        worst = []
        for start, end in phase.event_spans():
            during = [rtt for sent, rtt, _cpu, _wait in phase.menu if start <= sent < end]
            if during:
                worst.append(max(during))
        if worst:
            print(f"{applet} {name} {len(worst)} {statistics.median(worst):.3f} "
                  f"{statistics.median(rtt for _sent, rtt, _cpu, _wait in phase.menu):.3f}")


def add_measure_arguments(parser):
    """The options and phases of `measure`, for Probe and the probes built on it."""
    parser.add_argument("--name", required=True, help="the applet's unique bus name")
    parser.add_argument("--item-path", required=True, help="its StatusNotifierItem object path")
    parser.add_argument("--applet", required=True, help="a label for the report, without spaces")
    parser.add_argument("--samples", required=True, help="the file to append samples to")
    parser.add_argument("--server", help="the mock feed server's base URL")
    parser.add_argument("--server-log", help="the mock feed server's --log file")
    parser.add_argument("--pid", type=int, help="the applet's process, for signals and --realtime")
    parser.add_argument("--runs", type=int, default=10, help="events per phase")
    parser.add_argument("--realtime", type=int, default=0, metavar="PRIORITY",
                        help="run the threads on the round-trips' path SCHED_FIFO at PRIORITY (needs root)")
    parser.add_argument("--bus-pid", type=int, help="the bus daemon, for --realtime")
    parser.add_argument("phases", nargs="+")


def main():
    parser = argparse.ArgumentParser(description="Main-loop stall probe for tray applets")
    sub = parser.add_subparsers(dest="command", required=True)
    add_measure_arguments(sub.add_parser("measure"))
    for command in ("report", "figures"):
        sub.add_parser(command).add_argument("--samples", required=True)
    args = parser.parse_args()

    if args.command == "report":
        report(args)
        return
    if args.command == "figures":
        figures(args)
        return
    # A sampler waiting for the interpreter lock would count the wait as the applet's.
    sys.setswitchinterval(0.0005)
    Probe(args).run(args.phases)


if __name__ == "__main__":
    main()
