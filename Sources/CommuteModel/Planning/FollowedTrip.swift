import Basics
import FoundationEssentials

/// The transit trip a leave alert told the rider to take, followed until its line leaves the first
/// stop: asked about every few minutes, and the alert updated once for each change that matters
/// (cancelled, late or early past the follow-threshold, a connection broken). Kept with the open
/// alert in `alerts.json`, which `tick` reads every minute anyway: with nothing to follow, nothing
/// more is read.
public struct FollowedTrip: Codable, Sendable, Equatable {
    public var route: RouteID
    /// The run the alert named.
    public var run: TransitRun
    /// `545 to Redmond`.
    public var service: String
    /// The planner's ID for the itinerary (Transitous's `refresh-itinerary` takes it); nil for GTFS.
    public var itinerary: String?
    /// What the rider was last told: when the line leaves its stop, when the trip arrives, when to
    /// leave the door.
    public var boarding: Date
    public var arrival: Date
    public var leave: Date
    /// The arrival the alert promised to make (an arrive-by schedule's, less nothing).
    public var deadline: Date
    /// When it was last asked about (first: when the alert went), and the requests spent on it.
    public var checkedAt: Date
    public var requests: Int
    /// The follow-ups sent so far.
    public var followUps: Int
    /// Why following stopped before the line left (the day's budget spent); nil while it goes on.
    public var stopped: String?
    /// What the last follow-up said (its title); nil before one.
    public var said: String?

    public init(route: RouteID, departure: TransitDeparture, walkMinutes: Int, deadline: Date, at moment: Date) {
        self.route = route
        run = departure.run
        service = TransitText.service(departure)
        itinerary = departure.itinerary
        boarding = departure.boarding
        arrival = departure.arrival
        leave = Self.door(departure, walkMinutes: walkMinutes)
        self.deadline = deadline
        checkedAt = moment
        requests = 0
        followUps = 0
    }

    /// When to leave the door for `departure`: a door-to-door itinerary's start, else its stop's
    /// time less the walk.
    public static func door(_ departure: TransitDeparture, walkMinutes: Int) -> Date {
        departure.legs != nil ? departure.expected : departure.expected.addingTimeInterval(-TimeInterval(walkMinutes * 60))
    }

    /// Asked about every 6 minutes, more often as the line's time nears (half the time left,
    /// never twice in 2 minutes), the last time at least 2 minutes before it leaves (after that
    /// the rider is at the stop), and never more than `largestRequestCount` requests in all: 30
    /// minutes of following are 5 looks, with room for the plan a cancellation asks.
    public static let interval: TimeInterval = 360
    public static let shortestInterval: TimeInterval = 120
    public static let lastLookBefore: TimeInterval = 120
    public static let largestRequestCount = 6

    /// When it is next asked about; nil when following is over (the line leaves too soon, or it
    /// stopped).
    public var nextCheck: Date? {
        guard stopped == nil, requests < Self.largestRequestCount else { return nil }
        let left = boarding.timeIntervalSince(checkedAt)
        let next = checkedAt.addingTimeInterval(max(Self.shortestInterval, min(Self.interval, left / 2)))
        return next <= boarding.addingTimeInterval(-Self.lastLookBefore) ? next : nil
    }

    public func isDue(at moment: Date) -> Bool { nextCheck.map { $0 <= moment } ?? false }
}

/// What following found: the words of the alert's update, and the trip followed from now on.
public struct FollowUp: Sendable, Equatable {
    /// `Your 8:35 AM 545 to Redmond is cancelled: take the 8:50 AM (leave 8:44 AM)`.
    public var title: String
    /// What it means for the arrival, and the service alerts on the way.
    public var lines: [String]
    /// Why it was sent, for the ledger: `cancelled`, `12 min late`, `connection broken`.
    public var reason: String
    public var next: FollowedTrip

