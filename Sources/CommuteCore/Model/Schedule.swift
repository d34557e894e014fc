import Foundation

/// A notification schedule: "weekdays at 7:00 AM, these routes".
///
/// Exactly the fields of SPEC §2. Routes are referred to by ID, in the order the alert lists them.
public struct Schedule: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Ordered, at least one, each a favorite when saved.
    public var routeIDs: [String]
    /// At least one.
    public var days: Set<Weekday>
    /// 0…23, in the user's time zone.
    public var hour: Int
    /// 0…59.
    public var minute: Int
    public var isEnabled: Bool
    public var createdAt: Date
    /// Smart alert: deliver only when a route is delayed by at least this many minutes (SPEC §6).
    public var onlyWhenDelayedBy: Int?
    /// An arrive-by schedule: `hour:minute` is when to arrive, and the alert fires when it is time
    /// to leave (arrival − the fastest route's time − `bufferMinutes`). Nil for a fixed time.
    public var arriveBy: ArriveBy?

    /// What an arrive-by schedule adds.
    public struct ArriveBy: Codable, Sendable, Equatable {
        /// Minutes to spare, taken off the leave time.
        public var bufferMinutes: Int
        /// One more alert this many minutes before the leave time ("Leave in 15 min"); nil for none.
        public var headsUpMinutes: Int?

        public init(bufferMinutes: Int, headsUpMinutes: Int? = nil) {
            self.bufferMinutes = bufferMinutes
            self.headsUpMinutes = headsUpMinutes
        }

        /// The default buffer.
        public static let defaultBufferMinutes = 5
        /// The largest buffer: three hours.
        public static let largestBufferMinutes = 180
    }

    public init(
        id: UUID = UUID(), routeIDs: [String], days: Set<Weekday>, hour: Int, minute: Int,
        isEnabled: Bool = true, createdAt: Date, onlyWhenDelayedBy: Int? = nil, arriveBy: ArriveBy? = nil
    ) {
        self.id = id
        self.routeIDs = routeIDs
        self.days = days
        self.hour = hour
        self.minute = minute
        self.isEnabled = isEnabled
        self.createdAt = createdAt
        self.onlyWhenDelayedBy = onlyWhenDelayedBy
        self.arriveBy = arriveBy
    }

    public var isArriveBy: Bool { arriveBy != nil }

    /// The wall-clock time of day the schedule fires at (for arrive-by, the arrival).
    public var time: TimeOfDay { TimeOfDay(hour: hour, minute: minute) }

    /// Whether `other` sends exactly the alerts this one does: the same routes (in any order), days,
    /// time, kind and threshold.
    public func sendsTheSameAlerts(as other: Schedule) -> Bool {
        Set(routeIDs) == Set(other.routeIDs) && days == other.days && hour == other.hour && minute == other.minute
            && arriveBy == other.arriveBy && onlyWhenDelayedBy == other.onlyWhenDelayedBy
    }

    /// The latest time of day its alert can come: its time, or for arrive-by the arrival less the
    /// buffer (the leave time when the road takes no time at all).
    public var latestAlertTime: TimeOfDay {
        guard let arriveBy else { return time }
        let minutes = ((hour * 60 + minute - arriveBy.bufferMinutes) % 1_440 + 1_440) % 1_440
        return TimeOfDay(hour: minutes / 60, minute: minutes % 60)
    }

    /// Checks the rules a saved schedule must meet, routes and days first (the order a form reads).
    public func validate() throws(ModelError) {
        guard !routeIDs.isEmpty else { throw .noRoutes }
        guard !days.isEmpty else { throw .noDays }
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw .badTime("\(hour):\(minute)")
        }
        if let threshold = onlyWhenDelayedBy, threshold < 1 {
            throw .badThreshold(String(threshold))
        }
        if let arriveBy, !(0...ArriveBy.largestBufferMinutes).contains(arriveBy.bufferMinutes) {
            throw .badTime("buffer \(arriveBy.bufferMinutes) min")
        }
        if let headsUp = arriveBy?.headsUpMinutes, !(1...ArriveBy.largestBufferMinutes).contains(headsUp) {
            throw .badTime("heads-up \(headsUp) min")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, routeIDs, days, hour, minute, isEnabled, createdAt, onlyWhenDelayedBy, arriveBy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        routeIDs = try container.decode([String].self, forKey: .routeIDs)
        days = Set(try container.decode([Weekday].self, forKey: .days))
        hour = try container.decode(Int.self, forKey: .hour)
        minute = try container.decode(Int.self, forKey: .minute)
        isEnabled = try container.decode(Bool.self, forKey: .isEnabled)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        onlyWhenDelayedBy = try container.decodeIfPresent(Int.self, forKey: .onlyWhenDelayedBy)
        arriveBy = try container.decodeIfPresent(ArriveBy.self, forKey: .arriveBy)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(routeIDs, forKey: .routeIDs)
        try container.encode(days.sorted(), forKey: .days)
        try container.encode(hour, forKey: .hour)
        try container.encode(minute, forKey: .minute)
        try container.encode(isEnabled, forKey: .isEnabled)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(onlyWhenDelayedBy, forKey: .onlyWhenDelayedBy)
        try container.encodeIfPresent(arriveBy, forKey: .arriveBy)
    }
}

extension Schedule {
    /// A named starting point for a new schedule.
    public enum Preset: String, CaseIterable, Sendable {
        /// Monday–Friday at 7:00 AM.
        case morning
        /// Monday–Friday at 4:30 PM.
        case evening

        public var days: Set<Weekday> { Weekday.weekdays }

        public var time: TimeOfDay {
            switch self {
            case .morning: TimeOfDay(hour: 7, minute: 0)
            case .evening: TimeOfDay(hour: 16, minute: 30)
            }
        }
    }

    /// A schedule built from a preset.
    public static func preset(_ preset: Preset, routeIDs: [String], createdAt: Date, id: UUID = UUID()) -> Schedule {
        Schedule(
            id: id, routeIDs: routeIDs, days: preset.days, hour: preset.time.hour, minute: preset.time.minute,
            createdAt: createdAt)
    }
}
