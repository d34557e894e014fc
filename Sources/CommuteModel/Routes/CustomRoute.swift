import Basics
import FoundationEssentials

/// A routing service that gives a live travel time for any origin and destination, for a fee per
/// request above a free allowance.
public enum RouteProvider: String, CaseIterable, Codable, Sendable, Comparable {
    case tomtom, here, google
    /// Door-to-door public transport from Transitous (MOTIS): keyless.
    case transitous
    /// Open routing engines on public instances: keyless, free-flow times (no traffic).
    case osrm, valhalla

    public var displayName: String {
        switch self {
        case .tomtom: "TomTom"
        case .here: "HERE"
        case .google: "Google"
        case .transitous: "Transitous"
        case .osrm: "OSRM"
        case .valhalla: "Valhalla"
        }
    }

    /// An open engine's time: free-flow, from its profile's speeds, with no traffic of any kind.
    public var isFreeFlow: Bool { self == .osrm || self == .valhalla }

    /// The most requests a minute a keyless service is sent (its policy): Transitous's plan
    /// limit; one a second for the engines.
    public var requestsPerMinute: Int { self == .transitous ? 20 : 60 }

    /// Whether it needs a key: the public, keyless services do not.
    public var needsKey: Bool { self == .tomtom || self == .here || self == .google }

    /// Whether its routes are public transport (itineraries) rather than a car's time.
    public var isTransit: Bool { self == .transitous }

    /// The car providers, those `--provider` names with a key: in the order messages list them.
    public static var keyed: [RouteProvider] { allCases.filter(\.needsKey) }

    /// `config set tomtom-key KEY`.
    public var keySetting: String { "\(rawValue)-key" }
    /// `config set budget.tomtom N`.
    public var budgetSetting: String { "budget.\(rawValue)" }

    /// The variable that gives the key over `config.json`.
    public var keyVariable: EnvironmentVariable? {
        switch self {
        case .tomtom: .tomtomKey
        case .here: .hereKey
        case .google: .googleKey
        case .transitous, .osrm, .valhalla: nil
        }
    }

    /// The variable that replaces the scheme and host (a proxy; a loopback server in tests).
    public var baseURLVariable: EnvironmentVariable {
        switch self {
        case .tomtom: .tomtomURL
        case .here: .hereURL
        case .google: .googleURL
        case .transitous: .transitousURL
        case .osrm: .osrmURL
        case .valhalla: .valhallaURL
        }
    }

    /// The software a keyless service runs, which one may host oneself (`config set osrm-url`);
    /// nil for a keyed provider's own service.
    public var software: String? {
        switch self {
        case .transitous: "MOTIS"
        case .osrm: "OSRM"
        case .valhalla: "Valhalla"
        case .tomtom, .here, .google: nil
        }
    }

    public var defaultBaseURL: String {
        switch self {
        case .tomtom: "https://api.tomtom.com"
        case .here: "https://router.hereapi.com"
        case .google: "https://routes.googleapis.com"
        case .transitous: "https://api.transitous.org"
        case .osrm: "https://router.project-osrm.org"
        case .valhalla: "https://valhalla1.openstreetmap.de"
        }
    }

    /// Requests a day when none is configured: within each free allowance (HERE's 1,000 a day;
    /// Google's about 5,000 a month).
    public var defaultBudget: Int {
        switch self {
        case .tomtom: 2_500
        case .here: 1_000
        case .google: 160
        // Transitous asks that routing be used sparingly: its plan limit is 20 a minute per
        // address, and a commute needs a few a day.
        case .transitous: 200
        // A free-flow time is asked for when a route is added and at most daily after.
        case .osrm, .valhalla: 100
        }
    }

    /// Google gives no usual time: its `staticDuration` is the time without traffic.
    public var usualIsFreeFlow: Bool { self == .google }

    public static func < (lhs: RouteProvider, rhs: RouteProvider) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A point on the Earth: `47.6062,-122.3321`.
public struct Coordinate: Codable, Sendable, Equatable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads `LAT,LON` in decimal degrees (`47.6062,-122.3321`); nil for anything else, and for a
    /// point off the Earth.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Self.degrees(parts[0]), let longitude = Self.degrees(parts[1]) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Plain decimal degrees, perhaps signed: no exponents, no `nan` (see `NumberParsing`).
    private static func degrees(_ text: Substring) -> Double? {
        var body = text.trimmingWhitespace()
        let negative = body.hasPrefix("-")
        if negative || body.hasPrefix("+") { body.removeFirst() }
        return NumberParsing.decimal(body).map { negative ? -$0 : $0 }
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let point = Coordinate(
            latitude: try container.decode(Double.self, forKey: .latitude), longitude: try container.decode(Double.self, forKey: .longitude))
        else {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: "not a point on the Earth")
        }
        self = point
    }

    /// `47.6062,-122.3321`: as `--from` takes it, with at most six decimals (about 10 cm).
    public var description: String { "\(Self.format(latitude)),\(Self.format(longitude))" }

    private static func format(_ value: Double) -> String {
        var text = String(cFormat: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

extension Route {
    /// What makes a route custom: an origin and a destination served by a provider, and when it
    /// was last asked about.
    public struct Custom: Codable, Sendable, Equatable {
        public var provider: RouteProvider
        public var from: Coordinate
        public var to: Coordinate
        /// The last time the provider answered with a travel time; nil until then.
        public var fetchedAt: Date?
        /// The last request for it, answered or not: no route is asked about again within the
        /// minimum interval.
        public var triedAt: Date?
        /// An open engine that stands in when the provider cannot answer (`--fallback osrm`), its
        /// free-flow estimate and when it was had.
        public var fallback: RouteProvider?
        public var estimateMinutes: Int?
        public var estimatedAt: Date?
        /// Why the provider has no live time now (its last request failed, its budget is spent);
        /// nil while it answers.
        public var liveProblem: String?

        public init(provider: RouteProvider, from: Coordinate, to: Coordinate, fetchedAt: Date? = nil, triedAt: Date? = nil) {
            self.provider = provider
            self.from = from
            self.to = to
            self.fetchedAt = fetchedAt
            self.triedAt = triedAt
        }

        /// The same route as another: provider and ends (not when it was fetched).
        public func isSameRoute(as other: Custom) -> Bool {
            provider == other.provider && from == other.from && to == other.to
        }
    }

    /// Whether text can be a custom route's ID: 1 to 40 lowercase letters, digits and dashes, with
    /// at least one letter (so it never collides with a feed's numeric IDs), not starting or ending
    /// with a dash.
    public static func isValidCustomID(_ id: String) -> Bool {
        id.utf8.count <= 40 && isValidID(id) && id.last != "-" && id.contains { $0.isASCII && $0.isLetter }
    }
}

extension Route {
    /// Whether its current time is live: not an open engine's estimate, and not a keyed route
    /// whose provider cannot answer now and that has an engine to fall back on.
    public var hasLiveTime: Bool {
        guard let custom else { return true }
        if custom.provider.isFreeFlow { return false }
        return custom.liveProblem == nil || custom.fallback == nil
    }

    /// The free-flow estimate that stands in for a live time: an engine's route's own time, or a
    /// keyed route's fallback estimate while its provider cannot answer.
    public var freeFlowEstimate: Int? {
        guard let custom, !hasLiveTime else { return nil }
        return custom.provider.isFreeFlow ? currentMinutes : custom.estimateMinutes
    }

    /// The engine the estimate comes from.
    public var estimateEngine: RouteProvider? {
        guard let custom, !hasLiveTime else { return nil }
        return custom.provider.isFreeFlow ? custom.provider : custom.fallback
    }
}
