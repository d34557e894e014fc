#!/usr/bin/env python3
"""A loopback stand-in for a transit agency's feeds, for the end-to-end tests: it serves the files
of a directory as they are at each request, with validators, as a CDN does.

Usage: transit_server.py DIRECTORY LOG  -- prints its port on the first line of stdout, logs each
request (path and headers) and the status it got as a JSON line to LOG, and exits when its stdin
closes or after 300 seconds. Test-only; standard library only; binds 127.0.0.1.

GET /NAME serves DIRECTORY/NAME with an ETag (the SHA-1 of its bytes) and a Last-Modified (the
file's mtime); If-None-Match with that ETag, or If-Modified-Since at or after that time, gets 304.
A path under /key/ needs the header `X-Api-Key: sekrit-key-42` (else 401); /echo/ answers an HTML page quoting
the path and the Authorization header it got; /html/ answers an HTML
page; /silent/ never answers (a minute of silence); a missing file is 404.
"""
import email.utils
import hashlib
import http.server
import json
import os
import sys
import threading

DIRECTORY = sys.argv[1]
LOG = sys.argv[2]
LOCK = threading.Lock()
KEY = "sekrit-key-42"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=None):
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"path": self.path, "headers": dict(self.headers), "status": status}) + "\n")
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304 and body:
            self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/silent/"):
            import time
            time.sleep(60)
            return
        if path.startswith("/html/"):
            return self.answer(200, b"<html><title>Sign in to continue</title></html>", {"Content-Type": "text/html"})
        if path.startswith("/echo/"):
            # A careless server's error page: it quotes the address it was asked for, and the
            # credentials it was sent.
            title = "No calendar at %s (%s)" % (self.path, self.headers.get("Authorization", "anonymous"))
            return self.answer(200, ("<html><title>%s</title></html>" % title).encode(), {"Content-Type": "text/html"})
        if path.startswith("/key/"):
            if self.headers.get("X-Api-Key") != KEY:
                return self.answer(401, b"missing key", {"Content-Type": "text/plain"})
            path = path[len("/key"):]
        name = os.path.basename(path)
        file = os.path.join(DIRECTORY, name)
        if not name or not os.path.isfile(file):
            return self.answer(404, b"not found", {"Content-Type": "text/plain"})
        body = open(file, "rb").read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()
        modified = int(os.path.getmtime(file))
        headers = {"ETag": etag, "Last-Modified": email.utils.formatdate(modified, usegmt=True),
                   "Content-Type": "application/octet-stream"}
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, headers=headers)
        since = self.headers.get("If-Modified-Since")
        if since and self.headers.get("If-None-Match") is None:
            try:
                if email.utils.parsedate_to_datetime(since).timestamp() >= modified:
                    return self.answer(304, headers=headers)
            except (TypeError, ValueError):
                pass
        self.answer(200, body, headers)


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Until the test closes stdin, or five minutes.
    waiter = threading.Thread(target=sys.stdin.read, daemon=True)
    waiter.start()
    waiter.join(300)


if __name__ == "__main__":
    main()
