#!/usr/bin/env python3
"""A loopback stand-in for Germany's Autobahn API (verkehr.autobahn.de/o/autobahn, bundesAPI/autobahn-api
openapi.yaml): GET /{road}/services/{service}, answering with real recorded answers
(Fixtures/real/autobahn/): A8's warnings and closures; any other road or service an empty list.

Usage: autobahn_server.py LOG [CONTROL] -- prints its port on the first line of stdout, logs each
request (path, user agent, arrival time) as a JSON line to LOG, and exits when its stdin closes or
after 300 seconds ($STAND_IN_SECONDS). Test-only; standard library only; binds 127.0.0.1. CONTROL is
a JSON file read on every request: {"serve": {"A8/warning": FILE}} answers that road and service
with FILE (a name in Fixtures/real/autobahn/); {"fault": F} answers every request with F: "503",
"garbage" (200, not JSON), "huge" (200, 9 MiB), "deep" (200, nested 100,000 deep), "absurd" (an item
of impossible numbers and escape sequences).
"""
import http.server
import json
import os
import sys
import threading
import time

LOG = sys.argv[1]
CONTROL = sys.argv[2] if len(sys.argv) > 2 else "/dev/null"
LOCK = threading.Lock()
RECORDED = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "real", "autobahn")
DEFAULT = {"A8/warning": "A8-warning.json", "A8/closure": "A8-closure.json"}


def control():
    try:
        with open(CONTROL) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({"path": self.path, "userAgent": self.headers.get("User-Agent", ""), "at": time.time()}) + "\n")
        state = control()
        fault = state.get("fault")
        if fault == "503":
            return self.send(503, b"<html>503</html>")
        if fault == "garbage":
            return self.send(200, b"<html>\x1b[2J not json</html>")
        if fault == "huge":
            return self.send(200, b'{"warning":[' + b" " * (9 << 20) + b"]}")
        if fault == "deep":
            return self.send(200, b'{"warning":' + b"[" * 100000 + b"]" * 100000 + b"}")
        if fault == "absurd":
            # Coordinates no place has, numbers past any double, an ID with an escape sequence.
            return self.send(200, b'{"warning":[{"identifier":"x\\u001b[2J","title":"A8 | \\u202eevil","coordinate":{"lat":1e999,"long":"NaN"},'
                                  b'"geometry":{"coordinates":[[1e400,-1e400],["x",null],[8.8257,48.8409,7]]},"future":"maybe","startTimestamp":"99999-01-01"}]}')
        parts = self.path.strip("/").split("/")
        if len(parts) != 3 or parts[1] != "services":
            return self.send(404, {"error": "not found"})
        road, service = parts[0], parts[2]
        name = {**DEFAULT, **state.get("serve", {})}.get(road + "/" + service)
        if not name:
            return self.send(200, {service: []})
        with open(os.path.join(RECORDED, name), "rb") as handle:
            self.send(200, handle.read())


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    deadline = time.time() + float(os.environ.get("STAND_IN_SECONDS", "300"))
    while time.time() < deadline:
        if not sys.stdin.readline():
            break
    server.shutdown()


if __name__ == "__main__":
    main()
