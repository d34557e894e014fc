#!/usr/bin/env python3
"""A loopback stand-in for TomTom Routing v1, HERE Routing v8 and Google Routes v2, for the
end-to-end tests. It checks each request the way the providers document it (method, path, key,
parameters, field mask, body) and answers in their documented shapes, faults included.

Usage: provider_server.py LOG  -- prints its port on the first line of stdout, logs each request
(method, path, query, headers, body) as a JSON line to LOG, and exits when its stdin closes or
after 300 seconds ($STAND_IN_SECONDS). Test-only; standard library only; binds 127.0.0.1.

A departure time (TomTom's departAt, HERE's departureTime, Google's body departureTime) must be
RFC 3339 with an offset, else the provider's 400.

Keys: one containing "bad" is rejected (TomTom 403, HERE 401, Google 403 PERMISSION_DENIED; a
Google key containing "invalid" gets Google's 400 API_KEY_INVALID). Every rejection quotes the key
back, as some services do, so the tests can check that it never reaches the user.

The origin's latitude picks the scenario: 1.x no route; 2.x a 429 with Retry-After: 1 on the first
request for that origin; 3.x a 503 on the first two; 4.x a 200 that is not JSON; 5.x a 200 that
is JSON of the wrong shape; 6.x no answer for 30 seconds; 7.x a 503 on every request; anything
else, a route; 9.x, a route after 0.4 seconds; 10.x (TomTom), a route of 8.4 miles in one minute,
faster than any road allows. Each log line also says how many requests were
in flight when it arrived (itself included), and the client's port (a kept connection keeps its port). For HERE, 8.x answers whose sections are hostile, by the first decimal: 8.1 sections
of 1e308 and -1e308 s; 8.2 of 600 and -300 s; 8.3 one section whose "duration" is given twice (120,
then 99999); 8.4 one section of 0 s; 8.5 a typicalDuration that is a string.
"""
import http.server
import os
import json
import sys
import threading
import urllib.parse

LOG = sys.argv[1]
LOCK = threading.Lock()
SEEN = {}
IN_FLIGHT = [0]


def first_time(kind, origin):
    """How many requests came before this one for this scenario and origin."""
    with LOCK:
        count = SEEN.get((kind, origin), 0)
        SEEN[(kind, origin)] = count + 1
    return count


def rfc3339(text):
    """A departure time as the three providers take it: RFC 3339 with an offset (Z or +hh:mm)."""
    from datetime import datetime
    if not isinstance(text, str) or "T" not in text or not (text.endswith("Z") or text[-6] in "+-"):
        raise ValueError("not an RFC 3339 time with an offset: %r" % (text,))
    datetime.fromisoformat(text.replace("Z", "+00:00"))


