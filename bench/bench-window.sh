#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the headlines window with 1,000 items: the time to its first frame, and the longest main-loop stall while it opens, on a changed feed, on Mark All as Read and per keystroke of a search, next to a minimal GTK3 + AppIndicator program.
#
# Usage, from the top of the source tree: bench/bench-window.sh [BUILD_DIR]   (default: build)
# RUNS=N sets how many events each phase holds (default 10); KEEP_DIR=DIR keeps the
# samples, the applets' logs and the feed server's log there; STALL_RT=0 measures without
# SCHED_FIFO (which needs root), so that other load on the machine counts as stalls.
#
# The stalls are measured as bench/bench-stall.sh measures them (bench/stall_probe.py:
# dbusmenu round-trips on the main loop, one at a time, 1 ms apart); the first frame by
# bench/window-probe.py, which reads the screen until the window's first rows show. Both
# in the private world of bench/bench-session.sh: Xvfb (black root, no window manager, so a
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
#      (the mark-all-read action) two seconds after 1,000 new items arrived; then a
#      search: Ctrl+F, and N times "workqueue" typed and erased a key at a time
#      (XTest, 0.4 s apart), each keystroke an event.
set -euo pipefail

bench_name=bench-window.sh
# -br: a black root, so that the probe sees a window's rows as the first text there.
bench_xvfb_args=(-br)
# --timeout 0: the watcher only records registrations (as in bench-stall.sh).
bench_watcher_args=(--timeout 0)
bench_probe=bench/window-probe.py
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
bench_start_session

feed=tests/data/lwn-headlines-2023-07.rdf
"$builddir/bench/bench-parse" --write 1000 "$tmp/big.rdf"
"$python" bench/make-feed.py --items 1000 --fresh "$tmp/fresh.rdf"
bench_start_feed_server --feed "$feed" --big "$tmp/big.rdf" --fresh "fresh=$tmp/fresh.rdf" --rate 12500000

bench_header "lwn-tray headlines window benchmark"

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
  mark-all-read=action:mark-all-read:fresh:fresh-200 search=type:workqueue
stop_applet

bench_footer
"$python" bench/window-probe.py report --samples "$tmp/samples"
