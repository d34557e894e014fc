import CommuteCore
import FoundationEssentials

/// `history COMMUTE`: a commute's ways on one chart, today against their usual weekday — each
/// half hour a line per way, on one scale, so that the car and the bus are read side by side —
/// then each way's reliability for the arrive-by schedules on it.
struct WaysChart {
    let name: String
    let views: [History.HistoryView]
    let commute: Commute
    let color: Bool

    func print(to io: TerminalIO) throws {
        let calendar = commute.calendar
        let today = calendar.local(commute.now).date
        let names = views.map { $0.route?.name ?? "Route \($0.routeID)" }
        io.out("\(name): " + zip(views, names).map { "\($1) (route \($0.routeID))" }.joined(separator: " against ")
            + "; usual times from the last \(views.first?.weeks ?? TypicalTime.defaultWeeks) weeks")
        io.out()
        io.out("Today, \(today.weekday.name) \(today.month)/\(today.day), against a usual \(today.weekday.name):  █ usual  ░ up to 9 times in 10  ▲ above that")
        // Each way's latest reading today in each half hour, and its usual time there.
        let readings = views.map { view in
            var byRow: [Int: HistoryRecord] = [:]
            for record in view.readings {
                let local = calendar.local(record.date)
                if local.date == today { byRow[(local.hour * 60 + local.minute) / 30] = record }
            }
            return byRow
        }
        func usual(_ way: Int, _ row: Int) -> TypicalTime? {
            views[way].slots[TimeSlot(weekday: today.weekday, index: row * 2)].flatMap { $0.isEnough ? $0 : nil }
        }
        let rows = (0..<48).filter { row in views.indices.contains { usual($0, row) != nil || readings[$0][row] != nil } }
        guard !rows.isEmpty else {
            io.out("No readings today, and too few on other \(today.weekday.name)s to know the usual.")
            return
        }
        // A reading held back (outside what the route can be) is left out, and sets no scale.
        let largest = rows.flatMap { row in
            views.indices.map { way in max(usual(way, row)?.p90 ?? 0, Double(readings[way][row].flatMap { $0.suspicious ? nil : $0.minutes } ?? 0)) }
        }.max() ?? 1
        let scale = Double(HistoryChart.barWidth) / max(largest, 1)
        let width = names.map(\.count).max() ?? 0
        for row in rows {
            let time = TimeOfDay(hour: row / 2, minute: row % 2 * 30).label
            for way in views.indices {
                var bar = ""
                var note = "too few readings to know the usual"
                if let typical = usual(way, row) {
                    let solid = Int((typical.median * scale).rounded())
                    let light = max(solid, Int((typical.p90 * scale).rounded()))
                    bar = String(repeating: "█", count: solid) + String(repeating: "░", count: light - solid)
                    note = "usually \(TypicalTime.text(typical.median))"
                }
                bar += String(repeating: " ", count: max(0, HistoryChart.barWidth - bar.count))
                var reading = "    "
                var above = false
                if let record = readings[way][row], !record.suspicious {
                    let value = "\(record.minutes)"
                    reading = String(repeating: " ", count: max(0, 4 - value.count)) + value
                    above = usual(way, row).map { Double(record.minutes) > $0.p90 } ?? false
                }
                let label = (way == 0 ? String(repeating: " ", count: max(0, 8 - time.count)) + time : String(repeating: " ", count: 8))
                    + "  " + names[way] + String(repeating: " ", count: width - names[way].count)
                io.writeOut(DisplayText.terminal(label + "  " + bar + " ") + reading + (above ? paint(" ▲", "31") : "  ") + DisplayText.terminal("  " + note) + "\n")
            }
        }
        let lines = try ReliabilityLines.lines(commute, routeIDs: views.map(\.routeID))
        if !lines.isEmpty {
            io.out()
            for line in lines { io.out(line) }
        }
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}

/// The weekly view's reliability lines: for each arrive-by schedule on a route, how often its
/// planned leave time arrived on time over the recorded days, all its weekdays together, and its
/// worst weekday.
enum ReliabilityLines {
    static func lines(_ commute: Commute, routeIDs: [RouteID]) throws -> [String] {
        var lines: [String] = []
        for schedule in try commute.history.reliability(of: nil) {
            for way in schedule.ways where routeIDs.contains(way.routeID) {
                let (onTime, days) = way.recorded
                var line = "On time, schedule \(Commands.shortID(schedule.schedule)) (arrive by \(schedule.arrival.label)) by \(way.name): "
                guard days > 0 else {
                    lines.append(line + "too few trips yet (\(DepartureTimes.minimumDays) recorded days a weekday needed)")
                    continue
                }
                line += "\(onTime) of the last \(days) recorded days"
                if let worst = way.worst, let share = worst.reliability, share.onTime < share.days.count, let leave = worst.planned {
                    line += "; worst \(worst.weekday.name)s leaving \(TimeOfDay(minuteOfDay: leave.leave).label), \(share.onTime) of \(share.days.count)"
                }
                lines.append(line)
            }
        }
        return lines
    }
}
