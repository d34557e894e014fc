import CommuteCore
import FoundationEssentials

extension Commands {
    enum FavoritesMoveCommand {
        static let command = Command(
            name: "favorites move",
            summary: "Move a favorite to another position",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.favoriteRouteID],
            options: [to]
        ) { invocation in
            let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
            guard let text = try invocation.value(Self.to) else {
                throw invocation.usage("Missing --to POSITION.")
            }
            let commute = try invocation.commute()
            guard let position = Int(text) else { throw CommuteError.badPosition(text, count: try commute.favorites.read().routeIDs.count) }
            let order = try commute.favorites.moveFavorite(id, to: position)
            invocation.io.out("Favorites: \(order.joined(separator: ", ")).")
        }

        static let to = Option<String>("--to", value: "POSITION", help: "New position, 1 = first", required: true)
    }
}
