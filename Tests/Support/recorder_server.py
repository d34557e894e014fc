#!/usr/bin/env python3
"""A loopback recorder for the notifier-URL oracle test: logs every request (method, path, the
headers that carry meaning, body) as a JSON line and answers 200 with a body each service's client
takes as success (ntfy's and Gotify's id, Telegram's result, Pushover's status, Matrix's event).

Usage: recorder_server.py LOG [CONTROL] -- prints its port on the first line of stdout and exits
when its stdin closes or after 300 seconds. Test-only; standard library only; binds 127.0.0.1.
"""
import http.server
import json
import sys
import threading
import time

LOG = sys.argv[1]
LOCK = threading.Lock()
ANSWER = json.dumps({"ok": True, "result": {"message_id": 1}, "id": "1", "event_id": "$1", "room_id": "!room:host", "user_id": "@traveltimes:example.org",
                     "status": 1, "request": "1"}).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def record(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        headers = {k: v for k, v in self.headers.items()}
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "headers": headers, "body": body}) + "\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(ANSWER)))
        self.end_headers()
        self.wfile.write(ANSWER)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = record


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    deadline = time.time() + 300
    while time.time() < deadline:
        if not sys.stdin.readline():
            break


if __name__ == "__main__":
    main()
