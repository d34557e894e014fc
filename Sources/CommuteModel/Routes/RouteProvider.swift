import Basics
import FoundationEssentials

/// A routing service that times a route from any point to any other: a keyed one with live
/// traffic (for a fee per request above a free allowance), an open engine with free-flow times,
/// or a public-transport planner. Each is described once, in `descriptor`; everything else asks
/// that.
public enum RouteProvider: String, CaseIterable, Codable, Sendable, Comparable {
    case tomtom, here, google
    /// Door-to-door public transport from Transitous (MOTIS): keyless.
    case transitous
    /// Open routing engines on public instances: keyless, free-flow times (no traffic).
    case osrm, valhalla

    /// What kind of time a provider gives.
    public enum Mode: Sendable, Equatable {
        /// A car's time with the traffic now, with a key.
        case liveTraffic
        /// A car's time from the engine's speeds: no traffic of any kind.
        case freeFlow
        /// Itineraries of public transport.
        case transit
    }

    /// Everything a provider is, said once.
    public struct Descriptor: Sendable {
        public var displayName: String
        public var mode: Mode
        /// The variable that gives the key over `config.json`; nil for a keyless service.
        public var keyVariable: EnvironmentVariable?
        public var defaultBaseURL: String
        /// The variable that replaces the scheme and host (a proxy; a loopback server in tests).
        public var baseURLVariable: EnvironmentVariable
        /// Requests a day when none is configured: within each free allowance, or as a public
        /// service asks.
        public var defaultBudget: Int
        /// The most requests a minute a keyless service is sent (its policy).
        public var requestsPerMinute: Int
        /// Whether its "usual" time is the time without traffic (Google's `staticDuration`).
        public var usualIsFreeFlow = false
        /// The software a keyless service runs, which one may host oneself; nil for a keyed one.
        public var software: String?
    }

    public var descriptor: Descriptor {
        switch self {
        case .tomtom:
            Descriptor(
                displayName: "TomTom", mode: .liveTraffic, keyVariable: .tomtomKey, defaultBaseURL: "https://api.tomtom.com",
                baseURLVariable: .tomtomURL, defaultBudget: 2_500, requestsPerMinute: 60)
        case .here:
            // HERE's free allowance is 1,000 a day.
            Descriptor(
                displayName: "HERE", mode: .liveTraffic, keyVariable: .hereKey, defaultBaseURL: "https://router.hereapi.com",
                baseURLVariable: .hereURL, defaultBudget: 1_000, requestsPerMinute: 60)
        case .google:
            // Google's is about 5,000 a month; it gives no usual time, only the one without traffic.
            Descriptor(
                displayName: "Google", mode: .liveTraffic, keyVariable: .googleKey, defaultBaseURL: "https://routes.googleapis.com",
                baseURLVariable: .googleURL, defaultBudget: 160, requestsPerMinute: 60, usualIsFreeFlow: true)
        case .transitous:
            // Transitous asks that routing be used sparingly: its plan limit is 20 a minute per
            // address, and a commute needs a few a day.
            Descriptor(
                displayName: "Transitous", mode: .transit, keyVariable: nil, defaultBaseURL: "https://api.transitous.org",
                baseURLVariable: .transitousURL, defaultBudget: 200, requestsPerMinute: 20, software: "MOTIS")
        case .osrm:
            // A free-flow time is asked for when a route is added and at most daily after; one
            // request a second, as the public instance asks.
            Descriptor(
                displayName: "OSRM", mode: .freeFlow, keyVariable: nil, defaultBaseURL: "https://router.project-osrm.org",
                baseURLVariable: .osrmURL, defaultBudget: 100, requestsPerMinute: 60, software: "OSRM")
        case .valhalla:
            Descriptor(
                displayName: "Valhalla", mode: .freeFlow, keyVariable: nil, defaultBaseURL: "https://valhalla1.openstreetmap.de",
                baseURLVariable: .valhallaURL, defaultBudget: 100, requestsPerMinute: 60, software: "Valhalla")
        }
    }

    public var displayName: String { descriptor.displayName }
    /// An open engine's time: free-flow, from its profile's speeds, with no traffic of any kind.
    public var isFreeFlow: Bool { descriptor.mode == .freeFlow }
    /// Whether its routes are public transport (itineraries) rather than a car's time.
    public var isTransit: Bool { descriptor.mode == .transit }
    /// Whether it needs a key: the public, keyless services do not.
    public var needsKey: Bool { descriptor.keyVariable != nil }
    public var requestsPerMinute: Int { descriptor.requestsPerMinute }
    public var keyVariable: EnvironmentVariable? { descriptor.keyVariable }
    public var baseURLVariable: EnvironmentVariable { descriptor.baseURLVariable }
    public var defaultBaseURL: String { descriptor.defaultBaseURL }
    public var defaultBudget: Int { descriptor.defaultBudget }
    public var usualIsFreeFlow: Bool { descriptor.usualIsFreeFlow }
    public var software: String? { descriptor.software }

    /// The car providers, those `--provider` names with a key: in the order messages list them.
    public static var keyed: [RouteProvider] { allCases.filter(\.needsKey) }

    /// `config set tomtom-key KEY`.
    public var keySetting: String { "\(rawValue)-key" }
    /// `config set budget.tomtom N`.
    public var budgetSetting: String { "budget.\(rawValue)" }

    public static func < (lhs: RouteProvider, rhs: RouteProvider) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
