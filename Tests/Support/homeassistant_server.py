#!/usr/bin/env python3
"""A loopback stand-in for Home Assistant's REST API, POST and DELETE /api/states/<entity_id>,
and GET /api/ (the API's root), shaped after developers.home-assistant docs/api/rest.md and core's APIEntityStateView
(homeassistant/components/api/__init__.py): `Authorization: Bearer TOKEN` or 401; an entity ID Home Assistant
would refuse, a body that is not a JSON object, or no state: 400 with its message; a state of 256
characters or more: 400; 201 for a new entity, 200 for one it had, with a Location header and the
state object.

Usage: homeassistant_server.py LOG CONTROL -- prints its port on the first line of stdout, logs
each request (method, path, authorization, body) as a JSON line to LOG, and exits when its stdin
closes or after 300 seconds ($STAND_IN_SECONDS). CONTROL is a JSON file read on every request: {"token": T} is the
token it takes (default "good-token"); {"fault": "500"} answers every request with 500, and
{"fault": "echo"} answers every request 401 quoting its Authorization header back (what a
careless proxy does); {"fault": "login"} answers every request 200 with an HTML sign-in page (a
login proxy in front of Home Assistant); {"fault": "hang"} holds every request 60 seconds. Test-only; standard library only; binds 127.0.0.1.
"""
import datetime
import http.server
import json
import os
import re
import sys
import threading
import time

LOG = sys.argv[1]
CONTROL = sys.argv[2] if len(sys.argv) > 2 else "/dev/null"
LOCK = threading.Lock()
STATES = {}
ENTITY = re.compile(r"^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$")


def recorded(name):
    """A documented answer of Home Assistant's REST API (Fixtures/real/homeassistant/)."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "real", "homeassistant", name)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def control():
    try:
        with open(CONTROL) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = dict(headers or {})
        self.send_response(status)
        self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def handle_states(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"method": method, "path": self.path, "authorization": self.headers.get("Authorization"),
                                      "contentType": self.headers.get("Content-Type"), "body": raw.decode("utf-8", "replace")}) + "\n")
        steer = control()
        if steer.get("fault") == "login":
            return self.send(200, b"<!DOCTYPE html><html><body><form>Sign in</form></body></html>", {"Content-Type": "text/html"})
        if steer.get("fault") == "hang":
            time.sleep(60)
        if steer.get("fault") == "500":
            return self.send(500, {"message": "Internal Server Error"})
        if steer.get("fault") == "echo":
            return self.send(401, {"message": "401: Unauthorized: " + str(self.headers.get("Authorization"))})
        if self.headers.get("Authorization") != "Bearer " + steer.get("token", "good-token"):
            return self.send(401, {"message": "401: Unauthorized"})
        if not self.path.startswith("/api/states/"):
            return self.send(404, {"message": "Not Found"})
        entity_id = self.path[len("/api/states/"):]
        if not ENTITY.match(entity_id):
            return self.send(400, {"message": "Invalid entity ID specified."})
        if method == "DELETE":
            with LOCK:
                if STATES.pop(entity_id, None) is None:
                    return self.send(404, {"message": "Entity not found."})
            return self.send(200, {"message": "Entity removed."})
        try:
            data = json.loads(raw)
        except ValueError:
            return self.send(400, {"message": "Invalid JSON specified."})
        if not isinstance(data, dict):
            return self.send(400, {"message": "State data should be a JSON object."})
        if data.get("state") is None:
            return self.send(400, {"message": "No state attribute specified."})
        state = str(data["state"])
        if len(state) >= 256:
            return self.send(400, {"message": "Invalid state specified."})
        now = datetime.datetime.now(datetime.timezone.utc).isoformat()
        with LOCK:
            existed = entity_id in STATES
            # The State object of Home Assistant's documentation (Fixtures/real/homeassistant/), this one's.
            STATES[entity_id] = {**recorded("post-state.json"), "entity_id": entity_id, "state": state,
                                 "attributes": data.get("attributes") or {}, "last_changed": now, "last_updated": now}
            body = STATES[entity_id]
        self.send(200 if existed else 201, body, {"Location": "/api/states/" + entity_id})

    def do_GET(self):
        # The API's root: what a client checks its address and token with.
        steer = control()
        if steer.get("fault") == "login":
            return self.send(200, b"<!DOCTYPE html><html><body><form>Sign in</form></body></html>", {"Content-Type": "text/html"})
        if steer.get("fault") == "hang":
            time.sleep(60)
        if steer.get("fault") == "500":
            return self.send(500, {"message": "Internal Server Error"})
        if steer.get("fault") == "echo" or self.headers.get("Authorization") != "Bearer " + steer.get("token", "good-token"):
            return self.send(401, {"message": "401: Unauthorized"})
        if self.path != "/api/":
            return self.send(404, {"message": "Not Found"})
        self.send(200, recorded("api-root.json"))

    def do_POST(self):
        self.handle_states("POST")

    def do_DELETE(self):
        self.handle_states("DELETE")


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    deadline = time.time() + float(os.environ.get("STAND_IN_SECONDS", "300"))
    while time.time() < deadline:
        if not sys.stdin.readline():
            break


if __name__ == "__main__":
    main()
