#!/usr/bin/env python3
"""Normalizes a request to what a notifier URL means, for the Apprise oracle test: the service's
endpoint path, method, where the credentials go, priority, tags, thread, chat, title and message,
whichever way the request carries them (ntfy's JSON publish or its per-topic headers, Telegram's
chat as a number or a string).

  apprise_compare.py apprise URL TITLE BODY   what Apprise sends (through apprise_oracle.py)
  apprise_compare.py recorded LOG URL START   the last request recorder_server.py logged (of
                                              those from line START on)
  apprise_compare.py batch FILE TITLE BODY LOG   for each {"url", "start", "end"} in FILE (a JSON
                                              list), one line: [form, Apprise's, traveltimes']
                                              (Apprise loaded once, in this process)
Each prints one JSON object. Test-only.
"""
import base64
import json
import os
import subprocess
import sys
import urllib.parse

NTFY = {"min": 1, "low": 2, "default": 3, "high": 4, "max": 5, "urgent": 5}


def normal(method, url, headers, body):
    headers = {k.lower(): v for k, v in headers.items()}
    data = body
    if isinstance(body, str):
        try:
            data = json.loads(body) if body else None
        except ValueError:
            data = body
    out = {"method": method, "authorization": headers.get("authorization"),
           "endpoint": urllib.parse.urlsplit(url).path if "://" in url else url.split("?")[0]}
    # ntfy: a JSON publish to the server's root, or a POST to the topic with headers.
    priority = headers.get("x-priority") or headers.get("priority")
    if priority is not None:
        out["priority"] = NTFY.get(str(priority)) or int(priority)
    tags = headers.get("x-tags") or headers.get("tags")
    if tags:
        out["tags"] = sorted(t.strip() for t in tags.split(","))
    icon = headers.get("x-icon") or headers.get("icon")
    if icon:
        out["icon"] = icon
    if "x-title" in headers or "title" in headers:
        out["title"] = headers.get("x-title") or headers.get("title")
        out["message"] = data if isinstance(data, str) else None
    if isinstance(data, dict):
        if "topic" in data:
            out["endpoint"] = "/" + data["topic"]
        for key in ("title", "message", "chat_id", "message_thread_id", "disable_notification", "extras", "priority"):
            if key in data:
                out[key] = str(data[key]) if key == "chat_id" else data[key]
        if "text" in data:
            out["message"] = data["text"]
    if "x-www-form-urlencoded" in (headers.get("content-type") or "") and isinstance(data, str):
        form = dict(urllib.parse.parse_qsl(data))  # Pushover
        for key in ("user", "title", "message", "retry", "expire", "sound", "url", "url_title"):
            if key in form:
                out[key] = form[key]
        if out.get("sound") == "pushover":
            out.pop("sound")  # Pushover's own default sound, named or not
        out["priority"] = int(form.get("priority", 0))
        if form.get("device") and form["device"] != "ALL_DEVICES":
            out["device"] = sorted(form["device"].split(","))
        out.pop("authorization")  # Apprise sends the token as Basic auth too; the form carries it
    if "/api/webhooks/" in out["endpoint"] and isinstance(data, dict):  # Discord
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
        out["thread_id"] = query.get("thread_id")
        out["username"], out["tts"] = data.get("username"), bool(data.get("tts", False))
        if data.get("embeds"):
            out["message"] = data["embeds"][0].get("title", "") + "\n" + data["embeds"][0].get("description", "")
        else:
            out["message"] = data.get("content", "").replace("**", "")
    if "/services/" in out["endpoint"] and isinstance(data, dict):  # Slack
        out["username"], out["channel"] = data.get("username"), data.get("channel")
        if data.get("attachments"):
            out["message"] = data["attachments"][0].get("title", "") + "\n" + data["attachments"][0].get("text", "")
        else:
            first, _, rest = data.get("text", "").partition("\n")
            out["message"] = first.strip("*") + "\n" + rest
    if isinstance(data, dict) and data.get("version") == "1.0":  # Apprise's JSON payload
        out["query"] = urllib.parse.urlsplit(url).query
        out["headers"] = {k: v for k, v in headers.items() if k.startswith("x-")}
        out["fields"] = {k: v for k, v in data.items() if k not in ("id", "body", "urgency", "attachments")}
    is_ntfy = "x-title" in headers or "title" in headers or (isinstance(data, dict) and "topic" in data)
    if is_ntfy and "priority" not in out:
        out["priority"] = 3  # ntfy's default, whether said or not
    if isinstance(out.get("message"), str):
        out["message"] = out["message"].replace("\r\n", "\n").strip()
    return out


