#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: build-aux/start-loop.sh N [BUILD_DIR]
# Starts lwn-tray from BUILD_DIR (default build-asan) N times against the
# project's stand-in tray host, on a private bus and X server, with
# G_DEBUG=fatal-criticals. Each start must register its item and answer the
# menu's GetLayout; then it is quit with SIGTERM. Prints how many starts logged
# a critical, failed to register or exited with a status other than 0, and
# exits with 1 if any did. Run from the top of the source tree.
set -eu
count="${1:?usage: build-aux/start-loop.sh N [BUILD_DIR]}"
build="${2:-build-asan}"
binary="$build/src/lwn-tray"
[ -x "$binary" ] || { echo "start-loop: no $binary; build it first" >&2; exit 2; }

top="$(pwd)"
logs="$build/meson-logs/start-loop"
mkdir -p "$logs"
# The sanitizers write their reports beside the logs, so that a report of a
# start that still exited 0 counts too.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:log_path=$top/$logs/asan${LWN_START_LOOP_ASAN:+:$LWN_START_LOOP_ASAN}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$top/$logs/ubsan"
export LSAN_OPTIONS="suppressions=$top/tests/sanitizers/lsan.supp:print_suppressions=0"
export G_DEBUG=fatal-criticals
export PYTHONPATH="$top/tests/e2e${PYTHONPATH:+:$PYTHONPATH}"
export LWN_START_LOOP_COUNT="$count" LWN_START_LOOP_BINARY="$binary" LWN_START_LOOP_LOGS="$logs"
rm -f "$logs"/asan.* "$logs"/ubsan.* "$logs"/failed-*.log

# The system Python: the tests need its python3-gi and python3-dbus.
exec sh build-aux/test-session.sh /usr/bin/python3 - <<'PYTHON'
import os
import shutil
import sys
import time

import lwn_e2e as e2e

count = int(os.environ["LWN_START_LOOP_COUNT"])
binary = os.environ["LWN_START_LOOP_BINARY"]
logs = os.environ["LWN_START_LOOP_LOGS"]
criticals = unregistered = bad_exits = 0
started = time.monotonic()
with e2e.Scenario(binary) as s:
    s.server.set_body(e2e.lwn_fixture())
    for number in range(1, count + 1):
        applet = s.launch()
        failed = []
        try:
            applet.wait_registered(timeout=60)
            e2e.wait_for(lambda: len(applet.menu().items()) > 0, "the menu's items", 60)
        except (e2e.Timeout, AssertionError) as error:
            unregistered += 1
            failed.append("not registered: %s" % error)
        if applet.alive():
            code = applet.stop()
        else:
            code = applet.proc.wait()
            applet.log_file.close()
        if code != 0:
            bad_exits += 1
            failed.append("exit status %r" % code)
        log = applet.log()
        if "CRITICAL" in log:
            criticals += 1
            failed.append("critical")
        if failed:
            shutil.copy(applet.log_path, os.path.join(logs, "failed-%d.log" % number))
            print("start %d: %s" % (number, ", ".join(failed)), flush=True)
        elif number % 25 == 0:
            print("%d starts, %.1f s each" % (number, (time.monotonic() - started) / number), flush=True)
        # Each start's log is kept only when it failed.
        os.unlink(applet.log_path)
elapsed = time.monotonic() - started
reports = [name for name in os.listdir(logs) if name.startswith(("asan.", "ubsan."))]
print("%d starts in %.0f s (%.2f s each): %d with a critical, %d not registered, %d non-zero exits, %d sanitizer reports"
      % (count, elapsed, elapsed / count, criticals, unregistered, bad_exits, len(reports)))
sys.exit(1 if criticals or unregistered or bad_exits or reports else 0)
PYTHON
