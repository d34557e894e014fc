@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// `install` and `uninstall`, through the binary: units checked by `systemd-analyze verify`, and
/// `crontab` and `systemctl` stood in for on PATH by scripts that record what they were asked.
@Suite(.ownThreads) struct InstallTests {
    func verify(_ paths: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemd-analyze", "verify"] + paths
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(ExternalTool.systemdAnalyze.needed) func systemdUnitsVerifyAndInstallingIsIdempotentAndCareful() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        let units = sandbox.home + "-units"
        defer { try? FileManager.default.removeItem(atPath: units) }
        let installed = try sandbox.ok(["install", "systemd", "--unit-dir", units])
        let names = ["traveltimes-tick.service", "traveltimes-tick.timer", "traveltimes-refresh.service", "traveltimes-refresh.timer"]
        #expect(installed.stdout.hasPrefix(names.map { "Wrote \(units)/\($0)\n" }.joined()), "\(installed)")
        #expect(Whole.normal(installed.stdout) == """
            Wrote $TMP-units/traveltimes-tick.service
            Wrote $TMP-units/traveltimes-tick.timer
            Wrote $TMP-units/traveltimes-refresh.service
            Wrote $TMP-units/traveltimes-refresh.timer
            To start them:
              systemctl --user daemon-reload
              systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer
            On a server without a login session, also run: loginctl enable-linger "$USER"

            """)
        #expect(standIns.log().isEmpty, "without --enable, nothing is run")
        // The units as systemd reads them: no warning.
        let verified = try verify(names.map { "\(units)/\($0)" })
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
        #expect(try String(contentsOfFile: "\(units)/traveltimes-tick.service", encoding: .utf8) == """
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: deliver the commute alerts that are due

            [Service]
            Type=oneshot
            Environment="TRAVELTIMES_HOME=\(sandbox.home)"
            ExecStart="\(realBinary())" tick --quiet

            """)
        let timer = try String(contentsOfFile: "\(units)/traveltimes-tick.timer", encoding: .utf8)
        #expect(timer == """
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: deliver due alerts every minute

            [Timer]
            OnCalendar=*-*-* *:*:00
            AccuracySec=1s

            [Install]
            WantedBy=timers.target

            """)
        #expect(try String(contentsOfFile: "\(units)/traveltimes-refresh.timer", encoding: .utf8) == """
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: refresh travel times every 15m

            [Timer]
            OnCalendar=*-*-* *:00/15:00
            Persistent=true

            [Install]
            WantedBy=timers.target

            """)
        // Again: nothing changes.
        let before = try names.map { try Data(contentsOf: URL(fileURLWithPath: "\(units)/\($0)")) }
        #expect(try sandbox.ok(["install", "systemd", "--unit-dir", units]).stdout.hasPrefix("The units in \(units) are already installed"))
        #expect(try names.map { try Data(contentsOf: URL(fileURLWithPath: "\(units)/\($0)")) } == before)
        // Another interval rewrites the refresh timer, and --enable starts both.
        let enabled = try sandbox.ok(["install", "systemd", "--unit-dir", units, "--refresh-every", "30m", "--enable"])
        #expect(enabled.stdout.hasPrefix("Wrote \(units)/traveltimes-refresh.timer\n"), "\(enabled)")
        #expect(standIns.log() == ["--user daemon-reload", "--user enable --now traveltimes-tick.timer traveltimes-refresh.timer"])
        let bad = try sandbox.run(["install", "systemd", "--unit-dir", units, "--refresh-every", "7m"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --refresh-every '7m': use minutes that divide an hour (5m, 15m, 30m) or hours that divide a day (1h, 2h). See 'traveltimes install systemd --help'.\n")
        // A unit of the same name that traveltimes did not write is left alone, unless --force.
        let foreign = Data("[Unit]\nDescription=mine\n".utf8)
        try Sandbox.write("\(units)/traveltimes-tick.timer", foreign)
        let refused = try sandbox.run(["install", "systemd", "--unit-dir", units])
        #expect(refused.status == 1 && Whole.normal(refused.stderr) == "traveltimes: $TMP-units/traveltimes-tick.timer is in the way: traveltimes did not write it: move it aside, or pass --force to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(units)/traveltimes-tick.timer")) == foreign)
        #expect(Whole.normal(try sandbox.run(["uninstall", "systemd", "--unit-dir", units, "--yes"]).stdout) == """
            Removed $TMP-units/traveltimes-tick.service
            Removed $TMP-units/traveltimes-refresh.service
            Removed $TMP-units/traveltimes-refresh.timer

            """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(units)/traveltimes-tick.timer")) == foreign, "uninstall removes only its own")
        try sandbox.ok(["install", "systemd", "--unit-dir", units, "--force"])
        #expect(try String(contentsOfFile: "\(units)/traveltimes-tick.timer", encoding: .utf8) == timer)
        // Dry run: prints, writes nothing.
        let dry = sandbox.home + "-dry"
        #expect(Whole.normal(try sandbox.ok(["install", "systemd", "--unit-dir", dry, "--dry-run"]).stdout) == """
            Would write $TMP-dry/traveltimes-tick.service:
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: deliver the commute alerts that are due

            [Service]
            Type=oneshot
            Environment="TRAVELTIMES_HOME=$TMP"
            ExecStart="$BINARY" tick --quiet

            Would write $TMP-dry/traveltimes-tick.timer:
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: deliver due alerts every minute

            [Timer]
            OnCalendar=*-*-* *:*:00
            AccuracySec=1s

            [Install]
            WantedBy=timers.target

            Would write $TMP-dry/traveltimes-refresh.service:
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: fetch travel times and re-plan every alert

            [Service]
            Type=oneshot
            Environment="TRAVELTIMES_HOME=$TMP"
            ExecStart="$BINARY" refresh --quiet

            Would write $TMP-dry/traveltimes-refresh.timer:
            # Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it.
            [Unit]
            Description=traveltimes: refresh travel times every 15m

            [Timer]
            OnCalendar=*-*-* *:00/15:00
            Persistent=true

            [Install]
            WantedBy=timers.target

            Would then run:
              systemctl --user daemon-reload
              systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer

            """)
        #expect(!FileManager.default.fileExists(atPath: dry))
    }

    @Test func statusSaysWhatIsInstalledAndUninstallStopsTheTimers() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        let units = sandbox.environment["HOME", default: ""] + "/.config/systemd/user"
        #expect(try sandbox.ok(["status"]).stdout.contains(
            "Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`\n"))
        try sandbox.ok(["install", "systemd"])
        #expect(Whole.normal(try sandbox.ok(["status"]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  systemd timers in $TMP-home/.config/systemd/user (not enabled: systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer)

            """)
        // systemctl enable writes the links that status looks for.
        try FileManager.default.createDirectory(atPath: units + "/timers.target.wants", withIntermediateDirectories: true)
        for timer in ["traveltimes-tick.timer", "traveltimes-refresh.timer"] {
            try FileManager.default.createSymbolicLink(atPath: "\(units)/timers.target.wants/\(timer)", withDestinationPath: "\(units)/\(timer)")
        }
        #expect(Whole.normal(try sandbox.ok(["status"]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  systemd timers in $TMP-home/.config/systemd/user (enabled)

