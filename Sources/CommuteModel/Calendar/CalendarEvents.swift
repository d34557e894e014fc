import FoundationEssentials

/// One occurrence of a calendar event: a single event, or one instance of a series as its
/// overrides leave it.
public struct CalendarOccurrence: Sendable, Equatable {
    public var uid: String
    /// The instance's original start (RECURRENCE-ID) for an instance of a series; nil for a single event.
    public var recurrenceID: Int?
    public var summary: String
    public var location: String?
    /// Seconds since 1970; an all-day event's are its first day's and the day after its last
    /// day's midnight in the saved zone.
    public var start: Int
    public var end: Int
    public var allDay: Bool
    /// TENTATIVE, CONFIRMED, CANCELLED, as written; nil when not.
    public var status: String?
    /// TRANSP:TRANSPARENT, or Exchange's busy status FREE: it takes up none of your time.
    public var isFree: Bool
    /// GEO, or Apple's structured location.
    public var place: Coordinate?

    public var isCancelled: Bool { status == "CANCELLED" }

    /// What makes two occurrences the same to a commuter, whatever their UIDs.
    struct Sameness: Hashable {
        var start: Int
        var end: Int
        var allDay: Bool
        var summary: String
        var location: String?
        var status: String?
        var isFree: Bool
    }

    var sameness: Sameness {
        Sameness(start: start, end: end, allDay: allDay, summary: summary, location: location, status: status, isFree: isFree)
    }
}

/// An event that could not be read, and why: it is skipped, the rest of the file is used.
public struct CalendarProblem: Error, Sendable, Equatable {
    public var uid: String?
    public var line: Int
    public var reason: String
    /// A TZID no zone is known for (yet: its VTIMEZONE may come later in the file).
    var unknownZone = false

    public init(uid: String?, line: Int, reason: String, unknownZone: Bool = false) {
        self.uid = uid
        self.line = line
        self.reason = reason
        self.unknownZone = unknownZone
    }
}

/// What a calendar holds over a window.
public struct CalendarExpansion: Sendable, Equatable {
    /// Starting inside the window, by start.
    public var occurrences: [CalendarOccurrence]
    public var problems: [CalendarProblem]
    /// How many VEVENTs the file has.
    public var events: Int
}

/// Turns an iCalendar file into the occurrences that start in a window: recurrence rules
/// (RRULE, RDATE, EXDATE) expanded on the start's wall clock, RECURRENCE-ID overrides (and
/// RANGE=THISANDFUTURE) applied by instant, whatever zones they are written in.
public enum CalendarEvents {
    /// The most occurrences a calendar may have in a window.
    public static let maximumOccurrences = 100_000
    /// The most events (series and moved instances) kept near the window while a file is read:
    /// what bounds the memory a calendar of 200,000 events in one fortnight costs.
    public static let maximumKept = 20_000
    /// An override may move an instance this far: instances are made this much either side.
    static let margin = 7 * 86_400

    /// The most problems kept (the first; a file of 200,000 broken events says so in 1,000).
    public static let maximumProblems = 1_000

    public static func expand(_ data: some Collection<UInt8>, from: Int, until: Int, zone saved: IANAZone) throws(ICSReadError) -> CalendarExpansion {
        var problems = BoundedProblems()
        var budget = RecurrenceBudget(periods: RecurrenceBudget.perCalendar)
        var occurrences: [CalendarOccurrence] = []
        var eventCount = 0
        let resolver = ICSZoneResolver()
        var byUID: [String: (master: EventDefinition?, overrides: [EventDefinition])] = [:]
        var order: [String] = []
        var keptTooMany = false
        // Events whose zone is a VTIMEZONE further down the file: read again at the end.
        var waiting: [ICSComponent] = []
        func take(_ component: ICSComponent, retrying: Bool) {
            do throws(CalendarProblem) {
                let event = try EventDefinition(component, resolver: resolver, saved: saved)
                // A single event, or a moved instance, far from the window is not kept: a year's
                // calendar is read without holding the year.
                if !event.isRecurring, !event.thisAndFuture {
                    let start = event.start.instant(saved: saved)
                    let original = event.recurrenceKey ?? start
                    if (start < from - margin || start > until + margin) && (original < from - margin || original > until + margin) { return }
                }
                if byUID[event.uid] == nil {
                    guard order.count < maximumKept else {
                        if !keptTooMany {
                            keptTooMany = true
                            problems.append(CalendarProblem(uid: event.uid, line: component.line, reason: "more than \(maximumKept) events near the window; the rest are left out"))
                        }
                        return
                    }
                    order.append(event.uid)
                }
                if event.recurrenceID != nil {
                    byUID[event.uid, default: (nil, [])].overrides.append(event)
                } else if let master = byUID[event.uid]?.master {
                    // The same event sent again (a series edited, re-published): the copy with
                    // the higher SEQUENCE is the current one (RFC 5545 §3.8.7.4); of two alike,
                    // the first, as recurring_ical_events keeps it.
                    if event.sequence > master.sequence {
                        byUID[event.uid]?.master = event
                    } else if event.sequence == master.sequence {
                        problems.append(CalendarProblem(uid: event.uid, line: component.line, reason: "a second event with the same UID and SEQUENCE; the first is used"))
                    }
                } else {
                    byUID[event.uid, default: (nil, [])].master = event
                }
            } catch {
                if !retrying, error.unknownZone, waiting.count < maximumKept { waiting.append(component) } else { problems.append(error) }
            }
        }
        try ICSReader.read(
            data,
            child: { component, calendar in
                switch component.name {
                case "VTIMEZONE":
                    resolver.add(component)
                case "VEVENT":
                    if resolver.calendarZone == nil, let name = calendar.first("X-WR-TIMEZONE")?.value { resolver.setCalendarZone(name) }
                    eventCount += 1
                    take(component, retrying: false)
                default:
                    break
                }
                return true
            },
            calendar: { _ in
                for component in waiting { take(component, retrying: true) }
                waiting = []
                for uid in order {
                    guard let (master, overrides) = byUID[uid] else { continue }
                    do throws(CalendarProblem) {
                        let made = try instances(master: master, overrides: overrides, from: from, until: until, saved: saved, budget: &budget)
                        occurrences += made.lazy.filter { $0.start >= from && $0.start < until }
                    } catch {
                        problems.append(error)
                    }
                    guard occurrences.count <= maximumOccurrences else {
                        problems.append(CalendarProblem(uid: uid, line: master?.line ?? 0, reason: "more than \(maximumOccurrences) occurrences in the window; the rest are left out"))
                        break
                    }
                }
                byUID = [:]
                order = []
            })
        occurrences.sort { ($0.start, $0.summary, $0.uid) < ($1.start, $1.summary, $1.uid) }
        // Copies of one event without a UID (which RFC 5545 requires) are one occurrence, as
        // recurring_ical_events makes them one series: one departure. Events with UIDs of their
        // own stay apart, however alike.
        var seen: Set<CalendarOccurrence.Sameness> = []
        occurrences.removeAll { $0.uid.hasPrefix(EventDefinition.unnamed) && !seen.insert($0.sameness).inserted }
        return CalendarExpansion(occurrences: occurrences, problems: problems.kept, events: eventCount)
    }

