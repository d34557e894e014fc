import FoundationEssentials

/// `favorites.json`: the user's favorite routes, as ordered IDs only, and their named groups.
public struct Favorites: Codable, Sendable, Equatable {
    /// The version of its file this build reads and writes.
    public static let currentVersion = 1

    public var version: Int
    public var routeIDs: [RouteID]
    /// Named sets of favorites ("morning", "home"), for `brief --group`. Every ID is a favorite.
    public var groups: [RouteGroup]

    public init(routeIDs: [RouteID], groups: [RouteGroup] = []) {
        self.version = Self.currentVersion
        self.routeIDs = routeIDs
        self.groups = groups
    }

    public static var empty: Favorites { Favorites(routeIDs: []) }

    /// The group with this name, any case.
    public func group(named name: String) -> RouteGroup? {
        groups.first { $0.name.lowercased() == name.lowercased() }
    }

    private enum CodingKeys: String, CodingKey { case version, routeIDs, groups }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        routeIDs = try container.decode([RouteID].self, forKey: .routeIDs)
        // Files written before groups existed have none.
        groups = try container.decodeIfPresent([RouteGroup].self, forKey: .groups) ?? []
    }
}