def matrix(requests):
    """A Matrix delivery: the rooms joined, in order, and what was sent to each (the message's
    title line without Apprise's Markdown heading mark)."""
    joins = [urllib.parse.unquote(urllib.parse.urlsplit(r["url"]).path.split("/join/")[1]) for r in requests if "/join/" in r["url"]]
    sends = []
    for r in requests:
        if "/send/m.room.message/" in r["url"]:
            body = r["body"] if isinstance(r["body"], dict) else json.loads(r["body"])
            text = body.get("body", "").replace("\r\n", "\n")
            sends.append({"msgtype": body.get("msgtype"), "body": text[2:] if text.startswith("# ") else text,
                          "authorization": {k.lower(): v for k, v in r["headers"].items()}.get("authorization")})
    return {"joins": sorted(joins), "sends": sends}


def apprise_requests(url, title, body):
    """What Apprise sends for URL, through apprise_oracle's interception, in this process."""
    sys.path.insert(0, os.path.dirname(__file__))
    import apprise
    import apprise_oracle
    apprise_oracle.SENT.clear()
    notifier = apprise.Apprise()
    if not notifier.add(url):
        return None
    notifier.notify(title=title, body=body)
    return list(apprise_oracle.SENT)


def theirs(url, requests):
    if requests is None:
        return {"refused": True}
    if not requests:
        return {"none": True}
    if "matrix" in url.split(":")[0]:
        return matrix(requests)
    # Every request, in an order of their meaning (a message to several chats, devices and
    # groups is several requests, whichever goes first).
    outs = []
    for request in requests:
        out = normal(request["method"], request["url"], request["headers"], request["body"])
        if "avatar_url=" not in url:
            out.pop("icon", None)  # Apprise's own image, by default
        outs.append(out)
    return sorted(outs, key=lambda out: json.dumps(out, sort_keys=True)) if len(outs) > 1 else outs[0]


def ours(url, lines):
    if not lines:
        return {"none": True}
    if "matrix" in url.split(":")[0]:
        requests = [json.loads(line) for line in lines]
        for r in requests:
            r["url"] = r["path"]
        return matrix(requests)
    outs = []
    for line in lines:
        request = json.loads(line)
        out = normal(request["method"], request["path"], request["headers"], request["body"])
        if "tags=" not in url:
            out.pop("tags", None)  # traveltimes' own ntfy tags (a car), by default
        outs.append(out)
    return sorted(outs, key=lambda out: json.dumps(out, sort_keys=True)) if len(outs) > 1 else outs[0]


def main():
    if sys.argv[1] == "batch":
        forms = json.load(open(sys.argv[2]))
        title, body, log = sys.argv[3], sys.argv[4], sys.argv[5]
        lines = open(log).read().splitlines()
        for form in forms:
            mine = ours(form["url"], lines[form["start"]:form["end"]])
            print(json.dumps([form["form"], json.dumps(theirs(form["url"], apprise_requests(form["url"], title, body)), sort_keys=True),
                              json.dumps(mine, sort_keys=True)]))
        return
    if sys.argv[1] == "apprise":
        oracle = os.path.join(os.path.dirname(__file__), "apprise_oracle.py")
        lines = subprocess.run([sys.executable, oracle] + sys.argv[2:5], capture_output=True, text=True).stdout.splitlines()
        if not lines:
            print(json.dumps({"none": True}))
            return
        first = json.loads(lines[0])
        if "matrix" in sys.argv[2].split(":")[0]:
            print(json.dumps(matrix([json.loads(line) for line in lines]), sort_keys=True))
            return
        if first.get("refused"):
            print(json.dumps(first))
            return
        out = normal(first["method"], first["url"], first["headers"], first["body"])
        if "avatar_url=" not in sys.argv[2]:
            out.pop("icon", None)  # Apprise's own image, by default
        print(json.dumps(out, sort_keys=True))
    else:
        lines = open(sys.argv[2]).read().splitlines()[int(sys.argv[4]):]
        if "matrix" in sys.argv[3].split(":")[0]:
            requests = [json.loads(line) for line in lines]
            for r in requests:
                r["url"] = r["path"]
            print(json.dumps(matrix(requests), sort_keys=True))
            return
        last = json.loads(lines[-1])
        out = normal(last["method"], last["path"], last["headers"], last["body"])
        if "tags=" not in sys.argv[3]:
            out.pop("tags", None)  # traveltimes' own ntfy tags (a car), by default
        print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
