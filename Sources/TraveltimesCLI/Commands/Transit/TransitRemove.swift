import CommuteCore
import FoundationEssentials

extension Commands {
    enum TransitRemoveCommand {
        static let command = Command(
            name: "transit remove",
            summary: "Remove a transit feed no route uses, with its saved timetable",
            arguments: "NAME",
            positionals: 1...1,
            options: [Options.now]
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            do {
                try commute.transit.removeTransitFeed(name)
            } catch let problem as TransitProblem {
                throw TransitFailed(problem: problem, context: "nothing was removed", secrets: [])
            }
            invocation.io.out("Removed transit feed \(name).")
        }
    }
}
