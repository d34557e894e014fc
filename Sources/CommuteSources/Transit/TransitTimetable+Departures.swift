import Basics
import CommuteModel
import FoundationEssentials

extension TransitTimetable {
    /// The instant a GTFS time names on service day `date`: noon less 12 hours in the agency's
    /// zone, plus the seconds. On a daylight-saving day that base is 11 PM or 1 AM, not midnight,
    /// as the specification says.
    static func instant(_ seconds: Int, on date: CivilDate, calendar: ZonedCalendar) -> Date {
        calendar.instant(on: date, hour: 12, minute: 0).addingTimeInterval(TimeInterval(seconds - 12 * 3_600))
    }

    /// How far ahead departures are worked out: a day and a half.
    public static let lookahead: TimeInterval = 36 * 3_600

    /// The largest delay believed, either way: a day.
    static let largestDelay = 86_400

    /// The departures whose expected time is at or after `now` and that leave within `lookahead`,
    /// soonest first, at most `limit`: a trip past its scheduled time but predicted later is still
    /// one. Service days from two before today (times past 48:00:00 are rare) to tomorrow are
    /// looked at. A frequency-based trip's runs are made only within that window, and no more than
    /// twice `limit` departures are held at once: a small zip of many frequent trips costs what
    /// the window holds, never every run it names.
    public func departures(after now: Date, realtime: GTFSRealtime?, limit: Int = 5) -> [TransitDeparture] {
        guard let zone = IANAZone(identifier: timeZone) else { return [] }
        let calendar = ZonedCalendar(timeZone: zone, around: now)
        let updates = Dictionary((realtime?.tripUpdates ?? []).compactMap { update in update.tripID.map { ($0, update) } },
                                 uniquingKeysWith: { first, _ in first })
        let today = calendar.local(now).date.dayNumber
        let reference = realtime?.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) }
            .flatMap { abs($0.timeIntervalSince(now)) < 86_400 ? $0 : nil } ?? now
        var found: [TransitDeparture] = []
        /// Once `limit` are held, a departure after the last of them can never be one of the soonest.
        var cutoff: Date?
        func keepSoonest() {
            found.sort { $0.expected != $1.expected ? $0.expected < $1.expected : $0.tripID < $1.tripID }
            found.removeLast(max(0, found.count - limit))
            if found.count >= limit { cutoff = found.last?.expected }
        }
        let nowSeconds = Int(now.timeIntervalSince1970)
        for day in (today - 2)...(today + 1) {
            let date = CivilDate(dayNumber: day)
            let key = String(cFormat: "%04d%02d%02d", date.year, date.month, date.day)
            let base = Int(Self.instant(0, on: date, calendar: calendar).timeIntervalSince1970)
            for trip in trips where services[trip.serviceID]?.runs(on: date) == true {
                // The runs that can leave in the window: from three hours before now (less the
                // ride, for a late bus still to come) to the lookahead.
                let earliest = nowSeconds - 3 * 3_600 - max(0, trip.arrival - trip.departure)
                let latest = nowSeconds + Int(Self.lookahead)
                for shift in trip.shifts(leavingBetween: earliest - base - trip.departure, and: latest - base - trip.departure) {
                    let scheduled = Self.instant(trip.departure + shift, on: date, calendar: calendar)
                    // A frequency trip's runs come in order and take no realtime: past the cutoff, so are the rest.
                    if trip.frequencies != nil, let cutoff, scheduled > cutoff { break }
                    let arrival = Self.instant(trip.arrival + shift, on: date, calendar: calendar)
                    // Past by more than three hours: no prediction keeps it.
                    guard arrival.timeIntervalSince(now) > -3 * 3_600, scheduled.timeIntervalSince(now) < Self.lookahead else { continue }
                    var departure = TransitDeparture(
                        tripID: trip.id, line: trip.line, headsign: trip.headsign, scheduled: scheduled, predicted: nil, delaySeconds: nil,
                        canceled: false, skipped: false, arrival: arrival, scheduledArrival: arrival)
                    // A frequency trip's realtime is keyed by its start too; the template's is not used for its copies.
                    // An update without a start date is for the run nearest the feed's time, not
                    // the same trip every day.
                    if let update = updates[trip.id], trip.frequencies == nil,
                        update.startDate.map({ $0 == key }) ?? (abs(scheduled.timeIntervalSince(reference)) < 12 * 3_600)
                    {
                        apply(update, to: &departure, trip: trip, date: date, calendar: calendar)
                    }
                    guard departure.expected >= now || (departure.canceled && scheduled >= now) else { continue }
                    if let cutoff, departure.expected > cutoff { continue }
                    found.append(departure)
                    if found.count >= 2 * max(limit, 1) { keepSoonest() }
                }
            }
        }
        keepSoonest()
        return found
    }

    /// The trip update's word on this departure: cancelled; or the delay at the first stop, from
    /// the last stop-time update at or before it (a skipped stop passes the delay on; no data
    /// stops it), carried to the second stop likewise.
    private func apply(_ update: GTFSRealtime.TripUpdate, to departure: inout TransitDeparture, trip: Trip, date: CivilDate, calendar: ZonedCalendar) {
        if update.relationship == .canceled || update.relationship == .deleted {
            departure.canceled = true
            return
        }
        let updates = update.stopTimeUpdates.compactMap { stu in stu.stopSequence.map { ($0, stu) } }.sorted { $0.0 < $1.0 }
        func delay(at sequence: Int, scheduled: Int, departing: Bool) -> (delay: Int?, skipped: Bool) {
            var known: Int? = update.stopTimeUpdates.isEmpty ? update.delay.flatMap { abs($0) > Self.largestDelay ? nil : $0 } : nil
            var skipped = false
            for (stuSequence, stu) in updates where stuSequence <= sequence {
                switch stu.relationship {
                case .noData:
                    known = nil
                case .skipped:
                    if stuSequence == sequence { skipped = true }
                case .scheduled, .unscheduled:
                    let event = stuSequence == sequence ? (departing ? stu.departure ?? stu.arrival : stu.arrival ?? stu.departure)
                        : (stu.departure ?? stu.arrival)
                    if let time = event?.time, stuSequence == sequence {
                        let difference = time.subtractingReportingOverflow(Int(Self.instant(scheduled, on: date, calendar: calendar).timeIntervalSince1970))
                        known = difference.overflow ? nil : difference.partialValue
                    } else if let value = event?.delay {
                        known = value
                    }
                    // A delay of days is a feed's mistake (a time in the year 9999), not a bus.
                    if let value = known, abs(value) > Self.largestDelay { known = nil }
                }
            }
            return (known, skipped)
        }
        let start = delay(at: trip.fromSequence, scheduled: trip.departure, departing: true)
        departure.skipped = start.skipped
        if let seconds = start.delay {
            departure.delaySeconds = seconds
            departure.predicted = departure.scheduled.addingTimeInterval(TimeInterval(seconds))
            let end = delay(at: trip.toSequence, scheduled: trip.arrival, departing: false)
            departure.arrival = departure.arrival.addingTimeInterval(TimeInterval(end.delay ?? seconds))
        }
    }
}

extension TransitTimetable.Trip {
    /// The offsets of the runs from the template whose offset lies in `lower...upper`: 0 for a
    /// timetabled trip (when it does); for a frequency-based one, each start every headway
    /// through each window, less the template's own start — found by arithmetic, so a window of a
    /// run a minute over two days costs only the runs asked for.
    func shifts(leavingBetween lower: Int, and upper: Int) -> [Int] {
        guard let frequencies, !frequencies.isEmpty else { return (lower...max(lower, upper)).contains(0) ? [0] : [] }
        var shifts: [Int] = []
        for window in frequencies where window.headway > 0 {
            // The first start whose offset (start − self.start) is at least `lower`.
            let wanted = lower + self.start
            var start = window.start
            if wanted > start {
                let steps = (wanted - start + window.headway - 1) / window.headway
                start += steps * window.headway
            }
            while start < window.end, start - self.start <= upper, shifts.count < 10_000 {
                shifts.append(start - self.start)
                start += window.headway
            }
        }
        return shifts
    }
}
