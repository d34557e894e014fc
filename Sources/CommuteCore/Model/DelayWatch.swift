import Foundation

/// A route watched for delays: one critical alert when its delay reaches `overMinutes`, one when
/// it clears.
public struct DelayWatch: Codable, Sendable, Equatable {
    public var routeID: String
    public var overMinutes: Int
    /// Whether the route was over the threshold at the last refresh; nil before the first look.
    public var isOver: Bool?
    /// The notifiers its alerts go to, by name; nil for every one.
    public var notify: [String]?

    public init(routeID: String, overMinutes: Int, isOver: Bool? = nil, notify: [String]? = nil) {
        self.routeID = routeID
        self.overMinutes = overMinutes
        self.isOver = isOver
        self.notify = notify
    }
}
