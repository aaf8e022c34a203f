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
answer (a first run's again as one group). More than three feeds without history that come
in one change of the list (an import, or a start with them) have quiet first runs: their
headlines count as announced without a notification, now or at any later start, and only
what they bring after it is announced.

With several feeds, each has all of that of its own (its state file, its first run,
its grouped notification "N new headlines from NAME"), and up to three feeds the menu
shares its max-items rows between them under a heading each; past three it shows the
newest headlines of all of them, each after its feed's short name (the pick of
src/lwn-newest-headlines.c), then All Feeds, a submenu of every feed with its unread
count (on the test's tall screen, which holds them all). A feed no longer followed takes its notifications with it, shown or waiting; its
state file and saved copy stay for the preferences' undo (LWN_FEED_SET_FORGET_SECONDS)
and until the applet quits, and then go: a feed added back after that starts afresh,
with a first run (the test waits for them to go before it adds a feed back).

The model only follows what the test did and what the feed server answered (its request
log); it never reads the applet's state, so that it can disagree with it."""

import re

MAX_SINGLE = 3
# src/lwn-feed-set.h: more feeds without history than this in one change of the list have
# quiet first runs.
MAX_ANNOUNCED_FIRST_RUNS = 3
# The README: "what was read and announced (the last 1,000 of each)".
KEPT_IDS = 1000
BULLET = "\u2022 "
GROUP = re.compile(r"^(\d+) new headlines? from (.+)$")
ELLIPSIS = "\u2026"
# src/lwn-tray.c: up to this many feeds, a section each; past it, the newest of all.
MAX_SECTIONS = 3
# src/lwn-tray.c: a feed's name before a headline among those of many feeds, and a
# menu label, are cut to this many characters.
FEED_NAME_CHARS = 20
LABEL_CHARS = 70
# src/lwn-newest-headlines.h: how far down each feed's list the pick looks.
NEWEST_SCAN = 64
ALL_FEEDS = "All Feeds"
DASH = " \u2014 "


def ellipsize(text, max_chars):
    """lwn_text_ellipsize() for the plain ASCII names and titles of the test: cut at the
    last space in the last third of what fits, trailing punctuation dropped, then "…"."""
    if len(text) <= max_chars:
        return text
    keep = max_chars - 1
    end = keep
    position = keep
    floor = keep - keep // 3
    while True:
        if text[position].isspace():
            end = position
            break
        if position <= floor:
            break
        position -= 1
    while end > 0 and (text[end - 1].isspace() or text[end - 1] in ",;:.-\u2013\u2014(["):
        end -= 1
    return text[:end] + ELLIPSIS


class Item:
    """One headline of a test feed: its id is its link, as in LWN's RSS 1.0 feed, and
    the URL it must open is that link with LWN's old /rss suffix rewritten away."""

    def __init__(self, number, title, *, old_style=False, security=False):
        self.number = number
        self.title = title
        self.old_style = old_style
        self.security = security
        self.feed = None  # the feed it was published on
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


class Feed:
    """What the applet keeps of one feed: its reading model while it is followed, and its
    state file and saved copy, which outlive its being followed."""

    def __init__(self, model, name, title):
        self.model = model
        self.name = name
        self.title = title
        self.applied = None  # the last 200 the applet took: (generation, items), its saved copy
        self.shown = None  # items shown, None before the first answer of this feed
        self.error = None  # why the last load failed, as a word the status line must hold
        self.manual_unchanged = False

        self.read_mem, self.read_disk = set(), set()
        self.ann_mem, self.ann_disk = set(), set()
        self.last_seen = {}  # id → tick when last in a feed the applet took
        self.tick = 0
        self.unsure = set()  # ids the applet may have forgotten (read or announced)
        self.pending = []  # items recorded as announced in memory, not yet on disk
        self.pending_first_run = False
        self.pending_maybe = []  # items the applet may or may not take for new
        self.save_error = False
        self.saves = 0  # successful saves so far, for the test to wait for the disk

        # Announcements no notification server has shown: what the applet keeps pending
        # in memory and on disk (id → item), with whether they are a first run's.
        self.unshown = {}
        self.unshown_maybe = {}  # items it may keep pending: whether it took them as new is unsure
        self.unshown_first_run = False
        self.unshown_disk = ({}, {}, False)
        self.retell = None  # the Batch a start took up, for the next save to announce
        self.retell_due = False  # a start has not shown a feed yet
        # Its first run, if it comes in this process, announces nothing: it came without
        # history with more than MAX_ANNOUNCED_FIRST_RUNS others.
        self.quiet = False

        self.group_chain = None  # ids in the feed's grouped notification on screen, or None
        self.chain_unknown = False  # the group on screen may hold more than the model knows

    def __repr__(self):
        return "<feed %s>" % self.name

    def _forget_check(self):
        """Ids the rules let the applet forget become unsure from now on."""
        if len(self.last_seen) <= KEPT_IDS:
            return
        shown = {item.id for item in self.shown or []}
        ordered = sorted(self.last_seen, key=self.last_seen.get, reverse=True)
        for item_id in ordered[KEPT_IDS:]:
            if item_id not in shown:
                self.unsure.add(item_id)
                self.model.ever_unsure.add(item_id)

    # Answers of the feed server, in the order the applet got them ----------

    def take_feed(self, generation, items):
        """A 200: shown, its new items recorded as announced in memory, then saved; the
        save announces them."""
        self.applied = (generation, list(items))
        self.shown = list(items)
        self.error = None
        self.tick += 1
        for item in items:
            self.last_seen[item.id] = self.tick
        self._shown_feed(items)
        first_run = not self.ann_mem
        if first_run and self.quiet:
            # Recorded as announced, and nothing waits to be announced, then or later.
            self.ann_mem.update(item.id for item in items)
            self._forget_check()
            self.save()
            return
        fresh = []
        for item in items:
            if item.id in self.unsure:
                # Forgotten or not: the applet may count it as new.
                self.pending_maybe.append(item)
                if self.model.wanted(item):
                    self.unshown_maybe[item.id] = item
            elif item.id not in self.ann_mem:
                self.ann_mem.add(item.id)
                fresh.append(item)
                if self.model.wanted(item):
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

    def _check_first_run(self):
        if not self.unshown and not self.unshown_maybe:
            self.unshown_first_run = False

    def drop(self, items, disk=False):
        """Not pending any more: shown, read, left out or gone from the feed; with disk,
        the applet's next save (which does not fail) records that too."""
        for item in items:
            self.unshown.pop(item.id, None)
            self.unshown_maybe.pop(item.id, None)
        self._check_first_run()
        if disk and not self.model.locked:
            sure, maybe, first_run = self.unshown_disk
            for item in items:
                sure.pop(item.id, None)
                maybe.pop(item.id, None)
            self.unshown_disk = (sure, maybe, first_run and bool(sure or maybe))

    def _shown_feed(self, items):
        """A feed shown: what is pending and not in it is dropped, and the first feed a
        start shows takes up what an earlier run left pending."""
        ids = {item.id for item in items}
        self.drop([item for item in list(self.unshown.values()) + list(self.unshown_maybe.values())
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
            if unread is False or not self.model.wanted(item):
                self.drop([item])
            elif unread is None or item.id in self.unshown_maybe:
                maybe.append(item)
            else:
                sure.append(item)
        if sure or maybe:
            self.retell = Batch(sure, first_run, maybe)

    # Saving and announcing --------------------------------------------------

    def save(self):
        if self.model.locked:
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
            self.model.announce(Batch(items, first_run, maybe), self)

    # What people do -------------------------------------------------------

    def is_unread(self, item):
        """True or False, or None when the rules allow either."""
        if item.id in self.unsure:
            return None
        return item.id not in self.read_mem

    def shows(self, item):
        return self.shown is not None and item in self.shown

    def mark_read(self, item):
        """lwn_reader_open() of a shown item: read, its notification withdrawn."""
        pending = item.id in self.unshown or item.id in self.unshown_maybe
        self.model.withdraw_owed({item.id})
        if item.id in self.read_mem:
            if pending:
                self.save()
            return
        self.read_mem.add(item.id)
        self.unsure.discard(item.id)
        self.save()

    def mark_all_read(self):
        changed = False
        for item in self.shown or []:
            if item.id not in self.read_mem:
                self.read_mem.add(item.id)
                changed = True
            if item.id in self.unshown or item.id in self.unshown_maybe:
                changed = True
            self.unsure.discard(item.id)
        self.model.withdraw_owed({item.id for item in self.shown or []})
        if changed:
            self.save()

    def forget_notifications(self, unknown=False):
        self.group_chain = None
        self.chain_unknown = unknown

    def stop(self):
        """The reader ends (a clean exit, or the feed no longer followed): the last save
        waits for the disk, and nothing pending is announced; with the folder locked, only
        what was on disk before survives."""
        if not self.model.locked:
            self.read_disk = set(self.read_mem)
            self.ann_disk = set(self.ann_mem)
            self.unshown_disk = (dict(self.unshown), dict(self.unshown_maybe), self.unshown_first_run)
        self.forget_notifications()

    def start(self):
        """A reader starts on the state on disk, and shows the saved copy until the
        network answers."""
        self.read_mem = set(self.read_disk)
        self.ann_mem = set(self.ann_disk)
        self.pending, self.pending_first_run, self.pending_maybe = [], False, []
        sure, maybe, first_run = self.unshown_disk
        self.unshown, self.unshown_maybe, self.unshown_first_run = dict(sure), dict(maybe), first_run
        self.retell = None
        self.retell_due = True
        self.quiet = False
        self.save_error = False
        self.error = None
        self.manual_unchanged = False
        self.shown = list(self.applied[1]) if self.applied else None
        if self.shown is not None:
            self._shown_feed(self.shown)

    # What the views must show --------------------------------------------

    def rows(self):
        """[(item, unread or None)] of the feed's headlines, each once."""
        rows = []
        seen = set()
        for item in self.shown or []:
            if item.id not in seen:
                seen.add(item.id)
                rows.append((item, self.is_unread(item)))
        return rows

    def unread_count(self):
        return sum(1 for item in self.shown or [] if item.id not in self.read_mem)

    def short_name(self):
        """The feed's name before its headlines in a menu of many feeds."""
        return ellipsize(self.title, FEED_NAME_CHARS)

    def entry_labels(self):
        """What the feed's entry in the All Feeds submenu may read: its name and unread
        count, or what it lacks; several where the rules let a headline be either."""
        if self.shown is None or not self.shown:
            return {ellipsize(self.heading(), LABEL_CHARS)}
        rows = self.rows()
        sure = sum(1 for _item, unread in rows if unread)
        unsure = sum(1 for _item, unread in rows if unread is None)
        return {ellipsize(self.title + (DASH + "%d unread" % count if count else ""), LABEL_CHARS)
                for count in range(sure, sure + unsure + 1)}

    def heading(self):
        """The feed's heading in a menu of several feeds."""
        if self.shown is None:
            return self.title + (" \u2014 could not load" if self.error is not None else " \u2014 loading\u2026")
        if not self.shown:
            return self.title + " \u2014 no headlines"
        return self.title

    def status_prefixes(self):
        """The status line's possible beginnings, as compute_status() orders them."""
        if self.error is not None:
            return ("Last update failed: ",)
        if self.save_error:
            return ("Notifications paused: ",)
        if self.manual_unchanged:
            return ("Up to date",)
        return ("Updated ",)


class Model:
    def __init__(self, feed_titles):
        self.items = {}  # id → Item, every item ever published
        self.by_title = {}
        self.server = {name: [] for name in feed_titles}  # what the server serves now
        self.server_generation = {name: 0 for name in feed_titles}
        self.versions = {name: {} for name in feed_titles}  # generation → items
        self.feeds = {name: Feed(self, name, title) for name, title in feed_titles.items()}
        # The feeds followed, in the order of the setting; the first is followed always,
        # and keeps its state in the state folder itself (state.ini).
        self.followed = [next(iter(feed_titles))]
        self.ever_unsure = set()  # ids the applet may have forgotten, and so announced twice
        # Feeds removed from the list since they were last followed: the applet forgets
        # them, and a feed added back starts afresh.
        self.removed = set()
        # Ids of a forgotten feed, which may be announced once more: the test takes them out
        # of what was announced when it adds the feed back.
        self.forgotten_ids = set()

        self.locked = False
        # Announcements no notification server has shown: the batches the notifier keeps
        # for the next server in this run.
        self.owed = []

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
        self.opened = []  # URLs the applet must have opened, in order

    # The first feed, which the window shows and whose status the menu's is ----

    @property
    def current(self):
        return self.followed[0]

    @property
    def first(self):
        return self.feeds[self.current]

    @property
    def shown(self):
        return self.first.shown

    @property
    def error(self):
        return self.first.error

    @property
    def saves(self):
        return sum(feed.saves for feed in self.feeds.values())

    @property
    def applied(self):
        return {name: feed.applied for name, feed in self.feeds.items()}

    def following(self):
        return [self.feeds[name] for name in self.followed]

    def waits_for_save(self):
        """Whether a save is owed: a failure that ends on its own time would make it."""
        return any(feed.save_error or feed.pending or feed.pending_maybe for feed in self.following())

    # Feeds ----------------------------------------------------------------

    def add_item(self, item):
        self.items[item.id] = item
        self.by_title[item.title] = item

    def publish(self, feed, items):
        for item in items:
            item.feed = feed
        self.server[feed] = list(items)
        self.server_generation[feed] += 1
        self.versions[feed][self.server_generation[feed]] = list(items)

    def follow(self, names):
        """Feeds added to the list in one change: each reader starts as at a start, and
        polls in its turn. A feed removed before has been forgotten: it starts as one never
        followed."""
        for name in names:
            if name in self.removed:
                old = self.feeds[name]
                self.forgotten_ids |= old.ann_mem | old.ann_disk | {item.id for item in old.shown or []}
                self.feeds[name] = Feed(self, name, old.title)
                self.removed.discard(name)
            self.followed.append(name)
            self.feeds[name].start()
        self.quiet_first_runs([self.feeds[name] for name in names])

    def quiet_first_runs(self, feeds):
        """Of feeds that came in one change, those without history have quiet first runs if
        there are more than MAX_ANNOUNCED_FIRST_RUNS of them. History is what the store
        loaded: an id recorded as announced."""
        fresh = [feed for feed in feeds if not feed.ann_mem]
        if len(fresh) > MAX_ANNOUNCED_FIRST_RUNS:
            for feed in fresh:
                feed.quiet = True

    def take_forgotten(self):
        ids, self.forgotten_ids = self.forgotten_ids, set()
        return ids

    def unfollow(self, name):
        """A feed removed from the list: its reader stops and saves, and its notifications
        go with it, shown or waiting for a server."""
        feed = self.feeds[name]
        self.followed.remove(name)
        self.removed.add(name)
        if not self.locked:
            # Its last save, written as it goes.
            feed.saves += 1
        feed.stop()
        self.owed = [batch for batch in self.owed if batch.feed is not feed]
        self.open_singles -= {item.id for batch in self.expected if batch.feed is feed for item in batch.items}

    # Announcements no server has shown -------------------------------------

    def wanted(self, item):
        return self.notifications and (self.security or not item.security)

    def drop(self, items, disk=False):
        for feed in self.following():
            feed.drop(items, disk)

    def announce(self, batch, feed):
        batch.feed = feed
        unwanted = [item for item in batch.items + batch.maybe if not self.wanted(item)]
        feed.drop(unwanted)
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
        self.drop(batch.items + batch.maybe, disk=True)
        limit = 1 if batch.first_run else MAX_SINGLE
        batch.group = len(batch.items) > limit
        batch.chain_unknown = feed.chain_unknown
        if not batch.sure or self.flapping:
            # Whatever it shows, the feed's notifications on screen are unknown from now on.
            batch.group = None
            feed.chain_unknown = True
        self.expected.append(batch)
        if batch.group is False:
            self.open_singles.update(item.id for item in batch.items)
        elif batch.group:
            if feed.group_chain is None:
                feed.group_chain = []
            batch.chain_before = list(feed.group_chain)
            batch.chain_unread_before = sum(1 for item_id in feed.group_chain if item_id not in feed.read_mem)
            feed.group_chain.extend(item.id for item in batch.items)

    # What people do -------------------------------------------------------

    def withdraw_owed(self, ids):
        """Read: what waits for a server is withdrawn, and no longer pending."""
        for batch in self.owed:
            batch.items = [item for item in batch.items if item.id not in ids]
            batch.maybe = [item for item in batch.maybe if item.id not in ids]
        self.drop([self.items[item_id] for item_id in ids])

    def mark_all_read(self, feeds=None):
        """Mark all as read: from the menu every feed; from the headlines window's button
        the feeds it shows. Their notifications go; another feed's stay."""
        feeds = self.following() if feeds is None else feeds
        self.open_singles -= {item.id for batch in self.expected if batch.feed in feeds for item in batch.items}
        if len(feeds) == len(self.following()):
            self.open_singles.clear()
        for feed in feeds:
            feed.forget_notifications()
        for feed in feeds:
            feed.mark_all_read()

    def open_item(self, item):
        """A click on a shown headline, or the action of its notification: read in the
        feed that shows it."""
        self.opened.append(item.url)
        self.open_singles.discard(item.id)
        for feed in self.following():
            if feed.shows(item):
                feed.mark_read(item)
                break

    def notifier_gone(self):
        self.notifier_up = False
        self.open_singles.clear()
        for feed in self.following():
            feed.forget_notifications()

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
        batch.feed = None
        for feed in self.following():
            feed.chain_unknown = True
        self.expected.append(batch)
        recorded = [feed for feed in self.following() if any(item.id in feed.unshown for item in items)]
        self.drop(items + maybe)
        if self.locked:
            self.ever_unsure.update(item.id for item in items + maybe)
        for feed in recorded:
            feed.save()

    def notifier_replaced(self):
        """A new server knows none of the old one's notifications, and what was
        announced while it came may be on its screen: none the model can name."""
        self.open_singles.clear()
        for feed in self.following():
            feed.forget_notifications(unknown=True)

    def stop(self):
        for feed in self.following():
            feed.stop()
        # What waited for a server goes with the process: what is pending on disk stays.
        self.owed = []
        self.headlines_open = self.preferences_open = False
        # A new process knows none of the notifications on screen.
        self.open_singles.clear()

    def start(self):
        for feed in self.following():
            feed.start()
        self.quiet_first_runs(self.following())

    # What the views must show --------------------------------------------

    def many(self):
        """Whether the menu shows the newest headlines of all feeds, and All Feeds."""
        return len(self.followed) > MAX_SECTIONS

    def menu_rows(self):
        """[(item, unread or None)] for the menu's headline rows, of every feed. Where the
        rules let the pick go either way (a headline that may be read or not), only the
        rows it shows either way."""
        if not self.many():
            return [row for _feed, rows in self.menu_sections() for row in rows]
        one, other = self.newest_rows(unsure=True), self.newest_rows(unsure=False)
        ids = {item.id for _feed, item, _unread in other}
        return [(item, unread) for _feed, item, unread in one if item.id in ids]

    def newest_rows(self, budget=None, unsure=None):
        """[(feed, item, unread)]: the headlines lwn_newest_headlines_pick() gives the menu
        of many feeds, newest first. It looks at the first NEWEST_SCAN headlines of each
        feed shown, and past the rows the menu has at unread ones only; takes unread ones
        before read ones, newest first (a higher number is a later date), and a feed gives
        a third of the rows at most while others have some of the same kind. A headline
        the rules let be read or not counts as `unsure`; with None, the pick is None when
        that matters."""
        budget = self.max_items if budget is None else budget
        candidates = []
        for index, feed in enumerate(feed for feed in self.following() if feed.shown is not None):
            rows = feed.rows()
            for position, (item, unread) in enumerate(rows[: max(budget, NEWEST_SCAN)]):
                if unread is None:
                    if unsure is None:
                        return None
                    unread = unsure
                if position >= budget and not unread:
                    continue
                candidates.append((-item.number, index, position, feed, item, unread))
        candidates.sort(key=lambda candidate: candidate[:3])
        cap = max(2, (budget + 2) // 3)
        per_feed = {}
        picked = []
        taken = set()
        for kind, limit in ((True, cap), (True, None), (False, cap), (False, None)):
            for candidate in candidates:
                if len(picked) >= budget:
                    break
                index, unread = candidate[1], candidate[5]
                if id(candidate) in taken or unread != kind or (limit is not None and per_feed.get(index, 0) >= limit):
                    continue
                taken.add(id(candidate))
                per_feed[index] = per_feed.get(index, 0) + 1
                picked.append(candidate)
        picked.sort(key=lambda candidate: candidate[:3])
        return [(feed, item, unread) for _n, _i, _p, feed, item, unread in picked]

    def menu_row_count(self, max_items):
        """How many headlines the menu shows with this max-items."""
        if not self.many():
            return min(max_items, sum(len(feed.rows()) for feed in self.following()))
        return len(self.newest_rows(max_items, unsure=True))

    def feed_of(self, item):
        return next((feed for feed in self.following() if feed.shows(item)), None)

    def row_labels(self, item):
        """The labels the menu may give this headline's row: its title, after its feed's
        short name with many feeds; with the unread mark or without."""
        text = item.title
        if self.many():
            feed = self.feed_of(item)
            text = "%s: %s" % (feed.short_name() if feed else "", item.title)
        text = ellipsize(text, LABEL_CHARS)
        return (text, BULLET + text)

    def menu_sections(self):
        """[(feed, rows)]: with several feeds, the max-items rows are shared out a
        headline at a time, in turn, so that a short feed leaves its rows to the others."""
        feeds = self.following()
        available = [feed.rows() if feed.shown is not None else [] for feed in feeds]
        taken = [0] * len(feeds)
        budget = self.max_items
        given = True
        while budget > 0 and given:
            given = False
            for index, rows in enumerate(available):
                if budget > 0 and taken[index] < len(rows):
                    taken[index] += 1
                    budget -= 1
                    given = True
        return [(feed, rows[:count]) for feed, rows, count in zip(feeds, available, taken)]

    def menu_state(self):
        """"headlines", "loading" or "failed": the menu as a whole."""
        feeds = self.following()
        if any(feed.shown is not None for feed in feeds) or (
            len(feeds) > 1 and any(feed.error is not None for feed in feeds)
        ):
            return "headlines"
        if len(feeds) > 1:
            return "loading"
        return "failed" if feeds[0].error is not None else "loading"

    def window_rows(self):
        return self.first.rows()

    def unread_count(self):
        return sum(feed.unread_count() for feed in self.following())

    def status_prefixes(self):
        """The status line's possible beginnings: with several feeds, the names of those
        whose last update failed, else the first feed's status."""
        feeds = self.following()
        failed = [feed.title for feed in feeds if feed.error is not None]
        if len(feeds) > 1 and failed:
            return (("Update failed: " if len(failed) == 1 else "Updates failed: ") + ", ".join(failed),)
        return self.first.status_prefixes()
