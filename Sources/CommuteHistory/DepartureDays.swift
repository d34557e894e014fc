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
        /// Seconds since 1970 and minutes, in time order.
        var readings: [(at: Int, minutes: Int)]
    }

    package let weekday: Weekday
    package let departures: ClosedRange<Int>
    package let days: [Day]
    private let calendar: ZonedCalendar

    /// The days of `weekday` before the day numbered `before` (today: a day not over is not
    /// counted), newest first, back to the history's first reading.
    package init(_ contents: HistoryFile.Contents, weekday: Weekday, departures: ClosedRange<Int>, before: Int, calendar: ZonedCalendar) {
        self.weekday = weekday
        self.departures = departures
        self.calendar = calendar
        var days: [Day] = []
        if let first = contents.first?.at {
            let reach = DepartureTimes.reach
            var day = before - 1 - (CivilDate.weekday(ofDayNumber: before - 1).rawValue - weekday.rawValue).floorModulo(7)
            while true {
                let start = calendar.instant(dayNumber: day, minuteOfDay: departures.lowerBound)
                let end = calendar.instant(dayNumber: day, minuteOfDay: departures.upperBound)
                guard end + reach >= first else { break }
                var readings: [(at: Int, minutes: Int)] = []
                contents.forEach(in: (start - reach)..<(end + reach + 1)) { record in
                    if !record.suspicious { readings.append((record.at, record.minutes)) }
                }
                if !readings.isEmpty {
                    days.append(Day(
                        dayNumber: day, start: start, linear: end - start == (departures.upperBound - departures.lowerBound) * 60, readings: readings))
                }
                day -= 7
            }
        }
        self.days = days
    }

    /// Each day's minutes when leaving at `minuteOfDay` (within the span): its reading nearest that
    /// moment within the reach, the later of two as near; newest day first.
    package func times(leavingAt minuteOfDay: Int) -> [(date: CivilDate, minutes: Int)] {
        days.compactMap { day in
            let moment = day.linear
                ? day.start + (minuteOfDay - departures.lowerBound) * 60 : calendar.instant(dayNumber: day.dayNumber, minuteOfDay: minuteOfDay)
            var best: (distance: Int, minutes: Int)?
            for reading in day.readings {
                let distance = abs(reading.at - moment)
                guard distance <= DepartureTimes.reach else { continue }
                // In time order: a later reading as near wins.
                if distance <= best?.distance ?? .max { best = (distance, reading.minutes) }
            }
            return best.map { (CivilDate(dayNumber: day.dayNumber), $0.minutes) }
        }
    }
}
