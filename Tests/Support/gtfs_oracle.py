#!/usr/bin/env python3
"""Which trips serve two stops on a day, by gtfs-kit (PyPI): the oracle a transit route's
departures are compared with on a real agency's feed.

usage: gtfs_oracle.py FEED.zip samples SEED COUNT
    Prints a JSON list of COUNT samples chosen with SEED from the feed's own trips: each
    {"from", "to", "date" (YYYYMMDD), "time" (HH:MM:SS)}, half of them at a call where a night bus
    neither picks up nor sets down (pickup_type or drop_off_type 1), and none at a call without
    a time (which gtfs-kit leaves blank).
usage: gtfs_oracle.py FEED.zip departures < SAMPLES.json
    Prints, for each sample, the departures from `from` at or after `time` on `date` that reach
    `to`, soonest first, at most 10: [trip_id, departure HH:MM:SS, arrival HH:MM:SS]. A trip is
    taken where its call at `from` lets riders on (pickup_type not 1) and a later call at `to`
    lets them off (drop_off_type not 1); each call at `to` is reached from the last call at `from`
    before it. gtfs-kit's build_stop_timetable decides which trips run that day (calendar.txt and
    calendar_dates.txt).
"""
import json
import random
import sys

import gtfs_kit


def seconds(text):
    hours, minutes, secs = (int(part) for part in text.split(":"))
    return hours * 3600 + minutes * 60 + secs


def clock(value):
    return "%02d:%02d:%02d" % (value // 3600, value // 60 % 60, value % 60)


def allowed(value):
    # gtfs-kit reads the column as numbers (NaN where blank): 1 is "no".
    try:
        return int(float(value)) != 1
    except (TypeError, ValueError):
        return True


def timed(value):
    return isinstance(value, str) and value.count(":") == 2


def departures(feed, sample):
    date = sample["date"]
    a = gtfs_kit.build_stop_timetable(feed, sample["from"], [date])
    b = gtfs_kit.build_stop_timetable(feed, sample["to"], [date])
    boards = {}
    for row in a.itertuples():
        if allowed(row.pickup_type) and timed(row.departure_time):
            boards.setdefault(row.trip_id, []).append((int(row.stop_sequence), seconds(row.departure_time)))
    found = []
    for trip, rows in b.groupby("trip_id"):
        if trip not in boards:
            continue
        previous = -1
        for row in sorted(rows.itertuples(), key=lambda r: int(r.stop_sequence)):
            sequence = int(row.stop_sequence)
            if not (allowed(row.drop_off_type) and timed(row.arrival_time)):
                continue
            before = [call for call in boards[trip] if previous < call[0] < sequence]
            if before:
                leave = max(before)[1]
                found.append((leave, seconds(row.arrival_time), trip))
            previous = sequence
    start = seconds(sample["time"])
    chosen = sorted(item for item in found if item[0] >= start)[:10]
    return [[trip, clock(leave), clock(arrive)] for leave, arrive, trip in chosen]


def samples(feed, seed, count):
    generator = random.Random(seed)
    times = feed.stop_times.sort_values(["trip_id", "stop_sequence"])
    calendar = feed.calendar
    first, last = str(calendar.start_date.min()), str(calendar.end_date.max())
    dates = gtfs_kit.helpers.datestr_to_date(first), gtfs_kit.helpers.datestr_to_date(last)
    trips = {trip: rows for trip, rows in times.groupby("trip_id")}
    names = sorted(trips)
    restricted = sorted({row.trip_id for row in times.itertuples() if not allowed(row.pickup_type) or not allowed(row.drop_off_type)})
    chosen = []
    while len(chosen) < count:
        pool = restricted if len(chosen) % 2 == 0 and restricted else names
        rows = list(trips[generator.choice(pool)].itertuples())
        i, j = sorted(generator.sample(range(len(rows)), 2))
        if not (timed(rows[i].departure_time) and timed(rows[j].arrival_time)) or rows[i].stop_id == rows[j].stop_id:
            continue
        day = dates[0] + (dates[1] - dates[0]) * generator.random()
        chosen.append({"from": rows[i].stop_id, "to": rows[j].stop_id, "date": day.strftime("%Y%m%d"),
                       "time": clock(generator.randrange(5 * 3600, 22 * 3600, 60))})
    return chosen


def main():
    feed = gtfs_kit.read_feed(sys.argv[1], dist_units="km")
    if sys.argv[2] == "samples":
        json.dump(samples(feed, int(sys.argv[3]), int(sys.argv[4])), sys.stdout, indent=1)
    else:
        json.dump([departures(feed, sample) for sample in json.load(sys.stdin)], sys.stdout, indent=1)


main()
