import CommuteCore
import FoundationEssentials

extension Commands {
    enum ExportListCommand {
        static let command = Command(
            name: "export list",
            summary: "List the exports and how each last went (also: traveltimes export)",
            options: [Options.json]
        ) { invocation in
            let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
            let exports = try commute.exports.list()
            if invocation.wantsJSON {
                try invocation.printJSON(exports.map { item in
                    ExportJSON(
                        id: item.target.id, kind: item.target.kind.rawValue, location: item.target.shownLocation,
                        lastSuccessAt: item.record?.lastSuccessAt.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                        lastAttemptAt: item.record?.lastAttemptAt.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                        problem: item.record?.problem)
                })
                return
            }
            guard !exports.isEmpty else {
                invocation.io.out("No exports yet: add one with `traveltimes export add homeassistant|mqtt|ics|prometheus …`.")
                return
            }
            for item in exports {
                let last = item.record?.lastSuccessAt.map { "last sent \(TimeFormatting.dayAndTime($0, calendar: commute.calendar))" } ?? "never sent"
                invocation.io.out("\(item.target.id)  \(item.target.kind.rawValue)  \(item.target.shownLocation)  \(last)")
                if let problem = item.record?.problem { invocation.io.out("  last attempt failed: \(problem) (tried again at the next run)") }
            }
        }
    }
}

/// `export list --json`: one export, never its token or password.
struct ExportJSON: EveryKeyEncodable {
    var id: String
    /// homeassistant, mqtt, ics or prometheus.
    var kind: String
    var location: String
    var lastSuccessAt: String?
    var lastAttemptAt: String?
    var problem: String?
}
