# shellcheck shell=bash disable=SC2034 # lwn_tray, feed_url...: for the scripts that source it
# SPDX-License-Identifier: GPL-3.0-or-later
# The private world bench/bench-applet.sh, bench-stall.sh, bench-window.sh, bench-feeds.sh, bench-many-feeds.sh and check-costs.sh measure applets in, sourced by each.
#
# Usage, in a bash script run from the top of the source tree, with set -euo pipefail:
#   bench_name=bench-foo.sh            # the script, for messages
#   ...                                # the optional settings below
#   source "$(dirname "$0")/bench-session.sh" "${1:-build}"
#   bench_start_session
#   bench_start_feed_server --feed FILE ...
#
# Sourcing checks the tools, builds lwn-tray, floor-applet and bench-parse in the build
# folder (set up if missing), makes a temporary folder ($tmp) and arranges for every
# process started into $pids to be stopped and the folder removed on exit; KEEP_DIR=DIR
# keeps the logs (*.log) and the probe's samples there. bench_start_session then starts
# the private session: temporary HOME and XDG_* directories, GSETTINGS_BACKEND=memory
# with the build's schema, a desktop entry running `true` as the web browser, Xvfb, a
# private D-Bus session bus, a mock StatusNotifierWatcher (bench/mock-watcher.py) and a
# dbusmock notification daemon.
#
# Optional settings, before sourcing:
#   bench_tools         more programs the script needs, besides Xvfb, dbus-daemon and curl
#   bench_xvfb_args     (array) more Xvfb arguments
#   bench_watcher_args  (array) bench/mock-watcher.py's arguments besides --log
#   bench_probe         what `probe` runs: bench/stall_probe.py or bench/window-probe.py
#   bench_served_from   how `served` counts the feed server's answers: "log" (default)
#                       reads its log, "stats" asks the server (GET /stats)
#   poll_interval       how often wait_for polls, in seconds (default 0.05)
# RUNS=N sets how many events each probe phase holds (default 10); STALL_RT=0 runs the
# probe without SCHED_FIFO.

bench_name=${bench_name:-$(basename "$0")}
builddir=${1:-build}
if [ -n "${KEEP_DIR:-}" ]; then
  mkdir -p "$KEEP_DIR"
  KEEP_DIR=$(cd "$KEEP_DIR" && pwd)
fi
runs=${RUNS:-10}
python=/usr/bin/python3
poll_interval=${poll_interval:-0.05}
bench_probe=${bench_probe:-bench/stall_probe.py}
bench_served_from=${bench_served_from:-log}
if ! declare -p bench_xvfb_args >/dev/null 2>&1; then
  bench_xvfb_args=()
fi
if ! declare -p bench_watcher_args >/dev/null 2>&1; then
  bench_watcher_args=()
fi

if [ ! -f meson.build ] || [ ! -d bench ]; then
  echo "$bench_name: run me from the top of the source tree" >&2
  exit 2
fi
for tool in Xvfb dbus-daemon curl ${bench_tools:-}; do
  if ! command -v "$tool" >/dev/null; then
    echo "$bench_name: $tool is missing (see build-aux/install-deps.sh --test)" >&2
    exit 2
  fi
done
if ! "$python" -c 'import gi, dbusmock; gi.require_version("Gdk", "3.0")' 2>/dev/null; then
  echo "$bench_name: $python needs python3-gi, gir1.2-gtk-3.0 and python3-dbusmock" >&2
  exit 2
fi

# Whatever stops a benchmark says what it was: a check that ends with a status
# alone leaves its reader guessing.
set -E
trap 'echo "$bench_name: stopped at line $LINENO of ${BASH_SOURCE[0]}: \"$BASH_COMMAND\" failed" >&2' ERR

# Building says nothing when it works, and all it said when it does not.
bench_build_log=$(mktemp)
if { [ -d "$builddir" ] || meson setup "$builddir"; } >"$bench_build_log" 2>&1 &&
  # gsettings-compile-data: the schema, for GSETTINGS_SCHEMA_DIR below.
  meson compile -C "$builddir" lwn-tray floor-applet bench-parse gsettings-compile-data >>"$bench_build_log" 2>&1; then
  rm -f "$bench_build_log"
else
  trap - ERR
  echo "$bench_name: could not build lwn-tray and its references in $builddir:" >&2
  tail -n 40 "$bench_build_log" >&2
  rm -f "$bench_build_log"
  exit 2
fi
builddir=$(cd "$builddir" && pwd)

lwn_tray=$builddir/src/lwn-tray
floor_applet=$builddir/bench/floor-applet

# Other work on the machine (builds, tests) would delay the probe's round-trips and pass
# for stalls: the threads on a round-trip's path run SCHED_FIFO (see stall_probe.py) when
# allowed. STALL_RT=0 measures without.
realtime=10
if [ "${STALL_RT:-1}" = 0 ] || ! chrt -f 1 true 2>/dev/null; then
  realtime=0
fi

tmp=$(mktemp -d)
pids=()

