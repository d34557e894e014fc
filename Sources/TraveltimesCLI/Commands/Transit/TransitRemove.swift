import CommuteCore
import FoundationEssentials

extension Commands {
    enum TransitRemoveCommand {
        static let command = Command(
            name: "transit remove",
            summary: "Remove a transit feed no route uses, with its saved timetable",
            arguments: "NAME",
            positionals: 1...1,
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            do {
                _ = try commute.transit.transitFeed(name)
                try invocation.confirm("This will remove transit feed \(name) and its saved timetable.", question: "Remove it?")
                try commute.transit.removeTransitFeed(name)
            } catch let problem as TransitProblem {
                throw TransitFailed(problem: problem, context: "nothing was removed", secrets: [])
            }
            invocation.io.out("Removed transit feed \(name).")
        }
    }
}
