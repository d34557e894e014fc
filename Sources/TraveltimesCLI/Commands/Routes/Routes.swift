import CommuteCore
import FoundationEssentials

extension Commands {
    enum RoutesCommand {
        static let command = Command(
            name: "routes",
            summary: "List cached routes with current and average times and delay status",
            options: [
                search,
                favorites,
                sort,
                Options.json, Options.now,
            ],
            discussion: "Favorites are marked *. A line warns when the data is more than an hour old."
        ) { invocation in
            var order = Routes.RouteOrder.feed
            if let text = try invocation.value(Self.sort) {
                guard text == "delay" else { throw invocation.usage("Unknown --sort '\(text)': use delay.") }
                order = .delay
            }
            let commute = try invocation.commute()
            let listing = try commute.routes.routeListing(
                search: try invocation.value(Self.search), favoritesOnly: invocation.isSet(Self.favorites), order: order)
            if invocation.wantsJSON {
                try invocation.printJSON(listing.routes.map { RouteJSON($0, calendar: commute.calendar) })
                return
            }
            let io = invocation.io
            for line in ageLines(listing.sources, newest: listing.newestUpdate, commute) { io.out(line) }
            guard !listing.entries.isEmpty else {
                if let text = try invocation.value(Self.search) {
                    io.out("No routes match '\(text)'.")
                } else {
                    io.out("No favorites yet: add routes with `traveltimes favorites add ID...`.")
                }
                return
            }
            io.out(routeTable(listing, commute))
            if listing.routes.contains(where: { $0.suspiciousMinutes != nil }) {
                io.out("? Outside what the route can be: ignored until a second reading confirms it.")
            }
            if listing.routes.contains(where: { $0.provider?.isFreeFlow == true }) {
                io.out("~ A free-flow estimate from an open routing engine (OSRM, Valhalla): no live traffic.")
            }
            if listing.routes.contains(where: { $0.provider?.usualIsFreeFlow == true }) {
                io.out("† Google gives no usual time: its AVG is the time without traffic, so its delays run high.")
            }
        }

        /// When the data shown was updated, and a line for each source whose data is stale. One
        /// source: `Updated at 4:00 PM`; several: `Updated: wsdot Tue, Nov 4, 4:00 PM; transit metro
        /// 7:15 AM`, each stale one named on its own line, so one fresh source never hides another's age.
        static func ageLines(_ sources: [Routes.SourceAge], newest: Date, _ commute: Commute) -> [String] {
            let moment = { (date: Date) in TimeFormatting.moment(date, relativeTo: commute.now, calendar: commute.calendar) }
            guard sources.count > 1 else {
                return ["Updated at \(moment(sources.first?.updatedAt ?? newest))"] + sources.compactMap { $0.staleness.map { describe($0, commute) } }
            }
            let updated = sources.map { source in
                "\(source.source.label) " + (source.updatedAt.map(moment) ?? (source.source.isTransit ? "timetable only" : "not fetched yet"))
            }
            return ["Updated: " + updated.joined(separator: "; ")]
                + sources.compactMap { source in source.staleness.map { describe($0, commute, source: source.source) } }
        }

        /// The `routes` table: favorites marked *, unavailable favorites in their place.
        private static func routeTable(_ listing: Routes.RouteListing, _ commute: Commute) -> String {
            var table = Table([.left, .right, .left, .right, .right, .right, .left, .left, .left])
            table.add(["", "ID", "NAME", "NOW", "AVG", "DELAY", "STATUS", "SOURCE", "UPDATED"])
            for entry in listing.entries {
                switch entry {
                case .unavailable(let id):
                    table.add(["*", id.rawValue, "Route \(id)", "-", "-", "-", "UNAVAILABLE", "-", "not in the latest feed"])
                case .route(let route) where route.provider?.isFreeFlow == true:
                    // An open engine's estimate: no traffic, so no delay and no status of its own.
                    table.add([
                        listing.favorites.contains(route.id) ? "*" : "", route.id.rawValue, route.name,
                        route.suspiciousMinutes.map { "\($0)?" } ?? minutes(route.currentMinutes) + "~", "-", "-",
                        route.suspiciousMinutes == nil ? "ESTIMATE" : "SUSPICIOUS", route.sourceName,
                        route.custom?.fetchedAt == nil ? "not fetched yet" : TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: commute.calendar),
                    ])
                case .route(let route):
                    table.add([
                        listing.favorites.contains(route.id) ? "*" : "", route.id.rawValue, route.name,
                        route.suspiciousMinutes.map { "\($0)?" } ?? minutes(route.currentMinutes),
                        minutes(route.averageMinutes) + (route.provider?.usualIsFreeFlow == true ? "†" : ""),
                        route.delayMinutes.map(TimeFormatting.delay) ?? "-", route.suspiciousMinutes == nil ? route.status.rawValue : "SUSPICIOUS",
                        route.sourceName,
                        route.isProviderRoute && route.custom?.fetchedAt == nil
                            ? "not fetched yet" : TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: commute.calendar),
                    ])
                }
            }
            return table.render().joined(separator: "\n")
        }

        static let search = Option<String>("--search", value: "TEXT", help: "Only routes whose name or description contains TEXT (any case)")
        static let favorites = Flag("--favorites", help: "Only favorites, in favorites order")
        static let sort = Option<String>("--sort", value: "ORDER", help: "delay: the worst delay first (default: feed order)", values: .words(["delay"]))
    }
}
