# SPDX-License-Identifier: GPL-3.0-or-later
"""The events of tests/e2e/test-sequences.py: how each is drawn from a seeded random generator,
how it reads as a step of a sequence, what it does to the world, and what the model makes of
it. A step is a small dict of JSON values, so that a sequence can be printed, saved and
replayed, also with steps left out: a step that no longer applies is skipped."""

import time

import lwn_e2e as e2e
import lwn_seq_model as seqmodel

FEEDS = {"a": "Alpha News", "b": "Beta News"}
# The feed followed from the first start on, and the one added to the list and removed.
FIRST, GUEST = "a", "b"
# The feeds of an OPML list imported at once, and removed again but for one at most: a
# few headlines each (none in the last), names short and long, to be cut at a word or
# after a comma, or with an underscore, which a menu label must not take for a mnemonic.
IMPORT_COUNT = 50


def imported_title(number):
    if number % 10 == 5:
        return "Feed %02d: a name longer than twenty characters" % number
    if number % 10 == 0:
        return "Imported feed %02d, with a comma" % number
    if number % 7 == 3:
        return "Imported_%02d" % number
    return "Imported %02d" % number


def imported_size(number):
    return 0 if number == IMPORT_COUNT else number % 4 + 1


IMPORTED = {"n%02d" % number: imported_title(number) for number in range(1, IMPORT_COUNT + 1)}
ALL_FEEDS = dict(FEEDS, **IMPORTED)
# src/lwn-feed-set.h: feeds added together first poll this far apart.
ADD_SPREAD_SECONDS = 1
FEED_SIZE = 12
BIG_FEED = 1200
SHOW_HEADLINES = "Show Headlines" + e2e.ELLIPSIS
PREFERENCES = "Preferences" + e2e.ELLIPSIS
# Refreshes while a stalled one hangs are kept short of the client's 30 s limit, so that
# they are absorbed by it for sure; the stall is waited out after a few more steps.
STALL_SAFE_SECONDS = 20
STALL_STEPS = 6
STALL_WAIT_SECONDS = 75
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

# family → weight when it applies
WEIGHTS = {
    "publish": 10,
    "refresh": 14,
    "open-headlines": 5,
    "close-headlines": 5,
    "open-preferences": 3,
    "close-preferences": 4,
    "click-row": 7,
    "late-click": 2,
    "window-row": 3,
    "notification-action": 4,
    "mark-all": 4,
    "notifier-away": 2,
    "notifier-back": 4,
    "notifier-flap": 2,
    "host-away": 2,
    "host-back": 4,
    "lock": 3,
    "unlock": 4,
    "restart": 3,
    "settings": 3,
    "add-feed": 3,
    "remove-feed": 2,
    "import-feeds": 2,
    "remove-feeds": 8,
}
REFRESH_MODES = (("ok", 50), ("500", 12), ("malformed", 10), ("redirect-temp", 8), ("redirect-perm", 6), ("stall", 4))


def weighted(rng, choices):
    total = sum(weight for _, weight in choices)
    pick = rng.uniform(0, total)
    for value, weight in choices:
        pick -= weight
        if pick <= 0:
            return value
    return choices[-1][0]


