import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The README, run as written: every `console` block, in order, in one fresh store, each `$` line
/// through bash from the package root with the built `traveltimes` first on PATH, its output
/// (stdout and stderr as a terminal shows them, interleaved) compared whole with what the README
/// shows, and its exit status 0 (an example that fails shows `echo "exit $?"`, as a reader would
/// type it). Every other block says why it is not run. `TRAVELTIMES_RECORD_README=1` writes what
/// the commands printed back into README.md, for review with `git diff`; every difference still
/// fails the test, so a run that records never passes.
///
/// What differs between the README's machine and this one is named, not ignored: the store
/// (`/tmp/tt` in the README), the home directory (`/home/me`), where the binaries are
/// (`/home/me/.local/bin`), and schedule IDs, which are random: an ID the README shows stands for
/// the one the run printed in its place, the same one everywhere. Commands the README runs without
/// `--now` act at a fixed moment far from the README's dates (`TRAVELTIMES_NOW`), so an example
/// whose output depends on the time and does not say when fails every day alike.
@Suite(.serialized, .ownThreads) struct ReadmeTests {
    static let readme = Paths.root.appendingPathComponent("README.md").path
    /// The moment commands without `--now` act at: no date the README shows.
    static let elsewhen = "2030-01-15T12:00:00Z"

