import FoundationEssentials

/// `favorites.json`: the user's favorite routes, as ordered IDs only, and their named groups.
public struct Favorites: Codable, Sendable, Equatable {
    /// The version of its file this build reads and writes.
    public static let currentVersion = 1

    public var version: Int
    public var routeIDs: [RouteID]
    /// Named sets of favorites ("morning", "home"), for `brief --group`. Every ID is a favorite.
    public var groups: [RouteGroup]
    /// Commutes with several ways ("work": drive, bus): routes, favorites or not, that `compare`
    /// sets side by side. Written only when there are some.
    public var commutes: [RouteGroup]

    public init(routeIDs: [RouteID], groups: [RouteGroup] = [], commutes: [RouteGroup] = []) {
        self.version = Self.currentVersion
        self.routeIDs = routeIDs
        self.groups = groups
        self.commutes = commutes
    }

    public static var empty: Favorites { Favorites(routeIDs: []) }

    /// The group with this name, any case.
    public func group(named name: String) -> RouteGroup? {
        groups.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The commute with this name, any case.
    public func commute(named name: String) -> RouteGroup? {
        commutes.first { $0.name.lowercased() == name.lowercased() }
    }

    private enum CodingKeys: String, CodingKey { case version, routeIDs, groups, commutes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        routeIDs = try container.decode([RouteID].self, forKey: .routeIDs)
        // Files written before groups (or commutes) existed have none.
        groups = try container.decodeIfPresent([RouteGroup].self, forKey: .groups) ?? []
        commutes = try container.decodeIfPresent([RouteGroup].self, forKey: .commutes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(routeIDs, forKey: .routeIDs)
        try container.encode(groups, forKey: .groups)
        if !commutes.isEmpty { try container.encode(commutes, forKey: .commutes) }
    }
}
