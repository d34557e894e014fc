import FoundationEssentials

extension RouteProvider.Descriptor {
    /// Google's allowance is about 5,000 a month; it gives no usual time, only the one without traffic.
    static let google = keyed(
        "google", displayName: "Google", keyName: "GOOGLE_MAPS_API_KEY", url: "https://routes.googleapis.com", budget: 160, historyCode: 3,
        usualIsFreeFlow: true, keyLabel: "Google Routes API", asked: [
            "POST /directions/v2:computeRoutes, TRAFFIC_AWARE, the key in X-Goog-Api-Key:",
            "duration now; usual is staticDuration, the time without traffic (marked †);",
            "\"departureTime\":<UTC time> asks for a planned departure: Google predicts it",
        ],
        service: GoogleRouting())
}

/// Google's Routes API `computeRoutes`, traffic-aware, with a field mask
/// (developers.google.com/maps/documentation/routes/compute_route_directions). The key travels in a header, never in the URL.
struct GoogleRouting: RoutingService {
    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        func place(_ point: Coordinate) -> String {
            #"{"location":{"latLng":{"latitude":\#(point.latitude),"longitude":\#(point.longitude)}}}"#
        }
        // A planned departure: Google predicts its traffic (it must be in the future).
        let departure = query.predictedDeparture.map { #","departureTime":"\#($0)""# } ?? ""
        let body = #"{"origin":\#(place(origin)),"destination":\#(place(destination)),"travelMode":"DRIVE","routingPreference":"TRAFFIC_AWARE"\#(departure)}"#
        return URL(string: "\(base)/directions/v2:computeRoutes").map {
            RoutingAPI.Request(url: $0, body: Data(body.utf8), headers: [
                "Content-Type": "application/json", "Accept": "application/json",
                "X-Goog-Api-Key": key.percentDecoded ?? key,
                "X-Goog-FieldMask": "routes.duration,routes.staticDuration,routes.distanceMeters",
            ])
        }
    }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        typealias Field = RoutingAPI.Field
        guard let route = (answer["routes"] as? [Any])?.first as? [String: Any] else { return .failure(.noRoute("Google returned no route")) }
        return RoutingAPI.measurement(
            now: try Field.seconds(route["duration"], "routes[0].duration", required: true, text: true),
            usual: try Field.seconds(route["staticDuration"], "routes[0].staticDuration", text: true),
            metres: try Field.metres(route["distanceMeters"], "routes[0].distanceMeters"))
    }

    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? {
        code == "API_KEY_INVALID" || (message ?? "").contains("API key") ? .keyRejected(message ?? "HTTP \(status)") : nil
    }
}
