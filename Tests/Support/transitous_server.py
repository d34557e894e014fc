#!/usr/bin/env python3
"""A loopback stand-in for Transitous (MOTIS 2: GET /api/v6/plan, GET /api/v1/geocode) and for
Nominatim (GET /search), shaped after motis-project/motis's openapi.yaml and Nominatim's search API
(nominatim.org/release-docs/latest/api/Search), checking each request as the real services do.

Usage: transitous_server.py LOG [CONTROL] (or --control CONTROL LOG) -- prints its port on the first line of stdout, logs each
request (path, query, user agent, arrival time) as a JSON line to LOG, and exits when its stdin
closes or after 300 seconds ($STAND_IN_SECONDS). Test-only; standard library only; binds 127.0.0.1.

As Transitous's nginx does: no User-Agent, or a library's stock one (python-requests/…,
Python-urllib/…, node, curl/…), is refused with 403 and a text body; more than 20 plans a minute
get 429 with an HTML body. As MOTIS does: times must be RFC 3339 (a `+` left unencoded arrives as
a space and fails with 500 {"error": "failed to parse timestamp …"}); answers' times are UTC with Z.

The timetable: line 545 leaves the stop near the origin at :02, :17, :32 and :47 of every hour
(UTC), 30 minutes to the stop near the destination; a 6-minute walk before, 4 after. Each itinerary
is a recorded one (Fixtures/real/motis/journey-transit.json) re-timed and renamed. GET /api/v6/refresh-itinerary answers the run its itineraryId
names (`it-YYYYMMDDTHHMM`, the scheduled UTC departure) as the plan would now. CONTROL is a
JSON file read on every request: {"replay": {PATH: FILE}} answers every request for PATH with the
bytes of FILE, a real recorded answer (Fixtures/real/), after the checks above;
{"delays": {"HH:MM": minutes}} (by the scheduled UTC departure)
makes those runs late (realTime true), {"walk": N} makes the walk to the stop N minutes, {"cancel": ["HH:MM"]} cancels them, {"alerts": ["HH:MM"]}
gives those runs the recorded RER B works notice (journey-alerts-pieces.json) in force during the
ride, twice, with one for another week and a fixed notice, {"shiftHours": N} moves every
itinerary's times N hours on (a late-night answer of tomorrow's runs, or a wrong one); {"fault": F} answers
every plan with F: "503", "429", "garbage" (200, not JSON), "huge" (200, 50 MiB), "empty" (no
itinerary), "shape" (200, itineraries of the wrong shape), "error" (400 {"error": …}), "big" (a
valid answer of about 1 MiB: 64 itineraries with their geometry, for the benchmark).
"""
import copy
import datetime
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

ARGS = sys.argv[1:]
CONTROL = "/dev/null"
if "--control" in ARGS:
    at = ARGS.index("--control")
    CONTROL = ARGS[at + 1]
    del ARGS[at:at + 2]
LOG = ARGS[0]
if len(ARGS) > 1:
    CONTROL = ARGS[1]
LOCK = threading.Lock()
PLANS = []
GENERIC = ("python-requests/", "python-urllib/", "python-httpx/", "curl/", "wget/")


def control():
    try:
        with open(CONTROL) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def z(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text):
    # RFC 3339 as openapi-cpp reads it; a space (a `+` decoded) is not one.
    if " " in text:
        raise ValueError(text)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(text)
    return moment.astimezone(datetime.timezone.utc)


def latlon(text):
    lat, lon = (float(part) for part in text.split(","))
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError(text)
    return lat, lon


RECORDED = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "real", "motis")


def recorded(name):
    with open(os.path.join(RECORDED, name), encoding="utf-8") as handle:
        return json.load(handle)


