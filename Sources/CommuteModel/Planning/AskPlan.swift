import Basics
import FoundationEssentials

/// When a custom route is asked about, planned from its alerts: once when an alert's window opens
/// (about the moment the rider will leave), again close to the moment the alert is sent, and in
/// between only while its answers move fast. One answer serves every alert on the route that
/// leaves about then; a route is never asked twice in a minute. Pure: the refresh gives it the
/// route, the alerts ahead and the time.
public enum AskPlan {
    /// One alert's need of a route.
    public struct Occasion: Sendable, Equatable {
        /// When the alert goes out: the leave time of an arrive-by alert, the time of a fixed one.
        public var send: Date
        /// The planned moment of leaving.
        public var departure: Date
        /// For an arrive-by alert, when the rider must arrive, less the minutes to spare: the
        /// departure moves with each answer. Nil for a fixed time.
        public var target: Date?
        /// `the 9:00 AM arrive-by alert`, `the 7:00 AM alert`: what the reasons name.
        public var label: String
        /// When its window opened: answers asked before are another morning's.
        public var opens: Date

        public init(send: Date, departure: Date, target: Date?, label: String, opens: Date) {
            self.opens = opens
            self.send = send
            self.departure = departure
            self.target = target
            self.label = label
        }
    }

    /// Why a route is asked now.
    public enum Why: Sendable, Equatable {
        /// No answer yet serves this alert's moment: its window opened.
        case first
        /// Close to the moment the alert is sent: the answer it goes out with.
        case final
        /// Its answers moved fast (an incident, the rush building): asked again sooner.
        case moving
        /// The last answer moved the departure by a minute or more: asked about the new one.
        case converge
    }

    /// One question to ask, and for which alert.
    public struct Ask: Sendable, Equatable {
        public var query: RoutingQuery
        public var why: Why
        public var occasion: Occasion

        /// `first ask for the 9:00 AM arrive-by alert, leaving 8:05 AM`.
        public func reason(calendar: ZonedCalendar) -> String {
            let moment = query.leavingNow ? "leaving now" : query.arriveBy
                ? "arriving by \(calendar.local(query.time).time.label)" : "leaving \(calendar.local(query.time).time.label)"
            return switch why {
            case .first: "first ask for \(occasion.label), \(moment)"
            case .final: "last ask before \(occasion.label) goes out, \(moment)"
            case .moving: "its times are moving fast: asked again for \(occasion.label), \(moment)"
            case .converge: "the answer moved the departure: asked again for \(occasion.label), \(moment)"
            }
        }
    }

    /// What the plan says for a route now.
    public enum Decision: Sendable, Equatable {
        case ask(Ask)
        /// Not now; `next` is when the plan asks again (nil: no alert ahead needs it).
        case wait(last: Date?, next: Date?, occasion: Occasion?)
    }

    /// How long before an alert goes out its last ask is made.
    public static let finalLead: TimeInterval = 12 * 60
    /// An answer asked this close before an alert is its last one, even when the alert moved
    /// later since (a leave time the last answer put later is not asked about again).
    public static let finalReach: TimeInterval = 25 * 60
    /// How often a moving route is asked.
    public static let movingEvery: TimeInterval = 5 * 60

