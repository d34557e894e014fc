import CommuteCore
import FoundationEssentials

extension Commands {
    enum FavoritesListCommand {
        static let command = Command(
            name: "favorites list",
            summary: "List favorite routes in order (also: traveltimes favorites)",
            options: [Options.json]
        ) { invocation in
            // It needs nothing from config.json: a damaged one does not stop the listing.
            let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
            let favorites = try commute.favorites.read()
            if invocation.wantsJSON {
                try invocation.printJSON(favorites.routeIDs)
                return
            }
            guard !favorites.routeIDs.isEmpty else {
                invocation.io.out("No favorites yet: add routes with `traveltimes favorites add ID...` (IDs from `traveltimes routes`).")
                return
            }
            let routes = try commute.routes.all().byID
            var table = Table([.right, .right, .left, .left])
            for (index, id) in favorites.routeIDs.enumerated() {
                let route = routes[id]
                table.add(["\(index + 1).", id.rawValue, route?.name ?? "Route \(id)", AlertComposer.summary(of: route)])
            }
            invocation.io.out(table.render().joined(separator: "\n"))
        }
    }
}
