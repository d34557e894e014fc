import CommuteCore
import FoundationEssentials

extension Commands {
    enum HistoryExportCommand {
        static let command = Command(
            name: "history export",
            summary: "Write every recorded travel time, as JSON lines or CSV",
            arguments: "[ROUTE...]",
            positionals: 0...1_000,
            argumentValues: [.routeID],
            options: [csv, Options.now],
            discussion: """
                Without ROUTE, every route with a history. One reading a line, oldest first, route by
                route: {"route", "at", "minutes", "source", "suspicious"}; at is ISO 8601 in the
                schedules' zone. The CSV is what history import reads.
                """
        ) { invocation in
            let ids = try invocation.arguments.positionals.map { try ScheduleParsing.routeID($0) }
            let csv = invocation.isSet(Self.csv)
            let commute = try invocation.commute()
            var buffer = csv ? HistoryCSV.header + "\n" : ""
            let io = invocation.io
            let damaged = try commute.history.exportHistory(ids) { id, record in
                if csv {
                    buffer += HistoryCSV.line(id, record, calendar: commute.calendar) + "\n"
                } else {
                    buffer += "{\"route\":\"\(id)\",\"at\":\"\(TimeFormatting.iso8601(record.date, calendar: commute.calendar))\","
                        + "\"minutes\":\(record.minutes),\"source\":\"\(record.source.name)\",\"suspicious\":\(record.suspicious)}\n"
                }
                if buffer.utf8.count >= 1 << 16 {
                    io.writeOut(buffer)
                    buffer = ""
                }
            }
            io.writeOut(buffer)
            if damaged > 0 { io.warn(damaged == 1 ? "1 damaged record was skipped" : "\(damaged) damaged records were skipped") }
        }

        static let csv = Flag("--csv", help: "CSV with a header line: \(HistoryCSV.header)")
    }
}
