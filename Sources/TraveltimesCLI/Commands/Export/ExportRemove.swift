import CommuteCore
import FoundationEssentials

extension Commands {
    enum ExportRemoveCommand {
        static let command = Command(
            name: "export remove",
            summary: "Stop an export (a file it wrote is removed with it)",
            arguments: "ID",
            positionals: 1...1,
            options: [Options.now]
        ) { invocation in
            let id = invocation.arguments.positionals[0]
            let removed: ExportTarget
            do {
                removed = try invocation.commute().exports.remove(id)
            } catch let failure as ExportFailure {
                throw invocation.usage("\(failure.message).")
            }
            let file = removed.kind.isFile ? "; removed \(removed.shownLocation)" : ""
            invocation.io.out("Removed export \(removed.id) (\(removed.kind.rawValue), \(removed.shownLocation))\(file).")
        }
    }
}
