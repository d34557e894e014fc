import CommuteCore
import Foundation

extension Commands {
    static let routes = Command(
        name: "routes",
        summary: "List cached routes with current and average times and delay status",
        options: [
            OptionSpec(name: "--search", value: "TEXT", help: "Only routes whose name or description contains TEXT (any case)"),
            Options.json, Options.now,
        ]
    ) { invocation in
        let commute = try invocation.commute()
        let cache = try commute.store.routes()
        guard !cache.routes.isEmpty else { throw CommuteError.noRouteData }
        var routes = cache.routes
        if let text = invocation.arguments.value("--search") {
            routes = routes.filter { $0.matches(text) }
        }
        if invocation.wantsJSON {
            try invocation.printJSON(routes.map { RouteJSON($0, calendar: commute.calendar) })
            return
        }
        guard !routes.isEmpty else {
            invocation.io.out("No routes match '\(invocation.arguments.value("--search") ?? "")'.")
            return
        }
        var table = Table([.right, .left, .right, .right, .right, .left, .left])
        table.add(["ID", "NAME", "NOW", "AVG", "DELAY", "STATUS", "UPDATED"])
        for route in routes {
            table.add([
                route.id, route.name, minutes(route.currentMinutes), minutes(route.averageMinutes),
                route.delayMinutes.map(TimeFormatting.delay) ?? "-", route.status.rawValue,
                TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: commute.calendar),
            ])
        }
        table.render().forEach(invocation.io.out)
    }

    static func minutes(_ value: Int?) -> String { value.map { "\($0) min" } ?? "-" }
}

extension Route {
    /// Case-insensitive match on name and description.
    func matches(_ text: String) -> Bool {
        let needle = text.lowercased()
        return name.lowercased().contains(needle) || (description?.lowercased().contains(needle) ?? false)
    }
}

/// `routes --json`: a public contract.
struct RouteJSON: Encodable {
    var id: String
    var name: String
    var description: String?
    var currentMinutes: Int?
    var averageMinutes: Int?
    var delayMinutes: Int?
    var status: String
    var distanceMiles: Double?
    var updatedAt: String

    init(_ route: Route, calendar: ZonedCalendar) {
        id = route.id
        name = route.name
        description = route.description
        currentMinutes = route.currentMinutes
        averageMinutes = route.averageMinutes
        delayMinutes = route.delayMinutes
        status = route.status.rawValue
        distanceMiles = route.distanceMiles
        updatedAt = TimeFormatting.iso8601(route.updatedAt, calendar: calendar)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, description, currentMinutes, averageMinutes, delayMinutes, status, distanceMiles, updatedAt
    }

    /// Missing values are written as `null`, never left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(currentMinutes, forKey: .currentMinutes)
        try container.encode(averageMinutes, forKey: .averageMinutes)
        try container.encode(delayMinutes, forKey: .delayMinutes)
        try container.encode(status, forKey: .status)
        try container.encode(distanceMiles, forKey: .distanceMiles)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
