import FoundationEssentials

extension RouteProvider.Descriptor {
    static let tomtom = keyed(
        "tomtom", displayName: "TomTom", url: "https://api.tomtom.com", budget: 2_500, historyCode: 1,
        urlNote: " (a proxy, a test server; else `config set tomtom-url`)", asked: [
            "GET /routing/1/calculateRoute/FROM:TO/json?traffic=true&travelMode=car",
            "&computeTravelTimeFor=all: travelTimeInSeconds now; usual is",
            "historicTrafficTravelTimeInSeconds (else noTrafficTravelTimeInSeconds);",
            "&departAt=<UTC time> asks for a planned departure: TomTom predicts it",
        ],
        service: TomTomRouting())
}

/// TomTom's Routing API `calculateRoute`, summary only (developer.tomtom.com/routing-api/documentation/
/// tomtom-maps/calculate-route; the recorded answers in `Fixtures/real/`).
struct TomTomRouting: RoutingService {
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        Self.getJSON("\(base)/routing/1/calculateRoute/\(origin):\(destination)/json?key=\(key)&traffic=true&travelMode=car"
            + "&computeTravelTimeFor=all&routeRepresentation=summaryOnly" + (query.predictedDeparture.map { "&departAt=\($0)" } ?? ""))
    }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        typealias Field = RoutingAPI.Field
        guard let routes = answer["routes"] as? [Any] else { return .failure(.badAnswer("no routes in the answer")) }
        guard let summary = (routes.first as? [String: Any])?["summary"] as? [String: Any] else {
            return .failure(.noRoute("TomTom returned no route"))
        }
        // The usual time is the historic one; without it, the time with no traffic.
        let historic = try Field.seconds(summary["historicTrafficTravelTimeInSeconds"], "summary.historicTrafficTravelTimeInSeconds")
        let free = try Field.seconds(summary["noTrafficTravelTimeInSeconds"], "summary.noTrafficTravelTimeInSeconds")
        return RoutingAPI.measurement(
            now: try Field.seconds(summary["travelTimeInSeconds"], "summary.travelTimeInSeconds", required: true),
            usual: historic ?? free,
            metres: try Field.metres(summary["lengthInMeters"], "summary.lengthInMeters"))
    }

    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? {
        code == "NO_ROUTE_FOUND" ? .noRoute(message ?? "NO_ROUTE_FOUND") : nil
    }
}
