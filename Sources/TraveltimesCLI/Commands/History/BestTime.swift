import CommuteCore
import FoundationEssentials

extension Commands {
    enum BestTimeCommand {
        static let command = Command(
            name: "best-time",
            summary: "When to leave to arrive by a time, from each route's history",
            arguments: "ROUTE...",
            positionals: 1...20,
            argumentValues: [.routeID],
            options: [
                arriveBy,
                days,
                window,
                ScheduleOptions.onTime,
                Options.json, Options.now,
            ],
            discussion: """
                For each day, two departures, each with the weeks of history behind it: the one with
                the least typical (median) travel that still arrives by TIME, and the latest that
                arrives by TIME 9 times in 10 (its 90th percentile). Departures are tried every 5
                minutes; a quarter hour with too few readings is never chosen. With several routes,
                each day's choice names the route. --on-time 95% adds a third: the latest departure that
                arrived by TIME on 95% of the recorded days, as `schedule add --on-time` plans it.
                """
        ) { invocation in
            let ids = try invocation.arguments.positionals.map { try ScheduleParsing.routeID($0) }
            guard let text = try invocation.value(Self.arriveBy) else { throw invocation.usage("Missing --arrive-by TIME.") }
            let arriveBy = try ScheduleParsing.time(text)
            let days = try invocation.value(Self.days).map { try ScheduleParsing.days($0) } ?? Weekday.weekdays
            var window: (start: TimeOfDay, end: TimeOfDay)?
            if let text = try invocation.value(Self.window) {
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
            let percent = try invocation.value(ScheduleOptions.onTime) ?? nil
            let best = try commute.history.bestTime(routeIDs: ids, arriveBy: arriveBy, days: days, window: window, onTime: percent)
            if invocation.wantsJSON {
                try invocation.printJSON(BestTimeJSON(best))
                return
            }
            printBestTime(best, several: ids.count > 1, invocation.io)
        }

        private static func printBestTime(_ best: History.BestTime, several: Bool, _ io: TerminalIO) {
            io.out("To arrive by \(best.arriveBy.label), leaving \(best.earliest.label)–\(best.latest.label), from the last \(best.weeks) weeks of history:")
            var table = Table(best.percent == nil ? [.left, .left, .left] : [.left, .left, .left, .left])
            table.add(["", "LEAST TRAFFIC", "ON TIME 9 TIMES IN 10"] + (best.percent.map { ["ON TIME \($0)% OF DAYS"] } ?? []))
            func describe(_ choice: History.BestTime.Choice?, _ what: String) -> String {
                guard let choice else { return "too few readings" }
                let route = several ? " by \(choice.routeName)" : ""
                return "\(choice.leave.label)\(route), \(TypicalTime.text(choice.minutes)) min \(what) (\(choice.weeks) weeks)"
            }
            for day in best.days {
                var row = [day.weekday.name, describe(day.leastTravel, "usually"), describe(day.onTime, "at worst")]
                if best.percent != nil {
                    row.append(day.reliable.map { choice in
                        "\(choice.leave.label)\(several ? " by \(choice.routeName)" : ""), \(TypicalTime.text(choice.minutes)) min (\(choice.weeks) days)"
                    } ?? "too few days (\(DepartureTimes.minimumDays) needed)")
                }
                table.add(row)
            }
            for line in table.render() { io.out(line) }
            if best.days.contains(where: { $0.leastTravel == nil }) {
                io.out("A quarter hour needs \(TypicalTime.minimumReadings) readings from \(TypicalTime.minimumWeeks) weeks; refresh keeps recording.")
            }
        }

        static let arriveBy = Option<String>("--arrive-by", value: "TIME", help: "When you must be there: 9:00, 8:30am", required: true)
        static let days = Option<String>("--days", value: "DAYS", help: "weekdays (default), weekends, daily, or mon,wed,fri", values: .days)
        static let window = Option<String>("--window", value: "START-END", help: "Leave between START and END (default: the 3 hours before TIME)")
    }
}
