#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and runs the whole test suite,
# then the code tests again under the sanitizers (build-aux/test-sanitizers.sh),
# then each fuzz target for a short while (build-aux/fuzz.sh).
set -eu
cd "$(dirname "$0")/.."

sh build-aux/install-deps.sh

sh build-aux/configure.sh build

status=0
meson test -C build --print-errorlogs --num-processes 2 "$@" || status=$?

# The same code tests again, built with AddressSanitizer and UBSan.
sh build-aux/test-sanitizers.sh "$@" || status=$?

# Each fuzz target for 30 s: long runs are for development (build-aux/fuzz.sh 600).
mkdir -p build/meson-logs
sh build-aux/fuzz.sh "${LWN_FUZZ_SECONDS:-30}" >build/meson-logs/fuzz.txt 2>&1 || status=$?
cat build/meson-logs/fuzz.txt

# Closing lines every CI reader understands, from meson's own logs: one per
# pass, then the total. A sanitizer report counts as one more failure, since
# the process it came from may be one whose exit status no test checked.
/usr/bin/python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog-asan.json \
  build-asan/meson-logs/sanitizers build/meson-logs/fuzz.txt <<'PY'
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


def count_fuzz(path):
    # One row per target from build-aux/fuzz.sh; its last column says "ok" or what went wrong.
    passed = failed = 0
    try:
        with open(path) as log:
            for line in log:
                fields = line.split()
                if len(fields) >= 5 and fields[0] in ("feed-parser", "text", "text-markup", "url", "store"):
                    if fields[4] == "ok":
                        passed += 1
                    else:
                        failed += 1
    except FileNotFoundError:
        failed += 1
    if passed + failed == 0:
        failed += 1
    return [passed, failed, 0]


suite = count(sys.argv[1])
sanitizers = count(sys.argv[2])
if os.path.isdir(sys.argv[3]):
    sanitizers[1] += len(os.listdir(sys.argv[3]))
fuzzing = count_fuzz(sys.argv[4])
passes = (("test suite", suite), ("sanitizers", sanitizers), ("fuzzing", fuzzing))
for name, figures in passes:
    print("%s: %d passed, %d failed, %d skipped" % (name, *figures))
print("%d passed, %d failed, %d skipped" % tuple(sum(column) for column in zip(*(f for _, f in passes))))
PY
exit "$status"
