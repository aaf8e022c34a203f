#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and runs the whole test suite.
set -eu
cd "$(dirname "$0")/.."

sh build-aux/install-deps.sh

if [ -f build/build.ninja ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build
fi
meson compile -C build

status=0
meson test -C build --print-errorlogs --num-processes 2 "$@" || status=$?

# A closing line every CI reader understands, from meson's own log.
/usr/bin/python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "ERROR": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0}
with open(sys.argv[1]) as log:
    for line in log:
        result = json.loads(line).get("result", "ERROR")
        counts[result] = counts.get(result, 0) + 1
passed = counts["OK"] + counts["EXPECTEDFAIL"]
failed = counts["FAIL"] + counts["TIMEOUT"] + counts["ERROR"] + counts["UNEXPECTEDPASS"]
print("%d passed, %d failed, %d skipped" % (passed, failed, counts["SKIP"]))
PY
exit "$status"
