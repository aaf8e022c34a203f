# SPDX-License-Identifier: GPL-3.0-or-later
"""A feed server on 127.0.0.1 that misbehaves on request: slow drip, endless or
oversized bodies, gzip bombs, redirect loops and unsafe redirects, resets, bogus
304s, 429s, wrong content types and a self-signed TLS endpoint, next to a healthy
mode serving an LWN-style feed with an ETag."""

import gzip
import http.server
import os
import socket
import ssl
import struct
import subprocess
import threading
import time

import lwn_e2e as e2e

FEED_PATH = e2e.FEED_PATH
FAULT_PREFIX = "/fault/"

# Every loop that feeds a client stops after this long even if the client stays.
MAX_STREAM_SECONDS = 90
# The endless body stops here at the latest; far beyond any sane client cap.
MAX_STREAM_BYTES = 256 * 1024 * 1024
HUGE_LENGTH = 10 * 1024 * 1024 * 1024
BOMB_INFLATED = 16 * 1024 * 1024
REDIRECT_LOOP_HOPS = 50

HTML_PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>LWN.net</title></head>\n"
    b"<body><h1>Welcome to LWN.net</h1><p>This is a web page, not a feed.</p></body></html>\n"
)

MODES = (
    "healthy",
    "drip",
    "endless-chunked",
    "huge-length",
    "gzip-bomb",
    "redirect-loop",
    "redirect-file",
    "redirect-tls",
    "reset",
    "not-modified",
    "too-many-requests",
    "feed-as-png",
    "html-as-rss",
)


def make_gzip_bomb():
    """A few KiB of gzip that inflate to BOMB_INFLATED bytes of a feed's opening."""
    head = b'<?xml version="1.0"?>\n<rss version="2.0"><channel><title>'
    return gzip.compress(head + b" " * (BOMB_INFLATED - len(head)), compresslevel=9)


class Certificate:
    """A throwaway self-signed certificate for 127.0.0.1, made with openssl."""

    def __init__(self, directory):
        self.cert = os.path.join(directory, "cert.pem")
        self.key = os.path.join(directory, "key.pem")
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                "-subj", "/CN=127.0.0.1", "-days", "1",
                "-keyout", self.key, "-out", self.cert,
            ],
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    tls_context = None
    owner = None

    def finish_request(self, request, client_address):
        # The handshake runs in the request's own thread so that a client that
        # gives up half-way cannot stall the accept loop.
        if self.tls_context is not None:
            request.settimeout(10)
            try:
                request = self.tls_context.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError) as error:
                self.owner.log_handshake_failure(error)
                return
        super().finish_request(request, client_address)


