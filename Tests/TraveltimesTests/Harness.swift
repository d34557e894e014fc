@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import Testing
@testable import TraveltimesCLI

#if canImport(Glibc)
import Glibc
#endif

/// What one run of the binary did.
struct Outcome: CustomStringConvertible, Equatable {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// The package root and the fixture, found from this file.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json").path
    static let capturedAt = "2025-11-04T16:00:00-08:00"
    /// A file of the bundled sample transit feed (`Fixtures/transit/`, made by transit_sample.py).
    static func transit(_ name: String) -> String { root.appendingPathComponent("Fixtures/transit/\(name)").path }

    /// The built `traveltimes`, next to this test bundle (the test target depends on it).
    static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["TRAVELTIMES_BINARY"] { return explicit }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        // On Linux the test runner is `<build>/debug/traveltimesPackageTests.xctest` itself.
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("traveltimes").path
    }()
}

/// A store directory of its own and a way to run commands against it: in this process, or the
/// built binary.
///
/// Every command it runs acts at a fixed moment, the sample feed's (`TRAVELTIMES_NOW`), unless
/// the command passes `--now` or the test asks for the real clock by name (`useTheRealClock()`):
/// no outcome depends on the day the tests run.
final class Sandbox: @unchecked Sendable {
    let home: String
    var environment: [String: String]
    let runner: Runner

    /// How `run` runs a command.
    enum Runner {
        /// Through `CLI.run` in this process, with the sandbox's environment and collected output:
        /// most tests, and the fastest.
        case inProcess
        /// The built binary, end to end: what needs a process of its own (cron's environment,
        /// signals, locks held across processes, the binary's own path). `start`, standard input
        /// and a wrapper always run the binary.
        case binary
    }