def latlon(text):
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("not lat,lon: " + text)
    lat, lon = float(parts[0]), float(parts[1])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError("off the Earth: " + text)
    return lat, lon


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are written separately: with Nagle's algorithm on, the body would wait for
    # the client's delayed ACK of the headers (40 ms) on every kept-alive request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=None, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        with LOCK:
            IN_FLIGHT[0] -= 1

    def record(self, body=b""):
        parsed = urllib.parse.urlsplit(self.path)
        entry = {"method": self.command, "path": parsed.path, "query": urllib.parse.parse_qs(parsed.query),
                 "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body.decode("utf-8", "replace"),
                 "port": self.client_address[1]}
        with LOCK:
            IN_FLIGHT[0] += 1
            entry["inflight"] = IN_FLIGHT[0]
            with open(LOG, "a") as log:
                log.write(json.dumps(entry) + "\n")
        return parsed, entry

    def wrong(self, why):
        """A request the documentation would not accept: the test sees it in the answer."""
        self.send(400, {"error": "test server: " + why})

    def scenario(self, kind, lat, origin, answer):
        band = int(lat)
        if band == 2 and first_time(kind, origin) == 0:
            return self.send(429, {"error": "slow down"}, {"Retry-After": "1"})
        if band == 3 and first_time(kind, origin) < 2:
            return self.send(503, b"<html><title>Overloaded</title></html>", content_type="text/html")
        if band == 4:
            return self.send(200, b"<html>maintenance</html>", content_type="text/html")
        if band == 5:
            return self.send(200, {"routes": "no"})
        if band == 6:
            import time
            time.sleep(30)
        if band == 7:
            return self.send(503, b"<html><title>Down</title></html>", content_type="text/html")
        if band == 9:
            import time
            time.sleep(0.4)
        return answer()

    def do_GET(self):
        parsed, entry = self.record()
        query = {k: v[0] for k, v in entry["query"].items()}
        if parsed.path.startswith("/routing/1/calculateRoute/"):
            return self.tomtom(parsed.path, query)
        if parsed.path == "/v8/routes":
            return self.here(query)
        self.send(404, {"error": "no such path " + parsed.path})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        parsed, entry = self.record(body)
        if parsed.path != "/directions/v2:computeRoutes":
            return self.send(404, {"error": {"code": 404, "message": "no such path", "status": "NOT_FOUND"}})
        self.google(entry["headers"], body)

    def tomtom(self, path, query):
        rest = path[len("/routing/1/calculateRoute/"):]
        if not rest.endswith("/json"):
            return self.wrong("path must end in /json")
        try:
            origin, destination = rest[:-len("/json")].split(":")
            lat, _ = latlon(origin)
            latlon(destination)
        except ValueError as error:
            return self.wrong(str(error))
        expected = {"traffic": "true", "travelMode": "car", "computeTravelTimeFor": "all", "routeRepresentation": "summaryOnly"}
        for name, value in expected.items():
            if query.get(name) != value:
                return self.wrong("%s must be %s" % (name, value))
        if "departAt" in query:
            try:
                rfc3339(query["departAt"])
            except ValueError as error:
                return self.send(400, {"detailedError": {"code": "BAD_INPUT", "message": "departAt: " + str(error)}})
        key = query.get("key", "")
        if not key:
            return self.send(403, {"detailedError": {"code": "Forbidden", "message": "no key"}})
        if "bad" in key:
            return self.send(403, {"detailedError": {"code": "Forbidden", "message": "Developer key " + key + " is not valid"}})
        if int(lat) == 1:
            return self.send(400, {"formatVersion": "0.0.12", "detailedError": {
                "code": "NO_ROUTE_FOUND", "message": "Unable to find a route between the points"}})
        if int(lat) == 10:
            return self.send(200, {"formatVersion": "0.0.12", "routes": [{"summary": {
                "lengthInMeters": 13520, "travelTimeInSeconds": 60, "trafficDelayInSeconds": 0,
                "noTrafficTravelTimeInSeconds": 60, "historicTrafficTravelTimeInSeconds": 60,
                "liveTrafficIncidentsTravelTimeInSeconds": 60}, "legs": []}]})
        return self.scenario("tomtom", lat, origin, lambda: self.send(200, {"formatVersion": "0.0.12", "routes": [{"summary": {
            "lengthInMeters": 13520, "travelTimeInSeconds": 1510, "trafficDelayInSeconds": 240,
            "departureTime": "2025-11-04T16:00:00-08:00", "arrivalTime": "2025-11-04T16:25:10-08:00",
            "noTrafficTravelTimeInSeconds": 1100, "historicTrafficTravelTimeInSeconds": 1290,
            "liveTrafficIncidentsTravelTimeInSeconds": 1510}, "legs": []}]}))

    def here(self, query):
        for name, value in {"transportMode": "car", "return": "summary,typicalDuration"}.items():
            if query.get(name) != value:
                return self.wrong("%s must be %s" % (name, value))
        try:
            lat, _ = latlon(query.get("origin", ""))
            latlon(query.get("destination", ""))
        except ValueError as error:
            return self.wrong(str(error))
        if "departureTime" in query:
            try:
                rfc3339(query["departureTime"])
            except ValueError as error:
                return self.send(400, {"title": "Malformed request", "status": 400, "cause": "departureTime: " + str(error)})
        key = query.get("apiKey", "")
        if not key or "bad" in key:
            return self.send(401, {"error": "Unauthorized", "error_description": "apiKey " + key + " invalid. apiKey not found."})
        if int(lat) == 1:
            return self.send(200, {"routes": [], "notices": [{"title": "Route calculation failed: Couldn't find a route.",
                                                               "code": "noRouteFound", "severity": "critical"}]})

        if int(lat) == 8:
            variant = query.get("origin", "")[2:3]
            def section(duration, typical=100):
                return {"summary": {"duration": duration, "length": 1000, "typicalDuration": typical}}
            if variant == "1":
                return self.send(200, {"routes": [{"sections": [section(1e308), section(-1e308)]}]})
            if variant == "2":
                return self.send(200, {"routes": [{"sections": [section(600), section(-300)]}]})
            if variant == "3":
                return self.send(200, b'{"routes": [{"sections": [{"summary": {"duration": 120, "length": 1000, "duration": 99999}}]}]}')
            if variant == "4":
                return self.send(200, {"routes": [{"sections": [section(0, 0)]}]})
            if variant == "5":
                return self.send(200, {"routes": [{"sections": [section(600, "fast")]}]})

        def answer():
            sections = [
                {"id": "a", "type": "vehicle", "summary": {"duration": 900, "length": 8000, "baseDuration": 800, "typicalDuration": 700},
                 "transport": {"mode": "car"}},
                {"id": "b", "type": "vehicle", "summary": {"duration": 640, "length": 6000, "baseDuration": 600, "typicalDuration": 500},
                 "transport": {"mode": "car"}},
            ]
            self.send(200, {"routes": [{"id": "r", "sections": sections}]})
        return self.scenario("here", lat, query.get("origin"), answer)

    def google(self, headers, body):
        if headers.get("x-goog-fieldmask") != "routes.duration,routes.staticDuration,routes.distanceMeters":
            return self.send(400, {"error": {"code": 400, "message": "FieldMask is a required parameter", "status": "INVALID_ARGUMENT"}})
        if "application/json" not in headers.get("content-type", ""):
            return self.wrong("Content-Type must be application/json")
        try:
            request = json.loads(body)
            origin = request["origin"]["location"]["latLng"]
            destination = request["destination"]["location"]["latLng"]
            lat = float(origin["latitude"])
            latlon("%s,%s" % (origin["latitude"], origin["longitude"]))
            latlon("%s,%s" % (destination["latitude"], destination["longitude"]))
            if "departureTime" in request:
                rfc3339(request["departureTime"])
        except (ValueError, KeyError, TypeError) as error:
            return self.wrong("body: " + str(error))
        if request.get("travelMode") != "DRIVE" or request.get("routingPreference") != "TRAFFIC_AWARE":
            return self.wrong("travelMode DRIVE and routingPreference TRAFFIC_AWARE")
        key = headers.get("x-goog-api-key", "")
        if "invalid" in key:
            return self.send(400, {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                                             "status": "INVALID_ARGUMENT",
                                             "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]}})
        if not key or "bad" in key:
            return self.send(403, {"error": {"code": 403, "message": "Requests from this key " + key + " are blocked.",
                                             "status": "PERMISSION_DENIED"}})
        if int(lat) == 1:
            return self.send(200, {})
        return self.scenario("google", lat, str(origin), lambda: self.send(
            200, {"routes": [{"distanceMeters": 12000, "duration": "1800s", "staticDuration": "1200s"}]}))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    watchdog = threading.Timer(float(os.environ.get("STAND_IN_SECONDS", "300")), lambda: os._exit(0))
    watchdog.daemon = True
    watchdog.start()
    try:
        sys.stdin.read()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
