#!/usr/bin/env python3
"""GTFS zips and GTFS-realtime feeds for the tests, made independently of the product: zips by
Python's zipfile, realtime feeds by a small protocol-buffer encoder written from the field numbers
of google/transit's gtfs-realtime.proto.

    gtfs_fixtures.py OUT

Writes into OUT:
  good-deflated.zip     a small feed, deflated, with a UTF-8 BOM, quoted fields, columns out of order
  good-stored.zip       the same, stored
  descriptors.zip       the same, written to a stream that cannot seek (data descriptors)
  zip64.zip             the same with a ZIP64 extra field in stop_times.txt's local header (refused)
  zip64-directory.zip   an archive whose end record says ZIP64 (directory offset 0xFFFFFFFF)
  bomb.zip              stop_times.txt of 50 MB of zeros deflated to a few KB
  truncated.zip         good-deflated.zip cut in half
  lying.zip             good-deflated.zip with stop_times.txt's size in the central directory halved
  dotdot.zip            an entry named ../stops.txt beside stops.txt
  broken-quote.zip      stops.txt with a quoted field never closed
  long-line.zip         stops.txt with a 2 MB line
  timetable.zip         a station with two platforms, two lines, a trip past midnight, one at
                        00:30 every day (for the clock changes), a frequency-based trip, Thanksgiving
                        removed and a Saturday added
  tripupdates.pb        a delayed trip, a cancelled one, a skipped stop, negative delays
  alerts.pb             an alert naming a route and a stop, in two languages
  hostile-*.pb          bad varints, lengths past the end, deep nesting, huge repeated fields,
                        times in the year 9999 and past it
"""
import io
import os
import random
import sys
import zipfile

STOPS = '\ufeffstop_name,stop_id,stop_lat,stop_lon,location_type,parent_station,zone_id\n' \
    '"Bellevue TC, Bay 1",1001,47.6152,-122.1957,0,9000,\n' \
    '"The ""Main"" St",1002,47.6206,-122.3493,0,,\n' \
    'Bellevue Transit Center,9000,47.6150,-122.1958,1,,\n'
ROUTES = 'route_id,agency_id,route_short_name,route_long_name,route_type\n545,1,545,Redmond - Seattle,3\n'
TRIPS = 'route_id,service_id,trip_id,trip_headsign\n545,WKDY,T1,Redmond\n545,WKDY,T2,Redmond\n'
STOP_TIMES = 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\r\n' \
    'T1,07:42:00,07:42:00,1002,1\r\nT1,08:10:00,08:10:00,1001,2\r\n' \
    'T2,25:10:00,25:10:00,1002,1\r\nT2,25:40:00,25:40:00,1001,2\r\n'
FILES = {"stops.txt": STOPS, "routes.txt": ROUTES, "trips.txt": TRIPS, "stop_times.txt": STOP_TIMES,
         "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n1,Metro,https://example.org,America/Los_Angeles\n"}


def write_zip(path, files, compression=zipfile.ZIP_DEFLATED, zip64=None):
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, text in files.items():
            if name == zip64:
                with archive.open(zipfile.ZipInfo(name), "w", force_zip64=True) as handle:
                    handle.write(text.encode())
            else:
                archive.writestr(name, text)


class Unseekable(io.RawIOBase):
    def __init__(self):
        self.buffer = bytearray()

    def writable(self):
        return True

    def write(self, data):
        self.buffer += data
        return len(data)


# Protocol buffers, by hand.
def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(number, wire):
    return varint(number << 3 | wire)


def v(number, value):
    return key(number, 0) + varint(value)