    @Test func everyExampleRunsAsWrittenAndPrintsWhatItShows() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let document = Readme(text)
        let steps = document.blocks.filter { $0.info == "console" }.flatMap(\.steps)
        try #require(steps.count >= 30, "the README's console blocks hold only \(steps.count) commands")
        let run = try ReadmeRun()
        let recording = ProcessInfo.processInfo.environment["TRAVELTIMES_RECORD_README"] == "1"
        var recorded: [(step: Readme.Step, output: [String])] = []
        for step in steps {
            let outcome = try run.run(step.command)
            #expect(outcome.status == 0, "README.md:\(step.line): `\(step.command)` exited \(outcome.status):\n\(outcome.output)")
            let actual = Readme.lines(outcome.output)
            let matched = run.matches(expected: step.expected, actual: actual)
            // Recording writes every step from this one run, so that an ID reads the same in all.
            if recording { recorded.append((step, run.shown(actual))) }
            if !matched {
                Issue.record(Comment(rawValue: """
                    README.md:\(step.line): `\(step.command)` printed something else.
                    --- the README shows
                    \(step.expected.joined(separator: "\n"))
                    --- it printed
                    \(actual.joined(separator: "\n"))
                    """))
            }
        }
        if recording {
            // The differences above are recorded as failures all the same: a run that records
            // never passes, so CI cannot turn green by recording.
            let rewritten = document.replacing(recorded)
            if rewritten != text { try rewritten.write(toFile: Self.readme, atomically: true, encoding: .utf8) }
        }
    }

    @Test func everyOtherBlockSaysWhyItIsNotRun() throws {
        let document = Readme(try String(contentsOfFile: Self.readme, encoding: .utf8))
        try #require(!document.blocks.isEmpty)
        for block in document.blocks where block.info != "console" {
            #expect(block.reason != nil, "README.md:\(block.line): a ```\(block.info) block with no <!-- not run: why --> before it")
            #expect(!block.lines.contains { $0.hasPrefix("$ ") }, "README.md:\(block.line): a transcript must be a console block")
        }
    }

    /// The README's table of contents names every section, in order, and only those.
    @Test func theContentsListEverySection() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let document = Readme(text)
        let headings = document.headings.filter { $0.level == 2 }.map(\.title).filter { $0 != "Contents" }
        let listed = text.split(separator: "\n").drop { $0 != "## Contents" }.dropFirst().prefix { !$0.hasPrefix("## ") }
            .filter { $0.hasPrefix("- [") }.map { String($0.dropFirst(3).prefix { $0 != "]" }) }
        #expect(listed == headings)
        // Within the first screen: what it is, and the two commands.
        let firstScreen = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(40).joined(separator: "\n")
        #expect(firstScreen == """
            # traveltimes

            Commute alerts from live travel times, for Linux, by car or by bus. You save the routes you take,
            set schedules ("weekdays at 7:00 AM", or "arrive by 9:00"), and `traveltimes` sends each alert with
            the travel times as they are *now* — to the terminal, the desktop, or your phone through ntfy,
            Telegram, Pushover, Gotify, Matrix, Discord, Slack or email. Road times come from WSDOT's free feed
            in Washington State, or from TomTom, HERE or Google anywhere; bus and train times from any
            agency's GTFS and GTFS-realtime feeds. It learns each route's usual times and says when today is
            not usual.

            It never silently drops an alert past the 64-alert cap, never shows stale data as fresh, never skips
            or doubles an alert when the clocks change, and never loses data when two processes write at once.
            It is one Swift binary with no dependencies beyond the toolchain.

            Try it with nothing but the Swift toolchain (no network, no key), from a clone:

            <!-- not run: it builds the package; the tests run the same `traveltimes demo` -->
            ```sh
            swift run traveltimes demo
            ```

            Run the tests (they need the toolchain and python3; see [CONTRIBUTING.md](CONTRIBUTING.md#testing) for what more widens them):

            <!-- not run: this is the test run itself -->
            ```sh
            swift test
            ```

            ## Contents

            - [Install](#install)
            - [Your first real alert](#your-first-real-alert)
            - [A tour](#a-tour)
            - [Routes anywhere: TomTom, HERE and Google](#routes-anywhere-tomtom-here-and-google)
            - [Delivering alerts](#delivering-alerts)
            - [Running unattended](#running-unattended)
            - [History: what is usual, and when to leave](#history-what-is-usual-and-when-to-leave)
            - [Which way today, and how reliable](#which-way-today-and-how-reliable)
            - [Buses and trains: GTFS](#buses-and-trains-gtfs)
            - [Buses and trains with no key: Transitous](#buses-and-trains-with-no-key-transitous)
            """)
    }
}

/// README.md as blocks and headings.
struct Readme {
    struct Block {
        var info: String
        var lines: [String]
        /// The line of its opening fence, counting from 1.
        var line: Int
        /// The reason in a `<!-- not run: … -->` comment on the line before the fence.
        var reason: String?

        /// The `$` lines and what each shows, with the blank lines that end a step left out.
        var steps: [Readme.Step] {
            var steps: [Readme.Step] = []
            for (offset, text) in lines.enumerated() {
                if text.hasPrefix("$ ") {
                    steps.append(Readme.Step(command: String(text.dropFirst(2)), expected: [], line: line + 1 + offset))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].expected.append(text)
                }
            }
            return steps.map { step in
                var step = step
                while step.expected.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { step.expected.removeLast() }
                return step
            }
        }
    }

    struct Step {
        var command: String
        var expected: [String]
        var line: Int
    }

    let lines: [String]
    private(set) var blocks: [Block] = []
    private(set) var headings: [(level: Int, title: String)] = []

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var open: Block?
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    let before = index > 0 ? lines[index - 1] : ""
                    let reason = before.hasPrefix("<!-- not run: ") && before.hasSuffix(" -->")
                        ? String(before.dropFirst("<!-- not run: ".count).dropLast(4)) : nil
                    open = Block(info: String(line.dropFirst(3)), lines: [], line: index + 1, reason: reason)
                }
            } else if open != nil {
                open?.lines.append(line)
            } else if line.hasPrefix("#") {
                let level = line.prefix { $0 == "#" }.count
                headings.append((level, String(line.dropFirst(level + 1))))
            }
        }
    }

    /// Output as lines, without the blank lines it ends with.
    static func lines(_ output: String) -> [String] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The README with each step's shown output replaced by what it printed.
    func replacing(_ outputs: [(step: Step, output: [String])]) -> String {
        var result = lines
        // From the bottom up, so that earlier line numbers stay true.
        for (step, output) in outputs.sorted(by: { $0.step.line > $1.step.line }) {
            let first = step.line  // the line after the command, counting from 0
            result.replaceSubrange(first..<(first + step.expected.count), with: output)
        }
        return result.joined(separator: "\n")
    }
}

/// One reader following the README: a store, a home, the loopback stand-ins for the routing
/// providers, Home Assistant and an MQTT broker, stand-ins for `crontab` and `systemctl`, and what they exported
/// so far.
final class ReadmeRun: @unchecked Sendable {
    let sandbox = Sandbox()
    let providers: ProviderServer
    let transitous: TransitousServer
    let engines: EngineServer
    /// The Autobahn API's incidents.
    let autobahn: SteeredServer
    /// Home Assistant's REST API, shown as http://homeassistant.local:8123, taking the README's token.
    let homeAssistant: SteeredServer
    /// An MQTT broker taking user ha, password secret, shown as broker.local:1883.
    let broker: LoopbackServer
    let standIns: StandInPrograms
    /// The `export` lines run so far, run again before each command.
    private var exports: [String] = []
    /// The README's names for this run's places, longest first.
    private let places: [(real: String, shown: String)]
    /// Schedule IDs: the README's and this run's, both ways.
    private var ids: [String: String] = [:]
    private var shownIDs: [String: String] = [:]

    init() throws {
        providers = try ProviderServer()
        transitous = try TransitousServer()
        engines = try EngineServer()
        autobahn = try SteeredServer(script: "autobahn_server.py")
        homeAssistant = try SteeredServer(script: "homeassistant_server.py")
        try homeAssistant.steer(#"{"token": "YOUR-LONG-LIVED-TOKEN"}"#)
        broker = try LoopbackServer(script: "mqtt_server.py", arguments: [sandbox.home + "-retained.json", "ha", "secret"])
        standIns = try StandInPrograms(sandbox)
        let binaries = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: sandbox.home + "-home", withIntermediateDirectories: true)
        places = [
            (transitous.control, "/tmp/transitous.json"), (engines.control, "/tmp/engines.json"), (homeAssistant.base, "http://homeassistant.local:8123"),
            (providers.environment["TRAVELTIMES_TOMTOM_URL"] ?? "", "http://127.0.0.1:PORT"),
            ("127.0.0.1:\(broker.port)", "broker.local:1883"), (sandbox.home + "-home", "/home/me"), (binaries, "/home/me/.local/bin"), (sandbox.home, "/tmp/tt"),
        ].sorted { $0.real.count > $1.real.count }
        sandbox.environment = [
            "PATH": "\(binaries):\(standIns.directory):/usr/bin:/bin",
            "HOME": sandbox.home + "-home",
            "USER": "me",
            "LANG": "C.UTF-8",
            "TRAVELTIMES_NOW": ReadmeTests.elsewhen,
        ].merging(providers.environment) { _, new in new }.merging(transitous.environment) { _, new in new }
            .merging(engines.environment) { _, new in new }.merging(["TRAVELTIMES_AUTOBAHN_URL": autobahn.base]) { _, new in new }
    }

    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs one `$` line in bash, from the package root.
    func run(_ command: String) throws -> Outcome {
        var line = command
        for (real, shown) in places { line = line.replacingOccurrences(of: shown, with: real) }
        for (shown, real) in ids.sorted(by: { $0.key.count > $1.key.count }) { line = line.replacingOccurrences(of: shown, with: real) }
        let script = (exports + [line]).joined(separator: "\n")
        if command.hasPrefix("export ") { exports.append(line) }
        let outcome = try execute(["bash", "-c", "exec 2>&1\n" + script], environment: sandbox.environment, in: Paths.root.path)
        var output = outcome.stdout
        for (real, shown) in places { output = output.replacingOccurrences(of: real, with: shown) }
        return Outcome(status: outcome.status, output: output)
    }

    /// A schedule ID: 8 hexadecimal digits, or a whole UUID.
    static let idPattern = #"\b[0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?\b"#

    /// Whether the output is the one shown, an ID standing for the one printed in its place (the
    /// same one wherever it appears); binds the IDs when it is.
    func matches(expected: [String], actual: [String]) -> Bool {
        guard expected.count == actual.count else { return false }
        var bindings = ids
        var reverse = shownIDs
        let finder = try? NSRegularExpression(pattern: Self.idPattern)
        for (shown, printed) in zip(expected, actual) {
            let range = NSRange(shown.startIndex..., in: shown)
            let tokens = finder?.matches(in: shown, range: range) ?? []
            // The shown line as a pattern: its IDs are holes of the same form, the rest is literal.
            var pattern = "^"
            var last = shown.startIndex
            for token in tokens {
                guard let tokenRange = Range(token.range, in: shown) else { return false }
                pattern += NSRegularExpression.escapedPattern(for: String(shown[last..<tokenRange.lowerBound]))
                pattern += shown[tokenRange].count == 8 ? "([0-9a-f]{8})" : "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
                last = tokenRange.upperBound
            }
            pattern += NSRegularExpression.escapedPattern(for: String(shown[last...])) + "$"
            guard let line = try? NSRegularExpression(pattern: pattern),
                let match = line.firstMatch(in: printed, range: NSRange(printed.startIndex..., in: printed))
            else { return false }
            for (index, token) in tokens.enumerated() {
                guard let shownRange = Range(token.range, in: shown), let printedRange = Range(match.range(at: index + 1), in: printed)
                else { return false }
                var pairs = [(String(shown[shownRange]), String(printed[printedRange]))]
                if pairs[0].0.count > 8 { pairs.append((String(pairs[0].0.prefix(8)), String(pairs[0].1.prefix(8)))) }
                for (shownID, printedID) in pairs {
                    if let bound = bindings[shownID], bound != printedID { return false }
                    if let bound = reverse[printedID], bound != shownID { return false }
                    bindings[shownID] = printedID
                    reverse[printedID] = shownID
                }
            }
        }
        ids = bindings
        shownIDs = reverse
        return true
    }

    /// Printed lines with the IDs already bound written as the README shows them (for recording).
    func shown(_ actual: [String]) -> [String] {
        actual.map { line in
            var line = line
            // Whole UUIDs before the 8-digit IDs they begin with.
            for (printed, shownID) in shownIDs.sorted(by: { $0.key.count > $1.key.count }) {
                line = line.replacingOccurrences(of: printed, with: shownID)
            }
            return line
        }
    }
}