    init(zone: String = "America/Los_Angeles", runner: Runner = .inProcess) {
        self.runner = runner
        home = FileManager.default.temporaryDirectory.appendingPathComponent("traveltimes-e2e-\(UUID().uuidString)").path
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home + "-home",
            "TRAVELTIMES_HOME": home,
            "TRAVELTIMES_TZ": zone,
            "TRAVELTIMES_NOW": Paths.capturedAt,
            // No test reaches a public service: the Autobahn API is asked only where a test
            // starts its stand-in (a route in Germany otherwise finds nothing listening here).
            "TRAVELTIMES_AUTOBAHN_URL": "http://127.0.0.1:9",
        ]
    }

    /// From now on the commands this sandbox runs read the real clock (a test of the clock itself).
    func useTheRealClock() { environment["TRAVELTIMES_NOW"] = nil }

    deinit {
        try? FileManager.default.removeItem(atPath: home)
        try? FileManager.default.removeItem(atPath: home + "-home")
        for feed in feeds { try? FileManager.default.removeItem(atPath: feed) }
    }

    var store: Store { get throws { try Store(directory: home) } }

    func path(_ name: String) -> String { "\(home)/\(name)" }

    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }

    static func write(_ path: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Starts the binary (under `wrapper`, such as GNU time, when given); the caller waits.
    func start(
        _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil, wrapper: [String] = []
    ) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? Paths.binary)
        process.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [Paths.binary] + arguments
        process.environment = environment.merging(extra) { _, new in new }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tt-out-\(UUID().uuidString)")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tt-err-\(UUID().uuidString)")
        try Self.write(output.path, Data())
        try Self.write(errors.path, Data())
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        if let stdin {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(Data(stdin.utf8))
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        return Running(process: process, output: output, errors: errors)
    }

    /// Runs the binary to the end.
    @discardableResult
    func run(
        _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil, wrapper: [String] = []
    ) throws -> Outcome {
        guard runner == .inProcess, stdin == nil, wrapper.isEmpty else {
            return try start(arguments, environment: extra, stdin: stdin, wrapper: wrapper).wait()
        }
        let output = Collector()
        let errors = Collector()
        // In this process the running program is the test runner: requests run in the built
        // binary, as the installed one runs them in itself.
        var environment = environment.merging(extra) { _, new in new }
        if environment["TRAVELTIMES_FETCH_HELPER"] == nil { environment["TRAVELTIMES_FETCH_HELPER"] = Paths.binary }
        let code = CLI.run(
            arguments, environment: environment,
            io: TerminalIO(writeOut: output.append, writeError: errors.append))
        return Outcome(status: code.rawValue, stdout: output.text, stderr: errors.text)
    }

    /// The fixture with some routes changed by `edit` (keyed by TravelTimeID), written as a feed
    /// file in the store's parent directory; returns its path. Values go through
    /// JSONSerialization, so a name can carry any character, escaped as the wire would.
    func feed(_ name: String, edit: (inout [Int: [String: Any]]) -> Void) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture))
        let routes = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var byID: [Int: [String: Any]] = [:]
        for route in routes { if let id = route["TravelTimeID"] as? Int { byID[id] = route } }
        edit(&byID)
        let order = routes.compactMap { $0["TravelTimeID"] as? Int }
        let edited = order.compactMap { byID[$0] }
        let path = home + "-\(name)"
        try Sandbox.write(path, try JSONSerialization.data(withJSONObject: edited))
        feeds.append(path)
        return path
    }

    private var feeds: [String] = []

    /// Runs and expects exit 0, recording the output otherwise.
    @discardableResult
    func ok(_ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let outcome = try run(arguments, environment: environment)
        #expect(outcome.status == 0, "\(arguments.joined(separator: " ")): \(outcome)", sourceLocation: sourceLocation)
        return outcome
    }

    /// A store with the sample feed, favorites 1, 96 and 4, and the morning preset.
    func prepared() throws -> Sandbox {
        try ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try ok(["favorites", "add", "1", "96", "4"])
        try ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        return self
    }

    /// Health alerts off (`config set stale-after off`): for tests of other alerts that tick on
    /// the sample feed's old data, where a health alert would rightly be sent too.
    @discardableResult
    func withoutHealthAlerts() throws -> Sandbox {
        try ok(["config", "set", "stale-after", "off"])
        return self
    }

    /// The schedules' IDs in store order.
    func scheduleIDs() throws -> [String] {
        try store.schedules().schedules.map { $0.id.uuidString.lowercased() }
    }

    /// Parses stdout as JSON.
    func json(_ arguments: [String], environment: [String: String] = [:]) throws -> Any {
        let outcome = try ok(arguments, environment: environment)
        return try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    }
}

struct Running {
    let process: Process
    let output: URL
    let errors: URL

    func wait() throws -> Outcome {
        process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}

/// The commands `--help` lists, as a user reads them there. A help whose layout no longer has a
/// "Commands:" block fails the calling test rather than giving it nothing to check.
func listedCommands(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    let help = try sandbox.ok(["--help"]).stdout
    let start = try #require(help.range(of: "Commands:\n"), "--help has no 'Commands:' block:\n\(help)", sourceLocation: sourceLocation)
    let end = try #require(
        help.range(of: "\n\n", range: start.upperBound..<help.endIndex), "the command list never ends:\n\(help)",
        sourceLocation: sourceLocation)
    let names = help[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
        line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
    }
    // Every command of the table, once, in its order: a layout change that loses one shows here.
    try #require(names == Commands.all.map(\.name), "--help lists \(names)", sourceLocation: sourceLocation)
    return names
}

/// A directory of stand-in programs, first on PATH: `crontab` keeps its table in a file;
/// `systemctl` records its arguments and succeeds.
final class StandInPrograms: @unchecked Sendable {
    let directory: String
    var crontab: String { directory + "/table" }
    var systemctlLog: String { directory + "/systemctl.log" }

