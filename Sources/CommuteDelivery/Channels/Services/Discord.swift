import Basics
import FoundationEssentials

extension Channel {
    /// Discord (`discord://WEBHOOK_ID/TOKEN`): a webhook's messages, edited in place.
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
}

extension Channel.Discord: ChannelService {
    static let kind = "discord"
    static let schemes = ["discord"]
    static let forms = [
        "discord://[BOTNAME@]WEBHOOK_ID/WEBHOOK_TOKEN, https://discord.com/api/webhooks/… (?thread=, ?tts=)",
    ]
    static let fixedHost = FixedHost(
        standard: "https://discord.com",
        variable: EnvironmentVariable("TRAVELTIMES_DISCORD_URL", meaning: "Replaces https://discord.com for discord:// notifiers"))
    static var host: FixedHost? { fixedHost }
    static let options: Set<String> = ["botname", "thread", "tts"]
    static let sentFormat: String? = "text"
    static let fixedOptions: Set<String> = ["avatar", "footer"]
    static let canUpdate = true

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        guard parts.host.allSatisfy(\.isASCIIDigit), !parts.host.isEmpty, let token = parts.path.first, parts.path.count == 1 else {
            throw .init("a Discord URL is discord://WEBHOOK_ID/WEBHOOK_TOKEN")
        }
        // Apprise's `?thread=` posts into a thread (or forum post); `?tts=yes` reads it aloud.
        let thread = parts.query["thread"]
        if let thread, thread.isEmpty || !thread.allSatisfy(\.isASCIIDigit) { throw .init("discord thread is the thread's ID (digits)") }
        return .discord(.init(
            webhookID: parts.host, token: token, botname: parts.query["botname"] ?? parts.user, thread: thread,
            speaks: ["yes", "true", "1"].contains(parts.query["tts"]?.lowercased() ?? "")))
    }

    var summary: String { "discord webhook" }
    var listing: Channel.Listing { ("discord", nil, Channel.settings([("botname", botname.map(Notifier.Setting.string))]), true) }
    var secrets: [String] { [token] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        let hook = sender.base(Self.fixedHost) + "/api/webhooks/\(webhookID)/\(token)"
        func body(_ message: AlertMessage) -> Data {
            var object: [String: Any] = ["content": Limits.cut("**\(message.title)**\n\(message.body)", to: 2_000)]
            if let botname { object["username"] = botname }
            if speaks { object["tts"] = true }
            return ChannelSender.json(object)
        }
        let threadQuery = thread.map { "thread_id=\($0)" }
        let headers = ["Content-Type": "application/json"]
        switch operation {
        case .send(let message):
            let query = (["wait=true"] + (threadQuery.map { [$0] } ?? [])).joined(separator: "&")
            return sender.request("POST", hook + "?" + query, headers: headers, body: body(message), service: "Discord").receipt(handle: \.["id"])
        case .update(let message, let handle):
            return sender.request(
                "PATCH", "\(hook)/messages/\(ChannelSender.pathSegment(handle))" + (threadQuery.map { "?" + $0 } ?? ""), headers: headers,
                body: body(message), service: "Discord"
            ).receipt(keeping: handle)
        case .clear:
            return .cannot("Discord keeps messages in the channel; it has nothing to dismiss")
        }
    }
}
