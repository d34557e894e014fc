import Basics
import FoundationEssentials

/// A provider's answer for leaving at a moment: TomTom's `departAt`, HERE's and Google's
/// `departureTime` predict the traffic then. An answer for leaving now is a reading; an answer for
/// later is kept beside it, and the leave time for that moment rests on it.
public struct Prediction: Codable, Sendable, Equatable {
    /// The moment of leaving the answer is for.
    public var departure: Date
    public var minutes: Int
    /// The time to the second, when the answer gave it: what a leave time is planned on.
    public var seconds: Double?
    /// The provider's usual time then, where it gave one.
    public var usualMinutes: Int?
    /// When it was asked.
    public var askedAt: Date

    public init(departure: Date, minutes: Int, seconds: Double? = nil, usualMinutes: Int? = nil, askedAt: Date) {
        self.departure = departure
        self.minutes = minutes
        self.seconds = seconds
        self.usualMinutes = usualMinutes
        self.askedAt = askedAt
    }

    /// How far an answer serves another departure as it is; between two answers this far apart the
    /// time is drawn as a straight line.
    public static let serves: TimeInterval = 90
    public static let stretch: TimeInterval = 20 * 60
    /// The farthest an answer stands in for a departure with no answer nearer.
    public static let reach: TimeInterval = 5 * 60
    /// A later answer replaces earlier ones this near its departure: the roads changed since.
    public static let supersedes: TimeInterval = 15 * 60
    /// A reading of now this near a departure moves its prediction by today's traffic: the
    /// prediction times the reading over its usual time (a provider predicts a later departure from
    /// the usual traffic then; TomTom documents it: its delay is 0).
    public static let readingServes: TimeInterval = 30 * 60
    /// A route whose answer moved this much from what was predicted for about the same moment is
    /// moving (an incident, the rush building): asked again without waiting for the plan.
    public static let movingMinutes = 3
    public static let movingFor: TimeInterval = 30 * 60
    /// The most answers a route keeps.
    public static let kept = 12
}

extension Route {
    /// Its reading of now as a factor on the usual time (`1.3`: 30% slower than usual), when the
    /// provider's usual time is a usual one (not Google's free flow) and the reading is live.
    private var todayFactor: Double? {
        guard hasLiveTime, suspiciousMinutes == nil, let current = currentMinutes, let usual = averageMinutes, usual > 0,
            provider?.descriptor.usualIsFreeFlow == false
        else { return nil }
        return min(4, max(0.25, custom?.readingFactor ?? Double(current) / Double(usual)))
    }

    /// Its time for leaving at `departure`. From its predictions: the newest within
    /// `Prediction.serves`, else a straight line between the two either side (at most `stretch`
    /// apart), else the nearest within `reach`. A reading of now newer than that and within
    /// `readingServes` of the departure moves it by today's traffic (and dates it). With no
    /// prediction that near, the reading itself when within `reach`; else nil.
    public func predicted(leavingAt departure: Date) -> Prediction? {
        let reading = hasLiveTime && suspiciousMinutes == nil ? currentMinutes.map {
            Prediction(departure: updatedAt, minutes: $0, usualMinutes: averageMinutes, askedAt: updatedAt)
        } : nil
        guard var base = Self.drawn(custom?.predictions ?? [], at: departure) else {
            guard let reading, abs(reading.departure.timeIntervalSince(departure)) <= Prediction.reach else { return nil }
            return Prediction(departure: departure, minutes: reading.minutes, usualMinutes: reading.usualMinutes, askedAt: reading.askedAt)
        }
        if let reading, reading.askedAt >= base.askedAt, abs(departure.timeIntervalSince(reading.departure)) <= Prediction.readingServes,
            let factor = todayFactor
        {
            base.seconds = (base.seconds ?? Double(base.minutes * 60)) * factor
            base.minutes = max(1, Int(((base.seconds ?? 60) / 60).rounded()))
            base.askedAt = reading.askedAt
        }
        return base
    }

