#!/usr/bin/env python3
"""A loopback stand-in for an MQTT 3.1.1 broker, for the README's tour (the tests also publish to
a real mosquitto): CONNECT answered with CONNACK (code 5, not authorized, unless the user name and
password are USER and PASSWORD), each PUBLISH kept as the topic's retained message (an empty one
clears it) and acknowledged with PUBACK at QoS 1, DISCONNECT closes; a connection lost without one
publishes the client's last will. Packets as OASIS MQTT 3.1.1
§3 gives them (measured against mosquitto 2.0.11).

Usage: mqtt_server.py LOG [USER PASSWORD] -- prints its port on the first line of stdout, writes
the retained messages to LOG as a JSON object {topic: payload} after each PUBLISH, and exits when
its stdin closes or after 300 seconds ($STAND_IN_SECONDS). Test-only; standard library only; binds 127.0.0.1.
"""
import json
import os
import socket
import sys
import threading
import time

LOG = sys.argv[1]
USER = sys.argv[2] if len(sys.argv) > 3 else None
PASSWORD = sys.argv[3] if len(sys.argv) > 3 else None
LOCK = threading.Lock()
RETAINED = {}


def read_exact(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_packet(conn):
    first = read_exact(conn, 1)[0]
    length, shift = 0, 0
    while True:
        byte = read_exact(conn, 1)[0]
        length |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
        if shift > 21:
            raise ValueError("remaining length too long")
    return first, read_exact(conn, length)


def string(data, at):
    size = int.from_bytes(data[at:at + 2], "big")
    return data[at + 2:at + 2 + size].decode("utf-8"), at + 2 + size


def serve(conn):
    with conn:
        conn.settimeout(10)
        try:
            first, body = read_packet(conn)
            if first >> 4 != 1 or body[:6] != b"\x00\x04MQTT" or body[6] != 4:
                conn.sendall(b"\x20\x02\x00\x01")
                return
            flags = body[7]
            at = 10
            _client, at = string(body, at)
            will = None
            if flags & 0x04:
                # The last will (§3.1.2.5): published, retained if asked, when the client
                # vanishes without a DISCONNECT.
                will_topic, at = string(body, at)
                size = int.from_bytes(body[at:at + 2], "big")
                will = (will_topic, body[at + 2:at + 2 + size].decode("utf-8", "replace"), bool(flags & 0x20))
                at += 2 + size
            user = password = None
            if flags & 0x80:
                user, at = string(body, at)
            if flags & 0x40:
                password, at = string(body, at)
            if USER is not None and (user, password) != (USER, PASSWORD):
                conn.sendall(b"\x20\x02\x00\x05")
                return
            conn.sendall(b"\x20\x02\x00\x00")
            while True:
                try:
                    first, body = read_packet(conn)
                except (EOFError, OSError):
                    if will and will[2]:
                        with LOCK:
                            RETAINED[will[0]] = will[1]
                            with open(LOG, "w") as log:
                                json.dump(RETAINED, log, sort_keys=True)
                    return
                kind = first >> 4
                if kind == 14:
                    return
                if kind != 3:
                    continue
                qos = (first >> 1) & 3
                topic, at = string(body, 0)
                if qos:
                    packet_id, at = body[at:at + 2], at + 2
                payload = body[at:].decode("utf-8", "replace")
                with LOCK:
                    if first & 1:
                        if payload:
                            RETAINED[topic] = payload
                        else:
                            RETAINED.pop(topic, None)
                    with open(LOG, "w") as log:
                        json.dump(RETAINED, log, sort_keys=True)
                if qos:
                    conn.sendall(b"\x40\x02" + packet_id)
        except (EOFError, OSError, ValueError):
            return


def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    print(listener.getsockname()[1], flush=True)

    def accept():
        while True:
            conn, _ = listener.accept()
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    deadline = time.time() + float(os.environ.get("STAND_IN_SECONDS", "300"))
    while time.time() < deadline:
        if not sys.stdin.readline():
            break


if __name__ == "__main__":
    main()
