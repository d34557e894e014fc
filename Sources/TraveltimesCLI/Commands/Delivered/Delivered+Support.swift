import CommuteCore
import FoundationEssentials

extension Commands {
    /// `--schedule ID`: the start of a schedule's ID. An empty one would match every schedule:
    /// only --all clears everything.
    static func scheduleIDPrefixOption(help: String) -> Option<ScheduleIDPrefix> {
        Option(
            "--schedule", value: "ID", help: help, values: .scheduleID, read: ScheduleIDPrefix.init,
            invalid: { "Invalid --schedule '\($0)': give the start of a schedule ID (from `traveltimes schedule list`), or --all." })
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
