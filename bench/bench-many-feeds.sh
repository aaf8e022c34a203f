#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What following 1, 10, 50 and 200 feeds costs: memory, wake-ups, threads and descriptors at rest and the CPU of a round of unchanged polls, next to one feed and to the minimal GTK 3 + AppIndicator program measured in the same run.
#
# Usage, from the top of the source tree: bench/bench-many-feeds.sh [BUILD_DIR] (default: build).
# ROUNDS=N rounds (default 3); the figures are their medians. COUNTS="1 10 50 200" sets the
# numbers of feeds (1 always comes first: it is the reference of the others). Each round
# runs, in the private world of bench/bench-session.sh, lwn-tray following each number of
# feeds in turn, each time from a fresh state and beside a floor-applet started with it.
# The feeds are bench/make-feed.py's 20-item feed, served over HTTP by
# bench/mock-feed-server.py --many at /feeds/0, /feeds/1, ...: each its own address and its
# own items (no two feeds share an id) and its own title ("Many feeds K"), the same on
# every request, so that a conditional request gets 304. lwn-tray polls at the default
# half-hour interval: once every feed has answered its first request, nothing polls until
# asked. Per number of feeds:
#   at rest   from SETTLE seconds (default 5) after the last first answer and the stand-in
#             tray host's reading of the menu (which stops once a headline or a feed's
#             title shows there: with many feeds, their headings fill it), and no earlier
#             than 10 s after the start, perf counts each process's context switches (all its
#             threads, voluntary and not: its wake-ups) and task-clock for REST seconds
#             (default 20); then PSS, USS and Anonymous memory (smaps_rollup), threads
#             (/proc/PID/task) and open descriptors (/proc/PID/fd) of both.
#   a round   the refresh action over org.gtk.Actions on the session bus (what "Refresh"
#             does): every feed asks at once, and the server answers 304. perf's task-clock
#             of every thread of lwn-tray, those that start and end included, from just
#             before the call until 1 s after the last 304, less the CPU rate at rest over
#             that time, divided by the number of feeds. A round's requests go out as the
#             fetcher lets them (at once, or a few at a time): the CPU per feed does not
#             depend on it, the round's duration, printed too, does.
# It prints each round's figures, then per number of feeds the medians: anon, anon over
# one feed (MiB), PSS, USS, CPU per feed of a 304 round, wake-ups at rest, threads and
# descriptors, with floor-applet's beside them. KEEP_DIR=DIR keeps the logs there. Three
# rounds take about six and a half minutes on two cores.
set -euo pipefail
shopt -s inherit_errexit

bench_name=bench-many-feeds.sh
bench_tools="perf gdbus"
bench_watcher_args=(--title "Going Rogue" --title "Floor item" --title "Many feeds")
poll_interval=0.1
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
# shellcheck source=bench/bench-measure.sh
source "$(dirname "$0")/bench-measure.sh"

rounds=${ROUNDS:-3}
read -r -a counts <<<"${COUNTS:-1 10 50 200}"
if [ "${counts[0]}" != 1 ]; then
  counts=(1 "${counts[@]}")
fi
settle=${SETTLE:-5}
rest_from=10
rest_seconds=${REST:-20}

if ! perf stat -e task-clock -x, -o /dev/null -- true 2>/dev/null; then
  echo "$bench_name: perf cannot count here (see /proc/sys/kernel/perf_event_paranoid)" >&2
  exit 2
fi

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

