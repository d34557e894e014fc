import Basics
import FoundationEssentials

/// One VEVENT as read: what it says, its times resolved to zones.
struct EventDefinition {
    var uid: String
    var line: Int
    var summary: String
    var location: String?
    var start: ICSTime
    /// DTEND, or DTSTART plus DURATION; nil when neither.
    var endTime: ICSTime?
    var duration: Int?
    var status: String?
    var isFree: Bool
    var place: Coordinate?
    var rules: [RecurrenceRule]
    var dates: [ICSTime]
    var exceptions: [ICSTime]
    var recurrenceID: ICSTime?
    var thisAndFuture: Bool
    /// SEQUENCE: which of two copies of the same event is the newer (0 when absent).
    var sequence: Int
    /// The identity of the instance an override replaces (see `key`).
    var recurrenceKey: Int?
    let savedZone: IANAZone

    var isRecurring: Bool { !rules.isEmpty || !dates.isEmpty }

    /// What an event without a UID is called, by its line: `line-12`.
    static let unnamed = "line-"

    init(_ component: ICSComponent, resolver: ICSZoneResolver, saved: IANAZone) throws(CalendarProblem) {
        let uid = component.first("UID")?.value ?? "\(Self.unnamed)\(component.line)"
        func problem(_ reason: String) -> CalendarProblem { CalendarProblem(uid: uid, line: component.line, reason: reason) }
        func time(_ property: ICSProperty, _ text: Substring) throws(CalendarProblem) -> ICSTime {
            let isDate = property.parameter("VALUE")?.uppercased() == "DATE"
            var zone = ICSZone.floating
            if let tzid = property.parameter("TZID") {
                guard let known = resolver.zone(tzid) else {
                    var unknown = problem("\(property.name): unknown time zone '\(DisplayText.line(String(tzid.prefix(80))))'")
                    unknown.unknownZone = true
                    throw unknown
                }
                zone = known
            }
            guard var value = ICSTime.parse(text, zone: zone, dateOnly: isDate) else {
                throw problem("\(property.name): '\(DisplayText.line(String(text.prefix(40))))' is not a date or time")
            }
            // A calendar's X-WR-TIMEZONE applies to its UTC times, and is the zone of its floating
            // ones (as recurring_ical_events reads it, through x-wr-timezone): a Brussels calendar
            // read in New York is at Brussels' times.
            if let calendarZone = resolver.calendarZone, case .dateTime(let wall, let written) = value {
                switch written {
                case .utc:
                    let instant = ICSZone.utc.instant(wall, saved: saved)
                    value = .dateTime(ICSZone.iana(calendarZone).wall(instant, saved: saved), .iana(calendarZone))
                case .floating: value = .dateTime(wall, .iana(calendarZone))
                case .iana, .custom: break
                }
            }
            return value
        }
        self.uid = uid
        line = component.line
        savedZone = saved
        summary = component.first("SUMMARY").map { ICSReader.text($0.value) } ?? ""
        location = component.first("LOCATION").map { ICSReader.text($0.value) }.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        guard let startProperty = component.first("DTSTART") else { throw problem("no DTSTART") }
        start = try time(startProperty, startProperty.value[...])
        if let endProperty = component.first("DTEND") {
            let end = try time(endProperty, endProperty.value[...])
            // An end before the start is the two written the wrong way round: the event starts
            // at the earlier (as recurring_ical_events reads it).
            if end.isDate == start.isDate, end.instant(saved: saved) < start.instant(saved: saved) {
                endTime = start
                start = end
            } else {
                endTime = end
            }
        } else if let text = component.first("DURATION")?.value {
            guard let seconds = Self.duration(text) else { throw problem("DURATION '\(DisplayText.line(String(text.prefix(40))))' is not a duration") }
            duration = seconds
        }
        sequence = component.first("SEQUENCE").flatMap { Int($0.value.trimmingWhitespace()) }.map { min(max($0, 0), 1_000_000) } ?? 0
        status = component.first("STATUS")?.value.uppercased()
        isFree = component.first("TRANSP")?.value.uppercased() == "TRANSPARENT"
            || component.first("X-MICROSOFT-CDO-BUSYSTATUS")?.value.uppercased() == "FREE"
        place = Self.place(component)
        var rules: [RecurrenceRule] = []
        for property in component.all("RRULE") where !property.value.trimmingWhitespace().isEmpty {
            let zone: ICSZone = if case .dateTime(_, let zone) = start { zone } else { .floating }
            do throws(RecurrenceRule.Problem) {
                rules.append(try RecurrenceRule(property.value, zone: zone))
            } catch {
                throw problem("RRULE: \(error.description)")
            }
        }
        self.rules = rules
        var dates: [ICSTime] = []
        for property in component.all("RDATE") {
            for item in property.value.split(separator: ",") {
                // A PERIOD's start.
                let text = item.split(separator: "/").first ?? item
                dates.append(try time(property, text))
            }
        }
        self.dates = dates
        var exceptions: [ICSTime] = []
        for property in component.all("EXDATE") {
            for item in property.value.split(separator: ",") { exceptions.append(try time(property, item)) }
        }
        self.exceptions = exceptions
        thisAndFuture = false
        if let property = component.first("RECURRENCE-ID") {
            let value = try time(property, property.value[...])
            recurrenceID = value
            thisAndFuture = property.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
            recurrenceKey = Self.key(value, saved: saved)
        }
    }

