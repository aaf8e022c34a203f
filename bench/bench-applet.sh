#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the running applet (memory, idle wake-ups, CPU per refresh, time to tray and to headlines) next to a minimal GTK3 + AppIndicator applet.
#
# Usage, from the top of the source tree: bench/bench-applet.sh [BUILD_DIR]   (default: build)
# REFRESHES=N sets how many refreshes each CPU figure is averaged over (default 40);
# IDLE_SECONDS=N how long the idle windows last (default 60); KEEP_DIR=DIR keeps the
# processes' smaps at the memory measurements, their logs and the watcher's log there.
#
# Everything runs in the private world of bench/bench-session.sh: Xvfb, a private D-Bus
# session bus with a mock StatusNotifierWatcher (bench/mock-watcher.py, which here reads
# each item's menu until its headlines show) and a dbusmock notification daemon,
# temporary HOME and XDG_* directories, GSETTINGS_BACKEND=memory, and the feed served
# from 127.0.0.1 by bench/mock-feed-server.py. The run, about four minutes:
#   W  floor-applet once, to warm up (see below).
#   A  lwn-tray, empty cache, --interval 3600: time to the tray and to headlines from
#      the network; RSS/PSS 20 s after start; wake-ups and CPU from 20 s to 80 s.
#   F  floor-applet alone: time to the tray; RSS/PSS at 20 s; wake-ups from 20 s to 80 s
#      (run B starts once F's memory is taken, to keep the run short).
#   B  lwn-tray again with A's cache, --interval 1, the server holding its first
#      answer back: time to headlines from the cache; then CPU per refresh for 304s,
#      changed 15-item feeds and changed 1,000-item feeds.
# The a_*, f_* figures are assigned with printf -v, which shellcheck cannot follow.
# shellcheck disable=SC2154
set -euo pipefail

bench_name=bench-applet.sh
bench_tools="getconf"
# The watcher reads each item's menu until one of these shows: lwn-tray's headlines.
bench_watcher_args=(--title "Going Rogue" --title "Floor item")
# Asked of the server (GET /stats), not read from its log.
bench_served_from=stats
poll_interval=0.02
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
# shellcheck source=bench/bench-measure.sh
source "$(dirname "$0")/bench-measure.sh"

refreshes=${REFRESHES:-40}
memory_after=20
idle_seconds=${IDLE_SECONDS:-60}
server_delay=4
feed=tests/data/lwn-headlines-2023-07.rdf
clk_tck=$(getconf CLK_TCK)
ms_per_tick=$(awk -v t="$clk_tck" 'BEGIN { printf "%.3f", 1000 / t }')
have_perf=false
if command -v perf >/dev/null && perf stat -e task-clock -x, -o /dev/null -- true 2>/dev/null; then
  have_perf=true
fi

ms_between() {
  if [ -z "$2" ]; then
    echo "n/a"
  else
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) / 1e6 }'
  fi
}

