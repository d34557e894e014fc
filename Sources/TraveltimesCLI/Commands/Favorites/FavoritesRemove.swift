import CommuteCore
import FoundationEssentials

extension Commands {
    enum FavoritesRemoveCommand {
        static let command = Command(
            name: "favorites remove",
            summary: "Remove routes from the favorites and from every schedule that uses them",
            arguments: "ID...",
            positionals: 1...Int.max,
            argumentValues: [.favoriteRouteID],
            options: [Options.yes, Options.now],
            discussion: """
                A schedule left with no route is deleted. Asks first on a terminal; otherwise needs --yes.
                """
        ) { invocation in
            let ids = try invocation.arguments.positionals.map(ScheduleParsing.routeID)
            let commute = try invocation.commute()
            let routes = try commute.routes.all().byID
            let preview = try commute.favorites.previewRemovingFavorites(ids)
            try invocation.confirm(consequence(of: preview, routes), question: "Remove?")
            let removed = try commute.favorites.removeFavorites(ids)
            invocation.io.out("Removed from favorites: \(describe(removed.change.removedFavorites, routes)).")
            report(removed.change, invocation)
            invocation.report(removed.summary)
        }
    }
}
