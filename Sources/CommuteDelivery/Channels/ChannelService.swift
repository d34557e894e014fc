import Basics
import FoundationEssentials

/// One notification service, in a file of its own under `Services/`: how its Apprise-style URL
/// reads, what of it may be shown, and how it sends, changes and dismisses a notification.
/// `Channel.services` lists them; the schemes `notify add` takes, the options each refuses,
/// `notify list` and the sender all read that list. A new service is its file, its case in
/// `Channel` and its line in the list (ARCHITECTURE.md, "Adding a notification service").
protocol ChannelService: Sendable {
    /// Its name in `notify list` (`ntfy`, `email`).
    static var kind: String { get }
    /// The URL schemes that name it, its family's name first (`ntfy`, then `ntfys` for TLS).
    static var schemes: [String] { get }
    /// How its URLs are written, as `notify add --help` shows them (continuation lines indented).
    static var forms: [String] { get }
    /// Its fixed host, and the environment variable a test server replaces it with; nil for a
    /// service whose URL names its server.
    static var host: FixedHost? { get }
    /// Apprise's query options it takes: any other is refused, by name.
    static var options: Set<String> { get }
    /// The `format=` it sends anyway, taken when a URL names it; nil when none is taken.
    static var sentFormat: String? { get }
    /// Apprise's options beyond `verify` whose value must be the one traveltimes keeps to.
    static var fixedOptions: Set<String> { get }
    /// Whether it changes a notification it sent, and whether it dismisses one.
    static var canUpdate: Bool { get }
    static var canClear: Bool { get }

    /// Reads a URL in one of its `schemes` (`scheme`, lower-cased).
    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel
    /// One line with no secret in it: `ntfy https://ntfy.sh/…`, `telegram (2 chats)`.
    var summary: String { get }
    /// What `notify list --json` shows of it.
    var listing: Channel.Listing { get }
    /// Every credential in it, to be taken out of any text that might quote one.
    var secrets: [String] { get }
    /// One operation, through the sender's requests.
    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt
}

extension ChannelService {
    static var host: FixedHost? { nil }
    static var options: Set<String> { [] }
    static var sentFormat: String? { nil }
    static var fixedOptions: Set<String> { [] }
    static var canUpdate: Bool { false }
    static var canClear: Bool { false }
}

/// A service's own host (`https://api.telegram.org`), and the environment variable that puts a
/// test server in its place.
struct FixedHost: Sendable {
    var standard: String
    var variable: EnvironmentVariable
}

extension Channel {
    /// What `notify list --json` shows of a channel: its kind, where it sends without a secret
    /// (nil where that is the secret itself), its settings, and whether it holds credentials.
    typealias Listing = (kind: String, target: String?, options: [String: Notifier.Setting], credentials: Bool)

    /// The listed settings that are set.
    static func settings(_ pairs: [(String, Notifier.Setting?)]) -> [String: Notifier.Setting] {
        Dictionary(pairs.compactMap { key, value in value.map { (key, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The parts of a `scheme://…` URL, each checked as it will be used, decoded (a %0D%0A in a
    /// token or a tag would otherwise become a header of its own), and its options checked
    /// against what `service` takes.
    static func parts(of text: String, scheme: String, for service: (any ChannelService.Type)?) throws(ParseError) -> URLParts {
        guard let parts = URLParts(text) else { throw ParseError("not a URL: expected \(scheme)://…") }
        let decoded = [parts.user, parts.password].compactMap { $0 } + parts.path + Array(parts.query.keys) + Array(parts.query.values)
        if decoded.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" } }) {
            throw ParseError("a part of the URL decodes to a control character (such as a line break): write it without one")
        }
        if let service { try checkOptions(parts, service: service) }
        return parts
    }

    /// Apprise's options for every service that change how Apprise itself runs, not what is sent:
    /// its timeouts (cto, rto), its emoji codes and time zone for templates, its cache, its
    /// handling of a body over the service's length (our messages are short), redirects: taken
    /// and left to traveltimes' own ways.
    static let ownOptions: Set<String> = ["cto", "rto", "emojis", "tz", "store", "wait", "redirect", "optional", "overflow"]

    /// The options whose value must be the one traveltimes keeps to.
    static let fixedOptions: [String: (values: Set<String>, meaning: String)] = [
        "verify": (["yes", "true", "1"], "traveltimes always verifies TLS certificates"),
        "avatar": (["no", "false", "0"], "traveltimes sends no avatar"),
        "footer": (["no", "false", "0"], "traveltimes sends no footer"),
    ]

    /// Refuses, naming it, any query option the service does not take: an option Apprise honours
    /// that went unread here would send another request than the one the user pasted the URL for.
    private static func checkOptions(_ parts: URLParts, service: any ChannelService.Type) throws(ParseError) {
        let family = service.schemes[0]
        for key in parts.query.keys.sorted() where !service.options.contains(key) {
            // json://'s +HEADER (read as a space), -PARAM and :KEY are the endpoint's.
            if service is Channel.JSONPost.Type, let first = key.first, " +-:".contains(first) { continue }
            if ownOptions.contains(key) { continue }
            let value = parts.query[key]?.lowercased() ?? ""
            if key == "format", let sent = service.sentFormat {
                guard value == sent else { throw ParseError("\(family) format=\(DisplayText.line(String(value.prefix(20)))) is not what traveltimes sends: it sends \(sent) (format=\(sent), or leave it out)") }
                continue
            }
            if let fixed = fixedOptions[key], key == "verify" || service.fixedOptions.contains(key) {
                guard fixed.values.contains(value) else { throw ParseError("\(family) \(key)=\(DisplayText.line(String(value.prefix(20)))) is not taken: \(fixed.meaning)") }
                continue
            }
            throw ParseError(
                "\(family) option \(DisplayText.line(String(key.prefix(30))))= is not one traveltimes takes (it takes \(service.options.sorted().joined(separator: ", "))): remove it")
        }
    }

    /// A number of seconds from the URL, within `range`.
    static func seconds(_ text: String?, default value: Int, in range: ClosedRange<Int>, _ name: String) throws(ParseError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else { throw ParseError("\(name) is a number of seconds from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }
}
