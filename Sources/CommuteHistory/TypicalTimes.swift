import Basics
import CommuteModel
import FoundationEssentials

/// Typical times computed from a route's history.
public enum TypicalTimes {
    /// The window typical times look at from `moment`: the `weeks` before it.
    public static func window(weeks: Int, before moment: Date) -> Range<Int> {
        let end = Int(moment.timeIntervalSince1970.rounded(.down))
        return (end - weeks * 7 * 86_400)..<end
    }

    /// Every slot of the week that has readings in `window` (suspicious ones left out), in one pass.
    package static func week(
        _ contents: HistoryFile.Contents, window: Range<Int>, calendar: ZonedCalendar
    ) -> (slots: [TimeSlot: TypicalTime], damaged: Int) {
        var minutes = [[Int]](repeating: [], count: 7 * TimeSlot.perDay)
        var days = [Int](repeating: 0, count: 7 * TimeSlot.perDay)
        var lastDay = [Int](repeating: Int.min, count: 7 * TimeSlot.perDay)
        let damaged = contents.forEach(in: window) { record in
            guard !record.suspicious else { return }
            let local = calendar.local(record.date)
            let ordinal = TimeSlot(local).ordinal
            minutes[ordinal].append(record.minutes)
            let day = local.date.dayNumber
            if lastDay[ordinal] != day {
                lastDay[ordinal] = day
                days[ordinal] += 1
            }
        }
        var slots: [TimeSlot: TypicalTime] = [:]
        for ordinal in minutes.indices {
            guard let weekday = Weekday(rawValue: ordinal / TimeSlot.perDay + 1),
                let typical = TypicalTime(minutes: minutes[ordinal], weeks: days[ordinal])
            else { continue }
            slots[TimeSlot(weekday: weekday, index: ordinal % TimeSlot.perDay)] = typical
        }
        return (slots, damaged)
    }

    /// One slot, read alone: for each week in `window`, only the records within an hour of that
    /// day's slot are looked at. The same answer `week` gives for the slot.
    package static func slot(
        _ slot: TimeSlot, in contents: HistoryFile.Contents, window: Range<Int>, calendar: ZonedCalendar
    ) -> TypicalTime? {
        guard contents.count > 0, !window.isEmpty else { return nil }
        var minutes: [Int] = []
        var weeks = 0
        // The latest day of the slot's weekday at or before the window's end, then a week at a time.
        let lastDay = calendar.localDay(of: window.upperBound)
        let back = (CivilDate.weekday(ofDayNumber: lastDay).rawValue - slot.weekday.rawValue).floorModulo(7)
        var day = lastDay - back
        while true {
            let start = calendar.instant(dayNumber: day, minuteOfDay: slot.index * 15)
            guard start + 15 * 60 + 3_600 > window.lowerBound else { break }
            let (low, high) = (max(window.lowerBound, start - 3_600), min(window.upperBound, start + 15 * 60 + 3_600))
            var found = false
            if low < high {
                contents.forEach(in: low..<high) { record in
                    guard !record.suspicious else { return }
                    let local = calendar.local(record.date)
                    guard local.date.dayNumber == day, TimeSlot(local) == slot else { return }
                    minutes.append(record.minutes)
                    found = true
                }
            }
            if found { weeks += 1 }
            day -= 7
        }
        return TypicalTime(minutes: minutes, weeks: weeks)
    }
}
