# SPDX-License-Identifier: GPL-3.0-or-later
"""One sequence of tests/e2e/test-sequences.py against one world: it draws (or replays) the steps,
feeds the model with what the feed server answered, and after every step checks what must
hold whatever happened before: the applet is alive and logged no critical, the menu and an
open window show every unread headline unread, no headline is announced twice (across
restarts too), every opened URL is the article of what was clicked, and the menu answers
within ANSWER_TIMEOUT_MS."""

import os
import random
import subprocess
import time

import lwn_e2e as e2e
import lwn_seq_model as seqmodel
import lwn_seq_steps as seqsteps
from gi.repository import GLib

# The menu must answer: a main loop that kept a dbusmenu GetLayout waiting longer than this,
# not counting the transit through the bus nor the time the processes on the way waited for
# a CPU (tests/e2e/lwn_seq_probe.py says how and why), is held, not slow. How quickly the menu
# answers is measured by bench/bench-stall.sh (refreshes, clicks, announcements) and
# bench/bench-window.sh (a first window), each next to a minimal GTK3 + AppIndicator
# program; this test logs its slowest answer per step ("menu N ms") and per run, and never
# holds a loaded machine to a latency. An idle applet answers in 2-3 ms; opening the first
# window of a run keeps the main thread busy 44-51 ms, 113-280 ms under ASan + UBSan.
# Under the sanitizers, three times as long: still within the probe's 10 s call timeout.
ANSWER_TIMEOUT_MS = 3000
SANITIZER_SLOWDOWN = 3
TIMEOUT = e2e.TIMEOUT
KNOWN_MESSAGES = ("New headlines cannot be recorded", "LWN.net Headlines runs without a panel icon")
SAVE_QUIET_SECONDS = 0.3
# src/lwn-feed-set.h: how long a feed removed from the list can be added back as it was.
FORGET_SECONDS = 10


class Failure(AssertionError):
    pass


