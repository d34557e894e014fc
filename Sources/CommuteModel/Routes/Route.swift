import Basics
import FoundationEssentials

/// One corridor from the feed, or a custom route from a provider, as cached. The route cache is the one source of truth for times:
/// favorites and schedules refer to routes by `id` only.
public struct Route: Codable, Sendable, Equatable, Identifiable {
    /// One end of a route.
    public struct Point: Codable, Sendable, Equatable {
        public var description: String?
        public var direction: String?
        public var latitude: Double?
        public var longitude: Double?
        public var milePost: Double?
        public var roadName: String?

        public init(
            description: String? = nil, direction: String? = nil, latitude: Double? = nil,
            longitude: Double? = nil, milePost: Double? = nil, roadName: String? = nil
        ) {
            self.description = description
            self.direction = direction
            self.latitude = latitude
            self.longitude = longitude
            self.milePost = milePost
            self.roadName = roadName
        }
    }

    /// WSDOT's `TravelTimeID` as text, or the ID a route was given (`RouteID`).
    public var id: RouteID
    /// The feed's short name, which may be missing.
    public var feedName: String?
    public var description: String?
    /// Minutes, or nil when the feed has no data (it reports 0 or less).
    public var currentMinutes: Int?
    /// Minutes, or nil when the feed has no data (it reports 0 or less).
    public var averageMinutes: Int?
    public var distanceMiles: Double?
    public var updatedAt: Date
    public var startPoint: Point?
    public var endPoint: Point?
    /// Set for a custom route (origin → destination through a provider); nil for the feed's.
    public var custom: Custom?
    /// A time the source reported that lies outside what the route can be (see `HistoryRecord`),
    /// held here and not in `currentMinutes` until a second reading confirms it: nothing plans or
    /// alerts with it.
    public var suspiciousMinutes: Int?
    /// Set for a transit route (two stops of an agency's GTFS feed); such routes live in
    /// `transit.json`, not the route cache.
    public var transit: Transit?

    /// Builds a route; times of 0 or less mean "no data" and are stored as nil.
    public init(
        id: RouteID, name: String?, description: String?, currentMinutes: Int?, averageMinutes: Int?,
        distanceMiles: Double? = nil, updatedAt: Date, startPoint: Point? = nil, endPoint: Point? = nil, custom: Custom? = nil
    ) {
        self.id = id
        self.feedName = name
        self.description = description
        self.currentMinutes = currentMinutes.flatMap { $0 > 0 ? $0 : nil }
        self.averageMinutes = averageMinutes.flatMap { $0 > 0 ? $0 : nil }
        self.distanceMiles = distanceMiles
        self.updatedAt = updatedAt
        self.startPoint = startPoint
        self.endPoint = endPoint
        self.custom = custom
    }

    /// The name to show: the feed's name, else its description, else `Route <id>` — on one line
    /// and free of control characters, whatever the feed sent (see `DisplayText`).
    public var name: String {
        if let feedName, !feedName.isEmpty { return DisplayText.line(feedName) }
        if let description, !description.isEmpty { return DisplayText.line(description) }
        return "Route \(DisplayText.line(id.rawValue))"
    }

    /// current − average, or nil when either is missing.
    public var delayMinutes: Int? {
        guard let current = currentMinutes, let average = averageMinutes else { return nil }
        return current - average
    }

    /// Its delay's status; `ESTIMATE` while a free-flow estimate stands in for its time.
    public var status: DelayStatus { freeFlowEstimate != nil ? .estimate : DelayStatus(delayMinutes: delayMinutes) }

    private enum CodingKeys: String, CodingKey {
        case id, feedName = "name", description, currentMinutes, averageMinutes, distanceMiles
        case updatedAt, startPoint, endPoint, custom, suspiciousMinutes, transit
    }
}

extension Route {
    /// Whether the name or description contains `text`, in any case: what `routes --search` finds.
    public func matches(_ text: String) -> Bool {
        guard let search = TextSearch(text) else {
            let needle = text.lowercased()
            return name.lowercased().contains(needle) || (description?.lowercased().contains(needle) ?? false)
        }
        return search.matches(name) || (description.map(search.matches) ?? false)
    }
}