bench_cleanup() {
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
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

now_ns() {
  date +%s%N
}

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every poll_interval seconds;
# fails after SECONDS.
wait_for() {
  local timeout=$1 what=$2
  shift 2
  local deadline=$(($(now_ns) + timeout * 1000000000))
  until "$@"; do
    if (($(now_ns) > deadline)); then
      echo "$bench_name: timed out after ${timeout} s waiting for $what" >&2
      return 1
    fi
    sleep "$poll_interval"
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

# log_time EVENT NAME: the time of the watcher's first EVENT line for bus name NAME.
log_time() {
  awk -v e="$1" -v n="$2" '$1 == e && $3 == n { print $2; exit }' "$tmp/watcher.log"
}

log_has() {
  [ -n "$(log_time "$1" "$2")" ]
}

# menu_seen NAME: the watcher has read NAME's menu until a title showed, or gave up
# (with --title, see bench_watcher_args).
menu_seen() {
  log_has menu "$1" || log_has menu-timeout "$1" || log_has menu-error "$1"
}

# server_answer PATH: the feed server's answer to GET PATH (e.g. stats).
server_answer() {
  curl -sf --max-time 5 "http://127.0.0.1:$port/$1"
}

# server PATH: tells the feed server, e.g. "control?mode=same&hold=0".
server() {
  server_answer "$1" >/dev/null
}

# served KEY: how many answers of that kind (e.g. same-304) the feed server gave.
served() {
  if [ "$bench_served_from" = stats ]; then
    server_answer stats | awk -v k="$1" '$1 == k { n = $2 } END { print n + 0 }'
  else
    awk -v k="$1" '$2 == k { n++ } END { print n + 0 }' "$tmp/server.log"
  fi
}

served_more_than() {
  (($(served "$1") > $2))
}

bench_start_session() {
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

  Xvfb -displayfd 3 -screen 0 1280x800x24 "${bench_xvfb_args[@]}" -nolisten tcp -noreset \
    3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
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
  "$python" bench/mock-watcher.py --log "$tmp/watcher.log" "${bench_watcher_args[@]}" >"$tmp/watcher.out" 2>&1 &
  pids+=($!)
  wait_for 10 "the mock StatusNotifierWatcher" bus_has_name org.kde.StatusNotifierWatcher

  "$python" -m dbusmock --session -t notification_daemon >"$tmp/notifications.log" 2>&1 &
  pids+=($!)
  wait_for 10 "the mock notification daemon" bus_has_name org.freedesktop.Notifications
}

# bench_start_feed_server ARG...: bench/mock-feed-server.py with those arguments, logging
# to server.log; sets $port and $feed_url.
bench_start_feed_server() {
  : >"$tmp/server.log"
  "$python" bench/mock-feed-server.py "$@" --port-file "$tmp/port" --log "$tmp/server.log" \
    >"$tmp/server.out" 2>&1 &
  pids+=($!)
  wait_for 10 "the feed server" file_has "$tmp/port"
  port=$(cat "$tmp/port")
  feed_url=http://127.0.0.1:$port/feed
}

# many_feeds N: sets many_args to lwn-tray's arguments following the first N feeds of
# the feed server's --many (/feeds/0, /feeds/1, ...).
many_feeds() {
  local k
  many_args=()
  for ((k = 0; k < $1; k++)); do
    many_args+=(--feed-url "http://127.0.0.1:$port/feeds/$k")
  done
}

# refresh_applet: activates lwn-tray's refresh action on the session bus, as the menu's
# Refresh does: every feed asks at once.
refresh_applet() {
  local app_id
  app_id=$(awk -F"'" '$1 ~ /^app_id = / { print $2; exit }' meson.build)
  gdbus call --session --dest "$app_id" --object-path "/${app_id//.//}" \
    --method org.gtk.Actions.Activate refresh '[]' '{}' >/dev/null
}

# start_applet NAME COMMAND...: starts it and waits for its tray item; sets $app_pid,
# $app_start (ns), $app_lines (the watcher log's length before) and $app_item
# ("bus-name object-path").
start_applet() {
  local name=$1
  shift
  app_lines=$(log_lines)
  app_start=$(now_ns)
  "$@" >>"$tmp/$name.log" 2>&1 &
  app_pid=$!
  pids+=("$app_pid")
  wait_for 20 "$name to register with the watcher" item_registered_after "$app_lines"
  app_item=$(item_after "$app_lines")
}

# stop_pid PID: stops that process, one of the applets started.
stop_pid() {
  kill -TERM "$1" 2>/dev/null || true
  wait_for 10 "process $1 to quit" bash -c "! kill -0 $1 2>/dev/null" || kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# stop_applet: stops the applet started last.
stop_applet() {
  stop_pid "$app_pid"
}

# probe LABEL [--runs N] PHASE...: measures the applet started last with $bench_probe.
probe() {
  local label=$1 name path
  shift
  read -r name path <<<"$app_item"
  "$python" "$bench_probe" measure --name "$name" --item-path "$path" --applet "$label" \
    --samples "$tmp/samples" --server "http://127.0.0.1:$port" --server-log "$tmp/server.log" \
    --pid "$app_pid" --runs "$runs" --realtime "$realtime" --bus-pid "$bus_pid" "$@"
}

fresh_state() {
  rm -rf "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
  mkdir -p "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
}

# bench_header TITLE: the run's first lines; sets $started.
bench_header() {
  started=$(now_ns)
  echo "$1 ($(nproc) CPUs, $(uname -r), $runs events per phase)"
  echo "CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
  echo "Load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
  if ((realtime > 0)); then
    echo "Scheduling: the applets' main and GDBus threads, the bus daemon and the probe run SCHED_FIFO $realtime"
  else
    echo "Scheduling: as usual (no SCHED_FIFO: not allowed, or STALL_RT=0); other load counts as stalls"
  fi
  echo
}

bench_footer() {
  echo
  echo "Load average after: $(cut -d ' ' -f 1-3 /proc/loadavg) (run took $((($(now_ns) - started) / 1000000000)) s)"
  echo
}
