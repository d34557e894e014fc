import CommuteCore
import FoundationEssentials

extension Commands {
    static let historySubcommands = ["export", "import"]

    static let history = Command(
        name: "history",
        summary: "Show a route's travel times today against its usual ones, and its typical delay by weekday and hour",
        arguments: "ROUTE",
        positionals: 1...1,
        argumentValues: [.routeID],
        options: [
            OptionSpec(name: "--days", value: "N", help: "Show the last N days, today included (default 1; as far back as history-days keeps)"),
            Options.json, Options.now,
        ],
        discussion: """
            Every refresh records the travel times of the routes in use — favorites, the routes of
            schedules and watches, and custom routes — once per reading. Typical times are the
            median and the 90th percentile of each weekday's quarter hour over the last 8 weeks
            (config set typical-weeks), in the schedules' zone; a quarter hour with fewer than 5
            readings from 3 weeks says so rather than guess. Colour only on a terminal, never with
            NO_COLOR.
            """
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        var days = 1
        if let text = invocation.arguments.value("--days") {
            let longest = Configuration.longestHistoryDays
            guard text.count <= 4, text.allSatisfy(\.isASCIIDigit), let value = Int(text), (1...longest).contains(value) else {
                throw invocation.usage("Invalid --days '\(DisplayText.line(String(text.prefix(20))))': use a whole number from 1 to \(longest).")
            }
            days = value
        }
        let commute = try invocation.commute()
        let view = try commute.history.view(of: id, days: days)
        if invocation.wantsJSON {
            try invocation.printJSON(HistoryJSON(view, calendar: commute.calendar))
            return
        }
        HistoryChart(view: view, commute: commute, days: days, color: invocation.usesColor).print(to: invocation.io)
    }

