import Basics
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
