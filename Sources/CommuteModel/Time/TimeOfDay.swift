/// A wall-clock time of day, hour 0…23 and minute 0…59.
public struct TimeOfDay: Sendable, Equatable, Hashable, Comparable {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// From minutes since midnight (taken within one day).
    public init(minuteOfDay: Int) {
        let minutes = (minuteOfDay % 1_440 + 1_440) % 1_440
        self.init(hour: minutes / 60, minute: minutes % 60)
    }

    /// `7:00 AM`, `4:30 PM`, `12:05 AM`.
    public var label: String {
        let twelveHour = hour % 12 == 0 ? 12 : hour % 12
        let paddedMinute = minute < 10 ? "0\(minute)" : "\(minute)"
        return "\(twelveHour):\(paddedMinute) \(hour < 12 ? "AM" : "PM")"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }
}
