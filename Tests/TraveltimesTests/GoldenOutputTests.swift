@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@testable import TraveltimesCLI

/// Every command's `--help`, and every listing in text and `--json`, compared whole with a file
/// recorded under `Tests/Support/golden/` — as swift-argument-parser's snapshot tests do.
/// `TRAVELTIMES_RECORD_GOLDEN=1` writes them anew, for review with `git diff`. They run in
/// process, through `CLI.run`, with the sandbox's environment and its pinned clock.
@Suite(.ownThreads) struct GoldenOutputTests {
    /// Compares `printed` with the recorded file. With `TRAVELTIMES_RECORD_GOLDEN=1` a file that
    /// differs is written anew and the test fails all the same, as swift-argument-parser's
    /// `assertSnapshot` does: a run that records can never pass, so CI cannot pass by recording.
    static func check(_ name: String, _ printed: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try check(
            at: Paths.root.appendingPathComponent("Tests/Support/golden/\(name)").path, printed,
            recording: ProcessInfo.processInfo.environment["TRAVELTIMES_RECORD_GOLDEN"] == "1", sourceLocation: sourceLocation)
    }

    static func check(at path: String, _ printed: String, recording: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recorded = try? String(contentsOfFile: path, encoding: .utf8)
        guard printed != recorded else { return }
        if recording {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Sandbox.write(path, Data(printed.utf8))
            Issue.record("recorded \(path) anew: review it with `git diff`, then run the tests without TRAVELTIMES_RECORD_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        #expect(printed == recorded, "differs from \(path) (TRAVELTIMES_RECORD_GOLDEN=1 records it)", sourceLocation: sourceLocation)
    }

    /// Recording writes the new output and fails the test that recorded it; a run that records
    /// nothing new passes.
    @Test func recordingWritesTheFileAndFails() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Sandbox.write(path, Data("old\n".utf8))
        withKnownIssue("recording fails the test") { try Self.check(at: path, "new\n", recording: true) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        try Self.check(at: path, "new\n", recording: true)
        withKnownIssue("without recording, a difference fails and writes nothing") { try Self.check(at: path, "newer\n", recording: false) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    /// Runs one command line in this process.
    static func inProcess(_ arguments: [String], environment: [String: String] = [:]) -> Outcome {
        let output = Collector()
        let errors = Collector()
        let code = CLI.run(arguments, environment: environment, io: TerminalIO(writeOut: output.append, writeError: errors.append))
        return Outcome(status: code.rawValue, stdout: output.text, stderr: errors.text)
    }

    @Test(arguments: Commands.all.map(\.name))
    func everyHelpIsTheRecordedOne(command: String) throws {
        let outcome = Self.inProcess(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome)")
        try Self.check("help/\(command.replacingOccurrences(of: " ", with: "-")).txt", outcome.stdout)
    }

    /// A group's `--help` (`transit --help`, `install --help`): every subcommand with its summary,
    /// exit 0 — compared whole, and checked to name every command of the group.
    @Test(arguments: Commands.groups.filter { Commands.groupHelp($0) != nil })
    func everyGroupsHelpIsTheRecordedOne(group: String) throws {
        for spelling in [[group, "--help"], [group, "-h"], ["help", group]] {
            let outcome = Self.inProcess(spelling)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(spelling): \(outcome)")
            try Self.check("help/\(group).txt", outcome.stdout)
        }
        let help = Self.inProcess([group, "--help"]).stdout
        for command in Commands.all where command.name.hasPrefix(group + " ") {
            #expect(help.contains("\n  \(command.name)  "), "\(group) --help does not list \(command.name)")
        }
    }

    /// A command that is also a group (`route ID` with `route add`…) lists its subcommands too.
    @Test(arguments: ["route", "pause", "history", "delivered"])
    func aCommandThatIsAlsoAGroupListsItsSubcommands(command: String) throws {
        let help = Self.inProcess([command, "--help"]).stdout
        let subcommands = Commands.all.filter { $0.name.hasPrefix(command + " ") }
        #expect(!subcommands.isEmpty)
        for sub in subcommands { #expect(help.contains("\n  \(sub.name)  "), "\(command) --help does not list \(sub.name)") }
    }

    /// A store with something in every list: the sample feed, favourites, two schedules (one
    /// arrive-by), a group, a pause, a watch, a notifier, a delivered alert and a setting.
    static let listings: [[String]] = [
        ["routes"], ["routes", "--favorites"], ["route", "1"], ["favorites"], ["schedule", "list"], ["schedule", "show", "SCHEDULE"],
        ["group", "list"], ["pause", "list"], ["pending"], ["delivered", "--all"], ["notify", "list"], ["watch", "list"],
        ["status"], ["config", "show"], ["brief"],
    ]

    @Test func everyListingIsTheRecordedOne() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96", "70"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "weekdays", "--route", "1", "--route", "70"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "mon,wed", "--route", "96"])
        try sandbox.ok(["group", "add", "work", "--route", "1", "--route", "96"])
        try sandbox.ok(["pause", "--from", "2025-11-10", "--until", "2025-11-12", "--reason", "holiday"])
        try sandbox.ok(["watch", "add", "70", "--over", "10"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["config", "set", "grace", "15m"])
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let ids = try sandbox.scheduleIDs()
        let environment = sandbox.environment.merging(["TRAVELTIMES_NOW": "2025-11-04T16:31:00-08:00"]) { _, new in new }
        // Schedule IDs are random, and the store and the checkout are where they are: each is
        // written as its place in the store, and the directories by name.
        func stable(_ text: String) -> String {
            var text = text.replacingOccurrences(of: sandbox.home, with: "$TRAVELTIMES_HOME")
                .replacingOccurrences(of: Paths.root.path, with: "$CHECKOUT")
            for (index, id) in ids.enumerated() {
                text = text.replacingOccurrences(of: id, with: "<schedule \(index + 1)>", options: .caseInsensitive)
                text = text.replacingOccurrences(of: String(id.prefix(8)), with: "<\(index + 1)>", options: .caseInsensitive)
            }
            return text
        }
        for words in Self.listings {
            let arguments = words.map { $0 == "SCHEDULE" ? String(ids[0].prefix(8)) : $0 }
            let name = words.filter { $0 != "SCHEDULE" }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "-")) }.joined(separator: "-")
            for json in [false, true] {
                let outcome = Self.inProcess(arguments + (json ? ["--json"] : []), environment: environment)
                #expect(outcome.status == 0, "\(arguments.joined(separator: " ")): \(outcome)")
                try Self.check("listings/\(name)\(json ? ".json" : ".txt")", stable(outcome.stdout))
            }
        }
    }
}
