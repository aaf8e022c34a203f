#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and runs the whole test suite,
# then the code tests again under the sanitizers (build-aux/test-sanitizers.sh).
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

# The same code tests again, built with AddressSanitizer and UBSan.
sh build-aux/test-sanitizers.sh "$@" || status=$?

# Closing lines every CI reader understands, from meson's own logs: one per
# pass, then the total. A sanitizer report counts as one more failure, since
# the process it came from may be one whose exit status no test checked.
/usr/bin/python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog-asan.json \
  build-asan/meson-logs/sanitizers <<'PY'
import json, os, sys


def count(path):
    counts = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "ERROR": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0}
    try:
        with open(path) as log:
            for line in log:
                result = json.loads(line).get("result", "ERROR")
                counts[result] = counts.get(result, 0) + 1
    except FileNotFoundError:
        # The pass stopped before running any test.
        counts["ERROR"] += 1
    passed = counts["OK"] + counts["EXPECTEDFAIL"]
    failed = counts["FAIL"] + counts["TIMEOUT"] + counts["ERROR"] + counts["UNEXPECTEDPASS"]
    return [passed, failed, counts["SKIP"]]


suite = count(sys.argv[1])
sanitizers = count(sys.argv[2])
if os.path.isdir(sys.argv[3]):
    sanitizers[1] += len(os.listdir(sys.argv[3]))
for name, figures in (("test suite", suite), ("sanitizers", sanitizers)):
    print("%s: %d passed, %d failed, %d skipped" % (name, *figures))
print("%d passed, %d failed, %d skipped" % tuple(a + b for a, b in zip(suite, sanitizers)))
PY
exit "$status"
