import Basics
import FoundationEssentials

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
        /// The calendar whose events' places it goes to (`calendar add --from`); nil for a route
        /// added by hand. A calendar's refresh removes its own routes no event needs, and no other.
        public var calendar: String?
        /// The provider's answers for leaving at planned moments (TomTom's `departAt`, HERE's and
        /// Google's `departureTime`), soonest departure first; nil until one is asked.
        public var predictions: [Prediction]?
        /// When an answer last moved by `Prediction.movingMinutes` or more from the one before it.
        public var movingSince: Date?
        /// The last reading of now over the usual time then, to the second (`1.3`: 30% slower
        /// than usual): what moves a prediction by today's traffic.
        public var readingFactor: Double?
        /// Set on a copy made for one departure (`Route.leaving(at:)`): its time is the prediction
        /// for leaving then. Never stored.
        public var predictedFor: Date?

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
        guard case .provider(let custom) = kind else { return true }
        if custom.provider.isFreeFlow { return false }
        return custom.liveProblem == nil || custom.fallback == nil
    }

    /// The free-flow estimate that stands in for a live time: an engine's route's own time, or a
    /// keyed route's fallback estimate while its provider cannot answer.
    public var freeFlowEstimate: Int? {
        guard case .provider(let custom) = kind, !hasLiveTime else { return nil }
        return custom.provider.isFreeFlow ? currentMinutes : custom.estimateMinutes
    }

    /// The engine the estimate comes from.
    public var estimateEngine: RouteProvider? {
        guard case .provider(let custom) = kind, !hasLiveTime else { return nil }
        return custom.provider.isFreeFlow ? custom.provider : custom.fallback
    }
}
