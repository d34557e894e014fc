import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

extension Routes {
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
            case unavailable(id: RouteID)
        }

        /// The routes, in order, without the unavailable favorites (what `--json` prints).
        public var routes: [Route]
        /// Every line in order: unavailable favorites keep their place in favorites order, and
        /// come last when sorted by delay.
        public var entries: [Entry]
        public var favorites: Set<RouteID>
        /// When the newest route in the cache was measured.
        public var newestUpdate: Date
        /// How old the data of each source the listing shows is (the feed, each provider, each
        /// transit feed), in that order: one source's age never hides another's.
        public var sources: [SourceAge]
    }

    /// Where a route's times come from, as the views name it.
    public enum RouteSource: Sendable, Hashable, Comparable {
        /// The WSDOT feed.
        case feed
        case provider(RouteProvider)
        /// A transit feed, by name.
        case transit(String)

        /// A planner's route counts with the transit feeds once its itineraries have come.
        public init(_ route: Route) {
            switch route.kind {
            case .feed: self = .feed
            case .transitFeed(let transit): self = .transit(transit.feed)
            case .provider(let custom): self = route.departures.map { .transit($0.feed) } ?? .provider(custom.provider)
            }
        }

        public var isTransit: Bool {
            if case .transit = self { return true }
            return false
        }

        /// `wsdot`, `here`, `transit metro`.
        public var label: String {
            switch self {
            case .feed: "wsdot"
            case .provider(let provider): provider.rawValue
            case .transit(let feed): "transit \(feed)"
            }
        }

        private var rank: Int {
            switch self {
            case .feed: 0
            case .provider(let provider): 1 + (RouteProvider.allCases.firstIndex(of: provider) ?? 0)
            case .transit: 1 + RouteProvider.allCases.count
            }
        }

        public static func < (lhs: RouteSource, rhs: RouteSource) -> Bool {
            switch (lhs, rhs) {
            case let (.transit(left), .transit(right)): left < right
            default: lhs.rank < rhs.rank
            }
        }
    }

    /// How old one source's data is.
    public struct SourceAge: Sendable, Equatable {
        public var source: RouteSource
        /// When its newest reading was measured: for a transit feed, the time of the realtime feed
        /// its departures used. Nil when it has none: a custom route never fetched, or a transit
        /// feed's timetable times alone.
        public var updatedAt: Date?
        /// Why its data is old; nil when it is not.
        public var staleness: Staleness?
    }

    /// The age of each source among `routes`, in source order. Data over an hour old is stale:
    /// the feed's says whether refreshes are failing; a provider's, whether it is.
    public func sourceAges(of routes: [Route]) throws -> [SourceAge] {
        var newest: [RouteSource: Date?] = [:]
        for route in routes {
            let source = RouteSource(route)
            let measured: Date? = switch route.kind {
            case .feed: route.updatedAt
            case .transitFeed(let transit): transit.realtimeAt
            case .provider(let custom): route.departures.map(\.realtimeAt) ?? (custom.fetchedAt == nil ? nil : route.updatedAt)
            }
            let known = newest[source] ?? nil
            newest[source] = [known, measured].compactMap { $0 }.max()
        }
        var log: RefreshLog?
        return try newest.keys.sorted().map { source in
            let updated = newest[source] ?? nil
            guard let updated, now.timeIntervalSince(updated) > AlertComposer.staleAfter else {
                return SourceAge(source: source, updatedAt: updated, staleness: nil)
            }
            if log == nil { log = try store.refreshLog() }
            let age = now.timeIntervalSince(updated)
            var staleness = Staleness.notRefreshed(age: age)
            switch source {
            case .feed:
                if let log, log.failuresSinceSuccess > 0, let since = log.failingSince {
                    staleness = .failing(times: log.failuresSinceSuccess, since: since, age: age)
                }
            case .provider(let provider):
                if let failure = log?.failingProviders?[provider.rawValue] { staleness = .providerFailing(since: failure.since, age: age) }
            case .transit:
                staleness = .noLiveData(age: age)
            }
            return SourceAge(source: source, updatedAt: updated, staleness: staleness)
        }
    }

    /// Why the data shown is old: nil from `staleness(newest:)` when it is not.
    public enum Staleness: Sendable, Equatable {
        /// Refreshes have failed `times` times in a row since `since`.
        case failing(times: Int, since: Date, age: TimeInterval)
        /// A provider has failed since `since`.
        case providerFailing(since: Date, age: TimeInterval)
        /// A transit feed's realtime data is `age` old: the departures are the timetable's.
        case noLiveData(age: TimeInterval)
        /// Nothing failed: no refresh has brought newer data for `age`.
        case notRefreshed(age: TimeInterval)
    }

    /// The cached routes, all of them or those matching `search` or the favorites. Only the
    /// matches are built for a search of the whole cache: the rest is never decoded.
    public func routeListing(search: String?, favoritesOnly: Bool, order: RouteOrder) throws -> RouteListing {
        let favorites = try store.favorites().routeIDs
        var routes: [Route]
        var unavailable: [RouteID] = []
        let newest: Date?
        if let search, !favoritesOnly {
            (routes, newest) = try store.searchRoutes(search)
            routes = routes.map(current)
        } else {
            let cache = try all()
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
        let sources = try sourceAges(of: routes)
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
        return RouteListing(routes: routes, entries: entries, favorites: Set(favorites), newestUpdate: newest, sources: sources)
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

    /// What `route ID` shows.
    public struct RouteDetail: Sendable {
        /// With its end points.
        public var route: Route
        public var isFavorite: Bool
        /// The schedules that name it.
        public var schedules: [Schedule]
        /// When you would arrive if you left now; nil without a current time.
        public var estimatedArrival: Date?
        /// How old its source's data is.
        public var source: SourceAge?
    }

    /// One route, with who uses it.
    public func routeDetail(_ id: RouteID) throws -> RouteDetail {
        let cache = try store.routes(includingEndPoints: true)
        guard !cache.routes.isEmpty else { throw CommuteError.noRouteData }
        guard let found = cache.routes.first(where: { $0.id == id }) else { throw ModelError.unknownRoute(id) }
        let route = current(found)
        // A transit trip arrives when its next bus does, not a ride's length from now.
        let arrival = route.departures.map { $0.next(at: now)?.chosen.arrival }
            ?? route.currentMinutes.map { now.addingTimeInterval(TimeInterval($0 * 60)) }
        return RouteDetail(
            route: route, isFavorite: try store.favorites().routeIDs.contains(id),
            schedules: try store.schedules().schedules.filter { $0.routeIDs.contains(id) }, estimatedArrival: arrival,
            source: try sourceAges(of: [route]).first)
    }

    /// What `brief` says: the brief and how old each source's data is.
    public struct Briefing: Sendable {
        public var brief: CommuteBrief
        public var sources: [SourceAge]
    }

    /// The commute in one sentence, for the favorites or a group of them.
    public func brief(group name: String?) throws -> Briefing {
        let favorites = try store.favorites()
        let routeIDs: [RouteID]
        if let name {
            guard let group = favorites.group(named: name) else { throw CommuteError.unknownGroup(name) }
            routeIDs = group.routeIDs
        } else {
            routeIDs = favorites.routeIDs
        }
        guard !routeIDs.isEmpty else { throw CommuteError.nothingToBrief }
        let cache = try all()
        guard !cache.routes.isEmpty else { throw CommuteError.noRouteData }
        let byID = cache.byID
        let present = routeIDs.compactMap { byID[$0] }
        let sources = try sourceAges(of: present)
        // The oldest stale source among the routes with data: the brief says it was, not that it is.
        let stale = Set(sources.filter { $0.staleness != nil }.map(\.source))
        let staleSince = present.filter { $0.delayMinutes != nil && stale.contains(RouteSource($0)) }
            .compactMap { route in sources.first { $0.source == RouteSource(route) }?.updatedAt }.min()
        let brief = CommuteBrief(
            routeIDs: routeIDs, routes: byID, partOfDay: CommuteBrief.partOfDay(hour: calendar.local(now).hour),
            staleAge: staleSince.map { TimeFormatting.age(now.timeIntervalSince($0)) })
        return Briefing(brief: brief, sources: sources)
    }
}
