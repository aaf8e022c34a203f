#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: build-aux/soak-sequences.sh COUNT [STEPS [FIRST-SEED]]
#
# Runs tests/e2e/test-sequences.py for COUNT seeds of STEPS steps each (default 40),
# starting at FIRST-SEED (default: a random one, printed), in the ASan + UBSan
# build that build-aux/test-sanitizers.sh makes (./build-asan), with no time
# limit. A failing seed prints its sequence; replay it with
#   meson test -C build-asan --setup asan --verbose sequences \
#     --test-args='--seed N --steps K'
# and add --shrink to the test arguments for the shortest sequence that still
# fails. LWN_SOAK_BUILD=build soaks the plain build instead, which is faster
# and checks the menu's answer time against the real limit.
set -eu
cd "$(dirname "$0")/.."

if [ "$#" -lt 1 ]; then
  echo "usage: $0 COUNT [STEPS [FIRST-SEED]]" >&2
  exit 2
fi
count="$1"
steps="${2:-40}"
first="${3:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}"
build="${LWN_SOAK_BUILD:-build-asan}"

unset LD_PRELOAD
if [ "$build" = build-asan ]; then
  sh build-aux/configure.sh build-asan -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fno-omit-frame-pointer
  setup="--setup asan"
  reports="build-asan/meson-logs/sanitizers"
  rm -rf "$reports"
  mkdir -p "$reports"
else
  sh build-aux/configure.sh "$build"
  setup=""
  reports=""
fi

echo "soaking seeds $first to $((first + count - 1)), $steps steps each, in $build"
status=0
# shellcheck disable=SC2086 # $setup is two words or none
LWN_SEQ_SEEDS="$first:$count" LWN_SEQ_STEPS="$steps" \
  meson test -C "$build" $setup --timeout-multiplier 0 --num-processes 1 --verbose sequences || status=$?

if [ -n "$reports" ]; then
  for report in "$reports"/*; do
    [ -e "$report" ] || continue
    echo "==== $report"
    cat "$report"
    status=1
  done
fi
exit "$status"
