import FoundationEssentials

/// When to leave to arrive on time: the arrival, less the fastest of the schedule's routes as the
/// cache has it now, less the buffer. A pure function of the routes: every plan and every
/// delivery computes it again, so it moves with the traffic.
public struct LeaveTime: Sendable, Equatable {
    /// What the leave time rests on.
    public enum Basis: String, Sendable, Equatable {
        /// The fastest route's current time.
        case current
        /// No route has a current time: the least 90th percentile of their histories at the
        /// departure's quarter hour.
        case typical
        /// No route has a live time: an open engine's free-flow estimate, times `freeFlowMargin`.
        case freeFlow
        /// No route has a current time: the fastest usual time.
        case usual
        /// No time at all: an hour before the arrival.
        case noData
        /// `--on-time P%`: the route's recorded days, the P-th percentile, moved by today's live
        /// deviation from usual.
        case onTime
    }

    /// What an `--on-time` schedule's leave time rests on.
    public struct OnTime: Sendable, Equatable {
        public var percent: Int
        /// The departure planned from the recorded days; nil when they are too few (the leave
        /// time is then planned as without `--on-time`, and says so).
        public var planned: PlannedDeparture?
        /// The days with a reading near the departure, planned or not.
        public var days: Int
        /// Today's live time less the usual one, in minutes, added to the recorded estimate.
        public var deviation: Int?

        public init(percent: Int, planned: PlannedDeparture?, days: Int, deviation: Int? = nil) {
            self.percent = percent
            self.planned = planned
            self.days = days
            self.deviation = deviation
        }
    }

    /// For a route, an arrival, the buffer and a share: the departure its recorded days give
    /// (`History.onTimeLookup`), with the moment it falls at.
    public typealias OnTimeLookup = (_ routeID: RouteID, _ arrival: Date, _ buffer: Int, _ percent: Int) -> (leave: Date?, plan: OnTime)?

    public var arrival: Date
    public var leave: Date
    public var basis: Basis
    /// The route the leave time rests on; nil without data.
    public var fastest: Route?
    /// Its minutes (current or usual, as `basis` says); for a transit route, the walk, the wait
    /// and the ride of its departure.
    public var minutes: Int?
    /// For a transit route: the departure the leave time is for, and the one the timetable had.
    public var departure: Route.Transit.Choice?
    /// For a free-flow estimate: the margin it was multiplied by.
    public var margin: Double?
    /// For an `--on-time` schedule: what its plan rested on, or why it fell back.
    public var onTime: OnTime?

    /// What this plan remembers of its bus for the next plan of the same occurrence.
    public var memory: TransitMemory? { departure?.memory }

    public init(arrival: Date, leave: Date, basis: Basis, fastest: Route?, minutes: Int?, departure: Route.Transit.Choice? = nil) {
        self.arrival = arrival
        self.leave = leave
        self.basis = basis
        self.fastest = fastest
        self.minutes = minutes
        self.departure = departure
    }

    /// What a free-flow estimate is multiplied by when `config set free-flow-margin` says nothing.
    public static let defaultFreeFlowMargin = 1.25

    /// How long before the arrival an alert goes out when no route has a time.
    public static let withoutData: TimeInterval = 3_600

    /// A route's usual time at a departure, from its history, where it knows: what a leave time
    /// with no current reading rests on before the feed's single average.
    public typealias Typical = (_ routeID: RouteID, _ departure: Date) -> TypicalTime?

