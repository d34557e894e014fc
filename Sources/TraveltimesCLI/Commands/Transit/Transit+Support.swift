import CommuteCore
import FoundationEssentials

extension Commands {

    /// `route add ID --transit NAME --from-stop STOP --to-stop STOP [--line L] [--walk 6m]`.
    static func addTransitRoute(_ id: String, name: String?, invocation: Invocation) throws {
        guard let feed = invocation.arguments.value("--transit"), let from = invocation.arguments.value("--from-stop"),
            let to = invocation.arguments.value("--to-stop")
        else { throw invocation.usage("A transit route needs --transit NAME, --from-stop STOP and --to-stop STOP (find them with `traveltimes transit stops`).") }
        for option in ["--from", "--to", "--provider"] where invocation.arguments.value(option) != nil {
            throw invocation.usage("\(option) is for a driving route; a transit route takes --from-stop and --to-stop.")
        }
        for (option, stop) in [("--from-stop", from), ("--to-stop", to)] where stop.isEmpty || stop.utf8.count > 255 || DisplayText.line(stop) != stop {
            throw invocation.usage("Invalid \(option): a stop ID as `transit stops` lists it.")
        }
        let line = invocation.arguments.value("--line")
        if let line, line.isEmpty || line.utf8.count > 64 || DisplayText.line(line) != line {
            throw invocation.usage("Invalid --line: a route's short name or ID, such as 545.")
        }
        let walk = try walkMinutes(invocation)
        let commute = try invocation.commute()
        let route: Route
        do {
            route = try commute.transit.addTransitRoute(Transit.TransitRequest(
                id: id, name: name, feed: feed, fromStop: from, toStop: to, line: line, walkMinutes: walk))
        } catch let problem as TransitProblem {
            throw TransitFailed(problem: problem, context: "route \(id) was not added", secrets: [])
        }
        guard let transit = route.transit else { return }
        invocation.io.out("Added route \(id): \(route.name).")
        invocation.io.out("Next: \(TransitText.departures(of: transit, at: commute.now, calendar: commute.calendar))")
    }

    /// `--walk 6m` (or `6`, `6min`): 0 to 180 minutes; 0 when not given.
    static func walkMinutes(_ invocation: Invocation) throws -> Int {
        guard var text = invocation.arguments.value("--walk")?.lowercased() else { return 0 }
        for suffix in ["min", "m"] where text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
            break
        }
        guard text.count <= 3, text.allSatisfy(\.isASCIIDigit), let minutes = Int(text), (0...Route.Transit.longestWalk).contains(minutes) else {
            throw invocation.usage("Invalid --walk: minutes from 0 to \(Route.Transit.longestWalk), such as 6m.")
        }
        return minutes
    }
}

/// A transit feed or route that could not be used: the reason, and what was left as it was.
struct TransitFailed: ProcessError, CustomStringConvertible {
    var problem: TransitProblem
    var context: String
    var secrets: [String]

    /// The outside's fault (a server, a file): 69; a bad timetable or request: 65 or 1.
    var exitCode: ExitCode { problem.isTemporary ? .unavailable : .failure }
    var description: String { FeedSource.redact("\(problem.message); \(context)", secrets: secrets) }
}

/// `transit list --json`: a feed, its URLs shown without their keys, and its state.
struct TransitFeedJSON: EveryKeyEncodable {
    var name: String
    var staticURL: String
    var realtimeURL: String?
    var alertsURL: String?
    /// Header names only: their values are secrets.
    var headers: [String]
    var timeZone: String?
    var fetchedAt: String?
    var checkedAt: String?
    var realtimeFetchedAt: String?
    var alertsFetchedAt: String?
    var routes: [String]
    var problems: [String]

    init(_ feed: TransitFeed, state: TransitState.FeedState?, routes: [String], calendar: ZonedCalendar) {
        let iso = { (date: Date?) in date.map { TimeFormatting.iso8601($0, calendar: calendar) } }
        name = feed.name
        staticURL = TransitFeed.shown(feed.staticURL)
        realtimeURL = feed.realtimeURL.map(TransitFeed.shown)
        alertsURL = feed.alertsURL.map(TransitFeed.shown)
        headers = (feed.headers ?? []).map(\.name)
        timeZone = state?.timeZone
        fetchedAt = iso(state?.fetchedAt)
        checkedAt = iso(state?.checkedAt)
        realtimeFetchedAt = iso(state?.realtimeFetchedAt)
        alertsFetchedAt = iso(state?.alertsFetchedAt)
        self.routes = routes
        problems = state?.problemList ?? []
    }
}

/// `transit stops --json`: one stop.
struct TransitStopJSON: EveryKeyEncodable {
    var id: String
    var name: String
    var parent: String?
    var station: Bool
    var latitude: Double?
    var longitude: Double?
    var metres: Int?

    init(_ stop: Transit.TransitStop) {
        id = stop.id
        name = stop.name
        parent = stop.parent
        station = stop.isStation
        latitude = stop.point?.latitude
        longitude = stop.point?.longitude
        metres = stop.metres.map { Int($0.rounded()) }
    }
}
