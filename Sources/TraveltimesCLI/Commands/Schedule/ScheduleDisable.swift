import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleDisableCommand {
        static let command = Command(
            name: "schedule disable",
            summary: "Switch a schedule off; its pending alerts are withdrawn",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.scheduleID],
            options: [Options.now]
        ) { invocation in
            try setEnabled(false, invocation)
        }
    }
}
