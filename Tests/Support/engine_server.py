#!/usr/bin/env python3
"""A loopback stand-in for the open routing engines on the FOSSGIS instances: OSRM's
GET /route/v1/driving/LON,LAT;LON,LAT and Valhalla's POST /route (costing auto), shaped after
Project-OSRM/osrm-backend docs/http.md and valhalla's api-reference (valhalla.github.io/valhalla/api),
checking requests as they do. Its answers are real ones (Fixtures/real/osrm/, Fixtures/real/valhalla/),
moved to the points asked.

Usage: engine_server.py LOG [CONTROL] -- prints its port on the first line of stdout, logs each
request (engine, path, query or body, user agent, arrival time) as a JSON line to LOG, and exits
when its stdin closes or after 300 seconds ($STAND_IN_SECONDS). Test-only; standard library only; binds 127.0.0.1.

As the operators' nginx does: no User-Agent or a library's stock one is refused with 403; a 429 is
an HTML page. OSRM refuses a latitude outside ±90 (a LAT,LON pair sent as LON,LAT) with 400
{"code":"InvalidValue"}. Times are free-flow: the straight distance × 1.3 at 50 km/h. CONTROL is
a JSON file read on every request: {"replay": {"osrm": FILE, "valhalla": FILE}} answers with a real
recorded answer byte for byte; {"ref": "A 8"} names that road in OSRM's step; {"fault": F} answers every route with F: "503", "429",
"garbage" (200, not JSON), "noroute" (OSRM 400 NoRoute, Valhalla 400 error_code 442), "absurd"
(a route of 10 km in 2 seconds), "nowhere" (a route of 0 m taking 29 minutes).
"""
import http.server
import json
import math
import os
import sys
import threading
import time
import urllib.parse

LOG = sys.argv[1]
CONTROL = sys.argv[2] if len(sys.argv) > 2 else "/dev/null"
LOCK = threading.Lock()
GENERIC = ("python-requests/", "python-urllib/", "python-httpx/", "curl/", "wget/", "libcurl")


def recorded(path):
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "real", path), encoding="utf-8") as handle:
        return json.load(handle)


OSRM = recorded("osrm/portugal_to_korea.json")
VALHALLA = recorded("valhalla/route.json")


def control():
    try:
        with open(CONTROL) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def polyline(points, precision=5):
    """Google's encoded polyline of (lat, lon) points, as OSRM writes step geometry."""
    out, last = [], (0, 0)
    for lat, lon in points:
        now = (round(lat * 10 ** precision), round(lon * 10 ** precision))
        for value in (now[0] - last[0], now[1] - last[1]):
            value = ~(value << 1) if value < 0 else value << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        last = now
    return "".join(out)


