import CommuteCore
import FoundationEssentials

extension Commands {
    enum HistoryCommand {
        static let command = Command(
            name: "history",
            summary: "Show a route's travel times today against its usual ones, and its typical delay by weekday and hour",
            arguments: "ROUTE|COMMUTE",
            positionals: 1...1,
            argumentValues: [.routeID],
            options: [
                days,
                Options.json, Options.now,
            ],
            discussion: """
                Every refresh records the travel times of the routes in use — favorites, the routes of
                schedules, watches and commutes, and custom routes — once per reading. Typical times are the
                median and the 90th percentile of each weekday's quarter hour over the last 8 weeks
                (config set typical-weeks), in the schedules' zone; a quarter hour with fewer than 5
                readings from 3 weeks says so rather than guess. A commute's name (commute add) shows
                its ways together on one scale, today. Under the week, each arrive-by schedule on the
                route says how often its leave time arrived on time (see reliability). Colour only on a
                terminal, never with NO_COLOR.
                """
        ) { invocation in
            let word = invocation.arguments.positionals[0]
            var days = 1
            if let text = try invocation.value(Self.days) {
                let longest = Configuration.longestHistoryDays
                guard text.count <= 4, text.allSatisfy(\.isASCIIDigit), let value = Int(text), (1...longest).contains(value) else {
                    throw invocation.usage("Invalid --days '\(DisplayText.line(String(text.prefix(20))))': use a whole number from 1 to \(longest).")
                }
                days = value
            }
            let commute = try invocation.commute()
            // A commute's name shows its ways together.
            if !invocation.wantsJSON, let ways = try commute.ways.list().first(where: { $0.name.lowercased() == word.lowercased() }) {
                try WaysChart(name: ways.name, views: try ways.routeIDs.map { try commute.history.view(of: $0, days: 1) }, commute: commute, color: invocation.usesColor)
                    .print(to: invocation.io)
                return
            }
            let id = try ScheduleParsing.routeID(word)
            let view = try commute.history.view(of: id, days: days)
            if invocation.wantsJSON {
                try invocation.printJSON(HistoryJSON(view, calendar: commute.calendar))
                return
            }
            HistoryChart(view: view, commute: commute, days: days, color: invocation.usesColor).print(to: invocation.io)
        }

        static let days = Option<String>("--days", value: "N", help: "Show the last N days, today included (default 1; as far back as history-days keeps)")
    }
}
