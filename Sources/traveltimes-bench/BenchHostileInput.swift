import CommuteCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2g. Hostile input (issue 34): the inputs of Tests/Support/transit_hostile.py — a 21 KB zip of
// 2,000 trips every minute for two days, two million trips in trips.txt, a 32 MB realtime feed of
// empty stop-time updates — and a history import of 500,000 lines, 200,000 of them for routes
// nobody knows. Each at most 100 MiB, the target for any command on hostile input (the 30 MiB of
// an everyday realtime refresh is section 2f's, on a large agency's real-sized feed).
@MainActor
func benchHostileInput() {
        let hostileHome = home + "-hostile"
        let inputs = home + "-hostile-inputs"
        defer {
            try? FileManager.default.removeItem(atPath: hostileHome)
            try? FileManager.default.removeItem(atPath: inputs)
        }
        let made = spawn("/usr/bin/env", ["python3", "Tests/Support/transit_hostile.py", inputs], environment: environment)
        if made.status != 0 {
            report("hostile inputs", "     n/a", "needs python3", nil)
        } else {
            let morning = "2030-01-15T07:00:00-08:00"
            func store(_ name: String) -> [String: String] {
                var env = environment
                env["TRAVELTIMES_HOME"] = "\(hostileHome)/\(name)"
                env["TRAVELTIMES_TZ"] = "America/Los_Angeles"
                return env
            }
            func hostile(_ label: String, _ arguments: [String], environment: [String: String], target: Double) {
                let start = DispatchTime.now().uptimeNanoseconds
                let peak = peakMemory(options.binary, arguments, environment: environment)
                let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                report(label, milliseconds(time), String(format: "%@; target ≤ %.0f MiB", mebibytes(peak), target), Double(peak ?? .max) / 1024 <= target)
            }
            let bomb = store("freqbomb")
            must(["transit", "add", "x", "--static", "\(inputs)/freqbomb.zip", "--now", morning], environment: bomb)
            hostile("traveltimes route add --transit, 2,000 trips every minute (21 KB zip)",
                    ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--walk", "5m", "--now", morning], environment: bomb, target: 100)
            hostile("traveltimes refresh, that timetable", ["refresh", "--quiet", "--now", morning], environment: bomb, target: 100)
            let big = store("bigtrips")
            must(["transit", "add", "x", "--static", "\(inputs)/bigtrips.zip", "--now", morning], environment: big)
            hostile("traveltimes route add --transit, 2,000,000 rows in trips.txt",
                    ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--now", morning], environment: big, target: 100)
            let bombFeed = store("stubomb")
            must(["transit", "add", "metro", "--static", "Fixtures/transit/metro-gtfs.zip", "--realtime", "\(inputs)/stubomb.pb", "--now", morning], environment: bombFeed)
            must(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", morning], environment: bombFeed)
            hostile("traveltimes refresh, 32 MB of empty stop-time updates (realtime)",
                    ["refresh", "--quiet", "--now", "2030-01-15T07:16:00-08:00"], environment: bombFeed, target: 100)
            let importing = store("import")
            must(["refresh", "--source", options.fixture, "--now", now], environment: importing)
            let csv = inputs + "/import.csv"
            var lines = "route,at,minutes,source,suspicious\n"
            for index in 0..<200_000 { lines += "made-up-\(index),2025-11-04T15:00:00-08:00,30,here,false\n" }
            for index in 0..<300_000 {
                let minute = index % 60, hour = index / 60 % 24, day = 1 + index / 1_440 % 28
                lines += String(format: "1,2025-10-%02dT%02d:%02d:00-07:00,%d,wsdot,false\n", day, hour, minute, 30 + index % 20)
            }
            _ = FileManager.default.createFile(atPath: csv, contents: Data(lines.utf8))
            hostile("traveltimes history import, 500,000 lines (200,000 routes unknown)", ["history", "import", csv, "--now", now], environment: importing, target: 100)
        }
}
