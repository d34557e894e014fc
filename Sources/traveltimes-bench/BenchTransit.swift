import CommuteCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2f. Transit (issue 21): a timetable the size of King County Metro's (56,500 trips, 1,977,500
// stop_times rows, made by Tests/Support/transit_large.py) added, four routes on it, a new
// timetable taken by refresh (every route read in the same pass), a large agency's realtime feed
// (5,000 trip updates, 3.2 MB) decoded in process and read by a whole refresh, and pending and tick
// with arrive-by schedules on the transit routes.
@MainActor
func benchTransit() {
        let transitHome = home + "-transit"
        let large = home + "-kcm"
        defer {
            try? FileManager.default.removeItem(atPath: transitHome)
            try? FileManager.default.removeItem(atPath: large)
        }
        try? FileManager.default.createDirectory(atPath: large, withIntermediateDirectories: true)
        let zipPath = large + "/kcm.zip", feedPath = large + "/kcm.pb"
        let made = spawn("/usr/bin/env", ["python3", "Tests/Support/transit_large.py", zipPath, feedPath], environment: environment)
        if made.status != 0 {
            report("transit, a King County Metro-sized timetable", "     n/a", "needs python3", nil)
        } else {
            // The realtime feed is dated 2030-01-15 15:00 UTC (7:00 AM in Seattle).
            let morning = "2030-01-15T15:05:00Z"
            var transitEnvironment = environment
            transitEnvironment["TRAVELTIMES_HOME"] = transitHome
            let add = ["transit", "add", "kcm", "--static", zipPath, "--realtime", feedPath, "--now", morning]
            // Each run adds the feed to a store of its own.
            var fewer = options
            fewer.runs = min(options.runs, 5)
            var addTimes: [Double] = []
            var addPeak: Int?
            for run in 0...fewer.runs {
                var env = transitEnvironment
                env["TRAVELTIMES_HOME"] = "\(large)/add-\(run)"
                if run == fewer.runs {
                    addPeak = peakMemory(options.binary, add, environment: env)
                } else {
                    addTimes.append(spawn(options.binary, add, environment: env).seconds)
                }
                try? FileManager.default.removeItem(atPath: "\(large)/add-\(run)")
            }
            let addTime = median(addTimes)
            report("traveltimes transit add, 56,500 trips, 1,977,500 stop_times rows", milliseconds(addTime),
                   String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(addPeak)), addTime <= 10 && Double(addPeak ?? .max) / 1024 <= 100)
            must(add, environment: transitEnvironment)
            let stops = [("10035", "10105"), ("10014", "10084"), ("10021", "10091"), ("10028", "10098")]
            for (index, pair) in stops.enumerated() {
                let route = ["route", "add", "bus-\(index)", "--transit", "kcm", "--from-stop", pair.0, "--to-stop", pair.1, "--walk", "5m", "--now", morning]
                if index == 0 {
                    // Added and removed again, run after run.
                    var times: [Double] = []
                    for _ in 0..<fewer.runs {
                        times.append(spawn(options.binary, route, environment: transitEnvironment).seconds)
                        must(["route", "remove", "bus-0", "--yes"], environment: transitEnvironment)
                    }
                    let peak = peakMemory(options.binary, route, environment: transitEnvironment)
                    must(["route", "remove", "bus-0", "--yes"], environment: transitEnvironment)
                    let time = median(times)
                    report("traveltimes route add --transit (one pass for the route)", milliseconds(time),
                           String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(peak)), time <= 10 && Double(peak ?? .max) / 1024 <= 100)
                }
                must(route, environment: transitEnvironment)
            }
            // A new timetable each day: every route of the feed read in the one pass that checks it.
            var refreshTimes: [Double] = []
            for day in 16...(16 + fewer.runs) {
                let sample = spawn(options.binary, ["refresh", "--quiet", "--now", "2030-01-\(day)T15:05:00Z"], environment: transitEnvironment)
                refreshTimes.append(sample.seconds)
            }
            let refreshPeak = peakMemory(options.binary, ["refresh", "--quiet", "--now", "2030-01-\(17 + fewer.runs)T15:05:00Z"], environment: transitEnvironment)
            refreshTimes.removeFirst()
            let timetableRefresh = median(refreshTimes)
            report("traveltimes refresh, a new timetable for 4 transit routes", milliseconds(timetableRefresh),
                   String(format: "%@; target ≤ 10 s, ≤ 100 MiB", mebibytes(refreshPeak)),
                   timetableRefresh <= 10 && Double(refreshPeak ?? .max) / 1024 <= 100)
            // Back to the morning the realtime feed is from; the timetable is then kept.
            must(["refresh", "--now", morning], environment: transitEnvironment)
            if let data = FileManager.default.contents(atPath: feedPath) {
                var decodeTimes: [Double] = []
                var updates = 0
                for _ in 0...options.runs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    updates = (try? GTFSRealtime(decoding: data))?.tripUpdates.count ?? -1
                    decodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                decodeTimes.removeFirst()
                let decode = median(decodeTimes)
                report("GTFS-realtime decode, \(updates) trip updates (\(data.count >> 20) MB), in process", milliseconds(decode),
                       "target ≤ 50 ms", updates == 5_000 && decode <= 0.050)
            }
            let (realtimeRefresh, realtimePeak) = measure(options, options.binary, ["refresh", "--quiet", "--now", morning], environment: transitEnvironment)
            report("traveltimes refresh, that realtime feed, 4 transit routes", milliseconds(realtimeRefresh),
                   String(format: "%@; target ≤ 30 MiB", mebibytes(realtimePeak)), Double(realtimePeak ?? .max) / 1024 <= 30)
            must(["favorites", "add", "bus-0", "bus-1", "bus-2", "bus-3"], environment: transitEnvironment)
            for (time, routes) in [("8:30", "bus-0"), ("9:00", "bus-1,bus-2"), ("17:45", "bus-3")] {
                must(["schedule", "add", "--arrive-by", time, "--days", "weekdays", "--route", routes, "--now", morning], environment: transitEnvironment)
            }
            for time in ["6:30", "7:30", "16:30"] {
                must(["schedule", "add", "--at", time, "--days", "weekdays", "--now", morning], environment: transitEnvironment)
            }
            for command in ["pending", "tick"] {
                let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, [command, "--now", morning], environment: transitEnvironment)
                let peak = peakMemory(options.binary, [command, "--now", morning], environment: transitEnvironment)
                report("traveltimes \(command), 4 transit routes on that timetable (3 + 3 schedules)", milliseconds(time),
                       String(format: "%.2f× baseline, %@; target ≤ %@, ≤ 30 MiB", ratio, mebibytes(peak), command == "tick" ? "1.5×" : "2×"),
                       ratio <= (command == "tick" ? 1.5 : 2) && Double(peak ?? .max) / 1024 <= 30)
            }
            let stored = (try? FileManager.default.contentsOfDirectory(atPath: transitHome + "/transit"))?
                .filter { $0.hasSuffix(".timetable.json") }
                .compactMap { try? FileManager.default.attributesOfItem(atPath: transitHome + "/transit/" + $0)[.size] as? Int }
            let transitState = (try? FileManager.default.attributesOfItem(atPath: transitHome + "/transit.json")[.size] as? Int) ?? 0
            print("     (kept for the 4 routes: timetables \((stored ?? []).reduce(0, +) >> 10) KiB, transit.json \(transitState >> 10) KiB)")
        }
}
