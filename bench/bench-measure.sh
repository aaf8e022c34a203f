# shellcheck shell=bash disable=SC2034,SC2154 # count_pid: for the scripts that source it; tmp, bench_name: theirs
# SPDX-License-Identifier: GPL-3.0-or-later
# How bench/bench-applet.sh, bench-many-feeds.sh and check-costs.sh read a running process's memory, CPU time and wake-ups, sourced by each.
#
# Each function takes a process id and prints one number, unless it says otherwise. It
# needs now_ns, wait_for and served from bench/bench-session.sh, which the scripts source
# first.

# sleep_until NS: sleeps until the wall clock reaches NS.
sleep_until() {
  local left=$(($1 - $(now_ns)))
  if ((left > 0)); then
    sleep "$(awk -v n="$left" 'BEGIN { printf "%.3f", n / 1e9 }')"
  fi
}

rss_kib() {
  awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

pss_kib() {
  awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup"
}

# Unique set size: pages no other process maps. Unlike PSS, it does not depend on
# which other programs (here or elsewhere on the machine) map the same libraries.
uss_kib() {
  awk '/^Private_(Clean|Dirty):/ { n += $2 } END { print n + 0 }' "/proc/$1/smaps_rollup"
}

# Anonymous memory (heap, stacks, malloc arenas): what the process itself made,
# whoever else maps its libraries.
anon_kib() {
  awk '/^Anonymous:/ { print $2 }' "/proc/$1/smaps_rollup"
}

# CPU time in clock ticks, of every thread the process ever had.
cpu_ticks() {
  awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# On-CPU nanoseconds of the live threads (schedstat), a finer second opinion.
cpu_ns() {
  cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# div A B [FORMAT]: A / B, or n/a when B is not positive.
div() {
  awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { if (b > 0) printf f, a / b; else print "n/a" }'
}

perf_attached() {
  find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | grep -q .
}

# perf_attach PID FILE: starts counting the CPU time of process PID into FILE (perf stat
# task-clock: every thread, those started and ended later included; perf's messages go
# to FILE.err) and waits until perf counts; sets perf_pid.
perf_attach() {
  perf stat -e task-clock -x, -o "$2" -p "$1" 2>"$2.err" &
  perf_pid=$!
  pids+=("$perf_pid")
  wait_for 10 "perf to attach to process $1" perf_attached "$perf_pid"
}

# perf_detach FILE: stops the count perf_attach started and prints its milliseconds, or
# nothing when perf counted nothing (it says "<not counted>", or stopped early).
perf_detach() {
  local i
  kill -INT "$perf_pid" 2>/dev/null || true
  wait "$perf_pid" 2>/dev/null || true
  # Called as $(perf_detach ...), a subshell, which cannot wait for perf: perf writes its
  # count as it exits, so the file is read once perf is gone.
  for ((i = 0; i < 100; i++)); do
    kill -0 "$perf_pid" 2>/dev/null || break
    sleep 0.05
  done
  awk -F, '$3 == "task-clock" && $1 ~ /^[0-9.]+$/ { print $1 }' "$1"
}

threads_of() {
  find "/proc/$1/task" -mindepth 1 -maxdepth 1 | wc -l
}

fds_of() {
  find "/proc/$1/fd" -mindepth 1 -maxdepth 1 | wc -l
}

# perf_count PID SECONDS FILE: counts the context switches (wake-ups) and task-clock of
# every thread of PID, those that start and end meanwhile included, over the next
# SECONDS, into FILE, in the background; sets count_pid.
perf_count() {
  perf stat -e context-switches,task-clock -x, -o "$3" -p "$1" -- sleep "$2" >/dev/null 2>&1 &
  count_pid=$!
}

# perf_counted FILE EVENT: what perf_count counted of EVENT; 0 when perf says "<not
# counted>", which it does for a process that never ran meanwhile; n/a when perf said
# nothing.
perf_counted() {
  awk -F, -v e="$2" '$3 == e && $1 ~ /^[0-9.]+$/ { n = $1 } $3 == e && $1 == "<not counted>" { n = 0 }
    END { print (n == "" ? "n/a" : n) }' "$1"
}

# round_cost PID N REST_FILE REST_SECONDS: a round of unchanged polls of the N feeds of
# lwn-tray PID, served by bench/mock-feed-server.py --many: the refresh action (what the
# menu's Refresh does) asks every feed at once, and the server answers 304. Prints "the
# CPU per feed in ms, the round's seconds": perf's task-clock of every thread from just
# before the call until 1 s after the last 304, less the CPU that perf_count measured at
# rest in REST_FILE over REST_SECONDS, for as long. A round that perf failed to count is
# made again, once the readers' gap between a request and a manual refresh (3 s) is over.
round_cost() {
  local pid=$1 n=$2 m0 t0 t1 cpu_ms="" attempt
  for attempt in 1 2 3; do
    m0=$(served many-304)
    perf_attach "$pid" "$tmp/perf-round"
    t0=$(now_ns)
    refresh_applet
    wait_for $((60 + n / 2)) "$n answers 304" served_more_than many-304 $((m0 + n - 1))
    t1=$(now_ns)
    sleep 1
    cpu_ms=$(perf_detach "$tmp/perf-round")
    [ -z "$cpu_ms" ] || break
    echo "$bench_name: perf counted nothing in round $attempt: $(tr '\n' ' ' <"$tmp/perf-round")" >&2
    sleep 3
  done
  awk -v c="${cpu_ms:-n/a}" -v r="$(perf_counted "$3" task-clock)" -v rs="$4" -v w="$(($(now_ns) - t0))" -v n="$n" \
    -v d="$((t1 - t0))" 'BEGIN {
      if (c == "n/a" || c == "") { printf "n/a %.2f\n", d / 1e9; exit }
      base = (r == "n/a") ? 0 : r / rs * w / 1e9
      printf "%.3f %.2f\n", (c - base) / n, d / 1e9
    }'
}
