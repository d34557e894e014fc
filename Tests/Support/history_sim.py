#!/usr/bin/env python3
"""Weeks of WSDOT feeds for a simulated commuter, and what their history should say.

    history_sim.py OUT START END ZONE

Writes OUT/feeds/NNNN.json, one feed per reading (routes 1 and 96 of the sample feed, their
TimeUpdated and CurrentTime changed), OUT/plan.json (each feed with the moment to refresh it at,
some twice: the same reading fetched again) and OUT/expected.json: every reading, and the typical
times of each route's slots over the 8 weeks before END, computed here with Python's statistics
module — independently of the product.

Readings come every 30 minutes from 6:00 to 9:30 local time, each day from START to END, in ZONE,
so the simulation crosses any daylight-saving change between them.
"""
import datetime
import json
import os
import random
import statistics
import sys
from zoneinfo import ZoneInfo

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "wsdot", "travel-times-2025-11-04T1600-0800.json")


def wcf(moment):
    """/Date(ms-0800)/: WSDOT's form, with the local offset."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return "/Date(%d%s%02d%02d)/" % (int(moment.timestamp() * 1000), sign, minutes // 60, minutes % 60)


def minutes_for(route, local, rng):
    """A plausible morning: slower around 7:30 on weekdays, never faster than the road allows."""
    peak = 1 - abs(local.hour + local.minute / 60 - 7.5) / 2
    weekday = local.weekday() < 5
    if route == 1:
        return 28 + (int(22 * max(0, peak)) if weekday else 0) + rng.randint(-3, 6)
    return 12 + (int(10 * max(0, peak)) if weekday else 0) + rng.randint(-2, 4)


def main():
    out, start, end, zone = sys.argv[1], sys.argv[2], sys.argv[3], ZoneInfo(sys.argv[4])
    rng = random.Random(20)
    with open(FIXTURE) as handle:
        sample = {route["TravelTimeID"]: route for route in json.load(handle) if route["TravelTimeID"] in (1, 96)}
    os.makedirs(os.path.join(out, "feeds"), exist_ok=True)
    day = datetime.date.fromisoformat(start)
    last = datetime.date.fromisoformat(end)
    plan, readings = [], []
    while day < last:
        for half_hour in range(8):
            local = datetime.datetime(day.year, day.month, day.day, 6 + half_hour // 2, 30 * (half_hour % 2), tzinfo=zone)
            feed = []
            for route in (1, 96):
                minutes = minutes_for(route, local, rng)
                entry = dict(sample[route], TimeUpdated=wcf(local), CurrentTime=minutes)
                feed.append(entry)
                readings.append([str(route), int(local.timestamp()), minutes])
            path = os.path.join(out, "feeds", "%04d.json" % len(plan))
            with open(path, "w") as handle:
                json.dump(feed, handle)
            refreshed = local + datetime.timedelta(minutes=2)
            plan.append({"feed": path, "now": refreshed.isoformat()})
            if half_hour == 3:
                # The same reading fetched again: recorded once.
                plan.append({"feed": path, "now": (refreshed + datetime.timedelta(minutes=10)).isoformat()})
        day += datetime.timedelta(days=1)
    now = datetime.datetime(last.year, last.month, last.day, tzinfo=zone)
    window = (now.timestamp() - 8 * 7 * 86400, now.timestamp())
    slots = {}
    for route, at, minutes in readings:
        if not window[0] <= at < window[1]:
            continue
        local = datetime.datetime.fromtimestamp(at, zone)
        weekday = (local.weekday() + 1) % 7 + 1  # Sunday 1
        start_text = "%02d:%02d" % (local.hour, local.minute // 15 * 15)
        slot = slots.setdefault(route, {}).setdefault((weekday, start_text), {"minutes": [], "days": set()})
        slot["minutes"].append(minutes)
        slot["days"].add(local.date())
    expected = {"now": now.isoformat(), "readings": readings, "slots": {}}
    for route, by_slot in slots.items():
        rows = []
        for (weekday, start_text), slot in sorted(by_slot.items()):
            values = slot["minutes"]
            p90 = values[0] if len(values) == 1 else statistics.quantiles(values, n=10, method="inclusive")[8]
            rows.append({
                "weekday": weekday, "start": start_text, "median": round(statistics.median(values), 1),
                "p90": round(p90, 1), "readings": len(values), "weeks": len(slot["days"]),
            })
        expected["slots"][route] = rows
    with open(os.path.join(out, "plan.json"), "w") as handle:
        json.dump(plan, handle)
    with open(os.path.join(out, "expected.json"), "w") as handle:
        json.dump(expected, handle)


if __name__ == "__main__":
    main()
