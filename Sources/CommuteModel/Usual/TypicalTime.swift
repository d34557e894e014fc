import FoundationEssentials

/// A quarter hour of the local week: a weekday and one of its 96 slots. Taken from local time, so
/// a reading on a daylight-saving day lands in the slot its wall clock shows.
public struct TimeSlot: Hashable, Sendable, Comparable {
    public var weekday: Weekday
    /// 0 (midnight to 00:15) to 95 (23:45 to midnight).
    public var index: Int

    public static let perDay = 96

    public init(weekday: Weekday, index: Int) {
        self.weekday = weekday
        self.index = min(max(index, 0), Self.perDay - 1)
    }

    public init(_ local: LocalDateTime) {
        self.init(weekday: local.weekday, index: (local.hour * 60 + local.minute) / 15)
    }

    public init(weekday: Weekday, time: TimeOfDay) {
        self.init(weekday: weekday, index: (time.hour * 60 + time.minute) / 15)
    }

    public var start: TimeOfDay { TimeOfDay(hour: index / 4, minute: index % 4 * 15) }
    /// `07:00`.
    public var startText: String { Self.clock(start) }

    /// `07:05`: a time of day as JSON gives it.
    public static func clock(_ time: TimeOfDay) -> String {
        (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
    }

    /// 0 to 671, Sunday midnight first.
    package var ordinal: Int { (weekday.rawValue - 1) * Self.perDay + index }

    public static func < (lhs: TimeSlot, rhs: TimeSlot) -> Bool { lhs.ordinal < rhs.ordinal }
}

/// What a route usually takes in one slot: the median and the 90th percentile of its readings
/// there over the last weeks, and how many readings and weeks stand behind them.
public struct TypicalTime: Sendable, Equatable {
    public var median: Double
    public var p90: Double
    public var readings: Int
    /// The different days the readings came from: for one weekday's slot, its weeks.
    public var weeks: Int

    /// Fewer readings than this, or from fewer weeks, say too little to call anything usual.
    public static let minimumReadings = 5
    public static let minimumWeeks = 3
    /// How many weeks back typical times look when not configured.
    public static let defaultWeeks = 8

    public var isEnough: Bool { readings >= Self.minimumReadings && weeks >= Self.minimumWeeks }

    /// From the minutes of a slot's readings; nil for none. The median is the middle value (the
    /// mean of the two middle ones for an even count); the 90th percentile interpolates between the
    /// two nearest ranks, as Python's `statistics.quantiles(method="inclusive")` and most
    /// spreadsheets do. Both are exact to a tenth of a minute.
    public init?(minutes: [Int], weeks: Int) {
        guard !minutes.isEmpty else { return nil }
        let sorted = minutes.sorted()
        let count = sorted.count
        let middle: Int = count / 2
        if count % 2 == 1 {
            median = Double(sorted[middle])
        } else {
            let pair: Int = sorted[middle - 1] + sorted[middle]
            median = Double(pair) / 2
        }
        // Rank 0.9 × (count − 1), in tenths, in whole numbers.
        let tenths = 9 * (count - 1)
        let lower = tenths / 10
        let fraction = tenths - lower * 10
        if fraction == 0 {
            p90 = Double(sorted[lower])
        } else {
            let weighted: Int = sorted[lower] * (10 - fraction) + sorted[lower + 1] * fraction
            p90 = Double(weighted) / 10
        }
        readings = count
        self.weeks = weeks
    }

    /// `52` or `52.5`: a tenth at most, as computed.
    public static func text(_ minutes: Double) -> String {
        let tenths = Int((minutes * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// Whole minutes, for a sentence.
    public static func whole(_ minutes: Double) -> Int { Int(minutes.rounded()) }
}
