import Basics
import FoundationEssentials

/// A route's identity: a feed's TravelTimeID (`1`, `96`), a route added by hand (`to-work`), two
/// stops of a timetable (`bus-8`), a calendar's route (`cal-work-1a2b3c4d`). Text on disk, on the
/// wire and on the terminal; a type of its own in the code, so that a schedule's, an export's or a
/// GTFS route's ID cannot be passed where a route's is due. `RouteID(validating:)` is how text a
/// user or a file gave becomes one.
public struct RouteID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringInterpolation
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ text: String) { rawValue = text }
    public init(stringLiteral text: String) { rawValue = text }

    /// As text, in every file: `"96"`, never an object.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension RouteID {
    /// Text a user, a file or a feed gave, if it can name a route (`Route.isValidID`).
    public init?(validating text: String) {
        guard Route.isValidID(text) else { return nil }
        self.init(text)
    }

    /// Whether it can name a route: 1 to 64 lowercase letters, digits and dashes.
    public var isValid: Bool { Route.isValidID(rawValue) }

    /// Whether it can name a route added by hand (`Route.isValidCustomID`).
    public var isValidCustom: Bool { Route.isValidCustomID(rawValue) }
}

extension RouteID: CodingKeyRepresentable {
    /// As a dictionary's key, a route's ID is the object's key (`{"96": …}`), not an array's element.
    public var codingKey: any CodingKey { JSONKey(rawValue) }

    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    private struct JSONKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension DisplayText {
    /// A route's ID as one line of the terminal's text (an ID read from a file may be anything).
    public static func line(_ id: RouteID) -> String { line(id.rawValue) }
}

extension Sequence where Element == RouteID {
    /// The IDs as text, one after another: `1, 96`.
    public func joined(separator: String = "") -> String { map(\.rawValue).joined(separator: separator) }
}
