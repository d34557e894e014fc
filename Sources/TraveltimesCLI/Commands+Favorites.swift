import CommuteCore
import FoundationEssentials

extension Commands {
    static let favoritesList = Command(
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
            table.add(["\(index + 1).", id, route?.name ?? "Route \(id)", AlertComposer.summary(of: route)])
        }
        invocation.io.out(table.render().joined(separator: "\n"))
    }

    static let favoritesAdd = Command(
        name: "favorites add",
        summary: "Add routes to the end of the favorites",
        arguments: "ID...",
        positionals: 1...Int.max,
        argumentValues: [.routeID]
    ) { invocation in
        var seen = Set<String>()
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

    static let favoritesRemove = Command(
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

    static let favoritesMove = Command(
        name: "favorites move",
        summary: "Move a favorite to another position",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.favoriteRouteID],
        options: [OptionSpec(name: "--to", value: "POSITION", help: "New position, 1 = first", required: true)]
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        guard let text = invocation.arguments.value("--to") else {
            throw invocation.usage("Missing --to POSITION.")
        }
        let commute = try invocation.commute()
        guard let position = Int(text) else { throw CommuteError.badPosition(text, count: try commute.favorites.read().routeIDs.count) }
        let order = try commute.favorites.moveFavorite(id, to: position)
        invocation.io.out("Favorites: \(order.joined(separator: ", ")).")
    }

    /// `This will remove …` — names everything the removal destroys.
    static func consequence(of cascade: FavoriteRoutes.Cascade, _ routes: [String: Route]) -> String {
        var text = "This will remove \(describe(cascade.removedFavorites, routes)) from your favorites"
        if !cascade.trimmed.isEmpty {
            let names = cascade.trimmed.map { "\($0.before.timeLabel) on \($0.before.daysLabel)" }
            text += ", and from the schedule\(cascade.trimmed.count == 1 ? "" : "s") at \(names.joined(separator: "; "))"
        }
        text += "."
        for schedule in cascade.deleted {
            text += " This will stop notifications at \(schedule.timeLabel) on \(schedule.daysLabel) (the schedule has no other route)."
        }
        for group in cascade.deletedGroups {
            text += " The group '\(group.name)' will be deleted (it has no other route)."
        }
        return text
    }

    /// `96 (Seattle-Bellevue via 90), 1 (Everett-Seattle)`.
    static func describe(_ ids: [String], _ routes: [String: Route]) -> String {
        ids.map { id in routes[id].map { "\(id) (\($0.name))" } ?? id }.joined(separator: ", ")
    }

    static func routeCount(_ count: Int) -> String { count == 1 ? "1 route" : "\(count) routes" }

    /// The first 8 characters of a schedule's ID: enough to name it, and accepted as a prefix.
    static func shortID(_ schedule: Schedule) -> String { schedule.id.shortForm }
}
