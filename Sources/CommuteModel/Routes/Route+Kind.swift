import FoundationEssentials

extension Route {
    /// Where a route's time comes from. Read here, from the route's fields, and nowhere else: every
    /// other place asks `kind` (or one of the questions below it).
    public enum Kind: Sendable, Equatable {
        /// A route of WSDOT's feed: its time, its usual time and its name come with each refresh.
        case feed
        /// Two stops of an agency's GTFS timetable, timed by its realtime feed (`transit add`).
        case transitFeed
        /// From a point to a point through a routing provider (`route add`): a live time with a key,
        /// a free-flow estimate from an open engine, or Transitous's itineraries.
        case provider(RouteProvider)
    }

    public var kind: Kind {
        if let custom { return .provider(custom.provider) }
        return transit == nil ? .feed : .transitFeed
    }

    /// Whether it is asked of a routing provider (`route add`, a calendar's event), rather than
    /// read from a feed.
    public var isProviderRoute: Bool {
        if case .provider = kind { true } else { false }
    }

    /// The routing provider it is asked of; nil for a feed's route.
    public var provider: RouteProvider? {
        if case .provider(let provider) = kind { provider } else { nil }
    }

    /// `wsdot`, `transit`, or its provider's name (`tomtom`, `osrm`): as `--json` names a source.
    public var sourceName: String {
        switch kind {
        case .feed: "wsdot"
        case .transitFeed: "transit"
        case .provider(let provider): provider.rawValue
        }
    }

    /// Whether its times are public transport's: an agency's timetable, or Transitous's itineraries.
    public var isPublicTransport: Bool {
        switch kind {
        case .feed: false
        case .transitFeed: true
        case .provider(let provider): provider.isTransit
        }
    }

    /// Public transport whose departures are the timetable's alone: no realtime data has come.
    public var isTimetableOnly: Bool {
        isPublicTransport && transit?.realtimeAt == nil
    }
}
