import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// Every route, from wherever it came: the route cache (the feed's and the custom routes) and the
/// transit routes beside it.
extension Store {
    /// Every route. End points (where each route starts and ends) are left out unless asked for:
    /// only the one-route view shows them, and reading them is a third of the work.
    public func routes(includingEndPoints: Bool = false) throws(StoreError) -> RouteCache {
        var cache = try routeCache(includingEndPoints: includingEndPoints)
        cache.routes += try transitRoutes()
        return cache
    }

    /// Routes whose name or description contains `search` (any case), and the newest update time
    /// of all routes; for a non-ASCII search, routes are built and matched in full.
    public func searchRoutes(_ text: String) throws(StoreError) -> (routes: [Route], newest: Date?) {
        guard let search = TextSearch(text) else {
            let cache = try routes()
            return (cache.routes.filter { $0.matches(text) }, cache.routes.map(\.updatedAt).max())
        }
        var result = try searchRouteCache(search)
        // A nameless route was kept for a second look: match it as it is shown.
        result.routes = result.routes.filter { $0.matches(text) }
        let transit = try transitRoutes()
        result.routes += transit.filter { $0.matches(text) }
        result.newest = ([result.newest].compactMap { $0 } + transit.map(\.updatedAt)).max()
        return result
    }

    /// The routes with these IDs, by ID; the others are passed over unbuilt.
    public func routes(withIDs ids: Set<RouteID>, includingEndPoints: Bool = false) throws(StoreError) -> [RouteID: Route] {
        var found = try routeCacheRoutes(withIDs: ids, includingEndPoints: includingEndPoints)
        if found.count < ids.count { found += try transitRoutes().filter { ids.contains($0.id) } }
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