# Every itinerary is a real one re-timed: Transitous's answer for RER B then A across Paris
# (journey-transit.json, 2024) gives the walk and ride legs with every field they carry, and the
# RER B works notice of journey-alerts-pieces.json (2026) is the alert a run can carry.
TEMPLATE = recorded("journey-transit.json")["itineraries"][0]
WALK_LEG, RIDE_LEG = TEMPLATE["legs"][0], TEMPLATE["legs"][1]
NOTICE = recorded("journey-alerts-pieces.json")["notices"][0]["alert"]
GEOCODED = {k: v for k, v in recorded("location-addresses.json")[0].items() if k not in ("street", "houseNumber", "zip")}
with open(os.path.join(RECORDED, "..", "nominatim", "search-jsonv2-bakery-in-berlin-wedding.json"), encoding="utf-8") as _handle:
    NOMINATIM = {k: v for k, v in json.load(_handle)[0].items() if k != "address"}


def itinerary(bus, state):
    """The itinerary on the run that leaves the stop at `bus` (UTC, scheduled)."""
    key = bus.strftime("%H:%M")
    delay = int(state.get("delays", {}).get(key, 0))
    cancelled = key in state.get("cancel", [])
    live = key in state.get("delays", {}) or cancelled
    leave = bus + datetime.timedelta(minutes=delay)
    arrive = leave + datetime.timedelta(minutes=30)
    start, end = leave - datetime.timedelta(minutes=int(state.get("walk", 6))), arrive + datetime.timedelta(minutes=4)
    ride = copy.deepcopy(RIDE_LEG)
    ride.update({
        "mode": "BUS", "startTime": z(leave), "endTime": z(arrive), "scheduledStartTime": z(bus),
        "scheduledEndTime": z(bus + datetime.timedelta(minutes=30)), "realTime": live, "scheduled": True,
        "duration": 1800, "routeShortName": "545", "headsign": "Redmond", "tripId": "545-" + key, "cancelled": cancelled,
        "agencyName": "Sound Transit", "agencyId": "40", "routeColor": "2b376e"})
    ride["from"] = {**ride["from"], "name": "Stop A", "stopId": "a", "lat": 47.61, "lon": -122.33, "departure": z(leave),
                    "scheduledDeparture": z(bus), "cancelled": cancelled}
    ride["to"] = {**ride["to"], "name": "Stop B", "stopId": "b", "lat": 47.67, "lon": -122.12, "arrival": z(arrive),
                  "scheduledArrival": z(bus + datetime.timedelta(minutes=30))}
    ride["to"].pop("departure", None)
    ride["to"].pop("scheduledDeparture", None)
    ride["legGeometry"] = {"points": "", "precision": 6, "length": 0}
    if key in state.get("alerts", []):
        # The recorded notice, in force during the ride, on the leg and again on its stop (one
        # line is shown); once more for another week (not shown); and a fixed notice (a code).
        during = [{"start": z(leave - datetime.timedelta(hours=1)), "end": z(arrive + datetime.timedelta(hours=1))}]
        other = [{"start": z(leave + datetime.timedelta(days=7)), "end": z(arrive + datetime.timedelta(days=7))}]
        ride["alerts"] = [{"communicationPeriod": during, "impactPeriod": during, **NOTICE},
                          {"headerText": "Bike racks", "descriptionText": "", "code": "BIKE"}]
        ride["from"]["alerts"] = [{"communicationPeriod": during, "impactPeriod": during, **NOTICE},
                                  {"impactPeriod": other, **NOTICE, "headerText": "Another week's works"}]

    def walk(a, b, f, t):
        leg = copy.deepcopy(WALK_LEG)
        leg.update({"startTime": z(a), "endTime": z(b), "scheduledStartTime": z(a), "scheduledEndTime": z(b),
                    "duration": int((b - a).total_seconds()), "legGeometry": {"points": "", "precision": 6, "length": 0}, "steps": []})
        leg["from"] = {"name": f, "lat": 47.6, "lon": -122.3, "level": 0, "departure": z(a), "scheduledDeparture": z(a), "vertexType": "NORMAL"}
        leg["to"] = {"name": t, "lat": 47.6, "lon": -122.3, "level": 0, "arrival": z(b), "scheduledArrival": z(b), "vertexType": "NORMAL"}
        return leg
    return {"id": "it-" + bus.strftime("%Y%m%dT%H%M"), "duration": int((end - start).total_seconds()), "startTime": z(start), "endTime": z(end),
            "transfers": 0, "legs": [walk(start, leave, "START", "Stop A"), ride, walk(arrive, end, "Stop B", "END")]}