            """)
        let refused = try sandbox.run(["uninstall", "systemd"])
        #expect(refused.status == 64 && Whole.normal(refused.stderr) == "traveltimes: This will stop the timers that deliver your alerts and remove 4 units from $TMP-home/.config/systemd/user. Re-run with --yes to confirm. See 'traveltimes uninstall systemd --help'.\n")
        try sandbox.ok(["uninstall", "systemd", "--yes"])
        #expect(standIns.log() == ["--user disable --now traveltimes-tick.timer traveltimes-refresh.timer", "--user daemon-reload"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: units).filter { $0.hasSuffix(".service") || $0.hasSuffix(".timer") }.isEmpty)
        #expect(Whole.normal(try sandbox.ok(["uninstall", "systemd", "--yes"]).stdout) == "No traveltimes units in $TMP-home/.config/systemd/user: nothing to remove.\n")
        try sandbox.ok(["install", "cron"])
        #expect(Whole.normal(try sandbox.ok(["status"]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  the traveltimes block in your crontab

            """)
    }

    @Test func aFailingSystemctlSaysWhereThingsStand() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        try standIns.failSystemctl()
        let units = sandbox.home + "-units"
        defer { try? FileManager.default.removeItem(atPath: units) }
        let names = ["traveltimes-tick.service", "traveltimes-tick.timer", "traveltimes-refresh.service", "traveltimes-refresh.timer"]
        func present() -> [Bool] { names.map { FileManager.default.fileExists(atPath: "\(units)/\($0)") } }

        let enabling = try sandbox.run(["install", "systemd", "--unit-dir", units, "--enable"])
        #expect(enabling.status == 69, "\(enabling)")
        #expect(enabling.stderr == "traveltimes: `systemctl --user daemon-reload` failed: it exited with status 1: Failed to connect to bus (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one); the units are written; run it by hand\n")
        #expect(present() == [true, true, true, true])

        // Enabled timers that cannot be stopped: nothing is removed.
        try FileManager.default.createDirectory(atPath: units + "/timers.target.wants", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(units)/timers.target.wants/traveltimes-tick.timer", withDestinationPath: "\(units)/traveltimes-tick.timer")
        let stopping = try sandbox.run(["uninstall", "systemd", "--unit-dir", units, "--yes"])
        #expect(stopping.status == 69 && stopping.stdout.isEmpty, "\(stopping)")
        #expect(stopping.stderr.hasSuffix("failed: it exited with status 1: Failed to connect to bus (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one); nothing was removed; run it by hand, then uninstall again\n"))
        #expect(present() == [true, true, true, true])

        // Not enabled: the units go, and the reload that follows is left to the user.
        try FileManager.default.removeItem(atPath: units + "/timers.target.wants")
        let removing = try sandbox.run(["uninstall", "systemd", "--unit-dir", units, "--yes"])
        #expect(removing.status == 69, "\(removing)")
        #expect(removing.stdout == names.map { "Removed \(units)/\($0)\n" }.joined())
        #expect(removing.stderr == "traveltimes: `systemctl --user daemon-reload` failed: it exited with status 1: Failed to connect to bus (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one); the units are removed; run it by hand\n")
        #expect(present() == [false, false, false, false])
        withExtendedLifetime(standIns) {}
    }

    @Test func theCrontabBlockIsMergedAndRemovedLeavingEveryOtherLineAsItWas() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        let own = "MAILTO=me@example.com\nSHELL=/bin/sh\n# my backups, nightly\n0 3 * * * /usr/local/bin/backup --all  # keep\n\n@reboot echo up\n"
        try Sandbox.write(standIns.crontab, Data(own.utf8))
        let installed = try sandbox.ok(["install", "cron"])
        #expect(installed.stdout.hasPrefix("Added to your crontab:\n  # BEGIN traveltimes\n"))
        let binary = realBinary()
        let block = """
            # BEGIN traveltimes
            # Written by `traveltimes install cron`; `traveltimes uninstall cron` removes this block.
            */15 * * * * TRAVELTIMES_HOME='\(sandbox.home)' '\(binary)' refresh --quiet
            * * * * * TRAVELTIMES_HOME='\(sandbox.home)' '\(binary)' tick --quiet
            # END traveltimes

            """
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == own + block)
        // Twice: nothing changes.
        #expect(try sandbox.ok(["install", "cron"]).stdout == "Your crontab already has the traveltimes block, as it should be.\n")
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == own + block)
        // An earlier block (another interval, another path) is replaced where it stands.
        let older = own + block.replacingOccurrences(of: "*/15 * * * *", with: "*/5 * * * *") + "# after\n"
        try Sandbox.write(standIns.crontab, Data(older.utf8))
        try sandbox.ok(["install", "cron", "--refresh-every", "30m"])
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8)
            == own + block.replacingOccurrences(of: "*/15 * * * *", with: "*/30 * * * *") + "# after\n")
        // Uninstall leaves the table byte for byte as the user had it.
        try sandbox.ok(["uninstall", "cron", "--yes"])
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == own + "# after\n")
        // A block traveltimes did not write is left alone, unless --force.
        let foreign = own + "# BEGIN traveltimes\n* * * * * my-own-thing\n# END traveltimes\n"
        try Sandbox.write(standIns.crontab, Data(foreign.utf8))
        let refused = try sandbox.run(["install", "cron"])
        #expect(refused.status == 1 && refused.stderr == "traveltimes: your crontab's `# BEGIN traveltimes` block is in the way: traveltimes did not write it: edit it with `crontab -e`, or pass --force to replace it\n")
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == foreign)
        try sandbox.ok(["install", "cron", "--force"])
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == own + block)
        // No crontab yet: the block is the whole table.
        try FileManager.default.removeItem(atPath: standIns.crontab)
        try sandbox.ok(["install", "cron"])
        #expect(try String(contentsOfFile: standIns.crontab, encoding: .utf8) == block)
        // No crontab command at all: the lines to paste, exit 69.
        let bare = try sandbox.run(["install", "cron"], environment: ["PATH": "/nonexistent"])
        #expect(bare.status == 69, "\(bare)")
        #expect(Whole.normal(bare.stderr) == """
            traveltimes: there is no crontab command here; add these lines with your scheduler:
              # BEGIN traveltimes
              # Written by `traveltimes install cron`; `traveltimes uninstall cron` removes this block.
              */15 * * * * TRAVELTIMES_HOME='$TMP' '$BINARY' refresh --quiet
              * * * * * TRAVELTIMES_HOME='$TMP' '$BINARY' tick --quiet
              # END traveltimes
            traveltimes: no crontab command here: use `traveltimes install systemd`, or add the lines above by hand

            """)
    }

    /// The binary's real path, as the running binary finds itself through /proc/self/exe (the
    /// build directory is reached through a link).
    func realBinary() -> String {
        URL(fileURLWithPath: Paths.binary).resolvingSymlinksInPath().path
    }
}
