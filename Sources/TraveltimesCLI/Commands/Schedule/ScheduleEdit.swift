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
                OptionSpec(name: "--at", value: "TIME", help: "New time of day: \(timeHelp) (an arrive-by schedule becomes a fixed one)"),
                arriveByOption, bufferOption, headsUpOption,
                OptionSpec(name: "--days", value: "DAYS", help: "New days: \(daysHelp)", values: .days),
                OptionSpec(name: "--route", value: "ID", help: "New routes (favorites), replacing the old; repeat or use commas", repeatable: true, values: .favoriteRouteID),
                OptionSpec(name: "--only-when-delayed", value: "MIN|auto|off", help: "Smart alert threshold in minutes, auto (from history), or off"),
                OptionSpec(name: "--notify", value: "NAMES|all", help: "Send to these notifiers (by name, comma-separated), or all again"),
                Options.now,
            ]
        ) { invocation in
            var draft = try scheduleDraft(invocation.arguments)
            let tuning = invocation.arguments.value("--buffer") != nil || invocation.arguments.value("--heads-up") != nil
            guard !draft.isEmpty || tuning else {
                throw invocation.usage("Nothing to change: give --at, --arrive-by, --buffer, --heads-up, --days, --route, --only-when-delayed or --notify.")
            }
            let commute = try invocation.commute()
            if tuning || invocation.arguments.value("--arrive-by") != nil {
                // The buffer and heads-up not given are kept; alone, they keep the arrival too.
                let current = try commute.schedule(matching: invocation.arguments.positionals[0])
                if invocation.arguments.value("--arrive-by") == nil {
                    guard case .arriveBy = current.timing else {
                        throw invocation.usage("--buffer and --heads-up are for arrive-by schedules: give --arrive-by TIME too.")
                    }
                    draft.time = draft.time ?? current.time
                }
                draft.timing = try arriveBy(invocation.arguments, over: current.timing)
            }
            let edited = try commute.schedules.editSchedule(invocation.arguments.positionals[0], draft)
            invocation.io.out("Updated schedule \(shortID(edited.after)): \(try describe(edited.after, commute)).")
            warn(edited.warnings, about: edited.after, invocation)
            invocation.report(edited.summary)
        }
    }
}
