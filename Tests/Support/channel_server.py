#!/usr/bin/env python3
"""A loopback stand-in for the notification services: ntfy, Gotify, Pushover, Telegram, Matrix,
Discord, Slack and a JSON endpoint, each checking requests as its documentation gives them and
answering as it does, faults included.

Usage: channel_server.py LOG STATE -- prints its port on the first line of stdout, logs each
request (method, path, headers, body) to LOG as a JSON line, writes what each service holds after
each request to STATE (its messages, as last written, with `cleared` and `deleted` marks), and
exits when its stdin closes or after 300 seconds. Test-only; standard library only; binds 127.0.0.1.

Hostile answers, for the tests of what a server may send: ntfy topic "hugewait" answers 429 with
Retry-After 2^63, topic "slow" answers after a second, topic "accepthang" keeps the message and
answers after 5 s (a tick killed meanwhile); Telegram chat "4291" answers 429 with retry_after
1e20; Discord webhook 333/goodtoken answers 429 with retry_after 1e300; Matrix alias "#hugewait"
answers 429 with retry_after_ms 1e30; a JSON endpoint at /refuse quotes its apikey query value
back in a 401.

Credentials the stand-in takes (anything else is refused as the service refuses it):
  ntfy: topics starting "private" need `Authorization: Bearer tk_good`; topic "oldserver" is an
        ntfy older than 2.16 (no update, no clear: 404); topic "busy" answers 429 once.
  Gotify: X-Gotify-Key "goodtoken".   Pushover: token "apptoken", user "userkey".
  Telegram: bot token "123456:GOOD", chat "42" (any other chat is not found; "4290" answers 429
        once with retry_after 1).   Matrix: Bearer "goodtoken"; alias "#commute:HOST" is room
        "!room1:HOST".   Discord: webhook 111/goodtoken (222/goodtoken answers 429 once).   Slack: /services/T1/B1/GOOD.
"""
import base64
import email.header
import http.server
import json
import sys
import threading
import urllib.parse

LOG = sys.argv[1]
STATE_FILE = sys.argv[2]
LOCK = threading.Lock()
STATE = {"ntfy": {}, "gotify": [], "pushover": [], "telegram": {}, "matrix": [], "discord": [], "slack": [], "json": []}
ONCE = set()
COUNTER = [0]


def next_id(prefix=""):
    COUNTER[0] += 1
    return "%s%d" % (prefix, COUNTER[0])


