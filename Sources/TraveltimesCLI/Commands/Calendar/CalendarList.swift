import CommuteCore
import FoundationEssentials

extension Commands {
    enum CalendarListCommand {
        static let command = Command(
            name: "calendar list",
            summary: "List the calendars read, and what each gives (also: traveltimes calendar)",
            options: [Options.json]
        ) { invocation in
            let commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
            let calendars = try commute.calendars.list()
            if invocation.wantsJSON {
                try invocation.printJSON(calendars.map { item in
                    CalendarJSON(
                        name: item.source.name, location: item.source.shownLocation, kind: item.source.purpose.rawValue, route: item.source.routeID,
                        from: item.source.from, provider: item.source.provider?.rawValue,
                        bufferMinutes: item.source.bufferMinutes, match: item.source.match, horizonDays: item.source.horizonDays,
                        events: item.reading?.events, departures: item.departures, skippedDays: item.skippedDays,
                        fetchedAt: item.reading?.fetchedAt.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                        checkedAt: item.reading?.checkedAt.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                        problem: item.reading?.problem, unreadable: item.reading?.unreadable ?? [])
                })
                return
            }
            guard !calendars.isEmpty else {
                invocation.io.out("No calendars yet: add one with `traveltimes calendar add NAME --ics URL|FILE --route ROUTE` (or --skip).")
                return
            }
            for item in calendars {
                let source = item.source
                let use = source.purpose == .skip
                    ? "skip: \(item.skippedDays) day\(item.skippedDays == 1 ? "" : "s") off"
                    : (source.routeID.map { "route \($0)" } ?? "from \(source.from ?? "?") (\(source.provider?.displayName ?? "?"))")
                        + ", \(source.bufferMinutes) min buffer: \(item.departures) departure\(item.departures == 1 ? "" : "s")"
                let match = source.match.map { ", matching \"\($0)\"" } ?? ""
                invocation.io.out("\(source.name)  \(source.shownLocation)  \(use) in \(source.horizonDays) days\(match)")
                if let problem = item.reading?.problem { invocation.io.out("  last read failed: \(problem) (its last good copy is used)") }
                for line in item.reading?.unreadable ?? [] { invocation.io.out("  skipped, unreadable: \(line)") }
            }
        }
    }
}

/// `calendar list --json`: one calendar, its URL by host only.
struct CalendarJSON: EveryKeyEncodable {
    var name: String
    var location: String
    /// departures or skip.
    var kind: String
    var route: RouteID?
    /// For a route to each event's place: where from, and who times it.
    var from: String?
    var provider: String?
    var bufferMinutes: Int
    var match: String?
    var horizonDays: Int
    var events: Int?
    var departures: Int
    var skippedDays: Int
    var fetchedAt: String?
    var checkedAt: String?
    var problem: String?
    var unreadable: [String]
}
