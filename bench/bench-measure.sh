# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How bench/bench-applet.sh and bench/check-costs.sh read a running process's memory and CPU time from /proc, sourced by both.
#
# Each function takes a process id and prints one number. It needs now_ns from
# bench/bench-session.sh, which the scripts source first.

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
