#!/usr/bin/env python3
"""Timetables for the tests of what the product says about transit (TruthTests), made with
Python's zipfile, independently of the product:

    transit_truth.py OUT

  loop.zip       one loop trip a day that calls at A, B, C, then A and B again
                 (A 8:00 -> B 8:10 -> C 8:20 -> A 8:30 -> B 8:40): two departures from A to B,
                 as gtfs-kit counts them; service every day from 2020 to 2099
  only-2030.zip  the bundled sample's timetable with service only in 2030, as it once was
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transit_sample  # noqa: E402

AGENCY = "agency_id,agency_name,agency_url,agency_timezone\nloop,Loop Transit,https://example.org,America/Los_Angeles\n"
STOPS = "stop_id,stop_name,stop_lat,stop_lon\nA,Alder St,47.60,-122.30\nB,Birch St,47.61,-122.31\nC,Cedar St,47.62,-122.32\n"
ROUTES = "route_id,agency_id,route_short_name,route_long_name,route_type\nL1,loop,1,Loop,3\n"
TRIPS = "route_id,service_id,trip_id,trip_headsign\nL1,DAILY,LOOP-0800,Loop\n"
STOP_TIMES = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" \
    "LOOP-0800,08:00:00,08:00:00,A,1\nLOOP-0800,08:10:00,08:10:00,B,2\nLOOP-0800,08:20:00,08:20:00,C,3\n" \
    "LOOP-0800,08:30:00,08:30:00,A,4\nLOOP-0800,08:40:00,08:40:00,B,5\n"
CALENDAR = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n" \
    "DAILY,1,1,1,1,1,1,1,20200101,20991231\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    transit_sample.write_zip(os.path.join(out, "loop.zip"), {
        "agency.txt": AGENCY, "stops.txt": STOPS, "routes.txt": ROUTES, "trips.txt": TRIPS, "stop_times.txt": STOP_TIMES,
        "calendar.txt": CALENDAR})
    trips, stop_times = transit_sample.timetable()
    transit_sample.write_zip(os.path.join(out, "only-2030.zip"), {
        "agency.txt": transit_sample.AGENCY, "stops.txt": transit_sample.STOPS, "routes.txt": transit_sample.ROUTES,
        "trips.txt": trips, "stop_times.txt": stop_times,
        "calendar.txt": transit_sample.CALENDAR.replace("20200101,20991231", "20300101,20301231"),
        "calendar_dates.txt": transit_sample.CALENDAR_DATES})


if __name__ == "__main__":
    main()