    /// An instance's identity: its instant, or for a date its day (an Exchange EXDATE written as
    /// a zoned midnight for an all-day series still removes that day).
    static func key(_ time: ICSTime, saved: IANAZone) -> Int {
        switch time {
        case .date(let date): date.dayNumber * 86_400
        case .dateTime: time.instant(saved: saved)
        }
    }

    func key(_ time: ICSTime) -> Int {
        if start.isDate { return time.wall.date.dayNumber * 86_400 }
        return Self.key(time, saved: savedZone)
    }

    /// The starts of the instances near the window, by identity.
    func starts(from: Int, until: Int, saved: IANAZone, budget: inout RecurrenceBudget) throws(CalendarProblem) -> [(Int, ICSTime)] {
        guard isRecurring else { return [(key(start), start)] }
        let zone: ICSZone = if case .dateTime(_, let zone) = start { zone } else { .floating }
        let fromWall = zone.wall(from, saved: saved)
        let untilWall = zone.wall(until, saved: saved)
        var walls: [WallTime] = []
        var lastUntil: WallTime?
        for rule in rules {
            let ruleUntil: WallTime? = rule.until.map { until in
                // An all-day series ends on the date UNTIL names, however it is written.
                if start.isDate { return WallTime(date: until.wall.date, second: 0) }
                switch until {
                case .date(let date): return WallTime(date: date, second: 86_399)
                case .dateTime(let wall, .floating): return wall
                case .dateTime: return zone.wall(until.instant(saved: saved), saved: saved)
                }
            }
            if let ruleUntil, lastUntil.map({ ruleUntil > $0 }) ?? true { lastUntil = ruleUntil }
            walls += rule.expand(start: start.wall, isDate: start.isDate, from: fromWall, until: untilWall, untilWall: ruleUntil, budget: &budget)
            if budget.periods <= 0 {
                throw CalendarProblem(uid: uid, line: line, reason: "its recurrence takes too long to expand; skipped")
            }
        }
        // The start is an instance, unless the rules end before it (an UNTIL before DTSTART: a
        // series with nothing left, as recurring_ical_events reads it).
        let rulesEnded = rules.allSatisfy { $0.until != nil } && lastUntil.map { start.wall > $0 } == true
        if !rulesEnded { walls.insert(start.wall, at: 0) }
        var result: [(Int, ICSTime)] = walls.map { wall in
            let time: ICSTime = start.isDate ? .date(wall.date) : .dateTime(wall, zone)
            return (key(time), time)
        }
        // A date among a timed series' RDATEs is that day's midnight in the series' zone, and a
        // date among its EXDATEs removes every instance that day (as recurring_ical_events reads
        // the mix).
        result += dates.map { date in
            if case .date(let day) = date, !start.isDate {
                let time = ICSTime.dateTime(WallTime(date: day, second: 0), zone)
                return (key(time), time)
            }
            return (key(date), date)
        }
        // A floating series keeps to the wall clock of your zone: an EXDATE written in UTC (as
        // many writers do whatever the series) removes the instance at the same wall-clock time.
        let excluded = Set(exceptions.map { exception in
            if case .floating = zone, case .dateTime(let wall, .utc) = exception { return key(.dateTime(wall, .floating)) }
            return key(exception)
        })
        var excludedDays: Set<Int> = []
        if !start.isDate {
            for case .date(let day) in exceptions { excludedDays.insert(day.dayNumber) }
        }
        return result.filter { !excluded.contains($0.0) && !excludedDays.contains($0.1.wall.date.dayNumber) }
    }

