import FoundationEssentials

/// `schedules.json`: the notification schedules.
public struct ScheduleBook: VersionedDocument, Equatable {
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
