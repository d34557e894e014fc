/// Who measured a travel time: the feed, a routing provider or a transit agency.
public enum ReadingSource: UInt8, CaseIterable, Sendable, Equatable {
    case wsdot = 0, tomtom = 1, here = 2, google = 3
    /// A transit route's door-to-door time as its agency's realtime feed had it.
    case transit = 4
    /// A door-to-door itinerary from Transitous.
    case transitous = 5
    /// An open engine's free-flow time (never recorded as history: it is not a measurement).
    case osrm = 6, valhalla = 7

    /// As `history export` writes it and `history import` reads it: `wsdot`, `tomtom`.
    public var name: String {
        switch self {
        case .wsdot: "wsdot"
        case .tomtom: "tomtom"
        case .here: "here"
        case .google: "google"
        case .transit: "transit"
        case .transitous: "transitous"
        case .osrm: "osrm"
        case .valhalla: "valhalla"
        }
    }

    /// As an alert says it: `WSDOT reported 760 min`.
    public var displayName: String {
        switch self {
        case .wsdot: "WSDOT"
        case .tomtom: RouteProvider.tomtom.displayName
        case .here: RouteProvider.here.displayName
        case .google: RouteProvider.google.displayName
        case .transit: "The realtime feed"
        case .transitous: RouteProvider.transitous.displayName
        case .osrm: RouteProvider.osrm.displayName
        case .valhalla: RouteProvider.valhalla.displayName
        }
    }

    public init?(name: String) {
        guard let source = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = source
    }

    /// Where a route's times come from: the feed, or its provider.
    public init(of route: Route) {
        if route.kind == .transitFeed {
            self = .transit
            return
        }
        switch route.provider {
        case nil: self = .wsdot
        case .tomtom: self = .tomtom
        case .here: self = .here
        case .google: self = .google
        case .transitous: self = .transitous
        case .osrm: self = .osrm
        case .valhalla: self = .valhalla
        }
    }
}

extension Route {
    /// `TomTom reported 760 min for Everett-Seattle (usually 35)`: a reading held back, with the
    /// usual time to set it against (the slot's median when given, else the route's usual time).
    public func suspicionText(usual: Double? = nil) -> String {
        let reported = "\(ReadingSource(of: self).displayName) reported \(suspiciousMinutes ?? 0) min for \(name)"
        guard let usual = usual.map(TypicalTime.whole) ?? averageMinutes else { return reported }
        return reported + " (usually \(usual))"
    }
}
