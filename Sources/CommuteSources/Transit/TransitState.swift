import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `transit.json`: the transit routes, with the departures the last refresh worked out, and what
/// is known of each agency's feeds (when fetched, their validators, why not). Part of the routes
/// domain, written under the routes lock; the timetable zips and each route's timetable lie
/// beside it in `transit/`, written before this file names them.
///
/// Transit routes are kept out of `routes.json` because their departures change at every
/// realtime fetch and run to tens of kilobytes: the 10,000-route cache and its reader stay as
/// they are, and every read of the routes adds these few.
public struct TransitState: StoreDocument, Equatable {
    public static let fileName = "transit.json"
    public static let domain = StoreDomain.routes

    /// What is known of one agency's feeds.
    public struct FeedState: Codable, Sendable, Equatable {
        /// When the timetable zip was last fetched (a 200), and last asked about (a 200 or 304).
        public var fetchedAt: Date?
        public var checkedAt: Date?
        public var validators: HTTPValidators?
        /// The agency's time zone, from `agency.txt`.
        public var timeZone: String?
        /// When the realtime feeds were last read, and the time their header gave.
        public var realtimeFetchedAt: Date?
        public var realtimeTimestamp: Date?
        public var alertsFetchedAt: Date?
        /// The last failure, per file (`static`, `realtime`, `alerts`), said until it is mended.
        public var problems: [String: String]?

        public init() {}

        /// The problems, in the order of the files they are about.
        public var problemList: [String] { (problems ?? [:]).sorted { $0.key < $1.key }.map(\.value) }
    }

    public var version: Int
    public var feeds: [String: FeedState]
    public var routes: [Route]

    public init(feeds: [String: FeedState] = [:], routes: [Route] = []) {
        version = Self.currentVersion
        self.feeds = feeds
        self.routes = routes
    }

    public static var empty: TransitState { TransitState() }

    /// The most transit routes: a handful is the use; each costs a pass over the timetable.
    public static let largestRouteCount = 50

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(routes.count <= Self.largestRouteCount, "routes holds over \(Self.largestRouteCount) transit routes")
        for name in feeds.keys {
            try DocumentProblem.check(TransitFeed.isValidName(name), "feeds has '\(DisplayText.line(name))', not a feed name")
        }
        var seen = Set<RouteID>()
        for (index, route) in routes.enumerated() {
            let field = "routes[\(index)]"
            try DocumentProblem.check(route.id.isValidCustom, "\(field).id '\(DisplayText.line(route.id.rawValue))' is not a route ID")
            try DocumentProblem.check(seen.insert(route.id).inserted, "\(field).id repeats another route's")
            if let problem = route.implausibility { throw DocumentProblem("impossible value: \(field): \(problem)") }
            guard let transit = route.transit else { throw DocumentProblem("wrong shape: \(field).transit is missing") }
            try DocumentProblem.check(route.isTransitFeed, "\(field) is both custom and transit")
            try DocumentProblem.check(TransitFeed.isValidName(transit.feed), "\(field).transit.feed is not a feed name")
            try DocumentProblem.range(transit.walkMinutes, 0...Route.Transit.longestWalk, "\(field).transit.walkMinutes")
            try DocumentProblem.check(
                transit.departures.count <= Route.Transit.largestDepartureCount, "\(field).transit.departures holds too many")
            try DocumentProblem.check((transit.notices ?? []).count <= Route.Transit.largestNoticeCount, "\(field).transit.notices holds too many")
            try DocumentProblem.check((transit.followed ?? []).count <= Route.Transit.largestFollowedCount, "\(field).transit.followed holds too many")
            for departure in transit.departures + (transit.followed ?? []) {
                for date in [departure.scheduled, departure.arrival, departure.scheduledArrival] + [departure.predicted, departure.predictedAt].compactMap({ $0 }) {
                    try DocumentProblem.check(
                        Route.Transit.plausibleDates.contains(date), "\(field).transit.departures has a time outside 1970 to 2199")
                }
            }
        }
    }
}

extension Store {
    /// `transit/`: each feed's timetable zip (`NAME.zip`), last realtime feed (`NAME.realtime.pb`)
    /// and alerts (`NAME.alerts.pb`), and each transit route's timetable (`ROUTE.timetable.json`).
    public var transitDirectory: String { location.file("transit") }

    package func transitPath(_ name: String, _ suffix: String) -> String { "\(transitDirectory)/\(name).\(suffix)" }

    /// The transit routes and the feeds' state.
    public func transitState() throws(StoreError) -> TransitState { try read(TransitState.self) }

    /// Read-modify-write of `transit.json`, under the routes lock (transit routes share the routes'
    /// ID space: a custom route's add reads it under the same lock). Nothing is written if `body`
    /// throws or changes nothing.
    public func updateTransit<T>(_ body: (inout TransitState) throws -> T) throws -> T { try update(TransitState.self, body) }

    /// Read-modify-write of `transit.json` with the route cache read under the same lock: for an
    /// add that must not take an ID a custom route has.
    public func updateTransit<T>(checkingCache body: (inout TransitState, RouteCache) throws -> T) throws -> T {
        try lock(.routes).withLock {
            let cache = try file(RouteCache.self).load()
            return try file(TransitState.self).update { try body(&$0, cache) }
        }
    }

    /// The transit routes, read only when `transit.json` is there (most stores have none).
    public func transitRoutes() throws(StoreError) -> [Route] {
        let transitFile = file(TransitState.self)
        guard FileManager.default.fileExists(atPath: transitFile.path) else { return [] }
        return try transitFile.load().routes
    }

    /// Makes `transit/` (mode 0700) if it is not there.
    public func makeTransitDirectory() throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                atPath: transitDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: transitDirectory, reason: "cannot create it: \(systemReason(error))")
        }
    }
}
