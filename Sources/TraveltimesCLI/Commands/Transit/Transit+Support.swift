import CommuteCore
import FoundationEssentials

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
    var routes: [RouteID]
    var problems: [String]

    init(_ feed: TransitFeed, state: TransitState.FeedState?, routes: [RouteID], calendar: ZonedCalendar) {
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
