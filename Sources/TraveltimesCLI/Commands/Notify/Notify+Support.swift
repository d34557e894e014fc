import CommuteCore
import FoundationEssentials

extension Commands {
    /// A notifier URL, parsed as Apprise parses it; why not, without repeating it.
    static func channel(_ url: String, _ invocation: Invocation, force: Bool = false) throws -> Notifier.Kind {
        let channel: Channel
        do {
            channel = try Channel(url: url)
        } catch {
            throw invocation.usage("Cannot add that URL: \(error.description).")
        }
        // mailto: goes through this machine's sendmail: with none, it could never send.
        if !force, let problem = channel.problem(path: invocation.environment[.path]) {
            throw invocation.usage("Cannot add that mailto: notifier: \(problem). Pass --force before the URL to add it anyway.")
        }
        return .channel(url: url)
    }

    /// `webhook URL [--format F] [--header 'Name: value']... [--click URL]`, read with the same
    /// parser as every command's options. No message repeats a header's value or the URL's path.
    static func webhook(_ words: [String], _ invocation: Invocation) throws -> Notifier.Kind {
        let usage = "notify add webhook URL [--format ntfy|slack|discord|json] [--header 'Name: value']... [--click URL]"
        let parsed = try ArgumentParser.parse(
            words, options: [WebhookOptions.format.spec, WebhookOptions.header.spec, WebhookOptions.click.spec], positionals: 0...Int.max,
            command: "notify add")
        var format = WebhookNotifier.Format.ntfy
        if let text = parsed.value(for: WebhookOptions.format.spec) {
            guard let chosen = WebhookNotifier.Format(rawValue: text) else { throw invocation.usage("--format takes ntfy, slack, discord or json.") }
            format = chosen
        }
        guard parsed.positionals.count == 1, let url = parsed.positionals.first, WebhookNotifier.isWebhookURL(url) else {
            throw invocation.usage("webhook needs one http(s) URL: \(usage).")
        }
        let headers = parsed.values(for: WebhookOptions.header.spec)
        for header in headers {
            guard WebhookNotifier.isHeader(header), let value = header.split(separator: ":", maxSplits: 1).last,
                  !value.trimmingWhitespace().isEmpty
            else { throw invocation.usage("--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'.") }
        }
        let click = parsed.value(for: WebhookOptions.click.spec)
        if let click {
            guard format == .ntfy || format == .json else { throw invocation.usage("--click is for ntfy (or json) webhooks; \(format.rawValue) has no click URL.") }
            guard WebhookNotifier.isWebhookURL(click) else { throw invocation.usage("--click takes an http(s) URL.") }
        }
        return .webhook(url: url, format: format, headers: headers.isEmpty ? nil : headers, click: click)
    }

    /// A webhook's own options, read from the words after `notify add webhook`.
    enum WebhookOptions {
        static let format = Option<String>("--format", value: "FORMAT", help: "ntfy, slack, discord or json")
        static let header = Option<String>("--header", value: "HEADER", help: "'Name: value', sent with each alert", repeatable: true)
        static let click = Option<String>("--click", value: "URL", help: "What opens when the alert is tapped")
    }
}

struct NotifierJSON: EveryKeyEncodable {
    var id: Int
    var name: String?
    /// `stdout`, `desktop`, `exec`, `webhook`, or the service: `ntfy`, `gotify`, `pushover`,
    /// `telegram`, `matrix`, `discord`, `slack`, `json`, `email`.
    var kind: String
    /// Where it sends, without a secret; null where that is the secret itself.
    var target: String?
    var options: [String: Notifier.Setting]
    /// Whether its URL or headers hold credentials (never shown).
    var credentials: Bool
    /// The line `notify list` shows.
    var summary: String

    init(_ notifier: Notifier) {
        let parts = notifier.parts
        id = notifier.id
        name = notifier.name
        kind = parts.kind
        target = parts.target
        options = parts.options
        credentials = parts.credentials
        summary = notifier.summary
    }
}
