import FoundationEssentials

/// What a notifier is asked to do with an alert.
public enum AlertOperation: Sendable, Equatable {
    /// A new notification.
    case send(AlertMessage)
    /// The notification with this handle, changed in place to say `message` (a channel that cannot
    /// change one sends it anew).
    case update(AlertMessage, handle: String)
    /// The notification with this handle, dismissed: gone from the drawer, kept in the channel's
    /// history where it keeps one.
    case clear(handle: String)
}

/// How an operation went, and the handle by which the channel knows the notification now (ntfy's
/// message ID, Telegram's `message_id`, Discord's message ID, Matrix's event ID, the desktop's
/// notification ID): what a later process needs to update or clear it. Never a credential.
public struct AlertReceipt: Sendable, Equatable {
    public var result: DeliveryResult
    public var handle: String?

    public init(result: DeliveryResult, handle: String? = nil) {
        self.result = result
        self.handle = handle
    }
}

/// The channels' requests: each as its documentation gives it, answers read for the handle and
/// for a one-line reason when refused (`Telegram: chat not found (400)`), a 429 waited out once
/// when the wait it asks for is short.
public struct ChannelSender: Sendable {
    public var client: any HTTPClient
    /// `TRAVELTIMES_PUSHOVER_URL` and the like: a test server in place of a service's fixed host.
    public var environment: [String: String]

    public init(client: any HTTPClient, environment: [String: String]) {
        self.client = client
        self.environment = environment
    }

    public static let timeout: TimeInterval = 10
    /// A 429 asking to wait longer than this fails now; the tick after tries again.
    public static let longestRetryWait: TimeInterval = 5

    public func perform(_ operation: AlertOperation, on channel: Channel) -> AlertReceipt {
        let receipt: AlertReceipt = switch channel {
        case .ntfy(let ntfy): self.ntfy(operation, ntfy)
        case .gotify(let gotify): self.gotify(operation, gotify)
        case .pushover(let pushover): self.pushover(operation, pushover)
        case .telegram(let telegram): self.telegram(operation, telegram)
        case .matrix(let matrix): self.matrix(operation, matrix)
        case .discord(let discord): self.discord(operation, discord)
        case .slack(let slack): self.slack(operation, slack)
        case .json(let post): self.json(operation, post)
        case .sendmail(let mail): Sendmailer.perform(operation, mail, environment: environment)
        }
        guard case .failed(let failure) = receipt.result else { return receipt }
        return AlertReceipt(result: .failed(failure.redacting(channel.secrets)), handle: receipt.handle)
    }

    /// A service's base URL: the environment's replacement, else its own.
    private func base(_ variable: EnvironmentVariable, _ standard: String) -> String {
        guard let replacement = environment[variable], WebhookNotifier.isWebhookURL(replacement) else { return standard }
        return replacement.hasSuffix("/") ? String(replacement.dropLast()) : replacement
    }

    // MARK: ntfy

    private func ntfy(_ operation: AlertOperation, _ ntfy: Channel.Ntfy) -> AlertReceipt {
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

    private func gotify(_ operation: AlertOperation, _ gotify: Channel.Gotify) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Gotify cannot clear a message with an application token") }
        let object: [String: Any] = [
            "title": message.title, "message": message.body,
            "priority": message.urgency == "critical" ? max(gotify.priority, 8) : gotify.priority,
        ]
        return request(
            "POST", "\(gotify.server)/message", headers: ["X-Gotify-Key": gotify.token, "Content-Type": "application/json"],
            body: Self.json(object), service: "Gotify"
        ).receipt(handle: \.["id"])
    }

    // MARK: Pushover

