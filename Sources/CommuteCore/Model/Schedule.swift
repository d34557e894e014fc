import Foundation

/// A notification schedule: "weekdays at 7:00 AM, these routes".
///
/// Exactly the fields of SPEC §2. Routes are referred to by ID, in the order the alert lists them.
public struct Schedule: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Ordered, at least one, each a favourite when saved.
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

    public init(
        id: UUID = UUID(), routeIDs: [String], days: Set<Weekday>, hour: Int, minute: Int,
        isEnabled: Bool = true, createdAt: Date, onlyWhenDelayedBy: Int? = nil
    ) {
        self.id = id
        self.routeIDs = routeIDs
        self.days = days
        self.hour = hour
        self.minute = minute
        self.isEnabled = isEnabled
        self.createdAt = createdAt
        self.onlyWhenDelayedBy = onlyWhenDelayedBy
    }

    /// The wall-clock time of day the schedule fires at.
    public var time: TimeOfDay { TimeOfDay(hour: hour, minute: minute) }

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
    }

    private enum CodingKeys: String, CodingKey {
        case id, routeIDs, days, hour, minute, isEnabled, createdAt, onlyWhenDelayedBy
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