    /// The problems of a reading, the first `maximumProblems` of them.
    struct BoundedProblems {
        var kept: [CalendarProblem] = []
        mutating func append(_ problem: CalendarProblem) {
            if kept.count < CalendarEvents.maximumProblems { kept.append(problem) }
        }
    }

    /// Every instance of one UID's series near the window, overrides applied.
    static func instances(
        master: EventDefinition?, overrides: [EventDefinition], from: Int, until: Int, saved: IANAZone, budget: inout RecurrenceBudget
    ) throws(CalendarProblem) -> [CalendarOccurrence] {
        var byKey: [Int: CalendarOccurrence] = [:]
        var keys: [Int] = []
        if let master {
            for (key, start) in try master.starts(from: from - margin, until: until + margin, saved: saved, budget: &budget) {
                guard byKey[key] == nil else { continue }
                byKey[key] = master.occurrence(at: start, saved: saved, recurrenceID: master.isRecurring ? key : nil)
                keys.append(key)
            }
        }
        // This-and-future overrides first, oldest first, so a later one wins over an earlier.
        let ranged = overrides.filter(\.thisAndFuture).sorted { ($0.recurrenceKey ?? 0) < ($1.recurrenceKey ?? 0) }
        let originals = byKey.mapValues(\.start)
        if let master {
            for override in ranged {
                guard let key = override.recurrenceKey, let original = override.recurrenceID else { continue }
                let shift = override.start.instant(saved: saved) - original.instant(saved: saved)
                for other in keys where other > key {
                    // Moved from where the series put it, not from where an earlier range did.
                    guard let original = originals[other] else { continue }
                    var moved = override.occurrence(at: .dateTime(WallTime(wallSeconds: 0), .utc), saved: saved, recurrenceID: other)
                    moved.start = original + shift
                    moved.end = moved.start + (override.end(after: override.start, saved: saved) - override.start.instant(saved: saved))
                    moved.allDay = master.start.isDate
                    byKey[other] = moved
                }
            }
        }
        // Each instance's current override: of two for one instance, the higher SEQUENCE (the
        // first of two alike). An instance is named by its day when the series is all-day
        // (Outlook writes a moved day's RECURRENCE-ID as a zoned midnight).
        var chosen: [Int: EventDefinition] = [:]
        var chosenOrder: [Int] = []
        for override in overrides {
            guard let recurrenceID = override.recurrenceID, let key = master.map({ $0.key(recurrenceID) }) ?? override.recurrenceKey else { continue }
            if let earlier = chosen[key] {
                if override.sequence > earlier.sequence { chosen[key] = override }
            } else {
                chosen[key] = override
                chosenOrder.append(key)
            }
        }
        let excluded = Set(master?.exceptions.map { master?.key($0) ?? 0 } ?? [])
        for key in chosenOrder {
            guard let override = chosen[key] else { continue }
            // An EXDATE removes the instance, moved or not.
            if excluded.contains(key) {
                byKey[key] = nil
                continue
            }
            // An override with a rule of its own, older than the series, for an instance the
            // series no longer has, is a leftover of an earlier version of the series.
            if let master, !override.rules.isEmpty, override.sequence < master.sequence, originals[key] == nil { continue }
            if byKey[key] == nil { keys.append(key) }
            byKey[key] = override.occurrence(at: override.start, saved: saved, recurrenceID: key)
        }
        return keys.compactMap { byKey[$0] }
    }
}

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
