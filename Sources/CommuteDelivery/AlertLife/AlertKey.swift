import Basics
import CommuteModel
import FoundationEssentials

/// The notification an alert lives in: one per occurrence, shared by the alerts that replace one
/// another, so that a later alert finds the notification to change.
///
/// - A scheduled alert and its heads-up share `schedule.<id>.weekday.<n>@2025-11-04T15:00:00Z`
///   (the occurrence is the arrival for arrive-by).
/// - A watch's "over" and "cleared" share `watch.<route>@2025-11-04`, one per route and local day.
/// - A health problem and its "mended" share `health.<issue>@<found>`.
public enum AlertKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// An alert (its principal: a leave alert, a problem) at one occurrence.
    case occurrence(AlertID, Date)
    /// A watch's route on one local day.
    case watchDay(routeID: RouteID, CivilDate)

    /// The key of `alert`'s notification at `occurrence`.
    public init(_ alert: AlertID, occurrence: Date, calendar: ZonedCalendar) {
        if case .watch(let route, _) = alert {
            self = .watchDay(routeID: route, calendar.local(occurrence).date)
        } else {
            self = .occurrence(alert.principal, occurrence)
        }
    }

    /// Whether it is the notification of an alert of a schedule whose ID starts with `prefix`.
    public func belongs(toSchedules prefix: ScheduleIDPrefix) -> Bool {
        if case .occurrence(let alert, _) = self, let id = alert.scheduleID { return prefix.matches(id) }
        return false
    }

    // MARK: The codec

    public var description: String {
        switch self {
        case .occurrence(let alert, let at): "\(alert)@\(ISO8601.string(at))"
        case .watchDay(let route, let day): "watch.\(route)@" + String(cFormat: "%04d-%02d-%02d", day.year, day.month, day.day)
        }
    }

    public init?(_ text: String) {
        guard let at = text.lastIndex(of: "@") else { return nil }
        let head = String(text[..<at])
        let tail = String(text[text.index(after: at)...])
        if let parsed = ISO8601.parse(tail), let instant = parsed.instant, let alert = AlertID(head) {
            self = .occurrence(alert, instant)
            return
        }
        let parts = head.split(separator: ".", maxSplits: 1)
        let fields = tail.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "watch", tail.count == 10, fields.count == 3, let year = Int(fields[0]),
            let month = Int(fields[1]), let day = Int(fields[2])
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        self = .watchDay(routeID: RouteID(String(parts[1])), date)
    }

    /// The same codec over UTF-8 bytes, for the ledger's reader.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")), let instant = ISO8601.parse(bytes: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]))?.instant,
            let alert = AlertID(utf8: UnsafeBufferPointer(rebasing: bytes[..<at]))
        {
            self = .occurrence(alert, instant)
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self.init(text)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let key = AlertKey(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(DisplayText.line(String(text.prefix(80))))' is not an alert's key")
        }
        self = key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
