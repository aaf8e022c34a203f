# SPDX-License-Identifier: GPL-3.0-or-later
"""What lwn-tray should show and announce after any sequence of events, by the rules the
README documents: the menu shows the first max-items headlines of the feed, unread ones
with a bullet; what was read and announced is kept on disk (the last 1,000 of each, last
as in last seen in a feed, and never one of the feed shown: issue 14 says how a long feed
must not forget its own); a new headline is announced once the state that records it is
on disk, and while the state cannot be saved, announcements wait; up to
LWN_READER_MAX_SINGLE_ANNOUNCEMENTS (3) new headlines get a notification each, more get one
grouped notification, and a first run announces its feed as one; LWN's "Security updates
for …" lists are announced only if notify-security-updates is on; nothing is announced
with notifications off, but what arrives meanwhile still counts as announced.

The model only follows what the test did and what the feed server answered (its request
log); it never reads the applet's state, so that it can disagree with it."""

import re

MAX_SINGLE = 3
# The README: "what was read and announced (the last 1,000 of each)".
KEPT_IDS = 1000
BULLET = "\u2022 "
GROUP = re.compile(r"^(\d+) new headlines? from (.+)$")


class Item:
    """One headline of a test feed: its id is its link, as in LWN's RSS 1.0 feed, and
    the URL it must open is that link with LWN's old /rss suffix rewritten away."""

    def __init__(self, number, title, *, old_style=False, security=False):
        self.number = number
        self.title = title
        self.old_style = old_style
        self.security = security
        self.url = "https://lwn.net/Articles/%d/" % number
        self.id = self.url + ("rss" if old_style else "")

    def entry(self, e2e):
        return e2e.headline(self.number, self.title, old_style=self.old_style)

    def __repr__(self):
        return "<%s>" % self.title


class Batch:
    """What one announcement should look like: items in feed order, and whether the
    model is sure of it (an id that may have been forgotten may count as new or not)."""

    def __init__(self, items, first_run, maybe):
        self.items = items
        self.first_run = first_run
        self.maybe = maybe
        self.sure = not maybe


