import CommuteCore
import FoundationEssentials

extension Commands {
    enum HistoryImportCommand {
        static let command = Command(
            name: "history import",
            summary: "Add travel times from a CSV file in history export's form",
            arguments: "FILE",
            positionals: 1...1,
            argumentValues: [.file],
            options: [Options.now],
            discussion: """
                FILE (- for standard input) has the lines history export --csv writes: \(HistoryCSV.header).
                Every line is checked before anything is added: a file with a bad line adds nothing.
                Each reading goes in its place in its route's history; one whose time is already
                recorded is skipped, so importing a file twice adds it once. Only routes traveltimes
                knows (the feed's, custom and transit routes, and those with a history already) are
                imported; the others are counted and skipped. The file is read twice, a piece at a
                time (standard input is kept in a file of the store meanwhile), so its size is not
                what the import costs in memory.
                """
        ) { invocation in
            let commute = try invocation.commute()
            let outcome = try commute.history.importHistory(from: invocation.arguments.positionals[0])
            var parts = ["Imported \(outcome.recorded) \(outcome.recorded == 1 ? "reading" : "readings")"]
            if outcome.repeated > 0 { parts.append("skipped \(outcome.repeated) already recorded") }
            if outcome.expired > 0 {
                parts.append("skipped \(outcome.expired) older than the \(commute.configuration.historyRetentionDays) days kept (history-days)")
            }
            if outcome.futureCount > 0 { parts.append("skipped \(outcome.futureCount) dated ahead of now") }
            if outcome.unknown > 0 {
                let routes = "\(outcome.unknownRoutesCapped ? "at least " : "")\(outcome.unknownRoutes) \(outcome.unknownRoutes == 1 ? "route" : "routes")"
                parts.append("skipped \(outcome.unknown) of \(routes) traveltimes does not know (add the route first)")
            }
            invocation.io.out(parts.joined(separator: "; ") + ".")
            if !outcome.failures.isEmpty {
                for failure in outcome.failures { invocation.io.err("traveltimes: not imported: \(failure)") }
                throw CommandFailed(message: "\(outcome.failures.count) routes' readings were not imported", exitCode: .failure)
            }
        }
    }
}
