import CommuteCore
import FoundationEssentials

extension Commands {
    enum RouteRemoveCommand {
        static let command = Command(
            name: "route remove",
            summary: "Remove a custom or transit route, and take it out of favorites, schedules, groups and watches",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.customRouteID],
            options: [Options.yes, Options.now],
            discussion: "A schedule or group left with no route is deleted, as when unfavouriting. Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
            let commute = try invocation.commute()
            let routes = try commute.routes.all().byID
            let preview = try commute.customRoutes.previewRemovingCustomRoute(id)
            let kind = routes[id]?.isPublicTransport == true ? "transit" : "custom"
            var consequence = "This will remove the \(kind) route \(describe([id], routes))."
            if let cascade = preview.cascade { consequence += " " + Commands.consequence(of: cascade, routes) }
            if preview.wasWatched { consequence += " Its delay watch will stop." }
            try invocation.confirm(consequence, question: "Remove?")
            let removed = try commute.customRoutes.removeCustomRoute(id)
            if let cascade = removed.change.cascade { report(cascade, invocation) }
            if removed.change.wasWatched { invocation.io.out("Stopped watching \(id).") }
            invocation.io.out("Removed route \(describe([id], routes)).")
            invocation.report(removed.summary)
        }
    }
}
