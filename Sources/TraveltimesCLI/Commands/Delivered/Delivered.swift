import CommuteCore
import FoundationEssentials

extension Commands {
    enum DeliveredCommand {
        static let command = Command(
            name: "delivered",
            summary: "What tick delivered, missed or failed, newest first",
            options: [
                schedule,
                since,
                all,
                Options.json, Options.now,
            ],
            discussion: """
                Today's and yesterday's decisions, unless --since or --all says otherwise, in text and
                --json alike; the text says how many older ones it left out.
                """
        ) { invocation in
            let since = try deliveredSince(invocation)
            let commute = try invocation.commute()
            let report = try commute.alerts.delivered(since: since, schedules: try invocation.value(Self.schedule))
            let calendar = commute.calendar
            if invocation.wantsJSON {
                try invocation.printJSON(report.entries.map { entry in
                    LedgerJSON(
                        requestID: entry.alert.description, occurrence: TimeFormatting.iso8601(entry.occurrence, calendar: calendar),
                        notifier: entry.notifier, outcome: entry.outcome.rawValue,
                        at: TimeFormatting.iso8601(entry.at, calendar: calendar), attempts: entry.attempts, reason: entry.reason,
                        key: entry.key?.description, handle: entry.handle, action: entry.lastAction,
                        leave: entry.leave.map { TimeFormatting.iso8601($0, calendar: calendar) })
                })
                return
            }
            // Older decisions are counted, not read: with --schedule, the count would be everyone's.
            let olderNote = !invocation.isGiven(Self.schedule)
                ? "\(report.older) older \(report.older == 1 ? "decision" : "decisions") not shown: `traveltimes delivered --all` lists every one kept."
                : "Older decisions not shown: `--all` lists every one kept."
            guard !report.entries.isEmpty else {
                invocation.io.out(report.older > 0 ? "Nothing delivered since \(TimeFormatting.dayAndTime(report.since, calendar: calendar)); \(olderNote)" : "Nothing delivered yet.")
                return
            }
            var text = ledgerTable(report.entries, calendar: calendar)
            if report.older > 0 { text += "\n" + olderNote }
            invocation.io.out(text)
        }

        /// The ledger's entries as a table, a line each.
        private static func ledgerTable(_ entries: [DeliveryLedger.Entry], calendar: ZonedCalendar) -> String {
            var table = Table([.left, .left, .left, .left, .left])
            table.add(["DUE", "OUTCOME", "ALERT", "NOTIFIER", "NOTE"])
            // A week holds a few dozen alerts, each decided once per notifier: each time and name is
            // written once.
            var times: [Date: String] = [:]
            var names: [AlertID: String] = [:]
            for entry in entries {
                let time = times[entry.occurrence] ?? TimeFormatting.dayAndTime(entry.occurrence, calendar: calendar)
                times[entry.occurrence] = time
                let name = names[entry.alert] ?? entry.alert.shortDescription
                names[entry.alert] = name
                // A change to a notification already out there says what it was: updated, cleared.
                let outcome = entry.action.map { entry.outcome == .failed ? "\($0.rawValue) failed" : $0.rawValue } ?? entry.outcome.rawValue
                table.add([time, outcome, name, entry.notifier.map(String.init) ?? "-", entry.reason ?? ""])
            }
            return table.render().joined(separator: "\n")
        }

        /// `--since TIME`, `--all` (the distant past), or neither (nil: the command's default).
        private static func deliveredSince(_ invocation: Invocation) throws -> Date? {
            switch (try invocation.value(Self.since), invocation.isSet(Self.all)) {
            case (let text?, false):
                guard let instant = ISO8601.parse(text)?.instant else {
                    throw invocation.usage("Invalid --since '\(text)': use ISO 8601 with an offset, such as 2025-11-04T07:00:00-08:00.")
                }
                return instant
            case (nil, true): return .distantPast
            case (nil, false): return nil
            case (_?, true): throw invocation.usage("Give --since TIME or --all, not both.")
            }
        }

        static let schedule = scheduleIDPrefixOption(help: "Only this schedule's alerts (an ID prefix)")
        static let since = Option<String>("--since", value: "TIME", help: "Decisions at or after this ISO 8601 time (default: since yesterday began)")
        static let all = Flag("--all", help: "Every decision the ledger keeps (\(Int(DeliveryLedger.retention / 86_400)) days)")
    }
}
