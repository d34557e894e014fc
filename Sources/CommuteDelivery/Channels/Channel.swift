import FoundationEssentials

/// A notification service, read from an Apprise-style URL (`ntfys://ntfy.sh/commute`,
/// `tgram://123456:ABC/4242`): where alerts go and the credentials they need. The URL is stored
/// as it was given, in the 0600 configuration; every credential in it is a secret, shown by
/// `summary` as `…`. Parsing follows Apprise's, so a URL that works there works here.
public enum Channel: Sendable, Equatable {
    case ntfy(Ntfy)
    case gotify(Gotify)
    case pushover(Pushover)
    case telegram(Telegram)
    case matrix(Matrix)
    case discord(Discord)
    case slack(Slack)
    case json(JSONPost)
    case sendmail(Sendmail)

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

    public struct Pushover: Sendable, Equatable {
        public var user: String
        public var token: String
        public var devices: [String]
        /// −2…2; 2 (emergency) repeats every `retry` seconds until acknowledged or `expire` passes.
        public var priority: Int?
        public var sound: String?
        public var retry: Int
        public var expire: Int
        /// Group keys (`#GROUP`): each is sent to in place of the user key.
        public var groups: [String] = []
        /// `?url=` and `?url_title=`: a link shown under the message (Pushover's supplementary URL).
        public var link: String?
        public var linkTitle: String?
    }

    public struct Telegram: Sendable, Equatable {
        /// `123456:ABC…`: a secret.
        public var token: String
        /// `CHAT` or `CHAT:THREAD`.
        public var chats: [String]
        public var silent: Bool
    }

    public struct Matrix: Sendable, Equatable {
        public var server: String
        /// The access token: a secret.
        public var token: String
        /// Each `!id:server` or `#alias:server`.
        public var rooms: [String]
        /// `m.text` or `m.notice`.
        public var messageType: String
    }

    public struct Discord: Sendable, Equatable {
        public var webhookID: String
        /// A secret.
        public var token: String
        public var botname: String?
        /// `?thread=ID`: the thread posted into.
        public var thread: String? = nil
        /// `?tts=yes`: text to speech.
        public var speaks = false
    }

    public struct Slack: Sendable, Equatable {
        /// `T…/B…/X…`: the incoming webhook's path, a secret.
        public var path: String
        /// `botname@`: the name it posts as; `/#channel`: where.
        public var botname: String? = nil
        public var channel: String? = nil
    }

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

    public struct Sendmail: Sendable, Equatable {
        public var recipients: [String]
    }

    /// Why a URL is not a channel, in words that say what to write instead.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The schemes `notify add URL` takes.
    public static let schemes = [
        "ntfy", "ntfys", "gotify", "gotifys", "pover", "tgram", "matrix", "matrixs", "discord", "slack", "json", "jsons", "mailto", "mailtos",
    ]

    /// Whether `text` starts with a scheme this reads (it may still not parse).
    public static func looksLikeChannel(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return schemes.contains(text[..<colon].lowercased()) || nativeForm(text) != nil
    }

    /// A service's own URL, as Apprise takes it, in Apprise's form: `https://ntfy.sh/TOPIC` is
    /// `ntfys://ntfy.sh/TOPIC`, a Discord webhook `discord://ID/TOKEN`, a Slack incoming webhook
    /// `slack://T…/B…/…`; nil for any other URL.
    static func nativeForm(_ text: String) -> String? {
        let lower = text.lowercased()
        let natives = [
            ("https://ntfy.sh/", "ntfys://ntfy.sh/"), ("https://discord.com/api/webhooks/", "discord://"),
            ("https://discordapp.com/api/webhooks/", "discord://"), ("https://hooks.slack.com/services/", "slack://"),
        ]
        for (prefix, form) in natives where lower.hasPrefix(prefix) && text.count > prefix.count {
            return form + text.dropFirst(prefix.count)
        }
        return nil
    }

