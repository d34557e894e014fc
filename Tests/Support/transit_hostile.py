#!/usr/bin/env python3
"""Transit inputs that cost little to send and much to read carelessly (issue 34), made with
Python's zipfile and the hand protobuf encoder of gtfs_fixtures.py:

    transit_hostile.py OUT
    transit_hostile.py freqfuzz OUT SEED COUNT   COUNT zips of random frequency windows (the fuzz test's)

  freqbomb.zip     2,000 frequency trips from A to B, each running every 60 s for 48 hours
  bigtrips.zip     2,000,000 rows in trips.txt, of which one trip calls at A and then B
  everyminute.zip  one frequency trip from A to B every minute from 5:00 to 24:00
  invisible.zip    stop names and a headsign full of characters that show as nothing
  overlap.zip      two entries whose data is the same bytes (a zip bomb's trick)
  zip64.zip        the sample timetable with ZIP64 local headers (force_zip64)
  stubomb.pb       a realtime feed of 8,000 updates of one trip, each of 2,000 empty stop-time updates
"""
import os
import struct
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtfs_fixtures import ld, v  # noqa: E402
import transit_sample  # noqa: E402

AGENCY = "agency_id,agency_name,agency_url,agency_timezone\nx,Hostile Transit,https://example.org,America/Los_Angeles\n"
STOPS = "stop_id,stop_name,stop_lat,stop_lon\nA,Alder St,47.60,-122.30\nB,Birch St,47.61,-122.31\n"
ROUTES = "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,x,1,One,3\n"
CALENDAR = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n" \
    "ALL,1,1,1,1,1,1,1,20200101,20991231\n"


def write(path, files, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, text in files.items():
            archive.writestr(name, text)


def freqfuzz(out, seed, count):
    import random
    generator = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for index in range(count):
        trips = ["route_id,service_id,trip_id,trip_headsign"]
        times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        freqs = ["trip_id,start_time,end_time,headway_secs"]
        for trip in range(generator.choice([1, 10, 300, 2000])):
            ride = generator.randint(0, 7200)
            times += ["F%d,00:00:00,00:00:00,A,1" % trip, "F%d,%s,%s,B,2" % (trip, clock(ride), clock(ride))]
            trips.append("R1,ALL,F%d,Bee" % trip)
            for _ in range(generator.randint(1, 3)):
                start = generator.randint(0, 160 * 3600)
                end = start + generator.randint(1, 168 * 3600 - start) if start < 168 * 3600 - 1 else start + 1
                freqs.append("F%d,%s,%s,%d" % (trip, clock(start), clock(min(end, 167 * 3600 + 3599)), generator.choice([1, 59, 60, 61, 300, 86400, -5])))
        write(os.path.join(out, "freq-%d.zip" % index), {
            "agency.txt": AGENCY, "stops.txt": STOPS, "routes.txt": ROUTES, "calendar.txt": CALENDAR,
            "trips.txt": "\n".join(trips) + "\n", "stop_times.txt": "\n".join(times) + "\n", "frequencies.txt": "\n".join(freqs) + "\n"})


def clock(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def main():
    if sys.argv[1] == "freqfuzz":
        freqfuzz(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    base = {"agency.txt": AGENCY, "stops.txt": STOPS, "routes.txt": ROUTES, "calendar.txt": CALENDAR}

    trips = ["route_id,service_id,trip_id,trip_headsign"] + ["R1,ALL,F%d,Bee" % i for i in range(2000)]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    freqs = ["trip_id,start_time,end_time,headway_secs"]
    for i in range(2000):
        times += ["F%d,00:00:00,00:00:00,A,1" % i, "F%d,00:10:00,00:10:00,B,2" % i]
        freqs.append("F%d,00:00:00,48:00:00,60" % i)
    write(os.path.join(out, "freqbomb.zip"), dict(base, **{
        "trips.txt": "\n".join(trips) + "\n", "stop_times.txt": "\n".join(times) + "\n", "frequencies.txt": "\n".join(freqs) + "\n"}))

    lines = ["route_id,service_id,trip_id,trip_headsign", "R1,ALL,T-ONE,Bee"]
    lines += ["R1,ALL,T%07d,Nowhere" % i for i in range(2000000)]
    write(os.path.join(out, "bigtrips.zip"), dict(base, **{
        "trips.txt": "\n".join(lines) + "\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT-ONE,08:00:00,08:00:00,A,1\nT-ONE,08:20:00,08:20:00,B,2\n"}))

    write(os.path.join(out, "everyminute.zip"), dict(base, **{
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,ALL,M,Bee\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nM,05:00:00,05:00:00,A,1\nM,05:12:00,05:12:00,B,2\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nM,05:00:00,24:00:00,60\n"}))

    hidden = "\u3164\u2800\u115f\u034f\u200b"
    write(os.path.join(out, "invisible.zip"), dict(base, **{
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alder%s St,47.60,-122.30\nB,Birch St%s,47.61,-122.31\n" % (hidden, hidden),
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,ALL,T1,Bee%s\n" % hidden,
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,08:20:00,08:20:00,B,2\n"}))

    # Two central directory entries pointing at one local header and its data.
    path = os.path.join(out, "overlap.zip")
    write(path, dict(base, **{
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,ALL,T1,Bee\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,08:20:00,08:20:00,B,2\n"}),
        compression=zipfile.ZIP_STORED)
    data = bytearray(open(path, "rb").read())
    end = data.rfind(b"PK\x05\x06")
    directory = struct.unpack("<I", data[end + 16:end + 20])[0]
    first = struct.unpack("<I", data[directory + 42:directory + 46])[0]
    cursor = directory
    while data[cursor:cursor + 4] == b"PK\x01\x02":
        name_length, extra, comment = struct.unpack("<HHH", data[cursor + 28:cursor + 34])
        if data[cursor + 46:cursor + 46 + name_length] == b"calendar.txt":
            data[cursor + 42:cursor + 46] = struct.pack("<I", first)
        cursor += 46 + name_length + extra + comment
    open(path, "wb").write(data)

    trips64, times64 = transit_sample.timetable()
    with zipfile.ZipFile(os.path.join(out, "zip64.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in {"agency.txt": transit_sample.AGENCY, "stops.txt": transit_sample.STOPS, "routes.txt": transit_sample.ROUTES,
                           "trips.txt": trips64, "stop_times.txt": times64, "calendar.txt": transit_sample.CALENDAR}.items():
            with archive.open(name, "w", force_zip64=True) as entry:
                entry.write(text.encode())

    empty = ld(2, b"") * 2000
    update = ld(1, ld(1, "545-0757") + ld(3, "20300115")) + empty
    entity = ld(2, ld(1, "e") + ld(3, update))
    with open(os.path.join(out, "stubomb.pb"), "wb") as handle:
        handle.write(transit_sample.header(transit_sample.instant(7, 15)))
        handle.write(entity * 8000)


if __name__ == "__main__":
    main()
