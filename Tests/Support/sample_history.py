#!/usr/bin/env python3
"""Writes Fixtures/history/sample-8-weeks.csv: eight weeks of readings for routes 1 and 96 of the
sample feed, every 15 minutes from 6:00 to 10:00 and 15:00 to 19:00 Pacific, up to the sample
feed's moment (2025-11-04 16:00), across the change back from daylight-saving time on Nov 2.
Seeded: the file is the same every run. `history import` reads it in the README.

    python3 Tests/Support/sample_history.py > Fixtures/history/sample-8-weeks.csv
"""
import datetime
import random
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("America/Los_Angeles")
END = datetime.datetime(2025, 11, 4, 16, 0, tzinfo=ZONE)


def minutes(route, local, rng):
    hour = local.hour + local.minute / 60
    weekday = local.weekday() < 5
    morning = max(0.0, 1 - abs(hour - 7.5) / 1.5) if weekday else 0.0
    evening = max(0.0, 1 - abs(hour - 17.25) / 1.75) if weekday else 0.0
    if route == 1:
        return 30 + int(24 * morning + 8 * evening) + rng.randint(-2, 5)
    return 13 + int(4 * morning + 14 * evening) + rng.randint(-1, 3)


def main():
    rng = random.Random(2025)
    print("route,at,minutes,source,suspicious")
    day = (END - datetime.timedelta(weeks=8)).date()
    while day <= END.date():
        for hour in list(range(6, 10)) + list(range(15, 19)):
            for quarter in range(4):
                local = datetime.datetime(day.year, day.month, day.day, hour, quarter * 15, tzinfo=ZONE)
                if local >= END:
                    continue
                for route in (1, 96):
                    print("%d,%s,%d,wsdot,false" % (route, local.isoformat(), minutes(route, local, rng)))
        day += datetime.timedelta(days=1)


if __name__ == "__main__":
    main()
