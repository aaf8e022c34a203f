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
with notifications off, but what arrives meanwhile still counts as announced. A headline
counts as announced only once a notification server showed it (issue 23): what is
announced while none is there waits for the next one, in the same run or, as far as it
is still in the feed, unread and wanted, at the next start, with the save of its first
answer (a first run's again as one group).

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

        # Announcements no notification server has shown: the batches the notifier keeps
        # for the next server in this run, and what the applet keeps pending in memory
        # and on disk (id → item), with whether they are a first run's.
        self.owed = []
        self.unshown = {}
        self.unshown_maybe = {}  # items it may keep pending: whether it took them as new is unsure
        self.unshown_first_run = False
        self.unshown_disk = ({}, {}, False)
        self.retell = None  # the Batch a start took up, for the next save to announce
        self.retell_due = False  # a start has not shown a feed yet

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
        self._shown_feed(items)
        first_run = not self.ann_mem
        fresh = []
        for item in items:
            if item.id in self.unsure:
                # Forgotten or not: the applet may count it as new.
                self.pending_maybe.append(item)
                if self.wanted(item):
                    self.unshown_maybe[item.id] = item
            elif item.id not in self.ann_mem:
                self.ann_mem.add(item.id)
                fresh.append(item)
                if self.wanted(item):
                    self.unshown[item.id] = item
                    self.unshown_first_run |= first_run
        self._forget_check()
        self.pending.extend(fresh)
        self.pending_first_run |= first_run and bool(fresh)
        self.save()

    def not_modified(self):
        self.error = None
        if self.save_error or self.pending or self.retell:
            self.save()

    def failed(self, reason):
        self.error = reason
        if self.save_error or self.retell:
            self.save()

    # Announcements no server has shown -------------------------------------

    def wanted(self, item):
        return self.notifications and (self.security or not item.security)

    def _check_first_run(self):
        if not self.unshown and not self.unshown_maybe:
            self.unshown_first_run = False

    def _drop(self, items, disk=False):
        """Not pending any more: shown, read, left out or gone from the feed; with disk,
        the applet's next save (which does not fail) records that too."""
        for item in items:
            self.unshown.pop(item.id, None)
            self.unshown_maybe.pop(item.id, None)
        self._check_first_run()
        if disk and not self.locked:
            sure, maybe, first_run = self.unshown_disk
            for item in items:
                sure.pop(item.id, None)
                maybe.pop(item.id, None)
            self.unshown_disk = (sure, maybe, first_run and bool(sure or maybe))

    def _shown_feed(self, items):
        """A feed shown: what is pending and not in it is dropped, and the first feed a
        start shows takes up what an earlier run left pending."""
        ids = {item.id for item in items}
        self._drop([item for item in list(self.unshown.values()) + list(self.unshown_maybe.values())
                    if item.id not in ids])
        if not self.retell_due:
            return
        self.retell_due = False
        first_run = self.unshown_first_run
        sure, maybe = [], []
        for item in items:
            if item.id not in self.unshown and item.id not in self.unshown_maybe:
                continue
            unread = self.is_unread(item)
            if unread is False or not self.wanted(item):
                self._drop([item])
            elif unread is None or item.id in self.unshown_maybe:
                maybe.append(item)
            else:
                sure.append(item)
        if sure or maybe:
            self.retell = Batch(sure, first_run, maybe)

    # Saving and announcing --------------------------------------------------

    def save(self):
        if self.locked:
            self.save_error = True
            return
        self.save_error = False
        self.saves += 1
        self.read_disk = set(self.read_mem)
        self.ann_disk = set(self.ann_mem)
        self.unshown_disk = (dict(self.unshown), dict(self.unshown_maybe), self.unshown_first_run)
        items, first_run, maybe = self.pending, self.pending_first_run, self.pending_maybe
        self.pending, self.pending_first_run, self.pending_maybe = [], False, []
        if self.retell is not None:
            # Only what is still pending (not read since the start, nor gone), after what is
            # new, in one announcement.
            retell, self.retell = self.retell, None
            again = [item for item in retell.items if item.id in self.unshown]
            again_maybe = [item for item in retell.maybe if item.id in self.unshown or item.id in self.unshown_maybe]
            items = items + again
            maybe = maybe + again_maybe
            first_run |= retell.first_run and bool(again or again_maybe)
        if items or maybe:
            self.announce(Batch(items, first_run, maybe))

    def announce(self, batch):
        unwanted = [item for item in batch.items + batch.maybe if not self.wanted(item)]
        self._drop(unwanted)
        if not self.notifications:
            return
        batch.items = [item for item in batch.items if self.security or not item.security]
        batch.maybe = [item for item in batch.maybe if self.security or not item.security]
        batch.sure = not batch.maybe
        if not batch.items and batch.sure:
            return
        if not self.notifier_up:
            # No server answers: the notifier keeps them for the next one.
            self.owed.append(batch)
            return
        # Shown at once: the applet records that with its next save.
        self._drop(batch.items + batch.maybe, disk=True)
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

    def _withdraw_owed(self, ids):
        """Read: what waits for a server is withdrawn, and no longer pending."""
        for batch in self.owed:
            batch.items = [item for item in batch.items if item.id not in ids]
            batch.maybe = [item for item in batch.maybe if item.id not in ids]
        self._drop([self.items[item_id] for item_id in ids])

    def mark_read(self, item):
        """lwn_reader_open() of a shown item: read, its notification withdrawn."""
        self.open_singles.discard(item.id)
        pending = item.id in self.unshown or item.id in self.unshown_maybe
        self._withdraw_owed({item.id})
        if item.id in self.read_mem:
            if pending:
                self.save()
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
            if item.id in self.unshown or item.id in self.unshown_maybe:
                changed = True
            self.unsure.discard(item.id)
        self._withdraw_owed({item.id for item in self.shown or []})
        if changed:
            self.save()

    def open_item(self, item):
        """A click on a shown headline, or the action of its notification."""
        self.opened.append(item.url)
        if self.shown is not None and item in self.shown:
            self.mark_read(item)

    def notifier_gone(self):
        self.notifier_up = False
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = False

    def notifier_back(self):
        """A server comes: the notifier shows it what waited, each once, grouped as it
        chose (the test waits for it), and the applet saves that they were shown; with
        the folder locked it cannot, and the next start may announce them again."""
        self.notifier_up = True
        items = [item for batch in self.owed for item in batch.items]
        maybe = [item for batch in self.owed for item in batch.maybe if item not in items]
        self.owed = []
        if not items and not maybe:
            return
        batch = Batch(items, False, maybe)
        batch.group = None
        self.chain_unknown = True
        self.expected.append(batch)
        recorded = any(item.id in self.unshown for item in items)
        self._drop(items + maybe)
        if self.locked:
            self.ever_unsure.update(item.id for item in items + maybe)
        if recorded:
            self.save()

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
            self.unshown_disk = (dict(self.unshown), dict(self.unshown_maybe), self.unshown_first_run)
        # What waited for a server goes with the process: what is pending on disk stays.
        self.owed = []
        self.headlines_open = self.preferences_open = False
        # A new process knows none of the notifications on screen.
        self.open_singles.clear()
        self.group_chain = None
        self.chain_unknown = False

    def start(self):
        self.read_mem = set(self.read_disk)
        self.ann_mem = set(self.ann_disk)
        self.pending, self.pending_first_run, self.pending_maybe = [], False, []
        sure, maybe, first_run = self.unshown_disk
        self.unshown, self.unshown_maybe, self.unshown_first_run = dict(sure), dict(maybe), first_run
        self.retell = None
        self.retell_due = True
        self.save_error = False
        self.error = None
        self.manual_unchanged = False
        applied = self.applied[self.current]
        # The saved copy is shown until the network answers.
        self.shown = list(applied[1]) if applied else None
        if self.shown is not None:
            self._shown_feed(self.shown)

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
