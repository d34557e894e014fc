import CommuteCore
import FoundationEssentials

extension Commands {
    enum UninstallCronCommand {
        static let command = Command(
            name: "uninstall cron",
            summary: "Remove the traveltimes block from your crontab",
            options: [Options.yes],
            discussion: "Every other line stays byte for byte. Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            guard let table = readCrontab(invocation) else { throw NoCrontab() }
            guard let removed = Installation.removingBlock(from: table) else {
                throw NotOurs(what: "your crontab's `# BEGIN traveltimes` block", remedy: "traveltimes did not write it: edit it with `crontab -e`")
            }
            guard removed != table else {
                invocation.io.out("Your crontab has no traveltimes block: nothing to remove.")
                return
            }
            try invocation.confirm("This will remove the lines that run refresh and tick from your crontab.", question: "Remove them?")
            // Nothing left: the table traveltimes made is removed, not left empty.
            if removed.isEmpty { try removeCrontab(invocation) } else { try writeCrontab(removed, invocation) }
            invocation.io.out("Removed the traveltimes block from your crontab.")
        }

        private static func removeCrontab(_ invocation: Invocation) throws {
            let result: SystemCommand.Result
            do {
                result = try SystemCommand.run("crontab", ["-r"], environment: invocation.childEnvironment)
            } catch {
                throw CrontabFailed(reason: error.reason)
            }
            guard result.status == 0 else { throw CrontabFailed(reason: "`crontab -r` exited with status \(result.status); the table was not changed") }
        }
    }
}
