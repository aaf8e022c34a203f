#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the longest time lwn-tray's main loop is unavailable during refreshes, clicks and announcements, next to a minimal GTK3 + AppIndicator applet.
#
# Usage, from the top of the source tree: bench/bench-stall.sh [BUILD_DIR]   (default: build)
# RUNS=N sets how many events each phase holds (default 10); KEEP_DIR=DIR keeps the
# samples, the applets' logs and the feed server's log there; STALL_RT=0 measures without
# SCHED_FIFO (which needs root), so that other load on the machine counts as stalls.
#
# bench/stall_probe.py calls each applet's dbusmenu (GetGroupProperties, which libdbusmenu
# answers on the main loop) one call at a time, 1 ms apart, and times every round-trip;
# a stall is a round-trip less the applet's median one when idle. Beside each, it notes
# what the main thread did meanwhile (its schedstat), a Peer.Ping round-trip (answered
# without the main loop) and a 1 ms sleep's lateness, to tell the applet's stalls from
# the machine's. Run as root, the threads on a round-trip's path run SCHED_FIFO.
# Everything runs in the private world of bench/bench-session.sh: Xvfb, a private D-Bus
# session bus with a mock StatusNotifierWatcher (which here does not read the menus) and
# a dbusmock notification daemon, temporary HOME and XDG_* directories, a desktop entry
# running `true` as the web browser, and feeds served from 127.0.0.1 by
# bench/mock-feed-server.py. The run, about four minutes on two cores:
#   F  floor-applet --signals: idle; its 3 labels changed (SIGUSR1) N times;
#      its main loop kept busy 10 ms (SIGUSR2) N times, to check the probe.
#   A  N first runs of lwn-tray (empty state, --interval 3600), the server holding the
#      first answer until the probe runs: 20 new items, announced as one notification.
#   B  lwn-tray --interval 1 (GSETTINGS_BACKEND=memory): idle (the server holds the
#      request); N 304s of LWN's feed; N clicks on its unread headlines; N
#      changed 15-item feeds; N changed 1,000-item feeds; N feeds of 20 new items.
#   C  lwn-tray --interval 1, max-items=50 (GSETTINGS_BACKEND=keyfile): idle; N changed
#      feeds of 50 items with 60 KB descriptions; N clicks on them.
#   N  lwn-tray while a NetworkManager that owns its name on a private system bus never
#      answers (GIO_USE_NETWORK_MONITOR=networkmanager): idle for 10 s, well within the
#      25 s GLib's monitor waits. tests/e2e/test-gui.py checks only that the menu answers then.
#   H  lwn-tray while the notification server keeps its name but never answers (the
#      dbusmock daemon replaced): 20 new items announced, as in A.
#      tests/e2e/test-reading.py checks only that the menu answers then.
set -euo pipefail

bench_name=bench-stall.sh
# --timeout 0: the watcher only records registrations; its menu polling would load the
# main loops being measured.
bench_watcher_args=(--timeout 0)
bench_probe=bench/stall_probe.py
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
bench_start_session

feed=tests/data/lwn-headlines-2023-07.rdf
"$builddir/bench/bench-parse" --write 1000 "$tmp/big.rdf"
"$python" bench/make-feed.py --items 20 --fresh "$tmp/fresh.rdf"
"$python" bench/make-feed.py --items 50 --description-bytes 61440 "$tmp/long.rdf"
# At 100 Mbit/s, as from a real server: a 3 MB answer sent at once through loopback keeps
# a CPU in the kernel for milliseconds, which would show as a stall of whatever runs there.
bench_start_feed_server --feed "$feed" --big "$tmp/big.rdf" --fresh "fresh=$tmp/fresh.rdf" \
  --mode "long=$tmp/long.rdf" --rate 12500000

bench_header "lwn-tray main-loop stall benchmark"

# The first GTK client of a display probes OpenGL for its visuals (see bench-applet.sh).
start_applet warm-up "$floor_applet"
stop_applet

echo "F: floor-applet"
start_applet floor "$floor_applet" --signals
sleep 1
probe floor-applet idle=idle:10 relabel=signal:USR1 injected=signal:USR2
stop_applet