    /// `memory` is what an earlier plan of this occurrence remembered of its bus (a transit
    /// route's): the choice then names the bus it replaced.
    public static func compute(
        for schedule: Schedule, routes: [RouteID: Route], arrival: Date, typical: Typical? = nil, memory: TransitMemory? = nil,
        freeFlowMargin: Double = defaultFreeFlowMargin, onTime: OnTimeLookup? = nil
    ) -> LeaveTime {
        guard let percent = schedule.onTimePercent, case .arriveBy(let bufferMinutes, _) = schedule.timing, let onTime else {
            return compute(for: schedule, routes: routes, arrival: arrival, typical: typical, memory: memory, freeFlowMargin: freeFlowMargin)
        }
        // Each route's departure from its recorded days, moved by how far today's live time is
        // from its usual one (read within three hours of the arrival); the latest wins.
        let plans = schedule.routeIDs.compactMap { id -> (route: Route?, leave: Date?, plan: OnTime)? in
            guard var found = onTime(id, arrival, bufferMinutes, percent) else { return nil }
            if let leave = found.leave, let route = routes[id], route.hasLiveTime, !route.isPublicTransport, let current = route.currentMinutes,
                abs(arrival.timeIntervalSince(route.updatedAt)) < 3 * 3_600, let usual = typical?(id, route.updatedAt)
            {
                let deviation = current - Int(usual.median.rounded())
                found.plan.deviation = deviation
                found.leave = leave.addingTimeInterval(-TimeInterval(deviation * 60))
            }
            return (routes[id], found.leave, found.plan)
        }
        let planned = plans.compactMap { plan in plan.leave.map { (plan.route, $0, plan.plan) } }.max { $0.1 < $1.1 }
        if let (route, leave, plan) = planned, let estimate = plan.planned?.minutes {
            var time = LeaveTime(
                arrival: arrival, leave: leave, basis: .onTime, fastest: route,
                minutes: Int((estimate + Double(plan.deviation ?? 0)).rounded(.up)))
            time.onTime = plan
            return time
        }
        // Too few recorded days on every route: planned as without --on-time, and it says so.
        var time = compute(for: schedule, routes: routes, arrival: arrival, typical: typical, memory: memory, freeFlowMargin: freeFlowMargin)
        time.onTime = OnTime(percent: percent, planned: nil, days: plans.map(\.plan.days).max() ?? 0)
        return time
    }

    private static func compute(
        for schedule: Schedule, routes: [RouteID: Route], arrival: Date, typical: Typical?, memory: TransitMemory?, freeFlowMargin: Double
    ) -> LeaveTime {
        let buffer: TimeInterval = switch schedule.timing {
        case .at: 0
        case .arriveBy(let minutes, _): TimeInterval(minutes * 60)
        }
        // A car route with predictions is as they say for leaving in time for the arrival.
        let known = schedule.routeIDs.compactMap { routes[$0]?.leaving(arrivingBy: arrival.addingTimeInterval(-buffer)) }
        // A transit route leaves when its bus does: the last one predicted to arrive with the
        // minutes to spare (at the destination, as by car), less the walk. The latest leave of any
        // route wins, a driving route's current time included.
        let transit = known.compactMap { route -> LeaveTime? in
            // With none that early, the last in time at all: less to spare beats no bus.
            guard let trip = route.departures,
                var choice = trip.choice(arrivingBy: arrival.addingTimeInterval(-buffer)) ?? trip.choice(arrivingBy: arrival)
            else { return nil }
            if let replaced = memory?.replaced(by: choice.chosen.run) {
                choice.replacedRun = replaced
                choice.replaced = trip.departures.first { $0.run == replaced }
            }
            let start = choice.chosen.expected.addingTimeInterval(-TimeInterval(trip.walkMinutes * 60))
            let minutes = max(1, Int((choice.chosen.arrival.timeIntervalSince(start) / 60).rounded(.up)))
            return LeaveTime(arrival: arrival, leave: start, basis: .current, fastest: route, minutes: minutes, departure: choice)
        }
        // An open engine's time is not traffic: it counts only where no route has a live time.
        let estimated = known.filter { !$0.isPublicTransport && !$0.hasLiveTime }
        let driving = known.filter { !$0.isPublicTransport && $0.hasLiveTime }
        if let best = transit.max(by: { $0.leave < $1.leave }) {
            let current = driving.compactMap { route in route.currentMinutes.map { (route, $0) } }.min { $0.1 < $1.1 }
            guard let (route, minutes) = current, arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer) > best.leave else {
                return best
            }
            return LeaveTime(
                arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .current,
                fastest: route, minutes: minutes)
        }
        func fastest(_ minutes: (Route) -> Int?) -> (Route, Int)? {
            known.compactMap { route in minutes(route).map { (route, $0) } }.min { $0.1 < $1.1 }
        }
        if let (route, minutes) = fastest({ $0.hasLiveTime ? $0.currentMinutes : nil }) {
            return LeaveTime(
                arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .current,
                fastest: route, minutes: minutes)
        }
        // A free-flow route: its own typical time where its history knows the quarter hour (the
        // alert says so), else the estimate with the margin.
        let estimates = estimated.compactMap { route -> LeaveTime? in
            guard let free = route.freeFlowEstimate else { return nil }
            let departure = arrival.addingTimeInterval(-TimeInterval(free * 60) - buffer)
            if let typical, let known = typical(route.id, departure) {
                let minutes = Int(known.p90.rounded(.up))
                return LeaveTime(
                    arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .typical,
                    fastest: route, minutes: minutes)
            }
            let minutes = Int((Double(free) * freeFlowMargin).rounded(.up))
            var leave = LeaveTime(
                arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .freeFlow,
                fastest: route, minutes: minutes)
            leave.margin = freeFlowMargin
            return leave
        }
        if let best = estimates.max(by: { $0.leave < $1.leave }) { return best }
        if let typical, let (route, minutes) = fastest({ route in
            // The quarter hour it would leave in, on its usual time (an hour when it has none).
            let departure = arrival.addingTimeInterval(-TimeInterval((route.averageMinutes ?? 60) * 60) - buffer)
            return typical(route.id, departure).map { Int($0.p90.rounded(.up)) }
        }) {
            return LeaveTime(
                arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .typical,
                fastest: route, minutes: minutes)
        }
        if let (route, minutes) = fastest(\.averageMinutes) {
            return LeaveTime(
                arrival: arrival, leave: arrival.addingTimeInterval(-TimeInterval(minutes * 60) - buffer), basis: .usual,
                fastest: route, minutes: minutes)
        }
        return LeaveTime(arrival: arrival, leave: arrival.addingTimeInterval(-withoutData), basis: .noData, fastest: nil, minutes: nil)
    }
}

