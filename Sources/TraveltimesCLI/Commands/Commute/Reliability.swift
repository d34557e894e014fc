import CommuteCore
import FoundationEssentials

extension Commands {
    enum ReliabilityCommand {
        static let command = Command(
            name: "reliability",
            summary: "How often each arrive-by schedule's leave time got you there on time, way by way, from history",
            arguments: "[SCHEDULE]",
            positionals: 0...1,
            argumentValues: [.scheduleID],
            options: [Options.json, Options.now],
            discussion: """
                For each arrive-by schedule (or the one named), each of its ways (its routes and the other
                ways of their commutes) and each of its weekdays: the leave time a plan makes from the
                route's recorded days (the latest whole minute whose median time, or with --on-time P% its
                P-th percentile, arrives by the arrival less the buffer), and how many of those days
                leaving then arrived by the arrival itself. A day's time is its reading nearest the
                departure, within 15 minutes; today is not counted. Under \(DepartureTimes.minimumDays) days it says
                "too few trips".
                """
        ) { invocation in
            // Each way's year is read on every core: the helper threads start while the store opens.
            Helpers.start()
            let commute = try invocation.commute()
            let prefix = invocation.arguments.positionals.first
            let all = try commute.history.reliability(of: prefix)
            if invocation.wantsJSON {
                try invocation.printJSON(all.map(ReliabilityJSON.init))
                return
            }
            let io = invocation.io
            guard !all.isEmpty else {
                io.out("No arrive-by schedules: add one with `traveltimes schedule add --arrive-by 9:00`.")
                return
            }
            // One write for the whole report.
            io.out(all.map { lines($0).joined(separator: "\n") }.joined(separator: "\n\n"))
        }

        /// A schedule's lines: its heading, then each way's weekdays and the worst of them.
        static func lines(_ reliability: History.ScheduleReliability) -> [String] {
            let plan = reliability.percent.map { "to be on time \($0)% of the recorded days" } ?? "on the median of the recorded days"
            var lines = [
                "Schedule \(shortID(reliability.schedule)): arrive by \(reliability.arrival.label) on \(reliability.schedule.daysLabel), "
                    + "\(reliability.buffer) min to spare; leave times planned \(plan)"
            ]
            for way in reliability.ways {
                lines.append("  \(way.name) (route \(way.routeID)):")
                for outcome in way.outcomes {
                    lines.append("    " + line(outcome))
                }
                if let worst = way.worst, let worstLeave = worst.planned, let figures = worst.reliability, way.outcomes.count > 1 {
                    lines.append(figures.onTime == figures.days.count
                        ? "    On time every recorded day."
                        : "    Worst: \(worst.weekday.name)s leaving \(TimeOfDay(minuteOfDay: worstLeave.leave).label), on time \(figures.onTime) of \(figures.days.count).")
                }
            }
            return lines
        }

        /// `Tuesday  leave 8:09 AM: on time 17 of the last 20 Tuesdays (median 4 min to spare; latest 6 min late)`.
        static func line(_ outcome: History.ScheduleReliability.Outcome) -> String {
            let day = outcome.weekday.name + String(repeating: " ", count: max(0, 10 - outcome.weekday.name.count))
            guard let planned = outcome.planned, let figures = outcome.reliability else {
                return "\(day) too few trips: \(outcome.recordedDays) recorded \(outcome.weekday.name)\(outcome.recordedDays == 1 ? "" : "s"), "
                    + "\(DepartureTimes.minimumDays) needed"
            }
            var text = "\(day) leave \(TimeOfDay(minuteOfDay: planned.leave).label): on time \(figures.onTime) of the last \(figures.days.count) \(outcome.weekday.name)s"
            var notes: [String] = []
            if let spare = figures.medianSpare {
                notes.append(spare >= 0 ? "median \(TypicalTime.text(spare)) min to spare" : "median \(TypicalTime.text(-spare)) min late")
            }
            notes.append(figures.latestLate.map { "latest \($0) min late" } ?? "never late")
            text += " (" + notes.joined(separator: "; ") + ")"
            return text
        }
    }
}

/// `reliability --json`: one object per schedule.
struct ReliabilityJSON: Encodable {
    struct Day: EveryKeyEncodable {
        var weekday: Int
        var leave: String?
        var estimateMinutes: Double?
        var days: Int
        var onTime: Int?
        var medianSpare: Double?
        var latestLate: Int?
        var recordedDays: Int
    }

    struct Way: EveryKeyEncodable {
        var route: RouteID
        var name: String
        var days: [Day]
        var worstWeekday: Int?
    }

    var schedule: String
    var arriveBy: String
    var bufferMinutes: Int
    var onTimePercent: Int?
    var ways: [Way]

    init(_ reliability: History.ScheduleReliability) {
        schedule = reliability.schedule.id.lowercasedString
        arriveBy = TimeSlot.clock(reliability.arrival)
        bufferMinutes = reliability.buffer
        onTimePercent = reliability.percent
        ways = reliability.ways.map { way in
            Way(
                route: way.routeID, name: way.name,
                days: way.outcomes.map { outcome in
                    Day(
                        weekday: outcome.weekday.rawValue, leave: outcome.planned.map { TimeSlot.clock(TimeOfDay(minuteOfDay: $0.leave)) },
                        estimateMinutes: outcome.planned?.minutes, days: outcome.reliability?.days.count ?? 0, onTime: outcome.reliability?.onTime,
                        medianSpare: outcome.reliability?.medianSpare, latestLate: outcome.reliability?.latestLate, recordedDays: outcome.recordedDays)
                },
                worstWeekday: way.worst?.weekday.rawValue)
        }
    }
}
