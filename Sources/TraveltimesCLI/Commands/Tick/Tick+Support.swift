import CommuteCore
import FoundationEssentials

extension Commands {
    /// `--delay SECONDS`: 0 to 300.
    static func delayOption(help: String) -> Option<Double> {
        Option(
            "--delay", value: "SECONDS", help: help, read: { NumberParsing.decimal($0).flatMap { (0...300).contains($0) ? $0 : nil } },
            invalid: { "Invalid --delay '\($0)': use seconds from 0 to 300, such as 5 or 0.5." })
    }

    /// Sends a sample alert through every notifier, after `delay` (the option's, or its default).
    static func sendTest(_ invocation: Invocation, delay option: Option<Double>, defaultDelay: Double) throws {
        let delay = try invocation.value(option) ?? defaultDelay
        let commute = try invocation.commute()
        let notifiers = commute.configuration.effectiveNotifiers
        if delay > 0 {
            invocation.io.err("Sending a test alert in \(Int(delay)) s…")
            sleepFor(delay)
        }
        let test = try commute.alerts.sendTestAlert(notifiers: notifiers, sender: invocation.sender(invocation.io))
        try report(test, of: notifiers.count, invocation.io)
    }

    /// Where the test alert went: the notifiers it reached in the parentheses, each that failed on
    /// a line of its own, with why (then exit 1).
    static func report(_ test: Alerts.TestAlert, of count: Int, _ io: TerminalIO) throws {
        let failures = test.sent.filter { $0.result != .delivered }
        let delivered = test.sent.filter { $0.result == .delivered }.map(\.delivery.claim.notifier.summary)
        io.err(
            "Sent \"\(test.message.title)\" to \(delivered.count) of \(count) notifiers"
                + (delivered.isEmpty ? "." : " (\(delivered.joined(separator: "; "))).")
                + (failures.isEmpty ? "" : " Failed: \(failures.count)."))
        for failure in failures {
            io.err("traveltimes: failed: \(failure.delivery.claim.notifier.summary): \(failure.result.failure ?? "")")
        }
        if !failures.isEmpty { throw DeliveryFailed(count: failures.count) }
    }
}

struct DeliveryFailed: ProcessError, CustomStringConvertible {
    var count: Int
    var isQuietRepeat = false
    var exitCode: ExitCode { .failure }
    var description: String { "\(count) \(count == 1 ? "delivery" : "deliveries") failed; see `traveltimes delivered`" }
}