def decode_header(value):
    if value is None:
        return None
    parts = email.header.decode_header(value)
    return "".join(p.decode(c or "utf-8") if isinstance(p, bytes) else p for p, c in parts)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json", headers=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with LOCK:
            with open(LOG, "a") as log:
                log.write(json.dumps({"method": method, "path": self.path, "headers": dict(self.headers),
                                      "body": body.decode("utf-8", "replace")}) + "\n")
            self.route(method, body)
            with open(STATE_FILE + ".new", "w") as state:
                json.dump(STATE, state)
            import os
            os.replace(STATE_FILE + ".new", STATE_FILE)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def route(self, method, body):
        url = urllib.parse.urlsplit(self.path)
        parts = [urllib.parse.unquote(p) for p in url.path.split("/") if p]
        query = urllib.parse.parse_qs(url.query)
        if parts[:2] == ["_matrix", "client"]:
            return self.matrix(method, parts[3:], body)
        if parts and parts[0].startswith("bot"):
            return self.telegram(method, parts, body)
        if parts[:2] == ["api", "webhooks"]:
            return self.discord(method, parts[2:], query, body)
        if parts[:2] == ["1", "messages.json"]:
            return self.pushover(body)
        if parts == ["message"]:
            return self.gotify(body)
        if parts and parts[0] == "services":
            return self.slack(parts[1:], body)
        if parts and parts[0] == "refuse":
            key = query.get("apikey", [""])[0]
            return self.answer(401, {"error": "invalid api key %s" % key})
        if parts and parts[0] == "hook":
            STATE["json"].append({"path": url.path, "body": json.loads(body or b"{}"),
                                  "authorization": self.headers.get("Authorization")})
            return self.answer(200, "ok", "text/plain")
        return self.ntfy(method, parts, body)

    # ntfy (docs/publish.md: publish, update by ID, clear, delete)
    def ntfy(self, method, parts, body):
        if not parts:
            return self.answer(404, {"code": 40401, "http": 404, "error": "page not found"})
        topic = parts[0]
        if topic.startswith("private") and self.headers.get("Authorization") != "Bearer tk_good":
            return self.answer(401, {"code": 40101, "http": 401, "error": "unauthorized"})
        if topic == "busy" and ("ntfy", topic) not in ONCE:
            ONCE.add(("ntfy", topic))
            return self.answer(429, {"code": 42901, "http": 429, "error": "limit reached: too many requests"})
        if topic == "hugewait":
            return self.answer(429, {"code": 42901, "http": 429, "error": "limit reached"}, headers={"Retry-After": "9223372036854775808"})
        held = STATE["ntfy"].setdefault(topic, [])
        old = topic == "oldserver"
        # X-Sequence-ID (2.16): the same as publishing to /topic/ID; an older server ignores it.
        sequence_header = self.headers.get("X-Sequence-ID")
        if method == "POST" and len(parts) == 1 and sequence_header and not old:
            parts = [topic, sequence_header]
        if method == "POST" and len(parts) == 1:
            if len(body) > 4096:
                return self.answer(413, {"code": 41301, "http": 413, "error": "message too large"})
            message_id = next_id("m")
            held.append({"id": message_id, "sequence": message_id, "title": decode_header(self.headers.get("Title")),
                         "message": body.decode(), "priority": self.headers.get("Priority"), "cleared": False,
                         "deleted": False, "versions": 1})
            self.pause(topic)
            return self.answer(200, {"id": message_id, "time": 1, "event": "message", "topic": topic, "message": body.decode()})
        if method == "POST" and len(parts) == 2 and not old:
            sequence = parts[1]
            message_id = next_id("m")
            found = [m for m in held if m["sequence"] == sequence]
            entry = {"id": message_id, "sequence": sequence, "title": decode_header(self.headers.get("Title")),
                     "message": body.decode(), "priority": self.headers.get("Priority"), "cleared": False,
                     "deleted": False, "versions": (found[0]["versions"] + 1) if found else 1}
            held[:] = [m for m in held if m["sequence"] != sequence] + [entry]
            answer = {"id": message_id, "time": 1, "event": "message", "topic": topic, "message": body.decode()}
            if sequence != message_id:
                answer["sequence_id"] = sequence
            self.pause(topic)
            return self.answer(200, answer)
        if method == "PUT" and len(parts) == 3 and parts[2] == "clear" and not old:
            for m in held:
                if m["sequence"] == parts[1]:
                    m["cleared"] = True
            return self.answer(200, {"id": next_id("m"), "event": "message_clear", "topic": topic, "sequence_id": parts[1]})
        if method == "DELETE" and len(parts) == 2 and not old:
            for m in held:
                if m["sequence"] == parts[1]:
                    m["deleted"] = True
            return self.answer(200, {"id": next_id("m"), "event": "message_delete", "topic": topic})
        return self.answer(404, {"code": 40401, "http": 404, "error": "page not found"})

    def pause(self, topic):
        """The message is kept; the answer waits (1 s for "slow", 5 s for "accepthang"), with the
        lock let go so that other requests go on meanwhile."""
        if topic not in ("slow", "accepthang"):
            return
        with open(STATE_FILE + ".new", "w") as state:
            json.dump(STATE, state)
        import os
        import time
        os.replace(STATE_FILE + ".new", STATE_FILE)
        LOCK.release()
        try:
            time.sleep(1 if topic == "slow" else 5)
        finally:
            LOCK.acquire()

    # Gotify (POST /message with an application token)
    def gotify(self, body):
        if self.headers.get("X-Gotify-Key") != "goodtoken":
            return self.answer(401, {"error": "Unauthorized", "errorCode": 401,
                                     "errorDescription": "you need to provide a valid access token or user credentials to access this api"})
        try:
            message = json.loads(body)
        except ValueError:
            return self.answer(400, {"error": "Bad Request", "errorCode": 400, "errorDescription": "invalid JSON"})
        if not message.get("message"):
            return self.answer(400, {"error": "Bad Request", "errorCode": 400, "errorDescription": "Field 'message' is required"})
        message["id"] = len(STATE["gotify"]) + 1
        STATE["gotify"].append(message)
        return self.answer(200, message)

    # Pushover (form-encoded POST /1/messages.json)
    def pushover(self, body):
        form = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode()).items()}
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self.answer(400, {"status": 0, "errors": ["unsupported content type"], "request": "r0"})
        if form.get("token") != "apptoken":
            return self.answer(400, {"token": "invalid", "errors": ["application token is invalid"], "status": 0, "request": "r1"})
        if form.get("user") != "userkey":
            return self.answer(400, {"user": "invalid", "errors": ["user identifier is invalid"], "status": 0, "request": "r2"})
        if len(form.get("message", "")) > 1024:
            return self.answer(400, {"message": "invalid", "errors": ["message cannot be longer than 1024 characters"], "status": 0, "request": "r3"})
        if form.get("priority") == "2" and not (form.get("retry") and form.get("expire")):
            return self.answer(400, {"errors": ["retry and expire are required for emergency priority"], "status": 0, "request": "r4"})
        form.pop("token")
        form.pop("user")
        STATE["pushover"].append(form)
        return self.answer(200, {"status": 1, "request": "req-%d" % len(STATE["pushover"])})

    # Telegram Bot API (sendMessage, editMessageText, deleteMessage)
    def telegram(self, method, parts, body):
        if parts[0] != "bot123456:GOOD":
            return self.answer(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        request = json.loads(body or b"{}")
        chat = str(request.get("chat_id"))
        if chat == "4291":
            return self.answer(429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after a while",
                                     "parameters": {"retry_after": 1e20}})
        if chat == "4290" and ("tgram", chat) not in ONCE:
            ONCE.add(("tgram", chat))
            return self.answer(429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
                                     "parameters": {"retry_after": 1}})
        if chat not in ("42", "4290"):
            return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"})
        held = STATE["telegram"].setdefault(chat, [])
        text = request.get("text", "")
        if parts[1:] == ["sendMessage"]:
            if not 1 <= len(text) <= 4096:
                return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"})
            message_id = len(held) + 1
            held.append({"message_id": message_id, "text": text, "parse_mode": request.get("parse_mode"), "edits": 0, "deleted": False})
            return self.answer(200, {"ok": True, "result": {"message_id": message_id, "chat": {"id": int(chat)}, "text": text}})
        if parts[1:] == ["editMessageText"]:
            found = [m for m in held if m["message_id"] == request.get("message_id") and not m["deleted"]]
            if not found:
                return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: message to edit not found"})
            if found[0]["text"] == text:
                return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: message is not modified"})
            found[0]["text"] = text
            found[0]["edits"] += 1
            return self.answer(200, {"ok": True, "result": {"message_id": found[0]["message_id"], "text": text}})
        return self.answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    # Matrix client-server API (whoami, join, room send, m.replace edits, alias lookup)
    def matrix(self, method, parts, body):
        if self.headers.get("Authorization") != "Bearer goodtoken":
            return self.answer(401, {"errcode": "M_UNKNOWN_TOKEN", "error": "Invalid access token passed."})
        host = self.headers.get("Host", "").split(":")[0]
        if method == "GET" and parts == ["account", "whoami"]:
            return self.answer(200, {"user_id": "@traveltimes:" + host, "device_id": "TT"})
        if method == "POST" and parts[:1] == ["join"] and len(parts) == 2:
            room = urllib.parse.unquote(parts[1])
            if room == "#hugewait:" + host:
                return self.answer(429, '{"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests", "retry_after_ms": 1e30}')
            if room == "#commute:" + host:
                return self.answer(200, {"room_id": "!room1:" + host})
            if room.startswith("!"):
                return self.answer(200, {"room_id": room})
            return self.answer(404, {"errcode": "M_NOT_FOUND", "error": "Room alias not found."})
        if method == "GET" and parts[:2] == ["directory", "room"]:
            if parts[2] == "#hugewait:" + host:
                return self.answer(429, '{"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests", "retry_after_ms": 1e30}')
            if parts[2] == "#commute:" + host:
                return self.answer(200, {"room_id": "!room1:" + host, "servers": [host]})
            return self.answer(404, {"errcode": "M_NOT_FOUND", "error": "Room alias not found."})
        if method == "PUT" and len(parts) == 5 and parts[0] == "rooms" and parts[2:4] == ["send", "m.room.message"]:
            content = json.loads(body)
            relates = content.get("m.relates_to", {})
            if relates.get("rel_type") == "m.replace":
                for event in STATE["matrix"]:
                    if event["event_id"] == relates.get("event_id"):
                        event["body"] = content["m.new_content"]["body"]
                        event["edits"] += 1
                        return self.answer(200, {"event_id": next_id("$e")})
                return self.answer(400, {"errcode": "M_BAD_JSON", "error": "no such event to replace"})
            event = {"event_id": next_id("$e"), "room": parts[1], "body": content.get("body"), "msgtype": content.get("msgtype"), "edits": 0}
            STATE["matrix"].append(event)
            return self.answer(200, {"event_id": event["event_id"]})
        return self.answer(404, {"errcode": "M_UNRECOGNIZED", "error": "Unrecognized request"})

    # Discord webhooks (execute with wait=true, edit, delete)
    def discord(self, method, parts, query, body):
        if parts[:2] == ["333", "goodtoken"]:
            return self.answer(429, '{"message": "You are being rate limited.", "retry_after": 1e300, "global": false}')
        if parts[:2] not in (["111", "goodtoken"], ["222", "goodtoken"]):
            return self.answer(401, {"code": 50027, "message": "Invalid Webhook Token"})
        if parts[0] == "222" and ("discord", "busy") not in ONCE:
            ONCE.add(("discord", "busy"))
            return self.answer(429, {"message": "You are being rate limited.", "retry_after": 0.2, "global": False},
                               headers={"Retry-After": "1"})
        content = json.loads(body or b"{}").get("content", "")
        if len(content) > 2000:
            return self.answer(400, {"code": 50035, "message": "Invalid Form Body"})
        if method == "POST" and len(parts) == 2:
            message = {"id": next_id("9"), "content": content, "username": json.loads(body).get("username"), "deleted": False, "edits": 0}
            STATE["discord"].append(message)
            if query.get("wait") == ["true"]:
                return self.answer(200, message)
            return self.answer(204)
        if len(parts) == 4 and parts[2] == "messages":
            found = [m for m in STATE["discord"] if m["id"] == parts[3] and not m["deleted"]]
            if not found:
                return self.answer(404, {"code": 10008, "message": "Unknown Message"})
            if method == "PATCH":
                found[0]["content"] = content
                found[0]["edits"] += 1
                return self.answer(200, found[0])
            if method == "DELETE":
                found[0]["deleted"] = True
                return self.answer(204)
        return self.answer(405, {"code": 0, "message": "405: Method Not Allowed"})

    # Slack incoming webhook
    def slack(self, parts, body):
        if parts != ["T1", "B1", "GOOD"]:
            return self.answer(404, "no_service", "text/plain")
        try:
            text = json.loads(body)["text"]
        except (ValueError, KeyError):
            return self.answer(400, "invalid_payload", "text/plain")
        STATE["slack"].append({"text": text})
        return self.answer(200, "ok", "text/plain")


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    watcher = threading.Thread(target=lambda: sys.stdin.read(), daemon=True)
    watcher.start()
    watcher.join(300)
    server.shutdown()


if __name__ == "__main__":
    main()
