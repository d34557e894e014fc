import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleEditCommand {
        static let command = Command(
            name: "schedule edit",
            summary: "Change a schedule's time, days or routes",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.scheduleID],
            options: [
                options.at, ScheduleOptions.arriveBy, ScheduleOptions.buffer, ScheduleOptions.headsUp, ScheduleOptions.onTime, options.days, options.routes,
                options.onlyWhenDelayed, options.notify, Options.now,
            ]
        ) { invocation in
            var draft = try scheduleDraft(invocation, options)
            let tuning = tunesArrival(invocation)
            guard !draft.isEmpty || tuning else {
                throw invocation.usage("Nothing to change: give --at, --arrive-by, --buffer, --heads-up, --on-time, --days, --route, --only-when-delayed or --notify.")
            }
            let commute = try invocation.commute()
            if tuning || invocation.isGiven(ScheduleOptions.arriveBy) {
                // The buffer and heads-up not given are kept; alone, they keep the arrival too.
                let current = try commute.schedule(matching: invocation.arguments.positionals[0])
                if !invocation.isGiven(ScheduleOptions.arriveBy) {
                    guard case .arriveBy = current.timing else {
                        throw invocation.usage("--buffer, --heads-up and --on-time are for arrive-by schedules: give --arrive-by TIME too.")
                    }
                    draft.time = draft.time ?? current.time
                }
                draft.timing = try arriveBy(invocation, over: current.timing)
            }
            let edited = try commute.schedules.editSchedule(invocation.arguments.positionals[0], draft)
            invocation.io.out("Updated schedule \(shortID(edited.after)): \(try describe(edited.after, commute)).")
            warn(edited.warnings, about: edited.after, invocation)
            invocation.report(edited.summary)
        }

        static let options = ScheduleOptions(
            at: ScheduleOptions.at(help: "New time of day: \(timeHelp) (an arrive-by schedule becomes a fixed one)"),
            days: ScheduleOptions.days(help: "New days: \(daysHelp)"),
            routes: ScheduleOptions.routes(help: "New routes (favorites), replacing the old; repeat or use commas"),
            onlyWhenDelayed: ScheduleOptions.onlyWhenDelayed(value: "MIN|auto|off", help: "Smart alert threshold in minutes, auto (from history), or off"),
            notify: ScheduleOptions.notify(value: "NAMES|all", help: "Send to these notifiers (by name, comma-separated), or all again"))
    }
}
