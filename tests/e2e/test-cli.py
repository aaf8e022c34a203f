#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs the built lwn-tray binary in its --print/--json modes against file:// and
local http:// feeds and checks output, exit codes and the one-line error contract."""

import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import traceback

BINARY = sys.argv[1]
DATA = os.path.join(os.environ.get("G_TEST_SRCDIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")), "data")
LWN_FEED = os.path.join(DATA, "lwn-headlines-2023-07.rdf")


class FeedHandler(http.server.BaseHTTPRequestHandler):
    routes = {}

    def do_GET(self):
        status, content_type, body = self.routes.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_server():
    with open(LWN_FEED, "rb") as f:
        lwn = f.read()
    FeedHandler.routes = {
        "/headlines/rss": (200, "application/rdf+xml", lwn),
        "/broken": (200, "application/rss+xml", lwn[: len(lwn) // 2]),
        "/html": (200, "text/html", b"<!DOCTYPE html><html><body>Hello</body></html>"),
        "/error": (500, "text/plain", b"oops"),
    }
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FeedHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_address[1]


def run(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8")
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=60, env=env)


def check_failure(result, url, reason):
    assert result.returncode == 1, result
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("lwn-tray: could not load %s: " % url), lines[0]
    assert reason.lower() in lines[0].lower(), lines[0]


def test_print_file():
    result = run("--print", "--feed-url", "file://" + LWN_FEED)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 15, lines
    first_title, first_url = lines[0].split("\t")
    assert first_title == "Going Rogue (Digital Antiquarian)", first_title
    assert first_url == "https://lwn.net/Articles/937631/", first_url
    for line in lines:
        title, url = line.split("\t")
        assert title and url.startswith("https://lwn.net/Articles/"), line


def test_json_http(base):
    result = run("--json", "--feed-url", base + "/headlines/rss")
    assert result.returncode == 0, result.stderr
    feed = json.loads(result.stdout)
    assert feed["title"] == "LWN.net"
    assert feed["link"].startswith("https://lwn.net"), feed["link"]
    assert len(feed["items"]) == 15
    item = feed["items"][0]
    assert set(item) == {"id", "title", "link", "url", "summary", "date", "author", "paywalled"}, item
    assert item["id"] == "https://lwn.net/Articles/937631/"
    assert item["url"] == "https://lwn.net/Articles/937631/"
    assert item["date"].startswith("2023-07-07T18:15:29"), item["date"]
    assert item["author"] == "corbet"
    assert item["paywalled"] is False
    assert "Digital Antiquarian" in item["summary"] and "<" not in item["summary"], item["summary"]
    assert any(i["paywalled"] and i["title"].startswith("[$]") for i in feed["items"])


def test_http_status(base):
    check_failure(run("--print", "--feed-url", base + "/error"), base + "/error", "HTTP status 500")


def test_http_not_found(base):
    check_failure(run("--json", "--feed-url", base + "/nothing"), base + "/nothing", "404")


def test_truncated_feed(base):
    check_failure(run("--print", "--feed-url", base + "/broken"), base + "/broken", "line")


def test_html_page(base):
    check_failure(run("--print", "--feed-url", base + "/html"), base + "/html", "feed")


def test_connection_refused():
    url = "http://127.0.0.1:1/feed"
    check_failure(run("--print", "--feed-url", url), url, "connect")


def test_missing_file():
    url = "file:///nonexistent/lwn-tray-test.xml"
    result = run("--print", "--feed-url", url)
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1, result


def test_unsupported_scheme():
    url = "ftp://127.0.0.1/feed"
    result = run("--print", "--feed-url", url)
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1, result


def test_version():
    result = run("--version")
    assert result.returncode == 0 and result.stdout.startswith("lwn-tray "), result


def test_help():
    result = run("--help")
    assert result.returncode == 0 and "--feed-url" in result.stdout and "--json" in result.stdout, result


def test_no_display():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["LC_ALL"] = "C.UTF-8"
    result = subprocess.run([BINARY, "--feed-url", "file://" + LWN_FEED], capture_output=True, text=True,
                            timeout=60, env=env)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result
    assert lines[0].startswith("lwn-tray: ") and "display" in lines[0], lines
    # Uninstalled, no lwn-tray is on PATH: the hint names this binary, quoted for a shell.
    assert "'%s' --print" % os.path.realpath(BINARY) in lines[0], lines


def test_print_several(base):
    """Several --feed-url: each feed under a "# Title (URL)" line, in the order given;
    a feed that fails says so in one line and the others are still printed."""
    atom = "file://" + os.path.join(DATA, "atom.xml")
    feeds = [base + "/headlines/rss", atom, base + "/error"]
    result = run("--print", *[arg for url in feeds for arg in ("--feed-url", url)])
    assert result.returncode == 1, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lwn-tray: could not load %s: " % feeds[2]), lines
    blocks = result.stdout.split("\n\n")
    assert len(blocks) == 2, result.stdout
    assert blocks[0].splitlines()[0] == "# LWN.net (%s)" % feeds[0], blocks[0]
    assert len(blocks[0].splitlines()) == 16
    assert blocks[1].splitlines()[0] == "# Example & Co. Blog (%s)" % atom, blocks[1]
    assert blocks[1].splitlines()[1].startswith("Caf\u00e9 tales\t"), blocks[1]


def test_json_several(base):
    """Several feeds as JSON: an array of the one-feed documents, each with its url,
    and an error in place of the items of a feed that failed."""
    result = run("--json", "--feed-url", base + "/headlines/rss", "--feed-url", base + "/nothing")
    assert result.returncode == 1, result
    feeds = json.loads(result.stdout)
    assert [feed["url"] for feed in feeds] == [base + "/headlines/rss", base + "/nothing"]
    assert feeds[0]["title"] == "LWN.net" and len(feeds[0]["items"]) == 15, feeds[0].keys()
    assert set(feeds[1]) == {"url", "error"} and "404" in feeds[1]["error"], feeds[1]


def opml_env(tmp):
    return dict(
        os.environ,
        LC_ALL="C.UTF-8",
        GSETTINGS_BACKEND="keyfile",
        XDG_CONFIG_HOME=os.path.join(tmp, "config"),
    )


def test_opml_round_trip():
    """--import-opml adds a list's feeds to those followed, once, and says so;
    --export-opml prints them back as OPML 2.0; a bad list is one line and
    changes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        env = opml_env(tmp)

        def cli(*args):
            return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=60, env=env)

        exported = cli("--export-opml")
        assert exported.returncode == 0, exported
        assert 'xmlUrl="https://lwn.net/headlines/rss"' in exported.stdout, exported.stdout

        liferea = os.path.join(DATA, "opml", "liferea.opml")
        result = cli("--import-opml", liferea)
        assert result.returncode == 0, result
        assert result.stdout == "Added 3 feeds; 1 was followed already\n", result.stdout
        again = cli("--import-opml", liferea)
        assert again.stdout == "Added 0 feeds; 4 were followed already\n", again.stdout

        before = cli("--export-opml").stdout
        for bad in ("bad-not-opml.opml", "bad-truncated.opml", "no-such-file.opml"):
            result = cli("--import-opml", os.path.join(DATA, "opml", bad))
            lines = result.stderr.splitlines()
            assert result.returncode == 1 and len(lines) == 1, result
            assert lines[0].startswith("lwn-tray: could not import "), lines
        after = cli("--export-opml").stdout
        strip = lambda text: re.sub(r"<dateCreated>.*</dateCreated>", "", text)
        assert strip(after) == strip(before), "a bad list changed the feeds"
        for url in ("https://www.debian.org/News/news", "https://www.kernel.org/feeds/kdist.xml"):
            assert 'xmlUrl="%s"' % url in after, after
        assert 'text="Planet GNOME &amp; friends"' in after, after


def test_interval():
    """--interval takes whole seconds from 1 up; anything else is refused in one line
    that names the value, before any feed is read."""
    feed = "file://" + LWN_FEED
    result = run("--print", "--feed-url", feed, "--interval", "3600")
    assert result.returncode == 0 and result.stderr == "", result
    for value in ("0", "-5", "abc", "12s", " 60", "99999999999", ""):
        result = run("--print", "--feed-url", feed, "--interval", value)
        lines = result.stderr.splitlines()
        assert result.returncode == 1 and result.stdout == "" and len(lines) == 1, (value, result)
        assert lines[0] == "lwn-tray: the interval must be a positive number of seconds, not \u201c%s\u201d" % value, lines


def test_bad_option():
    result = run("--no-such-option")
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1, result


def main():
    server, base = start_server()
    tests = [
        ("print from file://", test_print_file),
        ("json from http://", lambda: test_json_http(base)),
        ("HTTP 500 is one line, exit 1", lambda: test_http_status(base)),
        ("HTTP 404 is one line, exit 1", lambda: test_http_not_found(base)),
        ("truncated XML names the line", lambda: test_truncated_feed(base)),
        ("HTML page is not a feed", lambda: test_html_page(base)),
        ("connection refused", test_connection_refused),
        ("missing file", test_missing_file),
        ("unsupported scheme", test_unsupported_scheme),
        ("--version", test_version),
        ("--help", test_help),
        ("unknown option", test_bad_option),
        ("--interval: whole seconds from 1, anything else named in one line", test_interval),
        ("no display: one line, exit 1", test_no_display),
        ("--print of several feeds, labelled", lambda: test_print_several(base)),
        ("--json of several feeds, an array", lambda: test_json_several(base)),
        ("OPML in and out, bad lists change nothing", test_opml_round_trip),
    ]
    print("1..%d" % len(tests))
    failed = 0
    for number, (name, func) in enumerate(tests, 1):
        try:
            func()
            print("ok %d - %s" % (number, name))
        except Exception:
            failed += 1
            print("not ok %d - %s" % (number, name))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
    server.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
