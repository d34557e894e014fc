#!/usr/bin/env python3
"""A timetable for both daylight-saving changes of 2025 in America/Los_Angeles, and the departures
the specification's rule gives, computed here with zoneinfo and nothing of the product's.

    transit_dst.py OUT

Writes OUT/dst.zip (daily service through 2025; trips from stop F to stop T: LATE 23:50 -> 25:10,
crossing midnight; OWL 24:40 -> 26:00, the service day before's; EARLY 01:30 -> 02:30, through the
hour that is skipped or repeated) and OUT/expected.json: for 21:00 local on each day around the
changes, the next four departures [{trip, scheduled, arrival}] as UTC instants. A GTFS time is
seconds after noon less 12 hours on its service day (the GTFS reference, "Field Types": Time).
"""
import datetime
import json
import os
import sys
import zipfile
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("America/Los_Angeles")
TRIPS = {"LATE": (23 * 3600 + 50 * 60, 25 * 3600 + 10 * 60), "OWL": (24 * 3600 + 40 * 60, 26 * 3600),
         "EARLY": (1 * 3600 + 30 * 60, 2 * 3600 + 30 * 60)}
DAYS = [datetime.date(2025, 3, day) for day in (7, 8, 9, 10)] + [datetime.date(2025, 11, day) for day in (1, 2, 3)]


def hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def instant(day, seconds):
    noon = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=ZONE)
    return noon.timestamp() - 12 * 3600 + seconds


def iso(timestamp):
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    stop_times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for trip, (leave, arrive) in TRIPS.items():
        stop_times += ["%s,%s,%s,F,1" % (trip, hms(leave), hms(leave)), "%s,%s,%s,T,2" % (trip, hms(arrive), hms(arrive))]
    files = {
        "agency.txt": "agency_name,agency_url,agency_timezone\nOwl Transit,https://example.org,America/Los_Angeles\n",
        "stops.txt": "stop_id,stop_name\nF,First Street\nT,Terminal\n",
        "routes.txt": "route_id,route_short_name,route_type\nN1,N1,3\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\n" + "".join("N1,DAILY,%s,Terminal\n" % trip for trip in TRIPS),
        "stop_times.txt": "\n".join(stop_times) + "\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                        "DAILY,1,1,1,1,1,1,1,20250101,20251231\n",
    }
    with zipfile.ZipFile(os.path.join(out, "dst.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    cases = []
    for day in DAYS:
        now = datetime.datetime(day.year, day.month, day.day, 21, tzinfo=ZONE).timestamp()
        runs = []
        for service in (day - datetime.timedelta(days=1), day, day + datetime.timedelta(days=1)):
            for trip, (leave, arrive) in TRIPS.items():
                runs.append((instant(service, leave), trip, instant(service, arrive)))
        coming = sorted(run for run in runs if run[0] >= now)[:4]
        cases.append({"now": iso(now), "departures": [
            {"trip": trip, "scheduled": iso(leave), "arrival": iso(arrive)} for leave, trip, arrive in coming]})
    with open(os.path.join(out, "expected.json"), "w") as handle:
        json.dump(cases, handle, indent=1)


if __name__ == "__main__":
    main()
