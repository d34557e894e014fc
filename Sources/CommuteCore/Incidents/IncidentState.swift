import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `incidents.json`: each car route's line as its engine drew it (`RouteLine`), and, for each
/// motorway those lines use, the incident feed's items near them and when it was last asked. A
/// refresh writes it; `route ID` and alerts read the items on a route. Part of the routes domain.
public struct IncidentState: StoreDocument, Equatable {
    public static let fileName = "incidents.json"
    public static let domain = StoreDomain.routes

    public var version: Int
    public var lines: [RouteID: RouteLine]
    public var roads: [String: Road]
    /// When OSRM was last asked to draw a keyed route's line (its own provider draws none): at
    /// most daily.
    public var drawnAt: [RouteID: Date]?

    /// One motorway as the feed last answered for it.
    public struct Road: Codable, Sendable, Equatable {
        public var checkedAt: Date
        /// The items near some route's line (the rest are not kept).
        public var incidents: [Incident]
        /// Why the last ask failed; nil when it did not.
        public var problem: String?

        public init(checkedAt: Date, incidents: [Incident], problem: String? = nil) {
            self.checkedAt = checkedAt
            self.incidents = incidents
            self.problem = problem
        }
    }

    public init() {
        version = Self.currentVersion
        lines = [:]
        roads = [:]
    }

    public static let currentVersion = 1
    public static var empty: IncidentState { IncidentState() }
    /// The most routes with a line, roads and items of a road kept.
    static let largestLineCount = 10_000
    static let largestRoadCount = 400
    static let largestIncidentCount = 500

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(lines.count <= Self.largestLineCount, "lines holds too many routes")
        for (id, line) in lines {
            try DocumentProblem.check(id.isValid, "lines has a key that is not a route's ID")
            try DocumentProblem.check(line.points.count <= RouteLine.largestPointCount && line.roads.count <= RouteLine.largestRoadCount, "lines[\(id)] is too long")
            try DocumentProblem.check(line.roads.allSatisfy { !RouteLine.motorways(in: $0).isEmpty }, "lines[\(id)] names a road that is not a motorway")
        }
        try DocumentProblem.check((drawnAt ?? [:]).count <= Self.largestLineCount, "drawnAt holds too many routes")
        for (id, date) in drawnAt ?? [:] {
            try DocumentProblem.check(id.isValid, "drawnAt has a key that is not a route's ID")
            try DocumentProblem.date(date, "drawnAt[\(id)]")
        }
        try DocumentProblem.check(roads.count <= Self.largestRoadCount, "roads holds too many")
        for (name, road) in roads {
            try DocumentProblem.check(RouteLine.motorways(in: name) == [name], "roads has a key that is not a motorway")
            try DocumentProblem.date(road.checkedAt, "roads[\(name)].checkedAt")
            try DocumentProblem.check(road.incidents.count <= Self.largestIncidentCount, "roads[\(name)] holds too many incidents")
            for incident in road.incidents {
                for text in [incident.id, incident.title, incident.kind] + (incident.direction.map { [$0] } ?? []) {
                    try DocumentProblem.check(text.count <= 400 && DisplayText.line(text) == text, "roads[\(name)] has an incident whose text is not one short line")
                }
                try DocumentProblem.check(!incident.points.isEmpty && incident.points.count <= 65, "roads[\(name)] has an incident with no place")
            }
            if let problem = road.problem { try DocumentProblem.check(problem.count <= 400 && DisplayText.line(problem) == problem, "roads[\(name)].problem is not one line") }
        }
    }
}
