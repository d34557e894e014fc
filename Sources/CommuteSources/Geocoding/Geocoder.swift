import Basics
import CommuteModel
import FoundationEssentials

/// A place found by name: where it is, and the label to show for it.
public struct PlaceCandidate: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var label: String

    public init(latitude: Double, longitude: Double, label: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.label = label
    }

    public var coordinate: Coordinate? { Coordinate(latitude: latitude, longitude: longitude) }
}

/// The services that find a place by name (nominatim.org/release-docs/latest/api/Search;
/// MOTIS's `openapi.yaml`): Nominatim's
/// `/search` (OpenStreetMap; at most one request a second for all users together, results to be
/// cached) and Transitous's `/api/v1/geocode`. Pure values in, pure values out.
public enum Geocoder: String, CaseIterable, Codable, Sendable {
    case nominatim, transitous

    public var displayName: String {
        switch self {
        case .nominatim: "Nominatim"
        case .transitous: "Transitous"
        }
    }

    public var defaultBaseURL: String {
        switch self {
        case .nominatim: "https://nominatim.openstreetmap.org"
        case .transitous: RouteProvider.transitous.defaultBaseURL
        }
    }

    /// The variable that replaces its base URL (a proxy; a loopback server in tests).
    public var baseURLVariable: EnvironmentVariable {
        switch self {
        case .nominatim: Self.nominatimURL
        case .transitous: RouteProvider.transitous.baseURLVariable
        }
    }

    static let nominatimURL = EnvironmentVariable(
        "TRAVELTIMES_NOMINATIM_URL", meaning: "Replaces https://nominatim.openstreetmap.org (else `config set geocoder-url`)")

    /// What its data asks to be credited with.
    public var attribution: String {
        switch self {
        case .nominatim: "Search by Nominatim · map data © OpenStreetMap contributors (openstreetmap.org/copyright)"
        case .transitous: Transitous.attribution
        }
    }

    /// The most candidates asked for and kept, and the most results of an answer looked at.
    public static let candidateCount = 5
    public static let largestAnswerCount = 50
    /// The most bytes an answer may have: five places are a few kilobytes.
    public static let maximumAnswerBytes = 1 << 20
    /// The longest text searched for, and the longest label kept.
    public static let longestText = 200
    public static let longestLabel = 200

    public func request(for text: String, base: String, userAgent: String) -> RoutingAPI.Request? {
        let query = text.percentEncoded(keeping: Self.unreserved)
        let address = switch self {
        case .nominatim: "\(base)/search?q=\(query)&format=jsonv2&limit=\(Self.candidateCount)"
        case .transitous: "\(base)/api/v1/geocode?text=\(query)&numResults=\(2 * Self.candidateCount)"
        }
        return URL(string: address).map { RoutingAPI.Request(url: $0, body: nil, headers: ["Accept": "application/json", "User-Agent": userAgent]) }
    }

    private static let unreserved = ScalarSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Why an answer holds no places.
    public enum Fault: Error, Sendable, Equatable, CustomStringConvertible {
        case rateLimited
        case server(status: Int)
        case refused(String)
        case badAnswer(String)

        public var description: String {
            switch self {
            case .rateLimited: "too many requests (HTTP 429): try again in a minute"
            case .server(let status): "the server failed (HTTP \(status))"
            case .refused(let message): "refused: \(message)"
            case .badAnswer(let message): "answered oddly: \(message)"
            }
        }
    }

    /// The places in an answer, best first (none found is an empty list), or why there are none.
    public func candidates(in response: HTTPResponse) -> Result<[PlaceCandidate], Fault> {
        switch response.status {
        case 200: break
        case 429: return .failure(.rateLimited)
        case 500...599: return .failure(.server(status: response.status))
        default:
            let message = Self.errorMessage(response.body) ?? RoutingAPI.plainText(response.body)
            return .failure(.refused("HTTP \(response.status)" + (message.map { ": \($0)" } ?? "")))
        }
        guard response.body.count <= Self.maximumAnswerBytes, let list = JSONReader.any(response.body) as? [Any] else {
            return .failure(.badAnswer("the answer is not a JSON array"))
        }
        var found: [PlaceCandidate] = []
        var unplaced = 0
        for item in list.prefix(Self.largestAnswerCount) where found.count < Self.candidateCount {
            guard let object = item as? [String: Any] else { return .failure(.badAnswer("a result is not an object")) }
            let latitude: Double?
            let longitude: Double?
            let label: String?
            switch self {
            case .nominatim:
                // Nominatim's coordinates are strings.
                latitude = (object["lat"] as? String).flatMap { NumberParsing.signedDecimal($0) }
                longitude = (object["lon"] as? String).flatMap { NumberParsing.signedDecimal($0) }
                label = object["display_name"] as? String
            case .transitous:
                latitude = object["lat"] as? Double
                longitude = object["lon"] as? Double
                let town = (object["areas"] as? [Any])?.lazy.compactMap { $0 as? [String: Any] }.first { $0["default"] as? Bool == true }?["name"] as? String
                label = (object["name"] as? String).map { name in town.map { "\(name), \($0)" } ?? name }
            }
            // One result without a place on the Earth is passed over; the others still count.
            guard let latitude, let longitude, Coordinate(latitude: latitude, longitude: longitude) != nil else {
                unplaced += 1
                continue
            }
            let shown = DisplayText.line(String((label ?? "").prefix(Self.longestLabel))).trimmingWhitespace()
            let candidate = PlaceCandidate(latitude: latitude, longitude: longitude, label: shown.isEmpty ? "(no name)" : shown)
            // Transitous names one stop once per area it lies in (Karlsruhe Hbf four times, at one
            // point): one place, the first.
            let name = { (label: String) in label.split(separator: ",").first.map(String.init) ?? label }
            if found.contains(where: { $0.coordinate == candidate.coordinate && name($0.label) == name(candidate.label) }) { continue }
            found.append(candidate)
        }
        if found.isEmpty, unplaced > 0 { return .failure(.badAnswer("no result has coordinates on the Earth")) }
        return .success(found)
    }

    /// Nominatim's `{"error":{"message":…}}` or MOTIS's `{"error":"…"}`, as one short line.
    static func errorMessage(_ body: Data) -> String? {
        guard let object = JSONReader.any(body.prefix(65_536)) as? [String: Any] else { return nil }
        let text = (object["error"] as? [String: Any])?["message"] as? String ?? object["error"] as? String
        return text.map { DisplayText.line(String($0.prefix(200))) }
    }
}

/// What Transitous asks of those who use it.
public enum Transitous {
    /// The line its usage policy asks to be shown: its sources, and OpenStreetMap's credit.
    public static let attribution =
        "Transit data: Transitous (transitous.org/sources) · map data © OpenStreetMap contributors (openstreetmap.org/copyright)"
    /// Its plan endpoint's limit per address, and the gap kept between any two requests.
    public static let plansPerMinute = 20
    public static let minimumGap: TimeInterval = 1
}
