#!/usr/bin/env python3
"""A timetable the size of King County Metro's (its published feed: 1,978,415 stop_times rows, 56,500
trips, 6,600 stops), and a realtime feed of a large agency, for measuring imports by hand:

    transit_large.py OUT.zip [OUT.pb]

The zip holds 200 lines, 56,500 trips of 35 calls each (1,977,500 rows, 90 MB of stop_times.txt,
about 18 MB deflated). The .pb holds 5,000 trip updates of 30 stop-time updates each (3.2 MB).
"""
import os
import random
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtfs_fixtures import header, ld, v  # noqa: E402

rnd = random.Random(21)
stops = ["stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station"]
for i in range(6600):
    stops.append("%d,Stop %d & %s Ave,%.5f,%.5f,0," % (10000 + i, i, rnd.choice(["1st","3rd","Pine","Main"]), 47.4 + rnd.random() * 0.4, -122.5 + rnd.random() * 0.4))
routes = ["route_id,route_short_name,route_long_name,route_type"] + ["R%d,%d,Line %d,3" % (i, i, i) for i in range(200)]
trips = ["route_id,service_id,trip_id,trip_headsign"]
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("agency.txt", "agency_name,agency_url,agency_timezone\nKCM,https://example.org,America/Los_Angeles\n")
    z.writestr("stops.txt", "\n".join(stops) + "\n")
    z.writestr("routes.txt", "\n".join(routes) + "\n")
    z.writestr("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWKDY,1,1,1,1,1,0,0,20250101,20301231\nSAT,0,0,0,0,0,1,0,20250101,20301231\n")
    with z.open("stop_times.txt", "w") as handle:
        handle.write(b"trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled\n")
        rows = 0
        for t in range(56500):
            line = t % 200
            trip = "T%d" % t
            trips.append("R%d,%s,%s,Downtown" % (line, "WKDY" if t % 5 else "SAT", trip))
            start = 5 * 3600 + (t * 37) % (18 * 3600)
            base = (line * 31) % 6000
            out = []
            for s in range(35):
                tm = start + s * 90
                hms = "%02d:%02d:%02d" % (tm // 3600, tm // 60 % 60, tm % 60)
                out.append("%s,%s,%s,%d,%d,,0,0,%.1f\n" % (trip, hms, hms, 10000 + (base + s * 7) % 6600, s + 1, s * 400.0))
            rows += 35
            handle.write("".join(out).encode())
    z.writestr("trips.txt", "\n".join(trips) + "\n")
print(rows)
if len(sys.argv) > 2:
    entities = []
    for t in range(5000):
        stus = b"".join(ld(2, v(1, s + 1) + ld(4, str(10000 + s)) + ld(2, v(1, 60 * (t % 7))) + ld(3, v(1, 60 * (t % 7)))) for s in range(30))
        entities.append(ld(2, ld(1, "e%d" % t) + ld(3, ld(1, ld(1, "T%d" % (t * 11 % 56500)) + ld(3, "20300115")) + stus)))
    with open(sys.argv[2], "wb") as handle:
        handle.write(header(1894719600) + b"".join(entities))
