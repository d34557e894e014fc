import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

extension FavoriteRoutes {
    /// What `favorites add` did.
    public struct FavoritesAddResult: Sendable, Equatable {
        public var added: [RouteID]
        public var alreadyFavorites: [RouteID]
    }

    /// Appends routes to the favorites. Each must be in the route cache.
    public func addFavorites(_ ids: [RouteID]) throws -> FavoritesAddResult {
        let known = try store.routes().byID
        guard !known.isEmpty else { throw CommuteError.noRouteData }
        for id in ids where known[id] == nil { throw ModelError.unknownRoute(id) }
        return try store.updateFavorites { favorites in
            var result = FavoritesAddResult(added: [], alreadyFavorites: [])
            for id in ids {
                if favorites.routeIDs.contains(id) {
                    if !result.added.contains(id) { result.alreadyFavorites.append(id) }
                } else {
                    favorites.routeIDs.append(id)
                    result.added.append(id)
                }
            }
            return result
        }
    }

    /// Moves a favorite to a 1-based position.
    public func moveFavorite(_ id: RouteID, to position: Int) throws -> [RouteID] {
        try store.updateFavorites { favorites in
            guard let index = favorites.routeIDs.firstIndex(of: id) else { throw CommuteError.notFavorite(id) }
            guard (1...favorites.routeIDs.count).contains(position) else {
                throw CommuteError.badPosition(String(position), count: favorites.routeIDs.count)
            }
            favorites.routeIDs.remove(at: index)
            favorites.routeIDs.insert(id, at: position - 1)
            return favorites.routeIDs
        }
    }

    /// What unfavouriting would do, or did, to the schedules.
    public struct Cascade: Sendable, Equatable {
        public var removedFavorites: [RouteID]
        /// Schedules that keep at least one route: as they were, and as they are.
        public var trimmed: [Trimmed<Schedule>]
        /// Schedules left with no route, deleted.
        public var deleted: [Schedule]
        /// Groups that keep at least one route, as they are now.
        public var trimmedGroups: [RouteGroup] = []
        /// Groups left with no route, deleted.
        public var deletedGroups: [RouteGroup] = []
    }

    /// An item (a schedule, a group) that kept some of its routes: as it was, and as it is.
    public struct Trimmed<Item: Sendable & Equatable>: Sendable, Equatable {
        public var before: Item
        public var after: Item
    }

    /// What taking routes out of items left: the items kept (trimmed or untouched), the trimmed
    /// ones, and those left with no route.
    struct Stripped<Item: Sendable & Equatable> {
        var kept: [Item] = []
        var trimmed: [Trimmed<Item>] = []
        var deleted: [Item] = []
    }

    /// The cascade of unfavouriting `ids`, computed without changing anything (for the confirmation).
    public func previewRemovingFavorites(_ ids: [RouteID]) throws -> Cascade {
        var favorites = try store.favorites()
        var book = try store.schedules()
        return try Self.cascade(removing: ids, favorites: &favorites, book: &book)
    }

    /// Unfavorites routes: strips them from every schedule, deletes schedules left with no route,
    /// then re-plans every trigger.
    public func removeFavorites(_ ids: [RouteID]) throws -> Commute.Replanned<Cascade> {
        try commute.changeSchedules(favoritesAccess: .exclusive) { favorites, book in
            try Self.cascade(removing: ids, favorites: &favorites, book: &book)
        }
    }

    static func cascade(removing ids: [RouteID], favorites: inout Favorites, book: inout ScheduleBook) throws -> Cascade {
        for id in ids where !favorites.routeIDs.contains(id) { throw CommuteError.notFavorite(id) }
        let removing = Set(ids)
        favorites.routeIDs.removeAll(where: removing.contains)
        let schedules = strip(removing, from: book.schedules, routes: \.routeIDs)
        let groups = strip(removing, from: favorites.groups, routes: \.routeIDs)
        book.schedules = schedules.kept
        favorites.groups = groups.kept
        let cascade = Cascade(
            removedFavorites: ids, trimmed: schedules.trimmed, deleted: schedules.deleted,
            trimmedGroups: groups.trimmed.map(\.after), deletedGroups: groups.deleted)
        return cascade
    }

    /// Takes the routes out of each item (a schedule, a group): items that keep a route are kept,
    /// trimmed; items left with none are deleted. Order is preserved.
    static func strip<Item: Sendable & Equatable>(
        _ removing: Set<RouteID>, from items: [Item], routes: WritableKeyPath<Item, [RouteID]>
    ) -> Stripped<Item> {
        var stripped = Stripped<Item>()
        for item in items {
            guard item[keyPath: routes].contains(where: removing.contains) else {
                stripped.kept.append(item)
                continue
            }
            var after = item
            after[keyPath: routes].removeAll(where: removing.contains)
            if after[keyPath: routes].isEmpty {
                stripped.deleted.append(item)
            } else {
                stripped.trimmed.append(Trimmed(before: item, after: after))
                stripped.kept.append(after)
            }
        }
        return stripped
    }
}
