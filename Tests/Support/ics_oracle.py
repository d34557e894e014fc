#!/usr/bin/env python3
"""The occurrences of an iCalendar file in a window, by Python's icalendar and
recurring_ical_events (PyPI): the independent oracle `calendar events` is compared with.

usage: ics_oracle.py FILE ZONE START_DATE DAYS
Prints one line per occurrence starting in [START_DATE 00:00, +DAYS days) in ZONE, sorted:
`<start as UTC seconds>\t<all-day 0|1>\t<summary>`. Floating times are read in ZONE.
"""
import datetime
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def main():
    path, zone_name, start_text, days = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    zone = zoneinfo.ZoneInfo(zone_name)
    first = datetime.date.fromisoformat(start_text)
    last = first + datetime.timedelta(days=days)
    start = datetime.datetime.combine(first, datetime.time(), zone)
    end = datetime.datetime.combine(last, datetime.time(), zone)
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    rows = []
    for event in recurring_ical_events.of(calendar, skip_bad_series=True).between(start - datetime.timedelta(days=2), end + datetime.timedelta(days=2)):
        begin = event["DTSTART"].dt
        if isinstance(begin, datetime.datetime):
            if begin.tzinfo is None:
                begin = begin.replace(tzinfo=zone)
            all_day = 0
        else:
            begin = datetime.datetime.combine(begin, datetime.time(), zone)
            all_day = 1
        if not (start <= begin < end):
            continue
        rows.append((int(begin.timestamp()), all_day, str(event.get("SUMMARY", ""))))
    for row in sorted(rows):
        print(f"{row[0]}\t{row[1]}\t{row[2]}")


main()
