import Basics
import FoundationEssentials

/// A notification service, read from an Apprise-style URL (`ntfys://ntfy.sh/commute`,
/// `tgram://123456:ABC/4242`): where alerts go and the credentials they need. The URL is stored
/// as it was given, in the 0600 configuration; every credential in it is a secret, shown by
/// `summary` as `…`. Parsing follows Apprise's, so a URL that works there works here. Each
/// service is a file of its own under `Services/`, listed in `services`.
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

    /// Every service, in the order `notify add --help` names their schemes.
    static let services: [any ChannelService.Type] = [
        Ntfy.self, Gotify.self, Pushover.self, Telegram.self, Matrix.self, Discord.self, Slack.self, JSONPost.self, Sendmail.self,
    ]

    /// The service it is.
    var service: any ChannelService {
        switch self {
        case .ntfy(let ntfy): ntfy
        case .gotify(let gotify): gotify
        case .pushover(let pushover): pushover
        case .telegram(let telegram): telegram
        case .matrix(let matrix): matrix
        case .discord(let discord): discord
        case .slack(let slack): slack
        case .json(let post): post
        case .sendmail(let mail): mail
        }
    }

    /// Why a URL is not a channel, in words that say what to write instead.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The schemes `notify add URL` takes.
    public static let schemes = services.flatMap { $0.schemes }

    /// How each service's URLs are written, a line each (continuations indented), for help.
    public static let forms = services.flatMap { $0.forms }

    /// The environment variable that replaces the fixed host of the service `url` names (a test
    /// server in place of api.telegram.org), or nil.
    public static func hostVariable(of url: String) -> EnvironmentVariable? {
        let scheme = (nativeForm(url) ?? url).prefix { $0 != ":" }.lowercased()
        return services.first { $0.schemes.contains(scheme) }?.host?.variable
    }

    /// What a service is, as the README's table shows it.
    public struct Facts: Sendable {
        public var kind: String
        public var schemes: [String]
        public var canUpdate: Bool
        public var canClear: Bool
        public var hostVariable: EnvironmentVariable?
    }

    /// Every service's facts, in the order of `services`.
    public static var facts: [Facts] {
        services.map { Facts(kind: $0.kind, schemes: $0.schemes, canUpdate: $0.canUpdate, canClear: $0.canClear, hostVariable: $0.host?.variable) }
    }

    /// Every variable that replaces a service's fixed host, in the order of `services`.
    public static let hostVariables = services.compactMap { $0.host?.variable }

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
        guard let service = Self.services.first(where: { $0.schemes.contains(scheme) }) else {
            _ = try Self.parts(of: text, scheme: scheme, for: nil)
            throw ParseError("unknown scheme \(DisplayText.line(String(scheme.prefix(20)))): use one of " + Self.schemes.map { "\($0)://" }.joined(separator: ", "))
        }
        self = try service.read(url: text, scheme: scheme)
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

    /// One line with no secret in it: `ntfy https://ntfy.sh/…`, `telegram (2 chats)`.
    public var summary: String { service.summary }

    /// What `notify list --json` shows of it (`Notifier.parts`).
    var listing: Listing { service.listing }

    /// Every credential in it, to be taken out of any text that might quote one.
    public var secrets: [String] { service.secrets }

    /// Whether it changes a notification it sent, and whether it dismisses one.
    var canUpdate: Bool { type(of: service).canUpdate }
    var canClear: Bool { type(of: service).canClear }

    /// Why a `mailto:` notifier cannot send on this machine with `path`: no sendmail on it or in
    /// /usr/sbin (a mail transfer agent is not installed). Nil for any other channel, or when found.
    public func problem(path: String?) -> String? {
        guard case .sendmail = self, Sendmail.program(path: path) == nil else { return nil }
        return "no sendmail on PATH or in /usr/sbin, so mail cannot be sent: install a mail transfer agent (msmtp-mta, postfix or exim4)"
    }
}
