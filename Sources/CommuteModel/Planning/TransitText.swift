import Basics
import FoundationEssentials

/// How a transit route's departures are said, in an alert and in `route ID`:
/// `545 to Redmond: 7:45 AM (+3 min), then 7:57 AM, 8:12 AM; walk 6 min: leave by 7:39 AM`.
public enum TransitText {
    /// How many running departures a line names.
    static let shownDepartures = 3

    /// `7:45 AM (+3 min)`, `7:42 AM (on time)`, `7:42 AM (timetable)` (the realtime feed says
    /// nothing of it), `7:42 AM CANCELLED`,
    /// `7:42 AM (skips the stop)`, `7:42 AM (timetable; the feed's +600 min held back until
    /// confirmed)`: the expected time, and what the realtime feed said of it.
    /// A time as said beside `reference`: `7:05 AM` on its day, `Wed, Nov 25, 7:05 AM` on another
    /// (a planner answers late at night with tomorrow's runs).
    static func clock(_ date: Date, on reference: Date, calendar: ZonedCalendar) -> String {
        TimeFormatting.moment(date, relativeTo: reference, calendar: calendar)
    }

    public static func departure(_ departure: TransitDeparture, calendar: ZonedCalendar, live: Bool, on reference: Date) -> String {
        let time = clock(departure.boarding, on: reference, calendar: calendar)
        if departure.canceled { return "\(time) CANCELLED" }
        if departure.skipped { return "\(time) (skips the stop)" }
        if departure.dropped { return "\(time) (no longer arrives in time)" }
        if let held = departure.heldDelaySeconds {
            return "\(time) (timetable; the feed's \(TimeFormatting.delay(Int((Double(held) / 60).rounded()))) held back until confirmed)"
        }
        guard let seconds = departure.delaySeconds else { return live ? "\(time) (timetable)" : time }
        let delay = TimeFormatting.delay(Int((Double(seconds) / 60).rounded()))
        // A prediction from an earlier feed says when it was made.
        if let at = departure.predictedAt { return "\(time) (\(delay) as of \(clock(at, on: reference, calendar: calendar)))" }
        return "\(time) (\(delay))"
    }

    /// `545 to Redmond`: the line and where it goes.
    public static func service(_ departure: TransitDeparture) -> String {
        departure.headsign.isEmpty ? departure.line : "\(departure.line) to \(departure.headsign)"
    }

    /// `the 545 to Redmond at 8:02 AM` (the time the line leaves, not the door), or for a way on
    /// the street alone `on foot (18 min)`, `by rental (10 min)`: what a title says to take.
    public static func way(_ departure: TransitDeparture, calendar: ZonedCalendar, on reference: Date) -> String {
        guard departure.isOnTheStreet else { return "the \(service(departure)) at \(clock(departure.boarding, on: reference, calendar: calendar))" }
        let minutes = max(1, Int((departure.arrival.timeIntervalSince(departure.expected) / 60).rounded()))
        let modes = (departure.legs ?? []).map(\.mode).filter { $0 != "WALK" }
        let how = modes.isEmpty ? "on foot" : "by " + Array(Set(modes)).sorted().map { $0.lowercased() }.joined(separator: " and ")
        return "\(how) (\(minutes) min)"
    }

    /// The next departures at `moment` with the walk and when to leave, then whether the times are
    /// live; `No departures in the next 36 h` when there are none.
    public static func departures(of transit: Route.Transit, at moment: Date, calendar: ZonedCalendar) -> String {
        let leaving = moment.addingTimeInterval(TimeInterval(transit.walkMinutes * 60))
        // A planner's itineraries are asked for one alert at a time.
        if let planner = transit.planner, !transit.departures.contains(where: { $0.expected >= leaving && Route.Transit.isRunning($0) }) {
            return "no itinerary known from \(calendar.local(moment).time.label) on: \(planner.displayName) is asked within the alert's lead window"
        }
        if let until = transit.coveredUntil, leaving > until {
            guard transit.departures.count < Route.Transit.largestDepartureCount else {
                return "the timetable has more departures than the \(Route.Transit.largestDepartureCount) kept: none are worked out after \(calendar.local(until).time.label)"
            }
            return "departures not worked out yet (a refresh works them out a day and a half ahead)"
        }
        let coming = transit.departures(after: leaving)
        guard let first = coming.first(where: Route.Transit.isRunning) else {
            return "no departure in the next day and a half" + (coming.isEmpty ? service(of: transit, at: moment, calendar: calendar) : " that runs (the next are cancelled)")
        }
        var shown: [TransitDeparture] = []
        var running = 0
        for departure in coming where running < shownDepartures && shown.count < shownDepartures + 2 {
            shown.append(departure)
            if Route.Transit.isRunning(departure) { running += 1 }
        }
        let live = transit.realtimeAt != nil
        let parts = shown.enumerated().map { index, departure in
            // The first says its day when it is not `moment`'s; the rest, when not the first's.
            let text = Self.departure(departure, calendar: calendar, live: live, on: index == 0 ? moment : shown[0].boarding)
            // A departure of another line says which.
            return index > 0 && service(departure) != service(shown[0]) ? "\(text) (\(service(departure)))" : text
        }
        var text = "\(service(shown[0])): \(parts.first ?? "")"
        if parts.count > 1 { text += ", then " + parts.dropFirst().joined(separator: ", ") }
        let leave = first.expected.addingTimeInterval(-TimeInterval(transit.walkMinutes * 60))
        text += transit.walkMinutes > 0
            ? "; walk \(transit.walkMinutes) min: leave by \(clock(leave, on: moment, calendar: calendar))"
            : "; leave by \(clock(leave, on: moment, calendar: calendar))"
        if !live { text += "; timetable times, no live data" + (transit.realtimeProblem.map { " (\($0))" } ?? "") }
        return text
    }

