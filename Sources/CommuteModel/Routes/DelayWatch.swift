import FoundationEssentials

/// A route watched for delays: one critical alert when its delay reaches `overMinutes`, one when
/// it clears.
public struct DelayWatch: Codable, Sendable, Equatable {
    public var routeID: RouteID
    public var overMinutes: Int
    /// `--over auto`: over the 90th percentile of the route's history for the day and quarter hour;
    /// `overMinutes` stands in where history is thin.
    public var overUsual: Bool?
    /// Whether the route was over the threshold at the last refresh; nil before the first look.
    public var isOver: Bool?
    /// The notifiers its alerts go to, by name; nil for every one.
    public var notify: [String]?

    public init(routeID: RouteID, overMinutes: Int, overUsual: Bool? = nil, isOver: Bool? = nil, notify: [String]? = nil) {
        self.routeID = routeID
        self.overUsual = overUsual
        self.overMinutes = overMinutes
        self.isOver = isOver
        self.notify = notify
    }
}
