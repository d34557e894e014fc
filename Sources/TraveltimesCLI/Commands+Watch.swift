import CommuteCore
import FoundationEssentials

extension Commands {
    static let watchAdd = Command(
        name: "watch add",
        summary: "Alert (critical) when a route's delay reaches MIN minutes (or, auto, passes its usual), and when it clears",
        arguments: "ROUTE",
        positionals: 1...1,
        argumentValues: [.routeID],
        options: [
            OptionSpec(name: "--over", value: "MIN|auto", help: "Delay in minutes over the usual time, or auto: slower than 9 times in 10 at that hour",
                required: true),
            OptionSpec(name: "--notify", value: "NAMES", help: "Send only to these notifiers, by name, comma-separated (default: all)"),
        ],
        discussion: """
            Checked after every successful refresh: one alert when the delay reaches MIN, one when it
            falls back below — at most once per route per direction per local day, and at most 3
            such critical alerts a day. Critical alerts are sent in quiet hours too. With auto, the
            line is the 90th percentile of the route's history for the weekday and quarter hour
            (see history); where there are too few readings, \(ScheduleParsing.usualFallbackMinutes) min over the usual time stands in.
            """
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        guard let text = invocation.arguments.value("--over") else { throw invocation.usage("Missing --over MIN.") }
        let threshold = try ScheduleParsing.delayThreshold(text)
        guard let minutes = threshold.minutes else { throw ModelError.badThreshold(text) }
        var names: [String]?
        if let text = invocation.arguments.value("--notify") {
            guard let list = ScheduleParsing.notifierNames(text) else {
                throw invocation.usage("Invalid --notify '\(DisplayText.line(String(text.prefix(60))))': give notifier names (notify add --name), comma-separated.")
            }
            names = list
        }
        let route = try invocation.commute().notifiers.watch(id, overMinutes: minutes, overUsual: threshold.aboveUsual, notify: names)
        let line = threshold.aboveUsual ? "slower than 9 times in 10 at that hour" : "+\(minutes) min or more"
        invocation.io.out("Watching \(route.name) (\(id)): an alert when it runs \(line), and when it clears.")
    }

    static let watchList = Command(
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

    static let watchRemove = Command(
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

/// `watch list --json`.
struct WatchJSON: Encodable {
    var routeID: String
    var overMinutes: Int
    /// `--over auto`: overMinutes stands in where history is thin.
    var overUsual: Bool
    var isOver: Bool?

    private enum CodingKeys: String, CodingKey { case routeID, overMinutes, overUsual, isOver }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(routeID, forKey: .routeID)
        try container.encode(overMinutes, forKey: .overMinutes)
        try container.encode(overUsual, forKey: .overUsual)
        try container.encode(isOver, forKey: .isOver)
    }
}
