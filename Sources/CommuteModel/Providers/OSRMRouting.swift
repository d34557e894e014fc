import Basics
import FoundationEssentials

extension RouteProvider.Descriptor {
    /// A free-flow time is asked for when a route is added and at most daily after; one request a
    /// second, as the public instance asks.
    static let osrm = keyless(
        "osrm", displayName: "OSRM", mode: .freeFlow, url: "https://router.project-osrm.org", budget: 100, perMinute: 60, historyCode: 6,
        software: "OSRM", asked: [
            "GET /route/v1/driving/LON,LAT;LON,LAT?steps=true (no key): a free-flow",
            "estimate, and the route's line and motorways (for the Autobahn API)",
        ],
        service: OSRMRouting())
}

/// OSRM's route service, `GET /route/v1/driving/LON,LAT;LON,LAT` (longitude first), with its
/// steps (project-osrm.org/docs/v5.24.0/api, "Route service"): each step's line (polyline,
/// precision 5) and road `ref` give the route's line and motorways. Its duration is free-flow: the
/// profile's speeds, no traffic.
struct OSRMRouting: RoutingService {
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        func lonLat(_ point: Coordinate) -> String {
            // As `Coordinate` writes it, the other way round.
            let parts = point.description.split(separator: ",")
            return "\(parts[1]),\(parts[0])"
        }
        return Self.getJSON("\(base)/route/v1/driving/\(lonLat(origin));\(lonLat(destination))?overview=false&alternatives=false&steps=true")
    }

    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? {
        // `{"code":"NoRoute","message":"No route found between points"}`, `NoSegment`: no road.
        guard status == 400 else { return nil }
        return ["NoRoute", "NoSegment"].contains(code ?? "") ? .noRoute("OSRM: \(message ?? code ?? "no route")") : nil
    }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        typealias Field = RoutingAPI.Field
        guard let code = answer["code"] as? String else { return .failure(.badAnswer("no code in the answer")) }
        guard code == "Ok" else {
            let message = (answer["message"] as? String).map { DisplayText.line(String($0.prefix(120))) } ?? code
            return ["NoRoute", "NoSegment"].contains(code) ? .failure(.noRoute("OSRM: \(message)")) : .failure(.refused(message))
        }
        guard let route = (answer["routes"] as? [Any])?.first as? [String: Any] else { return .failure(.noRoute("OSRM returned no route")) }
        let seconds = try Field.seconds(route["duration"], "routes[0].duration", required: true)
        return RoutingAPI.measurement(now: seconds, usual: nil, metres: try Field.metres(route["distance"], "routes[0].distance")).map { measurement in
            var measurement = measurement
            measurement.line = Self.line(of: route)
            return measurement
        }
    }

    /// The steps' lines joined, and the motorways their refs name; nil without steps.
    static func line(of route: [String: Any]) -> RouteLine? {
        var points: [Coordinate] = []
        var roads: [String] = []
        for case let leg as [String: Any] in (route["legs"] as? [Any]) ?? [] {
            for case let step as [String: Any] in (leg["steps"] as? [Any]) ?? [] {
                if let ref = step["ref"] as? String, ref.utf8.count <= 200 { roads += RouteLine.motorways(in: ref) }
                if let geometry = step["geometry"] as? String, geometry.utf8.count <= 1 << 20,
                    let decoded = RouteLine.decodePolyline(geometry, precision: 5), points.count < 200_000
                {
                    points += decoded
                }
            }
        }
        return points.isEmpty ? nil : RouteLine(points: points, roads: roads)
    }
}
