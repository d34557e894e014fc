import Foundation
import TestThreads
import Testing

@_spi(Store) import CommuteCore
@testable import TraveltimesCLI

@Suite(.ownThreads) struct ArgumentParserTests {
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
        #expect(parsed.value(for: options[0]) == "7:00")
        #expect(parsed.values(for: options[1]) == ["1", "96"])
        #expect(parsed.isGiven(options[2]) && !parsed.isGiven(options[3]))
        #expect(try ArgumentParser.parse(["-h"], options: options, positionals: 1...1, command: "x").isGiven(options[3]))
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

    @Test func typedOptionsReadTheirValueOrSayWhyNot() throws {
        let at = Option<TimeOfDay>("--at", value: "TIME", help: "", read: { try? ScheduleParsing.time($0) }, invalid: { "Invalid --at '\($0)'." })
        let yes = Flag("--yes", help: "")
        let command = Command(name: "x", summary: "", options: [at, yes]) { _ in }
        func invocation(_ words: [String]) throws -> Invocation {
            let parsed = try ArgumentParser.parse(words, options: command.allOptions, positionals: 0...0, command: "x")
            return Invocation(command: command, arguments: parsed, environment: [:], io: TerminalIO(writeOut: { _ in }, writeError: { _ in }), clock: { Date(timeIntervalSince1970: 0) })
        }
        let given = try invocation(["--at", "7:30pm", "--yes"])
        #expect(try given.value(at) == TimeOfDay(hour: 19, minute: 30) && given.isSet(yes) && given.isGiven(at))
        let none = try invocation([])
        #expect(try none.value(at) == nil && !none.isSet(yes) && !none.isGiven(at))
        #expect(throws: UsageError(message: "Invalid --at '25:00'.", command: "x")) { try invocation(["--at", "25:00"]).value(at) }
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
        #expect(errors.text == "traveltimes: Unknown command 'bogus'. See 'traveltimes --help'.\n")
    }
}

final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    var text: String { lock.withLock { buffer } }

    func append(_ text: String) { lock.withLock { buffer += text } }
}
