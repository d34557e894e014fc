import CommuteCore
import FoundationEssentials

extension Commands {
    enum NotifyTestCommand {
        static let command = Command(
            name: "notify test",
            summary: "Send a sample alert through every notifier now (traveltimes test, without the wait)",
            options: [
                delay,
                Options.now,
            ]
        ) { invocation in try sendTest(invocation, delay: Self.delay, defaultDelay: 0) }

        static let delay = delayOption(help: "Wait this long first (default 0; up to 300)")
    }
}
