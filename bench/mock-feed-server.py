#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Serves a feed on 127.0.0.1 with ETags, in a mode the benchmark switches over HTTP, and counts what it answered.
#
# Usage: mock-feed-server.py --feed FILE --big FILE --port-file FILE [--log FILE]
#                            [--mode NAME=FILE...] [--fresh NAME=FILE...] [--many FILE]
#                            [--rate BYTES_PER_SECOND]
#   GET /feed                    the feed, as the current mode says:
#                                  same     the --feed file; a matching If-None-Match gets 304
#                                  changed  the --feed file with a counter in the first title: always 200
#                                  big      the --big file, likewise changed on every request
#                                  NAME     of a --mode: that file, likewise changed on every request
#                                  NAME     of a --fresh: that file with each "{serial}" replaced by the
#                                           counter, so that every answer brings only new items
#   GET /feeds/K                 with --many, feed number K (0, 1, ...): that file with each "{serial}"
#                                replaced by K, so that no two feeds share an item; the same on every
#                                request, and a matching If-None-Match gets 304. Counted as many-200
#                                and many-304, whatever the mode; never delayed nor held
#   GET /control?mode=M&delay=S&hold=H
#                                switch mode; delay every feed answer by S seconds; with H=1, keep
#                                feed answers back until a request with H=0 (the mode of the
#                                answer is the one current when it is let go)
#   GET /stats                   "<mode>-<status> <count>" lines, e.g. "same-304 12"
# The port (chosen by the kernel) is written to --port-file once the server listens.
# --rate paces feed bodies as a network link of that speed would, in 64 KiB pieces;
# without it a body leaves at once, at the speed of the loopback device.

import argparse
import hashlib
import http.server
import os
import threading
import time
import urllib.parse

CHUNK = 64 * 1024


class State:
    def __init__(self, feed, big, log, modes, fresh, many):
        self.lock = threading.Lock()
        self.many = many
        self.many_bodies = {}
        self.bodies = {"same": feed, "changed": feed, "big": big, **modes, **fresh}
        self.fresh = set(fresh)
        self.mode = "same"
        self.delay = 0.0
        self.counter = 0
        self.stats = {}
        self.log = log
        self.released = threading.Event()
        self.released.set()

    def next_body(self):
        """Returns (mode, body, delay) for one feed request."""
        with self.lock:
            mode = self.mode
            body = self.bodies[mode]
            if mode in self.fresh:
                self.counter += 1
                body = body.replace(b"{serial}", b"%d" % self.counter)
            elif mode != "same":
                self.counter += 1
                body = with_counter(body, self.counter)
            return mode, body, self.delay

    def many_body(self, number):
        """Returns (body, etag) of feed number NUMBER of --many, made once."""
        with self.lock:
            if number not in self.many_bodies:
                body = self.many.replace(b"{serial}", b"%d" % number)
                self.many_bodies[number] = (body, etag_of(body))
            return self.many_bodies[number]

    def count(self, mode, status, size):
        with self.lock:
            key = f"{mode}-{status}"
            self.stats[key] = self.stats.get(key, 0) + 1
            if self.log is not None:
                self.log.write(f"{time.time_ns()} {key} {size}\n")
                self.log.flush()


def with_counter(body, counter):
    """Puts the counter at the start of the first item's title, so the menu changes too."""
    item = body.find(b"<item")
    title = body.find(b"<title>", item if item >= 0 else 0)
    if title < 0:
        return body + b"<!-- %d -->" % counter
    cut = title + len(b"<title>")
    return body[:cut] + b"(%d) " % counter + body[cut:]


def etag_of(body):
    return '"' + hashlib.sha1(body).hexdigest() + '"'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-feed-server"

    def log_message(self, format, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        rate = self.server.rate
        if not rate:
            self.wfile.write(body)
            return
        # Megabytes pushed through loopback at once keep a CPU busy in the kernel for
        # milliseconds, which a real link spreads out.
        start = time.monotonic()
        for offset in range(0, len(body), CHUNK):
            piece = body[offset:offset + CHUNK]
            self.wfile.write(piece)
            self.wfile.flush()
            ahead = start + (offset + len(piece)) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)

    def answer_feed(self, mode, body, etag):
        """A feed's answer: 304 when the request names its ETag, else the body."""
        state = self.server.state
        if etag in [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]:
            state.count(mode, 304, 0)
            self.reply(304, headers=[("ETag", etag)])
        else:
            state.count(mode, 200, len(body))
            self.reply(200, body, [("Content-Type", "application/rdf+xml"), ("ETag", etag)])

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        state = self.server.state
        number = url.path.removeprefix("/feeds/")
        if state.many is not None and number != url.path and number.isdigit() and len(number) < 7:
            self.answer_feed("many", *state.many_body(int(number)))
        elif url.path == "/feed":
            state.released.wait()
            mode, body, delay = state.next_body()
            if delay > 0:
                time.sleep(delay)
            self.answer_feed(mode, body, etag_of(body))
        elif url.path == "/control":
            query = urllib.parse.parse_qs(url.query)
            with state.lock:
                mode = query.get("mode", [state.mode])[0]
                if mode not in state.bodies:
                    self.reply(400, b"unknown mode\n")
                    return
                state.mode = mode
                state.delay = float(query.get("delay", [state.delay])[0])
                hold = query.get("hold", [None])[0]
                if hold == "1":
                    state.released.clear()
                elif hold == "0":
                    state.released.set()
            self.reply(200, b"ok\n", [("Content-Type", "text/plain")])
        elif url.path == "/stats":
            with state.lock:
                text = "".join(f"{key} {value}\n" for key, value in sorted(state.stats.items()))
            self.reply(200, text.encode(), [("Content-Type", "text/plain")])
        else:
            self.reply(404, b"not found\n")


def read_mode(spec):
    name, sep, path = spec.partition("=")
    if not sep or not name or name in ("same", "changed", "big"):
        raise SystemExit(f"mock-feed-server: bad mode {spec!r}: give NAME=FILE with a new NAME")
    with open(path, "rb") as f:
        return name, f.read()


def main():
    parser = argparse.ArgumentParser(description="Feed server for the applet benchmark")
    parser.add_argument("--feed", required=True)
    parser.add_argument("--big", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log")
    parser.add_argument("--mode", action="append", default=[], metavar="NAME=FILE",
                        help="another mode serving FILE, changed on every request")
    parser.add_argument("--fresh", action="append", default=[], metavar="NAME=FILE",
                        help="another mode serving FILE with {serial} replaced by a new number each time")
    parser.add_argument("--many", metavar="FILE",
                        help='serve /feeds/K: FILE with "{serial}" replaced by K, a feed of its own for each K')
    parser.add_argument("--rate", type=float, default=0, help="bytes per second for feed bodies (default: no limit)")
    args = parser.parse_args()

    with open(args.feed, "rb") as f:
        feed = f.read()
    with open(args.big, "rb") as f:
        big = f.read()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    modes = dict(read_mode(spec) for spec in args.mode)
    fresh = dict(read_mode(spec) for spec in args.fresh)
    many = None
    if args.many:
        with open(args.many, "rb") as f:
            many = f.read()

    # Two hundred feeds polled at once connect at once: socketserver's backlog of 5 would
    # drop connections, which the clients retry only a second later.
    http.server.ThreadingHTTPServer.request_queue_size = 1024
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(feed, big, log, modes, fresh, many)
    server.rate = args.rate
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(f"{server.server_address[1]}\n")
    # Renamed into place so that a reader never sees a half-written port.
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