def describe(step):
    """A step as a person would say it."""
    do = step["do"]
    if do == "publish":
        if step.get("big"):
            return "publish a %d-item version of feed %s" % (BIG_FEED, step["feed"])
        extras = []
        if step.get("old"):
            extras.append("%d in the old /rss form" % step["old"])
        if step.get("security"):
            extras.append("%d security list(s)" % step["security"])
        return "publish %d new item(s) on feed %s%s" % (
            step["count"], step["feed"], " (%s)" % ", ".join(extras) if extras else "")
    if do == "refresh":
        via = {"menu": "Refresh now in the menu", "start": "a second lwn-tray start", "window": "the window's Refresh"}
        answer = {
            "ok": "the server answers (200 or 304)",
            "500": "the server answers 500",
            "malformed": "the server sends a malformed body",
            "redirect-temp": "the server redirects (302)",
            "redirect-perm": "the server moves the feed (301)",
            "stall": "the server never answers (the client times out)",
        }
        which = " for feed %s" % step["feed"] if "feed" in step and step["mode"] != "ok" else ""
        return "refresh by %s; %s%s" % (via[step.get("via", "menu")], answer[step["mode"]], which)
    if do == "wait-timeout":
        return "wait for the hanging refresh to time out"
    if do in ("open-headlines", "open-preferences"):
        return "open the %s window (%s)" % (do.split("-")[1], step.get("via", "menu"))
    if do in ("close-headlines", "close-preferences"):
        return "close the %s window (%s)" % (do.split("-")[1], step["how"])
    target = " (%s)" % step["target"] if "target" in step else ""
    if do == "click-row":
        return "click headline row %.2f of the menu%s" % (step["pick"], target)
    if do == "late-click":
        return "note row %.2f of the menu%s, publish %d item(s) and refresh, then click the noted row" % (
            step["pick"], target, step["count"])
    if do == "window-row":
        return "press Return on row %.2f of the headlines window%s" % (step["pick"], target)
    if do == "add-feed":
        return "add feed %s to the list of feeds" % GUEST
    if do == "remove-feed":
        return "remove feed %s from the list of feeds" % GUEST
    if do == "import-feeds":
        then = {
            "start": "the server holds the requests until a second lwn-tray start refreshes every feed",
            "wait": "each new feed polls in its turn",
        }
        return "import an OPML list of %d feeds (lwn-tray --import-opml); %s" % (IMPORT_COUNT, then[step["then"]])
    if do == "remove-feeds":
        kept = " but %s" % step["keep"] if step.get("keep") else ""
        return "remove every imported feed%s from the list of feeds, in one write" % kept
    if do == "notification-action":
        return "invoke the action of notification %.2f on screen%s" % (step["pick"], target)
    if do == "mark-all":
        return "mark all as read (%s)" % step["via"]
    if do == "notifier-away":
        return "the notification server goes away"
    if do == "notifier-back":
        return "a notification server comes back"
    if do == "notifier-flap":
        return "publish %d new item(s) and refresh; as the answer arrives, the notification server is replaced" % (
            step["count"])
    if do == "host-away":
        return "the tray host goes away"
    if do == "host-back":
        return "a tray host comes back"
    if do == "lock":
        return "make the state folder read-only"
    if do == "unlock":
        return "make the state folder writable again"
    if do == "restart":
        return "restart the applet (%s)" % step["how"]
    if do == "settings":
        parts = ["max-items %d" % step["max_items"]]
        if "security" in step:
            parts.append("notify-security-updates %s" % str(step["security"]).lower())
        if "notifications" in step:
            parts.append("notifications %s" % str(step["notifications"]).lower())
        return "set " + ", ".join(parts)
    return repr(step)


