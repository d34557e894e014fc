import CommuteCore
import FoundationEssentials

extension Commands {
    enum ExportRemoveCommand {
        static let command = Command(
            name: "export remove",
            summary: "Stop an export and take back what it published",
            arguments: "ID",
            positionals: 1...1,
            options: [timeout, Options.yes, Options.now],
            discussion: """
                A file it wrote is removed; Home Assistant's sensors are deleted; the broker's
                retained messages (discovery configs, states, attributes, availability) are emptied,
                so Home Assistant shows no frozen value as live. When the service cannot be reached
                the export is removed all the same, and the warning says what was left there.
                Asks first on a terminal; otherwise needs --yes.
                """
        ) { invocation in
            let id = invocation.arguments.positionals[0]
            let removal: Exports.Removal
            do {
                let commute = try invocation.commute()
                let target = try commute.exports.target(id)
                try invocation.confirm(
                    "This will stop export \(id) (\(target.kind.rawValue), \(target.shownLocation)): \(target.kind.removing(target)).", question: "Remove it?")
                let client = HelperHTTPClient(helperPath: invocation.fetchHelperPath(), maximumBodyBytes: 1 << 20, environment: invocation.childEnvironment)
                removal = try commute.exports.remove(id, client: client, timeout: try invocation.value(Self.timeout) ?? 10)
            } catch let failure as ExportFailure {
                throw invocation.usage("\(failure.message).")
            }
            let removed = removal.target
            invocation.io.out("Removed export \(removed.id) (\(removed.kind.rawValue), \(removed.shownLocation))\(removed.kind.removed(removed, cleared: removal.cleared)).")
            if let problem = removal.problem {
                invocation.io.warn("what export \(removed.id) published could not be taken back (\(problem)): \(removed.kind.leftBehind)")
            }
        }

        static let timeout = Options.timeout(help: "Deadline for taking back what it published (default 10)")
    }
}
