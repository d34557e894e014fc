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
            while true {
                let start = calendar.instant(dayNumber: day, minuteOfDay: departures.lowerBound)
                // The span's end is its start and its length unless the clock changes inside it.
                let linear = calendar.offset(at: start + length) == calendar.offset(at: start)
                let end = linear ? start + length : calendar.instant(dayNumber: day, minuteOfDay: departures.upperBound)
                guard end + reach >= first else { break }
                let from = readings.count
                contents.forEach(in: (start - reach)..<(end + reach + 1), nearby: true) { record in
                    if !record.suspicious { readings.append((record.at, record.minutes)) }
                }
                if readings.count > from {
                    days.append(Day(dayNumber: day, start: start, linear: end - start == length, range: from..<readings.count))
                }
                day -= 7
            }
        }
        self.days = days
        self.readings = readings
    }

    /// The least minutes of any reading kept: no day's time for any departure is below it.
    package var fastest: Int { readings.lazy.map(\.minutes).min() ?? 0 }

    /// Each day's minutes when leaving at `minuteOfDay`, as `times` gives them, into `minutes`.
    package func minutes(leavingAt minuteOfDay: Int, into minutes: inout [Int]) {
        for day in days {
            if let index = nearest(day, minuteOfDay) { minutes.append(readings[index].minutes) }
        }
    }

    /// Each day's minutes when leaving at `minuteOfDay` (within the span): its reading nearest that
    /// moment within the reach, the later of two as near; newest day first.
    package func times(leavingAt minuteOfDay: Int) -> [(date: CivilDate, minutes: Int)] {
        days.compactMap { day in nearest(day, minuteOfDay).map { (CivilDate(dayNumber: day.dayNumber), readings[$0].minutes) } }
    }

    /// The index of a day's reading nearest the departure at `minuteOfDay`, within the reach.
    private func nearest(_ day: Day, _ minuteOfDay: Int) -> Int? {
        let moment = day.linear
            ? day.start + (minuteOfDay - departures.lowerBound) * 60 : calendar.instant(dayNumber: day.dayNumber, minuteOfDay: minuteOfDay)
        // The first reading at or after the moment (the last of several at that second), and
        // the one before it: the nearer, the later when as near.
        var low = day.range.lowerBound
        var high = day.range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if readings[middle].at < moment { low = middle + 1 } else { high = middle }
        }
        var after = low < day.range.upperBound ? low : nil
        while let index = after, index + 1 < day.range.upperBound, readings[index + 1].at == readings[index].at { after = index + 1 }
        let before = low > day.range.lowerBound ? low - 1 : nil
        let chosen: Int? = switch (before, after) {
        case (nil, nil): nil
        case (let index?, nil), (nil, let index?): index
        case (let early?, let late?): readings[late].at - moment <= moment - readings[early].at ? late : early
        }
        guard let chosen, abs(readings[chosen].at - moment) <= DepartureTimes.reach else { return nil }
        return chosen
    }
}
