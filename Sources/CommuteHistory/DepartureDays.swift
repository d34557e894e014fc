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
        var fastest = Int.max
        if let first = contents.first?.at {
            let reach = DepartureTimes.reach
            let length = (departures.upperBound - departures.lowerBound) * 60
            var day = before - 1 - (CivilDate.weekday(ofDayNumber: before - 1).rawValue - weekday.rawValue).floorModulo(7)
            // A week before a start is the week-earlier start when the clock kept its offset.
            var previous: (start: Int, offset: Int)?
            var offsets = ZonedCalendar.Offsets(calendar)
            // Where the last two spans read (the weeks after) began in the file: the next is about
            // as far back again, so its search starts there, and the one after it is asked of
            // memory ahead (each span of a year of days is a cache miss of its own otherwise).
            var read: (last: Int, beforeLast: Int?)?
            // Room for about the share of the readings in the span on one day of the week (at most
            // 4 MB: a hostile file's ends may be centuries apart).
            let weeks = max(0, (contents.last?.at ?? first) - first) / (7 * 86_400) + 1
            let perDay = contents.count / (weeks * 7) * (length + 2 * reach) / 86_400 + 2
            readings.reserveCapacity(min(contents.count, weeks * perDay, 1 << 18))
            while true {
                let (start, offset) = Self.start(day, departures.lowerBound, weekLater: previous, calendar, &offsets)
                previous = (start, offset)
                // The span's end is its start and its length unless the clock changes inside it.
                let linear = offsets.at(start + length) == offset
                let end = linear ? start + length : calendar.instant(dayNumber: day, minuteOfDay: departures.upperBound)
                guard end + reach >= first else { break }
                let from = readings.count
                let guess = read.flatMap { read in read.beforeLast.map { 2 * read.last - $0 } }
                let found = contents.appendSoundReadings(in: (start - reach)..<(end + reach + 1), to: &readings, searchingFrom: guess)
                if let read {
                    let week = read.last - found
                    let records = readings.count - from + 8
                    if read.beforeLast == nil { contents.prefetch(records: (found - week - 4)..<(found - week + records)) }
                    contents.prefetch(records: (found - 2 * week - 4)..<(found - 2 * week + records))
                }
                read = (found, read?.last)
                for reading in readings[from...] { fastest = min(fastest, reading.minutes) }
                if readings.count > from {
                    days.append(Day(dayNumber: day, start: start, linear: end - start == length, range: from..<readings.count))
                }
                day -= 7
            }
        }
        self.days = days
        self.readings = readings
        self.fastest = readings.isEmpty ? 0 : fastest
    }

    /// The instant of `minuteOfDay` on `day`, and the offset then: a week before the same minute a
    /// week later when that offset held all the day before and after (no clock change near it, so
    /// no hour repeated or skipped), else worked out from the zone.
    private static func start(
        _ day: Int, _ minuteOfDay: Int, weekLater: (start: Int, offset: Int)?, _ calendar: ZonedCalendar, _ offsets: inout ZonedCalendar.Offsets
    ) -> (Int, Int) {
        if let weekLater {
            let start = weekLater.start - 7 * 86_400
            if offsets.at(start + 86_400) == weekLater.offset, offsets.at(start - 86_400) == weekLater.offset {
                return (start, weekLater.offset)
            }
        }
        let start = calendar.instant(dayNumber: day, minuteOfDay: minuteOfDay)
        return (start, offsets.at(start))
    }

    /// The least minutes of any reading kept: no day's time for any departure is below it.
    package let fastest: Int

    /// Where each day's search for a departure starts: for departures tried latest first, each
    /// day's answer is at or before the last one, and is found by stepping back from it.
    package struct Cursors: Sendable {
        fileprivate var firstAtOrAfter: [Int]
    }

    /// Cursors for the latest departures first.
    package var cursors: Cursors { Cursors(firstAtOrAfter: days.map(\.range.upperBound)) }

    /// Each day's minutes when leaving at `minuteOfDay`, as `times` gives them, into `minutes`;
    /// `cursors` moved along (departures asked for in falling order). Returns the earliest minute
    /// down to which leaving gives every day the same reading (or none) as at `minuteOfDay`: with
    /// readings every five minutes, the next four minutes need no reading of their own.
    package func minutes(leavingAt minuteOfDay: Int, into minutes: inout [Int], cursors: inout Cursors) -> Int {
        var same = Int.min
        readings.withUnsafeBufferPointer { readings in
            for position in days.indices {
                let day = days[position]
                let moment = moment(day, minuteOfDay)
                var low = min(cursors.firstAtOrAfter[position], day.range.upperBound)
                while low > day.range.lowerBound, readings[low - 1].at >= moment { low -= 1 }
                cursors.firstAtOrAfter[position] = low
                let (index, from) = Self.nearest(readings, day.range, moment, firstAtOrAfter: low)
                if let index { minutes.append(readings[index].minutes) }
                // The earliest moment with the same answer, as a minute of the day (any change of
                // the clock that day: this minute alone).
                let earliest = !day.linear ? minuteOfDay : from == Int.min ? Int.min : minuteOfDay - (moment - from) / 60
                same = max(same, earliest)
            }
        }
        return min(same, minuteOfDay)
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
            return readings.withUnsafeBufferPointer { Self.nearest($0, day.range, moment, firstAtOrAfter: low).index }
                .map { (CivilDate(dayNumber: day.dayNumber), readings[$0].minutes) }
        }
    }

    /// The instant of the departure at `minuteOfDay` on a day.
    private func moment(_ day: Day, _ minuteOfDay: Int) -> Int {
        day.linear ? day.start + (minuteOfDay - departures.lowerBound) * 60 : calendar.instant(dayNumber: day.dayNumber, minuteOfDay: minuteOfDay)
    }

    /// The index of a day's reading nearest `moment` (the day's readings are `range`), within the
    /// reach, given the first reading at or after it (`firstAtOrAfter`): that one (the last of
    /// several at its second) or the one before it, the nearer, the later when as near. Nil when
    /// neither is within reach. And `from`: the earliest moment down to which the answer stays
    /// the same — the chosen reading, until halfway to the one before it or out of reach; none,
    /// until the one before comes into reach.
    @inline(__always)
    private static func nearest(
        _ readings: UnsafeBufferPointer<(at: Int, minutes: Int)>, _ range: Range<Int>, _ moment: Int, firstAtOrAfter low: Int
    ) -> (index: Int?, from: Int) {
        var after = low < range.upperBound ? low : nil
        while let index = after, index + 1 < range.upperBound, readings[index + 1].at == readings[index].at { after = index + 1 }
        let before = low > range.lowerBound ? low - 1 : nil
        let reach = DepartureTimes.reach
        let chosen: Int? = switch (before, after) {
        case (nil, nil): nil
        case (let index?, nil), (nil, let index?): index
        case (let early?, let late?): readings[late].at - moment <= moment - readings[early].at ? late : early
        }
        guard let chosen, abs(readings[chosen].at - moment) <= reach else {
            return (nil, before.map { readings[$0].at + reach + 1 } ?? Int.min)
        }
        // The chosen one is the last of the readings at its second; the one before is before them.
        let at = readings[chosen].at
        var first = chosen
        while first > range.lowerBound, readings[first - 1].at == at { first -= 1 }
        var from = at - reach
        if first > range.lowerBound {
            // Halfway, rounded up: as near as the one before, the later is taken.
            from = max(from, (readings[first - 1].at + at + 1) >> 1)
        }
        return (chosen, from)
    }
}
