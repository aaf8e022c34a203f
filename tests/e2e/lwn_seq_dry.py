# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws the sequence a seed gives with the model alone, as if the applet followed every
rule: no applet, no bus, no server, in a fraction of a second. For choosing the seeds CI
runs (every kind of step must be among them, whatever the applet does with them), and for
reading a seed's sequence before running it (test-sequences.py --plan)."""

import lwn_seq_run as seqrun
import lwn_seq_steps as seqsteps


class _Anything:
    """Stands in for the world's objects: every attribute is callable and returns
    something that works as a window, a button, a process or a flag."""

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __bool__(self):
        return True

    def __int__(self):
        return 0

    def __iter__(self):
        return iter(())

    def __getitem__(self, key):
        return self

    def wait_exit(self, *args):
        return 0


class DryServer:
    def __init__(self):
        self.faults = {feed: [] for feed in seqsteps.ALL_FEEDS}

    def set_items(self, feed, entries):
        pass

    def queue_fault(self, feed, fault):
        self.faults[feed].append(fault)

    def hold(self):
        pass

    def release(self):
        pass

    def url(self, feed):
        return "http://127.0.0.1/feed/" + feed


class DryWorld(_Anything):
    sanitized = False
    runs = 1

    def __init__(self):
        self.server = DryServer()

    def menu_click_id(self, item_id):
        return True

    def import_opml(self, names):
        return "", ""


class DryRun(seqrun.Run):
    """A Run whose world answers as the model says the applet would."""

    def __init__(self, seed, count, skip=()):
        super().__init__(DryWorld(), seed, count, say=lambda line: None, skip=skip)
        self.last_refresh_manual = False

    def start(self):
        self.steps.seed_feeds()
        self.model.start()
        self.answer()

    def finish(self):
        pass

    def settle(self):
        pass

    def check_menu(self, status=True):
        pass

    def check_windows(self):
        pass

    def check_notifications(self, wait):
        pass

    def flapped(self):
        pass

    def wait_saved(self):
        pass

    def notification_count(self):
        return 0

    def wait_shown(self, before):
        pass

    def cursor(self):
        return 0

    def wait_request(self, cursor, predicate, what, timeout=None):
        # A refresh left hanging waits for its request alone: it takes its fault.
        faults = self.world.server.faults[self.model.current]
        if faults and faults[0] == "stall":
            faults.pop(0)
        return None

    def wait_menu_status(self, predicate, what, timeout):
        pass

    def wait_window(self, find, what):
        return _Anything()

    def menu_entry_of(self, item):
        return {"id": 0}

    def notification_on_screen(self, kind, item_id):
        return _Anything()

    def expect_answer(self, cursor, manual, feeds=None):
        self.answer(manual, feeds)

    def consume(self, cursor, manual=False):
        pass

    def answer(self, manual=False, feeds=None):
        """The answers the server gives the next request of each feed followed (or of
        those given), in turn."""
        m = self.model
        for name in feeds or list(m.followed):
            feed = m.feeds[name]
            faults = self.world.server.faults[name]
            fault = faults.pop(0) if faults else None
            if fault in ("500", "malformed"):
                feed.failed(fault)
                feed.manual_unchanged = False
                continue
            generation = m.server_generation[name]
            if feed.applied is not None and feed.applied[0] == generation and feed.shown is not None:
                feed.not_modified()
                feed.manual_unchanged = manual
            else:
                feed.take_feed(generation, m.versions[name][generation])
                feed.manual_unchanged = False
            if fault == "redirect-perm":
                # As Run.consume() has it: the feed's new address is saved.
                feed.save()

    def wait_feeds_saved(self, names, since):
        pass

    def wait_forgotten(self, names):
        pass

    def expect_said(self, out, err, said):
        pass

    def check_spread(self, cursor, names, seconds):
        pass

    def check_withdrawn(self, notes):
        pass


def plan(seed, count, skip=()):
    """The steps the seed draws, as the model would have the applet take them."""
    run = DryRun(seed, count, skip)
    run.run()
    return run.sequence()


def coverage(sequences):
    """The kinds of step, refresh answers and features the sequences take."""
    kinds = set()
    for steps in sequences:
        removed = False
        many = False
        for step in steps:
            kinds.add(step["do"])
            many = (many or step["do"] == "import-feeds") and step["do"] != "remove-feeds"
            if step["do"] == "restart" and many:
                kinds.add("restart with many feeds")
            if step["do"] == "add-feed" and removed:
                kinds.add("feed added back")
            removed |= step["do"] == "remove-feed"
            if step["do"] == "refresh":
                kinds.add("refresh " + step["mode"])
            if step["do"] == "import-feeds":
                kinds.add("import-feeds then " + step["then"])
            if step.get("big"):
                kinds.add("big feed")
    return kinds


def every_kind():
    return (set(seqsteps.WEIGHTS) | {"refresh " + mode for mode, _ in seqsteps.REFRESH_MODES}
            | {"big feed", "wait-timeout", "feed added back", "restart with many feeds"}
            | {"import-feeds then start", "import-feeds then wait"})

