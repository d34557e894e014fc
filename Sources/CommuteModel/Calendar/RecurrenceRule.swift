import Basics
import FoundationEssentials

/// How much expanding a calendar may cost: every period (day, week, month or year) a rule steps
/// through counts, so an endless or pathological rule ends, and a file's rules share one budget.
public struct RecurrenceBudget: Sendable {
    public var periods: Int

    public init(periods: Int) { self.periods = periods }

    /// A file's whole budget: ten thousand weekly meetings over a year take a twentieth of it.
    public static let perCalendar = 2_000_000
}

/// An RRULE (RFC 5545 §3.3.10): FREQ DAILY, WEEKLY, MONTHLY or YEARLY; INTERVAL, COUNT, UNTIL,
/// BYDAY (with ordinals), BYMONTHDAY, BYMONTH, BYSETPOS, BYHOUR, BYMINUTE, WKST. Recurrence is on
/// the wall clock of the start's zone: a 9:00 meeting stays at 9:00 across daylight saving.
public struct RecurrenceRule: Sendable, Equatable {
    public enum Frequency: String, Sendable { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }

    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: ICSTime?
    /// Weekday index 0 = Sunday … 6 = Saturday, and an ordinal (0: every one).
    public var byDay: [(weekday: Int, ordinal: Int)] = []
    public var byMonthDay: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPosition: [Int] = []
    public var byHour: [Int] = []
    public var byMinute: [Int] = []
    /// Weekday index the week starts on (Monday unless WKST says).
    public var weekStart = 1

    public static func == (lhs: RecurrenceRule, rhs: RecurrenceRule) -> Bool {
        lhs.frequency == rhs.frequency && lhs.interval == rhs.interval && lhs.count == rhs.count && lhs.until == rhs.until
            && lhs.byDay.elementsEqual(rhs.byDay) { $0 == $1 } && lhs.byMonthDay == rhs.byMonthDay && lhs.byMonth == rhs.byMonth
            && lhs.bySetPosition == rhs.bySetPosition && lhs.byHour == rhs.byHour && lhs.byMinute == rhs.byMinute
            && lhs.weekStart == rhs.weekStart
    }