    /// The time at `departure` drawn from `answers`, as `predicted(leavingAt:)` says.
    private static func drawn(_ answers: [Prediction], at departure: Date) -> Prediction? {
        guard !answers.isEmpty else { return nil }
        func distance(_ answer: Prediction) -> TimeInterval { abs(answer.departure.timeIntervalSince(departure)) }
        func seconds(_ answer: Prediction) -> Double { answer.seconds ?? Double(answer.minutes * 60) }
        func at(_ seconds: Double, usual: Int?, askedAt: Date) -> Prediction {
            Prediction(departure: departure, minutes: max(1, Int((seconds / 60).rounded())), seconds: seconds, usualMinutes: usual, askedAt: askedAt)
        }
        if let near = answers.filter({ distance($0) <= Prediction.serves }).max(by: { $0.askedAt < $1.askedAt }) {
            return at(seconds(near), usual: near.usualMinutes, askedAt: near.askedAt)
        }
        if let before = answers.last(where: { $0.departure < departure }), let after = answers.first(where: { $0.departure > departure }),
            after.departure.timeIntervalSince(before.departure) <= Prediction.stretch
        {
            let share = departure.timeIntervalSince(before.departure) / after.departure.timeIntervalSince(before.departure)
            let usual = before.usualMinutes.flatMap { first in
                after.usualMinutes.map { Int((Double(first) + share * Double($0 - first)).rounded()) }
            }
            return at(seconds(before) + share * (seconds(after) - seconds(before)), usual: usual, askedAt: min(before.askedAt, after.askedAt))
        }
        guard let nearest = answers.min(by: { distance($0) < distance($1) }), distance(nearest) <= Prediction.reach else { return nil }
        // Two on its side, near enough: the line through them, carried on.
        let side = answers.filter { ($0.departure < departure) == (nearest.departure < departure) && $0 != nearest }
        if let second = side.min(by: { distance($0) < distance($1) }), abs(second.departure.timeIntervalSince(nearest.departure)) >= 60,
            abs(second.departure.timeIntervalSince(nearest.departure)) <= Prediction.stretch
        {
            let slope = (seconds(nearest) - seconds(second)) / nearest.departure.timeIntervalSince(second.departure)
            return at(
                max(60, seconds(nearest) + slope * departure.timeIntervalSince(nearest.departure)), usual: nearest.usualMinutes,
                askedAt: min(nearest.askedAt, second.askedAt))
        }
        return at(seconds(nearest), usual: nearest.usualMinutes, askedAt: nearest.askedAt)
    }

    /// The route as it would be for leaving at `departure`: its time is the prediction for then
    /// (its age the prediction's), and it says so. A route with no prediction that near, a
    /// transit route and an estimate are as they are.
    public func leaving(at departure: Date) -> Route {
        guard custom?.predictions?.isEmpty == false, hasLiveTime, provider?.isTransit != true,
            let prediction = predicted(leavingAt: departure)
        else { return self }
        // The reading of now is itself the answer: nothing to say.
        if prediction.askedAt == updatedAt, prediction.minutes == currentMinutes, abs(departure.timeIntervalSince(updatedAt)) <= Prediction.serves {
            return self
        }
        var route = self
        route.currentMinutes = prediction.minutes
        route.averageMinutes = prediction.usualMinutes ?? averageMinutes
        route.updatedAt = prediction.askedAt
        route.custom?.predictedFor = departure
        return route
    }

    /// The route as it would be for arriving by `target`, leaving when its predictions say: the
    /// departure whose prediction lands it on `target` (found by stepping, at most six times).
    public func leaving(arrivingBy target: Date) -> Route {
        // From the prediction that lands nearest the target.
        func seconds(_ answer: Prediction) -> Double { answer.seconds ?? Double(answer.minutes * 60) }
        guard hasLiveTime, let start = (custom?.predictions ?? []).min(by: { lhs, rhs in
            abs(lhs.departure.addingTimeInterval(seconds(lhs)).timeIntervalSince(target)) < abs(rhs.departure.addingTimeInterval(seconds(rhs)).timeIntervalSince(target))
        }) else { return self }
        var departure = target.addingTimeInterval(-seconds(start))
        // Where nothing draws the time between, the nearest prediction's, flat.
        var taken: Double? = seconds(start)
        for _ in 0..<6 {
            guard let prediction = predicted(leavingAt: departure) else { break }
            let seconds = prediction.seconds ?? Double(prediction.minutes * 60)
            let next = target.addingTimeInterval(-seconds)
            taken = seconds
            defer { departure = next }
            if abs(next.timeIntervalSince(departure)) < 20 { break }
        }
        guard let taken else { return self }
        // Planned to the second: the latest whole minute from which the prediction arrives by the
        // target (the minute the stepping landed near, or one either side).
        func arrives(_ minute: Date) -> Bool {
            let seconds = predicted(leavingAt: minute).map { $0.seconds ?? Double($0.minutes * 60) } ?? taken
            return minute.addingTimeInterval(seconds) <= target
        }
        var minute = Date(timeIntervalSince1970: (departure.timeIntervalSince1970 / 60).rounded(.down) * 60)
        if arrives(minute.addingTimeInterval(60)) {
            minute = minute.addingTimeInterval(60)
        } else if !arrives(minute) {
            minute = minute.addingTimeInterval(-60)
        }
        var route = leaving(at: minute)
        if route.custom?.predictedFor == nil {
            // Nothing draws that minute: the nearest prediction, as it is (a question about it is
            // asked in the same refresh).
            route.averageMinutes = start.usualMinutes ?? averageMinutes
            route.updatedAt = start.askedAt
            route.custom?.predictedFor = minute
        }
        route.currentMinutes = max(1, Int((target.timeIntervalSince(minute) / 60).rounded(.up)))
        return route
    }

