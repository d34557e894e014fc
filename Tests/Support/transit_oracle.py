#!/usr/bin/env python3
"""The official GTFS-realtime bindings (PyPI: gtfs-realtime-bindings) as an oracle for the
product's hand-written protobuf reader:

    transit_oracle.py decode FILE.pb   print, as JSON, what the feed says in the fields traveltimes reads
    transit_oracle.py encode OUT.pb    write a feed with the bindings: every field traveltimes reads,
                                       negative delays, and fields it skips (vehicle positions,
                                       direction, causes, URLs, severities)

Exits 3, saying so, when the bindings are not installed (`pip install gtfs-realtime-bindings`;
.ci/run installs them).
"""
import json
import sys

try:
    from google.transit import gtfs_realtime_pb2 as rt
except ImportError:
    print("gtfs-realtime-bindings is not installed: pip install gtfs-realtime-bindings", file=sys.stderr)
    sys.exit(3)


def opt(message, field):
    return getattr(message, field) if message.HasField(field) else None


def event(message, field):
    if not message.HasField(field):
        return None
    e = getattr(message, field)
    return {"delay": opt(e, "delay"), "time": opt(e, "time")}


def translated(message, field):
    """The first translation without a language or in English, else the first (as traveltimes)."""
    if not message.HasField(field):
        return None
    texts = getattr(message, field).translation
    for t in texts:
        if not t.HasField("language") or t.language.startswith("en"):
            return t.text
    return texts[0].text if texts else None


def decode(path):
    feed = rt.FeedMessage()
    with open(path, "rb") as handle:
        feed.ParseFromString(handle.read())
    out = {"timestamp": opt(feed.header, "timestamp"), "tripUpdates": [], "alerts": []}
    for entity in feed.entity:
        if entity.HasField("trip_update"):
            u = entity.trip_update
            out["tripUpdates"].append({
                "trip": opt(u.trip, "trip_id"), "route": opt(u.trip, "route_id"),
                "startTime": opt(u.trip, "start_time"), "startDate": opt(u.trip, "start_date"),
                "relationship": u.trip.schedule_relationship, "delay": opt(u, "delay"),
                "stops": [{
                    "sequence": opt(s, "stop_sequence"), "stop": opt(s, "stop_id"),
                    "arrival": event(s, "arrival"), "departure": event(s, "departure"),
                    "relationship": s.schedule_relationship,
                } for s in u.stop_time_update],
            })
        if entity.HasField("alert"):
            a = entity.alert
            out["alerts"].append({
                "routes": [i.route_id for i in a.informed_entity if i.HasField("route_id")],
                "stops": [i.stop_id for i in a.informed_entity if i.HasField("stop_id")],
                "trips": [i.trip.trip_id for i in a.informed_entity if i.HasField("trip") and i.trip.HasField("trip_id")],
                "periods": [[opt(p, "start"), opt(p, "end")] for p in a.active_period],
                "header": translated(a, "header_text"), "description": translated(a, "description_text"),
                "effect": opt(a, "effect"),
            })
    print(json.dumps(out, sort_keys=True))


def encode(path):
    feed = rt.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = rt.FeedHeader.FULL_DATASET
    feed.header.timestamp = 1894720200
    # A vehicle position first: an entity traveltimes skips.
    vehicle = feed.entity.add(id="v1")
    vehicle.vehicle.trip.trip_id = "545-0742"
    vehicle.vehicle.position.latitude = 47.6
    vehicle.vehicle.position.longitude = -122.3
    vehicle.vehicle.timestamp = 1894720190
    late = feed.entity.add(id="e1")
    tu = late.trip_update
    tu.trip.trip_id = "545-0742"
    tu.trip.route_id = "545"
    tu.trip.direction_id = 0
    tu.trip.start_time = "07:42:00"
    tu.trip.start_date = "20300115"
    tu.timestamp = 1894720180
    tu.delay = 240
    s = tu.stop_time_update.add(stop_sequence=1, stop_id="CH-2")
    s.arrival.delay = -60
    s.departure.delay = -30
    s.departure.uncertainty = 30
    s = tu.stop_time_update.add(stop_sequence=2, stop_id="1201")
    s.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SKIPPED
    s = tu.stop_time_update.add(stop_sequence=5, stop_id="2301")
    s.arrival.time = 1894723260
    s = tu.stop_time_update.add(stop_id="2302")
    s.schedule_relationship = rt.TripUpdate.StopTimeUpdate.NO_DATA
    cancelled = feed.entity.add(id="e2")
    cancelled.trip_update.trip.trip_id = "545-0757"
    cancelled.trip_update.trip.schedule_relationship = rt.TripDescriptor.CANCELED
    alert = feed.entity.add(id="a1").alert
    alert.active_period.add(start=1894716000, end=1894730400)
    alert.active_period.add(start=1894802400)
    alert.informed_entity.add(route_id="545")
    alert.informed_entity.add(stop_id="CH-2")
    alert.informed_entity.add().trip.trip_id = "542-0805"
    alert.cause = rt.Alert.CONSTRUCTION
    alert.effect = rt.Alert.DETOUR
    alert.url.translation.add(text="https://example.org/545")
    alert.header_text.translation.add(text="Le 545 est dévié", language="fr")
    alert.header_text.translation.add(text="545 detoured", language="en")
    alert.description_text.translation.add(text="Board at Bay 3 on Pine St, 50 m east")
    alert.severity_level = rt.Alert.WARNING
    with open(path, "wb") as handle:
        handle.write(feed.SerializeToString())


if __name__ == "__main__":
    {"decode": decode, "encode": encode}[sys.argv[1]](sys.argv[2])
