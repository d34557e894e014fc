import CommuteCore
import FoundationEssentials

extension Commands {
    enum ScheduleEnableCommand {
        static let command = Command(
            name: "schedule enable",
            summary: "Switch a schedule on",
            arguments: "ID",
            positionals: 1...1,
            argumentValues: [.scheduleID],
            options: [Options.now]
        ) { invocation in
            try setEnabled(true, invocation)
        }
    }
}
