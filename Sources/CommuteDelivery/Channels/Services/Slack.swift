import Basics
import FoundationEssentials

extension Channel {
    /// Slack (`slack://T…/B…/X…`): an incoming webhook, which cannot change what it posted.
    public struct Slack: Sendable, Equatable {
        /// `T…/B…/X…`: the incoming webhook's path, a secret.
        public var path: String
        /// `botname@`: the name it posts as; `/#channel`: where.
        public var botname: String? = nil
        public var channel: String? = nil
    }
}

extension Channel.Slack: ChannelService {
    static let kind = "slack"
    static let schemes = ["slack"]
    static let forms = ["slack://[BOTNAME@]T…/B…/X…[/#CHANNEL], https://hooks.slack.com/services/…"]
    static let fixedHost = FixedHost(
        standard: "https://hooks.slack.com",
        variable: EnvironmentVariable("TRAVELTIMES_SLACK_URL", meaning: "Replaces https://hooks.slack.com for slack:// notifiers"))
    static var host: FixedHost? { fixedHost }
    static let options: Set<String> = ["botname"]
    static let sentFormat: String? = "text"
    static let fixedOptions: Set<String> = ["footer"]

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        if parts.host.lowercased().hasPrefix("xox") {
            throw .init("Slack bot tokens are not supported: use an incoming webhook, slack://T…/B…/X…")
        }
        let tokens = [parts.host] + parts.path.filter { !$0.hasPrefix("#") && !$0.hasPrefix("@") }
        guard tokens.count == 3, tokens.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            throw .init("a Slack URL is slack://T…/B…/X… (the three parts of the incoming webhook's address)")
        }
        // As Apprise: `botname@` names the poster, `/#channel` (or `/@user`) is where it posts.
        let channels = parts.path.filter { ($0.hasPrefix("#") || $0.hasPrefix("@")) && $0.count > 1 }
        guard channels.count <= 1 else { throw .init("one Slack channel per notifier: add one notifier for each") }
        return .slack(.init(path: tokens.joined(separator: "/"), botname: parts.query["botname"] ?? parts.user, channel: channels.first))
    }

    var summary: String { "slack webhook" }
    var listing: Channel.Listing { ("slack", nil, [:], true) }
    var secrets: [String] { [path] + path.split(separator: "/").map(String.init) }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("a Slack incoming webhook cannot change what it posted") }
        let url = sender.base(Self.fixedHost) + "/services/\(path)"
        let text = Limits.cut("*\(message.title)*\n\(message.body)", to: 40_000)
        var object: [String: Any] = ["text": text]
        if let botname { object["username"] = botname }
        if let channel { object["channel"] = channel }
        return sender.request("POST", url, headers: ["Content-Type": "application/json"], body: ChannelSender.json(object), service: "Slack")
            .receipt()
    }
}
