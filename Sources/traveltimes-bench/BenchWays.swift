import CommuteCore
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteStore
import Foundation

// 2k. Which way, how reliable (issue 50): 20 routes with a year of readings every 5 minutes, four
// commutes of five ways and an arrive-by weekday schedule on each; `compare` of one commute and
// `reliability` of every schedule (4 schedules × 5 ways × 5 weekdays), each run for run against
// `status` on the same store.
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
        must(["schedule", "add", "--arrive-by", "9:00", "--days", "weekdays", "--route", ways[0], "--now", now], environment: env)
    }
    do {
        let store = try Store(directory: waysHome)
        let end = Int(ISO8601.parse(now)?.instant?.timeIntervalSince1970 ?? 0)
        var generator = SystemRandomNumberGenerator()
        var byRoute: [RouteID: [HistoryRecord]] = [:]
        for route in routes {
            let base = 20 + (Int(route) ?? 1) * 2
            byRoute[RouteID(route)] = stride(from: end - 365 * 86_400, to: end - 600, by: 300).map { at in
                let hour = (at - 8 * 3_600) % 86_400 / 3_600
                let peak = (7...9).contains(hour) || (16...18).contains(hour) ? 15 : 0
                return HistoryRecord(at: at, minutes: base + peak + Int.random(in: 0...9, using: &generator), source: .wsdot)
            }
        }
        _ = try store.history.record(byRoute, now: Date(timeIntervalSince1970: TimeInterval(end)), retentionDays: 400)
    } catch {
        FileHandle.standardError.write(Data("cannot write a year of history: \(error)\n".utf8))
        exit(1)
    }
    let status = (path: options.binary, arguments: ["status", "--now", now], environment: env)
    for command in [["compare", "c1"], ["reliability"]] {
        let (time, ratio) = measureAgainst(options, baseline: status, options.binary, command + ["--now", now], environment: env)
        let peak = peakMemory(options.binary, command + ["--now", now], environment: env)
        report("traveltimes \(command.joined(separator: " ")) (20 routes × a year, every 5 min)", milliseconds(time),
               String(format: "%.2f× status; target ≤ 2×, ≤ 30 MiB (%@)", ratio, mebibytes(peak)), ratio <= 2 && Double(peak ?? .max) / 1024 <= 30)
    }
}
