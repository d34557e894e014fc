/// The commute brief: the best and the worst route and what is delayed, as one plain sentence
/// (`Your morning commute looks mostly clear. Everett-Seattle is on time at 25 min, and
/// Seattle-Bellevue via 90 is running +6 min.`).
public struct CommuteBrief: Sendable, Equatable {
    /// How the commute looks overall.
    public enum Assessment: String, Sendable {
        case clear, mostlyClear = "mostly clear", slowing, congested, noData = "no data"
    }

    public var sentence: String
    public var assessment: Assessment
    /// Least and most delayed routes with data (the same route when only one has data).
    public var best: Route?
    public var worst: Route?
    /// Routes delayed by a minute or more, worst first.
    public var delayed: [Route]
    /// Routes without data, and IDs missing from the cache.
    public var noData: [Route]
    public var unavailable: [RouteID]

    /// The brief for these routes (in the user's order); `partOfDay` is `morning`, `afternoon` or
    /// `evening`. `staleAge` is how old the oldest stale data among them is (`15 h`), when some
    /// is: the brief then tells what the data said when measured, never that it is so now.
    public init(routeIDs: [RouteID], routes: [RouteID: Route], partOfDay: String, staleAge: String? = nil) {
        let present = routeIDs.compactMap { routes[$0] }
        unavailable = routeIDs.filter { routes[$0] == nil }
        // A bus with timetable times alone has no delay anyone measured: never "on time".
        let timetableOnly = present.filter { $0.isTimetableOnly && $0.currentMinutes != nil }
        // Nor a free-flow estimate: a time with no traffic in it.
        let estimated = present.filter { $0.freeFlowEstimate != nil }
        let measured = present.filter { route in !timetableOnly.contains { $0.id == route.id } && route.freeFlowEstimate == nil }
        noData = measured.filter { $0.delayMinutes == nil }
        // With data, least delayed first; ties keep the user's order.
        let ranked = measured.filter { $0.delayMinutes != nil }.enumerated()
            .sorted { ($0.element.delayMinutes ?? 0, $0.offset) < ($1.element.delayMinutes ?? 0, $1.offset) }
            .map(\.element)
        best = ranked.first
        worst = ranked.last
        delayed = ranked.filter { ($0.delayMinutes ?? 0) >= 1 }.reversed()
        // One congested route is news whatever the others do: never "mostly clear".
        let congested = ranked.contains { $0.status == .congested }
        assessment =
            if ranked.isEmpty { .noData }
            else if delayed.isEmpty { .clear }
            else if congested { .congested }
            else if delayed.count * 2 <= ranked.count { .mostlyClear }
            else { .slowing }

        var parts: [String] = []
        if let staleAge, assessment != .noData {
            let was = switch assessment {
            case .clear: "looked clear"
            case .mostlyClear: "looked mostly clear"
            case .slowing: "was slowing down"
            case .congested, .noData: "was congested"
            }
            parts.append("Your \(partOfDay) commute \(was) when last measured, \(staleAge) ago.")
        } else {
            switch assessment {
            case .noData where !timetableOnly.isEmpty || !estimated.isEmpty: parts.append("There is no live data for your \(partOfDay) commute right now.")
            case .noData: parts.append("There is no travel time data for your \(partOfDay) commute right now.")
            case .clear: parts.append("Your \(partOfDay) commute looks clear.")
            case .mostlyClear: parts.append("Your \(partOfDay) commute looks mostly clear.")
            case .slowing: parts.append("Your \(partOfDay) commute is slowing down.")
            case .congested: parts.append("Your \(partOfDay) commute is congested.")
            }
        }
        if let best, let worst {
            var clause = "\(best.name) is \(Self.phrase(best))"
            if worst != best { clause += ", and \(worst.name) is \(Self.phrase(worst))" }
            parts.append(clause + ".")
        }
        for route in timetableOnly {
            parts.append("\(route.name) takes \(route.currentMinutes ?? 0) min by the timetable (no live data).")
        }
        for route in estimated {
            let engine = route.estimateEngine.map { " from \($0.displayName)" } ?? ""
            parts.append("\(route.name) takes \(route.freeFlowEstimate ?? 0) min by a free-flow estimate\(engine) (no live traffic).")
        }
        if !noData.isEmpty {
            parts.append("No data for \(Self.list(noData.map(\.name))).")
        }
        if !unavailable.isEmpty {
            parts.append("\(Self.list(unavailable.map { "Route \($0)" })) \(unavailable.count == 1 ? "is" : "are") not in the latest feed.")
        }
        sentence = parts.joined(separator: " ")
    }

    /// `on time at 25 min`, `running +6 min` (the delay is what matters once there is one).
    static func phrase(_ route: Route) -> String {
        guard let delay = route.delayMinutes, let current = route.currentMinutes else { return "without data" }
        return delay <= 0 ? "on time at \(current) min" : "running +\(delay) min"
    }

    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        case 2: "\(names[0]) and \(names[1])"
        default: names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
    }

    /// `morning` before noon, `afternoon` before 5 PM, else `evening`.
    public static func partOfDay(hour: Int) -> String {
        hour < 12 ? "morning" : hour < 17 ? "afternoon" : "evening"
    }
}
