import CommuteCore
import FoundationEssentials

extension Commands {
    enum CompareCommand {
        static let command = Command(
            name: "compare",
            summary: "Set a commute's ways side by side now (car against bus) and say which is best",
            arguments: "COMMUTE|ROUTE",
            positionals: 1...1,
            argumentValues: [.commuteName],
            options: [Options.json, Options.now],
            discussion: """
                COMMUTE is a name from `commute add`; a ROUTE ID compares it with every route between the
                same places and the other ways of its commutes. Each way competes with its live time
                (read within stale-after), else its usual time (the median of its history for this weekday
                and quarter hour, with the days behind it); a free-flow estimate is shown as one and never
                wins alone. The best is the fewest minutes; the margin is over the next way.
                """
        ) { invocation in
            let commute = try invocation.commute()
            let comparison = try commute.ways.compare(invocation.arguments.positionals[0])
            if invocation.wantsJSON {
                try invocation.printJSON(ComparisonJSON(comparison, at: commute.now, calendar: commute.calendar))
                return
            }
            let io = invocation.io
            io.out("\(comparison.name), \(TimeFormatting.dayAndTime(commute.now, calendar: commute.calendar)): \(comparison.sentence)")
            let slot = TimeSlot(commute.calendar.local(commute.now))
            for way in comparison.ways {
                var line = "  \(way.name) (route \(way.routeID)): "
                switch way.basis {
                case .live:
                    line += "\(way.minutes ?? 0) min now"
                    if let read = way.readAt { line += " (read \(TimeFormatting.moment(read, relativeTo: commute.now, calendar: commute.calendar)))" }
                case .usual: line += "no live time"
                case .none: line += way.estimate.map { "~\($0) min free-flow estimate (no traffic)" } ?? "no live time"
                }
                if let usual = way.usual {
                    line += "; usually \(TypicalTime.text(usual.median)) min at \(slot.start.label) on \(slot.weekday.name)s "
                        + "(\(usual.readings) readings on \(usual.weeks) days)"
                } else {
                    line += "; no usual time yet (\(TypicalTime.minimumReadings) readings from \(TypicalTime.minimumWeeks) weeks needed)"
                }
                io.out(line)
            }
        }
    }
}

/// `compare --json`.
struct ComparisonJSON: Encodable {
    struct Way: EveryKeyEncodable {
        var route: RouteID
        var name: String
        var basis: String
        var minutes: Int?
        var estimate: Int?
        var usual: Double?
        var usualP90: Double?
        var usualReadings: Int?
        var usualDays: Int?
        var versusUsual: Int?
        var readAt: String?
    }

    struct Best: Encodable {
        var route: RouteID
        var name: String
        var marginMinutes: Int?
    }

    var commute: String
    var at: String
    var ways: [Way]
    var best: Best?
    var summary: String

    init(_ comparison: WayComparison, at now: Date, calendar: ZonedCalendar) {
        commute = comparison.name
        at = TimeFormatting.iso8601(now, calendar: calendar)
        ways = comparison.ways.map { way in
            Way(
                route: way.routeID, name: way.name, basis: way.basis.rawValue, minutes: way.minutes, estimate: way.estimate, usual: way.usual?.median,
                usualP90: way.usual?.p90, usualReadings: way.usual?.readings, usualDays: way.usual?.weeks, versusUsual: way.versusUsual,
                readAt: way.readAt.map { TimeFormatting.iso8601($0, calendar: calendar) })
        }
        best = comparison.best.map { Best(route: $0.routeID, name: $0.name, marginMinutes: comparison.margin) }
        summary = comparison.sentence
    }
}
