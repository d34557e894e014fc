import CommuteCore
import FoundationEssentials

extension Commands {
    enum CalendarRemoveCommand {
        static let command = Command(
            name: "calendar remove",
            summary: "Stop reading a calendar: its departures and days off go, the alerts come back",
            arguments: "NAME",
            positionals: 1...1,
            options: [Options.now]
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            do {
                try commute.calendars.remove(name)
            } catch let failure as CalendarFailure {
                throw invocation.usage("\(failure.message).")
            }
            invocation.io.out("Removed calendar \(name).")
        }
    }
}
