import CommuteCore
import FoundationEssentials

extension Commands {
    enum CommuteAddCommand {
        static let command = Command(
            name: "commute add",
            summary: "Name routes as the ways of one commute (drive, bus), for compare and reliability",
            arguments: "NAME",
            positionals: 1...1,
            options: [route],
            discussion: """
                Two to \(RouteGroup.mostWays) routes, favorites or not, in the order compare lists them.
                Alerts of schedules on any of them carry a "Which way" line, and refresh asks
                about every way when one's alert is near. Routes that start and end at the same
                places (each end within \(Int(Ways.samePlaces)) m) are ways of one commute unnamed:
                `compare ROUTE` finds them all, and an alert compares a car route with such
                transit routes (and a transit route with such car routes).
                """
        ) { invocation in
            guard let routeIDs = try routes(Self.route, invocation) else { throw ModelError.noRoutes }
            let added = try invocation.commute().ways.add(invocation.arguments.positionals[0], routeIDs: routeIDs)
            invocation.io.out("Added commute '\(added.name)': \(added.routeIDs.map(\.rawValue).joined(separator: ", ")).")
        }

        static let route = Option<[RouteID]>("--routes", value: "IDS", help: "The ways, comma-separated (or repeat): drive,bus", repeatable: true, values: .routeID) { text in
            try text.split(separator: ",", omittingEmptySubsequences: false).map { try ScheduleParsing.routeID(String($0)) }
        }
    }

    enum CommuteListCommand {
        static let command = Command(
            name: "commute list",
            summary: "List the named commutes (also: traveltimes commute)",
            options: [Options.json]
        ) { invocation in
            let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
            let commutes = try commute.ways.list()
            if invocation.wantsJSON {
                try invocation.printJSON(commutes)
                return
            }
            guard !commutes.isEmpty else {
                invocation.io.out("No commutes yet: add one with `traveltimes commute add NAME --routes drive,bus`.")
                return
            }
            let routes = try commute.routes.all().byID
            for each in commutes {
                invocation.io.out("\(each.name): \(describe(each.routeIDs, routes))")
            }
        }
    }

    enum CommuteRemoveCommand {
        static let command = Command(
            name: "commute remove",
            summary: "Forget a commute (its routes stay)",
            arguments: "NAME",
            positionals: 1...1,
            argumentValues: [.commuteName]
        ) { invocation in
            let removed = try invocation.commute().ways.remove(invocation.arguments.positionals[0])
            invocation.io.out("Removed commute '\(removed.name)'.")
        }
    }
}
