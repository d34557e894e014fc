#!/usr/bin/env python3
"""Rebuilds, from its recorded pieces, a real Transitous answer too large to keep here: the MOTIS
/api/v6/plan answer for a 3-minute RER B ride from Gare du Nord to Châtelet on Thursday
27 August 2026 (KDE kpublictransport's autotests/data/motis2/journey-alerts.in.json, 6,695,742
bytes), nearly all of it three works notices repeated for every night they are in force, on every
place and leg. Fixtures/real/motis/journey-alerts-pieces.json holds its beginning as recorded (the
request's places, the first itinerary and its first leg up to its alerts), the notices' words
as recorded, their periods (as recorded; the weeknight notice by the rule its recorded periods
follow), and its end. The itineraries after the first repeat the first, three minutes apart,
until the answer is as large as the recording.

usage: motis_alerts.py OUT   writes the answer to OUT and prints its size in bytes.
"""
import datetime
import json
import os
import sys

PIECES = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "real", "motis", "journey-alerts-pieces.json")


def z(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def weeknights():
    """Sunday to Thursday nights, 22:00-01:00Z in summer time, 23:00-02:00Z after 25 October."""
    day = datetime.date(2026, 8, 23)
    while day <= datetime.date(2026, 12, 30):
        if day.weekday() in (6, 0, 1, 2, 3) and day != datetime.date(2026, 12, 24):
            hour = 22 if day < datetime.date(2026, 10, 25) else 23
            start = datetime.datetime(day.year, day.month, day.day, hour, tzinfo=datetime.timezone.utc)
            yield start, start + datetime.timedelta(hours=3)
        day += datetime.timedelta(days=1)


def alerts(pieces):
    out = []
    for notice in pieces["notices"]:
        periods = notice.get("periods")
        spans = [(s, e) for s, e in periods] if periods else [(z(s), z(e)) for s, e in weeknights()]
        for start, end in spans:
            span = [{"start": start, "end": end}]
            out.append({"communicationPeriod": span, "impactPeriod": span, **notice["alert"]})
    return out


def dump(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def place(base, time, key, pieces_alerts):
    return {**base, key: time, "scheduled" + key[0].upper() + key[1:]: time, "vertexType": "TRANSIT",
            "pickupType": "NORMAL", "dropoffType": "NORMAL", "cancelled": False, "alerts": pieces_alerts}


def main():
    out = sys.argv[1]
    pieces = json.load(open(PIECES, encoding="utf-8"))
    every = dump(alerts(pieces))
    notices = alerts(pieces)
    start = datetime.datetime(2026, 8, 27, 10, 41, tzinfo=datetime.timezone.utc)
    to_place = {"name": "Châtelet - Les Halles", "stopId": "fr-reseau-urbain-et-interurbain-dile-de-france-mobilites_IDFM:monomodalStopPlace:451029",
                "parentId": "fr-reseau-urbain-et-interurbain-dile-de-france-mobilites_IDFM:474151", "lat": 48.8617, "lon": 2.3469, "level": -5.0,
                "tz": "Europe/Paris"}
    from_place = {"name": "Gare du Nord", "stopId": "fr-reseau-urbain-et-interurbain-dile-de-france-mobilites_IDFM:monomodalStopPlace:462394",
                  "parentId": "fr-reseau-urbain-et-interurbain-dile-de-france-mobilites_IDFM:71410", "lat": 48.882305, "lon": 2.3566935, "level": 0.0,
                  "tz": "Europe/Paris"}

    def rest_of_leg(leave):
        arrive = leave + datetime.timedelta(minutes=3)
        return {"duration": 180, "startTime": z(leave), "endTime": z(arrive), "scheduledStartTime": z(leave), "scheduledEndTime": z(arrive),
                "realTime": False, "scheduled": True, "headsign": "Robinson", "agencyName": "RER", "agencyId": "IDFM:71", "routeShortName": "B",
                "tripId": leave.strftime("%Y%m%d_%H:%M") + "_fr-reseau-urbain-et-interurbain-dile-de-france-mobilites_IDFM:TN:SNCF",
                **pieces["legTail"]}

    with open(out, "w", encoding="utf-8") as handle:
        # The first itinerary, as recorded up to its first place's alerts.
        handle.write(pieces["head"].rstrip("\n"))
        handle.write(every[1:-1] + "]},")
        handle.write('"to":' + dump(place(to_place, z(start + datetime.timedelta(minutes=3)), "arrival", notices)) + ",")
        handle.write('"alerts":' + every + ",")
        leg = rest_of_leg(start)
        handle.write(dump(leg)[1:] + "]}")
        size = handle.tell()
        leave = start
        while True:
            leave += datetime.timedelta(minutes=3)
            itinerary = {"duration": 180, "startTime": z(leave), "endTime": z(leave + datetime.timedelta(minutes=3)), "transfers": 0,
                         "id": "rebuilt-" + leave.strftime("%H%M"),
                         "legs": [{"mode": "REGIONAL_RAIL", "from": place(from_place, z(leave), "departure", notices),
                                   "to": place(to_place, z(leave + datetime.timedelta(minutes=3)), "arrival", notices),
                                   "alerts": notices, **rest_of_leg(leave)}]}
            text = "," + dump(itinerary)
            if size + len(text.encode()) > pieces["bytes"] - 400:
                break
            handle.write(text)
            size = handle.tell()
        handle.write('],"fareTransfers":' + dump(pieces["fareTransfers"]) + ',"previousPageCursor":' + dump(pieces["previousPageCursor"])
                     + ',"nextPageCursor":' + dump(pieces["nextPageCursor"]) + "}\n")
        print(handle.tell())


main()
