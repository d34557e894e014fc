import Basics
import FoundationEssentials

/// Germany's Autobahn API (Autobahn GmbH des Bundes, no key; bundesAPI/autobahn-api
/// `openapi.yaml`): `GET /{road}/services/warning` and `/closure`, each `{"warning": [item…]}` or
/// `{"closure": [item…]}`. It gives notices — a jam, an accident, a closure — never a travel time
/// or a delay to add (its website's jam delays are another company's data), so a route shows them
/// as notices. Real answers differ from the documentation: coordinates are numbers (documented as
/// strings), `point` and `extent` are latitude first (documented longitude first), and items carry
/// a `geometry` line; both forms are read, and only `coordinate` and `geometry` are trusted.
public enum AutobahnIncidents {
    public static let defaultBaseURL = "https://verkehr.autobahn.de/o/autobahn"
    public static let baseURLVariable = EnvironmentVariable(
        "TRAVELTIMES_AUTOBAHN_URL", meaning: "Replaces \(defaultBaseURL), the Autobahn API's incidents (a test server)")
    /// The services asked for each road a route uses.
    public static let services = ["warning", "closure"]
    /// A real road's warnings are some 150 KB, its closures 100 KB; far past that is not an answer.
    public static let maximumAnswerBytes = 8 << 20
    /// The most items kept from one answer, and the most geometry points kept of one item.
    public static let largestItemCount = 2_000
    static let largestItemPoints = 64
    /// An item this close to a route's line is on it, in metres.
    public static let nearRoute: Double = 200
    /// How long a road's answer is used before it is asked again.
    public static let freshFor: TimeInterval = 300

    public static func url(base: String, road: String, service: String) -> String { "\(base)/\(road)/services/\(service)" }

    /// The items of a 200 answer for `road`'s `service`; nil when the bytes are not that shape.
    public static func read(_ data: Data, road: String, service: String) -> [Incident]? {
        guard let answer = try? JSONReader.read(data, { reader -> [String: Any]? in try reader.readAny() as? [String: Any] }) ?? nil else { return nil }
        // An empty object is an answer with no items (the API's way for a road with none).
        guard let list = answer[service] as? [Any] ?? (answer.isEmpty ? [] : nil) else { return nil }
        return list.prefix(largestItemCount).compactMap { ($0 as? [String: Any]).flatMap { incident($0, road: road) } }
    }

    static func incident(_ item: [String: Any], road: String) -> Incident? {
        func text(_ key: String, longest: Int = 300) -> String? {
            guard let value = item[key] as? String else { return nil }
            let line = PlainText.line(value, longest: longest)
            return line.isEmpty ? nil : line
        }
        func number(_ value: Any?) -> Double? { (value as? Double) ?? (value as? String).flatMap { Double($0.trimmingWhitespace()) } }
        guard let id = text("identifier", longest: 400), let title = text("title") else { return nil }
        var points: [Coordinate] = []
        if let coordinate = item["coordinate"] as? [String: Any], let latitude = number(coordinate["lat"]), let longitude = number(coordinate["long"]),
            let point = Coordinate(latitude: latitude, longitude: longitude)
        {
            points.append(point)
        }
        let geometry = ((item["geometry"] as? [String: Any])?["coordinates"] as? [Any]) ?? []
        for case let pair as [Any] in RouteLine.thinned(geometry, largest: largestItemPoints) where pair.count >= 2 {
            if let longitude = number(pair[0]), let latitude = number(pair[1]), let point = Coordinate(latitude: latitude, longitude: longitude) {
                points.append(point)
            }
        }
        guard !points.isEmpty else { return nil }
        let future = (item["future"] as? Bool) ?? ((item["future"] as? String) == "true")
        let start = (item["startTimestamp"] as? String).flatMap { text in
            ISO8601.parse(text.utf8.count <= 40 ? text : "")?.instant
        }
        return Incident(
            id: id, road: road, kind: text("display_type", longest: 40) ?? "WARNING", title: title, direction: text("subtitle", longest: 120),
            points: points, future: future, start: start)
    }
}

/// One item of an incident feed: a notice on a road, where it is, and whether it is in force.
public struct Incident: Codable, Sendable, Equatable {
    public var id: String
    public var road: String
    /// The feed's kind: `WARNING`, `CLOSURE`, `CLOSURE_ENTRY_EXIT`, `WEIGHT_LIMIT_35`…
    public var kind: String
    /// `A8 | Heimsheim - Pforzheim-Nord`.
    public var title: String
    /// `Stuttgart -> Karlsruhe`.
    public var direction: String?
    /// Where it starts, then its line, thinned.
    public var points: [Coordinate]
    /// Planned for later: not in force now.
    public var future: Bool
    public var start: Date?

    public init(id: String, road: String, kind: String, title: String, direction: String?, points: [Coordinate], future: Bool, start: Date?) {
        self.id = id
        self.road = road
        self.kind = kind
        self.title = title
        self.direction = direction
        self.points = points
        self.future = future
        self.start = start
    }

    /// Whether it is in force at `moment`: not planned for later, and begun.
    public func isInForce(at moment: Date) -> Bool { !future && (start.map { $0 <= moment } ?? true) }

    /// `closed`, `a warning`…: what the feed says it is, in words.
    public var what: String {
        switch kind {
        case "CLOSURE": "closed"
        case "CLOSURE_ENTRY_EXIT": "a junction closed"
        case "WEIGHT_LIMIT_35": "closed to vehicles over 3.5 t"
        case "ROADWORKS", "SHORT_TERM_ROADWORKS": "roadworks"
        default: "a warning"
        }
    }

    /// `Incident: A8 | Heimsheim - Pforzheim-Nord (Stuttgart -> Karlsruhe): a warning (Autobahn
    /// GmbH notice, not a delay figure)`.
    public var line: String {
        "Incident: \(title)" + (direction.map { " (\($0))" } ?? "") + ": \(what) (Autobahn GmbH notice, not a delay figure)"
    }

    /// The incidents of `incidents` in force at `moment` within `AutobahnIncidents.nearRoute` of
    /// `line`, once each, in the order given.
    public static func near(_ line: RouteLine, in incidents: [Incident], at moment: Date) -> [Incident] {
        var seen = Set<String>()
        return incidents.filter { incident in
            incident.isInForce(at: moment) && line.roads.contains(incident.road)
                && incident.points.contains { line.distance(to: $0) <= AutobahnIncidents.nearRoute } && seen.insert(incident.id).inserted
        }
    }
}