    /// The occurrence starting at `time`.
    func occurrence(at time: ICSTime, saved: IANAZone, recurrenceID: Int?) -> CalendarOccurrence {
        let startInstant = time.instant(saved: saved)
        return CalendarOccurrence(
            uid: uid, recurrenceID: recurrenceID, summary: summary, location: location, start: startInstant,
            end: end(after: time, saved: saved), allDay: time.isDate, status: status, isFree: isFree, place: place)
    }

    /// When an instance starting at `time` ends: the same length as the event's first.
    func end(after time: ICSTime, saved: IANAZone) -> Int {
        let startInstant = time.instant(saved: saved)
        if let duration { return startInstant + duration }
        guard let endTime else {
            // No end: a date lasts the day, a time is a moment.
            if case .date(let date) = time { return ICSTime.date(CivilDate(dayNumber: date.dayNumber + 1)).instant(saved: saved) }
            return startInstant
        }
        if case .date(let first) = start, case .date(let last) = endTime, case .date(let date) = time {
            let days = max(1, last.dayNumber - first.dayNumber)
            return ICSTime.date(CivilDate(dayNumber: date.dayNumber + days)).instant(saved: saved)
        }
        return startInstant + max(0, endTime.instant(saved: saved) - start.instant(saved: saved))
    }

    /// `PT1H30M`, `P1D`, `-PT15M`, `P2W` (§3.3.6), in seconds; nil when not one.
    static func duration(_ text: String) -> Int? {
        var text = Substring(text.trimmingWhitespace())
        var sign = 1
        if text.hasPrefix("-") { sign = -1; text = text.dropFirst() } else if text.hasPrefix("+") { text = text.dropFirst() }
        guard text.hasPrefix("P") else { return nil }
        text = text.dropFirst()
        var total = 0
        var number = 0
        var digits = 0
        var inTime = false
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                guard digits < 9 else { return nil }
                number = number * 10 + digit
                digits += 1
                continue
            }
            let unit: Int
            switch character {
            case "T": inTime = true; continue
            case "W" where !inTime: unit = 604_800
            case "D" where !inTime: unit = 86_400
            case "H" where inTime: unit = 3_600
            case "M" where inTime: unit = 60
            case "S" where inTime: unit = 1
            default: return nil
            }
            guard digits > 0 else { return nil }
            total += number * unit
            number = 0
            digits = 0
        }
        guard digits == 0, total <= 366 * 86_400 else { return nil }
        return sign * total
    }

    /// GEO:lat;lon, else X-APPLE-STRUCTURED-LOCATION's `geo:lat,lon`.
    static func place(_ component: ICSComponent) -> Coordinate? {
        if let geo = component.first("GEO")?.value {
            let parts = geo.split(separator: ";")
            if parts.count == 2, let latitude = Double(parts[0].trimmingWhitespace()), let longitude = Double(parts[1].trimmingWhitespace()),
                let point = Coordinate(latitude: latitude, longitude: longitude)
            {
                return point
            }
        }
        if let apple = component.first("X-APPLE-STRUCTURED-LOCATION")?.value, apple.lowercased().hasPrefix("geo:") {
            let parts = apple.dropFirst(4).split(separator: ";").first?.split(separator: ",") ?? []
            if parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                let point = Coordinate(latitude: latitude, longitude: longitude)
            {
                return point
            }
        }
        return nil
    }
}
