import CommuteCore
import FoundationEssentials

extension Commands {
    enum NotifyRemoveCommand {
        static let command = Command(
            name: "notify remove",
            summary: "Remove a notifier by its number",
            arguments: "N",
            positionals: 1...1,
            argumentValues: [.notifierNumber],
            options: [Options.yes]
        ) { invocation in
            let text = invocation.arguments.positionals[0]
            guard let id = Int(text) else { throw invocation.usage("Invalid notifier number '\(text)': see `traveltimes notify list`.") }
            let commute = try invocation.commute()
            guard let notifier = commute.configuration.notifiers?.first(where: { $0.id == id }) else {
                throw invocation.usage("No notifier numbered \(id): see `traveltimes notify list`.")
            }
            try invocation.confirm("This will stop sending alerts to \(notifier.summary).", question: "Remove it?")
            try commute.notifiers.removeNotifier(id)
            invocation.io.out("Removed notifier \(id): \(notifier.summary).")
        }
    }
}