def free_flow(lat1, lon1, lat2, lon2):
    """Metres and seconds: the great-circle distance, 1.3 times, at 50 km/h."""
    r = 6371000.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    metres = 2 * r * math.asin(math.sqrt(a)) * 1.3
    return metres, metres / (50000 / 3600)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self, engine, detail):
        with LOCK, open(LOG, "a") as log:
            log.write(json.dumps({"engine": engine, "path": urllib.parse.urlsplit(self.path).path, "detail": detail,
                                  "userAgent": self.headers.get("User-Agent", ""), "at": time.time()}) + "\n")

    def refused(self):
        agent = self.headers.get("User-Agent", "")
        if not agent or agent.lower().startswith(GENERIC):
            self.send(403, b"<html><body>403 Forbidden: set a User-Agent that identifies your application</body></html>", "text/html")
            return True
        fault = control().get("fault")
        if fault == "503":
            self.send(503, b"<html><body>503 Service Temporarily Unavailable</body></html>", "text/html")
            return True
        if fault == "429":
            self.send(429, b"<html><body>Bandwidth limit exceeded. One request per second max.</body></html>", "text/html")
            return True
        if fault == "garbage":
            self.send(200, b"<html>maintenance</html>", "text/html")
            return True
        return False

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        self.record("osrm", parsed.path + ("?" + parsed.query if parsed.query else ""))
        if not parsed.path.startswith("/route/v1/driving/"):
            return self.send(400, {"code": "InvalidService", "message": "Service not found"})
        if self.refused():
            return
        try:
            pairs = [tuple(float(x) for x in part.split(",")) for part in parsed.path[len("/route/v1/driving/"):].split(";")]
        except ValueError:
            return self.send(400, {"code": "InvalidQuery", "message": "Query string malformed close to position 0"})
        if len(pairs) < 2:
            return self.send(400, {"code": "InvalidOptions", "message": "Number of coordinates needs to be at least two."})
        for lon, lat in pairs:
            if not (-90 <= lat <= 90 and -180 <= lon <= 180):
                return self.send(400, {"code": "InvalidValue", "message": "Invalid coordinate value."})
        if control().get("fault") == "noroute":
            return self.send(400, {"code": "NoRoute", "message": "No route found between points"})
        (lon1, lat1), (lon2, lat2) = pairs[0], pairs[1]
        metres, seconds = free_flow(lat1, lon1, lat2, lon2)
        if control().get("fault") == "absurd":
            metres, seconds = 10000.0, 2.0
        if control().get("fault") == "nowhere":
            metres, seconds = 0.0, 1740.0
        if control().get("replay", {}).get("osrm"):
            return self.send(200, open(control()["replay"]["osrm"], "rb").read())
        # OSRM's own recorded answer (Fixtures/real/osrm/), its route moved here: asked with
        # steps=true, one step, the recorded first step moved to a straight line between the
        # points (its `ref` the control's "ref", else none).
        route = {key: value for key, value in OSRM["routes"][0].items() if key not in ("geometry",)}
        query = urllib.parse.parse_qs(parsed.query)
        steps = []
        if query.get("steps") == ["true"]:
            step = {**OSRM["routes"][0]["legs"][0]["steps"][0], "geometry": polyline([(lat1, lon1), (lat2, lon2)]),
                    "duration": seconds, "distance": metres, "ref": control().get("ref", ""), "intersections": []}
            step["maneuver"] = {**step["maneuver"], "location": [lon1, lat1]}
            steps = [step]
        leg = {**route["legs"][0], "steps": steps, "weight": seconds, "duration": seconds, "distance": metres}
        route.update({"legs": [leg], "weight": seconds, "duration": seconds, "distance": metres})
        self.send(200, {"code": "Ok", "routes": [route],
                        "waypoints": [{**OSRM["waypoints"][0], "distance": 1.0, "location": [lon, lat]} for lon, lat in pairs[:2]]})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        self.record("valhalla", body.decode("utf-8", "replace"))
        if urllib.parse.urlsplit(self.path).path != "/route":
            return self.send(404, {"error_code": 106, "error": "Try any of: '/route'", "status_code": 404, "status": "Not Found"})
        if self.refused():
            return
        try:
            request = json.loads(body)
            locations = request["locations"]
            assert request.get("costing") == "auto"
            (a, b) = locations[0], locations[1]
            lat1, lon1, lat2, lon2 = float(a["lat"]), float(a["lon"]), float(b["lat"]), float(b["lon"])
        except (ValueError, KeyError, IndexError, TypeError, AssertionError):
            return self.send(400, {"error_code": 100, "error": "Failed to parse json request", "status_code": 400, "status": "Bad Request"})
        if control().get("fault") == "noroute":
            return self.send(400, {"error_code": 442, "error": "No path could be found for input", "status_code": 400, "status": "Bad Request"})
        metres, seconds = free_flow(lat1, lon1, lat2, lon2)
        if control().get("fault") == "nowhere":
            metres, seconds = 0.0, 1740.0
        units = request.get("units", "km")
        if units not in ("km", "kilometers", "miles", "mi"):
            return self.send(400, {"error_code": 100, "error": "Failed to parse json request", "status_code": 400, "status": "Bad Request"})
        length_value = metres / (1609.344 if units in ("miles", "mi") else 1000.0)
        if control().get("replay", {}).get("valhalla"):
            return self.send(200, open(control()["replay"]["valhalla"], "rb").read())
        # Valhalla's documented answer (Fixtures/real/valhalla/route.json), moved here.
        trip = json.loads(json.dumps(VALHALLA["trip"]))
        trip["locations"] = [{**trip["locations"][0], "lat": lat1, "lon": lon1}, {**trip["locations"][1], "lat": lat2, "lon": lon2}]
        summary = {**trip["summary"], "time": seconds, "length": length_value, "cost": seconds * 1.1}
        trip["legs"] = [{**trip["legs"][0], "maneuvers": [], "summary": summary, "shape": ""}]
        trip.update({"summary": summary, "units": "miles" if units in ("miles", "mi") else "kilometers"})
        self.send(200, {"trip": trip})


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