class Steps:
    """Draws, runs and models the steps of one sequence."""

    def __init__(self, run, skip=()):
        self.run = run
        self.skip = set(skip)
        self.model = run.model
        self.world = run.world
        self.next_number = 960000
        self.stall = None  # (started, step index) of a refresh left hanging
        self.big_done = False

    # Drawing --------------------------------------------------------------

    def applicable(self, do):
        m = self.model
        stalled = self.stall is not None
        if do == "close-headlines":
            return m.headlines_open
        if do == "open-headlines":
            return not m.headlines_open
        if do == "close-preferences":
            return m.preferences_open
        if do == "open-preferences":
            return not m.preferences_open
        if do in ("click-row", "late-click"):
            return bool(m.menu_rows())
        if do == "window-row":
            return m.headlines_open and bool(m.shown)
        if do == "notification-action":
            return m.notifier_up and bool(self.clickable_notifications())
        if do == "mark-all":
            return m.unread_count() > 0
        if do in ("notifier-away", "notifier-flap"):
            return m.notifier_up and not (do == "notifier-flap" and stalled)
        if do == "notifier-back":
            return not m.notifier_up
        if do == "host-away":
            return m.host_up
        if do == "host-back":
            return not m.host_up
        if do == "settings" and sum(len(feed.rows()) for feed in m.following()) < 2:
            # Its effect on the menu is how the test knows the applet has read it.
            return False
        if do in ("add-feed", "remove-feed"):
            # While a refresh hangs the status line must say why, which with two feeds it
            # does by name only; and the folder must take the removed feed's last save.
            following = GUEST in m.followed
            return not stalled and not m.locked and (following if do == "remove-feed" else not following)
        if do == "import-feeds":
            return not stalled and not m.locked and not m.many() and any(name not in m.followed for name in IMPORTED)
        if do == "remove-feeds":
            return not stalled and not m.locked and m.many()
        if do in ("lock", "unlock", "settings"):
            # A failure that ends a stall on its own time must not be the save that
            # announces: nothing changes the saving or notifying rules meanwhile.
            return not stalled and (m.locked if do == "unlock" else not m.locked if do == "lock" else True)
        return True

    def draw(self, rng, index):
        """The next step, from the model as it is now."""
        if self.stall is not None and index - self.stall[1] >= STALL_STEPS:
            return {"do": "wait-timeout"}
        choices = [(do, weight) for do, weight in WEIGHTS.items() if do not in self.skip and self.applicable(do)]
        do = weighted(rng, choices)
        m = self.model
        step = {"do": do}
        if do == "publish":
            share = 0.75 if len(m.followed) == 1 else 0.55
            imported = [name for name in m.followed if name in IMPORTED]
            if imported and rng.random() < 0.4:
                step["feed"] = rng.choice(imported)
            else:
                step["feed"] = m.current if rng.random() < share else rng.choice([f for f in FEEDS if f != m.current])
            if not self.big_done and step["feed"] == m.current and rng.random() < 0.15 and "big-feed" not in self.skip:
                step["big"] = True
                self.big_done = True
            else:
                step["count"] = weighted(rng, [(1, 30), (2, 20), (3, 15), (4, 10), (5, 10), (8, 5)])
                step["old"] = sum(1 for _ in range(step["count"]) if rng.random() < 0.2)
                step["security"] = sum(1 for _ in range(step["count"]) if rng.random() < 0.15)
        elif do == "refresh":
            # A refresh that hangs ends on its own time; its failure must not be what
            # saves (and so announces) what is waiting for a save.
            can_hang = self.stall is None and not m.waits_for_save() and len(m.followed) == 1
            modes = [(mode, weight) for mode, weight in REFRESH_MODES if mode != "stall" or can_hang]
            step["mode"] = weighted(rng, modes)
            if len(m.followed) > 1 and step["mode"] not in ("ok", "stall"):
                step["feed"] = GUEST if rng.random() < 0.4 else FIRST
            step["via"] = weighted(rng, [("menu", 8), ("start", 1), ("window", 2 if m.headlines_open else 0)])
        elif do == "open-headlines":
            step["via"] = weighted(rng, [("menu", 4), ("--show", 1)])
        elif do in ("close-headlines", "close-preferences"):
            step["how"] = rng.choice(["button", "escape", "ctrl+w"])
        elif do in ("click-row", "window-row", "notification-action"):
            step["pick"] = round(rng.random(), 2)
        elif do == "late-click":
            step["pick"] = round(rng.random(), 2)
            step["count"] = rng.choice([1, 2, 3])
        elif do == "notifier-flap":
            step["count"] = rng.choice([1, 2, 5])
        elif do == "mark-all":
            step["via"] = "window" if m.headlines_open and rng.random() < 0.5 else "menu"
        elif do == "restart":
            step["how"] = weighted(rng, [("sigterm", 2), ("quit", 2), ("sigint", 1)])
        elif do == "import-feeds":
            step["then"] = weighted(rng, [("start", 3), ("wait", 1)])
        elif do == "remove-feeds":
            imported = [name for name in m.followed if name in IMPORTED]
            if rng.random() < 0.5:
                step["keep"] = rng.choice(imported)
        elif do == "settings":
            step["max_items"] = weighted(rng, [(rng.randint(1, 5), 2), (rng.randint(6, 25), 2), (50, 1)])
            if rng.random() < 0.5:
                step["security"] = not m.security
            if rng.random() < 0.25:
                step["notifications"] = not m.notifications
        return step

    # Items ----------------------------------------------------------------

    def new_items(self, count, old=0, security=0):
        items = []
        for index in range(count):
            number = self.next_number
            self.next_number += 1
            if index < security:
                title = "Security updates for %s (%d)" % (DAYS[number % len(DAYS)], number)
            else:
                title = "Headline %d" % number
            item = seqmodel.Item(number, title, old_style=index >= count - old, security=index < security)
            self.model.add_item(item)
            items.append(item)
        return items

    def serve(self, feed, items):
        self.model.publish(feed, items)
        self.world.server.set_items(feed, [item.entry(e2e) for item in items])

    def seed_feeds(self):
        """What the server holds before the first start."""
        for feed in FEEDS:
            self.serve(feed, self.new_items(5, old=1)[::-1])

    # Running --------------------------------------------------------------

    def execute(self, step, index):
        """Runs one step; returns False if it no longer applies (a shrunk sequence)."""
        do = step["do"]
        if do == "wait-timeout":
            if self.stall is None:
                return False
            return self.wait_timeout()
        if not self.applicable(do):
            return False
        return getattr(self, "do_" + do.replace("-", "_"))(step, index) is not False

    def do_publish(self, step, index):
        feed = step["feed"]
        current = self.model.server[feed]
        if step.get("big"):
            items = self.new_items(BIG_FEED - len(current))[::-1] + current
            self.serve(feed, items[:BIG_FEED])
            return
        fresh = self.new_items(step["count"], step.get("old", 0), step.get("security", 0))[::-1]
        size = max(FEED_SIZE, len(current))
        self.serve(feed, (fresh + current)[:size])

    def do_refresh(self, step, index):
        m = self.model
        if self.stall is not None:
            # Absorbed by the refresh that hangs; only while it surely still hangs.
            if time.monotonic() - self.stall[0] < STALL_SAFE_SECONDS:
                self.trigger_refresh(step.get("via", "menu"))
            return
        mode = step["mode"]
        if mode == "stall" and (m.waits_for_save() or len(m.followed) > 1):
            mode = step["mode"] = "500"
        if mode != "ok":
            # A shrunk sequence may no longer follow the feed the fault was for.
            feed = step.get("feed", FIRST)
            self.world.server.queue_fault(feed if feed in m.followed else FIRST, mode)
        cursor = self.run.cursor()
        self.trigger_refresh(step.get("via", "menu"))
        if mode == "stall":
            self.run.wait_request(cursor, lambda r: r["mode"] == "stall", "the refresh that will hang")
            self.stall = (time.monotonic(), index)
            self.run.consume(cursor)
            return
        self.run.expect_answer(cursor, manual=True)

    def trigger_refresh(self, via):
        if via == "start":
            second = self.world.s.launch(use_settings=True)
            assert second.wait_exit() == 0, second.log()
        elif via == "window" and self.model.headlines_open and self.stall is None:
            window = self.world.headlines_window()
            button = window.find(role=e2e_role("PUSH_BUTTON"), name="Refresh")
            assert button.do_action(button.actions()[0]), button
        else:
            label = "Retry" if self.model.menu_state() == "failed" else "Refresh now"
            self.world.menu_click_label(label)

    def wait_timeout(self):
        started = self.stall[0]
        self.run.wait_menu_status(
            lambda status: status.startswith("Last update failed: ") and "too slow" in status.lower(),
            "the hanging refresh to time out",
            timeout=max(1.0, started + STALL_WAIT_SECONDS - time.monotonic()),
        )
        self.stall = None
        self.model.first.failed("too slow")
        self.run.consume(None)
        return True

    def do_open_headlines(self, step, index):
        if step.get("via") == "--show":
            second = self.world.s.launch("--show", use_settings=True)
            assert second.wait_exit() == 0, second.log()
        else:
            self.world.menu_click_label(SHOW_HEADLINES)
        self.model.headlines_open = True

    def do_close_headlines(self, step, index):
        window = self.run.wait_window(self.world.headlines_window, "the headlines window")
        self.world.close_window(window, step["how"])
        if not self.model.host_up and not self.model.background_notice_shown:
            # The first close with no tray says that the applet runs on, and the
            # window stays until closed once more.
            self.world.wait_background_notice(window)
            self.model.background_notice_shown = True
            self.world.close_window(window, step["how"])
        self.model.headlines_open = False

    def do_open_preferences(self, step, index):
        self.world.menu_click_label(PREFERENCES)
        self.model.preferences_open = True

    def do_close_preferences(self, step, index):
        window = self.run.wait_window(self.world.preferences_window, "the preferences window")
        self.world.close_window(window, step["how"])
        self.model.preferences_open = False

    def pick(self, candidates, pick):
        return candidates[min(int(pick * len(candidates)), len(candidates) - 1)]

    def do_click_row(self, step, index):
        item, _unread = self.pick(self.model.menu_rows(), step["pick"])
        step["target"] = item.title
        entry = self.run.menu_entry_of(item)
        self.world.menu_click_id(entry["id"])
        self.model.open_item(item)

    def do_late_click(self, step, index):
        item, _unread = self.pick(self.model.menu_rows(), step["pick"])
        step["target"] = item.title
        entry = self.run.menu_entry_of(item)
        self.do_publish({"feed": self.model.current, "count": step["count"]}, index)
        if self.stall is None:
            cursor = self.run.cursor()
            self.trigger_refresh("menu")
            self.run.expect_answer(cursor, manual=True)
            self.run.check_menu()
        still = any(row_item is item for row_item, _ in self.model.menu_rows())
        clicked = self.world.menu_click_id(entry["id"])
        if still:
            assert clicked, "the menu refused a click on %r, which it still shows" % item
            self.model.open_item(item)

    def do_window_row(self, step, index):
        window = self.run.wait_window(self.world.headlines_window, "the headlines window")
        rows = self.model.window_rows()[: self.run.WINDOW_ROWS]
        item, _unread = self.pick(rows, step["pick"])
        step["target"] = item.title
        self.run.check_windows()
        self.world.activate_row(window, item.title)
        self.model.open_item(item)

    def clickable_notifications(self):
        """Notifications the running applet put on the current server's screen and has
        not withdrawn: singles by item, and the group."""
        clickable = [("single", item_id) for item_id in sorted(self.model.open_singles)]
        clickable += [("group", feed.name) for feed in self.model.following() if feed.group_chain]
        return clickable

    def do_notification_action(self, step, index):
        kind, item_id = self.pick(self.clickable_notifications(), step["pick"])
        step["target"] = self.model.items[item_id].title if kind == "single" else "the group of feed %s" % item_id
        notification = self.run.notification_on_screen(kind, item_id)
        self.world.s.notifier.invoke(notification.id, "default")
        if kind == "single":
            self.model.open_item(self.model.items[item_id])
        else:
            self.model.headlines_open = True

    def do_mark_all(self, step, index):
        if step["via"] == "window" and self.model.headlines_open:
            window = self.run.wait_window(self.world.headlines_window, "the headlines window")
            button = window.find(role=e2e_role("PUSH_BUTTON"), name="Mark All as Read")
            assert button.do_action(button.actions()[0]), button
            # The window opens on the first feed, and its button marks what it shows.
            self.model.mark_all_read(self.model.following()[:1])
        else:
            self.world.menu_click_label("Mark all as read")
            self.model.mark_all_read()

    def do_notifier_away(self, step, index):
        self.run.check_notifications(wait=True)
        self.world.stop_notifier()
        self.model.notifier_gone()

    def do_notifier_back(self, step, index):
        owed = any(batch.items or batch.maybe for batch in self.model.owed)
        before = self.run.notification_count()
        self.world.start_notifier()
        self.model.notifier_back()
        if owed:
            self.run.wait_shown(before)

    def do_notifier_flap(self, step, index):
        """A notification server replaced while the applet announces: whatever it shows
        may be lost, never shown twice."""
        self.run.check_notifications(wait=True)
        self.do_publish({"feed": self.model.current, "count": step["count"]}, index)
        cursor = self.run.cursor()
        self.trigger_refresh("menu")
        feed = self.model.current
        self.run.wait_request(cursor, lambda r: r["feed"] == feed and self.run.final(r), "the refresh's answer")
        self.world.stop_notifier()
        self.world.start_notifier()
        self.run.flapped()
        self.model.notifier_up = True
        self.model.flapping = True
        self.run.expect_answer(cursor, manual=True)
        self.model.flapping = False
        self.model.notifier_replaced()

    def do_add_feed(self, step, index):
        """A feed added to the list polls at once; its first answer is a first run's."""
        self.run.wait_forgotten([GUEST])
        cursor = self.run.cursor()
        self.world.follow(self.model.followed + [GUEST])
        self.model.follow([GUEST])
        self.run.expect_answer(cursor, manual=False, feeds=[GUEST])

    def do_remove_feed(self, step, index):
        self.unfollow([GUEST])

    def unfollow(self, names):
        """Feeds taken out of the list in one write: each saves for the last time, and its
        notifications on screen are withdrawn."""
        self.run.check_notifications(wait=True)
        notes = self.run.open_notifications_of(names)
        since = time.time()
        self.world.follow([name for name in self.model.followed if name not in names])
        for name in names:
            self.model.unfollow(name)
        self.run.wait_feeds_saved(names, since)
        self.run.check_withdrawn(notes)

    def do_import_feeds(self, step, index):
        """Fifty feeds added in one write, as the preferences' OPML import and
        `lwn-tray --import-opml` make it, after those followed: each polls, a second after
        the one before (LWN_FEED_SET_ADD_SPREAD_SECONDS), and its first answer is a first
        run's, quiet as more than three came together. Or the server holds every request while a second start asks every feed at
        once (which is what a person who imports a list and refreshes gets, and what keeps
        the test short): each feed is then asked exactly once."""
        m = self.model
        new = [name for name in IMPORTED if name not in m.followed]
        self.run.wait_forgotten(new)
        for number, name in enumerate(IMPORTED, 1):
            if m.server_generation[name] == 0:
                self.serve(name, self.new_items(imported_size(number))[::-1])
        hold = step["then"] == "start"
        cursor = self.run.cursor()
        if hold:
            self.world.server.hold()
        try:
            out, err = self.world.import_opml(list(IMPORTED))
            already = len(IMPORTED) - len(new)
            said = "Added %d feed%s" % (len(new), "" if len(new) == 1 else "s")
            if already:
                said += "; %d %s followed already" % (already, "was" if already == 1 else "were")
            self.run.expect_said(out, err, said)
            m.follow(new)
            if hold:
                # The applet took the list: every new feed is loading.
                self.run.check_menu(status=False)
                self.trigger_refresh("start")
        finally:
            if hold:
                self.world.server.release()
        if hold:
            self.run.expect_answer(cursor, manual=True)
            return
        self.run.expect_answer(cursor, manual=False, feeds=new)
        self.run.check_spread(cursor, new, ADD_SPREAD_SECONDS)

    def do_remove_feeds(self, step, index):
        keep = (FIRST, GUEST, step.get("keep"))
        self.unfollow([name for name in self.model.followed if name not in keep])

    def do_host_away(self, step, index):
        self.world.stop_host()
        self.model.host_up = False

    def do_host_back(self, step, index):
        self.world.start_host()
        self.model.host_up = True

    def do_lock(self, step, index):
        # A feed removed must be forgotten first: a locked folder would keep its files.
        self.run.wait_forgotten(sorted(self.model.removed))
        self.run.wait_saved()
        self.world.lock.lock()
        self.model.locked = True

    def do_unlock(self, step, index):
        self.world.lock.unlock()
        self.model.locked = False

    def do_restart(self, step, index):
        self.run.check_notifications(wait=True)
        self.stall = None
        self.world.stop(step["how"])
        self.model.stop()
        self.run.consume(None)
        cursor = self.run.cursor()
        if not self.model.many():
            self.world.start()
            self.model.start()
            self.run.expect_answer(cursor, manual=False)
            return
        # Past three feeds the start spreads their first polls four seconds apart, which
        # would take minutes: the server holds every request until each feed shows its
        # saved copy in the menu, and a second start then asks every feed at once.
        try:
            self.world.start(hold=True)
            self.model.start()
            self.run.check_menu(status=False)
            self.trigger_refresh("start")
        finally:
            self.world.server.release()
        self.run.expect_answer(cursor, manual=True)

    def do_settings(self, step, index):
        m = self.model
        if "security" in step:
            self.world.settings("notify-security-updates", str(step["security"]).lower())
            m.security = step["security"]
        if "notifications" in step:
            self.world.settings("notifications", str(step["notifications"]).lower())
            m.notifications = step["notifications"]
        # Written last, and such that the menu changes: once it shows, the applet has
        # read the others too.
        if m.many():
            # The rows the newest headlines of many feeds take: a count that differs.
            now = m.menu_row_count(m.max_items)
            if m.menu_row_count(step["max_items"]) == now:
                step["max_items"] = min((value for value in range(1, 51) if m.menu_row_count(value) != now),
                                        key=lambda value: abs(value - step["max_items"]))
        else:
            shown = sum(len(feed.rows()) for feed in m.following())
            if min(step["max_items"], shown) == min(m.max_items, shown):
                step["max_items"] = shown - 1 if m.max_items >= shown else m.max_items + 1
        self.world.settings("max-items", str(step["max_items"]))
        m.max_items = step["max_items"]
        self.run.check_menu()


def e2e_role(name):
    import lwn_atspi

    return getattr(lwn_atspi.Role, name)
