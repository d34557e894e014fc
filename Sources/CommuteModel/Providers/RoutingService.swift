import Basics
import FoundationEssentials

/// What every routing provider is to a refresh: a request for two points, and the reading of an
/// answer. Everything else — the key, the budget, the deadline and retries, the absurd-number
/// guard, health and history — is applied by the caller to every provider alike, so a new
/// provider is one small file conforming to this.
public protocol RoutingService: Sendable {
    /// The request for a route between two points; `key` is already safe inside a URL. Nil when no
    /// URL can be made from `base`.
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request?
    /// The measurement in a 200 answer's JSON object, or why there is none. Throws
    /// `RoutingAPI.Field.Problem` for a field that is not what the provider documents.
    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault>
    /// The same, for the question asked: a planner's answer keeps only itineraries near its time.
    func measurement(in answer: [String: Any], query: RoutingQuery) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault>
    /// A refusal this provider words its own way (TomTom's `NO_ROUTE_FOUND`, Google's invalid key);
    /// nil leaves it a plain refusal.
    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault?
    /// A 200 answer's bytes as the object `measurement(in:)` reads; nil when they are not a JSON
    /// object. Every value is built, unless the provider reads its answer another way.
    func answer(_ body: Data) -> [String: Any]?
}

/// When a route is asked about: leaving now, leaving at a time (a car provider that predicts
/// traffic answers for then), or arriving by one (a transit planner plans for it).
public struct RoutingQuery: Sendable, Equatable {
    public var time: Date
    public var arriveBy: Bool
    /// Leaving when the request is sent: a car provider is asked about now's traffic, with no
    /// departure time.
    public var leavingNow: Bool

    public init(time: Date, arriveBy: Bool, leavingNow: Bool = false) {
        self.time = time
        self.arriveBy = arriveBy
        self.leavingNow = leavingNow
    }

    /// Leaving at `time`, which is now.
    public static func now(_ time: Date) -> RoutingQuery { RoutingQuery(time: time, arriveBy: false, leavingNow: true) }

    /// The departure a car provider is asked to predict for, in UTC to the second
    /// (`2026-12-07T16:05:00Z`, RFC 3339 as TomTom, HERE and Google take it); nil for now.
    public var predictedDeparture: String? {
        guard !leavingNow, !arriveBy else { return nil }
        return ISO8601.string(Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down)))
    }
}

extension RoutingService {
    public func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? { nil }

    /// A car's time is now's, whatever was asked.
    public func measurement(in answer: [String: Any], query: RoutingQuery) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        try measurement(in: answer)
    }

    public func answer(_ body: Data) -> [String: Any]? { JSONReader.any(body) as? [String: Any] }

    static func getJSON(_ text: String) -> RoutingAPI.Request? {
        URL(string: text).map { RoutingAPI.Request(url: $0, body: nil, headers: ["Accept": "application/json"]) }
    }
}
