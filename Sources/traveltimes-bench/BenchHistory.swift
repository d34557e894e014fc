import CommuteCore
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2e. History: a year of readings every 5 minutes for 10 routes (issue 20). `history` and
// `best-time` over it; the size of a route-year; what recording adds to a refresh of 10,000
// routes (the same store with history-days off as the baseline); pending with it all in place.
@MainActor
func benchHistory() {
        let historyHome = home + "-history"
        let offHome = home + "-history-off"
        defer {
            try? FileManager.default.removeItem(atPath: historyHome)
            try? FileManager.default.removeItem(atPath: offHome)
        }
        var historyEnvironment = environment
        historyEnvironment["TRAVELTIMES_HOME"] = historyHome
        var offEnvironment = environment
        offEnvironment["TRAVELTIMES_HOME"] = offHome
        let feed = historyHome + "-feed-10000.json"
        defer { try? FileManager.default.removeItem(atPath: feed) }
        writeGeneratedFeed(to: feed)
        let routes = (1...10).map(String.init)
        for env in [historyEnvironment, offEnvironment] {
            must(["refresh", "--source", feed, "--now", now], environment: env)
            must(["favorites", "add"] + routes, environment: env)
            must(["schedule", "add", "--arrive-by", "9:00", "--days", "weekdays", "--route", "1,2", "--now", now], environment: env)
            must(["schedule", "add", "--at", "7:30", "--days", "weekdays", "--route", "3,4", "--only-when-delayed", "auto", "--now", now], environment: env)
        }
        must(["config", "set", "history-days", "off"], environment: offEnvironment)
        var generator = SystemRandomNumberGenerator()
        writeYearOfReadings(historyHome, routes: routes, slope: 3, noise: 0...6, using: &generator)
        let routeYear = (try? FileManager.default.attributesOfItem(atPath: historyHome + "/history/1.tth")[.size] as? Int) ?? 0
        report("history size: one route, a year at a reading every 5 minutes", String(format: "%8.2f MiB", Double(routeYear) / 1_048_576),
               "\(routeYear) bytes; stated 1.2 MiB", nil)
        for command in [["history", "1"], ["history", "1", "--json"], ["best-time", "1", "2", "3", "--arrive-by", "9:00"]] {
            let (time, peak) = measure(options, options.binary, command + ["--now", now], environment: historyEnvironment)
            report("traveltimes \(command.joined(separator: " ")) (10 routes × a year, every 5 min)", milliseconds(time),
                   String(format: "%@; target ≤ 200 ms, ≤ 30 MiB", mebibytes(peak)), time <= 0.200 && Double(peak ?? .max) / 1024 <= 30)
        }
        let offRefresh = (path: options.binary, arguments: ["refresh", "--source", feed, "--now", now], environment: offEnvironment)
        let (recording, recordingRatio) = measureAgainst(
            options, baseline: offRefresh, options.binary, ["refresh", "--source", feed, "--now", now], environment: historyEnvironment)
        report("traveltimes refresh, 10,000 routes, 10 recorded with a year each", milliseconds(recording),
               String(format: "%.3f× with history off; target ≤ 1.05×", recordingRatio), recordingRatio <= 1.05)
        for command in ["pending", "tick"] {
            let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, [command, "--now", now], environment: historyEnvironment)
            report("traveltimes \(command) beside a year of history (10 routes)", milliseconds(time),
                   String(format: "%.2f× baseline; target ≤ %@", ratio, command == "tick" ? "1.5×" : "2×"),
                   ratio <= (command == "tick" ? 1.5 : 2))
        }
}

/// A year of readings every 5 minutes for each route, ending at the bench's `now`: route N takes
/// 20 + N × `slope` minutes, 15 more at 7–10 AM and 4–7 PM (UTC−8), and a draw from `noise`.
func writeYearOfReadings(_ home: String, routes: [String], slope: Int, noise: ClosedRange<Int>, using generator: inout some RandomNumberGenerator) {
    do {
        let store = try Store(directory: home)
        let end = Int(ISO8601.parse(now)?.instant?.timeIntervalSince1970 ?? 0)
        var byRoute: [RouteID: [HistoryRecord]] = [:]
        for route in routes {
            let base = 20 + (Int(route) ?? 1) * slope
            byRoute[RouteID(route)] = stride(from: end - 365 * 86_400, to: end - 600, by: 300).map { at in
                let hour = (at - 8 * 3_600) % 86_400 / 3_600
                let peak = (7...9).contains(hour) || (16...18).contains(hour) ? 15 : 0
                return HistoryRecord(at: at, minutes: base + peak + Int.random(in: noise, using: &generator), source: .wsdot)
            }
        }
        _ = try store.history.record(byRoute, now: Date(timeIntervalSince1970: TimeInterval(end)), retentionDays: 400)
    } catch {
        FileHandle.standardError.write(Data("cannot write a year of history: \(error)\n".utf8))
        exit(1)
    }
}
