import CommuteCore
import FoundationEssentials

extension Commands {
    enum NotifyListCommand {
        static let command = Command(
            name: "notify list",
            summary: "List notifiers (also: traveltimes notify)",
            options: [Options.json]
        ) { invocation in
            let configuration = try invocation.commute().configuration
            if invocation.wantsJSON {
                try invocation.printJSON(configuration.effectiveNotifiers.map(NotifierJSON.init))
                return
            }
            if configuration.notifiers?.isEmpty ?? true {
                invocation.io.out("No notifiers configured: alerts go to stdout. Add one with `traveltimes notify add`.")
                return
            }
            for notifier in configuration.effectiveNotifiers {
                invocation.io.out("\(notifier.id)  \(notifier.summary)")
            }
        }
    }
}
