import Basics
import FoundationEssentials

/// How a departure at one minute of the day fared on each recorded day of a weekday: each day's
/// travel time when leaving then, and from those the leave time a plan makes and how often it
/// arrived on time. Pure arithmetic on the days' times; `History` reads them from a route's file.
///
/// A day's time for leaving at a minute is its reading nearest that minute, within
/// `DepartureTimes.reach` either side (the later of two as near); a day with none there is not
/// counted. Every figure says how many days stand behind it.
public enum DepartureTimes {
    /// How far from the departure a day's reading may be and still stand for it.
    public static let reach = 15 * 60
    /// Fewer days than this are "too few trips": no percentage, no plan.
    public static let minimumDays = 5
    /// How far before the arrival (less the buffer) a plan looks for a departure.
    public static let span = 180

    /// The time a plan reckons with from the days' times: their median, or with `percent` the
    /// smallest time at least that share of days took no longer than (the nearest rank:
    /// `sorted[⌈p·n/100⌉ − 1]`). Nil for no days.
    public static func estimate(_ minutes: [Int], percent: Int?) -> Double? {
        estimate(sorted: minutes.sorted(), percent: percent)
    }

    /// `estimate` of minutes already in order.
    static func estimate(sorted: [Int], percent: Int?) -> Double? {
        estimate(count: sorted.count, percent: percent) { sorted[$0] }
    }

    /// The estimate from the `k`-th smallest of `count` times (`smallest(k)`, from 0).
    private static func estimate(count: Int, percent: Int?, smallest: (Int) -> Int) -> Double? {
        guard count > 0 else { return nil }
        guard let percent else {
            let middle = count / 2
            return count % 2 == 1 ? Double(smallest(middle)) : Double(smallest(middle - 1) + smallest(middle)) / 2
        }
        let rank = (min(max(percent, 1), 100) * count + 99) / 100
        return Double(smallest(max(rank, 1) - 1))
    }

    /// `estimate` of minutes in any order, counted rather than sorted when they lie within a few
    /// hours of each other (a weekday's times at one departure do): `counts` is scratch space.
    static func estimate(counting minutes: [Int], counts: inout [Int32], percent: Int?) -> Double? {
        guard let low = minutes.min(), let high = minutes.max() else { return nil }
        guard high - low < 1_024 else { return estimate(sorted: minutes.sorted(), percent: percent) }
        counts.removeAll(keepingCapacity: true)
        counts.append(contentsOf: repeatElement(0, count: high - low + 1))
        for minute in minutes { counts[minute - low] += 1 }
        return estimate(count: minutes.count, percent: percent) { rank in
            var seen = 0
            for (offset, count) in counts.enumerated() {
                seen += Int(count)
                if seen > rank { return low + offset }
            }
            return high
        }
    }

    /// The median of whole numbers, as Python's `statistics.median` gives it.
    public static func median(_ values: [Int]) -> Double? { estimate(values, percent: nil) }
}

/// The leave time a plan makes from history for one weekday: the latest whole minute from which
/// the days' estimate (median, or the percentile asked for) still arrives by the arrival less the
/// buffer, with enough days behind it.
public struct PlannedDeparture: Sendable, Equatable {
    /// Minute of the day to leave at.
    public var leave: Int
    /// The estimate it rests on, in minutes.
    public var minutes: Double
    /// The days behind it.
    public var days: Int
    /// The percentile it was planned on; nil for the median.
    public var percent: Int?

    public init(leave: Int, minutes: Double, days: Int, percent: Int?) {
        self.leave = leave
        self.minutes = minutes
        self.days = days
        self.percent = percent
    }

    /// Plans from `times(m, &minutes)`, which puts each day's minutes when leaving at minute `m`
    /// in `minutes` and returns the earliest minute down to which they stay the same (at most
    /// `m`): from the arrival less the buffer, one minute back at a time, at most
    /// `DepartureTimes.span` minutes, a run of minutes with the same times tried at once. No
    /// estimate is below `fastest` (the least minutes of any day near any departure), so the
    /// minutes that could not arrive even then are passed over.
    public static func plan(arrival: Int, buffer: Int, percent: Int?, fastest: Int = 0, times: (Int, inout [Int]) -> Int) -> PlannedDeparture? {
        let latest = arrival - buffer
        let earliest = max(0, latest - DepartureTimes.span)
        var leave = min(latest - 1, latest - fastest)
        var minutes: [Int] = []
        var counts: [Int32] = []
        while leave >= earliest {
            minutes.removeAll(keepingCapacity: true)
            let same = max(min(times(leave, &minutes), leave), earliest)
            if minutes.count >= DepartureTimes.minimumDays,
                let estimate = DepartureTimes.estimate(counting: minutes, counts: &counts, percent: percent)
            {
                // The latest minute of the run from which the estimate arrives by `latest`.
                let fits = min(Double(leave), (Double(latest) - estimate).rounded(.down))
                if fits >= Double(same) {
                    return PlannedDeparture(leave: Int(fits), minutes: estimate, days: minutes.count, percent: percent)
                }
            }
            leave = same - 1
        }
        return nil
    }
}

/// How often leaving at a minute arrived by a time, over the recorded days of a weekday.
public struct Reliability: Sendable, Equatable {
    public struct Day: Sendable, Equatable {
        public var date: CivilDate
        public var minutes: Int
        /// Minutes to spare at the arrival; below zero, minutes late.
        public var spare: Int

        public init(date: CivilDate, minutes: Int, spare: Int) {
            self.date = date
            self.minutes = minutes
            self.spare = spare
        }
    }

    public var weekday: Weekday
    /// Minutes of the day.
    public var leave: Int
    public var arrival: Int
    /// Newest first.
    public var days: [Day]

    public init(weekday: Weekday, leave: Int, arrival: Int, days: [Day]) {
        self.weekday = weekday
        self.leave = leave
        self.arrival = arrival
        self.days = days
    }

    /// Each day's outcome from its minutes when leaving at `leave`.
    public init(weekday: Weekday, leave: Int, arrival: Int, times: [(date: CivilDate, minutes: Int)]) {
        self.init(
            weekday: weekday, leave: leave, arrival: arrival,
            days: times.map { Day(date: $0.date, minutes: $0.minutes, spare: arrival - leave - $0.minutes) })
    }

    public var onTime: Int { days.count { $0.spare >= 0 } }
    public var isEnough: Bool { days.count >= DepartureTimes.minimumDays }
    /// The share on time, 0 to 1; nil with too few days.
    public var share: Double? { isEnough ? Double(onTime) / Double(days.count) : nil }
    /// The median minutes to spare (negative: late).
    public var medianSpare: Double? { DepartureTimes.median(days.map(\.spare)) }
    /// The most minutes late; nil when never late.
    public var latestLate: Int? { days.filter { $0.spare < 0 }.map { -$0.spare }.max() }
}
