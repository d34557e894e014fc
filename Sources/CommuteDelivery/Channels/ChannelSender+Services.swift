import FoundationEssentials

extension ChannelSender {
    func ntfy(_ operation: AlertOperation, _ ntfy: Channel.Ntfy) -> AlertReceipt {
        var headers: [String: String] = [:]
        if let authorization = ntfy.authorization { headers["Authorization"] = authorization }
        let topic = "\(ntfy.server)/\(ntfy.topic)"
        func publish(_ message: AlertMessage, to url: String) -> Answer {
            var headers = headers
            headers["Content-Type"] = "text/plain; charset=utf-8"
            headers["Title"] = WebhookNotifier.headerValue(Limits.cut(message.title, to: 250))
            headers["Priority"] = String(message.urgency == "critical" ? 5 : ntfy.priority ?? 3)
            headers["Tags"] = (ntfy.tags.isEmpty ? ["car", "traveltimes"] : ntfy.tags).joined(separator: ",")
            if let click = ntfy.click { headers["Click"] = click }
            if let icon = ntfy.icon { headers["Icon"] = icon }
            return request("POST", url, headers: headers, body: Data(Limits.cutBytes(message.body, to: 4_096).utf8), service: "ntfy")
        }
        switch operation {
        case .send(let message):
            // The sequence ID is chosen before sending: a resend after a crash replaces the
            // notification the first attempt made (ntfy 2.16; an older server ignores it).
            guard let sequence = message.idempotencyKey else { return publish(message, to: topic).receipt(handle: \.["id"]) }
            headers["X-Sequence-ID"] = sequence
            let answer = publish(message, to: topic)
            return answer.receipt(handle: answer["sequence_id"] == sequence ? \.["sequence_id"] : \.["id"])
        case .update(let message, let handle):
            // ntfy 2.16 replaces the message with the same ID; an older server answers 404, and
            // the alert is sent anew.
            let answer = publish(message, to: "\(topic)/\(Self.pathSegment(handle))")
            if answer.status == 404 { return publish(message, to: topic).receipt(handle: \.["id"]) }
            return answer.receipt(handle: \.["sequence_id"], keeping: handle)
        case .clear(let handle):
            return request("PUT", "\(topic)/\(Self.pathSegment(handle))/clear", headers: headers, body: nil, service: "ntfy")
                .receipt(keeping: handle)
        }
    }

    // MARK: Gotify

