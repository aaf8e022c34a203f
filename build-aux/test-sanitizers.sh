#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds in ./build-asan with AddressSanitizer and UndefinedBehaviorSanitizer
# and runs every code test there (the 'asan' setup in tests/meson.build).
set -eu
cd "$(dirname "$0")/.."

# The ASan runtime has to be the first library loaded.
unset LD_PRELOAD

# Frame pointers in our own code keep the fast unwinder's stacks complete
# up to the first system library.
sh build-aux/configure.sh build-asan -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-omit-frame-pointer

# Nothing from an earlier run may be taken for this one's result.
reports=build-asan/meson-logs/sanitizers
rm -rf "$reports" build-asan/meson-logs/testlog-asan.json
mkdir -p "$reports"

status=0
meson test -C build-asan --setup asan --print-errorlogs --num-processes 2 "$@" || status=$?

# A report from a process whose exit status no test looked at fails the run too.
for report in "$reports"/*; do
  [ -e "$report" ] || continue
  echo "==== $report"
  cat "$report"
  status=1
done
exit "$status"
