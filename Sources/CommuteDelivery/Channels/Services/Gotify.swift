import FoundationEssentials

extension Channel {
    /// Gotify (`gotify://`, `gotifys://`): a self-hosted server, an application's token.
    public struct Gotify: Sendable, Equatable {
        /// `https://host[:port][/subpath]`.
        public var server: String
        /// The application token: a secret.
        public var token: String
        /// 0…10.
        public var priority: Int
        /// `?format=markdown`: the message is shown as Markdown.
        public var markdown = false
    }
}

extension Channel.Gotify: ChannelService {
    static let kind = "gotify"
    static let schemes = ["gotify", "gotifys"]
    static let forms = ["gotifys://HOST/APP_TOKEN (?priority=, ?format=markdown)"]
    static let options: Set<String> = ["priority", "format"]

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        guard parts.hasValidPort else { throw .init("the port is not a number from 1 to 65535") }
        guard let token = parts.path.last, !token.isEmpty else { throw .init("the application token is the last part: gotifys://HOST/TOKEN") }
        let subpath = parts.path.dropLast().map { "/" + $0 }.joined()
        var priority = 5
        if let text = parts.query["priority"]?.lowercased() {
            // Apprise reads a priority by its first letter (l, m, n, h, e: 0, 3, 5, 8, 10, so
            // `max` is 3, moderate) or a number, in its five steps.
            let prefixes: [(String, Int)] = [("l", 0), ("m", 3), ("n", 5), ("h", 8), ("e", 10)]
            if let number = Int(text), (0...10).contains(number) {
                priority = [0, 0, 0, 3, 3, 5, 5, 5, 8, 8, 10][number]
            } else if let match = prefixes.first(where: { text.hasPrefix($0.0) }) {
                priority = match.1
            } else {
                throw .init("gotify priority is low, moderate, normal, high, emergency or 0 to 10")
            }
        }
        let format = parts.query["format"]?.lowercased()
        guard format == nil || format == "text" || format == "markdown" || format == "html" else {
            throw .init("gotify format is text, markdown or html")
        }
        return .gotify(.init(
            server: "\(scheme == "gotifys" ? "https" : "http")://\(parts.hostAndPort)\(subpath)", token: token, priority: priority,
            markdown: format == "markdown"))
    }

    var summary: String { "gotify \(WebhookNotifier.redact(server))" }
    var listing: Channel.Listing { ("gotify", WebhookNotifier.redact(server), ["priority": .int(priority)], true) }
    var secrets: [String] { [token] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Gotify cannot clear a message with an application token") }
        var object: [String: Any] = [
            "title": message.title, "message": message.body,
            "priority": message.urgency == "critical" ? max(priority, 8) : priority,
        ]
        if markdown { object["extras"] = ["client::display": ["contentType": "text/markdown"]] }
        return sender.request(
            "POST", "\(server)/message", headers: ["X-Gotify-Key": token, "Content-Type": "application/json"],
            body: ChannelSender.json(object), service: "Gotify"
        ).receipt(handle: \.["id"])
    }
}
