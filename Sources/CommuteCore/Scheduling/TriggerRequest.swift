import Foundation

/// One weekly repeating trigger: one weekday of one schedule.
public struct TriggerRequest: Sendable, Equatable {
    public var scheduleID: UUID
    public var weekday: Weekday
    public var hour: Int
    public var minute: Int
    /// The next instant the trigger fires, strictly after the *now* it was planned at.
    public var nextFire: Date

    public init(scheduleID: UUID, weekday: Weekday, hour: Int, minute: Int, nextFire: Date) {
        self.scheduleID = scheduleID
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.nextFire = nextFire
    }

    /// `schedule.<uuid>.weekday.<1-7>`: prefix-structured, so every cleanup scope is a prefix match.
    public var id: String { Self.identifier(scheduleID: scheduleID, weekday: weekday) }

    public static func identifier(scheduleID: UUID, weekday: Weekday) -> String {
        "\(identifierPrefix(scheduleID: scheduleID))weekday.\(weekday.rawValue)"
    }

    /// `schedule.<uuid>.`: every request of one schedule starts with it.
    public static func identifierPrefix(scheduleID: UUID) -> String {
        "schedule.\(scheduleID.uuidString.lowercased())."
    }

    /// Every schedule request starts with it.
    public static let allSchedulesPrefix = "schedule."
}

/// A scheduled trigger with the content it will show, rendered when it was planned.
public struct PendingAlert: Sendable, Equatable {
    public var request: TriggerRequest
    public var content: AlertContent

    public init(request: TriggerRequest, content: AlertContent) {
        self.request = request
        self.content = content
    }
}

/// What an alert shows.
public struct AlertContent: Codable, Sendable, Equatable {
    public var title: String
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