    /// Why a route has no departure, when its timetable says: `: its timetable has service only
    /// from Wed, Jan 1, 2030 to Tue, Dec 31, 2030`, or none at all; empty when today is within it.
    static func service(of transit: Route.Transit, at moment: Date, calendar: ZonedCalendar) -> String {
        guard let from = transit.serviceFrom, let until = transit.serviceUntil else {
            return transit.coveredUntil == nil ? "" : ": its timetable has no day of service"
        }
        let today = calendar.local(moment).date
        guard today.dayNumber < from || today.dayNumber > until else {
            // Within its dates, but not every day (a weekday service at the weekend).
            guard let next = transit.nextServiceDay, (today.dayNumber...(today.dayNumber + 400)).contains(next) else {
                return transit.coveredUntil == nil || transit.nextServiceDay != nil ? "" : ": its timetable has no service in the next two weeks"
            }
            guard next > today.dayNumber + 1 else { return "" }
            return ": its timetable has no service until \(TimeFormatting.day(CivilDate(dayNumber: next), thisYear: today.year))"
        }
        let year = today.year
        return ": its timetable has service only from \(TimeFormatting.day(CivilDate(dayNumber: from), thisYear: year))"
            + " to \(TimeFormatting.day(CivilDate(dayNumber: until), thisYear: year))"
    }

    /// Why the leave time is for this departure and not the timetable's: `The 8:12 AM is
    /// cancelled: take the 7:57 AM`, `The 8:12 AM is 9 min late and would arrive 9:04 AM: take the
    /// 7:57 AM`; nil when they are the same bus.
    /// An earlier plan's bus comes first: when the plan moved off it, that bus is what changed it
    /// ("The 7:42 AM is cancelled: take the 7:27 AM"); a plan that moved to a later bus (the one it
    /// was on still runs) says nothing.
    public static func change(_ choice: Route.Transit.Choice, calendar: ZonedCalendar, on reference: Date) -> String? {
        if choice.replacedRun != nil {
            guard let replaced = choice.replaced, !replaced.isSameRun(as: choice.chosen), replaced.scheduled > choice.chosen.scheduled else {
                return nil
            }
            return reason(replaced, take: choice.chosen, calendar: calendar, on: reference)
        }
        guard let planned = choice.planned, !planned.isSameRun(as: choice.chosen) else { return nil }
        return reason(planned, take: choice.chosen, calendar: calendar, on: reference)
    }

    /// `The 8:12 AM is cancelled: take the 7:57 AM`: why `planned` is not the bus to take.
    private static func reason(_ planned: TransitDeparture, take chosen: TransitDeparture, calendar: ZonedCalendar, on reference: Date) -> String? {
        let was = clock(planned.scheduledBoarding, on: reference, calendar: calendar)
        let take = "take the \(clock(chosen.boarding, on: reference, calendar: calendar))"
        if planned.canceled { return "The \(was) is cancelled: \(take)" }
        if planned.skipped { return "The \(was) skips the stop: \(take)" }
        if planned.dropped { return "The \(was) no longer arrives in time: \(take)" }
        if let seconds = planned.delaySeconds, seconds > 0 {
            return "The \(was) is \(Int((Double(seconds) / 60).rounded())) min late and would arrive \(clock(planned.arrival, on: reference, calendar: calendar)): \(take)"
        }
        return nil
    }

    /// The lines an arrive-by alert gives for its departure: which bus, from where and when it
    /// arrives; why it changed; the service alerts; whether the times are live. Times on another
    /// day than `reference` (the arrival) say their day.
    public static func leaveLines(for route: Route, choice: Route.Transit.Choice, calendar: ZonedCalendar, on reference: Date) -> [String] {
        guard let transit = route.departures else { return [] }
        let chosen = choice.chosen
        var lines: [String] = []
        if let change = change(choice, calendar: calendar, on: reference) { lines.append(change) }
        let live = transit.realtimeAt != nil
        let to = transit.toName ?? transit.toStop
        let time = { (date: Date) in clock(date, on: reference, calendar: calendar) }
        let arriving = "arriving \(to) at \(time(chosen.arrival))"
        if chosen.isOnTheStreet {
            lines.append("\(route.name): \(way(chosen, calendar: calendar, on: reference)), leaving \(time(chosen.expected)), \(arriving)")
        } else if let ride = chosen.firstRide {
            // A door-to-door itinerary: when to leave the door, for which line from which stop.
            let door = ride.departure > chosen.expected ? "leave \(time(chosen.expected)) for " : ""
            lines.append("\(route.name): \(door)the \(service(chosen)) at \(departure(chosen, calendar: calendar, live: live, on: reference)) from \(ride.from), \(arriving)")
        } else {
            let from = transit.fromName ?? transit.fromStop
            var take = "\(route.name): the \(service(chosen)) at \(departure(chosen, calendar: calendar, live: live, on: reference)) from \(from), \(arriving)"
            if transit.walkMinutes > 0 { take += "; walk \(transit.walkMinutes) min first" }
            lines.append(take)
        }
        lines += (chosen.notices ?? transit.notices ?? []).map { "Service alert: \($0)" }
        if !live { lines.append("Timetable times: no live data" + (transit.realtimeProblem.map { " (\($0))" } ?? "")) }
        return lines
    }

    /// `Service alert: …`, one line each.
    public static func notices(of transit: Route.Transit) -> [String] {
        (transit.notices ?? []).map { "Service alert: \($0)" }
    }
}
