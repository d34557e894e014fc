#!/usr/bin/env python3
"""The bundled sample transit feed (Fixtures/transit/), made independently of the product: the
GTFS zip by Python's zipfile, the GTFS-realtime feeds by the hand encoder of gtfs_fixtures.py
(written from the field numbers of google/transit's gtfs-realtime.proto).

    transit_sample.py OUT
    transit_sample.py feed OUT.pb HH:MM TRIP=SECONDS|TRIP=cancel ...
    transit_sample.py alerts OUT.pb HH:MM HEADER@HH:MM-HH:MM ...

The second form writes one realtime feed of the morning below, dated HH:MM, with each trip delayed
by SECONDS or cancelled: what a test needs beyond the bundled two. The third writes a service
alerts feed dated HH:MM, each alert on Bay 2 (stop 1201) with its header, in force that morning
between the two times (`+1d` after the second moves it a day on).

A fictional agency in Seattle's zone, with a weekday service on every date from 2020 to 2099 (so a
newcomer who adds it today has buses; the realtime morning below stays pinned to one day):
  545  Capitol Hill Station Bay 2 (1201) -> Redmond Technology Station (2301) -> Redmond TC (2400),
       every 15 minutes from 6:12 to 9:57, 38 minutes to 2301
  542  Capitol Hill Station Bay 3 (1202) -> 2301 -> 2400, every 30 minutes from 6:05, 45 minutes
  545  back to Seattle (2400 -> 2301 -> 1201): the wrong way, never a departure
The two bays are platforms of the station CH. Memorial Day (2030-05-27) has no weekday service.

The morning of Tuesday 2030-01-15, as the realtime feed tells it:
  realtime-0715.pb  7:15 AM: the 7:57 AM 545 runs 4 minutes late
  realtime-0730.pb  7:30 AM: the 7:57 AM 545 is cancelled; the 7:42 AM runs 1 minute late
  alerts.pb         all of 2030: Bay 2 (stop 1201) moved 20 m north for construction
"""
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtfs_fixtures import ld, v  # noqa: E402

AGENCY = "agency_id,agency_name,agency_url,agency_timezone\nmetro,Sample Metro,https://example.org,America/Los_Angeles\n"
STOPS = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n" \
    "CH,Capitol Hill Station,47.6191,-122.3203,1,\n" \
    "1201,Capitol Hill Station Bay 2,47.6190,-122.3200,0,CH\n" \
    "1202,Capitol Hill Station Bay 3,47.6192,-122.3206,0,CH\n" \
    "1500,Broadway & E Pine St,47.6153,-122.3209,0,\n" \
    "2301,Redmond Technology Station,47.6448,-122.1336,0,\n" \
    "2400,Redmond Transit Center,47.6723,-122.1189,0,\n"
ROUTES = "route_id,agency_id,route_short_name,route_long_name,route_type\n" \
    "R545,metro,545,Seattle - Redmond,3\nR542,metro,542,Seattle - Redmond TC,3\n"
CALENDAR = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n" \
    "WKDY,1,1,1,1,1,0,0,20200101,20991231\n"
CALENDAR_DATES = "service_id,date,exception_type\nWKDY,20300527,2\n"