class Model:
    def __init__(self, feed_titles):
        self.items = {}  # id → Item, every item ever published
        self.by_title = {}
        self.server = {name: [] for name in feed_titles}  # what the server serves now
        self.server_generation = {name: 0 for name in feed_titles}
        self.versions = {name: {} for name in feed_titles}  # generation → items
        self.applied = {name: None for name in feed_titles}  # last 200 the applet took: (generation, items)
        self.current = next(iter(feed_titles))
        self.shown = None  # items shown, None before the first answer of this feed
        self.error = None  # why the last load failed, as a word the status line must hold
        self.manual_unchanged = False

        self.read_mem, self.read_disk = set(), set()
        self.ann_mem, self.ann_disk = set(), set()
        self.last_seen = {}  # id → tick when last in a feed the applet took
        self.tick = 0
        self.unsure = set()  # ids the applet may have forgotten (read or announced)
        self.ever_unsure = set()  # and those it may have announced twice, then
        self.pending = []  # items recorded as announced in memory, not yet on disk
        self.pending_first_run = False
        self.pending_maybe = []  # items the applet may or may not take for new
        self.save_error = False
        self.locked = False
        self.saves = 0  # successful saves so far, for the test to wait for the disk

        self.notifications = True
        self.security = True
        self.max_items = 20

        self.notifier_up = True
        self.flapping = False  # the notification server is being replaced right now
        self.host_up = True
        # Once told (in a setting, which outlives restarts) that the applet runs on
        # without a window where no tray shows it, the window does not say so again.
        self.background_notice_shown = False
        self.headlines_open = False
        self.preferences_open = False

        # Announcements the applet owes, oldest first, each a Batch with how it is shown.
        self.expected = []
        self.open_singles = set()  # ids whose notification is still on screen
        self.group_chain = None  # ids in the grouped notification on screen, or None
        self.chain_unknown = False  # the group on screen may hold more than the model knows
        self.opened = []  # URLs the applet must have opened, in order

    # Feeds ----------------------------------------------------------------

    def add_item(self, item):
        self.items[item.id] = item
        self.by_title[item.title] = item

    def publish(self, feed, items):
        self.server[feed] = list(items)
        self.server_generation[feed] += 1
        self.versions[feed][self.server_generation[feed]] = list(items)

    def _forget_check(self):
        """Ids the rules let the applet forget become unsure from now on."""
        if len(self.last_seen) <= KEPT_IDS:
            return
        shown = {item.id for item in self.shown or []}
        ordered = sorted(self.last_seen, key=self.last_seen.get, reverse=True)
        for item_id in ordered[KEPT_IDS:]:
            if item_id not in shown:
                self.unsure.add(item_id)
                self.ever_unsure.add(item_id)

    # Answers of the feed server, in the order the applet got them ----------

    def take_feed(self, generation, items):
        """A 200 for the current feed: shown, its new items recorded as announced in
        memory, then saved; the save announces them."""
        self.applied[self.current] = (generation, list(items))
        self.shown = list(items)
        self.error = None
        self.tick += 1
        for item in items:
            self.last_seen[item.id] = self.tick
        first_run = not self.ann_mem
        fresh = []
        for item in items:
            if item.id in self.unsure:
                # Forgotten or not: the applet may count it as new.
                self.pending_maybe.append(item)
            elif item.id not in self.ann_mem:
                self.ann_mem.add(item.id)
                fresh.append(item)
        self._forget_check()
        self.pending.extend(fresh)
        self.pending_first_run |= first_run and bool(fresh)
        self.save()

    def not_modified(self):
        self.error = None
        if self.save_error or self.pending:
            self.save()

    def failed(self, reason):
        self.error = reason
        if self.save_error:
            self.save()

    # Saving and announcing --------------------------------------------------

    def save(self):
        if self.locked:
            self.save_error = True
            return
        self.save_error = False
        self.saves += 1
        self.read_disk = set(self.read_mem)
        self.ann_disk = set(self.ann_mem)
        if self.pending or self.pending_maybe:
            batch = Batch(self.pending, self.pending_first_run, self.pending_maybe)
            self.pending, self.pending_first_run, self.pending_maybe = [], False, []
            self.announce(batch)

    def announce(self, batch):
        if not self.notifications:
            return
        batch.items = [item for item in batch.items if self.security or not item.security]
        batch.maybe = [item for item in batch.maybe if self.security or not item.security]
        batch.sure = not batch.maybe
        if not batch.items and batch.sure:
            return
        if not self.notifier_up:
            # No server answers: nothing is shown, and nothing is owed.
            return
        limit = 1 if batch.first_run else MAX_SINGLE
        batch.group = len(batch.items) > limit
        batch.chain_unknown = self.chain_unknown
        if not batch.sure or self.flapping:
            # Whatever it shows, the notifications on screen are unknown from now on.
            batch.group = None
            self.chain_unknown = True
        self.expected.append(batch)
        if batch.group is False:
            self.open_singles.update(item.id for item in batch.items)
        elif batch.group:
            if self.group_chain is None:
                self.group_chain = []
            batch.chain_before = list(self.group_chain)
            batch.chain_unread_before = sum(1 for item_id in self.group_chain if item_id not in self.read_mem)
            self.group_chain.extend(item.id for item in batch.items)

    # What people do -------------------------------------------------------

    def is_unread(self, item):
        """True or False, or None when the rules allow either."""
        if item.id in self.unsure:
            return None
        return item.id not in self.read_mem

    def mark_read(self, item):
        """lwn_reader_open() of a shown item: read, its notification withdrawn."""
        self.open_singles.discard(item.id)
        if item.id in self.read_mem:
            return
        self.read_mem.add(item.id)
        self.unsure.discard(item.id)
        self.save()

    def mark_all_read(self):
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = False
        changed = False
        for item in self.shown or []:
            if item.id not in self.read_mem:
                self.read_mem.add(item.id)
                changed = True
            self.unsure.discard(item.id)
        if changed:
            self.save()

    def open_item(self, item):
        """A click on a shown headline, or the action of its notification."""
        self.opened.append(item.url)
        if self.shown is not None and item in self.shown:
            self.mark_read(item)

    def switch(self, feed):
        # A group on screen is about the other feed: whether the next one adds to it or
        # starts afresh is the applet's choice.
        if self.group_chain is not None:
            self.chain_unknown = True
        self.current = feed
        self.shown = None
        self.error = None
        self.manual_unchanged = False

    def notifier_gone(self):
        self.notifier_up = False
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = False

    def notifier_replaced(self):
        """A new server knows none of the old one's notifications, and what was
        announced while it came may be on its screen: none the model can name."""
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = True

    def stop(self):
        """A clean exit: the last save waits for the disk, and nothing pending is
        announced; with the folder locked, only what was on disk before survives."""
        if not self.locked:
            self.read_disk = set(self.read_mem)
            self.ann_disk = set(self.ann_mem)
        self.headlines_open = self.preferences_open = False
        # A new process knows none of the notifications on screen.
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = False

    def start(self):
        self.read_mem = set(self.read_disk)
        self.ann_mem = set(self.ann_disk)
        self.pending, self.pending_first_run, self.pending_maybe = [], False, []
        self.save_error = False
        self.error = None
        self.manual_unchanged = False
        applied = self.applied[self.current]
        # The saved copy is shown until the network answers.
        self.shown = list(applied[1]) if applied else None

    # What the views must show --------------------------------------------

    def menu_rows(self):
        """[(item, unread or None)] for the menu's headline rows."""
        rows = []
        seen = set()
        for item in self.shown or []:
            if item.id in seen:
                continue
            seen.add(item.id)
            rows.append((item, self.is_unread(item)))
            if len(rows) == self.max_items:
                break
        return rows

    def window_rows(self):
        return [(item, self.is_unread(item)) for item in self.shown or []]

    def unread_count(self):
        return sum(1 for item in self.shown or [] if item.id not in self.read_mem)

    def status_prefixes(self):
        """The status line's possible beginnings, as compute_status() orders them."""
        if self.error is not None:
            return ("Last update failed: ",)
        if self.save_error:
            return ("Notifications paused: ",)
        if self.manual_unchanged:
            return ("Up to date",)
        return ("Updated ",)