    /// What to ask about `route` now for the `occasions` ahead (those sent from a minute ago on).
    public static func decide(_ route: Route, occasions: [Occasion], now: Date) -> Decision {
        let open = occasions.filter { $0.send >= now.addingTimeInterval(-60) }.sorted { $0.send < $1.send }
        let last = route.custom?.triedAt
        guard let soonest = open.first else { return .wait(last: last, next: nil, occasion: nil) }
        // Never twice in one minute, whatever asked before (another alert, another process).
        if let last, last <= now, minute(last) == minute(now) { return .wait(last: last, next: nil, occasion: soonest) }
        let transit = route.provider?.isTransit == true
        for occasion in open {
            let query = query(for: occasion, transit: transit, now: now)
            guard let asked = answered(route, occasion, transit: transit, now: now) else {
                return .ask(Ask(query: query, why: .first, occasion: occasion))
            }
            // Close to the alert, a car route is read now: today's traffic moves its prediction.
            let late = transit || route.provider?.descriptor.usualIsFreeFlow == true ? query : .now(now)
            if now >= occasion.send.addingTimeInterval(-finalLead), asked < occasion.send.addingTimeInterval(-finalReach) {
                return .ask(Ask(query: late, why: .final, occasion: occasion))
            }
            if !transit, route.isMoving(at: now), now.timeIntervalSince(max(asked, last ?? asked)) >= movingEvery {
                return .ask(Ask(query: late, why: .moving, occasion: occasion))
            }
        }
        let next = open.map { $0.send.addingTimeInterval(-finalLead) }.filter { $0 > now }.min()
        return .wait(last: last, next: route.isMoving(at: now) ? last.map { max(now, $0.addingTimeInterval(movingEvery)) } ?? next : next, occasion: soonest)
    }

    /// After an answer to `ask` (`answered`: the route with it): the question about the departure
    /// it moved an arrive-by alert to, when no prediction draws that one closely; nil otherwise.
    public static func converge(after ask: Ask, answered route: Route, now: Date) -> Ask? {
        guard ask.why != .converge, route.provider?.predictsTraffic == true, let target = ask.occasion.target,
            let answer = route.predicted(leavingAt: ask.query.leavingNow ? now : ask.query.time)
        else { return nil }
        // Where the answer moves the departure: where the predictions land it, when they draw it.
        let moved = route.leaving(arrivingBy: target).custom?.predictedFor ?? target.addingTimeInterval(-(answer.seconds ?? Double(answer.minutes * 60)))
        let departure = Date(timeIntervalSince1970: (moved.timeIntervalSince1970 / 60).rounded(.down) * 60)
        guard departure > now.addingTimeInterval(60), !route.isWellPredicted(at: departure) else { return nil }
        return Ask(query: RoutingQuery(time: departure, arriveBy: false), why: .converge, occasion: ask.occasion)
    }

    /// The question for an occasion: a car route about leaving then (now, when that is within a
    /// minute); a planner about arriving by the target, or leaving at the alert's time.
    static func query(for occasion: Occasion, transit: Bool, now: Date) -> RoutingQuery {
        if transit {
            return occasion.target.map { RoutingQuery(time: $0, arriveBy: true) } ?? RoutingQuery(time: max(now, occasion.send), arriveBy: false)
        }
        let departure = Date(timeIntervalSince1970: (max(now, occasion.departure).timeIntervalSince1970 / 60).rounded(.down) * 60)
        return departure <= now.addingTimeInterval(60) ? .now(now) : RoutingQuery(time: departure, arriveBy: false)
    }

    /// When the newest answer that serves an occasion was asked; nil when none does. A car
    /// route's: a prediction asked since the occasion's window opened for within half an hour of
    /// its departure, or a reading of now as near (once asked, the departure is refined by
    /// `converge`, not asked afresh). A planner's: a plan asked for its arrival (or covering its time).
    static func answered(_ route: Route, _ occasion: Occasion, transit: Bool, now: Date) -> Date? {
        guard let fetched = route.custom?.fetchedAt else { return nil }
        guard transit else {
            let departure = max(now, occasion.departure)
            func near(_ moment: Date) -> Bool { abs(moment.timeIntervalSince(departure)) <= Prediction.readingServes }
            var latest = (route.custom?.predictions ?? []).filter { $0.askedAt >= occasion.opens && near($0.departure) }.map(\.askedAt).max()
            if route.hasLiveTime, route.currentMinutes != nil, route.updatedAt >= occasion.opens, near(route.updatedAt) {
                latest = max(latest ?? route.updatedAt, route.updatedAt)
            }
            return latest
        }
        guard let plan = route.departures else { return nil }
        if let target = occasion.target {
            return (plan.coveredUntil ?? .distantPast) >= target ? fetched : nil
        }
        return plan.departures.contains { $0.expected >= occasion.send } ? fetched : nil
    }

    private static func minute(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / 60).rounded(.down)) }
}