def clock(minutes):
    return "%02d:%02d:00" % (minutes // 60, minutes % 60)


def timetable():
    trips = ["route_id,service_id,trip_id,trip_headsign"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for start in range(6 * 60 + 12, 10 * 60, 15):
        trip = "545-%s" % clock(start)[:5].replace(":", "")
        trips.append("R545,WKDY,%s,Redmond" % trip)
        for sequence, (stop, ride) in enumerate([("1201", 0), ("2301", 38), ("2400", 50)], 1):
            times.append("%s,%s,%s,%s,%d" % (trip, clock(start + ride), clock(start + ride), stop, sequence))
    for start in range(6 * 60 + 5, 10 * 60, 30):
        trip = "542-%s" % clock(start)[:5].replace(":", "")
        trips.append("R542,WKDY,%s,Redmond TC" % trip)
        for sequence, (stop, ride) in enumerate([("1202", 0), ("2301", 45), ("2400", 55)], 1):
            times.append("%s,%s,%s,%s,%d" % (trip, clock(start + ride), clock(start + ride), stop, sequence))
    for start in range(16 * 60, 18 * 60, 30):
        trip = "545S-%s" % clock(start)[:5].replace(":", "")
        trips.append("R545,WKDY,%s,Seattle" % trip)
        for sequence, (stop, ride) in enumerate([("2400", 0), ("2301", 12), ("1201", 50)], 1):
            times.append("%s,%s,%s,%s,%d" % (trip, clock(start + ride), clock(start + ride), stop, sequence))
    return "\n".join(trips) + "\n", "\n".join(times) + "\n"


def write_zip(path, files):
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(2030, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text)


def instant(hour, minute):
    """2030-01-15 at this local time (PST, UTC-8), in seconds since 1970."""
    return 1894665600 + (hour + 8) * 3600 + minute * 60


def header(timestamp):
    return ld(1, ld(1, "2.0") + v(3, timestamp))


def delayed(trip, seconds):
    return ld(1, ld(1, trip) + ld(3, "20300115") + ld(5, "R545")) + ld(2, v(1, 1) + ld(2, v(1, seconds)) + ld(3, v(1, seconds)))


def cancelled(trip):
    return ld(1, ld(1, trip) + ld(3, "20300115") + ld(5, "R545") + v(4, 3))


def feed(timestamp, updates):
    return header(timestamp) + b"".join(ld(2, ld(1, "e%d" % index) + ld(3, update)) for index, update in enumerate(updates))


def custom_feed(path, at, changes):
    hour, minute = (int(part) for part in at.split(":"))
    updates = []
    for change in changes:
        trip, what = change.split("=")
        updates.append(cancelled(trip) if what == "cancel" else delayed(trip, int(what)))
    with open(path, "wb") as handle:
        handle.write(feed(instant(hour, minute), updates))


def alerts_feed(path, at, alerts):
    hour, minute = (int(part) for part in at.split(":"))
    entities = b""
    for index, alert in enumerate(alerts):
        words, period = alert.rsplit("@", 1)
        days = 86400 if period.endswith("+1d") else 0
        start, end = (tuple(int(part) for part in clock.split(":")) for clock in period.replace("+1d", "").split("-"))
        body = ld(1, v(1, instant(*start) + days) + v(2, instant(*end) + days)) + ld(5, ld(5, "1201")) + \
            ld(10, ld(1, ld(1, words) + ld(2, "en")))
        entities += ld(2, ld(1, "x%d" % index) + ld(5, body))
    with open(path, "wb") as handle:
        handle.write(header(instant(hour, minute)) + entities)


def main():
    if sys.argv[1] == "feed":
        custom_feed(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    if sys.argv[1] == "alerts":
        alerts_feed(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    trips, stop_times = timetable()
    write_zip(os.path.join(out, "metro-gtfs.zip"), {
        "agency.txt": AGENCY, "stops.txt": STOPS, "routes.txt": ROUTES, "trips.txt": trips, "stop_times.txt": stop_times,
        "calendar.txt": CALENDAR, "calendar_dates.txt": CALENDAR_DATES})
    with open(os.path.join(out, "realtime-0715.pb"), "wb") as handle:
        handle.write(feed(instant(7, 15), [delayed("545-0757", 240)]))
    with open(os.path.join(out, "realtime-0730.pb"), "wb") as handle:
        handle.write(feed(instant(7, 30), [cancelled("545-0757"), delayed("545-0742", 60)]))
    alert = ld(1, v(1, 1893456000) + v(2, 1924992000)) + ld(5, ld(5, "1201")) + v(7, 7) + \
        ld(10, ld(1, ld(1, "Capitol Hill Bay 2 has moved 20 m north for construction") + ld(2, "en")))
    with open(os.path.join(out, "alerts.pb"), "wb") as handle:
        handle.write(header(instant(7, 0)) + ld(2, ld(1, "a1") + ld(5, alert)))


if __name__ == "__main__":
    main()
