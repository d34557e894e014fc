import Foundation

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

extension Commute {
    /// How `routes` orders what it lists.
    public enum RouteOrder: Sendable {
        /// As the feed gives them (favorites: in favorites order).
        case feed
        /// The worst delay first; routes without data last, in their old order.
        case delay
    }

    /// What `routes` lists.
    public struct RouteListing: Sendable {
        /// One line of the listing.
        public enum Entry: Sendable {
            case route(Route)
            /// A favorite that has left the feed: still a favorite, shown as unavailable.
            case unavailable(id: String)
        }

        /// The routes, in order, without the unavailable favorites (what `--json` prints).
        public var routes: [Route]
        /// Every line in order: unavailable favorites keep their place in favorites order, and
        /// come last when sorted by delay.
        public var entries: [Entry]
        public var favorites: Set<String>
        /// When the newest route in the cache was measured.
        public var newestUpdate: Date
        public var staleness: Staleness?
    }

    /// Why the data shown is old: nil from `staleness(newest:)` when it is not.
    public enum Staleness: Sendable, Equatable {
        /// Refreshes have failed `times` times in a row since `since`.
        case failing(times: Int, since: Date, age: TimeInterval)
        /// Nothing failed: no refresh has run for `age`.
        case notRefreshed(age: TimeInterval)
    }

    /// The cached routes, all of them or those matching `search` or the favorites. Only the
    /// matches are built for a search of the whole cache: the rest is never decoded.
    public func routeListing(search: String?, favoritesOnly: Bool, order: RouteOrder) throws -> RouteListing {
        let favorites = try store.favorites().routeIDs
        var routes: [Route]
        var unavailable: [String] = []
        let newest: Date?
        if let search, !favoritesOnly {
            (routes, newest) = try store.searchRoutes(search)
            routes = routes.map { $0.at(now) }
        } else {
            let cache = try self.routes()
            routes = cache.routes
            newest = cache.routes.map(\.updatedAt).max()
            if favoritesOnly {
                let byID = cache.byID
                routes = favorites.compactMap { byID[$0] }
                unavailable = favorites.filter { byID[$0] == nil }
            }
            if let search {
                routes = routes.filter { $0.matches(search) }
                unavailable = []
            }
        }
        guard let newest else { throw CommuteError.noRouteData }
        let entries: [RouteListing.Entry]
        switch order {
        case .delay:
            routes = Self.sortedByDelay(routes)
            entries = routes.map(RouteListing.Entry.route) + unavailable.map { .unavailable(id: $0) }
        case .feed where unavailable.isEmpty:
            entries = routes.map(RouteListing.Entry.route)
        case .feed:
            let byID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            entries = favorites.map { id in byID[id].map(RouteListing.Entry.route) ?? .unavailable(id: id) }
        }
        return RouteListing(
            routes: routes, entries: entries, favorites: Set(favorites), newestUpdate: newest, staleness: try staleness(newest: newest))
    }

    /// Worst delay first; routes without data last, in their old order.
    static func sortedByDelay(_ routes: [Route]) -> [Route] {
        routes.enumerated().sorted { lhs, rhs in
            switch (lhs.element.delayMinutes, rhs.element.delayMinutes) {
            case let (left?, right?): left != right ? left > right : lhs.offset < rhs.offset
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// Why data measured at `newest` is old, or nil when it is not (`AlertComposer.staleAfter`).
    public func staleness(newest: Date) throws -> Staleness? {
        let age = now.timeIntervalSince(newest)
        guard age > AlertComposer.staleAfter else { return nil }
        let log = try store.refreshLog()
        if log.failuresSinceSuccess > 0, let since = log.failingSince {
            return .failing(times: log.failuresSinceSuccess, since: since, age: age)
        }
        return .notRefreshed(age: age)
    }

    /// What `route ID` shows.
    public struct RouteDetail: Sendable {
        /// With its end points.
        public var route: Route
        public var isFavorite: Bool
        /// The schedules that name it.
        public var schedules: [Schedule]
        /// When you would arrive if you left now; nil without a current time.
        public var estimatedArrival: Date?
    }

    /// One route, with who uses it.
    public func routeDetail(_ id: String) throws -> RouteDetail {
        let cache = try store.routes(includingEndPoints: true)
        guard !cache.routes.isEmpty else { throw CommuteError.noRouteData }
        guard let found = cache.routes.first(where: { $0.id == id }) else { throw ModelError.unknownRoute(id) }
        let route = found.at(now)
        // A transit trip arrives when its next bus does, not a ride's length from now.
        let arrival = route.transit.map { $0.next(at: now)?.chosen.arrival }
            ?? route.currentMinutes.map { now.addingTimeInterval(TimeInterval($0 * 60)) }
        return RouteDetail(
            route: route, isFavorite: try store.favorites().routeIDs.contains(id),
            schedules: try store.schedules().schedules.filter { $0.routeIDs.contains(id) }, estimatedArrival: arrival)
    }

    /// What `brief` says: the brief and how old its data is.
    public struct Briefing: Sendable {
        public var brief: CommuteBrief
        public var staleness: Staleness?
    }

    /// The commute in one sentence, for the favorites or a group of them.
    public func brief(group name: String?) throws -> Briefing {
        let favorites = try store.favorites()
        let routeIDs: [String]
        if let name {
            guard let group = favorites.group(named: name) else { throw CommuteError.unknownGroup(name) }
            routeIDs = group.routeIDs
        } else {
            routeIDs = favorites.routeIDs
        }
        guard !routeIDs.isEmpty else { throw CommuteError.nothingToBrief }
        let cache = try routes()
        guard let newest = cache.routes.map(\.updatedAt).max() else { throw CommuteError.noRouteData }
        let brief = CommuteBrief(routeIDs: routeIDs, routes: cache.byID, partOfDay: CommuteBrief.partOfDay(hour: calendar.local(now).hour))
        return Briefing(brief: brief, staleness: try staleness(newest: newest))
    }
}