    func gotify(_ operation: AlertOperation, _ gotify: Channel.Gotify) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Gotify cannot clear a message with an application token") }
        var object: [String: Any] = [
            "title": message.title, "message": message.body,
            "priority": message.urgency == "critical" ? max(gotify.priority, 8) : gotify.priority,
        ]
        if gotify.markdown { object["extras"] = ["client::display": ["contentType": "text/markdown"]] }
        return request(
            "POST", "\(gotify.server)/message", headers: ["X-Gotify-Key": gotify.token, "Content-Type": "application/json"],
            body: Self.json(object), service: "Gotify"
        ).receipt(handle: \.["id"])
    }

    // MARK: Pushover

    func pushover(_ operation: AlertOperation, _ pushover: Channel.Pushover) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Pushover cannot clear a message") }
        // One rule on every channel: a critical alert goes out at least high (it sounds through
        // the phone's quiet hours), whatever lower priority the URL gives; only a URL that asks
        // for emergency (2) gets that, with its retry and expiry.
        let priority = message.urgency == "critical" ? max(pushover.priority ?? 1, 1) : pushover.priority ?? 0
        let url = base(.pushoverURL, "https://api.pushover.net") + "/1/messages.json"
        var receipt = AlertReceipt(result: .delivered, handle: nil)
        // As Apprise sends it: the account's devices (all of them when none is named, unless only
        // groups are) in one message, then each group by its own key.
        var recipients: [(user: String, devices: [String])] = pushover.groups.map { ($0, []) }
        if !pushover.devices.isEmpty || pushover.groups.isEmpty { recipients.insert((pushover.user, pushover.devices), at: 0) }
        for (user, devices) in recipients {
            var fields = [
                ("token", pushover.token), ("user", user), ("title", Limits.cut(message.title, to: 250)),
                ("message", Limits.cut(message.body, to: 1_024)), ("priority", String(priority)),
            ]
            if !devices.isEmpty { fields.append(("device", devices.joined(separator: ","))) }
            if let sound = pushover.sound { fields.append(("sound", sound)) }
            if let link = pushover.link { fields.append(("url", link)) }
            if let title = pushover.linkTitle { fields.append(("url_title", title)) }
            if priority == 2 { fields += [("retry", String(pushover.retry)), ("expire", String(pushover.expire))] }
            receipt = request("POST", url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Self.form(fields), service: "Pushover")
                .receipt(handle: \.["request"])
            guard case .delivered = receipt.result else { return receipt }
        }
        return receipt
    }

    // MARK: Telegram

    func telegram(_ operation: AlertOperation, _ telegram: Channel.Telegram) -> AlertReceipt {
        let api = base(.telegramURL, "https://api.telegram.org") + "/bot\(telegram.token)"
        func text(_ message: AlertMessage) -> String {
            Limits.cut("<b>\(Self.html(message.title))</b>\n\(Self.html(message.body))", to: 4_096)
        }
        switch operation {
        case .send(let message):
            // One message per chat; the handle names each: `chat:message`, comma-separated. Chats
            // an earlier attempt reached are not sent to again.
            var handles = message.reached.map { reached in
                Self.chatMessages(reached).filter { telegram.chats.contains($0.0) }.map { "\($0.0):\($0.1)" }
            } ?? []
            let done = Set(handles.compactMap { $0.split(separator: ":").dropLast().joined(separator: ":") })
            for chat in telegram.chats where !done.contains(chat) {
                var fields: [String: Any] = ["text": text(message), "parse_mode": "HTML", "disable_notification": telegram.silent]
                let halves = chat.split(separator: ":")
                fields["chat_id"] = String(halves[0])
                if halves.count == 2, let thread = Int(halves[1]) { fields["message_thread_id"] = thread }
                let answer = request(
                    "POST", "\(api)/sendMessage", headers: ["Content-Type": "application/json"], body: Self.json(fields), service: "Telegram")
                let receipt = answer.receipt(handle: \.["result", "message_id"])
                guard case .delivered = receipt.result, let id = receipt.handle else {
                    return AlertReceipt(result: receipt.result, handle: handles.isEmpty ? nil : handles.joined(separator: ","))
                }
                handles.append("\(chat):\(id)")
            }
            return AlertReceipt(result: .delivered, handle: handles.joined(separator: ","))
        case .update(let message, let handle):
            for (chat, id) in Self.chatMessages(handle) {
                let answer = request(
                    "POST", "\(api)/editMessageText", headers: ["Content-Type": "application/json"],
                    body: Self.json([
                        "chat_id": String(chat.split(separator: ":").first ?? ""), "message_id": Int(id) ?? 0, "text": text(message), "parse_mode": "HTML",
                    ]),
                    service: "Telegram")
                // Editing to the same words is refused as "message is not modified": nothing to do.
                if answer.status == 400, answer.reason?.contains("not modified") == true { continue }
                let receipt = answer.receipt(keeping: handle)
                guard case .delivered = receipt.result else { return receipt }
            }
            return AlertReceipt(result: .delivered, handle: handle)
        case .clear:
            return .cannot("Telegram keeps messages in the chat; it has nothing to dismiss")
        }
    }

    // MARK: Matrix

    func matrix(_ operation: AlertOperation, _ matrix: Channel.Matrix) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Matrix keeps messages in the room; it has nothing to dismiss") }
        let headers = ["Authorization": "Bearer \(matrix.token)", "Content-Type": "application/json"]
        let api = "\(matrix.server)/_matrix/client/v3"
        let text = "\(message.title)\n\(message.body)"
        // The handle names each room's event: `!room:server $event`, comma-separated (one room's
        // handle, from before there were several, is its event alone).
        var events: [(room: String, event: String)] = []
        if case .update(_, let handle) = operation {
            events = handle.split(separator: ",").map { pair in
                let halves = pair.split(separator: " ", maxSplits: 1)
                return halves.count == 2 ? (String(halves[0]), String(halves[1])) : ("", String(pair))
            }
        }
        var handles: [String] = []
        // A room named without its server is on the account's homeserver: the part of the user
        // ID after its colon (`@me:example.org`), which /whoami gives — as Apprise completes it.
        // Where it cannot be learned, the host in the URL is taken for it.
        var rooms = matrix.rooms
        if rooms.contains(where: { !$0.contains(":") }) {
            let whoami = request("GET", "\(api)/account/whoami", headers: headers, body: nil, service: "Matrix")
            let user = whoami.succeeded ? whoami.field(["user_id"]) : nil
            let server = user.flatMap { $0.split(separator: ":", maxSplits: 1).dropFirst().first }.map(String.init)
                ?? URLComponents(string: matrix.server)?.host ?? ""
            rooms = rooms.map { $0.contains(":") ? $0 : "\($0):\(server)" }
        }
        for (index, room) in rooms.enumerated() {
            // Joining is how an invited user enters a room, and answers the room's ID for an
            // alias; joining a room already joined changes nothing.
            let joined = request("POST", "\(api)/join/\(Self.pathSegment(room))", headers: headers, body: Data("{}".utf8), service: "Matrix")
            guard joined.succeeded, let id = joined.field(["room_id"]) else {
                return joined.succeeded ? .cannot("Matrix did not name the room \(room)") : joined.receipt()
            }
            var content: [String: Any] = ["msgtype": matrix.messageType, "body": text]
            var transaction = message.idempotencyKey.map { rooms.count == 1 ? $0 : "\($0)-\(index)" }
            if case .update = operation {
                guard let previous = events.first(where: { $0.room == id }) ?? (events.count == 1 && events[0].room.isEmpty ? events[0] : nil) else {
                    continue
                }
                content = [
                    "msgtype": matrix.messageType, "body": "* " + text,
                    "m.new_content": ["msgtype": matrix.messageType, "body": text],
                    "m.relates_to": ["rel_type": "m.replace", "event_id": previous.event],
                ]
                transaction = nil
            }
            // A send's transaction ID is the alert's idempotency key: Matrix answers a repeat with
            // the event it made the first time. A revision is a new transaction.
            let key = transaction ?? "tt\(UInt64(Date().timeIntervalSince1970 * 1_000))\(UInt32.random(in: 0...UInt32.max))"
            let answer = request(
                "PUT", "\(api)/rooms/\(Self.pathSegment(id))/send/m.room.message/\(key)", headers: headers, body: Self.json(content), service: "Matrix")
            let receipt = answer.receipt(handle: \.["event_id"])
            guard case .delivered = receipt.result else { return receipt }
            if case .send = operation, let event = receipt.handle { handles.append(rooms.count == 1 ? event : "\(id) \(event)") }
        }
        if case .update(_, let handle) = operation { return AlertReceipt(result: .delivered, handle: handle) }
        return AlertReceipt(result: .delivered, handle: handles.joined(separator: ","))
    }

    // MARK: Discord

    func discord(_ operation: AlertOperation, _ discord: Channel.Discord) -> AlertReceipt {
        let hook = base(.discordURL, "https://discord.com") + "/api/webhooks/\(discord.webhookID)/\(discord.token)"
        func body(_ message: AlertMessage) -> Data {
            var object: [String: Any] = ["content": Limits.cut("**\(message.title)**\n\(message.body)", to: 2_000)]
            if let name = discord.botname { object["username"] = name }
            if discord.speaks { object["tts"] = true }
            return Self.json(object)
        }
        let thread = discord.thread.map { "thread_id=\($0)" }
        let headers = ["Content-Type": "application/json"]
        switch operation {
        case .send(let message):
            let query = (["wait=true"] + (thread.map { [$0] } ?? [])).joined(separator: "&")
            return request("POST", hook + "?" + query, headers: headers, body: body(message), service: "Discord").receipt(handle: \.["id"])
        case .update(let message, let handle):
            return request(
                "PATCH", "\(hook)/messages/\(Self.pathSegment(handle))" + (thread.map { "?" + $0 } ?? ""), headers: headers, body: body(message),
                service: "Discord")
                .receipt(keeping: handle)
        case .clear:
            return .cannot("Discord keeps messages in the channel; it has nothing to dismiss")
        }
    }

    // MARK: Slack, JSON

    func slack(_ operation: AlertOperation, _ slack: Channel.Slack) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("a Slack incoming webhook cannot change what it posted") }
        let url = base(.slackURL, "https://hooks.slack.com") + "/services/\(slack.path)"
        let text = Limits.cut("*\(message.title)*\n\(message.body)", to: 40_000)
        var object: [String: Any] = ["text": text]
        if let name = slack.botname { object["username"] = name }
        if let channel = slack.channel { object["channel"] = channel }
        return request("POST", url, headers: ["Content-Type": "application/json"], body: Self.json(object), service: "Slack")
            .receipt()
    }

    func jsonPost(_ operation: AlertOperation, _ post: Channel.JSONPost) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("a JSON endpoint is not asked to clear anything") }
        var headers = ["Content-Type": "application/json"]
        var url = post.url
        // Credentials in the URL become a header: the URL itself is then free of them.
        if var components = URLComponents(string: post.url), let user = components.user {
            headers["Authorization"] = "Basic " + Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
            components.user = nil
            components.password = nil
            url = components.string ?? post.url
        }
        for (name, value) in post.headers { headers[name] = value }
        // Apprise's JSON fields, and this program's own; then the URL's `:KEY=VALUE` fields, as
        // Apprise applies them (a field of its own renamed, or dropped when empty; others added).
        var object: [String: Any] = [
            "version": "1.0", "title": message.title, "message": message.body, "type": message.urgency == "critical" ? "warning" : "info",
            "attachments": [Any](), "id": message.id.description, "body": message.body, "urgency": message.urgency,
        ]
        for (key, value) in post.extras.sorted(by: { $0.key < $1.key }) {
            if ["version", "title", "message", "type", "attachments"].contains(key), let field = object[key] {
                object[key] = nil
                if !value.isEmpty { object[value] = field }
            } else {
                object[key] = value
            }
        }
        return request(post.method, url, headers: headers, body: Self.json(object), service: "JSON endpoint").receipt()
    }

    // MARK: Requests
}
