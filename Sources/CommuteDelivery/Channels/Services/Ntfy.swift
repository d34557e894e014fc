import FoundationEssentials

extension Channel {
    /// ntfy (`ntfy://`, `ntfys://`): a topic on ntfy.sh or a server of one's own; it changes and
    /// dismisses what it sent (ntfy 2.16).
    public struct Ntfy: Sendable, Equatable {
        /// `https://ntfy.sh`, `http://127.0.0.1:8080`.
        public var server: String
        public var topic: String
        /// `Bearer tk_…` or `Basic …`: a secret.
        public var authorization: String?
        /// 1…5.
        public var priority: Int?
        public var tags: [String]
        public var click: String?
        /// `?avatar_url=`: the notification's icon.
        public var icon: String? = nil
    }
}

extension Channel.Ntfy: ChannelService {
    static let kind = "ntfy"
    static let schemes = ["ntfy", "ntfys"]
    static let forms = [
        "ntfy://HOST/TOPIC, ntfys://ntfy.sh/TOPIC, https://ntfy.sh/TOPIC (user:pass@, tk_TOKEN@,",
        "  ?token=, ?auth=token; ?priority=, ?xtags=, ?click=, ?avatar_url=)",
    ]
    static let options: Set<String> = ["auth", "token", "priority", "tags", "xtags", "click", "avatar_url", "mode"]
    static let sentFormat: String? = "text"
    static let canUpdate = true
    static let canClear = true

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        guard parts.hasValidPort else { throw .init("the port is not a number from 1 to 65535") }
        let base = scheme == "ntfys" ? "https" : "http"
        var topics = parts.path
        var server: String
        // Apprise: a host with no topic in the path is itself the topic, on ntfy.sh.
        let mode = parts.query["mode"]?.lowercased()
        if topics.isEmpty || mode == "cloud" {
            if parts.host.lowercased() != "ntfy.sh" { topics.insert(parts.host, at: 0) }
            server = "https://ntfy.sh"
        } else {
            server = "\(base)://\(parts.hostAndPort)"
        }
        if mode == "private" { server = "\(base)://\(parts.hostAndPort)" }
        guard topics.count == 1, let topic = topics.first else {
            throw .init(topics.isEmpty ? "name the topic: ntfys://ntfy.sh/TOPIC" : "one topic per notifier: add one notifier for each topic")
        }
        guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw .init("an ntfy topic is 1 to 64 letters, digits, - or _")
        }
        // Apprise's rules: `?token=` is a token; `?auth=token|basic` says which the credentials
        // are (a token is the password, else the user); with neither, a user `tk_…` alone is one.
        let kind = parts.query["auth"]?.lowercased()
        guard kind == nil || kind == "token" || kind == "basic" else { throw .init("ntfy auth is basic or token") }
        var token = kind == "basic" ? nil : parts.query["token"]
        let isToken = kind.map { $0 == "token" } ?? (token != nil || (parts.password == nil && parts.user?.hasPrefix("tk_") == true))
        if isToken, token == nil { token = parts.password ?? parts.user }
        var authorization: String?
        if isToken {
            guard let token, !token.isEmpty else { throw .init("ntfy auth=token needs the token: tk_…@HOST, or ?token=tk_…") }
            authorization = "Bearer \(token)"
        } else if let user = parts.user {
            // ntfy takes a user with their password: Apprise sends the word "None" for a missing one.
            guard let password = parts.password else {
                throw .init("ntfy credentials are user:password@ or an access token (tk_…@, or ?auth=token)")
            }
            authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        // Apprise reads a priority by its first letters, in this order: l, mo(derate) low; n(ormal)
        // default; h(igh); e(mergency) max; mi(n); ma(x); d(efault); then a leading 1 to 5. Any
        // other word is its default, as there (ntfy's own `urgent` among them: say max or 5).
        let priority = parts.query["priority"].flatMap { text -> Int? in
            let text = text.lowercased()
            let prefixes: [(String, Int)] = [
                ("l", 2), ("mo", 2), ("n", 3), ("h", 4), ("e", 5), ("mi", 1), ("ma", 5), ("d", 3), ("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5),
            ]
            return prefixes.first(where: { text.hasPrefix($0.0) })?.1
        }
        let tags = (parts.query["xtags"] ?? parts.query["tags"]).map { $0.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty } } ?? []
        var icon: String?
        if let avatar = parts.query["avatar_url"] {
            guard avatar.hasPrefix("https://") || avatar.hasPrefix("http://") else { throw .init("ntfy avatar_url is an http(s) URL") }
            icon = avatar
        }
        return .ntfy(.init(server: server, topic: topic, authorization: authorization, priority: priority, tags: tags, click: parts.query["click"], icon: icon))
    }

    var summary: String { "ntfy \(server)/…" + (authorization == nil ? "" : " (with credentials)") }

    var listing: Channel.Listing {
        ("ntfy", "\(server)/…", Channel.settings([
            ("priority", priority.map(Notifier.Setting.int)), ("tags", tags.isEmpty ? nil : .strings(tags)),
            ("click", click.map { _ in .bool(true) }),
        ]), true)
    }

    var secrets: [String] { [topic] + (authorization.map { [$0, String($0.drop { $0 != " " }.dropFirst())] } ?? []) }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        var headers: [String: String] = [:]
        if let authorization { headers["Authorization"] = authorization }
        let topicURL = "\(server)/\(topic)"
        func publish(_ message: AlertMessage, to url: String) -> ChannelSender.Answer {
            var headers = headers
            headers["Content-Type"] = "text/plain; charset=utf-8"
            headers["Title"] = WebhookNotifier.headerValue(Limits.cut(message.title, to: 250))
            headers["Priority"] = String(message.urgency == "critical" ? 5 : priority ?? 3)
            headers["Tags"] = (tags.isEmpty ? ["car", "traveltimes"] : tags).joined(separator: ",")
            if let click { headers["Click"] = click }
            if let icon { headers["Icon"] = icon }
            return sender.request("POST", url, headers: headers, body: Data(Limits.cutBytes(message.body, to: 4_096).utf8), service: "ntfy")
        }
        switch operation {
        case .send(let message):
            // The sequence ID is chosen before sending: a resend after a crash replaces the
            // notification the first attempt made (ntfy 2.16; an older server ignores it).
            guard let sequence = message.idempotencyKey else { return publish(message, to: topicURL).receipt(handle: \.["id"]) }
            headers["X-Sequence-ID"] = sequence
            let answer = publish(message, to: topicURL)
            return answer.receipt(handle: answer["sequence_id"] == sequence ? \.["sequence_id"] : \.["id"])
        case .update(let message, let handle):
            // ntfy 2.16 replaces the message with the same ID; an older server answers 404, and
            // the alert is sent anew.
            let answer = publish(message, to: "\(topicURL)/\(ChannelSender.pathSegment(handle))")
            if answer.status == 404 { return publish(message, to: topicURL).receipt(handle: \.["id"]) }
            return answer.receipt(handle: \.["sequence_id"], keeping: handle)
        case .clear(let handle):
            return sender.request("PUT", "\(topicURL)/\(ChannelSender.pathSegment(handle))/clear", headers: headers, body: nil, service: "ntfy")
                .receipt(keeping: handle)
        }
    }
}
