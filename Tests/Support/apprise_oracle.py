#!/usr/bin/env python3
"""The oracle for notifier URLs: what Apprise (PyPI `apprise`) sends for a URL.

  apprise_oracle.py URL TITLE BODY

Loads URL with Apprise, sends TITLE and BODY with every HTTP request intercepted before it leaves
(requests' Session.send: the request as it would go on the wire, auth and all), and prints one JSON
line per request: method, URL, the headers that carry meaning (Authorization and every X- header,
Content-Type), and the body (JSON decoded when it is JSON). Every request is answered 200 with a
body each plugin takes as success. A URL Apprise does not load prints {"refused": true}. Test-only.
"""
import json
import sys

import apprise
import requests


def answer(request):
    response = requests.models.Response()
    response.status_code = 200
    response.request = request
    response.url = request.url
    response._content = json.dumps({"ok": True, "result": {"message_id": 1}, "id": "1", "event_id": "$1",
                                    "room_id": "!room:host", "user_id": "@traveltimes:example.org", "status": 1, "request": "1"}).encode()
    response.headers["Content-Type"] = "application/json"
    return response


SENT = []


def send(self, request, **kwargs):
    body = request.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    try:
        body = json.loads(body) if body else None
    except ValueError:
        pass
    headers = {k: v for k, v in request.headers.items() if k.lower().startswith("x-") or k.lower() in ("authorization", "content-type")}
    SENT.append({"method": request.method, "url": request.url, "headers": headers, "body": body})
    return answer(request)


requests.sessions.Session.send = send


def main():
    url, title, body = sys.argv[1:4]
    notifier = apprise.Apprise()
    if not notifier.add(url):
        print(json.dumps({"refused": True}))
        return
    notifier.notify(title=title, body=body)
    for request in SENT:
        print(json.dumps(request, sort_keys=True))


if __name__ == "__main__":
    main()
