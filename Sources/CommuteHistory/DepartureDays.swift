import Basics
import CommuteModel
import FoundationEssentials

/// One weekday's recorded days around a span of departures, read from a route's history once:
/// each day's sound readings from `DepartureTimes.reach` before the first departure to as long
/// after the last. What `PlannedDeparture` and `Reliability` are computed from.
package struct DepartureDays: Sendable {
    package struct Day: Sendable {
        package var dayNumber: Int
        /// The instant of the span's first minute that day, and whether every minute of the span
        /// is that plus its minutes (no clock change inside it).
        var start: Int
        var linear: Bool
        /// Where its readings are in `readings`.
        var range: Range<Int>
    }

    package let weekday: Weekday
    package let departures: ClosedRange<Int>
    package let days: [Day]
    /// Every day's sound readings, day after day, each day's in time order: seconds since 1970
    /// and minutes (one array for all, rather than one for each of a year of days).
    private let readings: [(at: Int, minutes: Int)]
    private let calendar: ZonedCalendar

    /// The days of `weekday` before the day numbered `before` (today: a day not over is not
    /// counted), newest first, back to the history's first reading.
    package init(_ contents: HistoryFile.Contents, weekday: Weekday, departures: ClosedRange<Int>, before: Int, calendar: ZonedCalendar) {
        self.weekday = weekday
        self.departures = departures
        self.calendar = calendar
        var days: [Day] = []
        var readings: [(at: Int, minutes: Int)] = []
        if let first = contents.first?.at {
            let reach = DepartureTimes.reach
            let length = (departures.upperBound - departures.lowerBound) * 60
            var day = before - 1 - (CivilDate.weekday(ofDayNumber: before - 1).rawValue - weekday.rawValue).floorModulo(7)
            // A week before a start is the week-earlier start when the clock kept its offset.
            var previous: (start: Int, offset: Int)?
            // Room for about the share of the readings in the span on one day of the week (at most
            // 4 MB: a hostile file's ends may be centuries apart).
            let weeks = max(0, (contents.last?.at ?? first) - first) / (7 * 86_400) + 1
            let perDay = contents.count / (weeks * 7) * (length + 2 * reach) / 86_400 + 2
            readings.reserveCapacity(min(contents.count, weeks * perDay, 1 << 18))
            while true {
                let (start, offset) = Self.start(day, departures.lowerBound, weekLater: previous, calendar)
                previous = (start, offset)
                // The span's end is its start and its length unless the clock changes inside it.
                let linear = calendar.offset(at: start + length) == offset
                let end = linear ? start + length : calendar.instant(dayNumber: day, minuteOfDay: departures.upperBound)
                guard end + reach >= first else { break }
                let from = readings.count
                contents.appendSoundReadings(in: (start - reach)..<(end + reach + 1), to: &readings)
                if readings.count > from {
                    days.append(Day(dayNumber: day, start: start, linear: end - start == length, range: from..<readings.count))
                }
                day -= 7
            }
        }
        self.days = days
        self.readings = readings
    }

    /// The instant of `minuteOfDay` on `day`, and the offset then: a week before the same minute a
    /// week later when that offset held all the day before and after (no clock change near it, so
    /// no hour repeated or skipped), else worked out from the zone.
    private static func start(_ day: Int, _ minuteOfDay: Int, weekLater: (start: Int, offset: Int)?, _ calendar: ZonedCalendar) -> (Int, Int) {
        if let weekLater {
            let start = weekLater.start - 7 * 86_400
            if calendar.offset(at: start - 86_400) == weekLater.offset, calendar.offset(at: start + 86_400) == weekLater.offset {
                return (start, weekLater.offset)
            }
        }
        let start = calendar.instant(dayNumber: day, minuteOfDay: minuteOfDay)
        return (start, calendar.offset(at: start))
    }

    /// The least minutes of any reading kept: no day's time for any departure is below it.
    package var fastest: Int { readings.lazy.map(\.minutes).min() ?? 0 }

    /// Where each day's search for a departure starts: for departures tried latest first, each
    /// day's answer is at or before the last one, and is found by stepping back from it.
    package struct Cursors: Sendable {
        fileprivate var firstAtOrAfter: [Int]
    }

    /// Cursors for the latest departures first.
    package var cursors: Cursors { Cursors(firstAtOrAfter: days.map(\.range.upperBound)) }

    /// Each day's minutes when leaving at `minuteOfDay`, as `times` gives them, into `minutes`;
    /// `cursors` moved along (departures asked for in falling order).
    package func minutes(leavingAt minuteOfDay: Int, into minutes: inout [Int], cursors: inout Cursors) {
        readings.withUnsafeBufferPointer { readings in
            for position in days.indices {
                let day = days[position]
                let moment = moment(day, minuteOfDay)
                var low = min(cursors.firstAtOrAfter[position], day.range.upperBound)
                while low > day.range.lowerBound, readings[low - 1].at >= moment { low -= 1 }
                cursors.firstAtOrAfter[position] = low
                if let index = Self.nearest(readings, day.range, moment, firstAtOrAfter: low) { minutes.append(readings[index].minutes) }
            }
        }
    }

    /// Each day's minutes when leaving at `minuteOfDay` (within the span): its reading nearest that
    /// moment within the reach, the later of two as near; newest day first.
    package func times(leavingAt minuteOfDay: Int) -> [(date: CivilDate, minutes: Int)] {
        days.compactMap { day in
            let moment = moment(day, minuteOfDay)
            var low = day.range.lowerBound
            var high = day.range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if readings[middle].at < moment { low = middle + 1 } else { high = middle }
            }
            return readings.withUnsafeBufferPointer { Self.nearest($0, day.range, moment, firstAtOrAfter: low) }
                .map { (CivilDate(dayNumber: day.dayNumber), readings[$0].minutes) }
        }
    }

    /// The instant of the departure at `minuteOfDay` on a day.
    private func moment(_ day: Day, _ minuteOfDay: Int) -> Int {
        day.linear ? day.start + (minuteOfDay - departures.lowerBound) * 60 : calendar.instant(dayNumber: day.dayNumber, minuteOfDay: minuteOfDay)
    }

    /// The index of a day's reading nearest `moment` (the day's readings are `range`), within the
    /// reach, given the first reading at or after it (`firstAtOrAfter`): that one (the last of
    /// several at its second) or the one before it, the nearer, the later when as near.
    @inline(__always)
    private static func nearest(
        _ readings: UnsafeBufferPointer<(at: Int, minutes: Int)>, _ range: Range<Int>, _ moment: Int, firstAtOrAfter low: Int
    ) -> Int? {
        var after = low < range.upperBound ? low : nil
        while let index = after, index + 1 < range.upperBound, readings[index + 1].at == readings[index].at { after = index + 1 }
        let before = low > range.lowerBound ? low - 1 : nil
        let chosen: Int? = switch (before, after) {
        case (nil, nil): nil
        case (let index?, nil), (nil, let index?): index
        case (let early?, let late?): readings[late].at - moment <= moment - readings[early].at ? late : early
        }
        guard let chosen, abs(readings[chosen].at - moment) <= DepartureTimes.reach else { return nil }
        return chosen
    }
}
