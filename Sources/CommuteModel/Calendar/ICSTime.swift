import Basics
import FoundationEssentials

/// A wall-clock moment: a civil date and the second of its day.
public struct WallTime: Sendable, Hashable, Comparable {
    public var date: CivilDate
    public var second: Int

    public init(date: CivilDate, second: Int) {
        self.date = date
        self.second = second
    }

    /// Seconds since 1970-01-01 00:00 on the wall clock (not an instant).
    public var wallSeconds: Int { date.dayNumber * 86_400 + second }

    public init(wallSeconds: Int) {
        let day = wallSeconds.floorDivided(by: 86_400)
        self.init(date: CivilDate(dayNumber: day), second: wallSeconds - day * 86_400)
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.wallSeconds < rhs.wallSeconds }
}

/// Where a calendar's time is: a zone of the tz database, a VTIMEZONE's own rules, UTC, or
/// floating (whatever zone the reader is in: the saved zone).
public enum ICSZone: Sendable, Equatable {
    case utc
    case floating
    case iana(IANAZone)
    case custom(VTimeZone)

    /// The UTC offset at an instant; floating is read in `saved`.
    public func offset(at instant: Int, saved: IANAZone) -> Int {
        switch self {
        case .utc: 0
        case .floating: saved.offset(at: instant)
        case .iana(let zone): zone.offset(at: instant)
        case .custom(let zone): zone.offset(at: instant)
        }
    }

    /// The instant a wall time names (RFC 5545 §3.3.5): a time that occurs twice is the first;
    /// one in a spring-forward gap is read with the offset before the gap.
    public func instant(_ wall: WallTime, saved: IANAZone) -> Int {
        let wallSeconds = wall.wallSeconds
        if case .utc = self { return wallSeconds }
        let before = offset(at: wallSeconds - 86_400, saved: saved)
        let after = offset(at: wallSeconds + 86_400, saved: saved)
        let early = wallSeconds - max(before, after)
        let late = wallSeconds - min(before, after)
        if early + offset(at: early, saved: saved) == wallSeconds { return early }
        if late + offset(at: late, saved: saved) == wallSeconds { return late }
        return wallSeconds - before
    }

    /// The wall time of an instant.
    public func wall(_ instant: Int, saved: IANAZone) -> WallTime {
        WallTime(wallSeconds: instant + offset(at: instant, saved: saved))
    }
}

/// A date or date-time value (§3.3.4, §3.3.5).
public enum ICSTime: Sendable, Equatable {
    case date(CivilDate)
    case dateTime(WallTime, ICSZone)

    public var isDate: Bool { if case .date = self { true } else { false } }

    /// The wall time (a date's midnight).
    public var wall: WallTime {
        switch self {
        case .date(let date): WallTime(date: date, second: 0)
        case .dateTime(let wall, _): wall
        }
    }

    /// The instant; a date is its midnight in the saved zone.
    public func instant(saved: IANAZone) -> Int {
        switch self {
        case .date(let date): ICSZone.floating.instant(WallTime(date: date, second: 0), saved: saved)
        case .dateTime(let wall, let zone): zone.instant(wall, saved: saved)
        }
    }

    /// `20251126`, `20251126T090000`, `20251126T090000Z`; the zone for a local time is `zone`.
    public static func parse(_ text: Substring, zone: ICSZone, dateOnly: Bool = false) -> ICSTime? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 8, let year = number(bytes[0..<4]), let month = number(bytes[4..<6]), let day = number(bytes[6..<8]) else {
            return nil
        }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, (1..<10_000).contains(year) else { return nil }
        if bytes.count == 8 { return .date(date) }
        guard bytes.count == 15 || bytes.count == 16, bytes[8] == UInt8(ascii: "T"),
            let hour = number(bytes[9..<11]), let minute = number(bytes[11..<13]), let second = number(bytes[13..<15]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        if dateOnly { return .date(date) }
        let wall = WallTime(date: date, second: hour * 3_600 + minute * 60 + min(second, 59))
        if bytes.count == 16 {
            guard bytes[15] == UInt8(ascii: "Z") else { return nil }
            return .dateTime(wall, .utc)
        }
        return .dateTime(wall, zone)
    }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return nil }
            value = value * 10 + Int(digit - 0x30)
        }
        return value
    }
}

/// A VTIMEZONE's own rules (§3.6.5), for a TZID no name maps to a zone of the database (Outlook's
/// "Customized Time Zone"): each STANDARD or DAYLIGHT observance starts at its DTSTART and recurs
/// by its RRULE (or RDATEs); the offset in force is that of the latest onset.
public struct VTimeZone: Sendable, Equatable {
    public struct Observance: Sendable, Equatable {
        var start: WallTime
        var offsetFrom: Int
        var offsetTo: Int
        var rule: RecurrenceRule?
        var dates: [WallTime]
    }

    public var identifier: String
    var observances: [Observance]

