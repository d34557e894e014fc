import Foundation

extension Commute {
    /// What a refresh saved and scheduled.
    public struct RefreshResult: Sendable, Equatable {
        public var routeCount: Int
        public var noData: Int
        public var reschedule: RescheduleSummary
        /// Favourites that are not in the new feed: they stay favourites and show as unavailable.
        public var missingFavorites: [String]
    }

    /// Decodes a feed, saves it as the route cache, then re-plans every trigger with the routes just
    /// decoded — passed forward in memory, never read back from the cache. A feed that cannot be
    /// decoded changes nothing.
    public func refresh(feed data: consuming Data, source: String) throws -> RefreshResult {
        let routes = try WSDOTFeed.decode(data)
        // The raw feed is as large as the cache about to be written: let it go first.
        _ = consume data
        try store.replaceRoutes(RouteCache(fetchedAt: now, source: source, routes: routes))
        let byID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let summary = try reschedule(routes: byID)
        let missing = try store.favorites().routeIDs.filter { byID[$0] == nil }
        return RefreshResult(
            routeCount: routes.count, noData: routes.count(where: { $0.status == .noData }), reschedule: summary,
            missingFavorites: missing)
    }
}
