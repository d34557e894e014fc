#!/usr/bin/env python3
"""Every occurrence of every calendar in a folder, by Python's icalendar and recurring_ical_events
(PyPI): the oracle `calendar events` is compared with on the corpus of real calendars.

usage: ics_corpus.py FOLDER ZONE DAYS
Prints one JSON object: for each .ics file the oracle reads, {"start": "YYYY-MM-DD", "lines":
[...]}, where start is the local date of the file's earliest DTSTART in ZONE and lines are the
occurrences starting in [start 00:00, +DAYS days) in ZONE, sorted, each
`<start as UTC seconds>\t<all-day 0|1>\t<summary>` (floating times read in ZONE, after
recurring_ical_events has applied X-WR-TIMEZONE); for a file it cannot read, {"error": "..."}.
Bad series are skipped, as `skip_bad_series=True` does.
"""
import datetime
import json
import os
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def local_date(value, zone):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.date()
        return value.astimezone(zone).date()
    return value


def read(path, zone, days):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    starts = []
    for event in calendar.walk("VEVENT"):
        start = event.get("DTSTART")
        if start is not None and isinstance(start.dt, (datetime.date, datetime.datetime)):
            starts.append(local_date(start.dt, zone))
    if not starts:
        return None
    first = min(starts)
    last = first + datetime.timedelta(days=days)
    begin = datetime.datetime.combine(first, datetime.time(), zone)
    end = datetime.datetime.combine(last, datetime.time(), zone)
    rows = []
    for event in recurring_ical_events.of(calendar, skip_bad_series=True).between(begin - datetime.timedelta(days=2), end + datetime.timedelta(days=2)):
        moment = event["DTSTART"].dt
        if isinstance(moment, datetime.datetime):
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=zone)
            all_day = 0
        else:
            moment = datetime.datetime.combine(moment, datetime.time(), zone)
            all_day = 1
        if begin <= moment < end:
            rows.append((int(moment.timestamp()), all_day, str(event.get("SUMMARY", ""))))
    return {"start": first.isoformat(), "lines": [f"{a}\t{b}\t{c}" for a, b, c in sorted(rows)]}


def main():
    folder, zone_name, days = sys.argv[1], sys.argv[2], int(sys.argv[3])
    zone = zoneinfo.ZoneInfo(zone_name)
    answers = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".ics"):
            continue
        try:
            answer = read(os.path.join(folder, name), zone, days)
        except Exception as error:  # the oracle's own refusal: compared with nothing
            answer = {"error": f"{type(error).__name__}: {error}"[:200]}
        if answer is not None:
            answers[name] = answer
    json.dump(answers, sys.stdout, indent=1, ensure_ascii=False)


main()