    private func pushover(_ operation: AlertOperation, _ pushover: Channel.Pushover) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Pushover cannot clear a message") }
        // A critical alert is high priority (it sounds through the phone's quiet hours); only a
        // URL that asks for emergency (2) gets it, with its retry and expiry.
        let priority = pushover.priority ?? (message.urgency == "critical" ? 1 : 0)
        var fields = [
            ("token", pushover.token), ("user", pushover.user), ("title", Limits.cut(message.title, to: 250)),
            ("message", Limits.cut(message.body, to: 1_024)), ("priority", String(priority)),
        ]
        if !pushover.devices.isEmpty { fields.append(("device", pushover.devices.joined(separator: ","))) }
        if let sound = pushover.sound { fields.append(("sound", sound)) }
        if priority == 2 { fields += [("retry", String(pushover.retry)), ("expire", String(pushover.expire))] }
        let url = base(.pushoverURL, "https://api.pushover.net") + "/1/messages.json"
        return request("POST", url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Self.form(fields), service: "Pushover")
            .receipt(handle: \.["request"])
    }

    // MARK: Telegram

    private func telegram(_ operation: AlertOperation, _ telegram: Channel.Telegram) -> AlertReceipt {
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
                let answer = request(
                    "POST", "\(api)/sendMessage", headers: ["Content-Type": "application/json"],
                    body: Self.json([
                        "chat_id": chat, "text": text(message), "parse_mode": "HTML", "disable_notification": telegram.silent,
                    ]), service: "Telegram")
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
                    body: Self.json(["chat_id": chat, "message_id": Int(id) ?? 0, "text": text(message), "parse_mode": "HTML"]),
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

    private func matrix(_ operation: AlertOperation, _ matrix: Channel.Matrix) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Matrix keeps messages in the room; it has nothing to dismiss") }
        let headers = ["Authorization": "Bearer \(matrix.token)", "Content-Type": "application/json"]
        let api = "\(matrix.server)/_matrix/client/v3"
        var room = matrix.room
        if room.hasPrefix("#") {
            let answer = request("GET", "\(api)/directory/room/\(Self.pathSegment(room))", headers: headers, body: nil, service: "Matrix")
            guard answer.succeeded, let id = answer.field(["room_id"]) else {
                return answer.succeeded ? .cannot("Matrix did not name the room \(room)") : answer.receipt()
            }
            room = id
        }
        let text = "\(message.title)\n\(message.body)"
        var content: [String: Any] = ["msgtype": matrix.messageType, "body": text]
        if case .update(_, let handle) = operation {
            content = [
                "msgtype": matrix.messageType, "body": "* " + text,
                "m.new_content": ["msgtype": matrix.messageType, "body": text],
                "m.relates_to": ["rel_type": "m.replace", "event_id": handle],
            ]
        }
        // A send's transaction ID is the alert's idempotency key: Matrix answers a repeat with the
        // event it made the first time. A revision is a new transaction.
        let transaction = operation.message?.idempotencyKey.flatMap { key in
            if case .send = operation { return key } else { return nil }
        } ?? "tt\(UInt64(Date().timeIntervalSince1970 * 1_000))\(UInt32.random(in: 0...UInt32.max))"
        let url = "\(api)/rooms/\(Self.pathSegment(room))/send/m.room.message/\(transaction)"
        let answer = request("PUT", url, headers: headers, body: Self.json(content), service: "Matrix")
        if case .update(_, let handle) = operation { return answer.receipt(keeping: handle) }
        return answer.receipt(handle: \.["event_id"])
    }

    // MARK: Discord

    private func discord(_ operation: AlertOperation, _ discord: Channel.Discord) -> AlertReceipt {
        let hook = base(.discordURL, "https://discord.com") + "/api/webhooks/\(discord.webhookID)/\(discord.token)"
        func body(_ message: AlertMessage) -> Data {
            var object: [String: Any] = ["content": Limits.cut("**\(message.title)**\n\(message.body)", to: 2_000)]
            if let name = discord.botname { object["username"] = name }
            return Self.json(object)
        }
        let headers = ["Content-Type": "application/json"]
        switch operation {
        case .send(let message):
            return request("POST", hook + "?wait=true", headers: headers, body: body(message), service: "Discord").receipt(handle: \.["id"])
        case .update(let message, let handle):
            return request("PATCH", "\(hook)/messages/\(Self.pathSegment(handle))", headers: headers, body: body(message), service: "Discord")
                .receipt(keeping: handle)
        case .clear:
            return .cannot("Discord keeps messages in the channel; it has nothing to dismiss")
        }
    }

    // MARK: Slack, JSON

    private func slack(_ operation: AlertOperation, _ slack: Channel.Slack) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("a Slack incoming webhook cannot change what it posted") }
        let url = base(.slackURL, "https://hooks.slack.com") + "/services/\(slack.path)"
        let text = Limits.cut("*\(message.title)*\n\(message.body)", to: 40_000)
        return request("POST", url, headers: ["Content-Type": "application/json"], body: Self.json(["text": text]), service: "Slack")
            .receipt()
    }

    private func json(_ operation: AlertOperation, _ post: Channel.JSONPost) -> AlertReceipt {
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
        // Apprise's JSON fields, and this program's own.
        let object: [String: Any] = [
            "version": "1.0", "title": message.title, "message": message.body, "type": message.urgency == "critical" ? "warning" : "info",
            "id": message.id.description, "body": message.body, "urgency": message.urgency,
        ]
        return request("POST", url, headers: headers, body: Self.json(object), service: "JSON endpoint").receipt()
    }

    // MARK: Requests

    /// An answer, read.
    struct Answer {
        var status: Int
        var object: Any?
        var failure: DeliveryFailure?
        /// The service's own words for a refusal.
        var reason: String?

        var succeeded: Bool { failure == nil }

        func field(_ path: [String]) -> String? {
            var value: Any? = object
            for key in path { value = (value as? [String: Any])?[key] }
            switch value {
            case let text as String: return text.isEmpty || text.count > 200 || DisplayText.line(text) != text ? nil : text
            case let number as Double: return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            default: return nil
            }
        }

        func receipt(handle path: KeyPath<Answer, String?>? = nil, keeping kept: String? = nil) -> AlertReceipt {
            if let failure { return AlertReceipt(result: .failed(failure), handle: kept) }
            return AlertReceipt(result: .delivered, handle: path.flatMap { self[keyPath: $0] } ?? kept)
        }

        subscript(key: String) -> String? { field([key]) }
        subscript(key: String, inner: String) -> String? { field([key, inner]) }
    }

    /// One request, a 429 waited out once if it asks for a short wait.
    func request(_ method: String, _ url: String, headers: [String: String], body: Data?, service: String) -> Answer {
        guard let target = URL(string: url), WebhookNotifier.isWebhookURL(url) else {
            return Answer(status: 0, failure: .notWebhookURL(WebhookNotifier.redact(url)))
        }
        var waited = false
        while true {
            let response: HTTPResponse
            do {
                response = try client.send(method, target, headers: headers, body: body, timeout: Self.timeout)
            } catch HTTPClientError.timedOut {
                return Answer(status: 0, failure: .noAnswer(target: WebhookNotifier.redact(url), seconds: Int(Self.timeout)))
            } catch HTTPClientError.helperMissing(let path) {
                return Answer(status: 0, failure: .helperMissing(path: path))
            } catch {
                return Answer(status: 0, failure: .transport(target: "\(service) (\(WebhookNotifier.redact(url)))", reason: String(describing: error)))
            }
            let object = response.body.isEmpty ? nil : JSONReader.any(response.body)
            if (200...299).contains(response.status) {
                // Telegram and Pushover answer 200 with a refusal inside.
                if let refusal = Self.refusalInside(object) {
                    return Answer(status: response.status, object: object, failure: .refused(service: service, reason: refusal, status: response.status), reason: refusal)
                }
                return Answer(status: response.status, object: object)
            }
            if response.status == 429, !waited, let wait = Self.retryAfter(response, object), wait <= Self.longestRetryWait {
                waited = true
                sleepFor(max(wait, 0.05))
                continue
            }
            let reason = Self.reason(in: object, body: response.body)
            if response.status == 429 {
                let wait = Self.retryAfter(response, object).map { Int($0.rounded(.up)) }
                return Answer(status: 429, object: object, failure: .rateLimited(service: service, retryAfter: wait), reason: reason)
            }
            return Answer(
                status: response.status, object: object,
                failure: .refused(service: service, reason: reason ?? "HTTP \(response.status)", status: response.status), reason: reason)
        }
    }

    /// The longest wait a server is believed to ask for: a larger number (2^63 seconds, say) is
    /// taken as this, never carried into arithmetic.
    static let longestBelievedWait: TimeInterval = 86_400

    /// `Retry-After` (seconds), or the body's `retry_after` (Discord's seconds, Telegram's in
    /// `parameters`) or `retry_after_ms` (Matrix), clamped to `longestBelievedWait`.
    static func retryAfter(_ response: HTTPResponse, _ object: Any?) -> TimeInterval? {
        func believed(_ seconds: Double) -> TimeInterval? { seconds.isFinite && seconds >= 0 ? min(seconds, longestBelievedWait) : nil }
        if let header = response.headers["retry-after"], let seconds = Double(header.trimmingWhitespace()).flatMap(believed) { return seconds }
        let dictionary = object as? [String: Any]
        let candidates: [Any?] = [
            dictionary?["retry_after"], (dictionary?["parameters"] as? [String: Any])?["retry_after"],
            (dictionary?["retry_after_ms"] as? Double).map { $0 / 1_000 },
        ]
        for case let number as Double in candidates.compactMap({ $0 }) {
            if let seconds = believed(number) { return seconds }
        }
        return nil
    }

    /// The words of a refusal, in each service's own field; one short line.
    static func reason(in object: Any?, body: Data) -> String? {
        let dictionary = object as? [String: Any]
        var text: String?
        if let description = dictionary?["description"] as? String {
            // Telegram: "Bad Request: chat not found".
            text = description.replacing("Bad Request: ", with: "")
        } else if let errors = dictionary?["errors"] as? [Any], let first = errors.first {
            text = "\(first)"
        } else if let words = (dictionary?["errorDescription"] ?? dictionary?["error"] ?? dictionary?["message"]) as? String {
            text = words
        } else if object == nil, let plain = String(data: body.prefix(200), encoding: .utf8), !plain.isEmpty, !plain.contains("<") {
            text = plain
        }
        return text.map { String(DisplayText.line($0).prefix(160)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Telegram's `ok: false`, Pushover's `status: 0`, inside a 200.
    static func refusalInside(_ object: Any?) -> String? {
        guard let dictionary = object as? [String: Any] else { return nil }
        let refused = (dictionary["ok"] as? Bool) == false || (dictionary["status"] as? Double) == 0
        return refused ? reason(in: object, body: Data()) ?? "refused" : nil
    }

    // MARK: Encoding

    static func json(_ object: [String: Any]) -> Data {
        JSONWriter.data(object)
    }

    static func form(_ fields: [(String, String)]) -> Data {
        var allowed = ScalarSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(fields.map { "\($0.0)=\($0.1.percentEncoded(keeping: allowed))" }.joined(separator: "&").utf8)
    }

    static func html(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    static func pathSegment(_ text: String) -> String {
        var allowed = ScalarSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.percentEncoded(keeping: allowed)
    }

    /// `chat:message,chat:message` → pairs.
    static func chatMessages(_ handle: String) -> [(String, String)] {
        handle.split(separator: ",").compactMap { pair -> (String, String)? in
            let halves = pair.split(separator: ":")
            guard halves.count >= 2, let message = halves.last else { return nil }
            return (halves.dropLast().joined(separator: ":"), String(message))
        }
    }
}

extension AlertOperation {
    /// What it says; nil for a clear.
    public var message: AlertMessage? {
        switch self {
        case .send(let message), .update(let message, _): message
        case .clear: nil
        }
    }
}

extension AlertReceipt {
    /// An operation the channel cannot do: not a failure to retry, recorded as such.
    static func cannot(_ reason: String) -> AlertReceipt { AlertReceipt(result: .failed(.unsupported(reason))) }
}

/// Each channel's length limits: text past them is cut, with a mark that says so.
enum Limits {
    static let mark = "…"

    /// At most `count` characters, the last of them the mark when anything was cut.
    static func cut(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(max(0, count - 1))) + mark
    }

    /// At most `count` UTF-8 bytes, cut at a character, the mark included.
    static func cutBytes(_ text: String, to count: Int) -> String {
        guard text.utf8.count > count else { return text }
        var kept = ""
        var used = mark.utf8.count
        for character in text {
            let size = String(character).utf8.count
            guard used + size <= count else { break }
            kept.append(character)
            used += size
        }
        return kept + mark
    }
}
