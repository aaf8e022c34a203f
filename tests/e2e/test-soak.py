#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs the applet through 300 one-second refreshes of a feed that keeps changing
and checks that memory and file descriptors stay flat, that every new headline is
announced exactly once, and that the menu ends up showing the last feed."""

import collections
import os
import sys
import time

import lwn_e2e as e2e

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
BULLET = e2e.BULLET
MIB = 1024 * 1024

REFRESHES = 300
WARM_UP = 30
# The feed changes on every CHANGE_EVERY-th answered request, adding 1, 2 or 3
# items at the top (at most three, so that each gets a notification of its own)
# and dropping the oldest beyond FEED_SIZE.
CHANGE_EVERY = 4
FEED_SIZE = 15
MAX_RSS_GROWTH = 1 * MIB
# 300 one-second refreshes take a little over five minutes; this leaves room for
# a loaded machine without letting a stalled applet run into meson's timeout.
DEADLINE_SECONDS = 480


def item(number):
    return e2e.headline(number, "Soak headline %d" % number)


def headline_labels(entries):
    return [entry["label"] for entry in e2e.split_menu(entries)[0]]


def memory_and_fds(applet):
    return applet.proc_status()["VmRSS"], applet.fds()


def test_soak(s):
    """300 refreshes, a change every few: RSS and fds flat, each new item notified once."""
    next_number = 941000
    items = [item(next_number + index) for index in range(FEED_SIZE)][::-1]
    next_number += FEED_SIZE
    s.server.set_items(items)
    applet = s.start(interval=1)
    menu = applet.menu()
    menu.wait(lambda entries: headline_labels(entries) == [BULLET + entry["title"] for entry in items], "the first feed")

    added = []
    changes = 0
    next_change = CHANGE_EVERY
    warm = None
    deadline = time.monotonic() + DEADLINE_SECONDS
    started = time.monotonic()
    while True:
        applet.assert_alive()
        answered = len(s.server.answered())
        if warm is None and answered >= WARM_UP:
            warm = memory_and_fds(applet)
        if answered >= REFRESHES:
            break
        if answered >= next_change:
            count = 1 + changes % 3
            fresh = [item(next_number + index) for index in range(count)][::-1]
            next_number += count
            changes += 1
            added += fresh
            items = (fresh + items)[:FEED_SIZE]
            s.server.set_items(items)
            next_change = answered + CHANGE_EVERY
        assert time.monotonic() < deadline, "only %d refreshes after %ds" % (answered, DEADLINE_SECONDS)
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    end = memory_and_fds(applet)

    statuses = collections.Counter(record["status"] for record in s.server.answered())
    print("# %d refreshes in %.0fs: %r; %d changes, %d new items" % (REFRESHES, elapsed, dict(statuses), changes, len(added)))
    assert statuses[304] > REFRESHES // 2 and statuses[200] > changes // 2, statuses

    growth = end[0] - warm[0]
    print(
        "# VmRSS %d KiB after %d refreshes, %d KiB after %d (%+d KiB); %d fds then, %d fds now"
        % (warm[0] // 1024, WARM_UP, end[0] // 1024, REFRESHES, growth // 1024, len(warm[1]), len(end[1]))
    )
    assert growth < MAX_RSS_GROWTH, "VmRSS grew by %d KiB" % (growth // 1024)
    assert len(end[1]) == len(warm[1]), "fds after warm-up %r, at the end %r" % (warm[1], end[1])

    expected = [BULLET + entry["title"] for entry in items]
    menu.wait(lambda entries: headline_labels(entries) == expected, "the last feed in the menu")

    titles = {entry["title"] for entry in added}
    notifications = s.notifier.notifications()
    # The first run announces the starting feed as a whole, at most once.
    initial = [n for n in notifications if n.summary not in titles]
    assert len(initial) <= 1, initial
    s.notifier.wait_count(len(initial) + len(added))
    time.sleep(1.0)
    counts = collections.Counter(n.summary for n in s.notifier.notifications() if n.summary in titles)
    missing = sorted(titles - set(counts))
    repeated = sorted(title for title, count in counts.items() if count > 1)
    assert not missing and not repeated, "never notified: %r; notified more than once: %r" % (missing, repeated)
    assert len(s.notifier.notifications()) == len(initial) + len(added), s.notifier.notifications()[-5:]
    assert applet.stop() == 0


TESTS = [("300 one-second refreshes of a changing feed", test_soak)]


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-soak.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    return e2e.run_tap(TESTS, lambda func: e2e.Scenario(BINARY))


if __name__ == "__main__":
    sys.exit(main())