extension AlertComposer {
    /// `for the 545 at 8:02 AM`, or `on foot (18 min)`: a way as a title says it after "Leave now".
    static func wayPhrase(_ way: String) -> String { way.hasPrefix("the ") ? "for \(way)" : way }

    /// The heads-up before the leave time: "Leave in 15 min (8:21 AM) to arrive by 9:00 AM", then
    /// the routes, fastest first.
    public static func headsUpContent(
        for schedule: Schedule, routes: [RouteID: Route], leave: LeaveTime, now: Date, calendar: ZonedCalendar,
        usual: Usual? = nil
    ) -> AlertContent {
        let minutes = max(0, Int((leave.leave.timeIntervalSince(now) / 60).rounded()))
        let content = leaveContent(
            for: schedule, routes: routes, leave: leave, now: leave.leave, ageAt: now, calendar: calendar, usual: usual)
        let bus = leave.departure.map { " " + Self.wayPhrase(TransitText.way($0.chosen, calendar: calendar, on: leave.arrival)) } ?? ""
        let title = "Leave in \(minutes) min (\(calendar.local(leave.leave).time.label))\(bus) to arrive by \(calendar.local(leave.arrival).time.label)"
        return AlertContent(title: title, body: content.body, dataAsOf: content.dataAsOf)
    }

