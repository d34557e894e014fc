import Basics
import CommuteModel
import FoundationEssentials

/// `schedules.json` is read by every refresh, `status` and re-plan, and holds every schedule —
/// 3,000 of them is half a megabyte — so it is read with `JSONReader` in the shape `JSONCoding`
/// writes it. Anything else in it (a repeated key, a number written `7.0`, a bad value) is left
/// to the `Codable` reading, which decides as it always has and names the problem: the fast
/// reading accepts nothing that one would not, and reads it the same.
@_spi(Store)
extension ScheduleBook {
    public static func decodeDocument(from data: Data) throws -> ScheduleBook {
        if let book = try? JSONReader.read(data, fastBook) {
            try book.validate()
            return book
        }
        return try decodeWithCodable(from: data)
    }

    /// Every set of weekdays, by its bits (Sunday's first): a schedule's days are one of these,
    /// shared, rather than a set built and hashed for each of 3,000 schedules.
    private static let daySets: [Set<Weekday>] = (0..<128).map { mask in
        Set(Weekday.allCases.filter { mask & 1 << ($0.rawValue - 1) != 0 })
    }

    /// Thrown by the fast reading at anything it leaves to `Codable`.
    private struct NotPlain: Error {}

    private static func fastBook(_ reader: inout JSONReader) throws -> ScheduleBook {
        guard try reader.peek() == .object else { throw NotPlain() }
        try reader.beginObject()
        var version: Int?
        var schedules: [Schedule]?
        var pauses: [Pause]??
        while let key = try reader.nextKey() {
            switch key {
            case "version" where version == nil: version = try reader.readInt()
            case "schedules" where schedules == nil:
                var read: [Schedule] = []
                read.reserveCapacity(reader.remainingBytes / 160)
                try reader.beginArray()
                while try reader.nextElement() { read.append(try schedule(&reader)) }
                schedules = read
            case "pauses" where pauses == nil:
                pauses = try reader.readNull() ? .some(nil) : .some(try StoreCoding.decoder.decode([Pause].self, from: Data(reader.readRawValue())))
            case "version", "schedules", "pauses": throw NotPlain()
            default: try reader.skipValue()
            }
        }
        guard version == currentVersion, let schedules else { throw NotPlain() }
        var book = ScheduleBook(schedules: schedules)
        book.pauses = pauses ?? nil
        return book
    }

    private static func schedule(_ reader: inout JSONReader) throws -> Schedule {
        guard try reader.peek() == .object else { throw NotPlain() }
        try reader.beginObject()
        var id: UUID?
        var routeIDs: [RouteID]?
        var days: Set<Weekday>?
        var hour: Int?
        var minute: Int?
        var isEnabled: Bool?
        var createdAt: Date?
        var delayedBy: Int??
        var aboveUsual: Bool??
        var arriveBy: (buffer: Int, headsUp: Int?, onTime: Int?)??
        var notify: [String]??
        while let key = try reader.nextKey() {
            switch key {
            case "id" where id == nil:
                guard let read = try reader.withStringBytes(UUID.parse) else { throw NotPlain() }
                id = read
            case "routeIDs" where routeIDs == nil:
                var read: [RouteID] = []
                read.reserveCapacity(4)
                try reader.beginArray()
                while try reader.nextElement() { read.append(RouteID(rawValue: try reader.readString())) }
                routeIDs = read
            case "days" where days == nil:
                var mask = 0
                try reader.beginArray()
                while try reader.nextElement() {
                    let number = try reader.readInt()
                    guard (1...7).contains(number) else { throw NotPlain() }
                    mask |= 1 << (number - 1)
                }
                days = daySets[mask]
            case "hour" where hour == nil: hour = try reader.readInt()
            case "minute" where minute == nil: minute = try reader.readInt()
            case "isEnabled" where isEnabled == nil: isEnabled = try reader.readBool()
            case "createdAt" where createdAt == nil:
                guard let read = try reader.withStringBytes({ ISO8601.parse(bytes: $0)?.instant }) else { throw NotPlain() }
                createdAt = read
            case "onlyWhenDelayedBy" where delayedBy == nil: delayedBy = .some(try reader.readOptionalInt())
            case "onlyWhenAboveUsual" where aboveUsual == nil: aboveUsual = .some(try reader.readNull() ? nil : try reader.readBool())
            case "arriveBy" where arriveBy == nil: arriveBy = .some(try timing(&reader))
            case "notify" where notify == nil:
                if try reader.readNull() {
                    notify = .some(nil)
                } else {
                    var read: [String] = []
                    try reader.beginArray()
                    while try reader.nextElement() { read.append(try reader.readString()) }
                    notify = .some(read)
                }
            case "id", "routeIDs", "days", "hour", "minute", "isEnabled", "createdAt", "onlyWhenDelayedBy", "onlyWhenAboveUsual", "arriveBy",
                "notify":
                throw NotPlain()
            default: try reader.skipValue()
            }
        }
        guard let id, let routeIDs, let days, let hour, let minute, let isEnabled, let createdAt else { throw NotPlain() }
        var schedule = Schedule(id: id, routeIDs: routeIDs, days: days, hour: hour, minute: minute, isEnabled: isEnabled, createdAt: createdAt)
        schedule.onlyWhenDelayedBy = delayedBy ?? nil
        schedule.onlyWhenAboveUsual = aboveUsual ?? nil
        if let (buffer, headsUp, onTime) = arriveBy ?? nil {
            schedule.timing = .arriveBy(buffer: buffer, headsUp: headsUp)
            schedule.onTimePercent = onTime
        }
        schedule.notify = notify ?? nil
        return schedule
    }

