#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the headlines window with 200 feeds of 20 headlines (4,000 in "All feeds"): the time to its first frame next to an empty GtkWindow's, and the longest main-loop stall while "All feeds" is scrolled, searched as one types, and a feed is chosen in the header bar's list of feeds.
#
# Usage, from the top of the source tree: bench/bench-window-feeds.sh [BUILD_DIR]   (default: build)
# RUNS=N sets how many windows each program opens and how many events each phase holds
# (default 10); FEEDS=N follows N feeds rather than 200; KEEP_DIR=DIR keeps the samples
# and the applets' logs there; STALL_RT=0 measures without SCHED_FIFO (which needs root),
# so that other load on the machine counts as stalls; PHASES=LETTERS runs only those of
# the phases below (default EFOW; PHASES=EO times the first frame beside GTK's alone).
#
# The feeds are files, written here from bench/make-feed.py's 20-item feed: each has a
# name ("Bench feed 001"), item addresses and ids (https://feed001.example.org/…) and
# titles ("001: …") of its own, and lwn-tray follows them all (--feed-url file://… 200
# times, in a fresh state, so that all 4,000 headlines are unread); the window is opened
# once the tray's title counts 4,000 unread and three seconds have passed. The first frame
# is timed by bench/window-probe.py, which reads the screen every 2 ms until the window's
# first rows show (an empty window: until its background does); the stalls are measured as
# bench/bench-stall.sh measures them (bench/stall_probe.py: dbusmenu round-trips on the
# main loop, one at a time, 1 ms apart). Keys, clicks and the mouse wheel go to the window
# through XTest, as a person's would. All in the private world of bench/bench-session.sh
# (Xvfb with a black root and no window manager, so that a window opens at the screen's
# corner; a private session bus, a mock StatusNotifierWatcher and notification daemon;
# GSETTINGS_BACKEND=memory). The run, about twelve minutes on two cores:
#   E  N runs of floor-applet --signals --empty-window: idle, then an empty GtkWindow of
#      the headlines window's default size opened (SIGHUP): what GTK itself takes.
#   F  N runs of floor-applet --signals: idle, then its window of 12 rows opened.
#      Each window is the first of its process, as lwn-tray's are below: the first
#      window of a GTK program pays for its fonts, theme and icons.
#   O  N runs of lwn-tray --interval 3600 with the 200 feeds loaded: idle, then "Show
#      Headlines…" (the show-headlines action, over org.gtk.Actions). The window opens on
#      the first feed, with the list of feeds (201 entries) in its header bar.
#   W  lwn-tray --interval 3600 with the 200 feeds, its window open: "All feeds" chosen
#      in the list of feeds (a click on it, Home, Return); N times "workqueue" typed and
#      erased a key at a time (0.4 s apart); N times a feed chosen (a click, Home, Down
#      as many times as the round's number, Return) and "All feeds" again; N times 5
#      Page Downs, 5 turns of the wheel of 3 notches and Home. Then N times End and
#      Home (End makes the rows of the last headlines, and the list the rows a page
#      around what shows); and the search and the feeds chosen again, with the rows
#      End left. Every click, key and turn of the wheel is an event.
set -euo pipefail

bench_name=bench-window-feeds.sh
# -br: a black root, so that the probe sees a window's rows as the first text there.
bench_xvfb_args=(-br)
# --timeout 0: the watcher only records registrations (as in bench-stall.sh).
bench_watcher_args=(--timeout 0)
bench_probe=bench/window-probe.py
# shellcheck source=bench/bench-session.sh
source "$(dirname "$0")/bench-session.sh" "${1:-build}"
bench_start_session

n_feeds=${FEEDS:-200}
n_items=20
total=$((n_feeds * n_items))

# One feed of LWN's shape, made 200 feeds that share nothing but their shape.
"$python" bench/make-feed.py --items "$n_items" "$tmp/base.rdf"
mkdir -p "$tmp/feeds"
"$python" - "$tmp/base.rdf" "$tmp/feeds" "$n_feeds" <<'EOF'
import re
import sys

base, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(base, encoding="utf-8") as f:
    text = f.read()
for number in range(1, count + 1):
    feed = text.replace("<title>LWN.net</title>", f"<title>Bench feed {number:03d}</title>", 1)
    feed = feed.replace("https://lwn.net/", f"https://feed{number:03d}.example.org/")
    feed = re.sub(r"(<item [^>]*>\s*<title>)", rf"\g<1>{number:03d}: ", feed)
    with open(f"{folder}/feed-{number:03d}.rdf", "w", encoding="utf-8") as f:
        f.write(feed)
EOF
feed_args=()
for ((i = 1; i <= n_feeds; i++)); do
  feed_args+=(--feed-url "file://$tmp/feeds/$(printf 'feed-%03d.rdf' "$i")")
done

# No feed comes from the server; the probe holds and lets go its answers all the same.
bench_start_feed_server --feed tests/data/lwn-headlines-2023-07.rdf --big tests/data/lwn-headlines-2023-07.rdf

# unread: the count in the tray item's title ("LWN.net — 4000 unread"), 0 without one.
unread() {
  local name path
  read -r name path <<<"$app_item"
  gdbus call --session --dest "$name" --object-path "$path" --method org.freedesktop.DBus.Properties.Get \
    org.kde.StatusNotifierItem Title 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) unread.*/\1/p' | grep . || echo 0
}

all_unread() {
  (($(unread) >= total))
}

# start_feeds NAME: lwn-tray with every feed, in a fresh state, once all are shown.
start_feeds() {
  fresh_state
  start_applet "$1" "$lwn_tray" "${feed_args[@]}" --interval 3600
  wait_for 120 "$total unread headlines in $n_feeds feeds" all_unread
  # Parsed, shown in the menu, announced and saved before the window opens.
  sleep 3
}

bench_header "lwn-tray headlines window benchmark, $n_feeds feeds of $n_items headlines"

# The first GTK client of a display probes OpenGL for its visuals (see bench-applet.sh).
start_applet warm-up "$floor_applet"
stop_applet

phases=${PHASES:-EFOW}
# phase LETTER: whether PHASES holds that phase.
phase() {
  [[ $phases == *"$1"* ]]
}

if phase E; then
  echo "E: floor-applet, $runs empty windows opened"
  for ((i = 0; i < runs; i++)); do
    start_applet floor-empty "$floor_applet" --signals --empty-window
    sleep 1
    probe floor-empty --runs 1 idle=idle:2 open=open:signal:4:painted
    stop_applet
  done
fi

if phase F; then
  echo "F: floor-applet, $runs windows of 12 rows opened"
  for ((i = 0; i < runs; i++)); do
    start_applet floor-rows "$floor_applet" --signals
    sleep 1
    probe floor-rows --runs 1 idle=idle:2 open=open:signal:4
    stop_applet
  done
fi

if phase O; then
  echo "O: lwn-tray, $n_feeds feeds, $runs windows opened"
  for ((i = 0; i < runs; i++)); do
    start_feeds lwn-tray-feeds-open
    probe lwn-tray-feeds-open --runs 1 idle=idle:2 open=open:action:4
    stop_applet
  done
fi

if phase W; then
  echo "W: lwn-tray, $n_feeds feeds, the window open"
  start_feeds lwn-tray-feeds
  probe lwn-tray-feeds idle=idle:5 open=open:action:4 all-feeds=choose:all search=type:workqueue filter=choose:cycle \
    scroll=scroll:5 ends=ends search-end=type:workqueue filter-end=choose:cycle
  stop_applet
fi

bench_footer
"$python" bench/window-probe.py report-feeds --samples "$tmp/samples"
