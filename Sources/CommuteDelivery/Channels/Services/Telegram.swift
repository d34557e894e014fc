import Basics
import FoundationEssentials

extension Channel {
    /// Telegram (`tgram://BOT_TOKEN/CHAT`): a bot's messages to chats, edited in place.
    public struct Telegram: Sendable, Equatable {
        /// `123456:ABC…`: a secret.
        public var token: String
        /// `CHAT` or `CHAT:THREAD`.
        public var chats: [String]
        public var silent: Bool
    }
}

extension Channel.Telegram: ChannelService {
    static let kind = "telegram"
    static let schemes = ["tgram"]
    static let forms = ["tgram://BOT_TOKEN/CHAT_ID[:THREAD_ID] (?to=, ?topic=, ?silent=yes)"]
    static let fixedHost = FixedHost(
        standard: "https://api.telegram.org",
        variable: EnvironmentVariable("TRAVELTIMES_TELEGRAM_URL", meaning: "Replaces https://api.telegram.org for tgram:// notifiers"))
    static var host: FixedHost? { fixedHost }
    static let options: Set<String> = ["silent", "topic", "thread", "to"]
    static let sentFormat: String? = "html"
    static let canUpdate = true

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        // `123456:ABC` reads as a host and a port: Apprise puts them together again, and takes
        // the token with the `bot` its API path puts before it.
        var token = parts.rawAuthority
        if token.lowercased().hasPrefix("bot") { token = String(token.dropFirst(3)) }
        guard let colon = token.firstIndex(of: ":"), token[..<colon].allSatisfy(\.isASCIIDigit), !token[..<colon].isEmpty,
            token[token.index(after: colon)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { throw .init("a Telegram URL is tgram://BOT_TOKEN/CHAT_ID (the token looks like 123456:ABC…)") }
        // Chats in the path and in `?to=`, as Apprise takes them.
        let named = parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty } } ?? [])
        guard !named.isEmpty else { throw .init("name the chat: tgram://BOT_TOKEN/CHAT_ID") }
        let silent = ["yes", "true", "1"].contains(parts.query["silent"]?.lowercased() ?? "")
        // A chat is CHAT or CHAT:THREAD (a forum topic); `?topic=` (or `?thread=`) is the thread
        // of a chat that names none.
        let topic = parts.query["topic"] ?? parts.query["thread"]
        if let topic, Int(topic) == nil { throw .init("Telegram topic is the thread's number") }
        var chats: [String] = []
        for chat in named {
            let halves = chat.split(separator: ":", omittingEmptySubsequences: false)
            guard halves.count <= 2, !halves[0].isEmpty, halves.count == 1 || Int(halves[1]) != nil else {
                throw .init("a Telegram chat is CHAT_ID or CHAT_ID:THREAD_ID")
            }
            chats.append(halves.count == 1 ? topic.map { "\(chat):\($0)" } ?? chat : chat)
        }
        return .telegram(.init(token: token, chats: chats, silent: silent))
    }

    var summary: String { "telegram (\(chats.count) chat\(chats.count == 1 ? "" : "s"))" }
    var listing: Channel.Listing { ("telegram", chats.joined(separator: ","), ["silent": .bool(silent)], true) }
    var secrets: [String] { [token] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        let api = sender.base(Self.fixedHost) + "/bot\(token)"
        func text(_ message: AlertMessage) -> String {
            Limits.cut("<b>\(ChannelSender.html(message.title))</b>\n\(ChannelSender.html(message.body))", to: 4_096)
        }
        switch operation {
        case .send(let message):
            // One message per chat; the handle names each: `chat:message`, comma-separated. Chats
            // an earlier attempt reached are not sent to again.
            var handles = message.reached.map { reached in
                ChannelSender.chatMessages(reached).filter { chats.contains($0.0) }.map { "\($0.0):\($0.1)" }
            } ?? []
            let done = Set(handles.compactMap { $0.split(separator: ":").dropLast().joined(separator: ":") })
            for chat in chats where !done.contains(chat) {
                var fields: [String: Any] = ["text": text(message), "parse_mode": "HTML", "disable_notification": silent]
                let halves = chat.split(separator: ":")
                fields["chat_id"] = String(halves[0])
                if halves.count == 2, let thread = Int(halves[1]) { fields["message_thread_id"] = thread }
                let answer = sender.request(
                    "POST", "\(api)/sendMessage", headers: ["Content-Type": "application/json"], body: ChannelSender.json(fields), service: "Telegram")
                let receipt = answer.receipt(handle: \.["result", "message_id"])
                guard case .delivered = receipt.result, let id = receipt.handle else {
                    return AlertReceipt(result: receipt.result, handle: handles.isEmpty ? nil : handles.joined(separator: ","))
                }
                handles.append("\(chat):\(id)")
            }
            return AlertReceipt(result: .delivered, handle: handles.joined(separator: ","))
        case .update(let message, let handle):
            for (chat, id) in ChannelSender.chatMessages(handle) {
                let answer = sender.request(
                    "POST", "\(api)/editMessageText", headers: ["Content-Type": "application/json"],
                    body: ChannelSender.json([
                        "chat_id": String(chat.split(separator: ":").first ?? ""), "message_id": Int(id) ?? 0, "text": text(message), "parse_mode": "HTML",
                    ]),
                    service: "Telegram")
                // Editing to the same words is refused as "message is not modified": nothing to do.
                if answer.status == 400, answer.reason?.contains("not modified") == true { continue }
                let receipt = answer.receipt(keeping: handle)
                guard case .delivered = receipt.result else { return receipt }
            }
            return AlertReceipt(result: .delivered, handle: handle)
        case .clear:
            return .cannot("Telegram keeps messages in the chat; it has nothing to dismiss")
        }
    }
}
