import CommuteCore
import FoundationEssentials

extension Commands {
    enum RouteEditCommand {
        static let command = Command(
            name: "route edit",
            summary: "Change a custom route's name, ends or provider",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.customRouteID],
            options: [RouteOptions.name, RouteOptions.from, RouteOptions.to, RouteOptions.provider, Options.now],
            discussion: "New ends or a new provider drop the old times: the route is fetched again at the next refresh that needs it. --name '' goes back to the default name."
        ) { invocation in
            let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
            let name = try invocation.value(RouteOptions.name)
            let from = try invocation.value(RouteOptions.from)
            let to = try invocation.value(RouteOptions.to)
            let provider = try invocation.value(RouteOptions.provider)
            guard name != nil || from != nil || to != nil || provider != nil else {
                throw invocation.usage("Nothing to change: give --name, --from, --to or --provider.")
            }
            let commute = try invocation.commute()
            _ = try commute.customRoutes.customRoute(id)
            let route = try commute.customRoutes.editCustomRoute(
                id, name: name, from: try from?.resolved(in: commute), to: try to?.resolved(in: commute), provider: provider)
            invocation.io.out("Route \(id): \(route.name); \(describeTimes(route, units: commute.units)).")
        }
    }
}
