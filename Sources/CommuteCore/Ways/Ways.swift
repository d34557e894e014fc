import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore

extension Ways {
    /// Two routes whose starts and ends are each this close are ways of one commute.
    public static let samePlaces = 300.0

    /// Names routes as the ways of one commute (`commute add work --routes drive,bus`). The name
    /// is new (any case); every route is known; 2 to `RouteGroup.mostWays` of them.
    public func add(_ name: String, routeIDs: [RouteID]) throws -> RouteGroup {
        let known = try store.routes(withIDs: Set(routeIDs))
        return try store.updateFavorites { favorites in
            let name = try FavoriteRoutes.checkedGroupName(name)
            guard favorites.commute(named: name) == nil else { throw CommuteError.duplicateCommute(name) }
            guard (2...RouteGroup.mostWays).contains(routeIDs.count) else { throw CommuteError.commuteWays(routeIDs.count) }
            var seen = Set<RouteID>()
            for id in routeIDs {
                guard known[id] != nil else { throw ModelError.unknownRoute(id) }
                guard seen.insert(id).inserted else { throw CommuteError.duplicateRoute(id) }
            }
            let commute = RouteGroup(name: name, routeIDs: routeIDs)
            favorites.commutes.append(commute)
            return commute
        }
    }

    /// Forgets a commute; its routes stay.
    public func remove(_ name: String) throws -> RouteGroup {
        try store.updateFavorites { favorites in
            guard let commute = favorites.commute(named: name) else { throw CommuteError.unknownCommute(name) }
            favorites.commutes.removeAll { $0.name == commute.name }
            return commute
        }
    }

    /// The named commutes, as added.
    public func list() throws -> [RouteGroup] { try store.favorites().commutes }

    /// The ways `text` names: a commute by name, or a route ID with every route between the same
    /// places (each end within `samePlaces` metres) and the other ways of any commute it is in.
    public func resolve(_ text: String) throws -> RouteGroup {
        let favorites = try store.favorites()
        if let named = favorites.commute(named: text) { return named }
        guard let id = try? ScheduleParsing.routeID(text) else { throw CommuteError.unknownCommute(text) }
        let routes = try store.routes(includingEndPoints: true).byID
        guard let route = routes[id] else { throw CommuteError.unknownCommute(text) }
        var ways = [id]
        for other in favorites.commutes where other.routeIDs.contains(id) {
            for way in other.routeIDs where !ways.contains(way) { ways.append(way) }
        }
        for other in Self.samePlaces(as: route, in: routes) where !ways.contains(other) { ways.append(other) }
        return RouteGroup(name: route.name, routeIDs: ways)
    }

    /// The commutes `routeIDs` are on: every named commute holding one of them, then, for each
    /// route on none, it and the routes followed (these and the favorites) between the same places
    /// by the other means (a car route and the transit routes, a transit route and the car
    /// routes), when there are any, under its name. What alerts and exports put side by side: a
    /// car route's HOV or express-lane twin is a way only when named with it (`compare ROUTE`
    /// shows them all).
    /// `known`: those routes (and the favorites) already read, if they are.
    public func commutes(of routeIDs: [RouteID], known: [RouteID: Route]? = nil) throws -> [RouteGroup] {
        let favorites = try store.favorites()
        var found = favorites.commutes.filter { !Set($0.routeIDs).isDisjoint(with: routeIDs) }
        var covered = Set(favorites.commutes.flatMap(\.routeIDs))
        guard routeIDs.contains(where: { !covered.contains($0) }) else { return found }
        // Both means among the routes followed, or no pair to find (a WSDOT-only store: every
        // refresh with exports asks this of each favorite); their ends read only then.
        let followed = Set(routeIDs + favorites.routeIDs)
        let ridden = try (known ?? store.routes(withIDs: followed)).values.map(Self.isTransit)
        guard ridden.contains(true), ridden.contains(false) else { return found }
        let routes = try store.routes(withIDs: followed, includingEndPoints: true)
        for id in routeIDs where !covered.contains(id) {
            guard let route = routes[id] else { continue }
            let ways = [id] + Self.samePlaces(as: route, in: routes).filter { routes[$0].map(Self.isTransit) != Self.isTransit(route) }
            covered.formUnion(ways)
            if ways.count > 1 { found.append(RouteGroup(name: route.name, routeIDs: ways)) }
        }
        return found
    }

    /// Whether a route is ridden (a transit feed's, or a transit planner's) rather than driven.
    static func isTransit(_ route: Route) -> Bool {
        switch route.kind {
        case .feed: false
        case .transitFeed: true
        case .provider(let custom): custom.provider.isTransit
        }
    }

    /// The other routes whose starts and ends are each within `samePlaces` metres of `route`'s,
    /// in order of their IDs.
    static func samePlaces(as route: Route, in routes: [RouteID: Route]) -> [RouteID] {
        guard let ends = ends(route) else { return [] }
        return routes.values.sorted { $0.id.rawValue < $1.id.rawValue }.compactMap { other in
            guard other.id != route.id, let theirs = Self.ends(other), RouteLine.metres(ends.from, theirs.from) <= samePlaces,
                RouteLine.metres(ends.to, theirs.to) <= samePlaces
            else { return nil }
            return other.id
        }
    }

    /// Where a route starts and ends, where it says.
    static func ends(_ route: Route) -> (from: Coordinate, to: Coordinate)? {
        if case .provider(let custom) = route.kind { return (custom.from, custom.to) }
        guard let start = route.startPoint, let end = route.endPoint, let fromLatitude = start.latitude, let fromLongitude = start.longitude,
            let toLatitude = end.latitude, let toLongitude = end.longitude,
            let from = Coordinate(latitude: fromLatitude, longitude: fromLongitude), let to = Coordinate(latitude: toLatitude, longitude: toLongitude)
        else { return nil }
        return (from, to)
    }

    /// The ways `text` names, side by side now.
    public func compare(_ text: String) throws -> WayComparison {
        let ways = try resolve(text)
        return try compare(ways)
    }

    /// The ways of a commute, side by side now: each way's live time where it is fresh (read
    /// within the stale-after limit), else its usual time, against its usual time for now.
    public func compare(_ ways: RouteGroup) throws -> WayComparison {
        let routes = try store.routes(withIDs: Set(ways.routeIDs))
        let stale = TimeInterval((configuration.staleAfterMinutes ?? Configuration.defaultStaleAfterMinutes) * 60)
        let history = commute.history
        return WayComparison(name: ways.name, ways: ways.routeIDs.map { id in
            let usual = history.typical(id, at: now)
            guard let saved = routes[id] else {
                return WayComparison.Way(
                    routeID: id, name: "Route \(id)", basis: usual == nil ? .none : .usual, minutes: usual.map { TypicalTime.whole($0.median) },
                    estimate: nil, usual: usual, readAt: nil)
            }
            let route = current(saved)
            let fresh = stale <= 0 || now.timeIntervalSince(route.updatedAt) <= stale
            if route.hasLiveTime, fresh, let minutes = route.currentMinutes {
                return WayComparison.Way(
                    routeID: id, name: route.name, basis: .live, minutes: minutes, estimate: nil, usual: usual, readAt: route.updatedAt)
            }
            return WayComparison.Way(
                routeID: id, name: route.name, basis: usual == nil ? .none : .usual, minutes: usual.map { TypicalTime.whole($0.median) },
                estimate: route.freeFlowEstimate, usual: usual, readAt: route.updatedAt)
        })
    }
}