    public init?(_ component: ICSComponent) {
        guard let identifier = component.first("TZID")?.value, !identifier.isEmpty else { return nil }
        self.identifier = identifier
        observances = component.children.compactMap { child -> Observance? in
            guard child.name == "STANDARD" || child.name == "DAYLIGHT",
                let start = child.first("DTSTART").flatMap({ ICSTime.parse($0.value[...], zone: .floating) }),
                let to = child.first("TZOFFSETTO").flatMap({ Self.offset($0.value) })
            else { return nil }
            let from = child.first("TZOFFSETFROM").flatMap { Self.offset($0.value) } ?? to
            let rule = child.first("RRULE").flatMap { try? RecurrenceRule($0.value, zone: .floating) }
            let dates = child.all("RDATE").flatMap { $0.value.split(separator: ",") }.compactMap { ICSTime.parse($0, zone: .floating)?.wall }
            return Observance(start: start.wall, offsetFrom: from, offsetTo: to, rule: rule, dates: dates)
        }
        guard !observances.isEmpty else { return nil }
    }

    /// `+0100`, `-0530`, `+013045`; nil when out of range (an iCloud `+5328` is refused).
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            let hours = ICSTime.number(bytes[1..<3]), let minutes = ICSTime.number(bytes[3..<5]), hours < 24, minutes < 60
        else { return nil }
        let seconds = bytes.count == 7 ? ICSTime.number(bytes[5..<7]) ?? 60 : 0
        guard seconds < 60 else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60 + seconds)
    }

    /// The offset in force at an instant: the latest onset at or before it, over the year before.
    func offset(at instant: Int) -> Int {
        var best: (onset: Int, offset: Int)?
        var earliest: Observance?
        let year = CivilDate(dayNumber: instant.floorDivided(by: 86_400)).year
        let from = WallTime(date: CivilDate(year: year - 1, month: 1, day: 1), second: 0)
        let until = WallTime(date: CivilDate(year: year + 1, month: 1, day: 1), second: 0)
        for observance in observances {
            if earliest.map({ observance.start < $0.start }) ?? true { earliest = observance }
            var onsets = observance.dates + [observance.start]
            if let rule = observance.rule {
                var budget = RecurrenceBudget(periods: 5_000)
                onsets += rule.expand(start: observance.start, isDate: false, from: from, until: until, budget: &budget)
            }
            for onset in onsets {
                // Onsets are written in the wall time of the offset before them.
                let moment = onset.wallSeconds - observance.offsetFrom
                if moment <= instant, best.map({ moment > $0.onset }) ?? true { best = (moment, observance.offsetTo) }
            }
        }
        return best?.offset ?? earliest?.offsetFrom ?? 0
    }
}

/// TZID values to zones: a name of the tz database, a Windows zone ID or display name (CLDR's
/// windowsZones), or a VTIMEZONE of the same file. Each TZID is looked up once per file.
public final class ICSZoneResolver {
    var custom: [String: VTimeZone] = [:]
    var known: [String: ICSZone?] = [:]
    /// The calendar's X-WR-TIMEZONE, applied to its UTC times (as recurring_ical_events does).
    public private(set) var calendarZone: IANAZone?

    public init() {}

    /// A VTIMEZONE of the file.
    public func add(_ component: ICSComponent) {
        guard let zone = VTimeZone(component) else { return }
        custom[zone.identifier] = zone
        if known[zone.identifier] == .some(nil) { known[zone.identifier] = nil }
    }

    public func setCalendarZone(_ name: String) { calendarZone = Self.iana(name) }

    /// The zone a TZID names; nil when nothing knows it.
    public func zone(_ tzid: String) -> ICSZone? {
        if let found = known[tzid] { return found }
        var zone: ICSZone?
        if let iana = Self.iana(tzid) {
            zone = .iana(iana)
        } else if let name = WindowsZones.ianaName(for: tzid), let iana = IANAZone(identifier: name) {
            zone = .iana(iana)
        } else if let custom = custom[tzid] {
            zone = .custom(custom)
        } else if let iana = Self.vendorPrefixed(tzid) {
            zone = .iana(iana)
        }
        if known.count < 1_000 { known[tzid] = .some(zone) }
        return zone
    }

    /// A globally unique TZID with no VTIMEZONE of its own — a vendor's prefix before a tz
    /// database name (Evolution's `/freeassociation.sourceforge.net/Europe/Berlin`, Lightning's
    /// `/mozilla.org/20070129_1/America/New_York`) — as the zone its last parts name (the
    /// longest that is one), as Python's icalendar guesses it.
    static func vendorPrefixed(_ tzid: String) -> IANAZone? {
        let parts = tzid.split(separator: "/")
        guard parts.count > 1, tzid.utf8.count < 200 else { return nil }
        for length in stride(from: min(3, parts.count - 1), through: 1, by: -1) {
            if let zone = iana(parts.suffix(length).joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// A tz database zone by name (a leading `/`, as in globally unique IDs, is dropped); only
    /// names the database could hold are looked up.
    static func iana(_ text: String) -> IANAZone? {
        var name = text.trimmingWhitespace()
        while name.hasPrefix("/") { name.removeFirst() }
        guard !name.isEmpty, name.count < 64, !name.contains(".."),
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+".unicodeScalars.contains($0)) })
        else { return nil }
        if name == "UTC" || name == "Etc/UTC" || name == "GMT" || name == "Z" { return .utc }
        return IANAZone(identifier: name)
    }
}
