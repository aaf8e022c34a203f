#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Starts and stops lwn-tray many times against one StatusNotifierWatcher and checks
that every start registers its tray item. libayatana-appindicator 0.5.92 loses a race
between its two session bus lookups now and then (a critical, then no item); the
applet makes that rarer by letting both find an idle worker thread (see
create_indicator_when_ready() in lwn-tray.c)."""

import os
import sys
import time

import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
CYCLES = int(os.environ.get("LWN_E2E_CYCLES", "40"))
# Registration normally takes a fraction of a second; a lost one never happens, so
# a short bound keeps the whole run well under a minute even when one is lost.
REGISTER_TIMEOUT = 10.0


def test_many_starts(s):
    s.server.set_body(e2e.lwn_fixture())
    senders = set()
    lost = []
    started = time.monotonic()
    for cycle in range(1, CYCLES + 1):
        applet = s.launch()
        try:
            sender, path = applet.wait_registered(timeout=REGISTER_TIMEOUT)
        except e2e.Timeout:
            applet.kill()
            lost.append((cycle, applet.log()))
            continue
        assert path.startswith("/"), path
        assert sender not in senders, "sender %s registered twice" % sender
        senders.add(sender)
        code = applet.stop()
        assert code == 0, "cycle %d: lwn-tray exited with %r" % (cycle, code)
    elapsed = time.monotonic() - started
    print("# %d starts in %.1fs" % (CYCLES, elapsed))
    assert not lost, "registration lost in cycle(s) %r of %d; output of the first:\n%s" % (
        [cycle for cycle, _log in lost],
        CYCLES,
        lost[0][1] if lost else "",
    )
    assert len(senders) == CYCLES, senders


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-registration.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    tests = [("%d starts all register with the watcher" % CYCLES, test_many_starts)]
    return e2e.run_tap(tests, lambda func: e2e.Scenario(BINARY))


if __name__ == "__main__":
    sys.exit(main())
