import CommuteCore
import FoundationEssentials

extension Commands {

    /// The one notifier the demo, doctor and the README recommend: ntfy, by its own URL (alerts
    /// changed in place and cleared), named for schedules.
    static let recommendedNotifier = "traveltimes notify add ntfys://ntfy.sh/YOUR-TOPIC --name phone"

}

/// A demo step failed; its own message is already on stderr.
struct DemoFailed: ProcessError, CustomStringConvertible {
    var code: ExitCode
    var exitCode: ExitCode { code }
    var description: String { "the demo stopped at a failed step (exit \(code.rawValue))" }
}
