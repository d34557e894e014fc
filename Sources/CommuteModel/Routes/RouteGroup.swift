import Basics
import FoundationEssentials

/// A named, ordered set of favorite routes.
public struct RouteGroup: Codable, Sendable, Equatable {
    public var name: String
    public var routeIDs: [RouteID]

    /// Whether text can name a group: 1 to 40 characters, trimmed, without control characters.
    public static func isValidName(_ name: String) -> Bool {
        (1...40).contains(name.count) && name == name.trimmingWhitespace()
            && DisplayText.line(name) == name
    }

    /// The most ways a commute may have.
    public static let mostWays = 8

    public init(name: String, routeIDs: [RouteID]) {
        self.name = name
        self.routeIDs = routeIDs
    }
}
