import CommuteCore
import FoundationEssentials

extension Commands {
    enum PauseClearCommand {
        static let command = Command(
            name: "pause clear",
            summary: "Remove every pause",
            options: [Options.now]
        ) { invocation in
            let commute = try invocation.commute()
            let cleared = try commute.schedules.clearPauses()
            let (count, summary) = (cleared.change, cleared.summary)
            invocation.io.out(count == 0 ? "No pauses to remove." : "Removed \(count) pause\(count == 1 ? "" : "s"); \(summary.scheduled) alert\(summary.scheduled == 1 ? "" : "s") scheduled (cap \(summary.cap)).")
            invocation.report(summary)
        }
    }
}
