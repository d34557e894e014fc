import CommuteCore
import FoundationEssentials

extension Commands {
    enum InstallSystemdCommand {
        static let command = Command(
            name: "install systemd",
            summary: "Write systemd user timers that run refresh and tick",
            options: [InstallOptions.unitDirectory, InstallOptions.refreshEvery, enable, InstallOptions.dryRun, InstallOptions.force],
            discussion: """
                Writes traveltimes-tick.service and .timer (every minute, at second 0, to the second) and
                traveltimes-refresh.service and .timer (every 15 minutes; a run missed while the machine
                slept runs at wake). The services run this binary, by its absolute path, with --quiet and
                TRAVELTIMES_HOME set to this store. Running it again changes only what differs; a unit of
                the same name that traveltimes did not write is left alone unless --force.
                On a server without a login session, user timers run only with lingering on:
                  loginctl enable-linger "$USER"
                """
        ) { invocation in
            let directory = try unitDirectory(invocation)
            let plan = try planned(invocation) { binary, store, interval, force throws(InstallProblem) in
                try Installation.systemdPlan(directory: directory, binary: binary, store: store, refreshEvery: interval, force: force)
            }
            let io = invocation.io
            if invocation.isSet(InstallOptions.dryRun) {
                for change in plan.changes {
                    io.out("Would write \(change.path):")
                    io.out(change.text)
                }
                if plan.changes.isEmpty { io.out("The units in \(plan.directory) are already as they would be written.") }
                io.out("Would then run:")
                for command in plan.commands { io.out("  " + command.joined(separator: " ")) }
                return
            }
            try write(plan, io)
            if invocation.isSet(Self.enable) {
                for command in plan.commands { try runSystemctl(command, invocation, otherwise: "the units are written; run it by hand") }
                io.out("Started \(Installation.timers.joined(separator: " and ")).")
            } else {
                io.out("To start them:")
                for command in plan.commands { io.out("  " + command.joined(separator: " ")) }
            }
            io.out("On a server without a login session, also run: loginctl enable-linger \"$USER\"")
            warnOfShellOnlySettings(invocation)
        }

        static let enable = Flag("--enable", help: "Also reload systemd and start both timers now")
    }
}
