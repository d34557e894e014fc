import CommuteCore
import FoundationEssentials

extension Commands {
    enum UninstallSystemdCommand {
        static let command = Command(
            name: "uninstall systemd",
            summary: "Stop the traveltimes timers and remove the units install wrote",
            options: [InstallOptions.unitDirectory, Options.yes],
            discussion: "Removes only units traveltimes wrote. Asks first on a terminal; otherwise needs --yes."
        ) { invocation in
            let directory = try unitDirectory(invocation)
            let ours = Installation.installedUnits(in: directory)
            guard !ours.isEmpty else {
                invocation.io.out("No traveltimes units in \(directory): nothing to remove.")
                return
            }
            try invocation.confirm("This will stop the timers that deliver your alerts and remove \(ours.count) units from \(directory).", question: "Remove them?")
            if !Installation.enabledTimers(in: directory).isEmpty {
                try runSystemctl(["systemctl", "--user", "disable", "--now"] + Installation.timers, invocation, otherwise: "nothing was removed; run it by hand, then uninstall again")
            }
            try Installation.remove(units: ours) { invocation.io.out("Removed \($0)") }
            if SystemCommand.find("systemctl", environment: invocation.environment) != nil {
                try runSystemctl(["systemctl", "--user", "daemon-reload"], invocation, otherwise: "the units are removed; run it by hand")
            }
        }
    }
}