    init(_ sandbox: Sandbox) throws {
        directory = sandbox.home + "-bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write("crontab", """
            #!/bin/sh
            case "$1" in
              -l) if [ -f '\(crontab)' ]; then cat '\(crontab)'; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
              -) cat > '\(crontab)' ;;
              -r) rm -f '\(crontab)' ;;
              *) exit 2 ;;
            esac
            """)
        try write("systemctl", "#!/bin/sh\necho \"$*\" >> '\(systemctlLog)'\n")
        sandbox.environment["PATH"] = directory + ":" + (sandbox.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// From now on `systemctl` records its arguments and fails, as it does without a user bus.
    func failSystemctl() throws {
        try write("systemctl", "#!/bin/sh\necho \"$*\" >> '\(systemctlLog)'\necho 'Failed to connect to bus' >&2\nexit 1\n")
    }

    private func write(_ name: String, _ text: String) throws {
        try Sandbox.write(directory + "/" + name, Data((text + "\n").utf8))
        chmod(directory + "/" + name, 0o755)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func log() -> [String] {
        ((try? String(contentsOfFile: systemctlLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}


/// Runs any program (found on the given PATH through `env`) with exactly `environment`, in
/// `directory`, and collects what it did.
func execute(_ arguments: [String], environment: [String: String], in directory: String = "/") throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("execute-\(UUID().uuidString)")
    let output = scratch.appendingPathExtension("out")
    let errors = scratch.appendingPathExtension("err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
    }
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return Outcome(
        status: process.terminationStatus,
        stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
}

/// A test-only Python server from `Tests/Support` on a loopback port: started with its arguments,
/// read for the port it prints first, and killed with its owner (it also exits when its stdin
/// closes, so it cannot outlive the tests).
final class LoopbackServer: @unchecked Sendable {
    struct DidNotStart: Error {}

    let port: Int
    private let process = Process()
    private let input = Pipe()

    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("Tests/Support/\(script)").path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        // The first line is the port; give the interpreter up to 10 s to start.
        var line = Data()
        let deadline = Date().addingTimeInterval(10)
        while !line.contains(0x0A), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw DidNotStart()
        }
        self.port = port
    }

    deinit {
        // SIGTERM can arrive blocked (children inherit the test runner's signal mask); SIGKILL cannot.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A loopback stand-in that logs each request as a JSON line and reads a control file on every
/// request (`steer`): `SCRIPT LOG CONTROL`, as `transitous_server.py` and `engine_server.py` take them.
class SteeredServer: @unchecked Sendable {
    let log: String
    let control: String
    private let server: LoopbackServer

    init(script: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(script)-\(UUID().uuidString)").path
        log = path + ".log"
        control = path + ".json"
        server = try LoopbackServer(script: script, arguments: [log, control])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: log)
        try? FileManager.default.removeItem(atPath: control)
    }

    var base: String { "http://127.0.0.1:\(server.port)" }

    /// What the stand-in answers the requests that follow (its control file's JSON).
    func steer(_ json: String) throws { try Data(json.utf8).write(to: URL(fileURLWithPath: control)) }

    /// Every request logged so far, oldest first.
    func entries() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Output compared whole where parts of it differ from run to run: the built binary's path
/// becomes `$BINARY` (it differs by machine and architecture), this checkout's `$ROOT`, a
/// temporary path named with a UUID (a sandbox's store, a scratch folder) `$TMP`, a loopback port
/// `127.0.0.1:PORT`, a schedule's random ID `$UUID` (its short form `$ID`). Everything else must be
/// exactly as expected.
enum Whole {
    static func normal(_ text: String) -> String {
        text.replacing(Paths.binary, with: "$BINARY").replacing(Paths.root.path, with: "$ROOT")
            .replacing(/\/tmp\/[^\/\s"']*?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/, with: "$TMP")
            .replacing(/127\.0\.0\.1:[0-9]+/, with: "127.0.0.1:PORT")
            .replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "$UUID")
            .replacing(/\b[0-9a-f]{8}\b/, with: "$ID")
    }
}
