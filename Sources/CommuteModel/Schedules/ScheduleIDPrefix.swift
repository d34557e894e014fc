import FoundationEssentials

/// The start of a schedule's ID as a user types it (`81df22f2`, in either case): what `schedule
/// edit`, `delivered --schedule` and `delivered clear --schedule` take.
public struct ScheduleIDPrefix: Sendable, Equatable, CustomStringConvertible {
    /// Lowercase, as IDs are written.
    public let text: String

    /// Nil unless `text` is the start of an ID: hex digits and dashes, at most 36.
    public init?(_ text: String) {
        guard !text.isEmpty, text.count <= 36, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        self.text = text.lowercased()
    }

    /// Whether `id` starts so.
    public func matches(_ id: UUID) -> Bool { id.lowercasedString.starts(with: text) }

    public var description: String { text }
}

extension UUID {
    /// The first 8 characters of the lowercase form: how listings show a schedule's ID.
    public var shortForm: String { String(lowercasedString.prefix(8)) }
}

extension AlertID {
    /// `schedule.81df22f2.weekday.4`: as listings show it, a schedule's ID shortened; every other
    /// kind of alert (`watch.70.over`) in full.
    public var shortDescription: String {
        guard case .schedule(let id, let weekday, let headsUp) = self else { return description }
        return "schedule.\(id.shortForm).weekday.\(weekday.rawValue)" + (headsUp ? ".heads-up" : "")
    }
}
