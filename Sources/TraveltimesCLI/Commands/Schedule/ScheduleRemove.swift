import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleRemoveCommand {
        static let command = Command(
            name: "schedule remove",
            summary: "Delete a schedule and its pending alerts",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.scheduleID],
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let commute = try invocation.commute()
            let schedule = try commute.schedule(matching: invocation.arguments.positionals[0])
            try invocation.confirm(
                "This will stop notifications at \(schedule.timeLabel) on \(schedule.daysLabel).", question: "Remove it?")
            let removed = try commute.schedules.removeSchedule(schedule.id.uuidString)
            invocation.io.out("Removed schedule \(shortID(removed.change)) (\(removed.change.timeLabel) on \(removed.change.daysLabel)).")
            invocation.report(removed.summary)
        }
    }
}