echo "A: lwn-tray, $runs first runs"
for ((i = 0; i < runs; i++)); do
  fresh_state
  server "control?mode=fresh&hold=1"
  start_applet lwn-tray-first "$lwn_tray" --feed-url "$feed_url" --interval 3600
  probe lwn-tray-first idle=idle:1 announce-20-first=release:2.5
  stop_applet
done

echo "B: lwn-tray --interval 1"
fresh_state
server "control?mode=same&hold=0"
before=$(served same-200)
start_applet lwn-tray "$lwn_tray" --feed-url "$feed_url" --interval 1
wait_for 20 "the first answer" served_more_than same-200 "$before"
sleep 1
probe lwn-tray idle=idle:10 304=refresh:same:same-304 click=click \
  changed-15=refresh:changed:changed-200 changed-1000=refresh:big:big-200 announce-20=refresh:fresh:fresh-200
stop_applet

echo "C: lwn-tray --interval 1, 50 headlines of 60 KB"
fresh_state
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
# The group is the schema's path without its final slash.
printf '[io/github/lwntray/LwnTray]\nmax-items=50\n' >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
server "control?mode=long&hold=0"
before=$(served long-200)
export GSETTINGS_BACKEND=keyfile
start_applet lwn-tray-long "$lwn_tray" --feed-url "$feed_url" --interval 1
export GSETTINGS_BACKEND=memory
wait_for 30 "the first answer" served_more_than long-200 "$before"
sleep 2
probe lwn-tray-50 idle=idle:5 changed-long=refresh:long:long-200 click-long=click
stop_applet

# Owns a name on the bus given and never reads a message, so that no call to it is
# answered: a service that hangs.
hanging_owner='
import signal, sys
import dbus.bus
bus = dbus.bus.BusConnection(sys.argv[1])
bus.request_name(sys.argv[2], dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
signal.pause()
'
system_bus_has_name() {
  DBUS_SESSION_BUS_ADDRESS=$system_bus bus_has_name "$1"
}
bus_lacks_name() {
  ! bus_has_name "$1"
}

echo "N: lwn-tray while NetworkManager never answers"
dbus-daemon --session --nofork --print-address=3 3>"$tmp/system-bus" >"$tmp/system-bus.log" 2>&1 &
pids+=($!)
wait_for 10 "the system bus" file_has "$tmp/system-bus"
system_bus=$(head -n 1 "$tmp/system-bus")
"$python" -c "$hanging_owner" "$system_bus" org.freedesktop.NetworkManager >"$tmp/hanging-nm.log" 2>&1 &
pids+=($!)
wait_for 10 "the hanging NetworkManager" system_bus_has_name org.freedesktop.NetworkManager
fresh_state
server "control?mode=same&hold=0"
DBUS_SYSTEM_BUS_ADDRESS=$system_bus GIO_USE_NETWORK_MONITOR=networkmanager \
  start_applet lwn-tray-nm "$lwn_tray" --feed-url "$feed_url" --interval 3600
probe lwn-tray-nm idle=idle:10
stop_applet

echo "H: lwn-tray, $runs first runs while the notification server never answers"
notifications_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.Notifications | sed -n 's/.*uint32 \([0-9]*\).*/\1/p')
kill -TERM "$notifications_pid"
wait_for 10 "the mock notification daemon to go" bus_lacks_name org.freedesktop.Notifications
"$python" -c "$hanging_owner" "$DBUS_SESSION_BUS_ADDRESS" org.freedesktop.Notifications >"$tmp/hanging-notifications.log" 2>&1 &
pids+=($!)
wait_for 10 "the hanging notification server" bus_has_name org.freedesktop.Notifications
for ((i = 0; i < runs; i++)); do
  fresh_state
  server "control?mode=fresh&hold=1"
  start_applet lwn-tray-hung "$lwn_tray" --feed-url "$feed_url" --interval 3600
  probe lwn-tray-hung idle=idle:1 announce-20-hung=release:2.5
  stop_applet
done

bench_footer
"$python" bench/stall_probe.py report --samples "$tmp/samples"
