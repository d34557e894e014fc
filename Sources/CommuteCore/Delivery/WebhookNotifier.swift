import Foundation

/// Posts an alert to an HTTP webhook, through the fetch helper (so the networking stack is loaded
/// only when an alert actually goes out this way).
public enum WebhookNotifier {
    public enum Format: String, Codable, Sendable, CaseIterable {
        case ntfy, slack, discord, json
    }

    public static let timeout: TimeInterval = 10

    /// Whether text is a URL a webhook can be posted to: http or https, with a host.
    public static func isWebhookURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    /// Temporary and permanent redirects (307, 308) are followed, method and body intact, this many
    /// times at most.
    static let maximumRedirects = 5

    /// Delivered when the final endpoint answered 2xx to the POST itself. A 307 or 308 is followed
    /// with the same method and body; a 301, 302 or 303 is a failure, because following it would
    /// deliver a GET with no body (the alert would be lost, and look delivered). Messages carry no
    /// secret: a URL's path and query are shown as `…`.
    public static func send(_ message: AlertMessage, to url: String, format: Format, client: any HTTPClient) -> DeliveryResult {
        guard var target = URL(string: url), isWebhookURL(url) else { return .failed("not an http(s) URL: \(redact(url))") }
        let (headers, body) = payload(message, format: format)
        do {
            for _ in 0...maximumRedirects {
                let response = try client.post(target, headers: headers, body: body, timeout: timeout)
                switch response.status {
                case 200...299:
                    return .delivered
                case 307, 308:
                    guard let location = response.headers["location"], let next = URL(string: location, relativeTo: target)?.absoluteURL,
                        isWebhookURL(next.absoluteString)
                    else { return .failed("\(redact(target.absoluteString)) answered HTTP \(response.status) with no http(s) Location") }
                    target = next
                case 301, 302, 303:
                    return .failed(
                        "\(redact(target.absoluteString)) answered HTTP \(response.status), a redirect that would turn the POST into a GET "
                            + "without the alert; not followed — use the URL it redirects to")
                default:
                    return .failed("\(redact(target.absoluteString)) answered HTTP \(response.status)")
                }
            }
            return .failed("\(redact(url)) redirected more than \(maximumRedirects) times")
        } catch HTTPClientError.timedOut {
            return .failed("\(redact(target.absoluteString)) did not answer within \(Int(timeout)) s")
        } catch HTTPClientError.helperMissing(let path) {
            return .failed(FetchError.helperMissing(path: path).description)
        } catch {
            return .failed("\(redact(target.absoluteString)): \(FeedSource.redact(String(describing: error), secrets: [url, target.absoluteString]))")
        }
    }

    /// The request for each format.
    public static func payload(_ message: AlertMessage, format: Format) -> (headers: [String: String], body: Data) {
        func json(_ object: [String: String]) -> Data {
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        }
        switch format {
        case .ntfy:
            return ([
                "Content-Type": "text/plain; charset=utf-8", "Title": headerValue(message.title),
                "Priority": message.urgency == "critical" ? "urgent" : "default", "Tags": "car,traveltimes",
            ], Data(message.body.utf8))
        case .slack:
            return (["Content-Type": "application/json"], json(["text": "*\(message.title)*\n\(message.body)"]))
        case .discord:
            return (["Content-Type": "application/json"], json(["content": String("**\(message.title)**\n\(message.body)".prefix(2_000))]))
        case .json:
            return (["Content-Type": "application/json"], json([
                "id": message.id, "title": message.title, "body": message.body, "urgency": message.urgency,
            ]))
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
