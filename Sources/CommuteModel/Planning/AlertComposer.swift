import FoundationEssentials

/// Renders what an alert says: the schedule's time and days, then one line per route in schedule
/// order with its current time and delay status, then the data's age when it is over an hour old.
public enum AlertComposer {
    /// Data older than this at fire time gets an age line.
    public static let staleAfter: TimeInterval = 3_600

    /// What the routes of an alert usually take in its quarter hour, where their history knows.
    public struct Usual: Sendable, Equatable {
        public var slot: TimeSlot
        public var byRoute: [RouteID: TypicalTime]

        public init(slot: TimeSlot, byRoute: [RouteID: TypicalTime]) {
            self.slot = slot
            self.byRoute = byRoute
        }
    }

    public static func content(
        for schedule: Schedule, routes: [RouteID: Route], firesAt: Date, calendar: ZonedCalendar, usual: Usual? = nil
    ) -> AlertContent {
        let title = "Commute at \(schedule.timeLabel) (\(schedule.daysLabel))"
        let routes = Route.leaving(schedule.routeIDs, routes, at: firesAt)
        var lines = schedule.routeIDs.map { line(routeID: $0, route: routes[$0], usual: usual, at: firesAt, calendar: calendar) }
        let oldest = oldestUpdate(of: schedule.routeIDs, routes)
        if let age = ageLine(oldest, at: firesAt, calendar: calendar) { lines.append(age) }
        return AlertContent(title: title, body: lines.joined(separator: "\n"), dataAsOf: oldest)
    }

    /// When the oldest data among these routes was measured.
    /// A free-flow estimate has no age that matters (it is asked for daily, and the roads change
    /// slower than that): a route on one (an engine's, or a keyed route fallen back) is left out,
    /// and says what it is instead.
    public static func oldestUpdate(of routeIDs: [RouteID], _ routes: [RouteID: Route]) -> Date? {
        routeIDs.compactMap { routes[$0] }.filter(\.hasLiveTime).map(\.updatedAt).min()
    }

    /// The one rule every kind of alert follows: data over `staleAfter` old at the moment the alert
    /// is read says so, `Data is 39 h old (updated Mon 4:00 PM)`; nil otherwise.
    public static func ageLine(_ oldest: Date?, at moment: Date, calendar: ZonedCalendar) -> String? {
        guard let oldest, moment.timeIntervalSince(oldest) > staleAfter else { return nil }
        let age = TimeFormatting.age(moment.timeIntervalSince(oldest))
        return "Data is \(age) old (updated \(TimeFormatting.moment(oldest, relativeTo: moment, calendar: calendar)))"
    }

    /// `Everett-Seattle: 49 min (+19 min, CONGESTED)`, then, where its history knows the quarter
    /// hour, `, +14 vs a usual Tuesday at 7:00 AM`; a route without data or missing from the cache
    /// says so rather than being dropped, and a reading held back says what was reported.
    /// A transit route, given the moment, lists its next departures instead (see `TransitText`),
    /// then the service alerts that name it.
    public static func line(routeID: RouteID, route: Route?, usual: Usual? = nil, at moment: Date? = nil, calendar: ZonedCalendar? = nil) -> String {
        if let route, let transit = route.departures, let moment, let calendar {
            let lines = ["\(route.name): \(TransitText.departures(of: transit, at: moment, calendar: calendar))"] + TransitText.notices(of: transit)
            return lines.joined(separator: "\n")
        }
        let typical = usual?.byRoute[routeID]
        if let route, route.suspiciousMinutes != nil {
            return route.suspicionText(usual: typical?.median) + "; ignored until confirmed"
        }
        var line = "\(route?.name ?? "Route \(routeID)"): \(summary(of: route))"
        // A prediction says whose, and for when.
        if let route, let departure = route.custom?.predictedFor, let calendar {
            line += ", \(route.provider?.displayName ?? "the provider")'s prediction for leaving \(calendar.local(departure).time.label)"
        }
        guard let usual, let typical, let current = route?.currentMinutes else { return line }
        let difference = current - TypicalTime.whole(typical.median)
        let versus = difference == 0 ? "as on" : "\(difference > 0 ? "+" : "")\(difference) vs"
        return line + ", \(versus) a usual \(usual.slot.weekday.name) at \(usual.slot.start.label)"
    }

    /// `49 min (+19 min, CONGESTED)`, `no data (NO DATA)`, or `unavailable (not in the latest feed)`.
    public static func summary(of route: Route?) -> String {
        guard let route else { return "unavailable (not in the latest feed)" }
        if let engine = route.estimateEngine, let estimate = route.freeFlowEstimate {
            let problem = route.custom?.liveProblem.map { "no live time (\($0)): " } ?? ""
            return problem + "\(estimate) min (free-flow estimate from \(engine.displayName), no live traffic)"
        }
        guard let current = route.currentMinutes, let delay = route.delayMinutes else {
            return "no data (\(DelayStatus.noData.rawValue))"
        }
        return "\(current) min (\(TimeFormatting.delay(delay)), \(route.status.rawValue))"
    }

    /// A smart alert at fire time: nil when no route is delayed by `threshold` minutes or more;
    /// otherwise content that leads with the delayed routes, worst first
    /// (`Delay: Everett-Seattle +19 min`), then the others in schedule order.
    public static func smartContent(
        for schedule: Schedule, isDelayed: (Route) -> Bool, routes: [RouteID: Route], at moment: Date, calendar: ZonedCalendar,
        usual: Usual? = nil
    ) -> AlertContent? {
        let routes = Route.leaving(schedule.routeIDs, routes, at: moment)
        let delayed = schedule.routeIDs.compactMap { routes[$0] }
            .filter(isDelayed)
            .sorted { ($0.delayMinutes ?? 0) > ($1.delayMinutes ?? 0) }
        guard !delayed.isEmpty else { return nil }
        let names = delayed.map { "\($0.name) \(TimeFormatting.delay($0.delayMinutes ?? 0))" }
        let delayedIDs = Set(delayed.map(\.id))
        var lines = delayed.map { line(routeID: $0.id, route: $0, usual: usual, at: moment, calendar: calendar) }
            + schedule.routeIDs.filter { !delayedIDs.contains($0) }.map {
                line(routeID: $0, route: routes[$0], usual: usual, at: moment, calendar: calendar)
            }
        let oldest = oldestUpdate(of: schedule.routeIDs, routes)
        if let age = ageLine(oldest, at: moment, calendar: calendar) { lines.append(age) }
        return AlertContent(
            title: "Delay: \(names.joined(separator: ", ")) (\(schedule.timeLabel) alert)", body: lines.joined(separator: "\n"),
            dataAsOf: oldest)
    }
}
