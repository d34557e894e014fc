import Basics
import FoundationEssentials

/// One place alerts are sent.
public struct Notifier: Codable, Sendable, Equatable {
    public enum Kind: Codable, Sendable, Equatable {
        /// Print the alert: cron mails a job's output to its owner.
        case stdout
        /// Run a program with arguments (no shell); `{title}`, `{body}`, `{urgency}` and `{id}` in
        /// the arguments are replaced, and the same values are in the environment.
        case exec(program: String, arguments: [String])
        /// POST to a URL: `ntfy` (text body and Title/Priority/Tags headers), `slack`
        /// (`{"text"}`), `discord` (`{"content"}`), or `json` (the whole alert). `headers` are
        /// sent with it (`Authorization: Bearer …` for a protected ntfy topic): secrets, never
        /// shown. `click` is the URL ntfy opens when the alert is tapped.
        case webhook(url: String, format: WebhookNotifier.Format, headers: [String]? = nil, click: String? = nil)
        /// A notification service by its Apprise-style URL (`ntfys://ntfy.sh/topic`,
        /// `tgram://TOKEN/CHAT`): see `Channel`. The URL holds its credentials: a secret.
        case channel(url: String)
        /// The desktop's notifications, through `notify-send`: updated in place and closed.
        case desktop
    }

    /// Stable across removals of others: `notify remove 2` means the same notifier tomorrow.
    public var id: Int
    /// The largest notifier number.
    public static let largestID = 1_000_000
    public var kind: Kind
    /// What the user calls it (`phone`, `desk`): how schedules, watches and health alerts name
    /// the notifiers they go to.
    public var name: String?

    public init(id: Int, kind: Kind, name: String? = nil) {
        self.id = id
        self.kind = kind
        self.name = name
    }

    /// The notifiers of `all` that `names` picks: all of them when `names` is nil — and when none
    /// of the names is a notifier any more (one was removed), so that an alert is never sent
    /// nowhere.
    public static func chosen(_ names: [String]?, from all: [Notifier]) -> [Notifier] {
        guard let names, !names.isEmpty else { return all }
        let wanted = Set(names.map { $0.lowercased() })
        let picked = all.filter { $0.name.map { wanted.contains($0.lowercased()) } ?? false }
        return picked.isEmpty ? all : picked
    }

    /// Whether it can change a notification it sent (ntfy 2.16, Telegram, Matrix, Discord, the
    /// desktop): the others get a new message only when the change matters.
    public var canUpdate: Bool {
        switch kind {
        case .desktop: true
        case .channel(let url): (try? Channel(url: url))?.canUpdate ?? false
        case .stdout, .exec, .webhook: false
        }
    }

    /// Whether it can dismiss a notification it sent (ntfy 2.16, the desktop).
    public var canClear: Bool {
        switch kind {
        case .desktop: true
        case .channel(let url): (try? Channel(url: url))?.canClear ?? false
        case .stdout, .exec, .webhook: false
        }
    }

    /// A setting of a notifier, as `notify list --json` gives it.
    public enum Setting: Sendable, Equatable, Encodable {
        case int(Int), string(String), bool(Bool), strings([String])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            }
        }
    }

    /// What it is, in typed parts with no secret among them: its kind (`ntfy`, `telegram`,
    /// `exec`…), where it sends (a server without its topic, chat IDs, a program, a host; nil
    /// where that is the secret itself), its settings, and whether its URL holds credentials.
    public var parts: (kind: String, target: String?, options: [String: Setting], credentials: Bool) {
        switch kind {
        case .stdout: return ("stdout", nil, [:], false)
        case .desktop: return ("desktop", nil, [:], false)
        case .exec(let program, let arguments): return ("exec", DisplayText.line(program), ["arguments": .strings(arguments.map(DisplayText.line))], false)
        case .webhook(let url, let format, let headers, let click):
            var options: [String: Setting] = ["format": .string(format.rawValue)]
            if let headers { options["headers"] = .strings(headers.map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "" }) }
            if click != nil { options["click"] = .bool(true) }
            return ("webhook", WebhookNotifier.redact(url), options, true)
        case .channel(let url):
            guard let channel = try? Channel(url: url) else { return ("unreadable", nil, [:], true) }
            return channel.listing
        }
    }

    /// `stdout`, `exec notify-send -u {urgency} {title} {body}`: one line, whatever was typed.
    public var summary: String {
        (name.map { "\($0): " } ?? "") + kindSummary
    }

    private var kindSummary: String {
        switch kind {
        case .desktop: "desktop"
        case .channel(let url): (try? Channel(url: url))?.summary ?? "a notifier URL that no longer reads"
        case .stdout: "stdout"
        case .exec(let program, let arguments): DisplayText.line((["exec", program] + arguments).joined(separator: " "))
        case .webhook(let url, let format, let headers, let click):
            // Header values and the URL's path are secrets: the header names and the host are shown.
            "webhook \(WebhookNotifier.redact(url)) (" + ([format.rawValue]
                + (headers ?? []).map { "header " + ($0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "") }
                + (click == nil ? [] : ["click"])).joined(separator: ", ") + ")"
        }
    }
}
