import Basics
import CommuteModel
import CommuteStore
import FoundationEssentials

/// A calendar traveltimes reads (`calendar add`): where it is, and what its events mean — a
/// departure for each meeting, or (`--skip`) days on which every schedule rests. Kept in the
/// configuration: a calendar's URL is often its secret (Google's private address).
public struct CalendarSource: Codable, Sendable, Equatable {
    public enum Purpose: String, Codable, Sendable {
        /// Each matched, timed event is an arrive-by departure.
        case departures
        /// Any day with an event in it pauses every schedule.
        case skip
    }

    public var name: String
    /// An http(s) URL, a `file://` URL or a path.
    public var location: String
    public var purpose: Purpose
    /// The route every matched event uses.
    public var routeID: RouteID?
    /// Or: from this place (a saved place's name, or LAT,LON) to each event's place, timed by
    /// `provider`.
    public var from: String?
    public var provider: RouteProvider?
    public var bufferMinutes: Int
    /// Kept events' SUMMARY or LOCATION contains it (any case).
    public var match: String?
    public var horizonDays: Int
    public var createdAt: Date

    public static let largestCount = 20
    public static let defaultHorizonDays = 14
    public static let longestHorizonDays = 400
    public static let defaultBufferMinutes = 10
    public static let largestMatchLength = 200
    /// The most places a reading asks the geocoder for (one a second): the rest wait for the next.
    public static let lookupsPerReading = 10

    /// The prefix of the routes made for its events' places: `cal-work-`.
    public var routePrefix: String { "\(Route.calendarIDPrefix)\(name)-" }

    public init(
        name: String, location: String, purpose: Purpose, routeID: RouteID?, from: String? = nil, provider: RouteProvider? = nil,
        bufferMinutes: Int = Self.defaultBufferMinutes, match: String? = nil, horizonDays: Int = Self.defaultHorizonDays, createdAt: Date
    ) {
        self.from = from
        self.provider = provider
        self.name = name
        self.location = location
        self.purpose = purpose
        self.routeID = routeID
        self.bufferMinutes = bufferMinutes
        self.match = match
        self.horizonDays = horizonDays
        self.createdAt = createdAt
    }

    /// Where it is, as it may be shown: a URL's scheme and host, never its path or query (a
    /// private calendar's token lives there); a file by its name.
    public var shownLocation: String {
        guard let location = TransitLocation(location) else { return "?" }
        switch location {
        case .file(let path): return DisplayText.line(path.pathBaseName)
        case .url(let url): return "\(url.scheme ?? "https")://\(url.host ?? "?")/…"
        }
    }

    func validate(field: String) throws(DocumentProblem) {
        try DocumentProblem.check(TransitFeed.isValidName(name), "\(field).name is not a calendar name")
        try DocumentProblem.check(TransitLocation(location) != nil && location.utf8.count <= 4_096, "\(field).location is not a URL or a path")
        try DocumentProblem.check((0...Schedule.Timing.largestBufferMinutes).contains(bufferMinutes), "\(field).bufferMinutes is out of range")
        try DocumentProblem.check((1...Self.longestHorizonDays).contains(horizonDays), "\(field).horizonDays is out of range")
        try DocumentProblem.check((match ?? "").utf8.count <= Self.largestMatchLength, "\(field).match is too long")
        try DocumentProblem.check(purpose == .skip || routeID != nil || (from != nil && provider != nil), "\(field) has no route")
        try DocumentProblem.check((from ?? "").utf8.count <= 100, "\(field).from is too long")
    }
}