    /// Reads an Apprise-style URL.
    public init(url text: String) throws(ParseError) {
        guard DisplayText.line(text) == text, !text.contains(" ") else { throw ParseError("a notifier URL is one line with no spaces") }
        if let native = Self.nativeForm(text) {
            try self.init(url: native)
            return
        }
        guard let colon = text.firstIndex(of: ":") else { throw ParseError("not a URL: expected SCHEME://…") }
        let scheme = text[..<colon].lowercased()
        if scheme == "mailto" || scheme == "mailtos" {
            self = .sendmail(try Self.mailto(String(text[text.index(after: colon)...])))
            return
        }
        guard let parts = URLParts(text) else { throw ParseError("not a URL: expected \(scheme)://…") }
        // Each part is checked as it will be used, decoded: a %0D%0A in a token or a tag would
        // otherwise become a header of its own.
        let decoded = [parts.user, parts.password].compactMap { $0 } + parts.path + Array(parts.query.keys) + Array(parts.query.values)
        if decoded.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" } }) {
            throw ParseError("a part of the URL decodes to a control character (such as a line break): write it without one")
        }
        try Self.checkOptions(parts, scheme: String(scheme))
        switch scheme {
        case "ntfy", "ntfys": self = .ntfy(try Self.ntfy(parts, secure: scheme == "ntfys"))
        case "gotify", "gotifys": self = .gotify(try Self.gotify(parts, secure: scheme == "gotifys"))
        case "pover": self = .pushover(try Self.pushover(parts))
        case "tgram": self = .telegram(try Self.telegram(parts))
        case "matrix", "matrixs": self = .matrix(try Self.matrix(parts, secure: scheme == "matrixs"))
        case "discord": self = .discord(try Self.discord(parts))
        case "slack": self = .slack(try Self.slack(parts))
        case "json", "jsons": self = .json(try Self.json(parts, secure: scheme == "jsons"))
        default:
            throw ParseError("unknown scheme \(DisplayText.line(String(scheme.prefix(20)))): use one of " + Self.schemes.map { "\($0)://" }.joined(separator: ", "))
        }
    }

    /// The query options each scheme takes, by Apprise's names. Any other is refused, naming it:
    /// an option Apprise honours that went unread here would send another request than the one
    /// the user pasted the URL for.
    static let options: [String: Set<String>] = [
        "ntfy": ["auth", "token", "priority", "tags", "xtags", "click", "avatar_url", "mode"],
        "gotify": ["priority", "format"],
        "pover": ["priority", "sound", "interval", "expire", "to", "retry", "url", "url_title"],
        "tgram": ["silent", "topic", "thread", "to"],
        "matrix": ["msgtype", "token", "to"],
        "discord": ["botname", "thread", "tts"],
        "slack": ["botname"],
        "json": ["method"],
    ]

    /// Apprise's options for every service that change how Apprise itself runs, not what is sent:
    /// its timeouts (cto, rto), its emoji codes and time zone for templates, its cache, its
    /// handling of a body over the service's length (our messages are short), redirects: taken
    /// and left to traveltimes' own ways.
    static let ownOptions: Set<String> = ["cto", "rto", "emojis", "tz", "store", "wait", "redirect", "optional", "overflow"]

    /// The `format=` that says what traveltimes sends anyway: plain text, or Telegram's HTML.
    static let sentFormat: [String: String] = ["ntfy": "text", "pover": "text", "tgram": "html", "matrix": "text", "discord": "text", "slack": "text", "json": "text"]

    /// The options whose value must be the one traveltimes keeps to.
    static let fixedOptions: [String: (values: Set<String>, meaning: String)] = [
        "verify": (["yes", "true", "1"], "traveltimes always verifies TLS certificates"),
        "avatar": (["no", "false", "0"], "traveltimes sends no avatar"),
        "footer": (["no", "false", "0"], "traveltimes sends no footer"),
    ]

    private static func checkOptions(_ parts: URLParts, scheme: String) throws(ParseError) {
        let family = ["ntfys", "gotifys", "matrixs", "jsons"].contains(scheme) ? String(scheme.dropLast()) : scheme
        guard let allowed = options[family] else { return }
        for key in parts.query.keys.sorted() where !allowed.contains(key) {
            // json://'s +HEADER (read as a space), -PARAM and :KEY are the endpoint's.
            if family == "json", let first = key.first, " +-:".contains(first) { continue }
            if ownOptions.contains(key) { continue }
            let value = parts.query[key]?.lowercased() ?? ""
            if key == "format", let sent = sentFormat[family] {
                guard value == sent else { throw ParseError("\(family) format=\(DisplayText.line(String(value.prefix(20)))) is not what traveltimes sends: it sends \(sent) (format=\(sent), or leave it out)") }
                continue
            }
            if let fixed = fixedOptions[key], key == "verify" || (key == "avatar" && family == "discord") || (key == "footer" && ["discord", "slack"].contains(family)) {
                guard fixed.values.contains(value) else { throw ParseError("\(family) \(key)=\(DisplayText.line(String(value.prefix(20)))) is not taken: \(fixed.meaning)") }
                continue
            }
            throw ParseError(
                "\(family) option \(DisplayText.line(String(key.prefix(30))))= is not one traveltimes takes (it takes \(allowed.sorted().joined(separator: ", "))): remove it")
        }
    }

    // MARK: Each scheme

    private static func ntfy(_ parts: URLParts, secure: Bool) throws(ParseError) -> Ntfy {
        guard parts.hasValidPort else { throw ParseError("the port is not a number from 1 to 65535") }
        let scheme = secure ? "https" : "http"
        var topics = parts.path
        var server: String
        // Apprise: a host with no topic in the path is itself the topic, on ntfy.sh.
        let mode = parts.query["mode"]?.lowercased()
        if topics.isEmpty || mode == "cloud" {
            if parts.host.lowercased() != "ntfy.sh" { topics.insert(parts.host, at: 0) }
            server = "https://ntfy.sh"
        } else {
            server = "\(scheme)://\(parts.hostAndPort)"
        }
        if mode == "private" { server = "\(scheme)://\(parts.hostAndPort)" }
        guard topics.count == 1, let topic = topics.first else {
            throw ParseError(topics.isEmpty ? "name the topic: ntfys://ntfy.sh/TOPIC" : "one topic per notifier: add one notifier for each topic")
        }
        guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw ParseError("an ntfy topic is 1 to 64 letters, digits, - or _")
        }
        // Apprise's rules: `?token=` is a token; `?auth=token|basic` says which the credentials
        // are (a token is the password, else the user); with neither, a user `tk_…` alone is one.
        let kind = parts.query["auth"]?.lowercased()
        guard kind == nil || kind == "token" || kind == "basic" else { throw ParseError("ntfy auth is basic or token") }
        var token = kind == "basic" ? nil : parts.query["token"]
        let isToken = kind.map { $0 == "token" } ?? (token != nil || (parts.password == nil && parts.user?.hasPrefix("tk_") == true))
        if isToken, token == nil { token = parts.password ?? parts.user }
        var authorization: String?
        if isToken {
            guard let token, !token.isEmpty else { throw ParseError("ntfy auth=token needs the token: tk_…@HOST, or ?token=tk_…") }
            authorization = "Bearer \(token)"
        } else if let user = parts.user {
            // ntfy takes a user with their password: Apprise sends the word "None" for a missing one.
            guard let password = parts.password else {
                throw ParseError("ntfy credentials are user:password@ or an access token (tk_…@, or ?auth=token)")
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
            guard avatar.hasPrefix("https://") || avatar.hasPrefix("http://") else { throw ParseError("ntfy avatar_url is an http(s) URL") }
            icon = avatar
        }
        return Ntfy(server: server, topic: topic, authorization: authorization, priority: priority, tags: tags, click: parts.query["click"], icon: icon)
    }

    private static func gotify(_ parts: URLParts, secure: Bool) throws(ParseError) -> Gotify {
        guard parts.hasValidPort else { throw ParseError("the port is not a number from 1 to 65535") }
        guard let token = parts.path.last, !token.isEmpty else { throw ParseError("the application token is the last part: gotifys://HOST/TOKEN") }
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
                throw ParseError("gotify priority is low, moderate, normal, high, emergency or 0 to 10")
            }
        }
        let format = parts.query["format"]?.lowercased()
        guard format == nil || format == "text" || format == "markdown" || format == "html" else {
            throw ParseError("gotify format is text, markdown or html")
        }
        return Gotify(
            server: "\(secure ? "https" : "http")://\(parts.hostAndPort)\(subpath)", token: token, priority: priority, markdown: format == "markdown")
    }

    private static func pushover(_ parts: URLParts) throws(ParseError) -> Pushover {
        guard let user = parts.user, !user.isEmpty, !parts.host.isEmpty else {
            throw ParseError("a Pushover URL is pover://USER_KEY@APP_TOKEN[/DEVICE…]")
        }
        var priority: Int?
        if let text = parts.query["priority"] {
            let names = ["low": -2, "moderate": -1, "normal": 0, "high": 1, "emergency": 2]
            guard let value = names[text.lowercased()] ?? Int(text), (-2...2).contains(value) else {
                throw ParseError("pushover priority is low, moderate, normal, high, emergency or -2 to 2")
            }
            priority = value
        }
        // Apprise's defaults and bounds: an emergency repeats every `interval` s (at least 30)
        // until acknowledged or `expire` s (at most 10,800) have passed. Its `retry` is another
        // thing: how often Apprise itself resends a failed request.
        if parts.query["retry"] != nil {
            throw ParseError("retry= is Apprise's count of resends (traveltimes retries a failed notifier at each tick in the grace window); Pushover's emergency repeat is interval=SECONDS")
        }
        let retry = try number(parts.query["interval"], default: 900, in: 30...10_800, "interval")
        let expire = try number(parts.query["expire"], default: 3_600, in: 30...10_800, "expire")
        // Targets, as Apprise reads them: a device in the path or `?to=`, a `#GROUP` key in the
        // path (sent to instead of the user key).
        let targets = parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0) } } ?? [])
        if let link = parts.query["url"], !(link.hasPrefix("https://") || link.hasPrefix("http://")) || link.utf8.count > 512 {
            throw ParseError("pushover url is an http(s) URL of at most 512 characters")
        }
        return Pushover(
            user: user, token: parts.host, devices: targets.filter { !$0.hasPrefix("#") }, priority: priority,
            sound: parts.query["sound"], retry: retry, expire: expire,
            groups: targets.filter { $0.hasPrefix("#") && $0.count > 1 }.map { String($0.dropFirst()) },
            link: parts.query["url"], linkTitle: parts.query["url_title"].map { String($0.prefix(100)) })
    }

    private static func telegram(_ parts: URLParts) throws(ParseError) -> Telegram {
        // `123456:ABC` reads as a host and a port: Apprise puts them together again, and takes
        // the token with the `bot` its API path puts before it.
        var token = parts.rawAuthority
        if token.lowercased().hasPrefix("bot") { token = String(token.dropFirst(3)) }
        guard let colon = token.firstIndex(of: ":"), token[..<colon].allSatisfy(\.isASCIIDigit), !token[..<colon].isEmpty,
            token[token.index(after: colon)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { throw ParseError("a Telegram URL is tgram://BOT_TOKEN/CHAT_ID (the token looks like 123456:ABC…)") }
        // Chats in the path and in `?to=`, as Apprise takes them.
        let named = parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty } } ?? [])
        guard !named.isEmpty else { throw ParseError("name the chat: tgram://BOT_TOKEN/CHAT_ID") }
        let silent = ["yes", "true", "1"].contains(parts.query["silent"]?.lowercased() ?? "")
        // A chat is CHAT or CHAT:THREAD (a forum topic); `?topic=` (or `?thread=`) is the thread
        // of a chat that names none.
        let topic = parts.query["topic"] ?? parts.query["thread"]
        if let topic, Int(topic) == nil { throw ParseError("Telegram topic is the thread's number") }
        var chats: [String] = []
        for chat in named {
            let halves = chat.split(separator: ":", omittingEmptySubsequences: false)
            guard halves.count <= 2, !halves[0].isEmpty, halves.count == 1 || Int(halves[1]) != nil else {
                throw ParseError("a Telegram chat is CHAT_ID or CHAT_ID:THREAD_ID")
            }
            chats.append(halves.count == 1 ? topic.map { "\(chat):\($0)" } ?? chat : chat)
        }
        return Telegram(token: token, chats: chats, silent: silent)
    }

    private static func matrix(_ parts: URLParts, secure: Bool) throws(ParseError) -> Matrix {
        guard parts.hasValidPort else { throw ParseError("the port is not a number from 1 to 65535") }
        let token = parts.query["token"] ?? (parts.password == nil ? parts.user : nil)
        guard let token, !token.isEmpty else {
            throw ParseError(parts.password != nil
                ? "matrix log-in with a password is not supported: use an access token, matrixs://TOKEN@HOST/#ROOM"
                : "a Matrix URL is matrixs://ACCESS_TOKEN@HOST/#ROOM")
        }
        // Every room in the path (`/#room1/#room2`, `/!id:server`) and in `?to=`, each joined
        // before it is sent to, as Apprise does (an invited user can then post).
        var rooms: [String] = []
        for text in parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0) } } ?? []) {
            let room = text.trimmingWhitespace()
            guard room.count > 1, room.hasPrefix("#") || room.hasPrefix("!") else {
                throw ParseError("a Matrix room is #ALIAS or !ROOM_ID: matrixs://TOKEN@HOST/#ROOM")
            }
            // An alias without its server (`#commute`) is completed when sent, with the server
            // the account is on (which may not be this host: a delegated homeserver).
            if !rooms.contains(room) { rooms.append(room) }
        }
        guard !rooms.isEmpty else { throw ParseError("name the room: matrixs://TOKEN@HOST/#ROOM or /!ROOM_ID:SERVER") }
        let type = parts.query["msgtype"]?.lowercased() ?? "text"
        guard type == "text" || type == "notice" else { throw ParseError("matrix msgtype is text or notice") }
        return Matrix(server: "\(secure ? "https" : "http")://\(parts.hostAndPort)", token: token, rooms: rooms, messageType: "m." + type)
    }

    private static func discord(_ parts: URLParts) throws(ParseError) -> Discord {
        guard parts.host.allSatisfy(\.isASCIIDigit), !parts.host.isEmpty, let token = parts.path.first, parts.path.count == 1 else {
            throw ParseError("a Discord URL is discord://WEBHOOK_ID/WEBHOOK_TOKEN")
        }
        // Apprise's `?thread=` posts into a thread (or forum post); `?tts=yes` reads it aloud.
        let thread = parts.query["thread"]
        if let thread, thread.isEmpty || !thread.allSatisfy(\.isASCIIDigit) { throw ParseError("discord thread is the thread's ID (digits)") }
        return Discord(
            webhookID: parts.host, token: token, botname: parts.query["botname"] ?? parts.user, thread: thread,
            speaks: ["yes", "true", "1"].contains(parts.query["tts"]?.lowercased() ?? ""))
    }

    private static func slack(_ parts: URLParts) throws(ParseError) -> Slack {
        if parts.host.lowercased().hasPrefix("xox") {
            throw ParseError("Slack bot tokens are not supported: use an incoming webhook, slack://T…/B…/X…")
        }
        let tokens = [parts.host] + parts.path.filter { !$0.hasPrefix("#") && !$0.hasPrefix("@") }
        guard tokens.count == 3, tokens.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            throw ParseError("a Slack URL is slack://T…/B…/X… (the three parts of the incoming webhook's address)")
        }
        // As Apprise: `botname@` names the poster, `/#channel` (or `/@user`) is where it posts.
        let channels = parts.path.filter { ($0.hasPrefix("#") || $0.hasPrefix("@")) && $0.count > 1 }
        guard channels.count <= 1 else { throw ParseError("one Slack channel per notifier: add one notifier for each") }
        return Slack(path: tokens.joined(separator: "/"), botname: parts.query["botname"] ?? parts.user, channel: channels.first)
    }

    private static func json(_ parts: URLParts, secure: Bool) throws(ParseError) -> JSONPost {
        guard parts.hasValidPort else { throw ParseError("the port is not a number from 1 to 65535") }
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
            throw ParseError("json method is POST, GET, DELETE, PUT, HEAD or PATCH")
        }
        if headers.keys.contains(where: { !$0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }) {
            throw ParseError("a json +HEADER is letters, digits and dashes")
        }
        var allowed = ScalarSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = parameters.isEmpty ? "" : "?" + parameters.map { "\($0.0.percentEncoded(keeping: allowed))=\($0.1.percentEncoded(keeping: allowed))" }.joined(separator: "&")
        let url = "\(secure ? "https" : "http")://\(credentials)\(parts.hostAndPort)\(path)\(query)"
        guard WebhookNotifier.isWebhookURL(url) else { throw ParseError("not a URL a message can be posted to") }
        return JSONPost(url: url, method: method, headers: headers, extras: extras)
    }

    private static func mailto(_ rest: String) throws(ParseError) -> Sendmail {
        if rest.hasPrefix("//") {
            throw ParseError("SMTP (mailto://, mailtos://) is not supported: write mailto:ADDRESS to send through this machine's sendmail, as cron does")
        }
        // Apprise's mailto options (cc=, bcc=, from=, name=…) are its SMTP client's: sendmail takes
        // none of them, so they are refused rather than dropped.
        if let question = rest.firstIndex(of: "?") {
            let option = rest[rest.index(after: question)...].split(separator: "=").first.map { DisplayText.line(String($0.prefix(30))) } ?? ""
            throw ParseError("mailto option \(option)= is not one traveltimes takes (mailto:ADDRESS[,ADDRESS…] goes through this machine's sendmail): remove it")
        }
        let recipients = rest.split(separator: ",").map(String.init)
        let address = /^[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+$/
        guard !recipients.isEmpty, recipients.allSatisfy({ $0.wholeMatch(of: address) != nil }) else {
            throw ParseError("expected mailto:ADDRESS[,ADDRESS…], such as mailto:ada@example.com")
        }
        return Sendmail(recipients: recipients)
    }

    private static func number(_ text: String?, default value: Int, in range: ClosedRange<Int>, _ name: String) throws(ParseError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else { throw ParseError("\(name) is a number of seconds from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    // MARK: Showing

    /// One line with no secret in it: `ntfy https://ntfy.sh/…`, `telegram (2 chats)`.
    public var summary: String {
        switch self {
        case .ntfy(let ntfy): "ntfy \(ntfy.server)/…" + (ntfy.authorization == nil ? "" : " (with credentials)")
        case .gotify(let gotify): "gotify \(WebhookNotifier.redact(gotify.server))"
        case .pushover(let pushover): "pushover" + (pushover.devices.isEmpty ? "" : " (\(pushover.devices.count) device\(pushover.devices.count == 1 ? "" : "s"))")
        case .telegram(let telegram): "telegram (\(telegram.chats.count) chat\(telegram.chats.count == 1 ? "" : "s"))"
        case .matrix(let matrix): "matrix \(matrix.server)"
        case .discord: "discord webhook"
        case .slack: "slack webhook"
        case .json(let post): "json \(WebhookNotifier.redact(post.url))"
        case .sendmail(let mail): "mailto:" + mail.recipients.joined(separator: ",")
        }
    }

    /// Its kind, where it sends without a secret, its settings, and whether it holds credentials
    /// (`Notifier.parts`).
    var parts: (kind: String, target: String?, options: [String: Notifier.Setting], credentials: Bool) {
        func some(_ pairs: [(String, Notifier.Setting?)]) -> [String: Notifier.Setting] {
            Dictionary(pairs.compactMap { key, value in value.map { (key, $0) } }, uniquingKeysWith: { first, _ in first })
        }
        switch self {
        case .ntfy(let ntfy):
            return ("ntfy", "\(ntfy.server)/…", some([
                ("priority", ntfy.priority.map(Notifier.Setting.int)), ("tags", ntfy.tags.isEmpty ? nil : .strings(ntfy.tags)),
                ("click", ntfy.click.map { _ in .bool(true) }),
            ]), true)
        case .gotify(let gotify): return ("gotify", WebhookNotifier.redact(gotify.server), ["priority": .int(gotify.priority)], true)
        case .pushover(let pushover):
            return ("pushover", pushover.devices.isEmpty ? nil : pushover.devices.joined(separator: ","), some([
                ("priority", pushover.priority.map(Notifier.Setting.int)), ("sound", pushover.sound.map(Notifier.Setting.string)),
                ("retry", .int(pushover.retry)), ("expire", .int(pushover.expire)),
            ]), true)
        case .telegram(let telegram): return ("telegram", telegram.chats.joined(separator: ","), ["silent": .bool(telegram.silent)], true)
        case .matrix(let matrix): return ("matrix", "\(matrix.server) \(matrix.rooms.joined(separator: " "))", ["msgtype": .string(matrix.messageType)], true)
        case .discord(let discord): return ("discord", nil, some([("botname", discord.botname.map(Notifier.Setting.string))]), true)
        case .slack: return ("slack", nil, [:], true)
        case .json(let post): return ("json", WebhookNotifier.redact(post.url), [:], true)
        case .sendmail(let mail): return ("email", mail.recipients.joined(separator: ","), [:], false)
        }
    }

    /// Every part of a notifier URL that may be a secret — its user and password, each path
    /// segment, each query value, the host of a scheme whose host is a token (Telegram's), as
    /// written and decoded — to be taken out of whatever a server sends back, which may quote any
    /// of them ("invalid api key KEY"). Parts under 4 characters are left: they would take
    /// ordinary words out of every message.
    public static func secretParts(of url: String) -> [String] {
        guard let parts = URLParts(url) else { return [] }
        var found = [parts.user, parts.password].compactMap { $0 } + parts.path + Array(parts.query.values)
        if url.lowercased().hasPrefix("tgram:") { found.append(parts.host) }
        if let raw = parts.rawQuery {
            found += raw.split(separator: "&").compactMap { $0.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) }
        }
        found += found.map { $0.percentEncoded(keeping: .alphanumerics) }
        return Array(Set(found.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    /// Every credential in it, to be taken out of any text that might quote one.
    public var secrets: [String] {
        switch self {
        case .ntfy(let ntfy): [ntfy.topic] + (ntfy.authorization.map { [$0, String($0.drop { $0 != " " }.dropFirst())] } ?? [])
        case .gotify(let gotify): [gotify.token]
        case .pushover(let pushover): [pushover.user, pushover.token]
        case .telegram(let telegram): [telegram.token]
        case .matrix(let matrix): [matrix.token]
        case .discord(let discord): [discord.token]
        case .slack(let slack): [slack.path] + slack.path.split(separator: "/").map(String.init)
        case .json(let post):
            [post.url] + Array(post.headers.values) + (URLComponents(string: post.url).map { parts in
                [parts.password, parts.percentEncodedPath, parts.percentEncodedQuery].compactMap { $0 }
                    + (parts.user.map { [Data("\($0):\(parts.password ?? "")".utf8).base64EncodedString()] } ?? [])
            } ?? [])
        case .sendmail: []
        }
    }
}

extension Channel {
    /// Why a `mailto:` notifier cannot send on this machine with `path`: no sendmail on it or in
    /// /usr/sbin (a mail transfer agent is not installed). Nil for any other channel, or when found.
    public func problem(path: String?) -> String? {
        guard case .sendmail = self, Sendmailer.program(path: path) == nil else { return nil }
        return "no sendmail on PATH or in /usr/sbin, so mail cannot be sent: install a mail transfer agent (msmtp-mta, postfix or exim4)"
    }
}
