import CommuteCore
import FoundationEssentials

extension Commands {
    /// `--schedule ID`: the start of a schedule's ID, or nil without the option.
    static func scheduleOption(_ invocation: Invocation) throws -> ScheduleIDPrefix? {
        guard let text = invocation.arguments.value("--schedule") else { return nil }
        // An empty prefix would match every schedule: only --all clears everything.
        guard let prefix = ScheduleIDPrefix(text) else {
            throw invocation.usage("Invalid --schedule '\(text)': give the start of a schedule ID (from `traveltimes schedule list`), or --all.")
        }
        return prefix
    }
}

struct LedgerJSON: EveryKeyEncodable {
    var requestID: String
    var occurrence: String
    var notifier: Int?
    var outcome: String
    var at: String
    var attempts: Int
    var reason: String?
    /// The alert's key: one per occurrence, shared by the alerts that replace one another.
    var key: String?
    /// The channel's handle for the notification (ntfy's message ID, Telegram's message_id…).
    var handle: String?
    /// sent, updated, cleared, unchanged or failed; null for a decision that sent nothing.
    var action: String?
    /// An arrive-by alert's leave time as it said it.
    var leave: String?
}
