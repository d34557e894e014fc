import Basics
import FoundationEssentials

extension RouteProvider.Descriptor {
    /// HERE's free allowance is 1,000 a day.
    static let here = keyed("here", displayName: "HERE", url: "https://router.hereapi.com", budget: 1_000, historyCode: 2, asked: [
            "GET /v8/routes?transportMode=car&return=summary,typicalDuration: each",
            "section's duration and typicalDuration, summed; each checked on its own;",
            "&departureTime=<UTC time> asks for a planned departure: HERE predicts it",
        ],
        service: HERERouting())
}

/// HERE Routing v8 with the summary and the typical duration (www.here.com/docs/bundle/
/// routing-api-v8-api-reference).
struct HERERouting: RoutingService {
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        Self.getJSON("\(base)/v8/routes?transportMode=car&origin=\(origin)&destination=\(destination)&return=summary,typicalDuration&apiKey=\(key)"
            + (query.predictedDeparture.map { "&departureTime=\($0)" } ?? ""))
    }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        typealias Field = RoutingAPI.Field
        guard let routes = answer["routes"] as? [Any] else { return .failure(.badAnswer("no routes in the answer")) }
        guard let sections = (routes.first as? [String: Any])?["sections"] as? [Any], !sections.isEmpty else {
            let notice = ((answer["notices"] as? [Any])?.first as? [String: Any]).flatMap { $0["code"] as? String ?? $0["title"] as? String }
            return .failure(.noRoute(notice.map { "HERE: \(DisplayText.line(String($0.prefix(120))))" } ?? "HERE returned no route"))
        }
        // Each section is checked on its own: two absurd sections must not sum to a plausible route.
        var now = 0.0
        var usual: Double? = 0
        var metres: Double? = 0
        for (index, section) in sections.enumerated() {
            let name = "sections[\(index)].summary"
            guard let summary = (section as? [String: Any])?["summary"] as? [String: Any] else {
                throw Field.Problem("\(name) is missing")
            }
            now += try Field.seconds(summary["duration"], name + ".duration", required: true) ?? 0
            let typical = try Field.seconds(summary["typicalDuration"], name + ".typicalDuration")
            usual = usual.flatMap { total in typical.map { total + $0 } }
            let length = try Field.metres(summary["length"], name + ".length")
            metres = metres.flatMap { total in length.map { total + $0 } }
        }
        return RoutingAPI.measurement(now: now, usual: usual, metres: metres)
    }
}