    static let historyExport = Command(
        name: "history export",
        summary: "Write every recorded travel time, as JSON lines or CSV",
        arguments: "[ROUTE...]",
        positionals: 0...1_000,
        argumentValues: [.routeID],
        options: [OptionSpec(name: "--csv", help: "CSV with a header line: \(HistoryCSV.header)"), Options.now],
        discussion: """
            Without ROUTE, every route with a history. One reading a line, oldest first, route by
            route: {"route", "at", "minutes", "source", "suspicious"}; at is ISO 8601 in the
            schedules' zone. The CSV is what history import reads.
            """
    ) { invocation in
        let ids = try invocation.arguments.positionals.map { try ScheduleParsing.routeID($0) }
        let csv = invocation.arguments.has("--csv")
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

    static let historyImport = Command(
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

    static let bestTime = Command(
        name: "best-time",
        summary: "When to leave to arrive by a time, from each route's history",
        arguments: "ROUTE...",
        positionals: 1...20,
        argumentValues: [.routeID],
        options: [
            OptionSpec(name: "--arrive-by", value: "TIME", help: "When you must be there: 9:00, 8:30am", required: true),
            OptionSpec(name: "--days", value: "DAYS", help: "weekdays (default), weekends, daily, or mon,wed,fri", values: .days),
            OptionSpec(name: "--window", value: "START-END", help: "Leave between START and END (default: the 3 hours before TIME)"),
            Options.json, Options.now,
        ],
        discussion: """
            For each day, two departures, each with the weeks of history behind it: the one with
            the least typical (median) travel that still arrives by TIME, and the latest that
            arrives by TIME 9 times in 10 (its 90th percentile). Departures are tried every 5
            minutes; a quarter hour with too few readings is never chosen. With several routes,
            each day's choice names the route.
            """
    ) { invocation in
        let ids = try invocation.arguments.positionals.map { try ScheduleParsing.routeID($0) }
        guard let text = invocation.arguments.value("--arrive-by") else { throw invocation.usage("Missing --arrive-by TIME.") }
        let arriveBy = try ScheduleParsing.time(text)
        let days = try invocation.arguments.value("--days").map { try ScheduleParsing.days($0) } ?? Weekday.weekdays
        var window: (start: TimeOfDay, end: TimeOfDay)?
        if let text = invocation.arguments.value("--window") {
            guard let hours = try? QuietHours(text), hours.start < hours.end, hours.start < arriveBy else {
                throw invocation.usage(
                    "Invalid --window '\(DisplayText.line(String(text.prefix(40))))': use START-END within one day, "
                        + "starting before --arrive-by, such as 7:00-9:00.")
            }
            window = (hours.start, hours.end)
        }
        guard arriveBy.hour * 60 + arriveBy.minute >= History.bestTimeStep else {
            throw invocation.usage("--arrive-by \(arriveBy.label) leaves no time to travel that day: use a later time.")
        }
        let commute = try invocation.commute()
        let best = try commute.history.bestTime(routeIDs: ids, arriveBy: arriveBy, days: days, window: window)
        if invocation.wantsJSON {
            try invocation.printJSON(BestTimeJSON(best))
            return
        }
        printBestTime(best, several: ids.count > 1, invocation.io)
    }

    private static func printBestTime(_ best: History.BestTime, several: Bool, _ io: TerminalIO) {
        io.out("To arrive by \(best.arriveBy.label), leaving \(best.earliest.label)–\(best.latest.label), from the last \(best.weeks) weeks of history:")
        var table = Table([.left, .left, .left])
        table.add(["", "LEAST TRAFFIC", "ON TIME 9 TIMES IN 10"])
        func describe(_ choice: History.BestTime.Choice?, _ what: String) -> String {
            guard let choice else { return "too few readings" }
            let route = several ? " by \(choice.routeName)" : ""
            return "\(choice.leave.label)\(route), \(TypicalTime.text(choice.minutes)) min \(what) (\(choice.weeks) weeks)"
        }
        for day in best.days {
            table.add([day.weekday.name, describe(day.leastTravel, "usually"), describe(day.onTime, "at worst")])
        }
        for line in table.render() { io.out(line) }
        if best.days.contains(where: { $0.leastTravel == nil }) {
            io.out("A quarter hour needs \(TypicalTime.minimumReadings) readings from \(TypicalTime.minimumWeeks) weeks; refresh keeps recording.")
        }
    }
}

/// A command that ran and failed in part, with its own exit status.
struct CommandFailed: ProcessError, CustomStringConvertible {
    var message: String
    var exitCode: ExitCode
    var description: String { message }
}

extension HistoryImportError: ProcessError {
    var exitCode: ExitCode { .dataError }
}

/// `history --json`.
struct HistoryJSON: Encodable {
    struct Slot: Encodable {
        var weekday: Int
        var start: String
        var median: Double
        var p90: Double
        var readings: Int
        var weeks: Int
        var enough: Bool
    }

    struct Reading: Encodable {
        var at: String
        var minutes: Int
        var source: String
        var suspicious: Bool
    }

    var route: String
    var name: String?
    var zone: String
    var weeks: Int
    var since: String
    var recorded: Bool
    var total: Int
    var damaged: Int
    var slots: [Slot]
    var readings: [Reading]

    init(_ view: History.HistoryView, calendar: ZonedCalendar) {
        route = view.routeID
        name = view.route?.name
        zone = view.zone
        weeks = view.weeks
        since = TimeFormatting.iso8601(view.since, calendar: calendar)
        recorded = view.isRecorded
        total = view.total
        damaged = view.damaged
        slots = view.slots.sorted { $0.key < $1.key }.map { slot, typical in
            Slot(
                weekday: slot.weekday.rawValue, start: slot.startText, median: typical.median, p90: typical.p90,
                readings: typical.readings, weeks: typical.weeks, enough: typical.isEnough)
        }
        readings = view.readings.map {
            Reading(at: TimeFormatting.iso8601($0.date, calendar: calendar), minutes: $0.minutes, source: $0.source.name, suspicious: $0.suspicious)
        }
    }
}

/// `best-time --json`.
struct BestTimeJSON: Encodable {
    struct Choice: Encodable {
        var route: String
        var leave: String
        var minutes: Double
        var arrival: String
        var weeks: Int
        var readings: Int
    }

    struct Day: EveryKeyEncodable {
        var weekday: Int
        var leastTravel: Choice?
        var onTime: Choice?
    }

    var arriveBy: String
    var earliest: String
    var latest: String
    var weeks: Int
    var days: [Day]

    init(_ best: History.BestTime) {
        func text(_ time: TimeOfDay) -> String { TimeSlot.clock(time) }
        func choice(_ choice: History.BestTime.Choice?) -> Choice? {
            choice.map {
                Choice(route: $0.routeID, leave: text($0.leave), minutes: $0.minutes, arrival: text($0.arrival), weeks: $0.weeks, readings: $0.readings)
            }
        }
        arriveBy = text(best.arriveBy)
        earliest = text(best.earliest)
        latest = text(best.latest)
        weeks = best.weeks
        days = best.days.map { Day(weekday: $0.weekday.rawValue, leastTravel: choice($0.leastTravel), onTime: choice($0.onTime)) }
    }
}
