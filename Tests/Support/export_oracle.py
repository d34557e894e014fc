#!/usr/bin/env python3
"""The oracles for the iCalendar and Prometheus exports.

  export_oracle.py ics FILE   reads FILE with icalendar (PyPI), checks what icalendar does not
                              (every line ends in CRLF, at most 75 octets; RFC 5545 §3.1), validates
                              the calendar and each event's required properties, and prints one
                              line per event: UID, DTSTART, DTEND (UTC), SUMMARY, DESCRIPTION.
  export_oracle.py prom FILE  reads FILE with prometheus_client's text parser, checks what it is
                              lenient about (no timestamps, one TYPE per name and before its
                              samples, each family's lines together, the last line ended), and
                              prints one line per sample: family, type, name, labels, value.
Exits 1, saying why, on anything wrong. Test-only.
"""
import datetime
import json
import sys


def fail(message):
    print(message)
    sys.exit(1)


def ics(path):
    import icalendar
    data = open(path, "rb").read()
    for number, line in enumerate(data.split(b"\r\n")[:-1], 1):
        if b"\n" in line or b"\r" in line:
            fail("line %d does not end in CRLF" % number)
        if len(line) > 75:
            fail("line %d is %d octets" % (number, len(line)))
    if not data.endswith(b"\r\n"):
        fail("the last line does not end in CRLF")
    calendar = icalendar.Calendar.from_ical(data)
    for name in ("PRODID", "VERSION"):
        if name not in calendar:
            fail("no " + name)
    if not calendar.subcomponents:
        fail("no component")
    for component in calendar.walk():
        if getattr(component, "errors", None):
            fail("%s: %s" % (component.name, component.errors))
    for event in calendar.walk("VEVENT"):
        for name in ("UID", "DTSTAMP", "DTSTART", "DTEND"):
            if name not in event:
                fail("an event has no " + name)
        if event.decoded("DTSTAMP").utcoffset() != datetime.timedelta(0):
            fail("DTSTAMP is not UTC")
        start, end = event.decoded("DTSTART"), event.decoded("DTEND")
        if end <= start:
            fail("an event ends before it starts")
        print(json.dumps([str(event["UID"]), start.isoformat(), end.isoformat(), str(event["SUMMARY"]), str(event["DESCRIPTION"])]))


def prom(path):
    from prometheus_client.parser import text_string_to_metric_families
    text = open(path, encoding="utf-8").read()
    if not text.endswith("\n"):
        fail("the last line is not ended")
    typed, seen, current = set(), set(), None
    for line in text.split("\n")[:-1]:
        if line.startswith("# TYPE "):
            name = line.split(" ")[2]
            if name in typed:
                fail("a second TYPE for " + name)
            typed.add(name)
            current = name
            continue
        if line.startswith("#") or not line:
            continue
        name = line.split("{")[0].split(" ")[0]
        if current is None or not name.startswith(current):
            fail("a sample outside its family: " + line)
        values = line.rsplit("}", 1)[-1] if "}" in line else line[len(name):]
        if len(values.split()) != 1:
            fail("a timestamp or more than one value: " + line)
        key = line.rsplit(" ", 1)[0]
        if key in seen:
            fail("a sample twice: " + key)
        seen.add(key)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            print(json.dumps([family.name, family.type, sample.name, sample.labels, sample.value]))


if __name__ == "__main__":
    {"ics": ics, "prom": prom}[sys.argv[1]](sys.argv[2])
