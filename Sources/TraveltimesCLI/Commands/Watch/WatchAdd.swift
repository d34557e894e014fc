import CommuteCore
import FoundationEssentials

extension Commands {
    enum WatchAddCommand {
        static let command = Command(
            name: "watch add",
            summary: "Alert (critical) when a route's delay reaches MIN minutes (or, auto, passes its usual), and when it clears",
            arguments: "ROUTE",
            positionals: 1...1,
            argumentValues: [.routeID],
            options: [
                over,
                notify,
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
            guard let text = try invocation.value(Self.over) else { throw invocation.usage("Missing --over MIN.") }
            let threshold = try ScheduleParsing.delayThreshold(text)
            guard let minutes = threshold.minutes else { throw ModelError.badThreshold(text) }
            var names: [String]?
            if let text = try invocation.value(Self.notify) {
                guard let list = ScheduleParsing.notifierNames(text) else {
                    throw invocation.usage("Invalid --notify '\(DisplayText.line(String(text.prefix(60))))': give notifier names (notify add --name), comma-separated.")
                }
                names = list
            }
            let route = try invocation.commute().notifiers.watch(id, overMinutes: minutes, overUsual: threshold.aboveUsual, notify: names)
            let line = threshold.aboveUsual ? "slower than 9 times in 10 at that hour" : "+\(minutes) min or more"
            invocation.io.out("Watching \(route.name) (\(id)): an alert when it runs \(line), and when it clears.")
        }

        static let over = Option<String>("--over", value: "MIN|auto", help: "Delay in minutes over the usual time, or auto: slower than 9 times in 10 at that hour", required: true)
        static let notify = Option<String>("--notify", value: "NAMES", help: "Send only to these notifiers, by name, comma-separated (default: all)")
    }
}
