#!/usr/bin/env python3
"""The JSON oracle for the fuzz tests: Python's json module, held to RFC 8259 as traveltimes reads it.

Usage: json_oracle.py < LIST  -- reads file paths, one per line, and prints one line per file: its
canonical form, or "error".

Python's json is lenient where traveltimes is strict, so it is tightened here: the bytes must be
UTF-8 (no BOM), NaN and Infinity are refused, a string with a lone surrogate is refused, a number
too large for a double is refused, nesting past 64 levels is refused, and a key given twice keeps
its first value (Foundation's JSONDecoder does the same). The canonical form is the one
JSONFuzzTests.swift builds from JSONReader: n, t, f; i<integer> for an integer literal that fits
in 64 bits; d<16 hex digits of the double's bits> for any other number; s<hex of the UTF-8>;
[a,b]; {key:value,...} with keys (as hex) sorted. Test-only; standard library only.
"""
import json
import math
import struct
import sys

MAX_DEPTH = 64


class Refused(Exception):
    pass


def refuse(*_):
    raise Refused()


def parse_int(text):
    value = int(text)
    if -(2 ** 63) <= value < 2 ** 63:
        return ("i", value)
    return ("d", finite(float(text)))


def parse_float(text):
    return ("d", finite(float(text)))


def finite(value):
    if math.isinf(value) or math.isnan(value):
        raise Refused()
    return value


def first_wins(pairs):
    # Every pair is kept, to be checked (a later value is read, then dropped, as the reader does).
    return ("o", pairs)


def text(value):
    try:
        return value.encode("utf-8").hex()
    except UnicodeEncodeError:  # a lone surrogate from a \u escape
        raise Refused()


def canonical(value, depth=0):
    """`depth` is how many containers enclose `value`."""
    if value is None:
        return "n"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, str):
        return "s" + text(value)
    if isinstance(value, list):
        if depth + 1 > MAX_DEPTH:
            raise Refused()
        return "[" + ",".join(canonical(item, depth + 1) for item in value) + "]"
    kind, payload = value
    if kind == "i":
        return "i%d" % payload
    if kind == "d":
        return "d" + struct.pack(">d", payload).hex()
    if depth + 1 > MAX_DEPTH:
        raise Refused()
    members = {}
    for key, item in payload:
        member = (text(key), canonical(item, depth + 1))
        members.setdefault(member[0], member[1])
    return "{" + ",".join("%s:%s" % member for member in sorted(members.items())) + "}"


def read(path):
    data = open(path, "rb").read()
    try:
        document = data.decode("utf-8")
        value = json.loads(
            document, object_pairs_hook=first_wins, parse_int=parse_int, parse_float=parse_float, parse_constant=refuse)
        return canonical(value)
    except (Refused, UnicodeDecodeError, ValueError, RecursionError):
        return "error"


for line in sys.stdin:
    print(read(line.rstrip("\n")))
