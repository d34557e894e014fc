import CommuteCore
import FoundationEssentials

/// `history ROUTE` as a terminal picture: each day asked for against its usual weekday (the
/// median as a solid bar, on to the 90th percentile as a light one, the day's reading beside it),
/// then the typical delay by weekday and hour as shaded cells. Colour only when asked (a terminal
/// without NO_COLOR); the same characters without it.
struct HistoryChart {
    let view: History.HistoryView
    let commute: Commute
    let days: Int
    let color: Bool

    /// The bars' full width, in characters.
    static let barWidth = 36

    func print(to io: TerminalIO) {
        let name = view.route?.name ?? "Route \(view.routeID)"
        io.out("\(name) (route \(view.routeID)): \(view.total) \(view.total == 1 ? "reading" : "readings") recorded; "
            + "usual times from the last \(view.weeks) weeks, \(view.zone)")
        if !view.isRecorded {
            io.out("Not being recorded: only routes in use are (favorites, schedules, watches, commutes, custom and transit routes).")
        }
        if view.damaged > 0 { io.out(view.damaged == 1 ? "1 damaged record was skipped." : "\(view.damaged) damaged records were skipped.") }
        guard view.total > 0 else {
            // A transit trip's times are read only from its feed's realtime data.
            io.out(view.route?.isPublicTransport == true
                ? "No readings yet: each refresh that reads the feed's realtime data records one."
                : "No readings yet: each refresh records one while the route is in use.")
            return
        }
        let today = commute.calendar.local(commute.now).date.dayNumber
        for day in (today - days + 1)...today {
            io.out()
            printDay(CivilDate(dayNumber: day), isToday: day == today, io)
        }
        io.out()
        printGrid(io)
        // Reliability is a summary of the week: an alert's figures never stop the chart.
        let reliability = (try? ReliabilityLines.lines(commute, routeIDs: [view.routeID])) ?? []
        if !reliability.isEmpty {
            io.out()
            for line in reliability { io.out(line) }
        }
    }

    // MARK: A day against its usual

    private func printDay(_ date: CivilDate, isToday: Bool, _ io: TerminalIO) {
        let calendar = commute.calendar
        let weekday = date.weekday
        // The day's latest reading in each half hour.
        var readings: [Int: HistoryRecord] = [:]
        for record in view.readings {
            let local = calendar.local(record.date)
            guard local.date == date else { continue }
            readings[(local.hour * 60 + local.minute) / 30] = record
        }
        func usual(_ row: Int) -> TypicalTime? {
            view.slots[TimeSlot(weekday: weekday, index: row * 2)].flatMap { $0.isEnough ? $0 : nil }
        }
        let rows = (0..<48).filter { usual($0) != nil || readings[$0] != nil }
        let label = isToday ? "Today, \(weekday.name) \(date.month)/\(date.day)" : "\(weekday.name) \(date.month)/\(date.day)"
        guard !rows.isEmpty else {
            io.out("\(label): no readings, and too few on other \(weekday.name)s to know the usual.")
            return
        }
        io.out("\(label), against a usual \(weekday.name):  █ usual  ░ up to 9 times in 10  ▲ above that")
        let largest = rows.map { row in
            max(usual(row)?.p90 ?? 0, Double(readings[row]?.minutes ?? 0))
        }.max() ?? 1
        let scale = Double(Self.barWidth) / max(largest, 1)
        var previous: Int?
        for row in rows {
            // A stretch of the day with neither a reading nor a usual time is left out, and marked.
            if let previous, row > previous + 1 { io.out("       ⋮") }
            previous = row
            let time = TimeOfDay(hour: row / 2, minute: row % 2 * 30).label
            var bar = ""
            var note = ""
            if let typical = usual(row) {
                let solid = Int((typical.median * scale).rounded())
                let light = max(solid, Int((typical.p90 * scale).rounded()))
                bar = String(repeating: "█", count: solid) + String(repeating: "░", count: light - solid)
                note = "usually \(TypicalTime.text(typical.median)), \(TypicalTime.text(typical.p90)) at worst"
            } else {
                note = "too few readings to know the usual"
            }
            bar += String(repeating: " ", count: max(0, Self.barWidth - bar.count))
            var reading = "    "
            if let record = readings[row] {
                let value = "\(record.minutes)\(record.suspicious ? "?" : "")"
                reading = String(repeating: " ", count: max(0, 4 - value.count)) + value
                if record.suspicious {
                    note = "held back: outside what the route can be; " + note
                } else if let typical = usual(row), Double(record.minutes) > typical.p90 {
                    reading += paint(" ▲", "31")
                    io.writeOut(DisplayText.terminal(padded(time) + "  " + bar + " ") + reading + DisplayText.terminal("  " + note) + "\n")
                    continue
                }
            }
            io.out(padded(time) + "  " + bar + " " + reading + "    " + note)
        }
    }

    private func padded(_ time: String) -> String { String(repeating: " ", count: max(0, 8 - time.count)) + time }

    // MARK: The week

    private func printGrid(_ io: TerminalIO) {
        let enough = view.slots.filter { $0.value.isEnough }
        guard let quietest = enough.values.map(\.median).min() else {
            io.out("Typical delay: too few readings yet (\(TypicalTime.minimumReadings) from \(TypicalTime.minimumWeeks) weeks in a quarter hour).")
            return
        }
        io.out("Typical delay by hour, over the quietest usual time (\(TypicalTime.text(quietest)) min):")
        io.out("        " + stride(from: 0, to: 24, by: 3).map { hour in
            let text = "\(hour)"
            return text + String(repeating: " ", count: 6 - text.count)
        }.joined())
        for weekday in Weekday.mondayFirst {
            var line = "  " + weekday.shortName + String(repeating: " ", count: max(0, 6 - weekday.shortName.count))
            for hour in 0..<24 {
                let delays = (0..<4).compactMap { enough[TimeSlot(weekday: weekday, index: hour * 4 + $0)]?.median }.map { $0 - quietest }
                line += cell(delays.max())
            }
            io.writeOut(line + "\n")
        }
        io.out("  ░ under 5 min  ▒ 5–14  ▓ 15–29  █ 30 or more  · too few readings")
    }

    /// Two characters for an hour's worst usual delay.
    private func cell(_ delay: Double?) -> String {
        guard let delay else { return "··" }
        switch delay {
        case ..<5: return paint("░░", "32")
        case ..<15: return paint("▒▒", "33")
        case ..<30: return paint("▓▓", "31")
        default: return paint("██", "1;31")
        }
    }

    /// `text` in an SGR colour when colour is on; as it is otherwise.
    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
