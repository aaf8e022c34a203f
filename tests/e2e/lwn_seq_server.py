# SPDX-License-Identifier: GPL-3.0-or-later
"""The feed server of tests/e2e/test-sequences.py: several feeds on one port, each at
/feed/NAME (and at any path below it, where redirects lead), each with an ETag per
version, and a queue of one-shot faults per feed: 500, a malformed body, a stall that
holds the request until the client gives up, and temporary or permanent redirects.
Every request is logged with what it was answered."""

import select
import threading
import time

import lwn_e2e as e2e

FAULTS = ("500", "malformed", "stall", "redirect-temp", "redirect-perm")
# A stalled request is let go after this long even if the client stays.
MAX_STALL_SECONDS = 120


class Feed:
    def __init__(self, name, title):
        self.name = name
        self.title = title
        self.items = []
        self.generation = 0
        self.body = e2e.rss1([], title)
        self.etag = None
        self.faults = []
        self.moves = 0


class SeqFeedServer:
    def __init__(self):
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.feeds = {}
        self.requests = []
        self.gate = threading.Event()
        self.gate.set()
        self.httpd, self.thread = e2e.serve_http(self, protocol="HTTP/1.1")

    # Feeds ----------------------------------------------------------------

    def add_feed(self, name, title):
        with self.lock:
            self.feeds[name] = Feed(name, title)

    def url(self, name):
        return "http://127.0.0.1:%d/feed/%s" % (self.httpd.server_address[1], name)

    def set_items(self, name, items):
        """Publishes a new version of the feed; returns its generation."""
        body = e2e.rss1(items, self.feeds[name].title)
        with self.lock:
            feed = self.feeds[name]
            feed.generation += 1
            feed.items = list(items)
            feed.body = body
            feed.etag = '"%s-%d"' % (name, feed.generation)
            return feed.generation

    def queue_fault(self, name, fault):
        assert fault in FAULTS, fault
        with self.lock:
            self.feeds[name].faults.append(fault)

    def hold(self):
        """Keeps every request waiting until release()."""
        self.gate.clear()

    def release(self):
        self.gate.set()

    # Log ------------------------------------------------------------------

    def log(self):
        with self.lock:
            return [dict(record) for record in self.requests]

    def count(self):
        with self.lock:
            return len(self.requests)

    def describe(self, last=60):
        lines = []
        for index, record in enumerate(self.log()):
            lines.append(
                "#%d %s %s mode=%s status=%s gen=%s%s%s"
                % (
                    index,
                    time.strftime("%H:%M:%S", time.localtime(record["time"])),
                    record["path"],
                    record["mode"],
                    record["status"],
                    record["generation"],
                    " inm=%s" % record["inm"] if record["inm"] else "",
                    " (client gave up)" if record["aborted"] else "",
                )
            )
        return lines[-last:]

    # Serving --------------------------------------------------------------

    def _feed_for(self, path):
        parts = path.split("?", 1)[0].split("/")
        if len(parts) >= 3 and parts[1] == "feed":
            return self.feeds.get(parts[2])
        return None

    def handle(self, request):
        record = {
            "path": request.path,
            "feed": None,
            "mode": None,
            "status": None,
            "generation": None,
            "inm": request.headers.get("If-None-Match"),
            "time": time.time(),
            "done": None,
            "aborted": False,
        }
        self.gate.wait(MAX_STALL_SECONDS)
        with self.lock:
            feed = self._feed_for(request.path)
            if feed is not None:
                record["feed"] = feed.name
                record["mode"] = feed.faults.pop(0) if feed.faults else "healthy"
                record["generation"] = feed.generation
                body, etag, name = feed.body, feed.etag, feed.name
                if record["mode"] == "redirect-perm":
                    feed.moves += 1
                    target = "/feed/%s/moved-%d" % (name, feed.moves)
                elif record["mode"] == "redirect-temp":
                    target = "/feed/%s/elsewhere" % name
            self.requests.append(record)
        try:
            if feed is None:
                self._answer(request, record, 404, b"not found", [("Content-Type", "text/plain")])
            elif record["mode"] == "healthy":
                matches = etag is not None and etag in [
                    tag.strip() for tag in (record["inm"] or "").split(",")
                ]
                if matches:
                    self._answer(request, record, 304, None, [("ETag", etag)])
                else:
                    self._answer(request, record, 200, body, [("Content-Type", "application/rdf+xml"), ("ETag", etag)])
            elif record["mode"] == "500":
                self._answer(request, record, 500, b"server error", [("Content-Type", "text/plain")])
            elif record["mode"] == "malformed":
                # Half the document, under a new ETag that no client may keep.
                self._answer(
                    request, record, 200, body[: len(body) // 2],
                    [("Content-Type", "application/rdf+xml"), ("ETag", '"broken-%d"' % time.monotonic_ns())],
                )
            elif record["mode"] in ("redirect-temp", "redirect-perm"):
                status = 301 if record["mode"] == "redirect-perm" else 302
                self._answer(request, record, status, b"", [("Location", target)])
            elif record["mode"] == "stall":
                self._stall(request, record)
        except OSError:
            pass
        finally:
            with self.lock:
                record["done"] = time.time()
            request.close_connection = True

    def _answer(self, request, record, status, body, headers):
        # Logged before the bytes leave, so that a client that has its answer
        # always finds the request answered in the log.
        with self.lock:
            record["status"] = status
        request.send_response(status)
        for key, value in headers:
            request.send_header(key, value)
        if body is not None:
            request.send_header("Content-Length", str(len(body)))
        request.send_header("Connection", "close")
        request.end_headers()
        if body:
            request.wfile.write(body)
        request.wfile.flush()

    def _stall(self, request, record):
        """Sends nothing until the client hangs up: its own time limit is the timeout."""
        connection = request.connection
        started = time.monotonic()
        while not self.closing.is_set() and time.monotonic() - started < MAX_STALL_SECONDS:
            readable, _, _ = select.select([connection], [], [], 0.2)
            if readable:
                try:
                    data = connection.recv(1024)
                except OSError:
                    data = b""
                if not data:
                    with self.lock:
                        record["aborted"] = True
                    return

    def close(self):
        self.closing.set()
        self.gate.set()
        self.httpd.shutdown()
        self.httpd.server_close()
