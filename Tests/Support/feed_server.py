#!/usr/bin/env python3
"""A loopback HTTP server for the end-to-end tests: WSDOT's feed and its failure modes.

Usage: feed_server.py FEED.json LOG  -- prints its port on the first line of stdout, logs each
request (path and headers) to LOG, and exits when its stdin closes or after 120 seconds. Test-only; standard
library only; binds 127.0.0.1.
"""
import functools
import gzip
import http.server
import io
import json
import os
import sys
import threading
import time

FEED = open(sys.argv[1], "rb").read()


@functools.lru_cache(maxsize=None)
def gzip_bomb(size):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as stream:
        stream.write(b"[")
        block = b" " * (1 << 20)
        for _ in range(size >> 20):
            stream.write(block)
    return buffer.getvalue()

LOG = sys.argv[2]
COUNTS = {}
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are written separately: with Nagle's algorithm on, the body would wait for
    # the client's delayed ACK of the headers (40 ms) on every kept-alive request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", content_type="application/json", headers=None):
        self.send_response(status)
        if status != 304:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if status != 304 and body:
            self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"method": "POST", "path": self.path, "headers": dict(self.headers),
                                      "body": body.decode("utf-8", "replace")}) + "\n")
        if self.path.startswith("/hook-fail"):
            self.send(500, b"no", "text/plain")
        elif self.path.startswith("/hook-302"):  # a redirect that would turn the POST into a GET
            self.send(302, b"", "text/plain", {"Location": "/hook-final"})
        elif self.path.startswith("/hook-307-elsewhere"):  # the same server under another name: another origin
            self.send(307, b"", "text/plain", {"Location": "http://localhost:%d/hook-final" % self.server.server_address[1]})
        elif self.path.startswith("/hook-307"):  # a redirect that keeps the method and the body
            self.send(307, b"", "text/plain", {"Location": "/hook-final"})
        else:
            self.send(200, b"ok", "text/plain")

    def do_GET(self):
        path = self.path.split("?")[0]
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
            count = COUNTS[path]
            with open(LOG, "a") as log:
                log.write(json.dumps({"path": self.path, "headers": dict(self.headers)}) + "\n")
        if path == "/feed":
            self.send(200, FEED)
        elif path == "/flaky":  # 500 once, then the feed
            self.send(500, b"busy", "text/plain") if count == 1 else self.send(200, FEED)
        elif path == "/fail":
            self.send(500, b"internal error", "text/plain")
        elif path == "/unauthorized":  # what WSDOT answers a revoked access code with, here
            self.send(401, b"unauthorized", "text/plain")
        elif path == "/notfound":
            self.send(404, b"not found", "text/plain")
        elif path == "/hang":
            time.sleep(60)
            self.send(200, FEED)
        elif path == "/html":
            page = b"<html><head><title>Request Error</title></head><body><p>The server encountered an error.</p></body></html>"
            self.send(200, page, "text/html; charset=utf-8")
        elif path == "/html-forged":  # a title that would rewrite the terminal and forge a line
            page = b"<html><head><title>Error\x1b]0;pwned\x07\x1b[2J\rFAKE LINE: refresh ok</title></head></html>"
            self.send(200, page, "text/html; charset=utf-8")
        elif path == "/truncated":
            self.send(200, FEED[: len(FEED) // 2])
        elif path == "/etag":
            if self.headers.get("If-None-Match") == '"v1"':
                self.send(304, headers={"ETag": '"v1"'})
            else:
                self.send(200, FEED, headers={"ETag": '"v1"'})
        elif path.startswith("/calendar/") or path.startswith("/calendar-then-fail/"):
            # A file of Fixtures/calendars with an ETag and a Last-Modified (a 304 to either);
            # -then-fail answers 404 after the first time.
            name = os.path.basename(path)
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "calendars", name), "rb") as handle:
                body = handle.read()
            validators = {"ETag": '"c1"', "Last-Modified": "Tue, 04 Nov 2025 12:00:00 GMT"}
            if path.startswith("/calendar-then-fail/") and count > 1:
                self.send(404, b"no such calendar", "text/plain")
            elif self.headers.get("If-None-Match") == '"c1"':
                self.send(304, headers=validators)
            else:
                self.send(200, body, "text/calendar", validators)
        elif path == "/redirect":
            self.send(302, b"", "text/plain", {"Location": "/feed"})
        elif path == "/redirect-ftp":  # a redirect to a protocol that is never followed
            self.send(302, b"", "text/plain", {"Location": "ftp://127.0.0.1/feed"})
        elif path == "/big-headers":  # 100 header lines of 1 KiB
            self.send(200, FEED, headers={"X-Padding-%d" % i: "x" * 1024 for i in range(100)})
        elif path == "/bomb":  # 256 KiB on the wire, 64 MiB decoded
            self.send(200, gzip_bomb(64 << 20), headers={"Content-Encoding": "gzip"})
        elif path == "/endless":  # a chunked body that never ends
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"[" + b" " * 65535
            try:
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/big":  # 50 MB, sent in pieces
            size = 50 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"[" + b" " * (1024 * 1024 - 1)
            try:
                for _ in range(50):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            self.send(404, b"no such test path", "text/plain")


def exit_when_stdin_closes():
    sys.stdin.read()
    server.shutdown()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
threading.Timer(120, server.shutdown).start()
print(server.server_address[1], flush=True)
server.serve_forever()