    /// An arrive-by alert at `now`: "Leave now to arrive by 9:00 AM", or, when the plan is already
    /// late, "Leave now: expected arrival 9:07 AM, 7 min late"; then the routes, fastest first,
    /// and the expected arrival.
    public static func leaveContent(
        for schedule: Schedule, routes: [RouteID: Route], leave: LeaveTime, now: Date, ageAt: Date? = nil, calendar: ZonedCalendar,
        usual: Usual? = nil
    ) -> AlertContent {
        // Each route as it would be leaving then (now, when that has gone by): a prediction for that
        // moment, where there is one.
        let routes = Route.leaving(schedule.routeIDs, routes, at: max(leave.leave, Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)))
        let oldest = oldestUpdate(of: schedule.routeIDs, routes)
        let age = ageLine(oldest, at: ageAt ?? now, calendar: calendar)
        let arrive = calendar.local(leave.arrival).time.label
        let ordered = schedule.routeIDs.enumerated().sorted { lhs, rhs in
            let left = routes[lhs.element].flatMap { $0.currentMinutes ?? $0.averageMinutes } ?? Int.max
            let right = routes[rhs.element].flatMap { $0.currentMinutes ?? $0.averageMinutes } ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        if let choice = leave.departure, let route = leave.fastest {
            // A transit route's leave time is its bus's: the alert says which, and why it changed.
            let others = ordered.filter { $0 != route.id }.map { line(routeID: $0, route: routes[$0], usual: usual, at: now, calendar: calendar) }
            var lines = TransitText.leaveLines(for: route, choice: choice, calendar: calendar, on: leave.arrival) + others
            if let age { lines.append(age) }
            let bus = Self.wayPhrase(TransitText.way(choice.chosen, calendar: calendar, on: leave.arrival))
            let late = choice.chosen.arrival > leave.arrival
            let title = late ? "Leave now \(bus): arrives \(calendar.local(choice.chosen.arrival).time.label), after \(arrive)"
                : "Leave now \(bus) to arrive by \(arrive)"
            return AlertContent(title: title, body: lines.joined(separator: "\n"), dataAsOf: oldest)
        }
        var lines = ordered.map { line(routeID: $0, route: routes[$0], usual: usual, at: now, calendar: calendar) }
        if let event = schedule.event { lines.insert("\(event.summary) at \(arrive) (calendar \(event.calendar))", at: 0) }
        guard let minutes = leave.minutes, let fastest = leave.fastest else {
            lines.append("No travel times right now: this is an hour before \(arrive).")
            if let age { lines.append(age) }
            return AlertContent(title: "Arrive by \(arrive): no travel times", body: lines.joined(separator: "\n"), dataAsOf: oldest)
        }
        // A tick runs a moment after the minute (8:26:00.3): the minute is what the alert is for,
        // so its seconds are not counted against the arrival.
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let start = max(minute, leave.leave)
        let expected = start.addingTimeInterval(TimeInterval(minutes * 60))
        let expectedLabel = calendar.local(expected).time.label
        let lateBy = Int((expected.timeIntervalSince(leave.arrival) / 60).rounded(.up))
        let title = lateBy > 0
            ? "Leave now: expected arrival \(expectedLabel), \(lateBy) min late"
            : schedule.event.map { "Leave now for \($0.summary) at \(arrive)" } ?? "Leave now to arrive by \(arrive)"
        var closing = "Expected arrival \(expectedLabel) by \(fastest.name)"
        switch leave.basis {
        case .usual: closing += " (no current times: its usual time)"
        case .typical where !fastest.hasLiveTime:
            closing += " (its typical time from history, not the free-flow estimate: 9 times in 10 it takes no longer)"
        case .typical: closing += " (no current times: 9 times in 10 it takes no longer)"
        case .freeFlow:
            let free = fastest.freeFlowEstimate.map { "\($0) min" } ?? "its estimate"
            closing += " (free-flow estimate: \(free) × \(TimeFormatting.factor(leave.margin ?? LeaveTime.defaultFreeFlowMargin)), no live traffic)"
        case .onTime:
            if let onTime = leave.onTime, let planned = onTime.planned {
                let today = onTime.deviation.map { $0 == 0 ? ", as usual today" : ", \($0 > 0 ? "+" : "")\($0) min today" } ?? ""
                closing += " (on time \(onTime.percent)% of the time: \(TypicalTime.text(planned.minutes)) min on \(planned.days) recorded "
                    + "\(calendar.local(leave.arrival).weekday.name)s\(today))"
            }
        case .current, .noData: break
        }
        if leave.basis != .onTime, let onTime = leave.onTime {
            closing += " (--on-time \(onTime.percent)%: \(onTime.days) recorded days of \(DepartureTimes.minimumDays) needed; planned on today's times)"
        }
        lines.append(closing)
        if let age { lines.append(age) }
        return AlertContent(title: title, body: lines.joined(separator: "\n"), dataAsOf: oldest)
    }
}
