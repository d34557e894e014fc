import FoundationEssentials

/// `schedules.json`: the notification schedules.
public struct ScheduleBook: Codable, Sendable, Equatable {
    /// The version of its file this build reads and writes.
    public static let currentVersion = 1

    public var version: Int
    public var schedules: [Schedule]
    /// Days off, for every schedule or one (`pause`); nil when there are none.
    public var pauses: [Pause]?

    public init(schedules: [Schedule]) {
        self.version = Self.currentVersion
        self.schedules = schedules
    }

    public static var empty: ScheduleBook { ScheduleBook(schedules: []) }
}
