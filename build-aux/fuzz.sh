#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang, ASan and UBSan in ./build-fuzz and runs each for a while.
#
# Usage: build-aux/fuzz.sh [SECONDS [TARGET...]]
#   SECONDS  how long to fuzz each target (default 30)
#   TARGET   feed-parser, text, text-markup, url, store, opml or feed-find (default: all seven, one after another)
# Extra libFuzzer options can be passed in FUZZ_ARGS. New inputs go to
# build-fuzz/corpus/TARGET (the committed seeds in tests/fuzz/corpus are only
# read), crashes to build-fuzz/artifacts/TARGET, and each log to
# build-fuzz/fuzz-logs/TARGET.log. Exits non-zero if any target crashed,
# leaked, timed out or ran out of memory.
set -eu
cd "$(dirname "$0")/.."

seconds="${1:-30}"
if [ $# -gt 0 ]; then
  shift
fi
targets="${*:-feed-parser text text-markup url store opml feed-find}"
build="build-fuzz"
source_dir="$(pwd)"

case "$seconds" in
  '' | *[!0-9]*)
    echo "usage: $0 [SECONDS [TARGET...]]" >&2
    exit 2
    ;;
esac

sh build-aux/install-deps.sh --test

options="-Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false"
if [ -f "$build/build.ninja" ]; then
  # shellcheck disable=SC2086
  meson setup --reconfigure $options "$build" >/dev/null
else
  # shellcheck disable=SC2086
  CC=clang meson setup $options "$build" >/dev/null
fi
if ! grep -q 'fuzz-feed-parser' "$build/build.ninja"; then
  echo "$build is not set up with clang; remove it and run this again" >&2
  exit 1
fi

set --
for target in $targets; do
  set -- "$@" "tests/fuzz/fuzz-$target"
done
meson compile -C "$build" "$@" >/dev/null

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS="suppressions=$source_dir/tests/fuzz/lsan.supp"
export LC_ALL=C.UTF-8
# The store target writes, syncs and renames state.ini several times per
# input: on a real disk that, not the code, would set the pace.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  export TMPDIR=/dev/shm
fi

status=0
printf '%-12s %12s %8s %16s  %s\n' target executions exec/s corpus/bytes result
for target in $targets; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  log="$build/fuzz-logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"

  rc=0
  # shellcheck disable=SC2086
  "$build/tests/fuzz/fuzz-$target" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -dict="tests/fuzz/$target.dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 ${FUZZ_ARGS:-} \
    "$corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1 || rc=$?

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  size=$(sed -n 's/^#[0-9]*.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' "$log" | tail -n 1)

  if [ "$rc" -eq 0 ]; then
    result=ok
  else
    status=1
    if grep -q 'ERROR: LeakSanitizer' "$log"; then
      result=leak
    elif grep -q 'ALARM: working on the last Unit' "$log"; then
      result=timeout
    elif grep -q 'out-of-memory' "$log"; then
      result=out-of-memory
    elif grep -q 'runtime error:' "$log"; then
      result=undefined-behaviour
    else
      result=crash
    fi
    artifact=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | tail -n 1)
    result="$result (exit $rc${artifact:+, input in $artifact})"
  fi

  printf '%-12s %12s %8s %16s  %s\n' "$target" "${runs:-?}" "${speed:-?}" "${size:-?}" "$result"
  if [ "$rc" -ne 0 ]; then
    tail -n 40 "$log" | sed 's/^/    /'
  fi
done

exit "$status"