XDG_DATA_DIRS=${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$PWD
export XDG_DATA_DIRS
bench_start_session
"$python" bench/make-feed.py --items 20 --fresh "$tmp/many.rdf"
# Each feed's own title, which the tray host waits for: with many feeds, their headings
# fill the menu and no headline shows there.
sed -i '0,/<title>LWN.net<\/title>/s//<title>Many feeds {serial}<\/title>/' "$tmp/many.rdf"
bench_start_feed_server --feed tests/data/lwn-headlines-2023-07.rdf --big "$tmp/many.rdf" --many "$tmp/many.rdf"

bench_header "lwn-tray following ${counts[*]} feeds of 20 items: $rounds rounds"

# The first GTK 3 client of a display probes OpenGL for its visuals (see bench-applet.sh).
start_applet warm-up "$floor_applet"
wait_for 30 "the warm-up applet's menu" menu_seen "${app_item%% *}"
stop_applet

# measure NAME N: starts floor-applet and lwn-tray following N feeds side by side (two
# lwn-tray would be one application), and prints
# "anon pss uss wakeups threads fds cpu_per_feed round_seconds" of lwn-tray, then
# "anon pss uss wakeups threads fds" of floor-applet.
measure() {
  local name=$1 n=$2 floor_pid lwn_pid start n0 rest_start floor_count
  many_feeds "$n"
  n0=$(served many-200)
  start_applet "floor-$name" "$floor_applet"
  floor_pid=$app_pid
  start=$app_start
  start_applet "$name" "$lwn_tray" "${many_args[@]}"
  lwn_pid=$app_pid
  wait_for $((60 + n / 2)) "$n first answers" served_more_than many-200 $((n0 + n - 1))
  wait_for 30 "lwn-tray's menu" menu_seen "${app_item%% *}"
  rest_start=$(($(now_ns) + settle * 1000000000))
  if ((rest_start < start + rest_from * 1000000000)); then
    rest_start=$((start + rest_from * 1000000000))
  fi
  sleep_until "$rest_start"
  perf_count "$floor_pid" "$rest_seconds" "$tmp/rest-floor"
  floor_count=$count_pid
  perf_count "$lwn_pid" "$rest_seconds" "$tmp/rest-lwn"
  wait "$count_pid" "$floor_count" || true

  local lwn_line floor_line
  lwn_line="$(anon_kib "$lwn_pid") $(pss_kib "$lwn_pid") $(uss_kib "$lwn_pid") $(perf_counted "$tmp/rest-lwn" context-switches) $(threads_of "$lwn_pid") $(fds_of "$lwn_pid")"
  floor_line="$(anon_kib "$floor_pid") $(pss_kib "$floor_pid") $(uss_kib "$floor_pid") $(perf_counted "$tmp/rest-floor" context-switches) $(threads_of "$floor_pid") $(fds_of "$floor_pid")"
  stop_pid "$floor_pid"
  echo "$lwn_line $(round_cost "$lwn_pid" "$n" "$tmp/rest-lwn" "$rest_seconds")"
  echo "$floor_line"
  # What perf said, among the logs KEEP_DIR keeps.
  cat "$tmp/rest-lwn" "$tmp/rest-floor" "$tmp/perf-round" >"$tmp/perf-$name.log" 2>&1 || true
  stop_pid "$lwn_pid"
}

: >"$tmp/figures"
for ((r = 1; r <= rounds; r++)); do
  echo "Round $r, at rest for $rest_seconds s: KiB anon/PSS/USS, wake-ups, threads, descriptors; a round of 304s:"
  for n in "${counts[@]}"; do
    fresh_state
    measure "feeds-$n-$r" "$n" >"$tmp/measured"
    read -r a p u w th fd cpu secs < <(sed -n 1p "$tmp/measured")
    read -r fa fp fu fw fth ffd < <(sed -n 2p "$tmp/measured")
    if ((n == 1)); then
      a1=$a
    fi
    printf '  %3d feeds %6s/%s/%s, %s wake-ups, %s threads, %s fds; CPU %s ms a feed (round %s s)\n' \
      "$n" "$a" "$p" "$u" "$w" "$th" "$fd" "$cpu" "$secs"
    printf '  floor-applet beside it %s/%s/%s, %s wake-ups, %s threads, %s fds\n' "$fa" "$fp" "$fu" "$fw" "$fth" "$ffd"
    {
      echo "$n anon $a"
      echo "$n anon_over_one $(awk -v a="$a" -v b="$a1" 'BEGIN { printf "%.2f", (a - b) / 1024 }')"
      echo "$n pss $p"
      echo "$n uss $u"
      echo "$n cpu_per_feed $cpu"
      echo "$n round_seconds $secs"
      echo "$n wakeups $w"
      echo "$n threads $th"
      echo "$n fds $fd"
      echo "floor anon $fa"
      echo "floor pss $fp"
      echo "floor uss $fu"
      echo "floor wakeups $fw"
      echo "floor threads $fth"
      echo "floor fds $ffd"
    } >>"$tmp/figures"
  done
done

# figure WHO NAME: the median of that figure over the rounds.
figure() {
  awk -v w="$1" -v k="$2" '$1 == w && $2 == k && $3 != "n/a" { print $3 }' "$tmp/figures" | median
}

echo
echo "Medians over $rounds rounds (anon, PSS, USS in KiB at rest; anon over one feed in MiB;"
echo "CPU of a round of 304s in ms a feed; wake-ups: context switches in $rest_seconds s at rest):"
printf '%-14s %8s %9s %8s %8s %9s %9s %8s %8s %5s\n' feeds anon "over one" PSS USS "CPU/feed" "round s" wake-ups threads fds
for n in "${counts[@]}"; do
  printf '%-14s %8s %9s %8s %8s %9s %9s %8s %8s %5s\n' "$n" "$(figure "$n" anon)" "$(figure "$n" anon_over_one)" \
    "$(figure "$n" pss)" "$(figure "$n" uss)" "$(figure "$n" cpu_per_feed)" "$(figure "$n" round_seconds)" \
    "$(figure "$n" wakeups)" "$(figure "$n" threads)" "$(figure "$n" fds)"
done
printf '%-14s %8s %9s %8s %8s %9s %9s %8s %8s %5s\n' floor-applet "$(figure floor anon)" "" \
  "$(figure floor pss)" "$(figure floor uss)" "" "" "$(figure floor wakeups)" "$(figure floor threads)" "$(figure floor fds)"
last=${counts[${#counts[@]} - 1]}
echo
echo "Goals at $last feeds: anon at most 12 MiB over one feed ($(figure "$last" anon_over_one)), a 304 round under 1.5 ms a feed ($(figure "$last" cpu_per_feed)), 0 wake-ups at rest ($(figure "$last" wakeups))"
bench_footer
