import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleListCommand {
        static let command = Command(
            name: "schedule list",
            summary: "List schedules (also: traveltimes schedule)",
            options: [
                verbose,
                Options.json, Options.now,
            ]
        ) { invocation in
            let commute = try invocation.commute()
            let schedules = try commute.schedules.read().schedules
            if invocation.wantsJSON {
                try invocation.printJSON(schedules.map { ScheduleJSON($0, calendar: commute.calendar) })
                return
            }
            guard !schedules.isEmpty else {
                invocation.io.out("No schedules yet: add one with `traveltimes schedule add --preset morning`.")
                return
            }
            if invocation.isSet(Self.verbose) {
                let routes = try commute.routes.all().byID
                for schedule in schedules {
                    invocation.io.out("\(shortID(schedule))  \(schedule.spokenLabel)")
                    for id in schedule.routeIDs {
                        invocation.io.out("    \(AlertComposer.line(routeID: id, route: routes[id]))")
                    }
                }
                return
            }
            // The smart-alert column appears only when some schedule has a threshold.
            let smart = schedules.contains { $0.smartLabel != nil }
            var table = Table([.left, .right, .left, .left, .left] + (smart ? [.left] : []))
            for schedule in schedules {
                table.add([
                    shortID(schedule), schedule.timeLabel, schedule.daysLabel, routeCount(schedule.routeIDs.count),
                    schedule.isEnabled ? "enabled" : "disabled",
                ] + (smart ? [schedule.smartLabel ?? "always"] : []))
            }
            invocation.io.out(table.render().joined(separator: "\n"))
        }

        static let verbose = Flag("--verbose", help: "Spell each schedule out in full, with its routes")
    }
}
