import FoundationEssentials

/// The ways of one commute side by side, now: each way's time and what it rests on, against its
/// usual time; which is best and by how much. A free-flow estimate is shown as one and never wins
/// on its own: only a live time, or a usual time from the route's history, competes.
public struct WayComparison: Sendable, Equatable {
    public struct Way: Sendable, Equatable {
        public enum Basis: String, Sendable, Equatable {
            /// A live (or timetable-and-realtime) time, fresh.
            case live
            /// No live time: the route's usual (median) time for this weekday and quarter hour.
            case usual
            /// Neither: nothing competes (a free-flow estimate is shown beside it, if any).
            case none
        }

        public var routeID: RouteID
        public var name: String
        public var basis: Basis
        /// What it competes with: the live minutes, or the usual ones rounded; nil for `none`.
        public var minutes: Int?
        /// An open engine's free-flow estimate, shown as one.
        public var estimate: Int?
        /// Its usual time now, where the history has enough readings.
        public var usual: TypicalTime?
        /// When its time was read.
        public var readAt: Date?

        public init(routeID: RouteID, name: String, basis: Basis, minutes: Int?, estimate: Int?, usual: TypicalTime?, readAt: Date?) {
            self.routeID = routeID
            self.name = name
            self.basis = basis
            self.minutes = minutes
            self.estimate = estimate
            self.usual = usual
            self.readAt = readAt
        }

        /// Live minutes over (or under) the usual time, where both are known.
        public var versusUsual: Int? {
            guard basis == .live, let minutes, let usual else { return nil }
            return minutes - TypicalTime.whole(usual.median)
        }
    }

    public var name: String
    public var ways: [Way]

    public init(name: String, ways: [Way]) {
        self.name = name
        self.ways = ways
    }

    /// The way with the fewest minutes among those that compete (the first listed on a tie).
    public var best: Way? {
        ways.filter { $0.minutes != nil }.min { ($0.minutes ?? .max) < ($1.minutes ?? .max) }
    }

    /// How many minutes the best way saves over the next one that competes.
    public var margin: Int? {
        guard let best, let bestMinutes = best.minutes else { return nil }
        return ways.filter { $0.routeID != best.routeID }.compactMap(\.minutes).min().map { $0 - bestMinutes }
    }

    /// Slower than usual by this much or more is said as "+N vs usual".
    public static let notableDelay = 5

    /// `bus 42 min (usual 44); drive 55 min (+18 vs usual): take bus, 13 min faster.`
    public var sentence: String {
        let parts = ways.map { way -> String in
            switch way.basis {
            case .live:
                guard let minutes = way.minutes else { return "\(way.name): no time now" }
                if let over = way.versusUsual, over >= Self.notableDelay { return "\(way.name) \(minutes) min (+\(over) vs usual)" }
                if let usual = way.usual { return "\(way.name) \(minutes) min (usual \(TypicalTime.whole(usual.median)))" }
                return "\(way.name) \(minutes) min (no usual time yet)"
            case .usual:
                let estimate = way.estimate.map { "; free-flow estimate \($0)" } ?? ""
                return "\(way.name) usually \(way.minutes ?? 0) min (no live time\(estimate))"
            case .none:
                if let estimate = way.estimate { return "\(way.name) ~\(estimate) min (free-flow estimate, no traffic; no usual time yet)" }
                return "\(way.name): no live or usual time"
            }
        }
        return parts.joined(separator: "; ") + ": " + verdict
    }

    /// `take bus, 13 min faster.`
    public var verdict: String {
        guard let best else { return "no way has a live or usual time to compare." }
        guard let margin else { return "only \(best.name) has a live or usual time." }
        if margin == 0 { return "\(best.name) and the next way take the same time." }
        return "take \(best.name), \(margin) min faster."
    }
}
