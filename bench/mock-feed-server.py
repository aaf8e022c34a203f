#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Serves a feed on 127.0.0.1 with ETags, in a mode the benchmark switches over HTTP, and counts what it answered.
#
# Usage: mock-feed-server.py --feed FILE --big FILE --port-file FILE [--log FILE]
#   GET /feed                    the feed, as the current mode says:
#                                  same     the --feed file; a matching If-None-Match gets 304
#                                  changed  the --feed file with a counter in the first title: always 200
#                                  big      the --big file, likewise changed on every request
#   GET /control?mode=M&delay=S  switch mode and/or delay every feed answer by S seconds
#   GET /stats                   "<mode>-<status> <count>" lines, e.g. "same-304 12"
# The port (chosen by the kernel) is written to --port-file once the server listens.

import argparse
import hashlib
import http.server
import os
import threading
import time
import urllib.parse


class State:
    def __init__(self, feed, big, log):
        self.lock = threading.Lock()
        self.bodies = {"same": feed, "changed": feed, "big": big}
        self.mode = "same"
        self.delay = 0.0
        self.counter = 0
        self.stats = {}
        self.log = log

    def next_body(self):
        """Returns (mode, body, delay) for one feed request."""
        with self.lock:
            mode = self.mode
            body = self.bodies[mode]
            if mode != "same":
                self.counter += 1
                body = with_counter(body, self.counter)
            return mode, body, self.delay

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
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        state = self.server.state
        if url.path == "/feed":
            mode, body, delay = state.next_body()
            if delay > 0:
                time.sleep(delay)
            etag = etag_of(body)
            if etag in [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]:
                state.count(mode, 304, 0)
                self.reply(304, headers=[("ETag", etag)])
            else:
                state.count(mode, 200, len(body))
                self.reply(200, body, [("Content-Type", "application/rdf+xml"), ("ETag", etag)])
        elif url.path == "/control":
            query = urllib.parse.parse_qs(url.query)
            with state.lock:
                mode = query.get("mode", [state.mode])[0]
                if mode not in state.bodies:
                    self.reply(400, b"unknown mode\n")
                    return
                state.mode = mode
                state.delay = float(query.get("delay", [state.delay])[0])
            self.reply(200, b"ok\n", [("Content-Type", "text/plain")])
        elif url.path == "/stats":
            with state.lock:
                text = "".join(f"{key} {value}\n" for key, value in sorted(state.stats.items()))
            self.reply(200, text.encode(), [("Content-Type", "text/plain")])
        else:
            self.reply(404, b"not found\n")


def main():
    parser = argparse.ArgumentParser(description="Feed server for the applet benchmark")
    parser.add_argument("--feed", required=True)
    parser.add_argument("--big", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()

    with open(args.feed, "rb") as f:
        feed = f.read()
    with open(args.big, "rb") as f:
        big = f.read()
    log = open(args.log, "a", encoding="utf-8") if args.log else None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(feed, big, log)
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(f"{server.server_address[1]}\n")
    # Renamed into place so that a reader never sees a half-written port.
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
