import CommuteModel
import FoundationEssentials

/// What a notifier is given to send.
public struct AlertMessage: Sendable, Equatable {
    public var id: AlertID
    public var title: String
    public var body: String
    /// `normal` or `critical`, as notify-send spells it.
    public var urgency: String
    /// The same on every attempt at one occurrence through one notifier: a channel that has its
    /// own idempotency (ntfy's sequence ID, Matrix's transaction ID) makes a resend change the
    /// notification the first attempt made, never a second one beside it.
    public var idempotencyKey: String?
    /// What an earlier attempt reached (its handle) when it reached some of a notifier's targets
    /// and not others (Telegram chats): only the rest are sent to.
    public var reached: String?

    public init(id: AlertID, title: String, body: String, urgency: String = "normal") {
        self.id = id
        self.title = title
        self.body = body
        self.urgency = urgency
    }
}
