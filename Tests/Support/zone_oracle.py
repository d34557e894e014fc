"""The oracle for IANAZone: Python's zoneinfo (its own reader of the same tz database, RFC 8536
and the POSIX footer) gives each zone's UTC offset at each instant.

    python3 zone_oracle.py ZONE... < instants     # one instant (seconds since 1970) a line
prints, for each zone and instant, `ZONE INSTANT OFFSET`, in that order.
"""
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

instants = [int(line) for line in sys.stdin if line.strip()]
for name in sys.argv[1:]:
    zone = ZoneInfo(name)
    for instant in instants:
        moment = datetime.fromtimestamp(instant, tz=timezone.utc).astimezone(zone)
        print(name, instant, int(moment.utcoffset().total_seconds()))
