import Basics
import FoundationEssentials

extension Channel {
    /// Pushover (`pover://USER@TOKEN`): a user's devices, or groups by their keys.
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
}

extension Channel.Pushover: ChannelService {
    static let kind = "pushover"
    static let schemes = ["pover"]
    static let forms = [
        "pover://USER_KEY@APP_TOKEN[/DEVICE][/#GROUP] (?to=, ?priority=, ?sound=, ?interval=, ?expire=,",
        "  ?url=, ?url_title=)",
    ]
    static let fixedHost = FixedHost(
        standard: "https://api.pushover.net",
        variable: EnvironmentVariable("TRAVELTIMES_PUSHOVER_URL", meaning: "Replaces https://api.pushover.net for pover:// notifiers"))
    static var host: FixedHost? { fixedHost }
    static let options: Set<String> = ["priority", "sound", "interval", "expire", "to", "retry", "url", "url_title"]
    static let sentFormat: String? = "text"

    static func read(url: String, scheme: String) throws(Channel.ParseError) -> Channel {
        let parts = try Channel.parts(of: url, scheme: scheme, for: Self.self)
        guard let user = parts.user, !user.isEmpty, !parts.host.isEmpty else {
            throw .init("a Pushover URL is pover://USER_KEY@APP_TOKEN[/DEVICE…]")
        }
        var priority: Int?
        if let text = parts.query["priority"] {
            let names = ["low": -2, "moderate": -1, "normal": 0, "high": 1, "emergency": 2]
            guard let value = names[text.lowercased()] ?? Int(text), (-2...2).contains(value) else {
                throw .init("pushover priority is low, moderate, normal, high, emergency or -2 to 2")
            }
            priority = value
        }
        // Apprise's defaults and bounds: an emergency repeats every `interval` s (at least 30)
        // until acknowledged or `expire` s (at most 10,800) have passed. Its `retry` is another
        // thing: how often Apprise itself resends a failed request.
        if parts.query["retry"] != nil {
            throw .init("retry= is Apprise's count of resends (traveltimes retries a failed notifier at each tick in the grace window); Pushover's emergency repeat is interval=SECONDS")
        }
        let retry = try Channel.seconds(parts.query["interval"], default: 900, in: 30...10_800, "interval")
        let expire = try Channel.seconds(parts.query["expire"], default: 3_600, in: 30...10_800, "expire")
        // Targets, as Apprise reads them: a device in the path or `?to=`, a `#GROUP` key in the
        // path (sent to instead of the user key).
        let targets = parts.path + (parts.query["to"].map { $0.split(separator: ",").map { String($0) } } ?? [])
        if let link = parts.query["url"], !(link.hasPrefix("https://") || link.hasPrefix("http://")) || link.utf8.count > 512 {
            throw .init("pushover url is an http(s) URL of at most 512 characters")
        }
        return .pushover(.init(
            user: user, token: parts.host, devices: targets.filter { !$0.hasPrefix("#") }, priority: priority,
            sound: parts.query["sound"], retry: retry, expire: expire,
            groups: targets.filter { $0.hasPrefix("#") && $0.count > 1 }.map { String($0.dropFirst()) },
            link: parts.query["url"], linkTitle: parts.query["url_title"].map { String($0.prefix(100)) }))
    }

    var summary: String { "pushover" + (devices.isEmpty ? "" : " (\(devices.count) device\(devices.count == 1 ? "" : "s"))") }

    var listing: Channel.Listing {
        ("pushover", devices.isEmpty ? nil : devices.joined(separator: ","), Channel.settings([
            ("priority", priority.map(Notifier.Setting.int)), ("sound", sound.map(Notifier.Setting.string)),
            ("retry", .int(retry)), ("expire", .int(expire)),
        ]), true)
    }

    var secrets: [String] { [user, token] }

    func perform(_ operation: AlertOperation, with sender: ChannelSender) -> AlertReceipt {
        guard let message = operation.message else { return .cannot("Pushover cannot clear a message") }
        // One rule on every channel: a critical alert goes out at least high (it sounds through
        // the phone's quiet hours), whatever lower priority the URL gives; only a URL that asks
        // for emergency (2) gets that, with its retry and expiry.
        let priority = message.urgency == "critical" ? max(self.priority ?? 1, 1) : self.priority ?? 0
        let url = sender.base(Self.fixedHost) + "/1/messages.json"
        var receipt = AlertReceipt(result: .delivered, handle: nil)
        // As Apprise sends it: the account's devices (all of them when none is named, unless only
        // groups are) in one message, then each group by its own key.
        var recipients: [(user: String, devices: [String])] = groups.map { ($0, []) }
        if !devices.isEmpty || groups.isEmpty { recipients.insert((user, devices), at: 0) }
        for (user, devices) in recipients {
            var fields = [
                ("token", token), ("user", user), ("title", Limits.cut(message.title, to: 250)),
                ("message", Limits.cut(message.body, to: 1_024)), ("priority", String(priority)),
            ]
            if !devices.isEmpty { fields.append(("device", devices.joined(separator: ","))) }
            if let sound { fields.append(("sound", sound)) }
            if let link { fields.append(("url", link)) }
            if let linkTitle { fields.append(("url_title", linkTitle)) }
            if priority == 2 { fields += [("retry", String(retry)), ("expire", String(expire))] }
            receipt = sender.request(
                "POST", url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: ChannelSender.form(fields), service: "Pushover"
            ).receipt(handle: \.["request"])
            guard case .delivered = receipt.result else { return receipt }
        }
        return receipt
    }
}
