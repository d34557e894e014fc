import CommuteCore
import FoundationEssentials

extension Commands {
    enum CalendarEventsCommand {
        static let command = Command(
            name: "calendar events",
            summary: "List a calendar's events in the next days: each used, or skipped and why",
            arguments: "NAME",
            positionals: 1...1,
            options: [days, Options.json, Options.now],
            discussion: """
                From today's midnight, every occurrence of the calendar's last good copy: a series'
                instances as its overrides leave them (moved, cancelled), in the zone they were written
                in. Used: a departure (or, for --skip, a day off). Skipped: all-day, cancelled,
                free/transparent, not matched, past. Events that cannot be read are listed after.
                """
        ) { invocation in
            let name = invocation.arguments.positionals[0]
            let commute = try invocation.commute()
            let listing: (uses: [CalendarEventUse], problems: [CalendarProblem], zone: IANAZone)
            do {
                listing = try commute.calendars.events(name, days: try invocation.value(Self.days) ?? 14)
            } catch let failure as CalendarFailure {
                throw invocation.usage("\(failure.message).")
            }
            let calendar = commute.calendar
            func iso(_ seconds: Int) -> String { TimeFormatting.iso8601(Date(timeIntervalSince1970: TimeInterval(seconds)), calendar: calendar) }
            if invocation.wantsJSON {
                try invocation.printJSON(listing.uses.map { use in
                    let occurrence = use.occurrence
                    return CalendarEventJSON(
                        uid: occurrence.uid, recurrenceId: occurrence.recurrenceID.map(iso), summary: occurrence.summary, start: iso(occurrence.start),
                        end: iso(occurrence.end), allDay: occurrence.allDay, location: occurrence.location, status: occurrence.status,
                        used: use.used, skipped: use.skipped)
                })
                for problem in listing.problems {
                    invocation.io.err("traveltimes: warning: calendar \(name): line \(problem.line) skipped: \(DisplayText.line(problem.reason))")
                }
                return
            }
            guard !listing.uses.isEmpty || !listing.problems.isEmpty else {
                invocation.io.out("No events in calendar \(name) in the next \(try invocation.value(Self.days) ?? 14) days.")
                return
            }
            var lastDay: CivilDate?
            for use in listing.uses {
                let occurrence = use.occurrence
                let start = calendar.local(Date(timeIntervalSince1970: TimeInterval(occurrence.start)))
                if start.date != lastDay {
                    invocation.io.out(TimeFormatting.day(start.date, thisYear: calendar.year))
                    lastDay = start.date
                }
                let end = calendar.local(Date(timeIntervalSince1970: TimeInterval(occurrence.end)))
                let when = occurrence.allDay ? "all day" : "\(start.time.label)–\(end.time.label)"
                let place = occurrence.location.map { " (\(DisplayText.line(String($0.prefix(60)))))" } ?? ""
                let summary = DisplayText.line(String(occurrence.summary.prefix(80)))
                invocation.io.out("  \(when.padded(to: 19)) \(summary.isEmpty ? "(no title)" : summary)\(place)" + (use.skipped.map { "  skipped: \($0)" } ?? ""))
            }
            for problem in listing.problems {
                invocation.io.out("Skipped, unreadable: line \(problem.line)" + (problem.uid.map { " (\(DisplayText.line(String($0.prefix(60)))))" } ?? "") + ": \(DisplayText.line(problem.reason))")
            }
        }

        static let days = Option<Int>(
            "--days", value: "N", help: "How many days from today's midnight (default 14, at most 400)",
            read: { Int($0).flatMap { (1...CalendarSource.longestHorizonDays).contains($0) ? $0 : nil } },
            invalid: { text in "Invalid --days '\(DisplayText.line(text))': use a number of days from 1 to \(CalendarSource.longestHorizonDays)." })
    }
}

/// `calendar events --json`: one occurrence.
struct CalendarEventJSON: EveryKeyEncodable {
    var uid: String
    /// The instance's original start, for an instance of a series.
    var recurrenceId: String?
    var summary: String
    var start: String
    var end: String
    var allDay: Bool
    var location: String?
    var status: String?
    var used: Bool
    /// Why not used: all-day, cancelled, free/transparent, not matched, past.
    var skipped: String?
}
