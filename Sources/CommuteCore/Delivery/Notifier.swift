import Foundation

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
    }

    /// Stable across removals of others: `notify remove 2` means the same notifier tomorrow.
    public var id: Int
    /// The largest notifier number.
    public static let largestID = 1_000_000
    public var kind: Kind

    public init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// `stdout`, `exec notify-send -u {urgency} {title} {body}`: one line, whatever was typed.
    public var summary: String {
        switch kind {
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