    /// The same routes of `ids` as they would be for leaving at `departure`, by ID.
    public static func leaving(_ ids: [RouteID], _ routes: [RouteID: Route], at departure: Date) -> [RouteID: Route] {
        Dictionary(ids.compactMap { id in routes[id].map { (id, $0.leaving(at: departure)) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Keeps a provider's answer for leaving at `departure`, asked `now`: answers asked before
    /// this refresh for about the same moment give way to it (the roads changed since), and when
    /// it moved from them by `Prediction.movingMinutes` or more the route is moving.
    public mutating func keep(_ answer: Prediction, now: Date) {
        guard custom != nil else { return }
        var kept = (custom?.predictions ?? []).filter { $0.departure >= now.addingTimeInterval(-Prediction.supersedes) }
        let earlier = kept.filter {
            $0.askedAt < now.addingTimeInterval(-60) && abs($0.departure.timeIntervalSince(answer.departure)) <= Prediction.supersedes
        }
        if let previous = predicted(leavingAt: answer.departure), previous.askedAt < now.addingTimeInterval(-60),
            abs(previous.minutes - answer.minutes) >= Prediction.movingMinutes
        {
            custom?.movingSince = now
        } else if let since = custom?.movingSince, now.timeIntervalSince(since) > Prediction.movingFor {
            custom?.movingSince = nil
        }
        kept.removeAll { old in earlier.contains(old) || abs(old.departure.timeIntervalSince(answer.departure)) < 30 }
        kept.append(answer)
        custom?.predictions = Array(kept.sorted { $0.askedAt > $1.askedAt }.prefix(Prediction.kept)).sorted { $0.departure < $1.departure }
    }

    /// Whether its predictions draw its time at `departure` closely: one within `serves` of it, or
    /// one either side at most `stretch` apart.
    public func isWellPredicted(at departure: Date) -> Bool {
        let answers = custom?.predictions ?? []
        if answers.contains(where: { abs($0.departure.timeIntervalSince(departure)) <= Prediction.serves }) { return true }
        if let before = answers.last(where: { $0.departure < departure }), let after = answers.first(where: { $0.departure > departure }),
            after.departure.timeIntervalSince(before.departure) <= Prediction.stretch
        {
            return true
        }
        // Or two on one side, the nearer within a few minutes: the line through them holds (one
        // answer alone, carried flat, does not).
        guard let nearest = answers.min(by: { abs($0.departure.timeIntervalSince(departure)) < abs($1.departure.timeIntervalSince(departure)) }),
            abs(nearest.departure.timeIntervalSince(departure)) <= Prediction.reach
        else { return false }
        return answers.contains { other in
            other != nearest && (other.departure < departure) == (nearest.departure < departure)
                && (60...Prediction.stretch).contains(abs(other.departure.timeIntervalSince(nearest.departure)))
        }
    }

    /// A reading of now (`factor`: over the usual time then): when today's traffic moved by
    /// `Prediction.movingMinutes` or more since the reading before (within 90 minutes), the route
    /// is moving — an incident, the rush building, not a day heavier or lighter than usual.
    public mutating func noteReading(minutes: Int, factor: Double?, now: Date) {
        if let factor, let before = custom?.readingFactor, updatedAt <= now, now.timeIntervalSince(updatedAt) <= 90 * 60,
            abs(factor - before) * Double(minutes) >= Double(Prediction.movingMinutes)
        {
            custom?.movingSince = now
        } else if let since = custom?.movingSince, now.timeIntervalSince(since) > Prediction.movingFor {
            custom?.movingSince = nil
        }
    }

    /// Whether its answers moved fast within `Prediction.movingFor` of `now`.
    public func isMoving(at now: Date) -> Bool {
        guard let since = custom?.movingSince, since <= now else { return false }
        return now.timeIntervalSince(since) <= Prediction.movingFor
    }
}
