import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `calendars.json`: what each calendar's last reading found, and the departures and skipped
/// days planned from them (so a plan never reads a calendar file). The calendars' own copies
/// are `calendar-NAME.ics` beside it. Part of the routes domain.
public struct CalendarState: StoreDocument, Equatable {
    public static let fileName = "calendars.json"
    public static let domain = StoreDomain.routes

    /// One calendar's last reading.
    public struct Reading: Codable, Sendable, Equatable {
        public var validators: HTTPValidators?
        /// When its copy was last replaced, and when it was last asked about.
        public var fetchedAt: Date?
        public var checkedAt: Date?
        /// Why the last reading failed (the copy before it is used); nil when it did not.
        public var problem: String?
        /// Whether the problem has been told once (a refresh says it once, not at every run).
        public var problemTold: Bool?
        public var events: Int?
        /// Events that could not be read, each with its reason.
        public var unreadable: [String]?
    }

    /// A matched event's departure: an arrive-by alert for its start.
    public struct Departure: Codable, Sendable, Equatable {
        public var calendar: String
        public var uid: String
        public var recurrenceID: Int?
        public var summary: String
        public var start: Date
        public var routeIDs: [RouteID]
        public var bufferMinutes: Int
        public var createdAt: Date
    }

    /// A day a skip calendar pauses every schedule.
    public struct SkippedDay: Codable, Sendable, Equatable {
        public var calendar: String
        /// YYYY-MM-DD in the schedules' zone.
        public var date: String
        public var summary: String
    }

    public var version: Int
    public var readings: [String: Reading]
    public var departures: [Departure]
    public var skippedDays: [SkippedDay]

    public init() {
        version = Self.currentVersion
        readings = [:]
        departures = []
        skippedDays = []
    }

    public static let currentVersion = 1
    public static var empty: CalendarState { CalendarState() }
    /// The most departures and skipped days kept (the nearest).
    public static let largestPlanned = 2_000

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(departures.count <= Self.largestPlanned && skippedDays.count <= Self.largestPlanned, "too many departures or days")
        for departure in departures {
            try DocumentProblem.check(departure.start.timeIntervalSince1970.isFinite && abs(departure.start.timeIntervalSince1970) < 1e11, "a departure's start is impossible")
            try DocumentProblem.check((0...Schedule.Timing.largestBufferMinutes).contains(departure.bufferMinutes), "a departure's buffer is out of range")
            try DocumentProblem.check(!departure.routeIDs.isEmpty && departure.routeIDs.count <= 20, "a departure has no routes")
            try DocumentProblem.check(DisplayText.line(departure.summary) == departure.summary && departure.summary.utf8.count <= 400, "a departure's summary holds control characters")
        }
        for day in skippedDays {
            try DocumentProblem.check(CivilDate(iso: day.date) != nil, "a skipped day is not a date")
            try DocumentProblem.check(DisplayText.line(day.summary) == day.summary && day.summary.utf8.count <= 400, "a skipped day's summary holds control characters")
        }
    }
}

extension Store {
    public func calendarState() throws(StoreError) -> CalendarState { try read(CalendarState.self) }

    /// Where a calendar's last good copy is kept.
    public func calendarCopyPath(_ name: String) -> String { "\(directory)/calendar-\(name).ics" }
}
