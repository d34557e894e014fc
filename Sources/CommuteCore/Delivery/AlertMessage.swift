import Foundation

/// What a notifier is given to send.
public struct AlertMessage: Sendable, Equatable {
    public var id: String
    public var title: String
    public var body: String
    /// `normal` or `critical`, as notify-send spells it.
    public var urgency: String

    public init(id: String, title: String, body: String, urgency: String = "normal") {
        self.id = id
        self.title = title
        self.body = body
        self.urgency = urgency
    }
}
