#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Points lwn-tray at a misbehaving feed server and at an unwritable state folder:
the command line fails fast with one clear line and bounded memory, and the running
applet keeps its headlines, backs off, honours Retry-After and recovers."""

import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import lwn_e2e as e2e
import lwn_fault_server as faults

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
BULLET = e2e.BULLET
MIB = 1024 * 1024
MEMORY_LIMIT = 64 * MIB
INTERVAL = 2

# What the single stderr line (or the applet's status line) must mention, per mode.
REASONS = {
    "drip": "too slow",
    "endless-chunked": "too large",
    "huge-length": "too large",
    "gzip-bomb": "too large",
    "redirect-loop": "too many redirects",
    "redirect-file": "redirect to an unsupported url",
    "redirect-tls": "certificate",
    "tls": "certificate",
    "reset": "connection",
    "not-modified": "no feed",
    "too-many-requests": "429",
    "html-as-rss": "not an rss",
}

# How long the command line may take for each failing mode on a loaded machine;
# none of these needs more than a second when the machine is idle.
CLI_SECONDS = 10
DRIP_SECONDS = 35


def item(number, title=None):
    return e2e.headline(number, title or "Fault test headline %d" % number)


def split(entries):
    return e2e.split_menu(entries)


def headline_labels(entries):
    return [entry["label"] for entry in split(entries)[0]]


def shown(items):
    return [BULLET + entry["title"] for entry in items]


def status_line(entries):
    for entry in split(entries)[1]:
        if e2e.is_status_line(entry["label"]):
            return entry["label"]
    return ""


def wait_headlines(menu, items, what=None):
    expected = shown(items)
    return menu.wait(lambda entries: headline_labels(entries) == expected, what or "headlines %r" % expected)


def wait_updated(menu, items, what):
    """Waits for exactly these headlines under an "Updated HH:MM" status line."""
    expected = shown(items)
    entries = menu.wait(
        lambda entries: headline_labels(entries) == expected
        and re.fullmatch(r"Updated \d\d:\d\d", status_line(entries)),
        what,
    )
    return entries


def wait_failed(menu, reason, what):
    """Waits for "Last update failed: …" naming reason (case-insensitive)."""
    return menu.wait(
        lambda entries: status_line(entries).startswith("Last update failed: ")
        and reason in status_line(entries).lower(),
        what,
    )


def run_cli(url, directory, name):
    """Runs lwn-tray --json under GNU time; returns (exit status, stdout, stderr,
    seconds, peak RSS in bytes)."""
    rss_file = os.path.join(directory, name + ".rss")
    started = time.monotonic()
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", rss_file, BINARY, "--json", "--feed-url", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    seconds = time.monotonic() - started
    with open(rss_file) as f:
        peak = int(f.read().split()[-1]) * 1024
    return result.returncode, result.stdout, result.stderr, seconds, peak


def run_cli_all(cases, directory):
    """Runs the (name, url) cases at once, each in its own thread."""
    results = {}

    def one(name, url):
        try:
            results[name] = run_cli(url, directory, name)
        except Exception as error:  # reported by the caller as a failed case
            results[name] = error

    threads = [threading.Thread(target=one, args=case) for case in cases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def check_cli_failure(name, result, limit):
    assert not isinstance(result, Exception), "%s: %r" % (name, result)
    code, out, err, seconds, peak = result
    lines = err.splitlines()
    assert code == 1, "%s: exit %r, stderr %r" % (name, code, err)
    assert out == "", "%s: stdout %r" % (name, out)
    assert len(lines) == 1 and lines[0].startswith("lwn-tray: could not load "), "%s: stderr %r" % (name, err)
    assert REASONS[name] in lines[0].lower(), "%s: %r does not mention %r" % (name, lines[0], REASONS[name])
    assert seconds <= limit, "%s took %.1fs" % (name, seconds)
    assert peak < MEMORY_LIMIT, "%s: peak RSS %d KiB" % (name, peak // 1024)
    print("# %s: %.2fs, peak RSS %d KiB: %s" % (name, seconds, peak // 1024, lines[0]))


def fault_server(s, items):
    server = s.add_server(faults.FaultServer(s.root))
    server.set_items(items)
    return server


def start_applet(s, server, items):
    applet = s.start(feed_url=server.url, interval=INTERVAL)
    menu = applet.menu()
    wait_updated(menu, items, "the healthy feed")
    return applet, menu


def gaps(records):
    return [later["time"] - earlier["time"] for earlier, later in zip(records, records[1:])]


# Command line ----------------------------------------------------------------


def test_cli_faults(s):
    """Every fault mode but the drip: exit 1, one line naming the fault, quick, small."""
    items = [item(938000 + number) for number in range(5)]
    server = fault_server(s, items)
    failing = [mode for mode in faults.MODES if mode in REASONS and mode != "drip"]
    cases = [(mode, server.fault_url(mode)) for mode in failing] + [("tls", server.tls_url)]
    cases += [("healthy", server.fault_url("healthy")), ("feed-as-png", server.fault_url("feed-as-png"))]
    results = run_cli_all(cases, s.root)

    for mode in failing + ["tls"]:
        check_cli_failure(mode, results[mode], CLI_SECONDS)

    # The content type is only a hint: a good feed served as image/png still loads,
    # exactly as the healthy one does.
    for mode in ("healthy", "feed-as-png"):
        code, out, err, seconds, peak = results[mode]
        assert code == 0 and err == "", (mode, code, err)
        assert '"title" : "Fault test headline 938000"' in out, (mode, out[:300])
        assert peak < MEMORY_LIMIT, (mode, peak)
    assert results["feed-as-png"][1] == results["healthy"][1]

    hops = [record for record in server.log() if (record["path"] or "").startswith("/loop/")]
    assert len(hops) == 5, "redirect loop followed %d hops, not the limit of 5" % len(hops)
    assert not any(record["path"] == "/etc/passwd" for record in server.log()), server.describe()


# The applet ----------------------------------------------------------------


def run_fault_sequence(s, server, applet, menu, items, modes, fresh):
    """Serves one fault per refresh, checks each leaves the headlines alone with a
    failure status naming it, that the gaps grow, and that the next healthy
    answer (with `fresh` on top) brings the applet back."""
    first = server.script(modes, then="healthy")
    expected = shown(items)
    for offset, mode in enumerate(modes):
        server.wait_done(first + offset + 1, timeout=e2e.TIMEOUT + 2**offset * INTERVAL)
        entries = wait_failed(menu, REASONS[mode], "the %s failure" % mode)
        assert headline_labels(entries) == expected, (mode, menu.labels())
        applet.assert_alive()
        print("# %s: %s" % (mode, status_line(entries)))

    new_items = fresh + items
    server.set_items(new_items)
    wait_updated(menu, new_items, "recovery with the new headlines")
    applet.assert_alive()

    records = server.feed_requests()[first : first + len(modes) + 1]
    assert [record["mode"] for record in records] == list(modes) + ["healthy"], records
    spacing = gaps(records)
    print("# gaps after %s: %s" % (", ".join(modes), ", ".join("%.1fs" % gap for gap in spacing)))
    assert spacing[0] >= INTERVAL - 0.1, spacing
    assert all(later > earlier * 1.4 for earlier, later in zip(spacing, spacing[1:])), spacing
    return new_items


def test_applet_body_faults(s):
    """Reset, gzip bomb, 10 GB Content-Length: headlines kept, backing off, recovered."""
    items = [item(938100 + number) for number in range(4)]
    server = fault_server(s, items)
    applet, menu = start_applet(s, server, items)
    run_fault_sequence(s, server, applet, menu, items, ["gzip-bomb", "reset", "huge-length"], [item(938110)])
    assert applet.stop() == 0


def test_applet_redirect_faults(s):
    """Endless body, redirect loop, redirect to file:: headlines kept, backing off, recovered."""
    items = [item(938200 + number) for number in range(4)]
    server = fault_server(s, items)
    applet, menu = start_applet(s, server, items)
    run_fault_sequence(
        s, server, applet, menu, items, ["endless-chunked", "redirect-loop", "redirect-file"], [item(938210)]
    )
    assert s.recorder.urls() == [], s.recorder.urls()
    assert applet.stop() == 0


def test_applet_content_faults(s):
    """Self-signed TLS behind a redirect and a web page served as RSS fail; a bare
    304 keeps the feed; a feed served as image/png is still read."""
    items = [item(938300 + number) for number in range(4)]
    server = fault_server(s, items)
    applet, menu = start_applet(s, server, items)
    items = run_fault_sequence(s, server, applet, menu, items, ["redirect-tls", "html-as-rss"], [item(938310)])
    # The client reached the TLS server and refused its certificate; no request followed.
    refused = server.handshake_failures()
    assert refused and not any(record["tls"] and record["path"] for record in server.log()), server.describe()
    print("# TLS server saw: %s" % refused[0]["error"])

    # 304 to a request that carries the ETag of what is shown: nothing changes, and
    # it counts as a successful refresh.
    first = server.script(["not-modified"], then="healthy")
    server.wait_done(first + 2, timeout=e2e.TIMEOUT)
    wait_updated(menu, items, "the feed after a bare 304")
    assert server.feed_requests()[first]["headers"].get("if-none-match"), server.describe()

    fresh = [item(938320), item(938321)]
    items = fresh + items
    server.set_items(items)
    server.set_mode("feed-as-png")
    wait_updated(menu, items, "the feed served as image/png")
    applet.assert_alive()
    assert applet.stop() == 0


def test_applet_drip_and_429(s):
    """A server dripping a byte a second: the CLI gives up within 35 s, the applet stays
    responsive and gives up too; then 429 with Retry-After 5 is honoured."""
    items = [item(938400 + number) for number in range(3)]
    server = fault_server(s, items)
    server.set_retry_after(5)
    applet, menu = start_applet(s, server, items)
    first = server.script(["drip", "too-many-requests"], then="healthy")

    cli = {}
    thread = threading.Thread(
        target=lambda: cli.update(drip=run_cli(server.fault_url("drip"), s.root, "drip")), daemon=True
    )
    thread.start()

    server.wait_feed_requests(first + 1)
    # While the drip goes on, the menu answers, still shows the last good
    # headlines and says that a refresh is under way.
    for _ in range(5):
        time.sleep(2)
        entries = menu.visible_items()
        assert headline_labels(entries) == shown(items), menu.labels()
        assert status_line(entries) == e2e.REFRESHING, status_line(entries)
        applet.assert_alive()

    entries = wait_failed(menu, REASONS["drip"], "the drip to be given up")
    # The server notices the client has gone at its next byte, a second later.
    server.wait_done(first + 1, timeout=5)
    drip = server.feed_requests()[first]
    print("# applet gave up the drip after %.1fs (%d bytes)" % (drip["done"] - drip["time"], drip["sent"]))
    assert drip["done"] - drip["time"] <= DRIP_SECONDS, server.describe()
    assert headline_labels(entries) == shown(items), menu.labels()

    thread.join(DRIP_SECONDS + 30)
    check_cli_failure("drip", cli["drip"], DRIP_SECONDS)

    server.wait_done(first + 2)
    entries = wait_failed(menu, REASONS["too-many-requests"], "the 429 failure")
    assert headline_labels(entries) == shown(items), menu.labels()
    new_items = [item(938410)] + items
    server.set_items(new_items)
    wait_updated(menu, new_items, "recovery after the 429")
    records = server.feed_requests()[first : first + 3]
    assert [record["mode"] for record in records] == ["drip", "too-many-requests", "healthy"], records
    # Counted from when the server had sent the whole 429, which is before the
    # applet could have read it.
    waited = records[2]["time"] - records[1]["done"]
    print("# next request %.2fs after the 429 (Retry-After: 5)" % waited)
    assert waited >= 5.0, "request %.2fs after a 429 with Retry-After: 5" % waited
    assert applet.stop() == 0


def block_state_with_file(s):
    """$XDG_STATE_HOME/lwn-tray is a regular file: no folder can be made there."""
    path = os.path.join(s.dirs["XDG_STATE_HOME"], "lwn-tray")
    with open(path, "w") as f:
        f.write("in the way\n")
    return path


def block_state_with_proc(s):
    """$XDG_STATE_HOME/lwn-tray leads into /proc, where not even root creates files."""
    path = os.path.join(s.dirs["XDG_STATE_HOME"], "lwn-tray")
    os.symlink("/proc/%d" % os.getpid(), path)
    return path


def check_unwritable_state(s, block):
    items = [item(938500 + number) for number in range(3)]
    server = fault_server(s, items)
    blocked = block(s)
    # The precondition, checked as the applet's user: creating the state file fails.
    try:
        with open(os.path.join(blocked, "state.ini"), "w"):
            pass
        raise AssertionError("%s is writable" % blocked)
    except OSError:
        pass

    applet = s.start(feed_url=server.url, interval=INTERVAL)
    menu = applet.menu()
    # The headlines show, and the status line says why nothing is announced.
    entries = menu.wait(
        lambda entries: headline_labels(entries) == shown(items)
        and status_line(entries).startswith("Notifications paused: "),
        "headlines with an unwritable state folder",
    )
    assert "state" in status_line(entries), status_line(entries)

    menu.click(BULLET + items[1]["title"])
    assert s.recorder.wait_count(1) == [items[1]["link"]], s.recorder.urls()
    expected = shown(items)
    expected[1] = items[1]["title"]
    menu.wait(lambda entries: headline_labels(entries) == expected, "the clicked item read")

    # A few more refreshes, with new items, so that every save path is tried again.
    answered = len(server.feed_requests())
    new_items = [item(938510)] + items
    server.set_items(new_items)
    server.wait_done(answered + 2, timeout=e2e.TIMEOUT)
    expected = [BULLET + new_items[0]["title"]] + expected
    menu.wait(lambda entries: headline_labels(entries) == expected, "new items, clicked one still read")
    applet.assert_alive()

    # Told once as a notification too, and never a headline announced.
    summaries = [notification.summary for notification in s.notifier.notifications()]
    assert summaries == ["New headlines cannot be recorded"], summaries

    log = applet.log()
    warnings = [line for line in log.splitlines() if "WARNING" in line]
    print("# warning: %s" % (warnings[:1],))
    assert len(warnings) == 1, warnings
    assert "lwn-tray" in warnings[0] and ("save" in warnings[0].lower()), warnings
    assert applet.stop() == 0


def test_state_is_a_file(s):
    """State folder blocked by a file: headlines shown, one warning, read in memory."""
    check_unwritable_state(s, block_state_with_file)


def test_state_in_proc(s):
    """State folder is a symlink into /proc: headlines shown, one warning, read in memory."""
    check_unwritable_state(s, block_state_with_proc)


TESTS = [
    ("command line: every fault fails fast, in one line, in little memory", test_cli_faults),
    ("applet: reset, gzip bomb, huge length", test_applet_body_faults),
    ("applet: endless body, redirect loop, redirect to file:", test_applet_redirect_faults),
    ("applet: TLS, web page as RSS, bare 304, feed as image/png", test_applet_content_faults),
    ("applet and command line: slow drip, then 429 with Retry-After", test_applet_drip_and_429),
    ("applet: state folder blocked by a file", test_state_is_a_file),
    ("applet: state folder inside /proc", test_state_in_proc),
]


def make_scenario(func):
    return e2e.Scenario(BINARY)


def main():
    if not BINARY or not os.access(BINARY, os.X_OK):
        print("usage: test-faults.py PATH-TO-lwn-tray", file=sys.stderr)
        return 2
    selected = os.environ.get("LWN_E2E_ONLY")
    tests = [test for test in TESTS if not selected or selected in test[1].__name__]
    return e2e.run_tap(tests, make_scenario)


if __name__ == "__main__":
    sys.exit(main())
