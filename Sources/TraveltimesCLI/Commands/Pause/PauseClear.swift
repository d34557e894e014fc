import CommuteCore
import FoundationEssentials

extension Commands {
    enum PauseClearCommand {
        static let command = Command(
            name: "pause clear",
            summary: "Remove every pause",
            options: [Options.yes, Options.now],
            discussion: "Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let commute = try invocation.commute()
            let pauses = try commute.schedules.read().pauses?.count ?? 0
            if pauses > 0 {
                try invocation.confirm("This will end \(pauses == 1 ? "the pause" : "all \(pauses) pauses") now: their alerts are planned again.", question: "Remove \(pauses == 1 ? "it" : "them")?")
            }
            let cleared = try commute.schedules.clearPauses()
            let (count, summary) = (cleared.change, cleared.summary)
            invocation.io.out(count == 0 ? "No pauses to remove." : "Removed \(count) pause\(count == 1 ? "" : "s"); \(summary.scheduled) alert\(summary.scheduled == 1 ? "" : "s") scheduled (cap \(summary.cap)).")
            invocation.report(summary)
        }
    }
}
