import Foundation
import Testing

@testable import TraveltimesCLI

@Suite struct ArgumentParserTests {
    let options = [
        OptionSpec(name: "--at", value: "TIME", help: ""),
        OptionSpec(name: "--route", value: "ID", help: "", repeatable: true),
        OptionSpec(name: "--yes", help: ""),
        OptionSpec(name: "--help", help: ""),
    ]

    @Test func readsValuesFlagsAndPositionals() throws {
        let parsed = try ArgumentParser.parse(
            ["abc", "--at", "7:00", "--route=1", "--route", "96", "--yes", "--", "--literal"], options: options,
            positionals: 0...2, command: "x")
        #expect(parsed.positionals == ["abc", "--literal"])
        #expect(parsed.value("--at") == "7:00")
        #expect(parsed.all("--route") == ["1", "96"])
        #expect(parsed.has("--yes"))
        #expect(try ArgumentParser.parse(["-h"], options: options, positionals: 1...1, command: "x").has("--help"))
    }

    @Test func refusesWhatDoesNotFit() throws {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--yes=1"], options: options, positionals: 0...0, command: "x") }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--at"], options: options, positionals: 0...0, command: "x") }
        #expect(throws: UsageError.self) { try ArgumentParser.parse([], options: options, positionals: 1...1, command: "x") }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["a", "b"], options: options, positionals: 0...1, command: "x") }
        let error = #expect(throws: UsageError.self) {
            try ArgumentParser.parse(["--rout", "1"], options: options, positionals: 0...0, command: "schedule add")
        }
        #expect(error?.message == "Unknown option '--rout' for 'schedule add'. Did you mean '--route'?")
    }

    @Test func suggestionsFindNearMissesOnly() {
        #expect(Suggestions.closest(to: "shedule", in: ["schedule", "status"]) == "schedule")
        #expect(Suggestions.closest(to: "favourites", in: ["favorites", "routes"]) == "favorites")
        #expect(Suggestions.closest(to: "pend", in: ["pending", "status"]) == "pending")
        #expect(Suggestions.closest(to: "xyzzy", in: ["pending", "status"]) == nil)
        #expect(Suggestions.distance("kitten", "sitting") == 3)
    }

    @Test func inProcessRunCollectsOutputAndExitCode() {
        let output = Collector()
        let errors = Collector()
        let io = TerminalIO(writeOut: output.append, writeError: errors.append)
        #expect(CLI.run(["--version"], environment: [:], io: io) == .success)
        #expect(output.text == "traveltimes \(CLI.version)\n")
        #expect(CLI.run(["bogus"], environment: [:], io: io) == .usage)
        #expect(errors.text.contains("Unknown command 'bogus'"))
    }
}

final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    var text: String { lock.withLock { buffer } }

    func append(_ text: String) { lock.withLock { buffer += text } }
}
