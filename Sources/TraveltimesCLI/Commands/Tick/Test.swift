import CommuteCore
import FoundationEssentials

extension Commands {
    enum TestCommand {
        static let command = Command(
            name: "test",
            summary: "Send a sample alert through the configured notifiers, after a delay",
            options: [
                OptionSpec(name: "--delay", value: "SECONDS", help: "Wait this long first (default 5; 0 to 300)"),
                Options.now,
            ],
            discussion: "The alert is built from the first three favorites' current data."
        ) { invocation in try sendTest(invocation, defaultDelay: 5) }
    }
}
