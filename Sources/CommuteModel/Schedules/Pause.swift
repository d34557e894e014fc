import Basics
import FoundationEssentials

/// Days off: from one local date to another, inclusive, for every schedule or one. A paused
/// occurrence is neither planned nor delivered, and takes no place under the cap.
public struct Pause: Codable, Sendable, Equatable {
    /// Stable across removals of others: `pause remove 2` means the same pause tomorrow.
    public var number: Int
    public var from: CivilDate
    public var until: CivilDate
    /// Nil for every schedule.
    public var scheduleID: UUID?
    public var reason: String?

    public init(number: Int, from: CivilDate, until: CivilDate, scheduleID: UUID? = nil, reason: String? = nil) {
        self.number = number
        self.from = from
        self.until = until
        self.scheduleID = scheduleID
        self.reason = reason
    }

    /// The longest pause: two years, in days.
    public static let longestDays = 731
    /// The largest pause number.
    public static let largestNumber = 1_000_000
    /// The longest reason, in characters.
    public static let longestReason = 80

    /// Whether it holds back this schedule's occurrence on this local day.
    public func covers(_ schedule: UUID, dayNumber: Int) -> Bool {
        (scheduleID == nil || scheduleID == schedule) && (from.dayNumber...until.dayNumber).contains(dayNumber)
    }

    /// Whether it is over on this local day (its last day is before it).
    public func hasEnded(before day: CivilDate) -> Bool { until < day }

    private enum CodingKeys: String, CodingKey { case number, from, until, scheduleID, reason }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        scheduleID = try container.decodeIfPresent(UUID.self, forKey: .scheduleID)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        guard let from = CivilDate(iso: try container.decode(String.self, forKey: .from)),
            let until = CivilDate(iso: try container.decode(String.self, forKey: .until))
        else {
            throw DecodingError.dataCorruptedError(forKey: .from, in: container, debugDescription: "a pause's dates are YYYY-MM-DD")
        }
        self.from = from
        self.until = until
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(from.iso, forKey: .from)
        try container.encode(until.iso, forKey: .until)
        try container.encode(scheduleID, forKey: .scheduleID)
        try container.encode(reason, forKey: .reason)
    }
}

extension CivilDate {
    /// `2026-11-27`.
    public var iso: String { String(cFormat: "%04d-%02d-%02d", year, month, day) }

    /// Reads `2026-11-27` (a real date, years 1 to 9999); nil for anything else.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        self = date
    }
}

/// The pauses in force for a plan: which occurrences to leave out.
public struct Pauses: Sendable, Equatable {
    public var pauses: [Pause]

    public init(_ pauses: [Pause]) { self.pauses = pauses }

    public static let none = Pauses([])

    public func covers(_ schedule: UUID, dayNumber: Int) -> Bool {
        pauses.contains { $0.covers(schedule, dayNumber: dayNumber) }
    }
}
