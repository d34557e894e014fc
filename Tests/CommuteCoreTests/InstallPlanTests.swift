@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The plans `install systemd` and `install cron` carry out, made in the core against real files.
@Suite(.ownThreads) struct InstallPlanTests {
    let binary = "/usr/local/bin/traveltimes"
    let store = "/home/ada/.local/share/traveltimes"

    @Test func aSystemdPlanWritesOnlyWhatDiffersAndLeavesForeignUnitsAloneUnlessForced() throws {
        let directory = TemporaryDirectory()
        let fresh = try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: .standard, force: false)
        #expect(fresh.changes.map(\.path) == [
            "traveltimes-tick.service", "traveltimes-tick.timer", "traveltimes-refresh.service", "traveltimes-refresh.timer",
        ].map { "\(directory.path)/\($0)" })
        for change in fresh.changes { try directory.write(URL(fileURLWithPath: change.path).lastPathComponent, change.text) }
        #expect(try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: .standard, force: false).changes == [])

        // Another interval changes the refresh timer only.
        let every5 = try #require(Installation.Interval("5m"))
        let changed = try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: every5, force: false)
        #expect(changed.changes.map(\.path) == ["\(directory.path)/traveltimes-refresh.timer"])
        #expect(changed.changes.first?.text.contains("OnCalendar=*-*-* *:00/5:00") == true)

        try directory.write("traveltimes-tick.timer", "[Timer]\nOnCalendar=hourly\n")
        #expect(throws: InstallProblem.notOurs("\(directory.path)/traveltimes-tick.timer")) {
            try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: .standard, force: false)
        }
        let forced = try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: .standard, force: true)
        #expect(forced.changes.map(\.path) == ["\(directory.path)/traveltimes-tick.timer"])
        #expect(Installation.installedUnits(in: directory.path).count == 3)
    }

    @Test func pathsAServiceManagerCannotBeGivenAreRefusedBeforeAnythingIsPlanned() {
        #expect(throws: InstallProblem.storePath("/tmp/a\nb", problem: "it holds a line feed (U+000A), which no service manager can be given")) {
            try Installation.cronPlan(table: "", binary: binary, store: "/tmp/a\nb", refreshEvery: .standard, force: false)
        }
        #expect(throws: InstallProblem.binaryPath("/opt/it's/traveltimes", problem: "it holds ' (U+0027), and systemd will not run an executable whose name has one")) {
            try Installation.systemdPlan(directory: "/nonexistent", binary: "/opt/it's/traveltimes", store: store, refreshEvery: .standard, force: false)
        }
    }

    @Test func aCronPlanReplacesItsOwnBlockKeepsEveryOtherLineAndNeedsATable() throws {
        let other = "MAILTO=ada\n0 3 * * * /usr/bin/backup\n"
        let first = try Installation.cronPlan(table: other, binary: binary, store: store, refreshEvery: .standard, force: false)
        let table = try #require(first.table)
        #expect(table.hasPrefix(other))
        #expect(Installation.removingBlock(from: table) == other)
        let again = try Installation.cronPlan(table: table, binary: binary, store: store, refreshEvery: .standard, force: false)
        #expect(again.table == table)
        let noCrontab = try Installation.cronPlan(table: nil, binary: binary, store: store, refreshEvery: .standard, force: false)
        #expect(noCrontab.table == nil)
        #expect(noCrontab.block == first.block)

        let foreign = other + "\(Installation.cronBegin)\n* * * * * echo hi\n\(Installation.cronEnd)\n"
        #expect(throws: InstallProblem.notOurs("your crontab's `# BEGIN traveltimes` block")) {
            try Installation.cronPlan(table: foreign, binary: binary, store: store, refreshEvery: .standard, force: false)
        }
        #expect(try Installation.cronPlan(table: foreign, binary: binary, store: store, refreshEvery: .standard, force: true).table != nil)
    }

    @Test func whatIsInstalledIsReadFromTheUnitsTheirLinksAndTheCrontab() throws {
        let directory = TemporaryDirectory()
        #expect(Installation.Installed(unitDirectory: directory.path, crontab: nil).summary
            == "nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`")
        let plan = try Installation.systemdPlan(directory: directory.path, binary: binary, store: store, refreshEvery: .standard, force: false)
        for change in plan.changes { try directory.write(URL(fileURLWithPath: change.path).lastPathComponent, change.text) }
        var installed = Installation.Installed(unitDirectory: directory.path, crontab: "")
        #expect(installed.units.count == 4)
        #expect(installed.cronBlock == false)
        #expect(installed.unitsNotEnabled)
        #expect(!installed.isScheduled)
        #expect(installed.servicePins == Array(repeating: Installation.Pinned(binary: binary, store: store), count: 2))
        try FileManager.default.createDirectory(atPath: directory.path + "/timers.target.wants", withIntermediateDirectories: true)
        try directory.write("timers.target.wants/traveltimes-tick.timer", "")
        installed = Installation.Installed(unitDirectory: directory.path, crontab: nil)
        #expect(installed.summary == "systemd timers in \(directory.path) (only traveltimes-tick.timer enabled)")
        try directory.write("timers.target.wants/traveltimes-refresh.timer", "")
        installed = Installation.Installed(unitDirectory: directory.path, crontab: nil)
        #expect(installed.isScheduled)
        #expect(installed.cronBlock == nil)

        let cron = try Installation.cronPlan(table: "", binary: binary, store: store, refreshEvery: .standard, force: false)
        let withCron = Installation.Installed(unitDirectory: nil, crontab: cron.table)
        #expect(withCron.cronBlock == true)
        #expect(withCron.cronPin == Installation.Pinned(binary: binary, store: store))
        #expect(withCron.summary == "the traveltimes block in your crontab")
    }
}
