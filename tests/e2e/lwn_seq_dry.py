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
        self.faults = {feed: [] for feed in seqsteps.FEEDS}

    def set_items(self, feed, entries):
        pass

    def queue_fault(self, feed, fault):
        self.faults[feed].append(fault)

    def url(self, feed):
        return "http://127.0.0.1/feed/" + feed


class DryWorld(_Anything):
    sanitized = False
    runs = 1

    def __init__(self):
        self.server = DryServer()

    def menu_click_id(self, item_id):
        return True


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

    def check_menu(self):
        pass

    def check_windows(self):
        pass

    def check_notifications(self, wait):
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

    def expect_answer(self, cursor, manual):
        self.answer(manual)

    def consume(self, cursor, manual=False):
        pass

    def answer(self, manual=False):
        """The answer the server gives the current feed's next request."""
        m = self.model
        faults = self.world.server.faults[m.current]
        fault = faults.pop(0) if faults else None
        if fault in ("500", "malformed"):
            m.failed(fault)
            m.manual_unchanged = False
            return
        generation = m.server_generation[m.current]
        applied = m.applied[m.current]
        if applied is not None and applied[0] == generation and m.shown is not None:
            m.not_modified()
            m.manual_unchanged = manual
        else:
            m.take_feed(generation, m.versions[m.current][generation])
            m.manual_unchanged = False


def plan(seed, count, skip=()):
    """The steps the seed draws, as the model would have the applet take them."""
    run = DryRun(seed, count, skip)
    run.run()
    return run.sequence()


def coverage(sequences):
    """The kinds of step, refresh answers and features the sequences take."""
    kinds = set()
    for steps in sequences:
        for step in steps:
            kinds.add(step["do"])
            if step["do"] == "refresh":
                kinds.add("refresh " + step["mode"])
            if step.get("big"):
                kinds.add("big feed")
    return kinds


def every_kind():
    return (set(seqsteps.WEIGHTS) | {"refresh " + mode for mode, _ in seqsteps.REFRESH_MODES}
            | {"big feed", "wait-timeout"})