# "tid switches" per live thread, voluntary plus nonvoluntary.
switches() {
  local status
  for status in /proc/"$1"/task/*/status; do
    awk '/^Pid:/ { tid = $2 } /ctxt_switches:/ { n += $2 }
      END { if (tid != "") print tid, n }' "$status" 2>/dev/null || true
  done
}

# switches_delta BEFORE AFTER: switches made in between by threads alive at the end,
# and how many threads ended in between (their last switches are lost).
switches_delta() {
  awk 'FNR == NR { before[$1] = $2; next }
       { after[$1] = 1; d += $2 - (($1 in before) ? before[$1] : 0) }
       END { gone = 0; for (t in before) if (!(t in after)) gone++; print d + 0, gone }' "$1" "$2"
}

# --- the private session ---------------------------------------------------------

# The applet as `meson devenv` runs it from the build tree (icons/ and data/meson.build).
XDG_DATA_DIRS=${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$PWD
export XDG_DATA_DIRS
bench_start_session

"$builddir/bench/bench-parse" --write 1000 "$tmp/big.rdf"
bench_start_feed_server --feed "$feed" --big "$tmp/big.rdf"

echo "lwn-tray applet benchmark ($(nproc) CPUs, $(uname -r), CLK_TCK $clk_tck, $refreshes refreshes per CPU figure)"
echo "Phases: A lwn-tray from the network and idle (~80 s); F floor-applet (~80 s); B lwn-tray from the cache, then refreshes (~$((3 * refreshes + 15)) s)."
echo

# measure_memory_and_idle PREFIX: RSS/PSS at memory_after seconds, then wake-ups and CPU
# over idle_seconds; results land in variables named PREFIX_*.
measure_memory() {
  local prefix=$1
  sleep_until $((app_start + memory_after * 1000000000))
  printf -v "${prefix}_rss" '%s' "$(rss_kib "$app_pid")"
  printf -v "${prefix}_pss" '%s' "$(pss_kib "$app_pid")"
  printf -v "${prefix}_uss" '%s' "$(uss_kib "$app_pid")"
  printf -v "${prefix}_dirty" '%s' "$(awk '/^Private_Dirty:/ { print $2 }' "/proc/$app_pid/smaps_rollup")"
  grep -E '^(Rss|Pss_Anon|Pss_File|Anonymous):' "/proc/$app_pid/smaps_rollup" >"$tmp/$prefix.smaps_rollup"
  if [ -n "${KEEP_DIR:-}" ]; then
    cp "/proc/$app_pid/smaps" "$KEEP_DIR/$prefix.smaps"
  fi
}

idle_start() {
  idle_from=$(now_ns)
  switches "$app_pid" >"$tmp/$1.switches.0"
  idle_ticks0=$(cpu_ticks "$app_pid")
}

# idle_finish PREFIX PID
idle_finish() {
  local prefix=$1 pid=$2 delta gone
  sleep_until $((idle_from + idle_seconds * 1000000000))
  switches "$pid" >"$tmp/$prefix.switches.1"
  read -r delta gone < <(switches_delta "$tmp/$prefix.switches.0" "$tmp/$prefix.switches.1")
  printf -v "${prefix}_wakeups" '%s' "$(div "$delta" "$idle_seconds")"
  printf -v "${prefix}_threads_gone" '%s' "$gone"
  printf -v "${prefix}_idle_ticks" '%s' $(($(cpu_ticks "$pid") - idle_ticks0))
  printf -v "${prefix}_threads" '%s' "$(find "/proc/$pid/task" -mindepth 1 -maxdepth 1 | wc -l)"
}

# --- warm-up ---------------------------------------------------------------------------

# The first GTK 3 client of an X display probes OpenGL for its visuals (loading Mesa, and
# with llvmpipe some 45 MB of libLLVM) and caches the answer in the GDK_VISUALS property
# of the root window; later clients skip the probe. On a desktop some GTK program has
# always done it already, so one throw-away run does it here (Xvfb -noreset keeps the
# property), which also warms the page cache for both programs alike.
start_applet warm-up "$floor_applet"
warm_name=${app_item%% *}
wait_for 35 "the warm-up applet's menu" menu_seen "$warm_name"
stop_applet

# --- A: lwn-tray, first run ----------------------------------------------------------

echo "A: lwn-tray, empty cache, feed from the network"
start_applet lwn-tray-a "$lwn_tray" --feed-url "$feed_url" --interval 3600
a_name=${app_item%% *}
wait_for 35 "lwn-tray's menu" menu_seen "$a_name"
a_reg_ms=$(ms_between "$app_start" "$(log_time item "$a_name")")
a_menu_ms=$(ms_between "$app_start" "$(log_time menu "$a_name")")
measure_memory a
idle_start a
idle_finish a "$app_pid"
stop_applet
idle_ticks_per_s=$(awk -v t="$a_idle_ticks" -v s="$idle_seconds" 'BEGIN { printf "%.4f", t / s }')
echo "   tray after $a_reg_ms ms, headlines after $a_menu_ms ms; PSS $a_pss KiB; $a_wakeups wake-ups/s idle"

# --- F: the floor --------------------------------------------------------------------

echo "F: floor-applet"
start_applet floor "$floor_applet"
f_name=${app_item%% *}
wait_for 35 "floor-applet's menu" menu_seen "$f_name"
f_reg_ms=$(ms_between "$app_start" "$(log_time item "$f_name")")
f_menu_ms=$(ms_between "$app_start" "$(log_time menu "$f_name")")
measure_memory f
f_pid=$app_pid
idle_start f
f_idle_from=$idle_from
f_ticks0=$idle_ticks0
echo "   tray after $f_reg_ms ms, menu after $f_menu_ms ms; PSS $f_pss KiB"

# --- B: lwn-tray from its cache, then refreshes ---------------------------------------

echo "B: lwn-tray, cache kept, the server holding its answer back ${server_delay} s"
server "control?mode=same&delay=$server_delay"
start_applet lwn-tray-b "$lwn_tray" --feed-url "$feed_url" --interval 1
b_name=${app_item%% *}
wait_for 35 "lwn-tray's menu" menu_seen "$b_name"
b_reg_ms=$(ms_between "$app_start" "$(log_time item "$b_name")")
b_menu_ms=$(ms_between "$app_start" "$(log_time menu "$b_name")")
server "control?delay=0"
echo "   tray after $b_reg_ms ms, headlines after $b_menu_ms ms"

# The floor's idle window ends during B; both processes are independent on the bus.
(
  idle_from=$f_idle_from idle_ticks0=$f_ticks0
  idle_finish f "$f_pid"
  echo "$f_wakeups $f_threads_gone $f_idle_ticks $f_threads" >"$tmp/floor-idle"
  kill -TERM "$f_pid" 2>/dev/null || true
) &
floor_idle_job=$!

# cpu_phase KEY MODE: CPU per refresh while the server answers KEY (mode-status).
# The window opens 300 ms after one answer and closes 300 ms after the Nth next one,
# so it holds exactly N whole refreshes.
cpu_phase() {
  local key=$1 mode=$2 n0 t0 c0 ns0 t1 c1 ns1 perf_ms="n/a"
  # Polled gently: the poll itself must not compete with the applet for the CPU.
  local poll_interval=0.1
  server "control?mode=$mode"
  n0=$(served "$key")
  wait_for 30 "a $key answer" served_more_than "$key" "$n0"
  n0=$(served "$key")
  if $have_perf; then
    perf_attach "$app_pid" "$tmp/perf-$key"
  fi
  sleep 0.3
  t0=$(now_ns) c0=$(cpu_ticks "$app_pid") ns0=$(cpu_ns "$app_pid")
  wait_for $((refreshes * 3 + 30)) "$refreshes $key answers" served_more_than "$key" $((n0 + refreshes - 1))
  sleep 0.3
  t1=$(now_ns) c1=$(cpu_ticks "$app_pid") ns1=$(cpu_ns "$app_pid")
  if $have_perf; then
    perf_ms=$(perf_detach "$tmp/perf-$key")
  fi
  local n=$(($(served "$key") - n0))
  awk -v c="$((c1 - c0))" -v ms="$ms_per_tick" -v idle="$idle_ticks_per_s" -v secs="$(((t1 - t0) / 1000000))" \
    -v n="$n" -v ns="$((ns1 - ns0))" -v perf="${perf_ms:-n/a}" -v key="$key" 'BEGIN {
      base = idle * secs / 1000 * ms
      total = c * ms
      printf "%s %.2f %.2f %.2f %d %.1f %s\n", key, (total - base) / n, (ns / 1e6 - base) / n,
        (perf == "n/a" || perf == "") ? -1 : (perf - base) / n, n, secs / 1000, total
    }' >>"$tmp/cpu"
}

: >"$tmp/cpu"
echo "   CPU per refresh: $refreshes unchanged (304), $refreshes changed (200, 15 items), $refreshes changed (200, 1,000 items)"
cpu_phase same-304 same
cpu_phase changed-200 changed
cpu_phase big-200 big
b_rss=$(rss_kib "$app_pid")
b_pss=$(pss_kib "$app_pid")
if [ -n "${KEEP_DIR:-}" ]; then
  cp "/proc/$app_pid/smaps" "$KEEP_DIR/b.smaps"
fi
stop_applet
wait "$floor_idle_job"
read -r f_wakeups f_threads_gone f_idle_ticks f_threads <"$tmp/floor-idle"
wait "$f_pid" 2>/dev/null || true

# --- the table -------------------------------------------------------------------------

cpu_field() {
  awk -v k="$1" -v f="$2" '$1 == k { print $f }' "$tmp/cpu"
}

verdict() {
  if awk -v v="$1" -v t="$2" 'BEGIN { exit !(v != "n/a" && v + 0 <= t + 0) }'; then
    echo "met"
  else
    echo "MISSED"
  fi
}

pss_ratio=$(div "$a_pss" "$f_pss")
echo
printf '%-46s %14s %14s   %s\n' "" "lwn-tray" "floor-applet" "target"
printf '%-46s %14s %14s\n' "RSS 20 s after start (KiB)" "$a_rss" "$f_rss"
printf '%-46s %14s %14s   %s\n' "PSS 20 s after start (KiB)" "$a_pss" "$f_pss" "≤ 1.2 × floor: ${pss_ratio}× $(verdict "$pss_ratio" 1.2)"
printf '%-46s %14s %14s\n' "  of which anonymous (Pss_Anon, KiB)" \
  "$(awk '/^Pss_Anon:/ { print $2 }' "$tmp/a.smaps_rollup")" "$(awk '/^Pss_Anon:/ { print $2 }' "$tmp/f.smaps_rollup")"
printf '%-46s %14s %14s   %s\n' "USS (private pages) 20 s after start (KiB)" "$a_uss" "$f_uss" \
  "ratio $(div "$a_uss" "$f_uss")×; difference $((a_uss - f_uss)) KiB"
printf '%-46s %14s %14s   %s\n' "Private dirty pages 20 s after start (KiB)" "$a_dirty" "$f_dirty" \
  "ratio $(div "$a_dirty" "$f_dirty")×; difference $((a_dirty - f_dirty)) KiB"
printf '%-46s %14s %14s   %s\n' "Wake-ups/s idle (ctx switches, ${idle_seconds} s)" "$a_wakeups" "$f_wakeups" "≈ 0/s: $(verdict "$a_wakeups" 0.05)"
printf '%-46s %14s %14s\n' "CPU idle over ${idle_seconds} s (ms)" "$(awk -v t="$a_idle_ticks" -v m="$ms_per_tick" 'BEGIN { print t * m }')" \
  "$(awk -v t="$f_idle_ticks" -v m="$ms_per_tick" 'BEGIN { print t * m }')"
printf '%-46s %14s %14s\n' "Threads at the end of the idle window" "$a_threads" "$f_threads"
printf '%-46s %14s %14s\n' "Start → tray item registered (ms)" "$a_reg_ms" "$f_reg_ms"
printf '%-46s %14s %14s\n' "Start → headlines in the menu, network (ms)" "$a_menu_ms" "($f_menu_ms)"
printf '%-46s %14s %14s\n' "Start → tray item registered, 2nd run (ms)" "$b_reg_ms" ""
printf '%-46s %14s %14s   %s\n' "Start → headlines in the menu, cache (ms)" "$b_menu_ms" "" "(server answers after ${server_delay} s)"
printf '%-46s %14s %14s   %s\n' "CPU per refresh, 304 unchanged (ms)" "$(cpu_field same-304 2)" "" "< 3 ms: $(verdict "$(cpu_field same-304 2)" 3)"
printf '%-46s %14s %14s\n' "CPU per refresh, 200 changed, 15 items (ms)" "$(cpu_field changed-200 2)" ""
printf '%-46s %14s %14s   %s\n' "CPU per refresh, 200 changed, 1,000 items (ms)" "$(cpu_field big-200 2)" "" "< 40 ms: $(verdict "$(cpu_field big-200 2)" 40)"
printf '%-46s %14s %14s\n' "RSS / PSS after the 1,000-item refreshes (KiB)" "$b_rss / $b_pss" ""
echo
echo "CPU per refresh is (utime + stime over the window − idle CPU rate × window) / refreshes,"
echo "in ${ms_per_tick} ms ticks; cross-checks, same windows (ms per refresh):"
printf '  %-12s %10s %12s %12s %10s %8s\n' "answer" "/proc stat" "schedstat" "perf" "refreshes" "window"
while read -r key stat sched perf n secs _; do
  [ "$perf" = "-1.00" ] && perf="n/a"
  printf '  %-12s %10s %12s %12s %10s %7ss\n' "$key" "$stat" "$sched" "$perf" "$n" "$secs"
done <"$tmp/cpu"
echo "(schedstat sums the live threads only; the floor's idle window overlaps phase B.)"
echo "PSS splits each library page among all processes mapping it, machine-wide, and USS counts"
echo "only pages no other process maps: both move with whatever else runs (other GTK programs, other"
echo "copies of lwn-tray). Private dirty pages (heap, relocated data) are the per-process cost that a"
echo "desktop cannot share away; the difference on that row is the steadiest figure."
if [ "$a_threads_gone" != 0 ] || [ "$f_threads_gone" != 0 ]; then
  echo "Note: threads ended during an idle window (lwn-tray $a_threads_gone, floor $f_threads_gone); their last switches are not counted."
fi
