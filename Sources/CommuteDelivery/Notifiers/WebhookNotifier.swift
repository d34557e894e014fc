import Basics
import CommuteModel
import FoundationEssentials

/// Posts an alert to an HTTP webhook, through the fetch helper (so the networking stack is loaded
/// only when an alert actually goes out this way).
public enum WebhookNotifier {
    public enum Format: String, Codable, Sendable, CaseIterable {
        case ntfy, slack, discord, json
    }

    public static let timeout: TimeInterval = 10

    /// Whether text is a header line: `Name: value`, a token name, nothing that would end the line.
    public static func isHeader(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let name = line[..<colon]
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return !name.isEmpty && name.allSatisfy(tokenCharacters.contains) && DisplayText.line(line) == line
    }

    /// A header line as a name and a trimmed value.
    static func header(_ line: String) -> (name: String, value: String)? {
        guard isHeader(line), let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace())
    }

    /// Whether text is a URL a webhook can be posted to: http or https, with a host.
    public static func isWebhookURL(_ text: String) -> Bool {
        guard DisplayText.line(text) == text, let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    /// Temporary and permanent redirects (307, 308) are followed, method and body intact, this many
    /// times at most.
    static let maximumRedirects = 5

    /// Delivered when the final endpoint answered 2xx to the POST itself. A 307 or 308 is followed
    /// with the same method and body; a 301, 302 or 303 is a failure, because following it would
    /// deliver a GET with no body (the alert would be lost, and look delivered). Messages carry no
    /// secret: a URL's path and query are shown as `…`.
    public static func send(
        _ message: AlertMessage, to url: String, format: Format, headers extra: [String] = [], click: String? = nil,
        client: any HTTPClient
    ) -> DeliveryResult {
        guard var target = URL(string: url), isWebhookURL(url) else { return .failed(.notWebhookURL(redact(url))) }
        let (headers, body) = payload(message, format: format, click: click)
        let custom = Dictionary(extra.compactMap(header), uniquingKeysWith: { _, last in last })
        let result = deliver(to: &target, url: url, headers: headers, custom: custom, body: body, client: client)
        guard case .failed(let reason) = result else { return result }
        // Nothing quotes a header's value today; should anything, it is a secret all the same.
        return .failed(reason.redacting(Array(custom.values)))
    }

    /// Posts, following 307 and 308. The user's own headers (credentials, as a rule) go only to the
    /// origin they were given for: a redirect to another scheme, host or port gets the alert
    /// without them, as curl and browsers do.
    private static func deliver(
        to target: inout URL, url: String, headers: [String: String], custom: [String: String], body: Data, client: any HTTPClient
    ) -> DeliveryResult {
        let origin = Origin(target)
        do {
            for _ in 0...maximumRedirects {
                let sent = Origin(target) == origin ? overriding(headers, with: custom) : headers
                let response = try client.post(target, headers: sent, body: body, timeout: timeout)
                switch response.status {
                case 200...299:
                    return .delivered
                case 307, 308:
                    guard let location = response.headers["location"], let next = URL(string: location, relativeTo: target)?.absoluteURL,
                        isWebhookURL(next.absoluteString)
                    else { return .failed(.redirectWithoutLocation(target: redact(target.absoluteString), status: response.status)) }
                    target = next
                case 301, 302, 303:
                    return .failed(.redirectNotFollowed(target: redact(target.absoluteString), status: response.status))
                default:
                    return .failed(.answered(target: redact(target.absoluteString), status: response.status))
                }
            }
            return .failed(.tooManyRedirects(target: redact(url), limit: maximumRedirects))
        } catch HTTPClientError.timedOut {
            return .failed(.noAnswer(target: redact(target.absoluteString), seconds: Int(timeout)))
        } catch HTTPClientError.helperMissing(let path) {
            return .failed(.helperMissing(path: path))
        } catch {
            return .failed(.transport(
                target: redact(target.absoluteString), reason: FeedSource.redact(String(describing: error), secrets: [url, target.absoluteString])))
        }
    }

    /// `headers` with the user's own in place of any of the same name, in any case.
    private static func overriding(_ headers: [String: String], with custom: [String: String]) -> [String: String] {
        let replaced = Set(custom.keys.map { $0.lowercased() })
        return headers.filter { !replaced.contains($0.key.lowercased()) }.merging(custom, uniquingKeysWith: { _, mine in mine })
    }

    /// Scheme, host and port: where a credential was meant to go.
    private struct Origin: Equatable {
        var scheme: String?
        var host: String?
        var port: Int?

        init(_ url: URL) {
            scheme = url.scheme?.lowercased()
            host = url.host?.lowercased()
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }

    /// The request for each format; `click` is ntfy's `Click` header (and `click` in the json format).
    public static func payload(_ message: AlertMessage, format: Format, click: String? = nil) -> (headers: [String: String], body: Data) {
        func json(_ object: [String: String]) -> Data {
            JSONWriter.data(object)
        }
        switch format {
        case .ntfy:
            var headers = [
                "Content-Type": "text/plain; charset=utf-8", "Title": headerValue(message.title),
                "Priority": message.urgency == "critical" ? "urgent" : "default", "Tags": "car,traveltimes",
            ]
            if let click { headers["Click"] = click }
            return (headers, Data(message.body.utf8))
        case .slack:
            return (["Content-Type": "application/json"], json(["text": "*\(message.title)*\n\(message.body)"]))
        case .discord:
            return (["Content-Type": "application/json"], json(["content": String("**\(message.title)**\n\(message.body)".prefix(2_000))]))
        case .json:
            var object = ["id": message.id.description, "title": message.title, "body": message.body, "urgency": message.urgency]
            if let click { object["click"] = click }
            return (["Content-Type": "application/json"], json(object))
        }
    }

    /// Headers must be ASCII: anything else is sent as an RFC 2047 encoded word, which ntfy reads.
    static func headerValue(_ text: String) -> String {
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) else {
            return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
        }
        return text
    }

    /// `https://hooks.slack.com/…`: a webhook URL's path and query are its secret.
    public static func redact(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            return "(a webhook URL)"
        }
        let port = components.port.map { ":\($0)" } ?? ""
        let hidden = components.path.count > 1 || components.query != nil
        return "\(scheme)://\(host)\(port)/\(hidden ? "…" : "")"
    }
}
