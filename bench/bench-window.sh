#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the headlines window with 1,000 items: the time to its first frame, and the longest main-loop stall while it opens, on a changed feed and on Mark All as Read, next to a minimal GTK3 + AppIndicator program.
#
# Usage, from the top of the source tree: bench/bench-window.sh [BUILD_DIR]   (default: build)
# RUNS=N sets how many events each phase holds (default 10); KEEP_DIR=DIR keeps the
# samples, the applets' logs and the feed server's log there; STALL_RT=0 measures without
# SCHED_FIFO (which needs root), so that other load on the machine counts as stalls.
#
# The stalls are measured as bench/bench-stall.sh measures them (bench/stall_probe.py:
# dbusmenu round-trips on the main loop, one at a time, 1 ms apart); the first frame by
# bench/window-probe.py, which reads the screen until the window's first rows show. Both
# in the private world of bench/bench-stall.sh: Xvfb (black root, no window manager, so a
# window opens at the screen's corner), a private session bus with a mock
# StatusNotifierWatcher and a dbusmock notification daemon, temporary HOME and XDG_*
# directories, GSETTINGS_BACKEND=memory, feeds from bench/mock-feed-server.py. The run,
# about five minutes on two cores:
#   F  N runs of floor-applet --signals: idle, then its window of 12 rows opened (SIGHUP);
#      then one run in which its three menu items are relabelled N times (SIGUSR1).
#      Each window is the first of its process, as lwn-tray's are below: the first
#      window of a GTK program pays for its fonts, theme and icons.
#   O  N runs of lwn-tray --interval 3600 with a 1,000-item feed loaded: idle, then
#      "Show Headlines…" (the show-headlines action, over org.gtk.Actions).
#   W  lwn-tray --interval 1 --show with 1,000 items: idle; N changed 1,000-item feeds
#      (the first title changes); N feeds of 1,000 new items; N times Mark All as Read
#      (the mark-all-read action) two seconds after 1,000 new items arrived.
set -euo pipefail

builddir=${1:-build}
if [ -n "${KEEP_DIR:-}" ]; then
  mkdir -p "$KEEP_DIR"
  KEEP_DIR=$(cd "$KEEP_DIR" && pwd)
fi
runs=${RUNS:-10}
python=/usr/bin/python3

if [ ! -f meson.build ] || [ ! -d bench ]; then
  echo "bench-window.sh: run me from the top of the source tree" >&2
  exit 2
fi
for tool in Xvfb dbus-daemon curl; do
  if ! command -v "$tool" >/dev/null; then
    echo "bench-window.sh: $tool is missing (see build-aux/install-deps.sh)" >&2
    exit 2
  fi
done
if ! "$python" -c 'import gi, dbusmock; gi.require_version("Gdk", "3.0")' 2>/dev/null; then
  echo "bench-window.sh: $python needs python3-gi, gir1.2-gtk-3.0 and python3-dbusmock" >&2
  exit 2
fi

if [ ! -d "$builddir" ]; then
  meson setup "$builddir" >/dev/null
fi
meson compile -C "$builddir" lwn-tray floor-applet bench-parse gsettings-compile-data >/dev/null
builddir=$(cd "$builddir" && pwd)

lwn_tray=$builddir/src/lwn-tray
floor_applet=$builddir/bench/floor-applet
feed=tests/data/lwn-headlines-2023-07.rdf

# As in bench-stall.sh: the threads on a round-trip's path run SCHED_FIFO when allowed.
realtime=10
if [ "${STALL_RT:-1}" = 0 ] || ! chrt -f 1 true 2>/dev/null; then
  realtime=0
fi

tmp=$(mktemp -d)
pids=()

