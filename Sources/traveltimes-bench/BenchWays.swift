import CommuteCore
import Foundation

// 2k. Which way, how reliable (issue 50): 20 routes with a year of readings every 5 minutes (the
// same year on every run: a seeded generator), four commutes of five ways and an arrive-by weekday
// schedule on each (two planned on the median, two `--on-time 95%`); `compare` of one commute and
// `reliability` of every schedule (4 schedules × 5 ways × 5 weekdays), each run for run against
// `status` on the same store; then `reliability --json` against Python's statistics over
// `history export` (Tests/Support/reliability_oracle.py).
@MainActor
func benchWays() {
    let waysHome = home + "-ways"
    defer { if options.keep { print("kept: the ways store in \(waysHome)") } else { try? FileManager.default.removeItem(atPath: waysHome) } }
    var env = environment
    env["TRAVELTIMES_HOME"] = waysHome
    let routes = (1...20).map(String.init)
    must(["refresh", "--source", options.fixture, "--now", now], environment: env)
    must(["favorites", "add"] + routes.filter { $0 != "17" }, environment: env)
    // Route 17 is not in the fixture; route 20 is: the ways are the fixture's first twenty IDs.
    for (index, first) in [1, 6, 11, 16].enumerated() {
        let ways = (first..<(first + 5)).map(String.init).filter { fixtureRoutes.map(\.id.rawValue).contains($0) }
        must(["commute", "add", "c\(index + 1)", "--routes", ways.joined(separator: ",")], environment: env)
        let onTime = index.isMultiple(of: 2) ? [] : ["--on-time", "95%"]
        must(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--days", "weekdays", "--route", ways[0], "--now", now] + onTime, environment: env)
    }
    var generator = SplitMix64(seed: 50)
    writeYearOfReadings(waysHome, routes: routes, slope: 2, noise: 0...9, using: &generator)
    let status = (path: options.binary, arguments: ["status", "--now", now], environment: env)
    for command in [["compare", "c1"], ["reliability"]] {
        let (time, ratio) = measureAgainst(options, baseline: status, options.binary, command + ["--now", now], environment: env)
        let peak = peakMemory(options.binary, command + ["--now", now], environment: env)
        report("traveltimes \(command.joined(separator: " ")) (20 routes × a year, every 5 min)", milliseconds(time),
               String(format: "%.2f× status; target ≤ 2×, ≤ 30 MiB (%@)", ratio, mebibytes(peak)), ratio <= 2 && Double(peak ?? .max) / 1024 <= 30)
    }
    checkReliabilityAgainstPython(home: waysHome, environment: env)
}

/// `reliability --json` over the bench's year, compared whole (each schedule's ways: route and
/// weekdays) with what Python's statistics compute from `history export`.
@MainActor
private func checkReliabilityAgainstPython(home waysHome: String, environment env: [String: String]) {
    let name = "reliability over the bench's year equals Python's statistics"
    let export = waysHome + "-export.jsonl", mine = waysHome + "-reliability.json"
    let schedules = waysHome + "-schedules.json", oracle = waysHome + "-oracle.json"
    defer { [export, mine, schedules, oracle].forEach { try? FileManager.default.removeItem(atPath: $0) } }
    guard spawn(options.binary, ["history", "export", "--now", now], environment: env, output: export).status == 0,
          spawn(options.binary, ["reliability", "--json", "--now", now], environment: env, output: mine).status == 0
    else { return report(name, "     n/a", "traveltimes failed", false) }
    // The schedules as the oracle reads them: each schedule's routes are its commute's five ways.
    let plans = [1, 6, 11, 16].enumerated().map { index, first in
        let ways = (first..<(first + 5)).map(String.init).filter { fixtureRoutes.map(\.id.rawValue).contains($0) }
        let percent = index.isMultiple(of: 2) ? "null" : "95"
        return #"{"arrive": "09:00", "buffer": 5, "percent": \#(percent), "weekdays": [2, 3, 4, 5, 6], "routes": [\#(ways.map { "\"\($0)\"" }.joined(separator: ", "))]}"#
    }
    _ = FileManager.default.createFile(atPath: schedules, contents: Data("[\(plans.joined(separator: ",\n"))]\n".utf8))
    let python = spawn("/usr/bin/env", ["python3", "Tests/Support/reliability_oracle.py", export, schedules, now, "America/Los_Angeles"],
                       environment: environment, output: oracle)
    guard python.status == 0 else { return report(name, "     n/a", "needs python3", nil) }
    guard let ours = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mine)))) as? [[String: Any]],
          let theirs = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: oracle)))
    else { return report(name, "     n/a", "unreadable output", false) }
    let ways = ours.map { schedule in
        ((schedule["ways"] as? [[String: Any]]) ?? []).map { way in ["route": way["route"] ?? "", "days": way["days"] ?? []] as [String: Any] }
    }
    let figures = ways.joined().reduce(0) { $0 + (($1["days"] as? [Any])?.count ?? 0) }
    let equal = NSArray(array: ways).isEqual(theirs)
    report(name, String(format: "%8d   ", figures), equal ? "weekday figures, every one equal" : "they differ: keep the store with --keep and compare", equal)
    // A schedule planned to be on time P% of the days was, on each weekday and way.
    var checked = 0
    var short: [String] = []
    for schedule in ours {
        guard let percent = schedule["onTimePercent"] as? Int else { continue }
        for way in (schedule["ways"] as? [[String: Any]]) ?? [] {
            for day in (way["days"] as? [[String: Any]]) ?? [] {
                guard let days = day["days"] as? Int, days > 0 else { continue }
                checked += 1
                let onTime = day["onTime"] as? Int ?? 0
                if onTime * 100 < percent * days { short.append("route \(way["route"] ?? "?") weekday \(day["weekday"] ?? "?"): \(onTime) of \(days)") }
            }
        }
    }
    report("--on-time 95% over the bench's year: on time on ≥ 95% of the days", String(format: "%8d   ", checked),
           short.isEmpty ? "weekday figures, every one at least 95%" : "short: \(short.joined(separator: "; "))", checked > 0 && short.isEmpty)
}

/// SplitMix64: the same year of readings on every run (the tests' `SeededRandom`, in a test target
/// this executable cannot import).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
