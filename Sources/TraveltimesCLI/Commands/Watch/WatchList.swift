import CommuteCore
import FoundationEssentials

extension Commands {
    enum WatchListCommand {
        static let command = Command(
            name: "watch list",
            summary: "List watched routes (also: traveltimes watch)",
            options: [Options.json]
        ) { invocation in
            let commute = try invocation.commute()
            let watches = commute.configuration.watches ?? []
            if invocation.wantsJSON {
                try invocation.printJSON(watches.map {
                    WatchJSON(routeID: $0.routeID, overMinutes: $0.overMinutes, overUsual: $0.overUsual ?? false, isOver: $0.isOver)
                })
                return
            }
            guard !watches.isEmpty else {
                invocation.io.out("No routes watched: add one with `traveltimes watch add ROUTE --over MIN`.")
                return
            }
            let routes = try commute.routes.all().byID
            for watch in watches {
                let state = watch.isOver.map { $0 ? "over now" : "clear now" } ?? "not checked yet"
                let line = watch.overUsual == true ? "slower than usual" : "over +\(watch.overMinutes) min"
                invocation.io.out("\(watch.routeID)  \(routes[watch.routeID]?.name ?? "Route \(watch.routeID)")  \(line)  (\(state))")
            }
        }
    }
}
