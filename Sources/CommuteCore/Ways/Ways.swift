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
        if let ends = Self.ends(route) {
            for other in routes.values.sorted(by: { $0.id.rawValue < $1.id.rawValue }) where !ways.contains(other.id) {
                guard let theirs = Self.ends(other), RouteLine.metres(ends.from, theirs.from) <= Self.samePlaces,
                    RouteLine.metres(ends.to, theirs.to) <= Self.samePlaces
                else { continue }
                ways.append(other.id)
            }
        }
        return RouteGroup(name: route.name, routeIDs: ways)
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
