import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore

extension FavoriteRoutes {
    /// Adds a group of favorites. The name must be new (any case); every route a favorite.
    public func addGroup(_ name: String, routeIDs: [RouteID]) throws -> RouteGroup {
        try store.updateFavorites { favorites in
            let name = try Self.checkedGroupName(name)
            guard favorites.group(named: name) == nil else { throw CommuteError.duplicateGroup(name) }
            let group = RouteGroup(name: name, routeIDs: routeIDs)
            try Self.check(group, favorites: favorites)
            favorites.groups.append(group)
            return group
        }
    }

    /// Replaces a group's routes and/or renames it.
    public func editGroup(_ name: String, routeIDs: [RouteID]?, newName: String?) throws -> RouteGroup {
        try store.updateFavorites { favorites in
            guard let index = favorites.groups.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw CommuteError.unknownGroup(name)
            }
            var group = favorites.groups[index]
            if let routeIDs { group.routeIDs = routeIDs }
            if let newName {
                let checked = try Self.checkedGroupName(newName)
                if let other = favorites.group(named: checked), other.name != group.name {
                    throw CommuteError.duplicateGroup(checked)
                }
                group.name = checked
            }
            try Self.check(group, favorites: favorites)
            favorites.groups[index] = group
            return group
        }
    }

    /// Deletes a group; its routes stay favorites.
    public func removeGroup(_ name: String) throws -> RouteGroup {
        try store.updateFavorites { favorites in
            guard let group = favorites.group(named: name) else { throw CommuteError.unknownGroup(name) }
            favorites.groups.removeAll { $0.name == group.name }
            return group
        }
    }

    static func checkedGroupName(_ name: String) throws(CommuteError) -> String {
        let trimmed = name.trimmingWhitespace()
        guard RouteGroup.isValidName(trimmed) else { throw .badGroupName(name) }
        return trimmed
    }

    static func check(_ group: RouteGroup, favorites: Favorites) throws {
        guard !group.routeIDs.isEmpty else { throw ModelError.noRoutes }
        var seen = Set<RouteID>()
        for id in group.routeIDs {
            guard favorites.routeIDs.contains(id) else { throw ModelError.notFavorite(id) }
            guard seen.insert(id).inserted else { throw CommuteError.duplicateRoute(id) }
        }
    }
}
