import Basics
import FoundationEssentials

extension Channel {
    /// Any endpoint that takes Apprise's JSON (`json://`, `jsons://`): a post, nothing changed later.
    public struct JSONPost: Sendable, Equatable {
        /// `http(s)://[user:pass@]host[:port]/path[?-parameters]`: its credentials, path and
        /// parameters are secrets.
        public var url: String
        public var method = "POST"
        /// `+NAME=VALUE` headers: secrets (an API key often rides in one).
        public var headers: [String: String] = [:]
        /// `:KEY=VALUE` payload fields: added, or renaming (dropping, when empty) a field of ours.
        public var extras: [String: String] = [:]
    }
}

extension Channel.JSONPost: ChannelService {
    static let kind = "json"
    static let schemes = ["json", "jsons"]
    static let forms = ["json://HOST/PATH, jsons://… (+HEADER=, -PARAM=, :KEY=, method=)"]
    static let options: Set<String> = ["method"]
    static let sentFormat: String? = "text"

    static func read(url text: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: text, scheme: scheme, for: Self.self)
        guard parts.hasValidPort else { throw .init("the port is not a number from 1 to 65535") }
        let credentials = parts.user.map { user in parts.password.map { "\(user):\($0)@" } ?? "\(user)@" } ?? ""
        let path = "/" + parts.path.joined(separator: "/")
        // Apprise's query: `+NAME=VALUE` a header, `-NAME=VALUE` a parameter passed on to the
        // endpoint, `:KEY=VALUE` a payload field (`:message=text` renames one, `:type=` drops
        // it), `method=` the HTTP method; the rest is Apprise's own, not the endpoint's.
        var headers: [String: String] = [:]
        var parameters: [(String, String)] = []
        var extras: [String: String] = [:]
        for pair in (parts.rawQuery ?? "").split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).replacing("+", with: " ").percentDecoded ?? String($0) }
            // A `+` written as such reads as a space once decoded: the raw first character says.
            guard let first = pair.first, let name = halves.first, name.count > 1 else { continue }
            let value = halves.count > 1 ? halves[1] : ""
            switch first {
            case "+": headers[String(name.dropFirst())] = value
            case "-": parameters.append((String(name.dropFirst()), value))
            case ":": extras[String(name.dropFirst())] = value
            default: continue
            }
        }
        let method = (parts.query["method"] ?? "POST").uppercased()
        guard ["POST", "GET", "DELETE", "PUT", "HEAD", "PATCH"].contains(method) else {
            throw .init("json method is POST, GET, DELETE, PUT, HEAD or PATCH")
        }
        if headers.keys.contains(where: { !$0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }) {
            throw .init("a json +HEADER is letters, digits and dashes")
        }
        var allowed = ScalarSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = parameters.isEmpty ? "" : "?" + parameters.map { "\($0.0.percentEncoded(keeping: allowed))=\($0.1.percentEncoded(keeping: allowed))" }.joined(separator: "&")
        let url = "\(scheme == "jsons" ? "https" : "http")://\(credentials)\(parts.hostAndPort)\(path)\(query)"
        guard WebhookNotifier.isWebhookURL(url) else { throw .init("not a URL a message can be posted to") }
        return .json(.init(url: url, method: method, headers: headers, extras: extras))
    }

    var summary: String { "json \(WebhookNotifier.redact(url))" }
    var listing: Channel.Listing { ("json", WebhookNotifier.redact(url), [:], true) }

    var secrets: [String] {
        [url] + Array(headers.values) + (URLComponents(string: url).map { parts in
            [parts.password, parts.percentEncodedPath, parts.percentEncodedQuery].compactMap { $0 }
                + (parts.user.map { [Data("\($0):\(parts.password ?? "")".utf8).base64EncodedString()] } ?? [])
        } ?? [])
    }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("a JSON endpoint is not asked to clear anything") }
        var sent = ["Content-Type": "application/json"]
        var target = url
        // Credentials in the URL become a header: the URL itself is then free of them.
        if var components = URLComponents(string: url), let user = components.user {
            sent["Authorization"] = "Basic " + Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
            components.user = nil
            components.password = nil
            target = components.string ?? url
        }
        for (name, value) in headers { sent[name] = value }
        // Apprise's JSON fields, and this program's own; then the URL's `:KEY=VALUE` fields, as
        // Apprise applies them (a field of its own renamed, or dropped when empty; others added).
        var object: [String: Any] = [
            "version": "1.0", "title": message.title, "message": message.body, "type": message.urgency == "critical" ? "warning" : "info",
            "attachments": [Any](), "id": message.id.description, "body": message.body, "urgency": message.urgency,
        ]
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
            if ["version", "title", "message", "type", "attachments"].contains(key), let field = object[key] {
                object[key] = nil
                if !value.isEmpty { object[value] = field }
            } else {
                object[key] = value
            }
        }
        return sender.request(method, target, headers: sent, body: ChannelSender.json(object), service: "JSON endpoint").receipt()
    }
}
