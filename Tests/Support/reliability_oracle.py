#!/usr/bin/env python3
"""Reliability and --on-time leave times computed from `traveltimes history export` alone, with
Python's statistics and zoneinfo: the independent computation `reliability --json` is checked
against. The rules, as README and `reliability --help` state them:

- a day's time for leaving at minute m of the day is its sound reading nearest that moment, within
  15 minutes either side (the later of two as near); a day without one is not counted;
- the days are those of the weekday before today's date (a day not over is not counted);
- the planned leave time is the latest whole minute m, from the arrival less the buffer less one
  back to 180 minutes before that, with at least 5 days, whose estimate (statistics.median, or for
  P% the nearest rank: sorted[ceil(P*n/100) - 1]) satisfies m + estimate <= arrival - buffer;
- a day is on time when m + its time <= arrival.

    reliability_oracle.py EXPORT.jsonl SCHEDULES.json NOW ZONE
SCHEDULES.json: [{"arrive": "09:00", "buffer": 5, "percent": null, "weekdays": [2..6], "routes": ["1", "96"]}]
Prints the `ways` of each schedule as `reliability --json` gives them.
"""
import bisect
import datetime
import json
import math
import statistics
import sys
from zoneinfo import ZoneInfo

REACH = 15 * 60
MINIMUM = 5
SPAN = 180


def main():
    export, schedules_path, now_text, zone_name = sys.argv[1:5]
    zone = ZoneInfo(zone_name)
    now = datetime.datetime.fromisoformat(now_text)
    today = now.astimezone(zone).date()
    readings = {}
    with open(export) as handle:
        for line in handle:
            record = json.loads(line)
            if record["suspicious"]:
                continue
            at = int(datetime.datetime.fromisoformat(record["at"]).timestamp())
            readings.setdefault(record["route"], []).append((at, record["minutes"]))
    for values in readings.values():
        values.sort()
    with open(schedules_path) as handle:
        schedules = json.load(handle)
    out = []
    for schedule in schedules:
        hour, minute = map(int, schedule["arrive"].split(":"))
        arrival = hour * 60 + minute
        buffer = schedule["buffer"]
        percent = schedule["percent"]
        ways = []
        for route in schedule["routes"]:
            days_out = []
            for weekday in schedule["weekdays"]:
                days_out.append(day_figures(readings.get(route, []), weekday, arrival, buffer, percent, today, zone))
            ways.append({"route": route, "days": days_out})
        out.append(ways)
    print(json.dumps(out, sort_keys=True))


def instant(day, minute_of_day, zone):
    local = datetime.datetime(day.year, day.month, day.day, minute_of_day // 60, minute_of_day % 60, tzinfo=zone)
    return int(local.timestamp())


def day_figures(route_readings, weekday, arrival, buffer, percent, today, zone):
    latest = arrival - buffer - 1
    earliest = max(0, arrival - buffer - SPAN)
    # Weekday numbers as traveltimes writes them: Sunday 1 … Saturday 7.
    python_weekday = (weekday - 2) % 7
    first = route_readings[0][0] if route_readings else None
    moments = [at for at, _ in route_readings]
    days = []
    day = today - datetime.timedelta(days=1)
    while day.weekday() != python_weekday:
        day -= datetime.timedelta(days=1)
    while first is not None:
        start = instant(day, earliest, zone)
        end = instant(day, latest, zone)
        if end + REACH < first:
            break
        near = route_readings[bisect.bisect_left(moments, start - REACH):bisect.bisect_right(moments, end + REACH)]
        if near:
            days.append((day, near))
        day -= datetime.timedelta(days=7)

    def times(minute_of_day):
        result = []
        for day, near in days:
            moment = instant(day, minute_of_day, zone)
            best = None
            ats = [at for at, _ in near]
            for at, minutes in near[bisect.bisect_left(ats, moment - REACH):bisect.bisect_right(ats, moment + REACH)]:
                distance = abs(at - moment)
                if distance <= REACH and (best is None or distance <= best[0]):
                    best = (distance, minutes)
            if best is not None:
                result.append(best[1])
        return result

    def estimate(values):
        if percent is None:
            return float(statistics.median(values))
        ordered = sorted(values)
        return float(ordered[math.ceil(percent * len(ordered) / 100) - 1])

    planned = None
    for leave in range(latest, earliest - 1, -1):
        values = times(leave)
        if len(values) >= MINIMUM and leave + estimate(values) <= arrival - buffer:
            planned = (leave, estimate(values))
            break
    figures = {"weekday": weekday, "recordedDays": len(days)}
    if planned is None:
        figures.update({"leave": None, "estimateMinutes": None, "days": 0, "onTime": None, "medianSpare": None, "latestLate": None})
        return figures
    leave, value = planned
    values = times(leave)
    spares = [arrival - leave - minutes for minutes in values]
    late = [-spare for spare in spares if spare < 0]
    figures.update({
        "leave": "%02d:%02d" % (leave // 60, leave % 60),
        "estimateMinutes": value,
        "days": len(values),
        "onTime": sum(1 for spare in spares if spare >= 0),
        "medianSpare": float(statistics.median(spares)),
        "latestLate": max(late) if late else None,
    })
    return figures


if __name__ == "__main__":
    main()
