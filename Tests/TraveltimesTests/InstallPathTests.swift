@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// What the installers write is what the service manager will read: quoted where it can be,
/// refused (exit 64, naming the character) where it cannot, and every byte of the user's crontab
/// kept.
@Suite(.ownThreads) struct InstallPathTests {
    /// A copy of the binary at `directory`/traveltimes.
    func binary(in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/traveltimes"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: Paths.binary, toPath: path)
        return path
    }

    @Test func aStorePathWithALineBreakIsRefusedAndNothingIsWritten() throws {
        let sandbox = Sandbox(runner: .binary)
        let standIns = try StandInPrograms(sandbox)
        sandbox.environment["TRAVELTIMES_HOME"] = sandbox.home + "/store\nsecond"
        let units = sandbox.home + "-units"
        for command in [["install", "cron"], ["install", "systemd", "--unit-dir", units]] {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 64, "\(command): \(outcome)")
            #expect(outcome.stderr.contains("it holds a line feed (U+000A), which no service manager can be given"), "\(outcome)")
        }
        #expect(!FileManager.default.fileExists(atPath: standIns.crontab))
        #expect(!FileManager.default.fileExists(atPath: units))
    }

    @Test func aBinaryPathSystemdCannotRunIsRefusedWhileCronQuotesIt() throws {
        let sandbox = Sandbox(runner: .binary)
        let standIns = try StandInPrograms(sandbox)
        let directory = sandbox.home + "-bin it's \\ here"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = try binary(in: directory)
        let units = sandbox.home + "-units"
        let systemd = try execute([program, "install", "systemd", "--unit-dir", units], environment: sandbox.environment)
        #expect(systemd.status == 64, "\(systemd)")
        #expect(Whole.normal(systemd.stderr) == "traveltimes: Cannot install traveltimes from '$TMP-bin it's \\ here/traveltimes': it holds ' (U+0027), and systemd will not run an executable whose name has one. Move the binary to a plainer path. See 'traveltimes install systemd --help'.\n", "\(systemd)")
        #expect(!FileManager.default.fileExists(atPath: units))
        let cron = try execute([program, "install", "cron"], environment: sandbox.environment)
        #expect(cron.status == 0, "\(cron)")
        // The tick line, run as cron runs it (through sh), starts this very binary.
        let table = try String(contentsOfFile: standIns.crontab, encoding: .utf8)
        let tick = try #require(table.split(separator: "\n").first { $0.hasPrefix("* * * * * ") })
        let command = tick.dropFirst("* * * * * ".count).replacingOccurrences(of: "tick --quiet", with: "--version")
        let run = try execute(["sh", "-c", command], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0 && run.stdout.hasPrefix("traveltimes "), "\(command): \(run)")
    }

    @Test(arguments: [
        Data("# caf\u{E9}\n".utf8) + Data([0x23, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A, 0xFF, 0xFE, 0x0A]) + Data("MAILTO=me".utf8),
        Data("SHELL=/bin/sh\r\n0 5 * * * backup\r\n".utf8),
        Data("0 5 * * * backup\r\n# last line without a break".utf8),
        // Found by the fuzz: a last line ending in a bare carriage return, which the line break
        // install adds turns into one CRLF character, where the block must still be found.
        Data("0 5 * * * backup\r".utf8),
        Data(),
    ])
    func everyByteOfTheCrontabSurvivesInstallAndUninstall(_ original: Data) throws {
        let sandbox = Sandbox(runner: .binary)
        let standIns = try StandInPrograms(sandbox)
        if !original.isEmpty { try Sandbox.write(standIns.crontab, original) }
        try sandbox.ok(["install", "cron"])
        let installed = try #require(FileManager.default.contents(atPath: standIns.crontab))
        #expect(installed.starts(with: original), "the user's bytes come first, as they were")
        #expect(try sandbox.ok(["install", "cron"]).stdout == "Your crontab already has the traveltimes block, as it should be.\n")
        try sandbox.ok(["uninstall", "cron", "--yes"])
        if original.isEmpty {
            #expect(!FileManager.default.fileExists(atPath: standIns.crontab), "no crontab at first, none left")
        } else {
            #expect(FileManager.default.contents(atPath: standIns.crontab) == original)
        }
    }

    @Test(ExternalTool.systemdAnalyze.needed) func aStorePathWithQuotesAndPercentIsQuotedAsSystemdReadsIt() throws {
        let sandbox = Sandbox(runner: .binary)
        _ = try StandInPrograms(sandbox)
        let store = sandbox.home + "/it's \"100%\" \\ mine"
        sandbox.environment["TRAVELTIMES_HOME"] = store
        let units = sandbox.home + "-units"
        defer { try? FileManager.default.removeItem(atPath: units) }
        try sandbox.ok(["install", "systemd", "--unit-dir", units])
        let names = ["traveltimes-tick.service", "traveltimes-tick.timer", "traveltimes-refresh.service", "traveltimes-refresh.timer"]
        let verified = try InstallTests().verify(names.map { "\(units)/\($0)" })
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
        let service = try String(contentsOfFile: "\(units)/traveltimes-tick.service", encoding: .utf8)
        #expect(Installation.pinned(service: service) == Installation.Pinned(binary: Paths.binary, store: store))
    }
}
