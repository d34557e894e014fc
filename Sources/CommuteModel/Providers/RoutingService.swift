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

/// When a route is asked about: leaving now (a car provider's traffic is always now's), leaving
/// at a time, or arriving by one (a transit planner plans for it).
public struct RoutingQuery: Sendable, Equatable {
    public var time: Date
    public var arriveBy: Bool

    public init(time: Date, arriveBy: Bool) {
        self.time = time
        self.arriveBy = arriveBy
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
