import CommuteCore
import FoundationEssentials

extension Commands {
    enum FavoritesAddCommand {
        static let command = Command(
            name: "favorites add",
            summary: "Add routes to the end of the favorites",
            arguments: "ID...",
            positionals: 1...Int.max,
            argumentValues: [.routeID]
        ) { invocation in
            var seen = Set<RouteID>()
            // An ID given twice is added (and named) once.
            let ids = try invocation.arguments.positionals.map(ScheduleParsing.routeID).filter { seen.insert($0).inserted }
            let commute = try invocation.commute()
            let result = try commute.favorites.addFavorites(ids)
            let routes = try commute.routes.all().byID
            if !result.added.isEmpty {
                invocation.io.out("Added to favorites: \(describe(result.added, routes)).")
            }
            if !result.alreadyFavorites.isEmpty {
                invocation.io.out("Already favorites: \(describe(result.alreadyFavorites, routes)).")
            }
        }
    }
}
