#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: build-aux/test-under-load.sh [RUNS [MESON_TEST_OPTION...]]
#
# Runs the whole normal suite in ./build RUNS times in a row (default 3) while
# stress-ng keeps every core busy at the lowest priority, as a CI machine shared
# with other jobs would be. No functional test may time its subject, so every
# run must pass; each run's summary goes to build/meson-logs/under-load-N.txt.
set -eu
cd "$(dirname "$0")/.."

runs="${1:-3}"
[ "$#" -gt 0 ] && shift
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "stress-ng is missing: sh build-aux/install-deps.sh --test installs it" >&2
  exit 2
fi

sh build-aux/configure.sh build >/dev/null
nice -n 19 stress-ng --cpu 0 --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || :' EXIT INT TERM

status=0
run=1
while [ "$run" -le "$runs" ]; do
  started=$(date +%s)
  run_status=0
  meson test -C build --num-processes 2 "$@" >"build/meson-logs/under-load-$run.txt" 2>&1 || run_status=$?
  summary=$(grep -E '^(Ok|Fail|Timeout|Skipped):' "build/meson-logs/under-load-$run.txt" | tr -s ' ' | tr '\n' ' ')
  echo "run $run: exit status $run_status in $(($(date +%s) - started)) s, load $(cut -d' ' -f1 /proc/loadavg): $summary"
  grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT)' "build/meson-logs/under-load-$run.txt" || :
  [ "$run_status" -eq 0 ] || status=1
  run=$((run + 1))
done
exit "$status"
