import FoundationEssentials

/// A notification schedule: "weekdays at 7:00 AM, these routes".
///
/// Exactly the fields of SPEC §2. Routes are referred to by ID, in the order the alert lists them.
public struct Schedule: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Ordered, at least one, each a favorite when saved.
    public var routeIDs: [RouteID]
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
    /// `--only-when-delayed auto`: deliver only when a route is above the 90th percentile of its
    /// history for the day and quarter hour; `onlyWhenDelayedBy` stands in where history is thin.
    public var onlyWhenAboveUsual: Bool?
    /// When it alerts: at `hour:minute`, or when it is time to leave to arrive by then.
    public var timing: Timing
    /// The notifiers its alerts go to, by name; nil for every one.
    public var notify: [String]?
    /// `--on-time P%` (arrive-by only): the leave time is planned on the P-th percentile of the
    /// route's recorded days, not on today's time alone.
    public var onTimePercent: Int?
    /// A calendar event's occurrence, planned as a one-off arrive-by schedule (never stored: made
    /// from the calendars at each plan).
    public var event: CalendarEventDetail?

    /// When a schedule alerts. Every place that treats the two kinds differently switches on this.
    public enum Timing: Sendable, Equatable {
        /// At `hour:minute`.
        case at
        /// `hour:minute` is when to arrive: the alert fires when it is time to leave (the arrival
        /// less the fastest route's time less `buffer` minutes), with one more alert `headsUp`
        /// minutes before that, if any ("Leave in 15 min").
        case arriveBy(buffer: Int, headsUp: Int?)

        /// The default buffer.
        public static let defaultBufferMinutes = 5
        /// The largest buffer and heads-up: three hours.
        public static let largestBufferMinutes = 180
    }

    public init(
        id: UUID = UUID(), routeIDs: [RouteID], days: Set<Weekday>, hour: Int, minute: Int,
        isEnabled: Bool = true, createdAt: Date, onlyWhenDelayedBy: Int? = nil, onlyWhenAboveUsual: Bool? = nil, timing: Timing = .at,
        notify: [String]? = nil, event: CalendarEventDetail? = nil
    ) {
        self.event = event
        self.onlyWhenAboveUsual = onlyWhenAboveUsual
        self.notify = notify
        self.id = id
        self.routeIDs = routeIDs
        self.days = days
        self.hour = hour
        self.minute = minute
        self.isEnabled = isEnabled
        self.createdAt = createdAt
        self.onlyWhenDelayedBy = onlyWhenDelayedBy
        self.timing = timing
    }


    /// The wall-clock time of day the schedule fires at (for arrive-by, the arrival).
    public var time: TimeOfDay { TimeOfDay(hour: hour, minute: minute) }

    /// Whether `other` sends exactly the alerts this one does: the same routes (in any order), days,
    /// time, kind and threshold.
    public func sendsTheSameAlerts(as other: Schedule) -> Bool {
        Set(routeIDs) == Set(other.routeIDs) && days == other.days && hour == other.hour && minute == other.minute
            && timing == other.timing && onlyWhenDelayedBy == other.onlyWhenDelayedBy
            && (onlyWhenAboveUsual ?? false) == (other.onlyWhenAboveUsual ?? false) && onTimePercent == other.onTimePercent
    }

    /// The percentages `--on-time` takes.
    public static let onTimePercents = 50...100

    /// The latest time of day its alert can come: its time, or for arrive-by the arrival less the
    /// buffer (the leave time when the road takes no time at all).
    public var latestAlertTime: TimeOfDay {
        switch timing {
        case .at:
            return time
        case .arriveBy(let buffer, _):
            let minutes = ((hour * 60 + minute - buffer) % 1_440 + 1_440) % 1_440
            return TimeOfDay(hour: minutes / 60, minute: minutes % 60)
        }
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
        switch timing {
        case .at:
            break
        case .arriveBy(let buffer, _) where !(0...Timing.largestBufferMinutes).contains(buffer):
            throw .badTime("buffer \(buffer) min")
        case .arriveBy(_, let headsUp?) where !(1...Timing.largestBufferMinutes).contains(headsUp):
            throw .badTime("heads-up \(headsUp) min")
        case .arriveBy:
            break
        }
        if let percent = onTimePercent {
            guard case .arriveBy = timing, Self.onTimePercents.contains(percent) else { throw .badOnTime("\(percent)%") }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, routeIDs, days, hour, minute, isEnabled, createdAt, onlyWhenDelayedBy, onlyWhenAboveUsual, arriveBy, notify
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        routeIDs = try container.decode([RouteID].self, forKey: .routeIDs)
        days = Set(try container.decode([Weekday].self, forKey: .days))
        hour = try container.decode(Int.self, forKey: .hour)
        minute = try container.decode(Int.self, forKey: .minute)
        isEnabled = try container.decode(Bool.self, forKey: .isEnabled)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        onlyWhenDelayedBy = try container.decodeIfPresent(Int.self, forKey: .onlyWhenDelayedBy)
        onlyWhenAboveUsual = try container.decodeIfPresent(Bool.self, forKey: .onlyWhenAboveUsual)
        let arriveBy = try container.decodeIfPresent(ArriveByCoding.self, forKey: .arriveBy)
        timing = arriveBy.map { .arriveBy(buffer: $0.bufferMinutes, headsUp: $0.headsUpMinutes) } ?? .at
        onTimePercent = arriveBy?.onTimePercent
        notify = try container.decodeIfPresent([String].self, forKey: .notify)
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
        if onlyWhenAboveUsual == true { try container.encode(true, forKey: .onlyWhenAboveUsual) }
        switch timing {
        case .at: break
        case .arriveBy(let buffer, let headsUp):
            try container.encode(ArriveByCoding(bufferMinutes: buffer, headsUpMinutes: headsUp, onTimePercent: onTimePercent), forKey: .arriveBy)
        }
        try container.encodeIfPresent(notify, forKey: .notify)
    }

    /// How an arrive-by schedule's timing is written in `schedules.json`: `{"bufferMinutes": 5}`.
    private struct ArriveByCoding: Codable {
        var bufferMinutes: Int
        var headsUpMinutes: Int?
        var onTimePercent: Int?
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
    public static func preset(_ preset: Preset, routeIDs: [RouteID], createdAt: Date, id: UUID = UUID()) -> Schedule {
        Schedule(
            id: id, routeIDs: routeIDs, days: preset.days, hour: preset.time.hour, minute: preset.time.minute,
            createdAt: createdAt)
    }
}

/// What makes a schedule one calendar event's departure: its arrival is the event's start.
public struct CalendarEventDetail: Sendable, Equatable {
    public var calendar: String
    public var summary: String
    /// The event's start, seconds since 1970: the arrival.
    public var start: Int

    public init(calendar: String, summary: String, start: Int) {
        self.calendar = calendar
        self.summary = summary
        self.start = start
    }
}