class FaultServer:
    """Serves FEED_PATH in the current mode, or in the next mode of a script when
    one is queued; FAULT_PREFIX + mode always answers in that mode, for clients
    that each want their own. Every request is logged with its mode and time."""

    def __init__(self, root, *, tls=True):
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.mode = "healthy"
        self.queue = []
        self.body = e2e.rss1([])
        self.etag = None
        self.generation = 0
        self.retry_after = 120
        self.drip_interval = 1.0
        self.requests = []
        self.bomb = make_gzip_bomb()
        self.httpd, self.thread = e2e.serve_http(self, protocol="HTTP/1.1", server_class=_Server)

        self.tls_httpd = None
        if tls:
            self.certificate = Certificate(root)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.certificate.cert, self.certificate.key)
            # Nobody knows its port before the constructor returns: set up after it serves.
            self.tls_httpd, self.tls_thread = e2e.serve_http(self, protocol="HTTP/1.1", server_class=_Server)
            self.tls_httpd.tls_context = context
            self.tls_httpd.owner = self

    # Addresses ------------------------------------------------------------

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        return "http://127.0.0.1:%d%s" % (self.port, FEED_PATH)

    @property
    def tls_url(self):
        return "https://127.0.0.1:%d%s" % (self.tls_httpd.server_address[1], FEED_PATH)

    def fault_url(self, mode):
        assert mode in MODES, mode
        return "http://127.0.0.1:%d%s%s" % (self.port, FAULT_PREFIX, mode)

    # Scripting ------------------------------------------------------------

    def set_items(self, items, etag=True):
        self.set_body(e2e.rss1(items), etag)

    def set_body(self, body, etag=True):
        with self.lock:
            self.generation += 1
            self.body = body
            self.etag = '"fault-%d"' % self.generation if etag else None

    def set_mode(self, mode):
        assert mode in MODES, mode
        with self.lock:
            self.mode = mode
            self.queue = []

    def script(self, modes, then):
        """The next feed requests get `modes` one each, in order; then `then`.
        Returns the index, in feed_requests(), of the first scripted request."""
        for mode in list(modes) + [then]:
            assert mode in MODES, mode
        with self.lock:
            self.queue = list(modes)
            self.mode = then
            return sum(1 for record in self.requests if self._is_feed_request(record))

    def set_retry_after(self, seconds):
        with self.lock:
            self.retry_after = seconds

    # Log ------------------------------------------------------------------

    def log(self):
        with self.lock:
            return [dict(record) for record in self.requests]

    @staticmethod
    def _is_feed_request(record):
        return record["path"] == FEED_PATH and not record["tls"]

    def feed_requests(self):
        """Requests for the feed itself, not redirect hops or TLS."""
        return [record for record in self.log() if self._is_feed_request(record)]

    def log_handshake_failure(self, error):
        now = time.monotonic()
        with self.lock:
            self.requests.append(
                {
                    "path": None,
                    "mode": "tls-handshake-failed",
                    "tls": True,
                    "headers": {},
                    "time": now,
                    "status": None,
                    "done": now,
                    "sent": 0,
                    "error": str(error),
                }
            )

    def handshake_failures(self):
        return [record for record in self.log() if record["mode"] == "tls-handshake-failed"]

    def describe(self):
        """One line per request, for failure diagnostics."""
        lines = []
        start = None
        for record in self.log():
            start = record["time"] if start is None else start
            lines.append(
                "%+8.2fs %s%s mode=%s status=%r sent=%d if-none-match=%r"
                % (
                    record["time"] - start,
                    "https " if record["tls"] else "",
                    record["path"],
                    record["mode"],
                    record["status"],
                    record["sent"],
                    record["headers"].get("if-none-match"),
                )
            )
        return lines[-60:]

    def wait_feed_requests(self, count, timeout=e2e.TIMEOUT):
        return e2e.wait_for(
            lambda: len(self.feed_requests()) >= count and self.feed_requests(),
            "%d feed request(s)" % count,
            timeout,
        )

    def wait_done(self, count, timeout=e2e.TIMEOUT):
        """Waits until the first `count` feed requests have been answered in full."""

        def done():
            records = self.feed_requests()
            return len(records) >= count and all(record["done"] is not None for record in records[:count]) and records

        return e2e.wait_for(done, "%d finished feed request(s)" % count, timeout)

    # Serving --------------------------------------------------------------

    def handle(self, request):
        tls = isinstance(request.connection, ssl.SSLSocket)
        path = request.path.split("?", 1)[0]
        with self.lock:
            if path.startswith(FAULT_PREFIX):
                mode = path[len(FAULT_PREFIX):].split("/", 1)[0]
            elif path == FEED_PATH and not tls and self.queue:
                mode = self.queue.pop(0)
            elif path == FEED_PATH:
                mode = "healthy" if tls else self.mode
            elif path.startswith("/loop/"):
                mode = "redirect-loop"
            else:
                mode = None
            record = {
                "path": path,
                "mode": mode,
                "tls": tls,
                "headers": {key.lower(): value for key, value in request.headers.items()},
                "time": time.monotonic(),
                "status": None,
                "done": None,
                "sent": 0,
            }
            self.requests.append(record)
            body, etag, retry_after = self.body, self.etag, self.retry_after
        try:
            self.answer(request, mode, path, record, body, etag, retry_after)
        except OSError:
            pass
        finally:
            with self.lock:
                record["done"] = time.monotonic()
            request.close_connection = True

    def _head(self, request, status, headers):
        request.send_response(status)
        for key, value in headers:
            request.send_header(key, value)
        request.send_header("Connection", "close")
        request.end_headers()
        request.wfile.flush()

    def _write(self, request, record, data):
        request.wfile.write(data)
        request.wfile.flush()
        record["sent"] += len(data)

    def _streaming(self, started):
        return not self.closing.is_set() and time.monotonic() - started < MAX_STREAM_SECONDS

    def answer(self, request, mode, path, record, body, etag, retry_after):
        rss = ("Content-Type", "application/rss+xml")
        if mode is None or mode not in MODES:
            self._head(request, 404, [("Content-Type", "text/plain"), ("Content-Length", "9")])
            self._write(request, record, b"not found")
        elif mode == "healthy":
            matches = etag is not None and etag in [
                tag.strip() for tag in record["headers"].get("if-none-match", "").split(",")
            ]
            if matches:
                record["status"] = 304
                self._head(request, 304, [("ETag", etag)])
                return
            headers = [("Content-Type", "application/rdf+xml"), ("Content-Length", str(len(body)))]
            if etag is not None:
                headers.append(("ETag", etag))
            record["status"] = 200
            self._head(request, 200, headers)
            self._write(request, record, body)
        elif mode == "drip":
            record["status"] = 200
            self._head(request, 200, [rss, ("Content-Length", str(len(body)))])
            started = time.monotonic()
            index = 0
            # One byte a second; the feed itself is far longer than any client's patience.
            while self._streaming(started) and index < len(body):
                self._write(request, record, body[index:index + 1])
                index += 1
                self.closing.wait(self.drip_interval)
        elif mode == "endless-chunked":
            record["status"] = 200
            self._head(request, 200, [rss, ("Transfer-Encoding", "chunked")])
            chunk = b"<!-- " + b"x" * (64 * 1024 - 9) + b" -->"
            framed = b"%x\r\n%s\r\n" % (len(chunk), chunk)
            self._write(request, record, b'%x\r\n<?xml version="1.0"?><rss>\r\n' % len('<?xml version="1.0"?><rss>'))
            started = time.monotonic()
            while self._streaming(started) and record["sent"] < MAX_STREAM_BYTES:
                self._write(request, record, framed)
        elif mode == "huge-length":
            record["status"] = 200
            self._head(request, 200, [rss, ("Content-Length", str(HUGE_LENGTH))])
            self._write(request, record, body[:512])
        elif mode == "gzip-bomb":
            record["status"] = 200
            self._head(
                request,
                200,
                [rss, ("Content-Encoding", "gzip"), ("Content-Length", str(len(self.bomb)))],
            )
            self._write(request, record, self.bomb)
        elif mode == "redirect-loop":
            hop = 0
            if path.startswith("/loop/"):
                hop = int(path[len("/loop/"):] or 0)
            target = "/loop/%d" % ((hop + 1) % REDIRECT_LOOP_HOPS)
            record["status"] = 302
            self._head(request, 302, [("Location", target), ("Content-Length", "0")])
        elif mode == "redirect-file":
            record["status"] = 302
            self._head(request, 302, [("Location", "file:///etc/passwd"), ("Content-Length", "0")])
        elif mode == "redirect-tls":
            record["status"] = 302
            self._head(request, 302, [("Location", self.tls_url), ("Content-Length", "0")])
        elif mode == "reset":
            record["status"] = 200
            self._head(request, 200, [rss, ("Content-Length", str(len(body)))])
            self._write(request, record, body[: len(body) // 2])
            # SO_LINGER with a zero timeout turns close() into a TCP reset.
            request.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            request.connection.close()
        elif mode == "not-modified":
            record["status"] = 304
            self._head(request, 304, [])
        elif mode == "too-many-requests":
            record["status"] = 429
            text = b"slow down"
            self._head(
                request,
                429,
                [
                    ("Content-Type", "text/plain"),
                    ("Retry-After", str(retry_after)),
                    ("Content-Length", str(len(text))),
                ],
            )
            self._write(request, record, text)
        elif mode == "feed-as-png":
            record["status"] = 200
            self._head(request, 200, [("Content-Type", "image/png"), ("Content-Length", str(len(body)))])
            self._write(request, record, body)
        elif mode == "html-as-rss":
            record["status"] = 200
            self._head(request, 200, [rss, ("Content-Length", str(len(HTML_PAGE)))])
            self._write(request, record, HTML_PAGE)

    def close(self):
        self.closing.set()
        for httpd in (self.httpd, self.tls_httpd):
            if httpd is not None:
                httpd.shutdown()
                httpd.server_close()