    /// What changed since the rider was last told, when it matters: `found` is the followed run as
    /// the planner or the realtime feed has it now (nil: not known, which is no news); `later` the
    /// runs that could be taken instead. Nil when nothing changed past `threshold` minutes.
    public static func judge(
        _ trip: FollowedTrip, found: TransitDeparture?, later: [TransitDeparture], walkMinutes: Int, threshold: Int, at moment: Date,
        calendar: ZonedCalendar
    ) -> FollowUp? {
        guard let found else { return nil }
        let time = { (date: Date) in TimeFormatting.moment(date, relativeTo: trip.deadline, calendar: calendar) }
        let named = "\(time(found.scheduledBoarding)) \(trip.service)"
        let broken = found.legs.map { legs in
            let rides = legs.filter { !$0.isWalk }
            return rides.first.map { !$0.cancelled } ?? false && rides.dropFirst().contains(where: \.cancelled)
        } ?? false
        if found.canceled || found.skipped || broken {
            let what = broken
                ? (found.legs?.filter { !$0.isWalk }.dropFirst().first(where: \.cancelled)).map { leg in
                    "Your connection is broken: the \(leg.line ?? leg.mode.lowercased()) at \(time(leg.scheduledDeparture)) is cancelled"
                } ?? "Your connection is broken"
                : found.skipped ? "Your \(named) skips your stop" : "Your \(named) is cancelled"
            let instead = later
                .filter { !$0.canceled && !$0.skipped && !$0.dropped && !$0.isSameRun(as: found) && FollowedTrip.door($0, walkMinutes: walkMinutes) >= moment }
                .min { $0.expected < $1.expected }
            guard let instead else {
                var last = stopped(trip, at: moment)
                last.said = "\(what): no later run is known"
                return FollowUp(
                    title: "\(what): no later run is known", lines: ["Look again: `traveltimes route \(trip.route)`"],
                    reason: broken ? "connection broken; no later run" : "cancelled; no later run", next: last)
            }
            let leave = FollowedTrip.door(instead, walkMinutes: walkMinutes)
            var next = FollowedTrip(route: trip.route, departure: instead, walkMinutes: walkMinutes, deadline: trip.deadline, at: moment)
            next.requests = trip.requests
            next.followUps = trip.followUps + 1
            next.said = "\(what): take the \(time(instead.boarding)) (leave \(time(leave)))"
            return FollowUp(
                title: "\(what): take the \(time(instead.boarding)) (leave \(time(leave)))",
                lines: [arriving(instead.arrival, by: trip.deadline, service: TransitText.service(instead), time: time)] + notices(instead),
                reason: broken ? "connection broken" : found.skipped ? "skips the stop" : "cancelled", next: next)
        }
        let moved = Int((found.boarding.timeIntervalSince(trip.boarding) / 60).rounded())
        let arrivalMoved = Int((found.arrival.timeIntervalSince(trip.arrival) / 60).rounded())
        guard abs(moved) >= threshold || abs(arrivalMoved) >= threshold else { return nil }
        var next = trip
        next.boarding = found.boarding
        next.arrival = found.arrival
        next.leave = FollowedTrip.door(found, walkMinutes: walkMinutes)
        next.checkedAt = moment
        next.followUps += 1
        let late = Int((found.boarding.timeIntervalSince(found.scheduledBoarding) / 60).rounded())
        let title: String
        let reason: String
        if abs(moved) >= threshold, moved > 0 {
            title = "The \(named) runs \(late > 0 ? late : moved) min late: " + arrivalPhrase(found.arrival, by: trip.deadline, time: time)
            reason = "\(late > 0 ? late : moved) min late"
        } else if abs(moved) >= threshold {
            let early = max(-moved, -late)
            title = "The \(named) leaves \(early) min early, at \(time(found.boarding)): "
                + (next.leave > moment ? "leave by \(time(next.leave))" : "leave now")
            reason = "\(early) min early"
        } else {
            title = "Your connection on the \(named) is \(arrivalMoved > 0 ? "late" : "earlier"): " + arrivalPhrase(found.arrival, by: trip.deadline, time: time)
            reason = "arrival moved \(TimeFormatting.delay(arrivalMoved))"
        }
        next.said = title
        return FollowUp(title: title, lines: notices(found), reason: reason, next: next)
    }

    /// `you still arrive 8:58 AM`, `you arrive 9:09 AM, 9 min late`.
    static func arrivalPhrase(_ arrival: Date, by deadline: Date, time: (Date) -> String) -> String {
        let late = Int((arrival.timeIntervalSince(deadline) / 60).rounded(.up))
        return late > 0 ? "you arrive \(time(arrival)), \(late) min late" : "you still arrive \(time(arrival))"
    }

    /// `The 545 to Redmond arrives 8:58 AM, in time` or `…, 9 min late`.
    static func arriving(_ arrival: Date, by deadline: Date, service: String, time: (Date) -> String) -> String {
        let late = Int((arrival.timeIntervalSince(deadline) / 60).rounded(.up))
        return "The \(service) arrives \(time(arrival)), " + (late > 0 ? "\(late) min late" : "in time")
    }

    static func notices(_ departure: TransitDeparture) -> [String] { (departure.notices ?? []).map { "Service alert: \($0)" } }

    static func stopped(_ trip: FollowedTrip, at moment: Date) -> FollowedTrip {
        var next = trip
        next.checkedAt = moment
        next.followUps += 1
        next.stopped = "no later run is known"
        return next
    }
}
