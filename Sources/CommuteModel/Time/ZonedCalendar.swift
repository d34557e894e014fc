import Basics
import FoundationEssentials

/// Wall-clock arithmetic in one time zone, with the product's daylight-saving policy.
///
/// Asking Foundation for an offset costs an ICU call, and the fan-out asks tens of thousands of
/// times. So the zone's offsets over a window around *now* are read once into a small table of
/// transitions (sampled hourly, each transition then found to the second), and everything inside
/// the window is integer arithmetic. Instants outside it ask the time zone directly.
public struct ZonedCalendar: Sendable {
    /// A change of UTC offset: from `instant` on, the offset is `offset` seconds.
    struct Transition: Sendable, Equatable {
        var instant: Int
        var offset: Int
    }

    public let timeZone: IANAZone
    private let windowStart: Int
    private let windowEnd: Int
    private let offsetAtWindowStart: Int
    private let transitions: [Transition]
    /// The local year at the moment the calendar was made around: a date in another year is
    /// written with its year.
    public private(set) var year = 0

    /// Reads the zone's offsets from `daysBefore` days before `now` to `daysAfter` days after it.
    public init(timeZone: IANAZone, around now: Date, daysBefore: Int = 2, daysAfter: Int = 10) {
        self.timeZone = timeZone
        let center = Int(now.timeIntervalSince1970.rounded(.down))
        windowStart = center - daysBefore * 86_400
        windowEnd = center + daysAfter * 86_400
        let zoneOffset = { (instant: Int) in
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
        }
        offsetAtWindowStart = zoneOffset(windowStart)
        var found: [Transition] = []
        var previousInstant = windowStart
        var previousOffset = offsetAtWindowStart
        var sample = windowStart
        while sample < windowEnd {
            sample = min(sample + 3_600, windowEnd)
            let offset = zoneOffset(sample)
            if offset != previousOffset {
                // The change lies in (previousInstant, sample]: narrow it to the second.
                var low = previousInstant
                var high = sample
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if zoneOffset(middle) == previousOffset { low = middle } else { high = middle }
                }
                found.append(Transition(instant: high, offset: offset))
                previousOffset = offset
            }
            previousInstant = sample
        }
        transitions = found
        year = local(now).date.year
    }

    /// The UTC offset in seconds at an instant (seconds since 1970).
    public func offset(at instant: Int) -> Int {
        guard instant >= windowStart, instant < windowEnd else { return timeZone.offset(at: Self.clamped(instant)) }
        var offset = offsetAtWindowStart
        for transition in transitions {
            guard instant >= transition.instant else { break }
            offset = transition.offset
        }
        return offset
    }

    /// An instant as `IANAZone.secondsFromGMT(for:)` takes a date's: within ±10¹⁵ seconds.
    private static func clamped(_ instant: Int) -> Int { min(max(instant, -1_000_000_000_000_000), 1_000_000_000_000_000) }

    /// The offset at an instant, and instants around it that share it (as `IANAZone.offsetSpan`,
    /// and inside the window from its table).
    package func offsetSpan(at instant: Int) -> (offset: Int, span: ClosedRange<Int>) {
        if instant >= windowStart, instant < windowEnd {
            var span = windowStart...(windowEnd - 1)
            var offset = offsetAtWindowStart
            for transition in transitions {
                guard instant >= transition.instant else {
                    span = span.lowerBound...(transition.instant - 1)
                    break
                }
                (offset, span) = (transition.offset, transition.instant...span.upperBound)
            }
            return (offset, span)
        }
        let clamped = Self.clamped(instant)
        var (offset, span) = timeZone.offsetSpan(at: clamped)
        // Clamped instants share the clamp's offset; the window answers from its own table.
        if instant != clamped { span = instant...instant }
        if instant < windowStart { span = span.lowerBound...min(span.upperBound, windowStart - 1) }
        if instant >= windowEnd { span = max(span.lowerBound, windowEnd)...span.upperBound }
        return (offset, span)
    }

    /// Offsets of a run of instants near each other: each answered from the span of the last
    /// lookup when it falls inside it, so that a year of days costs a search at each change of
    /// offset rather than at each day.
    package struct Offsets {
        private let calendar: ZonedCalendar
        private var known: (offset: Int, span: ClosedRange<Int>)?

        package init(_ calendar: ZonedCalendar) { self.calendar = calendar }

        package mutating func at(_ instant: Int) -> Int {
            if let known, known.span.contains(instant) { return known.offset }
            let found = calendar.offsetSpan(at: instant)
            known = found
            return found.offset
        }
    }

    public func offset(at date: Date) -> Int { offset(at: Self.seconds(date)) }

    /// The wall clock at an instant.
    public func local(_ date: Date) -> LocalDateTime {
        let instant = Self.seconds(date)
        let wall = instant + offset(at: instant)
        let dayNumber = wall.floorDivided(by: 86_400)
        let secondOfDay = wall - dayNumber * 86_400
        return LocalDateTime(
            date: CivilDate(dayNumber: dayNumber), hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60,
            second: secondOfDay % 60)
    }

    /// The instant a wall-clock time names on a local day, under the daylight-saving policy:
    /// a time that occurs twice names its first occurrence; a time in a spring-forward gap names
    /// the first valid minute after the gap, on that same day (02:30 → 03:00).
    public func instant(on date: CivilDate, hour: Int, minute: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(dayNumber: date.dayNumber, minuteOfDay: hour * 60 + minute)))
    }

    /// The same, in seconds since 1970: the fan-out's hot path, free of allocation.
    package func instant(dayNumber: Int, minuteOfDay: Int) -> Int {
        let wall = dayNumber * 86_400 + minuteOfDay * 60
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        // A real instant t for this wall time satisfies t + offset(t) == wall; the offsets in force
        // a day either side are the only candidates. Two solutions: a repeated hour, take the first.
        let early = wall - max(before, after)
        let late = wall - min(before, after)
        if early + offset(at: early) == wall { return early }
        if late + offset(at: late) == wall { return late }
        // In a gap the clock jumps from `before` to `after`: find the jump and fire at it.
        var low = wall - after
        var high = wall - before
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(at: middle) == before { low = middle } else { high = middle }
        }
        return (high + 59).floorDivided(by: 60) * 60
    }

    /// The first instant strictly after `now` whose wall-clock time is `weekday` at `hour:minute`.
    public func nextFire(weekday: Weekday, hour: Int, minute: Int, after now: Date) -> Date {
        let nowSeconds = Self.seconds(now)
        let fire = nextFire(weekday: weekday, minuteOfDay: hour * 60 + minute, after: nowSeconds, nowDay: localDay(of: nowSeconds))
        return Date(timeIntervalSince1970: TimeInterval(fire))
    }

    /// The same in seconds, given the local day number of `now` (computed once by callers in a loop).
    package func nextFire(weekday: Weekday, minuteOfDay: Int, after now: Int, nowDay: Int) -> Int {
        // Start a day early: an instant on the previous local day can still lie ahead when the zone's
        // offset is about to change; the answer is at most two weeks on.
        let start = nowDay - 1
        var day = start + (weekday.rawValue - CivilDate.weekday(ofDayNumber: start).rawValue + 7) % 7
        while true {
            let fire = instant(dayNumber: day, minuteOfDay: minuteOfDay)
            if fire > now { return fire }
            day += 7
        }
    }

    /// The latest instant at or before `now` whose wall-clock time is `weekday` at `minuteOfDay`,
    /// given the local day number of `now`.
    package func latestFire(weekday: Weekday, minuteOfDay: Int, atOrBefore now: Int, nowDay: Int) -> Int {
        // Start a day late, for the same reason `nextFire` starts a day early.
        let start = nowDay + 1
        var day = start - (CivilDate.weekday(ofDayNumber: start).rawValue - weekday.rawValue + 7) % 7
        while true {
            let fire = instant(dayNumber: day, minuteOfDay: minuteOfDay)
            if fire <= now { return fire }
            day -= 7
        }
    }

    /// The local day number (days since 1970-01-01 on the wall calendar) at an instant.
    package func localDay(of instant: Int) -> Int { (instant + offset(at: instant)).floorDivided(by: 86_400) }

    package static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }
}

/// A wall-clock reading in some zone.
public struct LocalDateTime: Sendable, Equatable {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public var weekday: Weekday { date.weekday }
    public var time: TimeOfDay { TimeOfDay(hour: hour, minute: minute) }
}
