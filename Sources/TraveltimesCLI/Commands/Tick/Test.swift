import CommuteCore
import FoundationEssentials

extension Commands {
    enum TestCommand {
        static let command = Command(
            name: "test",
            summary: "Send a sample alert through the configured notifiers, after a delay",
            options: [
                delay,
                Options.now,
            ],
            discussion: "The alert is built from the first three favorites' current data."
        ) { invocation in try sendTest(invocation, delay: Self.delay, defaultDelay: 5) }

        static let delay = delayOption(help: "Wait this long first (default 5; 0 to 300)")
    }
}
