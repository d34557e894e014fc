import CommuteCore
import FoundationEssentials

extension Commands {
    /// An export's failure that is news, as refresh and tick say it: once, as a warning, with
    /// when it is tried again.
    static func reportExportFailures(_ outcomes: [Exports.Outcome], _ io: TerminalIO) {
        for (target, problem) in Exports.newFailures(outcomes) {
            io.warn("export \(target.id) (\(target.shownLocation)) failed: \(problem); tried again at the next run")
        }
    }
}
