#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What following ten feeds costs at rest beside following one: memory and wake-ups, with the minimal GTK 3 + AppIndicator program measured in the same run.
#
# Usage, from the top of the source tree: bench/bench-feeds.sh [BUILD_DIR] (default: build).
# ROUNDS=N rounds (default 3); the figures are their medians. Each round runs, in the
# private world of bench/bench-session.sh, lwn-tray following LWN's 15-item feed and then
# lwn-tray following ten 15-item feeds (LWN's, its items renumbered for each: ten feeds
# that share no item), each beside a floor-applet started with it; all are file: URLs
# with the default half-hour interval, so that nothing polls once they have loaded. From
# 10 s to 40 s after the start (see WARM) it counts each process's wake-ups (context switches of all
# its threads, voluntary and not), and at 40 s reads PSS, USS and Anonymous memory from
# smaps_rollup. It prints ten feeds / one feed, and each lwn-tray / its floor-applet.
# WARM=1 measures a second start of each too, with the saved copies and states of the
# first, as a login finds them, from 45 s to 75 s after the start: the feeds that have a
# saved copy first poll four seconds apart.
set -euo pipefail
shopt -s inherit_errexit

bench_name=bench-feeds.sh
bench_tools="perf"
bench_watcher_args=(--title "Going Rogue" --title "Floor item")
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
# shellcheck source=bench/bench-measure.sh
source "$(dirname "$0")/bench-measure.sh"

rounds=${ROUNDS:-3}
rest_from=10
rest_until=40
# With saved copies, the feeds poll four seconds apart at start: ten take 36 s.
if [ -n "${WARM:-}" ]; then
  rest_from=45
  rest_until=75
fi
feed=tests/data/lwn-headlines-2023-07.rdf

# count_wakeups PID SECONDS FILE: context switches of every thread of PID, those that
# start and end meanwhile included, over the next SECONDS, into FILE (in the background).
count_wakeups() {
  perf stat -e context-switches -x, -o "$3" -p "$1" -- sleep "$2" >/dev/null 2>&1 &
}

# wakeups_of FILE: what count_wakeups wrote there, n/a when perf counted nothing.
wakeups_of() {
  awk -F, '$3 == "context-switches" && $1 ~ /^[0-9]+$/ { n = $1 } END { print (n == "" ? "n/a" : n) }' "$1"
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

XDG_DATA_DIRS=${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$PWD
export XDG_DATA_DIRS
bench_start_session
# The feed server answers nothing here; the session's helpers expect one.
bench_start_feed_server --feed "$feed" --big "$feed"

ten_args=()
for i in $(seq 0 9); do
  sed "s|/Articles/9|/Articles/${i}9|g" "$feed" >"$tmp/feed-$i.rdf"
  ten_args+=(--feed-url "file://$tmp/feed-$i.rdf")
done

bench_header "lwn-tray following ten feeds beside one: $rounds rounds"

# The first GTK 3 client of a display probes OpenGL for its visuals (see bench-applet.sh).
start_applet warm-up "$floor_applet"
stop_applet

: >"$tmp/figures"
# measure NAME ARG...: starts floor-applet and lwn-tray with those arguments side by side
# (two lwn-tray would be one application), and prints "wake-ups PSS USS anon" of each,
# floor-applet's line first.
measure() {
  local name=$1 floor_pid lwn_pid start
  shift
  rm -f "$tmp/cs-floor" "$tmp/cs-lwn"
  start_applet "floor-$name" "$floor_applet"
  floor_pid=$app_pid
  start=$app_start
  start_applet "$name" "$lwn_tray" "$@"
  lwn_pid=$app_pid
  sleep_until $((start + rest_from * 1000000000))
  count_wakeups "$floor_pid" $((rest_until - rest_from)) "$tmp/cs-floor"
  count_wakeups "$lwn_pid" $((rest_until - rest_from)) "$tmp/cs-lwn"
  wait_for $((rest_until - rest_from + 10)) "the wake-ups counted" file_has "$tmp/cs-lwn"
  sleep_until $((start + (rest_until + 1) * 1000000000))
  echo "$(wakeups_of "$tmp/cs-floor") $(pss_kib "$floor_pid") $(uss_kib "$floor_pid") $(anon_kib "$floor_pid")"
  echo "$(wakeups_of "$tmp/cs-lwn") $(pss_kib "$lwn_pid") $(uss_kib "$lwn_pid") $(anon_kib "$lwn_pid")"
  stop_pid "$lwn_pid"
  stop_pid "$floor_pid"
}

: >"$tmp/figures"
for ((r = 1; r <= rounds; r++)); do
  fresh_state
  measure "one-$r" --feed-url "file://$tmp/feed-0.rdf" >"$tmp/one"
  measure "ten-$r" "${ten_args[@]}" >"$tmp/ten"
  if [ -n "${WARM:-}" ]; then
    # A start with every feed's saved copy and state there, as at a login.
    measure "one-warm-$r" --feed-url "file://$tmp/feed-0.rdf" >"$tmp/one"
    measure "ten-warm-$r" "${ten_args[@]}" >"$tmp/ten"
  fi
  read -r wf1 pf1 uf1 af1 < <(sed -n 1p "$tmp/one")
  read -r w1 p1 u1 a1 < <(sed -n 2p "$tmp/one")
  read -r wf10 pf10 uf10 af10 < <(sed -n 1p "$tmp/ten")
  read -r w10 p10 u10 a10 < <(sed -n 2p "$tmp/ten")
  echo "Round $r, KiB PSS/USS/anon and wake-ups in $((rest_until - rest_from)) s at rest:"
  echo "   one feed  $p1/$u1/$a1, $w1 wake-ups; floor-applet beside it $pf1/$uf1/$af1, $wf1"
  echo "   ten feeds $p10/$u10/$a10, $w10 wake-ups; floor-applet beside it $pf10/$uf10/$af10, $wf10"
  {
    echo "pss_ten_one $(div "$p10" "$p1" %.3f)"
    echo "uss_ten_one $(div "$u10" "$u1" %.3f)"
    echo "anon_ten_one $(div "$a10" "$a1" %.3f)"
    echo "pss_one_floor $(div "$p1" "$pf1" %.3f)"
    echo "pss_ten_floor $(div "$p10" "$pf10" %.3f)"
    echo "wakeups_floor $(((wf1 + wf10) / 2))"
    echo "wakeups_one $w1"
    echo "wakeups_ten $w10"
  } >>"$tmp/figures"
done

echo
printf '%-16s %10s\n' figure median
for name in pss_ten_one uss_ten_one anon_ten_one pss_one_floor pss_ten_floor wakeups_floor wakeups_one wakeups_ten; do
  printf '%-16s %10s\n' "$name" "$(awk -v n="$name" '$1 == n { print $2 }' "$tmp/figures" | median)"
done
bench_footer
