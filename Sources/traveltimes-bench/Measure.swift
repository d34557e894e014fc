import CommuteCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One finished child process: wall time and peak resident memory.
struct Sample {
    var seconds: Double
    /// User and system CPU time.
    var cpuSeconds: Double
    var maxRSSKiB: Int
    var status: Int32
}

/// Runs a program with posix_spawn and reads its rusage with wait4, output to /dev/null (or its
/// standard output to the file `output`).
func spawn(_ path: String, _ arguments: [String], environment: [String: String], output: String = "/dev/null") -> Sample {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
        return Sample(seconds: .nan, cpuSeconds: .nan, maxRSSKiB: 0, status: -1)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    func time(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
    return Sample(
        seconds: seconds, cpuSeconds: time(usage.ru_utime) + time(usage.ru_stime), maxRSSKiB: usage.ru_maxrss, status: (status >> 8) & 0xff)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func milliseconds(_ seconds: Double) -> String { String(format: "%8.2f ms", seconds * 1000) }

func report(_ name: String, _ value: String, _ target: String, _ verdict: Bool?) {
    let mark = verdict.map { $0 ? "ok  " : "MISS" } ?? "    "
    print("\(mark) \(name.padding(toLength: 66, withPad: " ", startingAt: 0)) \(value)   \(target)")
}

/// Peak resident memory of one run, in KiB, measured by GNU time: a small C program that forks and
/// execs the target. (A child spawned straight from this process would inherit this process's own
/// high-water mark through vfork, and report it instead of its own.)
func peakMemory(_ path: String, _ arguments: [String], environment: [String: String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-rss-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    _ = spawn(time, ["-f", "%M", "-o", output, path] + arguments, environment: environment)
    guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}

/// Times a whole process `runs` times after a warm-up run, and measures its peak memory once.
func measure(_ options: Options, _ path: String, _ arguments: [String], environment: [String: String]) -> (Double, Int?) {
    _ = spawn(path, arguments, environment: environment)
    var times: [Double] = []
    for _ in 0..<options.runs {
        let sample = spawn(path, arguments, environment: environment)
        if sample.status != 0 {
            FileHandle.standardError.write(Data("\(path) \(arguments) exited \(sample.status)\n".utf8))
        }
        times.append(sample.seconds)
    }
    return (median(times), peakMemory(path, arguments, environment: environment))
}

/// A command timed against a baseline, run for run: each run of the command follows a run of the
/// baseline, and the ratio is the median of the paired ratios. On a machine whose speed drifts
/// (a shared VM), drift that would land between two separately timed blocks cancels out.
func measureAgainst(
    _ options: Options, baseline: (path: String, arguments: [String], environment: [String: String]),
    _ path: String, _ arguments: [String], environment: [String: String]
) -> (median: Double, ratio: Double) {
    _ = spawn(baseline.path, baseline.arguments, environment: baseline.environment)
    _ = spawn(path, arguments, environment: environment)
    var times: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<options.runs {
        let base = spawn(baseline.path, baseline.arguments, environment: baseline.environment)
        let sample = spawn(path, arguments, environment: environment)
        if sample.status != 0 {
            FileHandle.standardError.write(Data("\(path) \(arguments) exited \(sample.status)\n".utf8))
        }
        times.append(sample.seconds)
        ratios.append(sample.seconds / base.seconds)
    }
    return (median(times), median(ratios))
}

/// The CPU time (user and system) of a command against a baseline's, run for run as
/// `measureAgainst` times them: the median of the paired ratios.
func cpuAgainst(
    _ options: Options, baseline: (path: String, arguments: [String], environment: [String: String]),
    _ path: String, _ arguments: [String], environment: [String: String]
) -> (median: Double, ratio: Double) {
    var times: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<options.runs {
        let base = spawn(baseline.path, baseline.arguments, environment: baseline.environment)
        let sample = spawn(path, arguments, environment: environment)
        times.append(sample.cpuSeconds)
        ratios.append(sample.cpuSeconds / max(base.cpuSeconds, 1e-6))
    }
    return (median(times), median(ratios))
}

/// A test server from `Tests/Support` on 127.0.0.1: `feed_server.py` serving the fixture, or
/// `provider_server.py` standing in for the routing providers.
final class LoopbackServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("bench-server-\(UUID().uuidString).log").path

    init?(script: String, arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments + [log]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: log)
    }
}

func mebibytes(_ kibibytes: Int?) -> String {
    kibibytes.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "n/a"
}

/// The bytes Scripts/install would put on disk for `binary`: a stripped copy of it, and what it
/// prints as its man page and completions. Nil when `strip` is missing.
func installedBytes(_ binary: String) -> Int? {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("bench-stripped-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: copy) }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strip"), spawn("/usr/bin/strip", ["-o", copy, binary], environment: [:]).status == 0,
        let size = (try? FileManager.default.attributesOfItem(atPath: copy))?[.size] as? Int
    else { return nil }
    var total = size
    for arguments in [["manpage"], ["completions", "bash"], ["completions", "zsh"], ["completions", "fish"]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        total += pipe.fileHandleForReading.readDataToEndOfFile().count
        process.waitUntilExit()
    }
    return total
}
