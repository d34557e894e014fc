import Basics
import CommuteModel
import FoundationEssentials

/// The route cache: the feed's routes and the custom ones (transit routes are CommuteSources').
@_spi(Store)
extension Store {
    /// The cached feed and custom routes. End points (where each route starts and ends) are left
    /// out unless asked for: only the one-route view shows them, and reading them is a third of
    /// the work.
    public func routeCache(includingEndPoints: Bool = false) throws(StoreError) -> RouteCache {
        try file(RouteCache.self).load { try RouteCache.decodeDocument(from: $0, includingEndPoints: includingEndPoints) }
    }

    /// Cached feed and custom routes whose name or description contains `search`, and the newest
    /// update time of those read; nil for a search the fast reader cannot do (non-ASCII).
    public func searchRouteCache(_ search: TextSearch) throws(StoreError) -> (routes: [Route], newest: Date?) {
        var result: (routes: [Route], newest: Date?) = ([], nil)
        _ = try file(RouteCache.self).load { data in
            result = try RouteCache.search(data, for: search)
            return RouteCache.empty
        }
        return result
    }

    /// The cached feed and custom routes with these IDs; the others are passed over unbuilt.
    public func routeCacheRoutes(withIDs ids: Set<RouteID>, includingEndPoints: Bool = false) throws(StoreError) -> [Route] {
        try RouteCache.routes(atPath: file(RouteCache.self).path, withIDs: ids, includingEndPoints: includingEndPoints)
    }

    /// What precedes the routes in the cache (when and where they were fetched, the validators),
    /// read without reading the routes.
    public func routeCacheHeader() throws(StoreError) -> RouteCache.Header {
        var header = RouteCache.Header()
        _ = try file(RouteCache.self).load { data in
            header = try RouteCache.decodeHeader(from: data)
            return RouteCache.empty
        }
        return header
    }

    /// Replaces the feed's routes in the cache with the routes that `body` hands to `save`, each
    /// written to the new file as it comes: a feed of any size is saved without ever being whole in
    /// memory. The custom routes are carried over after them, and returned. `body` is also given
    /// the feed's routes of the current file that `keeping` picks, by ID (what a reading is judged
    /// against). The current file must be readable (or absent): the store never overwrites what it
    /// cannot read. If `body` throws, the cache is left as it was and the error passes through.
    public func replaceRoutes<T>(
        fetchedAt: Date?, source: String?, validators: HTTPValidators? = nil, keeping: (Route) -> Bool = { _ in false },
        _ body: (_ previous: [RouteID: Route], _ save: (Route) throws -> Void) throws -> T
    ) throws -> (result: T, custom: [Route]) {
        let path = file(RouteCache.self).path
        return try lock(.routes).withLock {
            let (custom, previous) = try RouteCache.customRoutesCheckingFile(atPath: path, keeping: keeping)
            let result = try AtomicFile.write(to: path) { file in
                var encoder = RouteCache.Encoder(
                    fetchedAt: fetchedAt, source: source, validators: validators, capacity: Self.routeFlushSize + 4_096)
                let result = try body(previous) { route in
                    // The feed's IDs are numbers, a custom route's never: a route that claims to be
                    // custom is not the feed's to write.
                    guard !route.isProviderRoute else { return }
                    encoder.append(route)
                    if encoder.pendingByteCount >= Self.routeFlushSize { try encoder.flush(to: file) }
                }
                for route in custom { encoder.append(route) }
                encoder.finish()
                try encoder.flush(to: file)
                return result
            }
            return (result, custom)
        }
    }

    /// Read-modify-write of the custom routes, under the routes lock; the feed's routes and the
    /// header are written back as they were. Nothing is written if `body` throws or changes nothing.
    public func updateCustomRoutes<T>(_ body: (inout [Route]) throws -> T) throws -> T {
        try lock(.routes).withLock {
            let routesFile = file(RouteCache.self)
            var cache = try routesFile.load()
            let feed = cache.routes.filter { !$0.isProviderRoute }
            var custom = cache.routes.filter(\.isProviderRoute)
            let original = custom
            let result = try body(&custom)
            if custom != original {
                cache.routes = feed + custom
                try routesFile.save(cache)
            }
            return result
        }
    }

    /// How much of a new route cache is gathered before it is written out.
    private static let routeFlushSize = 64 * 1_024
}
