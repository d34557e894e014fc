import CommuteCore
import FoundationEssentials

extension Commands {
    enum WatchRemoveCommand {
        static let command = Command(
            name: "watch remove",
            summary: "Stop watching a route",
            arguments: "ROUTE",
            positionals: 1...1,
            argumentValues: [.watchedRouteID],
            options: [Options.yes]
        ) { invocation in
            let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
            let commute = try invocation.commute()
            guard commute.configuration.watches?.contains(where: { $0.routeID == id }) == true else {
                throw invocation.usage("Route \(id) is not watched: see `traveltimes watch list`.")
            }
            try invocation.confirm("This will stop delay alerts for route \(id).", question: "Stop watching?")
            try commute.notifiers.unwatch(id)
            invocation.io.out("Stopped watching route \(id).")
        }
    }
}
