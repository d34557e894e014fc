import Basics
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
        let receipt = channel.service.perform(operation, with: self)
        guard case .failed(let failure) = receipt.result else { return receipt }
        return AlertReceipt(result: .failed(failure.redacting(channel.secrets)), handle: receipt.handle)
    }

    /// A service's base URL: the environment's replacement, else its own.
    func base(_ host: FixedHost) -> String {
        guard let replacement = environment[host.variable], WebhookNotifier.isWebhookURL(replacement) else { return host.standard }
        return replacement.hasSuffix("/") ? String(replacement.dropLast()) : replacement
    }

    // MARK: ntfy

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