    /// `{"bufferMinutes": 5, "headsUpMinutes": 10, "onTimePercent": 95}`, or null.
    private static func timing(_ reader: inout JSONReader) throws -> (buffer: Int, headsUp: Int?, onTime: Int?)? {
        if try reader.readNull() { return nil }
        guard try reader.peek() == .object else { throw NotPlain() }
        try reader.beginObject()
        var buffer: Int?
        var headsUp: Int??
        var onTime: Int??
        while let key = try reader.nextKey() {
            switch key {
            case "bufferMinutes" where buffer == nil: buffer = try reader.readInt()
            case "headsUpMinutes" where headsUp == nil: headsUp = .some(try reader.readOptionalInt())
            case "onTimePercent" where onTime == nil: onTime = .some(try reader.readOptionalInt())
            case "bufferMinutes", "headsUpMinutes", "onTimePercent": throw NotPlain()
            default: try reader.skipValue()
            }
        }
        guard let buffer else { throw NotPlain() }
        return (buffer, headsUp ?? nil, onTime ?? nil)
    }
}

/// What `status` shows of the schedules: how many, how many enabled, the days off, and the
/// schedules a day off names (to name them in turn).
public struct ScheduleSummary: Sendable, Equatable {
    public var count: Int
    public var enabled: Int
    public var pauses: [Pause]?
    /// Every schedule when a pause names one (its line names the schedule by the shortest prefix
    /// among all of them); else none.
    public var schedules: [Schedule]

    public init(_ book: ScheduleBook) {
        count = book.schedules.count
        enabled = book.schedules.count(where: \.isEnabled)
        pauses = book.pauses
        schedules = (book.pauses ?? []).contains { $0.scheduleID != nil } ? book.schedules : []
    }

    init(count: Int, enabled: Int, pauses: [Pause]?) {
        self.count = count
        self.enabled = enabled
        self.pauses = pauses
        schedules = []
    }
}

@_spi(Store)
extension ScheduleBook {
    /// The summary of a file already read whole and found good (the plan made from it vouches
    /// for it): counted, nothing built. Nil when it is not in the shape this build writes, or a
    /// pause names a schedule (then it is read whole).
    static func summary(from data: Data) -> ScheduleSummary? {
        try? JSONReader.read(data) { reader -> ScheduleSummary? in
            guard try reader.peek() == .object else { return nil }
            try reader.beginObject()
            var pauses: [Pause]?
            var counted: (count: Int, enabled: Int)?
            while let key = try reader.nextKey() {
                switch key {
                case "pauses" where counted == nil:
                    guard try !reader.readNull() else { continue }
                    pauses = try StoreCoding.decoder.decode([Pause].self, from: Data(reader.readRawValue()))
                    if pauses?.contains(where: { $0.scheduleID != nil }) == true { return nil }
                case "schedules" where counted == nil:
                    var count = 0
                    var enabled = 0
                    try reader.beginArray()
                    while try reader.nextElement() {
                        guard try reader.peek() == .object else { return nil }
                        try reader.beginObject()
                        count += 1
                        while let key = try reader.nextKey() {
                            if "isEnabled" ~= key, try reader.readBool() { enabled += 1 } else if !("isEnabled" ~= key) { try reader.skipValue() }
                        }
                    }
                    counted = (count, enabled)
                default: try reader.skipValue()
                }
            }
            guard let counted else { return nil }
            return ScheduleSummary(count: counted.count, enabled: counted.enabled, pauses: pauses)
        } ?? nil
    }
}
