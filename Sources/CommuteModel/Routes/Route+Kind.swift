import FoundationEssentials

extension Route {
    /// Where a route's time comes from. Read here, from the route's fields, and nowhere else: every
    /// other place asks `kind` (or one of the questions below it).
    public enum Kind: Sendable, Equatable {
        /// A route of WSDOT's feed: its time, its usual time and its name come with each refresh.
        case feed
        /// Two stops of an agency's GTFS timetable, timed by its realtime feed (`transit add`):
        /// the stops, the line, the walk and the next departures.
        case transitFeed(Transit)
        /// From a point to a point through a routing provider (`route add`, a calendar's event): a
        /// live time with a key, a free-flow estimate from an open engine, or Transitous's
        /// itineraries (`departures`) — its provider, its ends and what was last asked.
        case provider(Custom)
    }

    public var kind: Kind {
        if let custom { return .provider(custom) }
        if let transit { return .transitFeed(transit) }
        return .feed
    }

    /// A public-transport route's departures: a timetable's next runs, or a planner's itineraries
    /// once they have come; nil for a car's route.
    public var departures: Transit? {
        switch kind {
        case .feed: nil
        case .transitFeed(let transit): transit
        case .provider(let custom): custom.provider.isTransit ? transit : nil
        }
    }

    /// Whether it is two stops of an agency's timetable (`transit add`).
    public var isTransitFeed: Bool {
        if case .transitFeed = kind { true } else { false }
    }

    /// Whether it is asked of a routing provider (`route add`, a calendar's event), rather than
    /// read from a feed.
    public var isProviderRoute: Bool {
        if case .provider = kind { true } else { false }
    }

    /// The routing provider it is asked of; nil for a feed's route.
    public var provider: RouteProvider? {
        if case .provider(let custom) = kind { custom.provider } else { nil }
    }

    /// The calendar that made it for its events' places (`calendar add --from`); nil for any
    /// other route.
    public var calendar: String? {
        if case .provider(let custom) = kind { custom.calendar } else { nil }
    }

    /// How the IDs of the routes calendars make begin: `cal-NAME-` and eight hex digits. No route
    /// added by hand may begin so, and a route cache written before routes named their calendar
    /// is read by it (`calendar(ofStoredID:)`).
    public static let calendarIDPrefix = "cal-"

    /// Whether an ID is kept for the routes calendars make: no route added by hand may have one.
    public static func isCalendarsID(_ id: String) -> Bool { id.hasPrefix(calendarIDPrefix) }

    /// The calendar an ID of the form `cal-NAME-1a2b3c4d` was made by: how a route cache written
    /// before a calendar's routes named their calendar is read. Nil for any other ID.
    public static func calendar(ofStoredID id: String) -> String? {
        guard id.hasPrefix(calendarIDPrefix), id.utf8.count > calendarIDPrefix.utf8.count + 9 else { return nil }
        let suffix = id.suffix(9)
        guard suffix.first == "-", suffix.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        let name = String(id.dropFirst(calendarIDPrefix.count).dropLast(9))
        return TransitFeed.isValidName(name) ? name : nil
    }

    /// `wsdot`, `transit`, or its provider's name (`tomtom`, `osrm`): as `--json` names a source.
    public var sourceName: String {
        switch kind {
        case .feed: "wsdot"
        case .transitFeed: "transit"
        case .provider(let custom): custom.provider.rawValue
        }
    }

    /// Whether its times are public transport's: an agency's timetable, or Transitous's itineraries.
    public var isPublicTransport: Bool {
        switch kind {
        case .feed: false
        case .transitFeed: true
        case .provider(let custom): custom.provider.isTransit
        }
    }

    /// Public transport whose departures are the timetable's alone: no realtime data has come.
    public var isTimetableOnly: Bool {
        isPublicTransport && departures?.realtimeAt == nil
    }
}
