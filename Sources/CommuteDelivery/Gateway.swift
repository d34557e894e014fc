import Basics
import CommuteModel
import FoundationEssentials

/// The gateway every alert passes before it is sent: quiet hours, and its kind's daily cap. A
/// delay watch's crossing is the exception: critical, it has its own cap and no quiet hours.
public struct Gateway: Sendable {
    public var quietHours: QuietHours?
    public var calendar: ZonedCalendar
    public var now: Date

    public init(quietHours: QuietHours?, calendar: ZonedCalendar, now: Date) {
        self.quietHours = quietHours
        self.calendar = calendar
        self.now = now
    }

    /// Why an alert of `kind` may not go out now, or nil: quiet hours, or `cap` alerts of its kind
    /// delivered (or being delivered) through at least one notifier since local midnight.
    public func hold(_ kind: AlertID.Kind, cap: Int, ledger: DeliveryLedger) -> HoldReason? {
        let local = calendar.local(now)
        if let quietHours, quietHours.contains(local.time) { return .quietHours(quietHours) }
        let delivered = Set(ledger.entries.lazy.filter {
            // Claims count too: two alerts due in the same tick must not both pass a cap of one.
            // Sends count; a revision or a clear of one already sent does not.
            ($0.outcome == .delivered || $0.outcome == .claimed) && $0.action == nil && $0.alert.kind == kind
                && calendar.local($0.at).date == local.date
        }.map(\.about))
        if delivered.count >= cap { return .dailyCap(cap, kind) }
        return nil
    }

    /// Whether it is quiet hours now.
    public var isQuiet: Bool { quietHours?.contains(calendar.local(now).time) ?? false }
}

/// Why an alert is held back for now.
public enum HoldReason: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Quiet hours (the window, when known); it goes out when they end.
    case quietHours(QuietHours?)
    /// So many alerts of the kind today; it goes out tomorrow.
    case dailyCap(Int, AlertID.Kind)

    /// When an alert held for this goes out: `when they end`, `tomorrow`.
    public var until: String {
        switch self {
        case .quietHours: "when they end"
        case .dailyCap: "tomorrow"
        }
    }

    public var isQuietHours: Bool {
        if case .quietHours = self { return true }
        return false
    }

    // MARK: The codec

    /// `quiet hours (10:00 PM–7:00 AM)`, `daily cap of 20 standard alerts reached`.
    public var description: String {
        switch self {
        case .quietHours(let window): window.map { "quiet hours (\($0))" } ?? "quiet hours"
        case .dailyCap(let cap, let kind): "daily cap of \(cap) \(Self.bucket(kind)) alerts reached"
        }
    }

    public init?(_ text: String) {
        if text == "quiet hours" {
            self = .quietHours(nil)
            return
        }
        let words = text.split(separator: " ")
        if words.count >= 3, words[0] == "quiet", words[1] == "hours", text.last == ")" {
            let window = text.drop { $0 != "(" }.dropFirst().dropLast()
            let ends = window.split(separator: "–")
            guard ends.count == 2, let start = try? ScheduleParsing.time(String(ends[0])), let end = try? ScheduleParsing.time(String(ends[1]))
            else { return nil }
            self = .quietHours(QuietHours(start: start, end: end))
            return
        }
        guard words.count == 7, words[0] == "daily", words[1] == "cap", words[2] == "of", let cap = Int(words[3]),
            let kind = [AlertID.Kind.schedule, .watch, .health, .test].first(where: { Self.bucket($0) == words[4] }),
            words[5] == "alerts", words[6] == "reached"
        else { return nil }
        self = .dailyCap(cap, kind)
    }

    /// The cap's name for a kind of alert: scheduled alerts are the standard ones.
    private static func bucket(_ kind: AlertID.Kind) -> String {
        switch kind {
        case .schedule: "standard"
        case .watch: "critical"
        case .health: "health"
        case .test: "test"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let reason = HoldReason(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(DisplayText.line(String(text.prefix(80))))' is not a reason to hold an alert")
        }
        self = reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