class Run:
    WINDOW_ROWS = 8

    def __init__(self, world, seed, count, replay=None, say=print, skip=()):
        self.world = world
        self.seed = seed
        self.count = count
        self.replay = replay
        self.say = say
        self.model = seqmodel.Model(seqsteps.ALL_FEEDS)
        self.steps = seqsteps.Steps(self, skip)
        self.rng = random.Random(seed)
        self.done = []  # (number, step, ran)
        self.consumed = 0
        self.announced = {}  # item id → the notification chain that announced it
        self.chains = {}  # (server, notification id) → its chain key
        self.flap_servers = set()  # notification servers that replaced one as the applet announced
        self.seen = 0
        # Feed name → (its saves, when the step that last changed them began), of the feeds
        # followed: a removed feed's last save is waited for as it goes, and its files then go.
        self.saved = {}
        self.step_started = time.time()
        self.worst_latency = None
        self.step_latency = None
        self.slowdown = SANITIZER_SLOWDOWN if world.sanitized else 1

    # The sequence ---------------------------------------------------------

    def start(self):
        self.steps.seed_feeds()
        self.world.settings("feed-url", self.world.server.url(self.model.current))
        cursor = self.cursor()
        self.world.start()
        self.model.start()
        self.expect_answer(cursor, manual=False)
        self.settle()

    def run(self):
        self.start()
        for index in range(self.count if self.replay is None else len(self.replay)):
            step = self.replay[index] if self.replay is not None else self.steps.draw(self.rng, index)
            self.done.append([index + 1, step, None])
            started = time.monotonic()
            self.step_started = time.time()
            try:
                ran = self.steps.execute(step, index)
            except (GLib.Error, AssertionError, LookupError) as error:
                # A click that found no applet says less than the applet's own end.
                if not isinstance(error, Failure):
                    try:
                        self.world.applet.proc.wait(1)
                    except subprocess.TimeoutExpired:
                        pass
                    self.check_alive()
                raise
            self.done[-1][2] = ran
            if ran:
                self.settle()
            self.say(
                "# %3d. %s%s (%.1fs; %s)"
                % (index + 1, seqsteps.describe(step), "" if ran else " — skipped: does not apply",
                   time.monotonic() - started, self.summary())
            )
        if self.steps.stall is not None:
            self.done.append([len(self.done) + 1, {"do": "wait-timeout"}, True])
            self.steps.wait_timeout()
            self.settle()
        self.finish()

    def finish(self):
        """Late duplicates have a moment to show; then the applet must exit cleanly."""
        time.sleep(1.0)
        self.check_notifications(wait=True)
        self.world.stop("sigterm")
        self.model.stop()

    def summary(self):
        m = self.model
        names, feeds = m.followed, m.following()
        if m.many():
            # The imported feeds by their number, not one by one.
            names = [name for name in names if name not in seqsteps.IMPORTED]
            names.append("%d imported" % (len(m.followed) - len(names)))
            feeds = [feed for feed in feeds if feed.name not in seqsteps.IMPORTED]
        return "run %d, feeds %s: %s shown, %d unread, %d announced, %d opened%s%s" % (
            self.world.runs, "+".join(names),
            "/".join("none" if feed.shown is None else str(len(feed.shown)) for feed in feeds),
            m.unread_count(),
            len(self.announced), len(m.opened), ", locked" if m.locked else "",
            ", hanging" if self.steps.stall else "") + (
            "; menu %.0f ms" % self.step_latency["answer_ms"] if self.step_latency else "")

    def sequence(self):
        return [step for _number, step, _ran in self.done]

    # Feed server answers ------------------------------------------------------

    def cursor(self):
        return self.world.server.count()

    def wait_request(self, cursor, predicate, what, timeout=TIMEOUT + 5):
        def find():
            self.check_alive()
            for record in self.world.server.log()[cursor:]:
                if predicate(record):
                    return record
            return None

        return e2e.wait_for(find, what, timeout)

    @staticmethod
    def final(record):
        """An answer that ends a load: not a redirect hop, not a request still waiting."""
        if record["status"] in (301, 302):
            return False
        return record["status"] is not None or record["aborted"]

    def expect_answer(self, cursor, manual, feeds=None):
        """Waits for the loads the last action started to be answered, of every feed
        followed or of those given, and gives the model every answer since cursor. The
        manual refresh gap (3 s) may delay them, and a start spreads its feeds' first polls
        (4 s apart)."""
        for name in feeds or list(self.model.followed):
            self.wait_request(
                cursor, lambda r, name=name: r["feed"] == name and self.final(r),
                "feed %s to be requested and answered" % name
            )
        self.consume(cursor, manual)

    @staticmethod
    def expect_said(out, err, said):
        """What `lwn-tray --import-opml` printed: this summary alone, and nothing on stderr."""
        if out != said or err:
            raise Failure("lwn-tray --import-opml printed %r and %r on stderr; expected %r" % (out, err, said))

    def check_spread(self, cursor, names, seconds):
        """Feeds added together poll in turn, each `seconds` after the one before (a timer
        of whole seconds may fire up to one early), not all at once."""
        first = {}
        for record in self.world.server.log()[cursor:]:
            first.setdefault(record["feed"], record["time"])
        times = [first[name] for name in names]
        if len(times) > 2 and times[-1] - times[0] < (len(times) - 1) * seconds - 2:
            raise Failure("the %d feeds added together first polled within %.1f s: not %d s apart"
                          % (len(times), times[-1] - times[0], seconds))

    def consume(self, cursor, manual=False):
        """Hands the model the answers it has not seen. A request the test did not cause
        is a failure: with a half-hour interval the applet only asks when told to."""
        records = self.world.server.log()
        moved = set()
        for number in range(self.consumed, len(records)):
            record = records[number]
            # The applet saves the new address of a feed that moved for good, in the
            # same save as the answer from there: with the state folder locked, it fails.
            if record["status"] == 301:
                moved.add(record["feed"])
            if record["status"] in (301, 302) or record["mode"] == "stall":
                continue
            if cursor is None or number < cursor:
                raise Failure("a request the test did not cause: %r" % record)
            if (record["inm"] or "").startswith('"broken-'):
                raise Failure("the applet kept the validator of a malformed answer: %r" % record)
            if record["feed"] not in self.model.followed:
                raise Failure(
                    "a request for feed %s while the applet follows %s: %r"
                    % (record["feed"], "+".join(self.model.followed), record)
                )
            self.apply(record, manual)
            if record["feed"] in moved:
                self.model.feeds[record["feed"]].save()
                moved.discard(record["feed"])
        self.consumed = len(records)

    def apply(self, record, manual):
        m = self.model
        feed = m.feeds[record["feed"]]
        if record["status"] == 200 and record["mode"] == "healthy":
            feed.take_feed(record["generation"], m.versions[record["feed"]][record["generation"]])
            feed.manual_unchanged = False
        elif record["status"] == 304:
            applied = feed.applied
            if applied is None or applied[0] != record["generation"]:
                raise Failure(
                    "304 for version %d of feed %s, but the applet took %r last"
                    % (record["generation"], record["feed"], applied and applied[0])
                )
            feed.not_modified()
            feed.manual_unchanged = manual
        elif record["mode"] == "500":
            feed.failed("500")
            feed.manual_unchanged = False
        elif record["mode"] == "malformed":
            feed.failed("")
            feed.manual_unchanged = False

    # Invariants -----------------------------------------------------------

    def check_alive(self):
        problems = self.world.alive_problems()
        if problems:
            raise Failure("lwn-tray is not well: " + "\n".join(problems[:40]))

    def settle(self):
        """Everything that must hold after a step, once the applet has caught up."""
        self.check_alive()
        self.check_menu()
        self.check_windows()
        self.check_notifications(wait=True)
        self.check_urls()
        self.check_latency()
        self.check_alive()
        for feed in self.model.following():
            if self.saved.get(feed.name, (None,))[0] != feed.saves:
                self.saved[feed.name] = (feed.saves, self.step_started)

    def eventually(self, look, what, timeout=TIMEOUT):
        """Polls look() until it returns None (all is well) or the time is up; then
        fails with what look() last said was wrong."""
        deadline = time.monotonic() + timeout
        while True:
            self.check_alive()
            try:
                wrong = look()
            except GLib.Error as error:
                wrong = "D-Bus error: %s" % error.message
            except LookupError as error:
                wrong = str(error)
            if wrong is None:
                return
            if time.monotonic() >= deadline:
                raise Failure("%s, after %gs: %s" % (what, timeout, wrong))
            time.sleep(0.05)

    @staticmethod
    def label_fits(label, item, unread):
        if unread is None:
            return label in (seqmodel.BULLET + item.title, item.title)
        return label == (seqmodel.BULLET + item.title if unread else item.title)

    def menu_problem(self, status=True):
        """What the menu shows that the model does not, or None; with status False, the
        status line is not looked at (requests held on purpose say "Refreshing…")."""
        m = self.model
        entries = self.world.menu_entries()
        top, commands = e2e.split_menu(entries)
        labels = [entry["label"] for entry in top]
        state = m.menu_state()
        if state != "headlines":
            want = "Could not load headlines: " if state == "failed" else e2e.LOADING
            if len(labels) != 1 or not labels[0].startswith(want):
                return "expected %r, the menu shows %r" % (want, labels)
            return None
        if m.many():
            problem = self.many_feeds_problem(top)
            if problem is not None:
                return problem
            return self.status_problem(commands, status)
        sections = m.menu_sections()
        # A heading per feed with several, then its rows: (None, heading) or (item, unread).
        rows = []
        for feed, feed_rows in sections:
            if len(sections) > 1:
                rows.append((None, feed.heading()))
            rows.extend(feed_rows)

        def fits(label, row):
            return label == row[1] if row[0] is None else self.label_fits(label, *row)

        if len(labels) != len(rows) or not all(fits(label, row) for label, row in zip(labels, rows)):
            # "(•) " marks a headline the rules let be either.
            marks = {False: "", None: "(\u2022) ", True: seqmodel.BULLET}
            expected = [unread if item is None else marks[unread] + item.title for item, unread in rows]
            return "expected %r, the menu shows %r" % (expected, labels)
        return self.status_problem(commands, status)

    def status_problem(self, commands, status):
        m = self.model
        if self.steps.stall is None and status:
            line = commands[0]["label"] if commands else ""
            if not line.startswith(m.status_prefixes()):
                return "status line %r does not start with %r" % (line, m.status_prefixes())
        return None

    def many_feeds_problem(self, top):
        """With more than three feeds: the newest headlines, exactly those the pick
        chooses, each after its feed's short name and marked unread as the model says; then
        All Feeds, whose submenu lists every feed followed, in the list's order, with its
        unread count or what it lacks (the test's 1800-px screen holds 62 rows of it, more
        than the feeds a sequence follows, so none is left for "N more feeds…"). Where the rules let a headline be read or not and
        that changes the pick, every row is still a headline of a followed feed, under its
        feed's name, and no more rows than max-items."""
        m = self.model
        labels = [entry["label"] for entry in top]
        if not top or labels[-1] != seqmodel.ALL_FEEDS:
            return "expected the headlines and then %r, the menu shows %r" % (seqmodel.ALL_FEEDS, labels)
        rows = m.newest_rows()
        shown = labels[:-1]
        if rows is not None:
            marks = {False: "", True: seqmodel.BULLET}
            expected = [marks[unread] + m.row_labels(item)[0] for _feed, item, unread in rows]
            if shown != expected:
                return "expected the newest headlines %r, the menu shows %r" % (expected, shown)
        else:
            possible = {}
            for feed in m.following():
                for item, unread in feed.rows():
                    for label in m.row_labels(item):
                        marked = label.startswith(seqmodel.BULLET)
                        if unread is None or unread == marked:
                            possible[label] = item
            stray = [label for label in shown if label not in possible]
            if stray or len(shown) > m.max_items or len(set(shown)) != len(shown):
                return "rows %r are no unread or read headline of a followed feed as the model has it, " \
                    "or more than %d rows: %r" % (stray, m.max_items, shown)
        entries = [entry["label"] for entry in top[-1]["submenu"] if entry["visible"]]
        wanted = [feed.entry_labels() for feed in m.following()]
        if len(entries) != len(wanted) or not all(label in want for label, want in zip(entries, wanted)):
            return "expected the All Feeds submenu %r, it has %r" % ([sorted(want) for want in wanted], entries)
        return None

    def check_menu(self, status=True):
        self.eventually(lambda: self.menu_problem(status), "the menu does not show the headlines as the model says")

    def menu_entry_of(self, item):
        self.check_menu()
        labels = self.model.row_labels(item)
        for entry in e2e.split_menu(self.world.menu_entries())[0]:
            if entry["label"] in labels:
                return entry
        raise Failure("no menu row for %r" % item)

    def wait_menu_status(self, predicate, what, timeout):
        def look():
            commands = e2e.split_menu(self.world.menu_entries())[1]
            status = commands[0]["label"] if commands else ""
            return None if predicate(status) else "the status line is %r" % status

        self.eventually(look, "waiting for %s" % what, timeout)

    def window_problem(self):
        m = self.model
        window = self.world.headlines_window()
        if not m.headlines_open:
            return None if window is None else "a headlines window is open"
        if window is None:
            return "no headlines window"
        page, names = self.world.window_rows(window, self.WINDOW_ROWS)
        if m.shown is None:
            return None if page in ("loading", "error") else "the window shows %s, not loading or error" % page
        if page != "headlines":
            return "the window shows its %s page" % page
        rows = m.window_rows()[: self.WINDOW_ROWS]
        expected = []
        for item, unread in rows:
            expected.append({item.title, item.title + ", unread"} if unread is None else
                            {item.title + (", unread" if unread else "")})
        if len(names) != len(expected) or not all(name in want for name, want in zip(names, expected)):
            return "expected rows %r, the window has %r" % ([sorted(w) for w in expected], names)
        return None

    def preferences_problem(self):
        window = self.world.preferences_window()
        if not self.model.preferences_open:
            return None if window is None else "a preferences window is open"
        if window is None:
            return "no preferences window"
        import lwn_atspi

        spin = window.find(role=lwn_atspi.Role.SPIN_BUTTON, name="Headlines in the menu")
        if int(spin.value) != self.model.max_items:
            return "the window shows max-items %r, the setting is %d" % (spin.value, self.model.max_items)
        return None

    def check_windows(self):
        self.eventually(self.window_problem, "the headlines window does not show what the model says")
        self.eventually(self.preferences_problem, "the preferences window is not as the model says")

    def wait_window(self, find, what):
        return e2e.wait_for(find, what)

    # Notifications ----------------------------------------------------------

    def notification_problem(self):
        """Takes in the notifications that arrived; a duplicate or an announcement the
        rules do not allow fails at once. Returns what is still owed, or None."""
        # A feed added back after the applet forgot it may announce its headlines again.
        for item_id in self.model.take_forgotten():
            self.announced.pop(item_id, None)
        notifications = self.world.notifications()
        for server, notification in notifications[self.seen :]:
            self.take_notification(server, notification)
        self.seen = len(notifications)
        owed = []
        for batch in self.model.expected:
            if batch.group is False and batch.waiting:
                owed.append("single notifications for %r" % sorted(self.model.items[i].title for i in batch.waiting))
            elif batch.group and not batch.delivered:
                owed.append("a grouped notification of %d new headlines" % len(batch.items))
        return "; ".join(owed) or None

    def take_notification(self, server, n):
        m = self.model
        match = seqmodel.GROUP.match(n.summary)
        if n.summary in m.by_title:
            item = m.by_title[n.summary]
            self.announce_once(item, ("single", server, n.id), n)
            for batch in m.expected:
                if batch.group is False and item.id in batch.waiting:
                    batch.waiting.discard(item.id)
                    return
            if any(batch.group is None and (item in batch.items or item in batch.maybe) for batch in m.expected):
                return
            raise Failure("%r was announced, which the rules do not allow now: %r" % (item, n))
        if match:
            feed = next((feed for feed in m.feeds.values() if feed.title == match.group(2)), None)
            if feed is None:
                raise Failure("a grouped notification for no feed of ours: %r" % n)
            chain = self.chains.get((server, n.replaces_id)) if n.replaces_id else None
            if chain is None and n.replaces_id and server in self.flap_servers:
                # An update made for the server that was just replaced can reach the one that
                # replaced it (the applet hears that a server gone showed it): it goes on the
                # notification it meant to update, and names no headline anew.
                chain = self.chains.get((server - 1, n.replaces_id))
            chain = chain or ("group", server, n.id)
            self.chains[(server, n.id)] = chain
            titles = [line[2:].strip() for line in n.body.splitlines() if line.startswith("\u2022 ")]
            for title in titles:
                if title not in m.by_title:
                    raise Failure("a grouped notification names %r, no headline of ours: %r" % (title, n))
                self.announce_once(m.by_title[title], chain, n)
            count = int(match.group(1))
            for batch in m.expected:
                if batch.group and not batch.delivered and batch.feed is feed:
                    self.check_group(batch, count, titles, n)
                    batch.delivered = True
                    return
            # Else one the model is unsure of may have been shown this way: of this feed, or
            # of what waited for a server, of whichever feed.
            if any(batch.group is None and batch.feed in (feed, None) for batch in m.expected):
                return
            raise Failure("a grouped notification the rules do not call for now: %r" % n)
        if not n.summary.startswith(KNOWN_MESSAGES):
            raise Failure("a notification that is neither a headline, nor a group, nor a known message: %r" % n)

    def announce_once(self, item, chain, n):
        earlier = self.announced.get(item.id)
        if earlier is not None and earlier != chain and item.id not in self.model.ever_unsure:
            raise Failure("%r was announced twice: first by %r, again by %r" % (item, earlier, n))
        self.announced[item.id] = chain

    def check_group(self, batch, count, titles, n):
        low = len(batch.items) + (0 if batch.chain_unknown else batch.chain_unread_before)
        high = float("inf") if batch.chain_unknown else len(batch.items) + len(batch.chain_before)
        allowed = {item.title for item in batch.items} | {self.model.items[i].title for i in batch.chain_before}
        if batch.chain_unknown:
            allowed |= set(self.model.by_title)
        if not low <= count <= high:
            raise Failure(
                "a grouped notification says %d new headlines; %d are new now%s: %r"
                % (count, len(batch.items),
                   " and %d unread ones were in the group still on screen" % batch.chain_unread_before
                   if batch.chain_before else "", n)
            )
        stray = [title for title in titles if title not in allowed]
        if stray:
            raise Failure("a grouped notification names %r, which are not among its headlines: %r" % (stray, n))

    def flapped(self):
        """The notification server was just replaced while the applet announced."""
        self.flap_servers.add(len(self.world.archive))

    def check_notifications(self, wait):
        for batch in self.model.expected:
            if not hasattr(batch, "waiting"):
                batch.waiting = {item.id for item in batch.items} if batch.group is False else set()
                batch.delivered = False
        if wait:
            self.eventually(self.notification_problem, "announcements the rules call for did not come")
        else:
            self.notification_problem()

    def notification_on_screen(self, kind, item_id):
        """The current server's notification of this item (or the group), not closed."""
        self.check_notifications(wait=True)
        closed = self.world.closed_ids()
        server = len(self.world.archive)
        for number, n in reversed(self.world.notifications()):
            if number != server or n.id in closed:
                continue
            if kind == "single" and n.summary == self.model.items[item_id].title:
                return n
            match = seqmodel.GROUP.match(n.summary)
            if kind == "group" and match and match.group(2) == self.model.feeds[item_id].title:
                return n
        raise Failure("no %s notification on screen for %r" % (kind, item_id))

    def open_notifications_of(self, names):
        """What the model knows to be on the current server's screen for these feeds:
        [(summary, what)], each the summary of a notification that must be withdrawn once
        the feeds are no longer followed."""
        m = self.model
        notes = []
        for name in names:
            feed = m.feeds[name]
            notes += [(m.items[item_id].title, "the notification of %r" % m.items[item_id])
                      for item_id in sorted(m.open_singles) if m.items[item_id].feed == name]
            if feed.group_chain is not None and not feed.chain_unknown:
                notes.append((None, feed.title))
        return notes

    def check_withdrawn(self, notes):
        """Every notification noted is closed on the current server: a single's by its
        title, a feed's group by the last one of its name."""
        def look():
            closed = self.world.closed_ids()
            server = len(self.world.archive)
            current = [n for number, n in self.world.notifications() if number == server]
            open_ = []
            for summary, what in notes:
                if summary is not None:
                    ids = {n.id for n in current if n.summary == summary}
                else:
                    groups = [n for n in current if (seqmodel.GROUP.match(n.summary) or [None] * 3)[2] == what]
                    ids = {groups[-1].id} if groups else set()
                if ids - closed:
                    open_.append(what if summary is not None else "the grouped notification of feed %r" % what)
            return "still on screen: %s" % ", ".join(open_) if open_ else None

        if notes:
            self.eventually(look, "the notifications of the feeds no longer followed were not withdrawn")

    # URLs and the menu's answer time ------------------------------------------

    def url_problem(self):
        urls = self.world.s.recorder.urls()
        expected = self.model.opened
        if urls != expected[: len(urls)]:
            raise Failure("opened %r; the clicks call for %r" % (urls, expected))
        return None if len(urls) == len(expected) else "opened %r so far" % urls

    def check_urls(self):
        self.eventually(self.url_problem, "the clicked articles were not opened")

    def check_latency(self):
        report = self.world.probe.report()
        # The accessibility registry starts when first asked for.
        self.world.update_probe()
        worst = report.get("worst")
        if worst is not None and (self.worst_latency is None or worst["answer_ms"] > self.worst_latency["answer_ms"]):
            self.worst_latency = dict(worst, step=len(self.done))
        self.step_latency = worst
        limit = ANSWER_TIMEOUT_MS * self.slowdown
        if worst is not None and worst["answer_ms"] > limit:
            raise Failure(
                "the menu kept GetLayout waiting %.0f ms (it must answer within %d ms%s): a round trip of %.0f ms, "
                "of which %.0f ms on the bus (GetId to the bus at the same moment) and %.0f ms that the applet or a "
                "process it waits for waited for a CPU; the tray host answered in %s ms; the machine ran %s times "
                "slower than at its best" % (worst["answer_ms"], limit, " with the sanitizers" if self.world.sanitized else "",
                                             worst["round_trip_ms"], worst["bus_ms"], worst["run_queue_ms"],
                                             worst["tray_host_ms"], worst.get("machine_slowdown"))
            )

    # The disk -------------------------------------------------------------

    def notification_count(self):
        return len(self.world.notifications())

    def wait_shown(self, before):
        """What waited for a server is shown at once when one comes (more notifications
        than before), and then the applet records that it was shown, unless the folder is
        locked: no write of the state is under way (its file has not changed for
        SAVE_QUIET_SECONDS)."""

        def quiet():
            mtime = self.world.lock.state_mtime()
            return mtime is None or time.time() - mtime >= SAVE_QUIET_SECONDS

        e2e.wait_for(lambda: self.notification_count() > before, "what waited for a notification server")
        time.sleep(SAVE_QUIET_SECONDS)
        e2e.wait_for(quiet, "the state to be written", interval=0.05)

    def wait_feeds_saved(self, names, since):
        """After feeds are no longer followed: the last save of each, which no later step
        waits for, is on disk and no write is under way."""

        def quiet():
            for name in names:
                mtime = self.world.lock.state_mtime(self.world.server.url(name))
                if mtime is None or mtime < since - 0.05:
                    return None
                if time.time() - mtime < SAVE_QUIET_SECONDS:
                    return None
            return True

        e2e.wait_for(quiet, "the state of the feeds no longer followed to be written", interval=0.05)

    def wait_forgotten(self, names):
        """Feeds removed from the list: the applet forgets them (their state folder goes)
        LWN_FEED_SET_FORGET_SECONDS after, or when it quits. Waited for before a feed is
        added back, which then starts afresh, and before the state folder is locked, which
        would keep the files."""
        pending = [name for name in names if name in self.model.removed]
        if not pending:
            return

        def gone():
            return all(not os.path.exists(self.world.lock.state_dir(self.world.server.url(name))) for name in pending)

        e2e.wait_for(gone, "the applet to forget feeds %s, removed from the list" % "+".join(pending),
                     timeout=FORGET_SECONDS + TIMEOUT, interval=0.1)

    def wait_saved(self):
        """Before the folder is locked: the last save the model counts of the feeds
        followed is on disk and no write is under way (their files have not changed for
        SAVE_QUIET_SECONDS)."""
        m = self.model
        names = [name for name in m.followed if m.feeds[name].saves > 0 and name in self.saved]
        if not names:
            return
        # The file's time is the disk's, a little coarser than the test's clock.
        since = max(self.saved[name][1] for name in names) - 0.05
        urls = [self.world.server.url(name) for name in names]

        def quiet():
            mtimes = [self.world.lock.feed_state_mtime(url, first=index == 0 and names[0] == m.current)
                      for index, url in enumerate(urls)]
            mtime = max((value for value in mtimes if value is not None), default=None)
            if mtime is None or mtime < since:
                return None
            return time.time() - mtime >= SAVE_QUIET_SECONDS

        e2e.wait_for(quiet, "the state to be written", interval=0.05)
