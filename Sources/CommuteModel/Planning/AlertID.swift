import Basics
import FoundationEssentials

/// What an alert is: the identity the plan, the ledger and the open alerts carry for it. Decisions
/// switch on it; it is written as text only in files and listings, by one codec (`description`
/// and `init?(_:)`):
///
/// - `schedule.<uuid>.weekday.<1-7>`, and `….heads-up` for an arrive-by schedule's heads-up;
/// - `watch.<route>.over` and `watch.<route>.clear`;
/// - `health.refresh`, `health.data`, and `….mended` when the problem ends;
/// - `test.<seconds since 1970>`, a sample from `notify test`.
public enum AlertID: Hashable, Sendable, CustomStringConvertible {
    /// One weekday of a schedule; `headsUp` for an arrive-by schedule's alert before the leave time.
    case schedule(UUID, Weekday, headsUp: Bool)
    /// A delay watch on a route, crossing over its threshold or back under it.
    case watch(routeID: RouteID, WatchDirection)
    /// A health problem told, or told mended.
    case health(HealthIssue, mended: Bool)
    /// A sample alert, sent at this second.
    case test(Int)

    /// What kind of alert it is: alerts of a kind share a daily cap.
    public enum Kind: Sendable, Equatable {
        case schedule, watch, health, test
    }

    public var kind: Kind {
        switch self {
        case .schedule: .schedule
        case .watch: .watch
        case .health: .health
        case .test: .test
        }
    }

    /// The schedule a scheduled alert belongs to.
    public var scheduleID: UUID? {
        if case .schedule(let id, _, _) = self { return id }
        return nil
    }

    /// Whether it is an arrive-by schedule's heads-up.
    public var isHeadsUp: Bool {
        if case .schedule(_, _, headsUp: true) = self { return true }
        return false
    }

    /// Whether it tells that a health problem has ended.
    public var isMended: Bool {
        if case .health(_, mended: true) = self { return true }
        return false
    }

    /// The alert it stands beside in the notification: a heads-up's leave alert, a mended
    /// problem's first alert, a watch's crossing over (its "clear" changes that notification).
    public var principal: AlertID {
        switch self {
        case .schedule(let id, let weekday, _): .schedule(id, weekday, headsUp: false)
        case .watch(let route, _): .watch(routeID: route, .over)
        case .health(let issue, _): .health(issue, mended: false)
        case .test: self
        }
    }

    // MARK: The codec

    public var description: String {
        switch self {
        case .schedule(let id, let weekday, let headsUp):
            "\(Self.schedulePrefix)\(id.lowercasedString).weekday.\(weekday.rawValue)" + (headsUp ? ".heads-up" : "")
        case .watch(let route, let direction): "watch.\(route).\(direction.rawValue)"
        case .health(let issue, let mended): "health.\(issue.rawValue)" + (mended ? ".mended" : "")
        case .test(let seconds): "test.\(seconds)"
        }
    }

    /// The identity written as `text`; nil for text that is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let rest = parts[1]
        switch parts[0] {
        case "schedule":
            // <uuid>.weekday.<n>[.heads-up]
            let pieces = rest.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count == 3 || (pieces.count == 4 && pieces[3] == "heads-up"), pieces[1] == "weekday",
                let id = UUID.parse(pieces[0]), let number = Int(pieces[2]), let weekday = Weekday(rawValue: number)
            else { return nil }
            self = .schedule(id, weekday, headsUp: pieces.count == 4)
        case "watch":
            // <route>.<over|clear>: a route's ID may hold dots, the direction never.
            guard let dot = rest.lastIndex(of: "."), let direction = WatchDirection(rawValue: String(rest[rest.index(after: dot)...])),
                dot > rest.startIndex
            else { return nil }
            self = .watch(routeID: RouteID(String(rest[..<dot])), direction)
        case "health":
            let pieces = rest.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count == 1 || (pieces.count == 2 && pieces[1] == "mended"), let issue = HealthIssue(rawValue: String(pieces[0]))
            else { return nil }
            self = .health(issue, mended: pieces.count == 2)
        case "test":
            guard let seconds = Int(rest), String(seconds) == rest else { return nil }
            self = .test(seconds)
        default:
            return nil
        }
    }

    /// The same codec over UTF-8 bytes, for the ledger's reader: a scheduled alert (nearly every
    /// line of a month's ledger) is read without building a string.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // `schedule.` + 36 + `.weekday.` + digit, and perhaps `.heads-up`.
        let base = 9 + 36 + 9 + 1
        if (bytes.count == base || bytes.count == base + 9), bytes.starts(with: Self.schedulePrefix.utf8),
            let id = UUID.parse(UnsafeBufferPointer(rebasing: bytes[9..<45])),
            bytes[45..<54].elementsEqual(".weekday.".utf8), let weekday = Weekday(rawValue: Int(bytes[54]) - 48),
            bytes.count == base || bytes[base...].elementsEqual(".heads-up".utf8)
        {
            self = .schedule(id, weekday, headsUp: bytes.count != base)
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self.init(text)
    }

    /// What every scheduled alert's text begins with.
    static let schedulePrefix = "schedule."
}

extension AlertID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = AlertID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(DisplayText.line(String(text.prefix(80))))' is not an alert")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Which way a delay watch's route crossed its threshold.
public enum WatchDirection: String, Sendable, Hashable, CaseIterable {
    case over, clear
}

/// What a health alert is about.
public enum HealthIssue: String, Codable, Sendable, Hashable, CaseIterable {
    /// Refreshes (the feed's, or a routing provider's) have failed for `stale-after`.
    case refresh
    /// Refresh is not failing, yet an alert due soon would carry old data (refresh is not
    /// running, or the source itself has not moved).
    case data
}

extension UUID {
    /// A UUID in its 36-character form, either case; nil for anything else.
    public static func parse(_ text: Substring) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }
}
