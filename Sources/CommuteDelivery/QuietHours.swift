import CommuteModel
import FoundationEssentials

/// A daily window of local wall-clock time, which may wrap past midnight (`22:00-06:00`).
public struct QuietHours: Codable, Sendable, Equatable, CustomStringConvertible {
    public var start: TimeOfDay
    public var end: TimeOfDay

    public init(start: TimeOfDay, end: TimeOfDay) {
        self.start = start
        self.end = end
    }

    /// Reads `22:00-06:00` (each side as `schedule add --at` reads times).
    public init(_ text: String) throws(ModelError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .badTime(text) }
        start = try ScheduleParsing.time(String(parts[0]))
        end = try ScheduleParsing.time(String(parts[1]))
        guard start != end else { throw .badTime(text) }
    }

    /// Whether a wall-clock time is inside: from `start` up to, not including, `end`.
    public func contains(_ time: TimeOfDay) -> Bool {
        start < end ? (start <= time && time < end) : (time >= start || time < end)
    }

    public var description: String { "\(start.label)–\(end.label)" }

    private enum CodingKeys: String, CodingKey { case start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(Int.self, forKey: .start)
        let end = try container.decode(Int.self, forKey: .end)
        guard (0..<1_440).contains(start), (0..<1_440).contains(end), start != end else {
            throw DecodingError.dataCorruptedError(
                forKey: .start, in: container, debugDescription: "a quiet-hours window is two different minutes of the day, 0–1439")
        }
        self.start = TimeOfDay(hour: start / 60, minute: start % 60)
        self.end = TimeOfDay(hour: end / 60, minute: end % 60)
    }

    /// Minutes after midnight.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start.hour * 60 + start.minute, forKey: .start)
        try container.encode(end.hour * 60 + end.minute, forKey: .end)
    }
}