cleanup() {
  local pid
  if [ -n "${KEEP_DIR:-}" ]; then
    cp "$tmp"/*.log "$tmp/samples" "$KEEP_DIR/" 2>/dev/null || true
  fi
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 20); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ns() {
  date +%s%N
}

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.05 s; fails after SECONDS.
wait_for() {
  local timeout=$1 what=$2
  shift 2
  local deadline=$(($(now_ns) + timeout * 1000000000))
  until "$@"; do
    if (($(now_ns) > deadline)); then
      echo "bench-window.sh: timed out after ${timeout} s waiting for $what" >&2
      return 1
    fi
    sleep 0.05
  done
}

file_has() {
  [ -s "$1" ]
}

bus_has_name() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

log_lines() {
  wc -l <"$tmp/watcher.log"
}

# The "name path" of the next item to register after line FROM of the watcher log.
item_after() {
  awk -v from="$1" 'NR > from && $1 == "item" { print $3, $4; exit }' "$tmp/watcher.log"
}

item_registered_after() {
  [ -n "$(item_after "$1")" ]
}

server() {
  curl -sf --max-time 5 "http://127.0.0.1:$port/$1" >/dev/null
}

# served KEY: how many answers of that kind (e.g. big-200) the feed server gave.
served() {
  awk -v k="$1" '$2 == k { n++ } END { print n + 0 }' "$tmp/server.log"
}

served_more_than() {
  (($(served "$1") > $2))
}

# --- the private session ---------------------------------------------------------

mkdir -p "$tmp"/{home,cache,config,data,state,runtime}
chmod 700 "$tmp/runtime"
export HOME=$tmp/home XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/config
export XDG_DATA_HOME=$tmp/data XDG_STATE_HOME=$tmp/state XDG_RUNTIME_DIR=$tmp/runtime
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=$builddir/data NO_AT_BRIDGE=1 LC_ALL=C.UTF-8
unset G_MESSAGES_DEBUG SESSION_MANAGER

# A click opens a link: `true` stands in for the browser.
mkdir -p "$XDG_DATA_HOME/applications"
printf '[Desktop Entry]\nType=Application\nName=Bench browser\nExec=true %%u\nMimeType=%s\nNoDisplay=true\n' \
  "x-scheme-handler/http;x-scheme-handler/https;" >"$XDG_DATA_HOME/applications/bench-browser.desktop"
printf '[Default Applications]\nx-scheme-handler/http=bench-browser.desktop\nx-scheme-handler/https=bench-browser.desktop\n' \
  >"$XDG_CONFIG_HOME/mimeapps.list"

# -br: a black root, so that the probe sees a window's rows as the first text there.
Xvfb -displayfd 3 -screen 0 1280x800x24 -br -nolisten tcp -noreset 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 "Xvfb" file_has "$tmp/display"
DISPLAY=:$(head -n 1 "$tmp/display")
export DISPLAY

dbus-daemon --session --nofork --print-address=3 3>"$tmp/bus" >"$tmp/dbus.log" 2>&1 &
bus_pid=$!
pids+=("$bus_pid")
wait_for 10 "the session bus" file_has "$tmp/bus"
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$tmp/bus")
export DBUS_SESSION_BUS_ADDRESS

: >"$tmp/watcher.log"
"$python" bench/mock-watcher.py --log "$tmp/watcher.log" --timeout 0 >"$tmp/watcher.out" 2>&1 &
pids+=($!)
wait_for 10 "the mock StatusNotifierWatcher" bus_has_name org.kde.StatusNotifierWatcher

"$python" -m dbusmock --session -t notification_daemon >"$tmp/notifications.log" 2>&1 &
pids+=($!)
wait_for 10 "the mock notification daemon" bus_has_name org.freedesktop.Notifications

"$builddir/bench/bench-parse" --write 1000 "$tmp/big.rdf"
"$python" bench/make-feed.py --items 1000 --fresh "$tmp/fresh.rdf"
: >"$tmp/server.log"
"$python" bench/mock-feed-server.py --feed "$feed" --big "$tmp/big.rdf" --fresh "fresh=$tmp/fresh.rdf" \
  --rate 12500000 --port-file "$tmp/port" --log "$tmp/server.log" >"$tmp/server.out" 2>&1 &
pids+=($!)
wait_for 10 "the feed server" file_has "$tmp/port"
port=$(cat "$tmp/port")
feed_url=http://127.0.0.1:$port/feed

# start_applet NAME COMMAND...: starts it and waits for its tray item; sets $app_pid
# and $app_item ("bus-name object-path").
start_applet() {
  local name=$1 lines
  shift
  lines=$(log_lines)
  "$@" >>"$tmp/$name.log" 2>&1 &
  app_pid=$!
  pids+=("$app_pid")
  wait_for 20 "$name to register with the watcher" item_registered_after "$lines"
  app_item=$(item_after "$lines")
}

stop_applet() {
  kill -TERM "$app_pid" 2>/dev/null || true
  wait_for 10 "process $app_pid to quit" bash -c "! kill -0 $app_pid 2>/dev/null" || kill -KILL "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
}

# probe LABEL [--runs N] PHASE...: measures the applet started last.
probe() {
  local label=$1 name path
  shift
  read -r name path <<<"$app_item"
  "$python" bench/window-probe.py measure --name "$name" --item-path "$path" --applet "$label" \
    --samples "$tmp/samples" --server "http://127.0.0.1:$port" --server-log "$tmp/server.log" \
    --pid "$app_pid" --runs "$runs" --realtime "$realtime" --bus-pid "$bus_pid" "$@"
}

fresh_state() {
  rm -rf "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
  mkdir -p "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
}

load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
started=$(now_ns)
echo "lwn-tray headlines window benchmark ($(nproc) CPUs, $(uname -r), $runs events per phase)"
echo "CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "Load average before: $load_before"
if ((realtime > 0)); then
  echo "Scheduling: the applets' main and GDBus threads, the bus daemon and the probe run SCHED_FIFO $realtime"
else
  echo "Scheduling: as usual (no SCHED_FIFO: not allowed, or STALL_RT=0); other load counts as stalls"
fi
echo

# The first GTK client of a display probes OpenGL for its visuals (see bench-applet.sh).
start_applet warm-up "$floor_applet"
stop_applet

echo "F: floor-applet, $runs windows opened"
for ((i = 0; i < runs; i++)); do
  start_applet floor "$floor_applet" --signals
  sleep 1
  probe floor-applet --runs 1 idle=idle:2 open=open:signal:4
  stop_applet
done
start_applet floor "$floor_applet" --signals
sleep 1
probe floor-applet relabel=signal:USR1
stop_applet

echo "O: lwn-tray, $runs windows opened"
for ((i = 0; i < runs; i++)); do
  fresh_state
  server "control?mode=big&hold=0"
  before=$(served big-200)
  start_applet lwn-tray-open "$lwn_tray" --feed-url "$feed_url" --interval 3600
  wait_for 30 "the 1,000-item feed" served_more_than big-200 "$before"
  # Parsed, shown in the menu, announced and saved before the window opens.
  sleep 3
  probe lwn-tray-open --runs 1 idle=idle:2 open=open:action:4
  stop_applet
done

echo "W: lwn-tray --interval 1 --show, 1,000 items"
fresh_state
server "control?mode=big&hold=0"
before=$(served big-200)
start_applet lwn-tray-window "$lwn_tray" --feed-url "$feed_url" --interval 1 --show
wait_for 30 "the 1,000-item feed" served_more_than big-200 "$before"
sleep 3
probe lwn-tray-window idle=idle:5 changed-1000=refresh:big:big-200 fresh-1000=refresh:fresh:fresh-200 \
  mark-all-read=action:mark-all-read:fresh:fresh-200
stop_applet

echo
echo "Load average after: $(cut -d ' ' -f 1-3 /proc/loadavg) (run took $((($(now_ns) - started) / 1000000000)) s)"
echo
"$python" bench/window-probe.py report --samples "$tmp/samples"
