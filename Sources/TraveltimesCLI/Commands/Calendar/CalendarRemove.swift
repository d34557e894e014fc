import CommuteCore
import FoundationEssentials

extension Commands {
    enum CalendarRemoveCommand {
        static let command = Command(
            name: "calendar remove",
            summary: "Stop reading a calendar: its departures and days off go, the alerts come back",
            arguments: "NAME",
            positionals: 1...1,
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            do {
                let planned = try commute.calendars.list().first { $0.source.name == name }
                guard let planned else { _ = try commute.calendars.source(name); return }
                try invocation.confirm(
                    "This will stop reading calendar \(name): its \(planned.departures) departure\(planned.departures == 1 ? "" : "s") and \(planned.skippedDays) day\(planned.skippedDays == 1 ? "" : "s") off go.",
                    question: "Remove it?")
                try commute.calendars.remove(name)
            } catch let failure as CalendarFailure {
                throw invocation.usage("\(failure.message).")
            }
            invocation.io.out("Removed calendar \(name).")
        }
    }
}
