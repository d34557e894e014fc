#!/usr/bin/env python3
"""A loopback TomTom Routing v1 whose travel time follows a rush-hour curve, with a fixed seed, for
the request-plan tests and Scripts/bench's simulated household week; and the oracle that knows the
travel time at every minute.

The curve (minutes, for leaving at local minute-of-day t on a day d; the zone's offset is given):
  usual(t)    = 28 + 17 exp(-((t - 8:00)/45)^2) + 9 exp(-((t - 17:30)/60)^2)
  today(t, d) = usual(t) * factor(d) + 0.6 sin(t / 20 + phase(d))   (factor, phase from the seed)
  truth(t, d) = today(t, d) * scale(destination) + each incident's minutes while it lasts,
where scale is 1 for most destinations and 0.6 for one whose latitude is below 47.65 (a second,
shorter route).
TomTom answers as its calculateRoute documentation says: leaving now (no departAt), the
live time is the truth now, known incidents included, beside the historic (usual) time; leaving at
a later departAt, the time is the historic one and the delay 0. A departAt in the past is refused
(400 BAD_INPUT), as is any other parameter the request should not have.

Usage:
  rush_server.py [--control FILE] LOG (or LOG FILE)   prints its port, logs each request as a JSON line to LOG,
      exits when stdin closes or after $STAND_IN_SECONDS (default 3600). FILE (JSON, re-read on
      each request): {"now": EPOCH (the simulated clock), "offset": SECONDS east of UTC,
      "seed": N, "incidents": [{"start": EPOCH, "end": EPOCH, "minutes": M}]}.
  rush_server.py --oracle CONTROL DESTINATION FROM TO   prints {"EPOCH": minutes} for every minute
      in [FROM, TO) of the route to DESTINATION (lat,lon).
Test-only; standard library only; binds 127.0.0.1.
"""
import http.server
import json
import math
import os
import random
import sys
import threading
import urllib.parse
from datetime import datetime, timezone

LOCK = threading.Lock()


def control(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def day_terms(seed, day):
    rng = random.Random(seed * 100003 + day)
    return 0.85 + 0.4 * rng.random(), rng.random() * 6.283


def usual(minute_of_day):
    t = minute_of_day
    return 28 + 17 * math.exp(-((t - 480) / 45.0) ** 2) + 9 * math.exp(-((t - 1050) / 60.0) ** 2)


def local(epoch, offset):
    seconds = epoch + offset
    return int(seconds // 86400), (seconds % 86400) / 60.0


def scale(destination):
    return 0.6 if float(destination.split(",")[0]) < 47.65 else 1.0


def truth(epoch, state, known_at=None, destination="47.7,-122.1"):
    """Minutes for leaving at `epoch`; with `known_at`, only incidents begun by then count."""
    offset = int(state.get("offset", 0))
    day, minute = local(epoch, offset)
    factor, phase = day_terms(int(state.get("seed", 7)), day)
    minutes = (usual(minute) * factor + 0.6 * math.sin(minute / 20.0 + phase)) * scale(destination)
    for incident in state.get("incidents", []):
        if incident["start"] <= epoch < incident["end"] and (known_at is None or incident["start"] <= known_at):
            minutes += incident["minutes"]
    return minutes


def parse_time(text):
    if not text.endswith("Z") or len(text) != 20:
        raise ValueError("departAt must be RFC 3339 in UTC, like 2026-11-24T16:05:00Z: " + text)
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    control_path = None
    log_path = None

    def log_message(self, *args):
        pass

    def send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(parsed.query).items()}
        state = control(self.control_path) if self.control_path else {}
        with LOCK:
            with open(self.log_path, "a") as log:
                log.write(json.dumps({"path": parsed.path, "query": query, "now": state.get("now")}) + "\n")
        if not parsed.path.startswith("/routing/1/calculateRoute/") or not parsed.path.endswith("/json"):
            return self.send(404, {"error": "no such path " + parsed.path})
        expected = {"traffic": "true", "travelMode": "car", "computeTravelTimeFor": "all", "routeRepresentation": "summaryOnly"}
        for name, value in expected.items():
            if query.get(name) != value:
                return self.send(400, {"detailedError": {"code": "BAD_INPUT", "message": "%s must be %s" % (name, value)}})
        if not query.get("key"):
            return self.send(403, {"detailedError": {"code": "Forbidden", "message": "no key"}})
        now = float(state.get("now", 0))
        destination = parsed.path[len("/routing/1/calculateRoute/"):-len("/json")].split(":")[-1]
        offset = int(state.get("offset", 0))
        if "departAt" in query:
            try:
                departure = parse_time(query["departAt"])
            except ValueError as error:
                return self.send(400, {"detailedError": {"code": "BAD_INPUT", "message": str(error)}})
            if departure < now - 60:
                return self.send(400, {"detailedError": {"code": "BAD_INPUT", "message": "departAt is in the past"}})
            historic = usual(local(departure, offset)[1]) * scale(destination)
            minutes = historic
        else:
            departure = now
            historic = usual(local(now, offset)[1]) * scale(destination)
            minutes = truth(now, state, known_at=now, destination=destination)
        seconds = int(round(minutes * 60))
        stamp = datetime.fromtimestamp(departure, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")
        arrival = datetime.fromtimestamp(departure + seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")
        self.send(200, {"formatVersion": "0.0.12", "routes": [{"summary": {
            "lengthInMeters": 24100, "travelTimeInSeconds": seconds,
            "trafficDelayInSeconds": max(0, seconds - int(round(historic * 60))) if "departAt" not in query else 0,
            "departureTime": stamp, "arrivalTime": arrival, "noTrafficTravelTimeInSeconds": 25 * 60,
            "historicTrafficTravelTimeInSeconds": int(round(historic * 60)),
            "liveTrafficIncidentsTravelTimeInSeconds": seconds}, "legs": []}]})


def main():
    args = sys.argv[1:]
    if args and args[0] == "--oracle":
        state = control(args[1])
        destination, start, end = args[2], int(args[3]), int(args[4])
        print(json.dumps({str(t): round(truth(t, state, destination=destination), 3) for t in range(start, end, 60)}))
        return
    if args and args[0] == "--control":
        Handler.control_path = args[1]
        args = args[2:]
    elif len(args) > 1:
        Handler.control_path = args[1]
    Handler.log_path = args[0]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    timer = threading.Timer(float(os.environ.get("STAND_IN_SECONDS", "3600")), lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
