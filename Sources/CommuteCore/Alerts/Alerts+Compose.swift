import CommuteDelivery
import CommuteModel
import FoundationEssentials

extension Alerts {
    enum Composition {
        /// The message; an arrive-by alert's leave time, and whether it is the heads-up.
        case send(AlertMessage, leave: Date? = nil, headsUp: Bool = false, follow: FollowedTrip? = nil)
        case suppress(String)
    }

    /// The words of a scheduled alert, composed at delivery from the route cache as it is now — the
    /// freshest data there is. A smart alert with no route delayed enough is suppressed when first
    /// handled; a retry of one already decided sends what there is.
    func compose(
        _ schedule: Schedule, id: AlertID, late: TimeInterval, firstHandling: Bool, routes: [RouteID: Route]
    ) -> Composition {
        let usual = usual(of: schedule, at: now)
        var content = AlertComposer.content(for: schedule, routes: routes, firesAt: now, calendar: calendar, usual: usual)
        if let threshold = schedule.onlyWhenDelayedBy {
            if let smart = AlertComposer.smartContent(
                for: schedule, isDelayed: isDelayed(schedule, threshold), routes: routes, at: now, calendar: calendar, usual: usual)
            {
                content = smart
            } else if firstHandling {
                return .suppress(notDelayed(schedule, threshold))
            }
        }
        content.body += incidentLines(schedule) + waysLines(schedule)
        if late >= 60 { content.body += "\n(late by \(TimeFormatting.age(late)))" }
        return .send(AlertMessage(id: id, title: content.title, body: content.body))
    }

    /// An arrive-by alert, composed now from the cache: a smart one with no route delayed enough is
    /// suppressed when first handled, as for a fixed time.
    func composeLeave(
        _ schedule: Schedule, id: AlertID, leave: LeaveTime, headsUp: Bool, firstHandling: Bool, routes: [RouteID: Route]
    ) -> Composition {
        // A transit leave time is for one departure: a smart alert goes when that bus is late or
        // the timetable's was cancelled.
        let departureIsNews = leave.departure.map { choice in
            choice.plannedIsLost || choice.delayMinutes >= (schedule.onlyWhenDelayedBy ?? 1)
                || (choice.chosen.delaySeconds ?? 0) >= (schedule.onlyWhenDelayedBy ?? 1) * 60
        }
        if let threshold = schedule.onlyWhenDelayedBy, firstHandling,
            departureIsNews.map({ !$0 })
                ?? (AlertComposer.smartContent(for: schedule, isDelayed: isDelayed(schedule, threshold), routes: routes, at: now, calendar: calendar)
                    == nil)
        {
            return .suppress(notDelayed(schedule, threshold))
        }
        let usual = usual(of: schedule, at: leave.leave)
        let content = headsUp
            ? AlertComposer.headsUpContent(for: schedule, routes: routes, leave: leave, now: now, calendar: calendar, usual: usual)
            : AlertComposer.leaveContent(for: schedule, routes: routes, leave: leave, now: now, calendar: calendar, usual: usual)
        return .send(
            AlertMessage(id: id, title: content.title, body: content.body + incidentLines(schedule) + waysLines(schedule)), leave: leave.leave,
            headsUp: headsUp,
            follow: headsUp ? nil : follow(leave))
    }

    /// The incident feed's notices on the schedule's car routes, a line each after the routes'
    /// (`Incident: A8 | … (Autobahn GmbH notice, not a delay figure)`); empty without any.
    private func incidentLines(_ schedule: Schedule) -> String {
        let found = commute.incidents.notices(for: schedule.routeIDs)
        return schedule.routeIDs.flatMap { found[$0] ?? [] }.map { "\n" + $0 }.joined()
    }

    /// For a schedule on a commute (named with `commute add`, or routes between the same places),
    /// its ways side by side now, a line each commute: `Which way (work): bus 42 min (usual 44);
    /// drive 55 min (+18 vs usual): take bus, 13 min faster.`; empty otherwise (an alert never
    /// fails over it).
    private func waysLines(_ schedule: Schedule) -> String {
        guard let commutes = try? commute.ways.commutes(of: schedule.routeIDs) else { return "" }
        return commutes.compactMap { ways in
            (try? commute.ways.compare(ways)).map { "\nWhich way (\(ways.name)): \($0.sentence)" }
        }.joined()
    }

    /// The trip a leave alert names, to follow until its line leaves: a transit route's run that
    /// still runs and is still to come, while follow-threshold is on.
    private func follow(_ leave: LeaveTime) -> FollowedTrip? {
        guard configuration.followThreshold != nil, let choice = leave.departure, let route = leave.fastest, let transit = route.departures,
            !choice.chosen.canceled, !choice.chosen.isOnTheStreet, choice.chosen.boarding > now
        else { return nil }
        return FollowedTrip(route: route.id, departure: choice.chosen, walkMinutes: transit.walkMinutes, deadline: leave.arrival, at: now)
    }

    /// What the schedule's routes usually take in `moment`'s quarter hour: each route's history
    /// read for that slot alone, and only now that an alert is being composed.
    private func usual(of schedule: Schedule, at moment: Date) -> AlertComposer.Usual? {
        let byRoute = commute.history.usualTimes(of: schedule.routeIDs, at: moment)
        return byRoute.isEmpty ? nil : AlertComposer.Usual(slot: TimeSlot(calendar.local(moment)), byRoute: byRoute)
    }

    /// A smart alert's test for one route: its threshold, or (auto) its usual 90th percentile now.
    private func isDelayed(_ schedule: Schedule, _ threshold: Int) -> (Route) -> Bool {
        let aboveUsual = schedule.onlyWhenAboveUsual == true
        return { route in self.commute.history.isDelayed(route, minutes: threshold, aboveUsual: aboveUsual, at: self.now) }
    }

    private func notDelayed(_ schedule: Schedule, _ threshold: Int) -> String {
        schedule.onlyWhenAboveUsual == true
            ? "not delayed: no route is slower than 9 times in 10 at this hour (or \(threshold) min over its usual time where history is thin)"
            : "not delayed: no route is \(threshold) min or more over its usual time"
    }

    /// Whether a pause the plan was made with holds back this occurrence: it is not delivered, and
    /// not recorded as missed.
    static func isPaused(_ entry: PendingBook.Entry, at occurrence: Date, pauses: [Pause]?, calendar: ZonedCalendar) -> Bool {
        guard let pauses, !pauses.isEmpty else { return false }
        let day = calendar.localDay(of: ZonedCalendar.seconds(occurrence))
        return pauses.contains { $0.covers(entry.scheduleID, dayNumber: day) }
    }

    /// The latest fire of a weekly request at or before `now` (a calendar event's, its one).
    static func latestOccurrence(of entry: PendingBook.Entry, atOrBefore now: Date, calendar: ZonedCalendar) -> Date? {
        // A calendar event's one occurrence is its arrival, within the week looked back on.
        if entry.isOnce { return entry.arrival.flatMap { $0 <= now && now.timeIntervalSince($0) < 7 * 86_400 ? $0 : nil } }
        var latest: Date?
        var cursor = now.addingTimeInterval(-8 * 86_400)
        while true {
            let next = calendar.nextFire(weekday: entry.weekday, hour: entry.hour, minute: entry.minute, after: cursor)
            guard next <= now else { return latest }
            latest = next
            cursor = next
        }
    }
}