def ld(number, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return key(number, 2) + varint(len(payload)) + payload


def header(timestamp=1762268400):
    return ld(1, ld(1, "2.0") + v(3, timestamp))


TIMETABLE = {
    "agency.txt": "agency_name,agency_timezone,agency_url\nMetro,America/Los_Angeles,https://example.org\n",
    "stops.txt": "stop_id,stop_name,location_type,parent_station\nS,Bellevue TC,1,\nA1,Bellevue TC Bay 1,0,S\nA2,Bellevue TC Bay 2,0,S\n"
                 "B,Redmond TC,0,\nX,Seattle,0,\n",
    "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR545,545,Redmond,3\nR271,271,Issaquah,3\n",
    "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR545,WKDY,T1,Redmond\nR545,WKDY,T2,Redmond\nR271,WKDY,T3,Issaquah\n"
                 "R545,WKDY,T4,Redmond\nR545,DAILY,TM,Night owl\nR545,DAILY,TF,Shuttle\nR545,WKDY,TR,Seattle\n",
    # Out of order on purpose: B's row before A1's for T2; TR runs B then A1 (the wrong way).
    "stop_times.txt": "trip_id,stop_sequence,stop_id,arrival_time,departure_time\n"
                      "T1,1,A1,07:42:00,07:42:00\nT1,2,B,08:10:00,08:10:00\n"
                      "T2,2,B,08:25:00,08:25:00\nT2,1,A2,07:57:00,07:57:00\n"
                      "T3,1,A1,08:05:00,08:05:00\nT3,2,B,08:40:00,08:40:00\n"
                      "T4,1,A1,24:30:00,24:30:00\nT4,2,B,25:05:00,25:05:00\n"
                      "TM,1,A1,00:30:00,00:30:00\nTM,2,B,01:00:00,01:00:00\n"
                      "TF,1,X,06:00:00,06:00:00\nTF,2,A1,06:05:00,06:05:00\nTF,3,B,06:30:00,06:30:00\n"
                      "TR,1,B,07:00:00,07:00:00\nTR,2,A1,07:30:00,07:30:00\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                    "WKDY,1,1,1,1,1,0,0,20250101,20261231\nDAILY,1,1,1,1,1,1,1,20250101,20261231\n",
    "calendar_dates.txt": "service_id,date,exception_type\nWKDY,20251127,2\nWKDY,20251129,1\n",
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nTF,06:00:00,07:00:00,1200\n",
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write_zip(os.path.join(out, "timetable.zip"), TIMETABLE)
    write_zip(os.path.join(out, "good-deflated.zip"), FILES)
    write_zip(os.path.join(out, "good-stored.zip"), FILES, zipfile.ZIP_STORED)
    stream = Unseekable()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in FILES.items():
            with archive.open(name, "w") as handle:
                handle.write(text.encode())
    with open(os.path.join(out, "descriptors.zip"), "wb") as handle:
        handle.write(stream.buffer)
    write_zip(os.path.join(out, "zip64.zip"), FILES, zip64="stop_times.txt")
    write_zip(os.path.join(out, "bomb.zip"), dict(FILES, **{"stop_times.txt": "trip_id\n" + "0" * 50_000_000}))
    good = open(os.path.join(out, "good-deflated.zip"), "rb").read()
    with open(os.path.join(out, "truncated.zip"), "wb") as handle:
        handle.write(good[: len(good) // 2])
    # The central directory's uncompressed size of stop_times.txt, halved.
    lying = bytearray(good)
    index = lying.find(b"PK\x01\x02")
    while index >= 0:
        name_length = int.from_bytes(lying[index + 28:index + 30], "little")
        name = bytes(lying[index + 46:index + 46 + name_length])
        if name == b"stop_times.txt":
            size = int.from_bytes(lying[index + 24:index + 28], "little")
            lying[index + 24:index + 28] = (size // 2).to_bytes(4, "little")
        index = lying.find(b"PK\x01\x02", index + 4)
    with open(os.path.join(out, "lying.zip"), "wb") as handle:
        handle.write(bytes(lying))
    # A ZIP64 end record's marks: the directory's offset 0xFFFFFFFF in the classic end record.
    marked = bytearray(good)
    end = marked.rfind(b"PK\x05\x06")
    marked[end + 16:end + 20] = b"\xff\xff\xff\xff"
    with open(os.path.join(out, "zip64-directory.zip"), "wb") as handle:
        handle.write(bytes(marked))
    write_zip(os.path.join(out, "dotdot.zip"), dict(FILES, **{"../stops.txt": "stop_id\nEVIL\n"}))
    write_zip(os.path.join(out, "broken-quote.zip"), dict(FILES, **{"stops.txt": 'stop_id,stop_name\n1,"never closed\n'}))
    noise = random.Random(21)
    long_line = "".join(noise.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(2_000_000))
    write_zip(os.path.join(out, "long-line.zip"), dict(FILES, **{"stops.txt": "stop_id,stop_name\n1," + long_line + "\n"}))

    # Trip updates: T1 three minutes late at its first stop (propagates); T9 cancelled; a skipped
    # stop; a delay of -90 s (ten bytes of two's complement); an unknown field (extension 1000).
    t1 = ld(1, ld(1, "T1") + ld(3, "20251104") + ld(5, "545")) + \
        ld(2, v(1, 1) + ld(4, "1002") + ld(2, v(1, 180)) + ld(3, v(1, 180))) + \
        ld(2, v(1, 2) + ld(4, "1001") + v(5, 1)) + v(1000, 7)
    t9 = ld(1, ld(1, "T9") + v(4, 3))
    early = ld(1, ld(1, "T2")) + ld(2, v(1, 1) + ld(3, v(1, -90) + v(2, 1762363800)))
    feed = header() + ld(2, ld(1, "e1") + ld(3, t1)) + ld(2, ld(1, "e2") + ld(3, t9)) + ld(2, ld(1, "e3") + ld(3, early))
    with open(os.path.join(out, "tripupdates.pb"), "wb") as handle:
        handle.write(feed)
    translations = ld(1, ld(1, "Détour sur la 545") + ld(2, "fr")) + ld(1, ld(1, "545 detoured") + ld(2, "en"))
    alert = ld(1, v(1, 1762260000) + v(2, 1762300000)) + ld(5, ld(2, "545")) + ld(5, ld(5, "1001")) + v(7, 4) + \
        ld(10, translations) + ld(11, ld(1, ld(1, "Use stop 1003\u001b[2J")))
    with open(os.path.join(out, "alerts.pb"), "wb") as handle:
        handle.write(header() + ld(2, ld(1, "a1") + ld(5, alert)))

    hostile = {
        "bad-varint": header() + b"\x10" + b"\xff" * 11,
        "past-end": header() + key(2, 2) + varint(1_000_000) + b"short",
        "group": header() + key(2, 3),
        "deep": header() + ld(2, ld(1, "e") + ld(3, ld(99, ld(99, ld(99, ld(99, ld(99, b"x" * 3))))))),
        "many-stops": header() + ld(2, ld(3, ld(1, ld(1, "T1")) + ld(2, v(1, 1)) * 3000)),
        "year-9999": ld(1, ld(1, "2.0") + v(3, 253402300799)) + ld(2, ld(3, ld(1, ld(1, "T1")) + ld(2, v(1, 1) + ld(2, v(2, 253402300800))))),
        "truncated": header()[:-1],
    }
    for name, data in hostile.items():
        with open(os.path.join(out, "hostile-%s.pb" % name), "wb") as handle:
            handle.write(data)


if __name__ == "__main__":
    main()
