import FoundationEssentials

extension RouteProvider.Descriptor {
    static let valhalla = keyless(
        "valhalla", displayName: "Valhalla", mode: .freeFlow, url: "https://valhalla1.openstreetmap.de", budget: 100, perMinute: 60,
        historyCode: 7, software: "Valhalla", asked: [
            "POST /route, costing auto (no key): a free-flow estimate",
        ],
        service: ValhallaRouting())
}

/// Valhalla's route action, `POST /route` with `costing: auto`, no directions, `units: km` (its API
/// reference, valhalla.github.io/valhalla/api/turn-by-turn/api-reference). The public instance has no traffic: its time is free-flow.
struct ValhallaRouting: RoutingService {
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        let body = #"{"locations":[{"lat":\#(origin.latitude),"lon":\#(origin.longitude)},{"lat":\#(destination.latitude),"lon":\#(destination.longitude)}],"costing":"auto","units":"km","directions_type":"none"}"#
        return URL(string: "\(base)/route").map {
            RoutingAPI.Request(url: $0, body: Data(body.utf8), headers: ["Content-Type": "application/json", "Accept": "application/json"])
        }
    }

    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? {
        // 442 no path, 170 unconnected regions, 171 no road near a point, 154 too far.
        guard status == 400, let message else { return nil }
        let noRoute = ["No path could be found", "unconnected regions", "No suitable edges", "exceeds the max distance"]
        return noRoute.contains(where: { message.contains($0) }) ? .noRoute("Valhalla: \(message)") : nil
    }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        typealias Field = RoutingAPI.Field
        guard let trip = answer["trip"] as? [String: Any], let summary = trip["summary"] as? [String: Any] else {
            return .failure(.badAnswer("no trip summary in the answer"))
        }
        let seconds = try Field.seconds(summary["time"], "trip.summary.time", required: true)
        // Kilometres, as asked; miles if the answer says so.
        let miles = (trip["units"] as? String).map { $0 == "miles" || $0 == "mi" } ?? false
        let length = summary["length"] as? Double
        let metres = try Field.metres(length.map { $0 * (miles ? 1_609.344 : 1_000) }, "trip.summary.length")
        return RoutingAPI.measurement(now: seconds, usual: nil, metres: metres).map { measurement in
            var measurement = measurement
            measurement.line = Self.line(of: trip)
            return measurement
        }
    }

    /// Each leg's shape (polyline, precision 6) joined, and the motorways its maneuvers' street
    /// names give (`A 8`); nil without a shape.
    static func line(of trip: [String: Any]) -> RouteLine? {
        var points: [Coordinate] = []
        var roads: [String] = []
        for case let leg as [String: Any] in (trip["legs"] as? [Any]) ?? [] {
            if let shape = leg["shape"] as? String, shape.utf8.count <= 4 << 20, let decoded = RouteLine.decodePolyline(shape, precision: 6) {
                points += decoded
            }
            for case let maneuver as [String: Any] in (leg["maneuvers"] as? [Any]) ?? [] {
                for case let name as String in (maneuver["street_names"] as? [Any]) ?? [] where name.utf8.count <= 200 {
                    roads += RouteLine.motorways(in: name)
                }
            }
        }
        return points.isEmpty ? nil : RouteLine(points: points, roads: roads)
    }
}