    static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// `FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T000000Z`; `zone` is the start's, for a local UNTIL.
    public init(_ text: String, zone: ICSZone) throws(Problem) {
        var frequency: Frequency?
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingWhitespace().uppercased()
            // Outlook writes `BYDAY=MO, TU`: spaces around the items are not part of them.
            let value = pair[1].uppercased().split(separator: ",").map { $0.trimmingWhitespace() }.joined(separator: ",")
            func numbers(_ range: ClosedRange<Int>, signed: Bool) throws(Problem) -> [Int] {
                var result: [Int] = []
                for item in value.split(separator: ",") {
                    guard let number = Int(item), range.contains(abs(number)), signed || number >= 0, number != 0 || range.lowerBound == 0
                    else { throw Problem(description: "\(key)=\(value.prefix(40)) is out of range") }
                    result.append(number)
                }
                return result
            }
            switch key {
            case "FREQ":
                guard let known = Frequency(rawValue: value) else {
                    throw Problem(description: "FREQ=\(value.prefix(20)) is not supported (daily, weekly, monthly and yearly are)")
                }
                frequency = known
            case "INTERVAL":
                guard let number = Int(value), (1...10_000).contains(number) else { throw Problem(description: "INTERVAL=\(value.prefix(20)) is out of range") }
                interval = number
            case "COUNT":
                // A negative count (`COUNT=-1`, written by some exporters for "no end") is no
                // count, as dateutil and recurring_ical_events read it.
                if value.hasPrefix("-"), value.dropFirst().allSatisfy(\.isASCIIDigit), value.count > 1 { break }
                guard let number = Int(value), (1...1_000_000).contains(number) else { throw Problem(description: "COUNT=\(value.prefix(20)) is out of range") }
                count = number
            case "UNTIL":
                guard let time = ICSTime.parse(value[...], zone: zone) else { throw Problem(description: "UNTIL=\(value.prefix(20)) is not a date") }
                until = time
            case "BYDAY":
                for item in value.split(separator: ",") {
                    let code = String(item.suffix(2))
                    guard let weekday = Self.weekdayCodes.firstIndex(of: code) else { throw Problem(description: "BYDAY=\(value.prefix(40)) names no weekday") }
                    let prefix = item.dropLast(2)
                    var ordinal = 0
                    if !prefix.isEmpty {
                        guard let number = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), number != 0, abs(number) <= 53 else {
                            throw Problem(description: "BYDAY=\(value.prefix(40)) has a bad ordinal")
                        }
                        ordinal = number
                    }
                    byDay.append((weekday, ordinal))
                }
            case "BYMONTHDAY": byMonthDay = try numbers(1...31, signed: true)
            case "BYMONTH": byMonth = try numbers(1...12, signed: false)
            case "BYSETPOS": bySetPosition = try numbers(1...366, signed: true)
            case "BYHOUR": byHour = try numbers(0...23, signed: false)
            case "BYMINUTE": byMinute = try numbers(0...59, signed: false)
            case "WKST":
                guard let weekday = Self.weekdayCodes.firstIndex(of: value) else { throw Problem(description: "WKST=\(value.prefix(10)) names no weekday") }
                weekStart = weekday
            case "BYWEEKNO", "BYYEARDAY", "BYSECOND":
                throw Problem(description: "\(key) is not supported")
            default:
                // A misspelt part (`UNTL=`) read as absent would make an ending series endless;
                // RFC 5545 names every part a rule may have (and RSCALE, RFC 7529, asks for a
                // calendar other than the Gregorian): the series is not guessed at.
                throw Problem(description: "\(DisplayText.line(String(key.prefix(20)))) is not a part of a rule (RFC 5545 §3.3.10)")
            }
        }
        guard let frequency else { throw Problem(description: "RRULE has no FREQ") }
        self.frequency = frequency
    }

    /// The wall times the rule makes from `start` that fall in `from...until`, in order. COUNT is
    /// counted from the start; without COUNT whole periods before `from` are skipped.
    /// `untilWall` is UNTIL on the start's wall clock. Each period stepped through costs `budget`;
    /// when it runs out the expansion stops (the caller reports it).
    public func expand(start: WallTime, isDate: Bool, from: WallTime, until end: WallTime, untilWall: WallTime? = nil, budget: inout RecurrenceBudget)
        -> [WallTime]
    {
        let limit = untilWall.map { min($0, end) } ?? end
        let untilLimit = untilWall ?? WallTime(date: CivilDate(year: 9_999, month: 12, day: 31), second: 0)
        var results: [WallTime] = []
        var produced = 0
        var period = 0
        // Without COUNT, periods wholly before `from` need not be made.
        if count == nil, from > start {
            let skip: Int
            switch frequency {
            case .daily: skip = (from.date.dayNumber - start.date.dayNumber - 1) / interval
            case .weekly: skip = (from.date.dayNumber - start.date.dayNumber - 7) / (7 * interval)
            case .monthly: skip = ((from.date.year - start.date.year) * 12 + from.date.month - start.date.month - 1) / interval
            case .yearly: skip = (from.date.year - start.date.year - 1) / interval
            }
            period = max(0, skip)
        }
        let times = timesOfDay(start, isDate: isDate)
        while budget.periods > 0 {
            budget.periods -= 1
            // A period that begins after the limit ends it: the periods after it begin later still.
            guard let first = periodStart(period, start: start.date), first.year < 10_000, WallTime(date: first, second: 0) <= limit else { break }
            let days = candidateDays(period: period, start: start.date)
            var set: [WallTime] = []
            for day in days {
                for time in times { set.append(WallTime(date: day, second: time)) }
            }
            if !bySetPosition.isEmpty {
                set = bySetPosition.compactMap { position in
                    let index = position > 0 ? position - 1 : set.count + position
                    return set.indices.contains(index) ? set[index] : nil
                }.sorted()
            }
            for candidate in set where candidate >= start {
                if candidate > untilLimit { return results }
                if let count, produced >= count { return results }
                produced += 1
                if candidate > end { return results }
                if candidate >= from { results.append(candidate) }
            }
            period += 1
        }
        return results
    }

    private func timesOfDay(_ start: WallTime, isDate: Bool) -> [Int] {
        guard !isDate, !byHour.isEmpty || !byMinute.isEmpty else { return [start.second] }
        let hours = byHour.isEmpty ? [start.second / 3_600] : byHour.sorted()
        let minutes = byMinute.isEmpty ? [start.second / 60 % 60] : byMinute.sorted()
        return hours.flatMap { hour in minutes.map { hour * 3_600 + $0 * 60 + start.second % 60 } }
    }

    /// The first day of period number `period` (from the start's period).
    private func periodStart(_ period: Int, start: CivilDate) -> CivilDate? {
        let steps = period * interval
        switch frequency {
        case .daily: return CivilDate(dayNumber: start.dayNumber + steps)
        case .weekly:
            let offset = (CivilDate.weekdayIndex(ofDayNumber: start.dayNumber) - weekStart + 7) % 7
            return CivilDate(dayNumber: start.dayNumber - offset + steps * 7)
        case .monthly:
            let months = start.year * 12 + start.month - 1 + steps
            return CivilDate(year: months / 12, month: months % 12 + 1, day: 1)
        case .yearly:
            return CivilDate(year: start.year + steps, month: 1, day: 1)
        }
    }

    /// The days of one period the BY parts keep, in order.
    func candidateDays(period: Int, start: CivilDate) -> [CivilDate] {
        guard let first = periodStart(period, start: start), first.year < 10_000 else { return [] }
        func weekdayMatches(_ day: CivilDate) -> Bool {
            byDay.isEmpty || byDay.contains { $0.weekday == CivilDate.weekdayIndex(ofDayNumber: day.dayNumber) }
        }
        func monthMatches(_ day: CivilDate) -> Bool { byMonth.isEmpty || byMonth.contains(day.month) }
        func monthDayMatches(_ day: CivilDate) -> Bool {
            guard !byMonthDay.isEmpty else { return true }
            let length = Self.daysIn(year: day.year, month: day.month)
            return byMonthDay.contains { $0 > 0 ? $0 == day.day : length + $0 + 1 == day.day }
        }
        switch frequency {
        case .daily:
            let day = CivilDate(dayNumber: first.dayNumber)
            return monthMatches(day) && monthDayMatches(day) && weekdayMatches(day) ? [day] : []
        case .weekly:
            let weekdays = byDay.isEmpty ? [CivilDate.weekdayIndex(ofDayNumber: start.dayNumber)] : byDay.map(\.weekday)
            return (0..<7).map { CivilDate(dayNumber: first.dayNumber + $0) }.filter {
                weekdays.contains(CivilDate.weekdayIndex(ofDayNumber: $0.dayNumber)) && monthMatches($0)
            }
        case .monthly:
            guard monthMatches(first) else { return [] }
            return daysOfMonth(year: first.year, month: first.month, start: start)
        case .yearly:
            if byMonthDay.isEmpty, !byDay.isEmpty, byMonth.isEmpty {
                // Weekdays of the whole year; ordinals count within the year.
                return weekdays(in: first.dayNumber..<CivilDate(year: first.year + 1, month: 1, day: 1).dayNumber)
            }
            let months = byMonth.isEmpty ? (byMonthDay.isEmpty && byDay.isEmpty ? [start.month] : Array(1...12)) : byMonth.sorted()
            return months.flatMap { daysOfMonth(year: first.year, month: $0, start: start) }
        }
    }

    private func daysOfMonth(year: Int, month: Int, start: CivilDate) -> [CivilDate] {
        let length = Self.daysIn(year: year, month: month)
        let firstDay = CivilDate(year: year, month: month, day: 1).dayNumber
        if !byMonthDay.isEmpty {
            let days = Set(byMonthDay.map { $0 > 0 ? $0 : length + $0 + 1 }.filter { (1...length).contains($0) })
            let candidates = days.sorted().map { CivilDate(year: year, month: month, day: $0) }
            guard !byDay.isEmpty else { return candidates }
            let allowed = Set(weekdays(in: firstDay..<(firstDay + length)).map(\.day))
            return candidates.filter { allowed.contains($0.day) }
        }
        if !byDay.isEmpty { return weekdays(in: firstDay..<(firstDay + length)) }
        guard start.day <= length else { return [] }
        return [CivilDate(year: year, month: month, day: start.day)]
    }

    /// The BYDAY days in a range of days: every such weekday, or the nth (from the end when negative).
    private func weekdays(in range: Range<Int>) -> [CivilDate] {
        var chosen = Set<Int>()
        for (weekday, ordinal) in byDay {
            let matching = range.filter { CivilDate.weekdayIndex(ofDayNumber: $0) == weekday }
            if ordinal == 0 {
                chosen.formUnion(matching)
            } else {
                let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
                if matching.indices.contains(index) { chosen.insert(matching[index]) }
            }
        }
        return chosen.sorted().map { CivilDate(dayNumber: $0) }
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