def shifted(value, delta):
    """Every time in an itinerary moved by `delta`."""
    if isinstance(value, dict):
        return {k: shifted(v, delta) for k, v in value.items()}
    if isinstance(value, list):
        return [shifted(v, delta) for v in value]
    if isinstance(value, str) and len(value) == 20 and value.endswith("Z") and value[10] == "T":
        return z(parse_time(value) + delta)
    return value


def runs(around):
    first = around.replace(minute=2, second=0, microsecond=0) - datetime.timedelta(hours=3)
    return [first + datetime.timedelta(minutes=15 * index) for index in range(48)]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(parsed.query, keep_blank_values=True).items()}
        agent = self.headers.get("User-Agent", "")
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({"path": parsed.path, "query": query, "userAgent": agent, "at": time.time()}) + "\n")
        if not agent or agent.lower().startswith(GENERIC) or agent == "node":
            return self.send(403, b"Empty or generic user-agent headers are not allowed. Please review the usage policy: https://transitous.org/api/", "text/plain")
        recorded = control().get("replay", {}).get(parsed.path)
        if recorded:
            # A real answer, byte for byte (Fixtures/real/), to the request it was recorded for.
            with open(recorded, "rb") as handle:
                body = handle.read()
            return self.send(200, body, headers={"Link": '<https://transitous.org/sources/>; rel="license"'} if parsed.path.startswith("/api/") else None)
        if parsed.path == "/api/v6/plan":
            return self.plan(query)
        if parsed.path == "/api/v6/refresh-itinerary":
            return self.refresh_itinerary(query)
        if parsed.path == "/api/v1/geocode":
            return self.geocode(query)
        if parsed.path == "/search":
            return self.nominatim(query)
        self.send(404, {"error": "not found"})

    def plan(self, query):
        now = time.time()
        with LOCK:
            PLANS[:] = [t for t in PLANS if t > now - 60] + [now]
            if len(PLANS) > 20:
                return self.send(429, b"<html><body>429 Too Many Requests</body></html>", "text/html")
        try:
            latlon(query["fromPlace"])
            latlon(query["toPlace"])
        except (KeyError, ValueError):
            return self.send(400, {"error": "missing parameter"})
        try:
            moment = parse_time(query.get("time", z(datetime.datetime.now(datetime.timezone.utc))))
        except ValueError:
            return self.send(500, {"error": "failed to parse timestamp \"%s\"" % query.get("time")})
        state = control()
        fault = state.get("fault")
        if fault == "503":
            return self.send(503, b"<html>503 Service Temporarily Unavailable</html>", "text/html")
        if fault == "429":
            return self.send(429, b"<html>429 Too Many Requests</html>", "text/html")
        if fault == "garbage":
            return self.send(200, b"<html>not json</html>", "text/html")
        if fault == "huge":
            return self.send(200, b'{"itineraries":[' + b" " * (50 << 20) + b"]}")
        if fault == "error":
            return self.send(400, {"error": "query time is outside of loaded timetable window"})
        arrive_by = query.get("arriveBy") == "true"
        count = int(query.get("numItineraries", "5"))
        all_runs = [itinerary(bus, state) for bus in runs(moment)]
        if arrive_by:
            chosen = [it for it in all_runs if parse_time(it["endTime"]) <= moment][-count:]
        else:
            chosen = [it for it in all_runs if parse_time(it["startTime"]) >= moment][:count]
        if fault == "empty":
            chosen = []
        if fault == "big":
            chosen = [itinerary(bus, state) for bus in runs(moment)][:48]
            chosen += [itinerary(bus, state) for bus in runs(moment + datetime.timedelta(hours=12))][:16]
            for it in chosen:
                for leg in it["legs"]:
                    leg["legGeometry"] = {"points": "_p~iF~ps|U_ulLnnqC_mqNvxq`@" * 200, "precision": 6, "length": 1200}
        if fault == "shape":
            chosen = [{"startTime": 12, "legs": "no"}]
        if state.get("shiftHours"):
            # As a server answers late at night (tomorrow's runs), or wrongly (a year, 74 years on).
            chosen = [shifted(it, datetime.timedelta(hours=state["shiftHours"])) for it in chosen]
        place = lambda name: {"name": name, "lat": 0, "lon": 0, "level": 0, "vertexType": "NORMAL"}
        self.send(200, {"requestParameters": {}, "debugOutput": {}, "from": place("START"), "to": place("END"), "direct": [],
                        "itineraries": chosen, "previousPageCursor": "EARLIER|0", "nextPageCursor": "LATER|0"},
                  headers={"Link": '<https://transitous.org/sources/>; rel="license"'})

    def refresh_itinerary(self, query):
        # MOTIS answers one Itinerary (openapi.yaml, refreshItinerary): the same run as the plan
        # gives it now. {"refreshFault": STATUS} answers with that status instead, as a server
        # without the experimental endpoint, or one that no longer reads the ID, does.
        state = control()
        fault = state.get("refreshFault")
        if fault == "garbage":
            return self.send(200, b"<html>\x1b[2J not an itinerary</html>", "text/html")
        if fault == "shape":
            return self.send(200, {"startTime": 12, "legs": "no", "id": "\u001b[2J"})
        if fault:
            return self.send(int(fault), {"error": "could not reconstruct itinerary"})
        try:
            bus = datetime.datetime.strptime(query["itineraryId"], "it-%Y%m%dT%H%M").replace(tzinfo=datetime.timezone.utc)
        except (KeyError, ValueError):
            return self.send(400, {"error": "missing parameter"})
        self.send(200, itinerary(bus, state), headers={"Link": '<https://transitous.org/sources/>; rel="license"'})

    PLACES = {
        "pike place market": [("47.6097", "-122.3422", "Pike Place Market, 85, Pike Street, Seattle, King County, Washington, 98101, United States")],
        "redmond town center": [("47.6712", "-122.1185", "Redmond Town Center, Redmond, King County, Washington, United States")],
        "main street": [("47.6010", "-122.3300", "Main Street, Seattle, Washington, United States"),
                        ("45.5200", "-122.6700", "Main Street, Portland, Oregon, United States"),
                        ("40.7100", "-74.0060", "Main Street, New York, United States")],
    }

    def nominatim(self, query):
        if query.get("format") not in ("json", "jsonv2"):
            return self.send(200, b"<html>the search page</html>", "text/html")
        text = query.get("q", "").strip().lower()
        if not text:
            return self.send(400, {"error": {"code": 400, "message": "Nothing to search for."}})
        found = self.PLACES.get(text, [])[: int(query.get("limit", "10"))]
        # Nominatim's documented jsonv2 answer (Fixtures/real/nominatim/), moved to each place.
        self.send(200, [{**NOMINATIM, "place_id": index, "osm_id": index, "lat": lat, "lon": lon, "name": label.split(",")[0],
                         "display_name": label, "boundingbox": [lat, lat, lon, lon]} for index, (lat, lon, label) in enumerate(found)])

    def geocode(self, query):
        text = query.get("text", "").strip().lower()
        if not text:
            return self.send(400, {"error": "missing parameter"})
        found = self.PLACES.get(text, [])
        # Transitous's own geocoding answer (Fixtures/real/motis/location-addresses.json), moved.
        self.send(200, [{**GEOCODED, "type": "PLACE", "name": label.split(",")[0], "id": "", "lat": float(lat), "lon": float(lon),
                         "areas": [{"name": label.split(",")[1].strip(), "adminLevel": 8, "matched": False, "default": True}]}
                        for lat, lon, label in found])


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
