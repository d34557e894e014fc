import CommuteCore
@_spi(Store) import CommuteDelivery
@_spi(Store) import CommuteStore
import Foundation

// 2j. Costs flat as a household grows (issue 49): `status` and a fixture `refresh` with 3,000
// schedules (each with a month of deliveries in the ledger) beside the same with 10, run for run
// (the median of the paired ratios); the peak memory of a refresh with 10,000 schedules.
@MainActor
func benchGrowth() {
    var stores: [Int: [String: String]] = [:]
    for count in [10, 3_000, 10_000] {
        stores[count] = scheduleStore(count)
    }
    defer {
        for (count, store) in stores.sorted(by: { $0.key < $1.key }) {
            let directory = store["TRAVELTIMES_HOME"] ?? ""
            if options.keep { print("kept: \(count) schedules in \(directory)") } else { try? FileManager.default.removeItem(atPath: directory) }
        }
    }
    guard let small = stores[10], let large = stores[3_000], let largest = stores[10_000] else { return }
    for (name, arguments) in [("status", ["status", "--now", now]), ("refresh", ["refresh", "--source", options.fixture, "--quiet", "--now", now])] {
        // Run for run against the same command with 10 schedules: drift cancels out.
        let (many, ratio) = measureAgainst(options, baseline: (options.binary, arguments, small), options.binary, arguments, environment: large)
        let manyPeak = peakMemory(options.binary, arguments, environment: large)
        report("traveltimes \(name), 3,000 schedules", milliseconds(many),
               String(format: "%.2f× with 10 schedules; target ≤ 2× and ≤ 30 MiB (%@)", ratio, mebibytes(manyPeak)),
               ratio <= 2 && Double(manyPeak ?? .max) / 1024 <= 30)
    }
    let peak = peakMemory(options.binary, ["refresh", "--source", options.fixture, "--quiet", "--now", now], environment: largest)
    report("traveltimes refresh, 10,000 schedules: peak memory", mebibytes(peak), "target ≤ 30 MiB", Double(peak ?? .max) / 1024 <= 30)
}

/// A store with the fixture, four favourites and `count` weekday schedules (64 scheduled, the rest
/// deferred), first planned a month ago, with a month of deliveries in the ledger (four weeks of
/// every request, in the order they were decided) and the plan's marks of what it dealt with: the
/// steady state, where every request that fired this week is looked up in the
/// ledger at every tick. Its environment.
@MainActor
func scheduleStore(_ count: Int) -> [String: String] {
    let directory = home + "-\(count)"
    var env = environment
    env["TRAVELTIMES_HOME"] = directory
    must(["refresh", "--source", options.fixture, "--now", now], environment: env)
    must(["favorites", "add", "1", "96", "4", "70"], environment: env)
    do {
        let store = try Store(directory: directory)
        try store.updateSchedules { book in
            book.schedules = (0..<count).map { index in
                Schedule(routeIDs: ["1", "96"], days: Weekday.weekdays, hour: (index / 60) % 24, minute: index % 60, createdAt: capturedAt)
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write \(count) schedules: \(error)\n".utf8))
        exit(1)
    }
    must(["refresh", "--source", options.fixture, "--now", "2025-10-07T16:00:00-07:00"], environment: env)
    must(["refresh", "--source", options.fixture, "--now", now], environment: env)
    do {
        let store = try Store(directory: directory)
        // Every request of the schedules (the plan lists the soonest few), as ticks would have
        // decided them: in order.
        let every = FanOut.plan(
            schedules: try store.schedules().schedules, routes: routesByID, now: capturedAt, calendar: ZonedCalendar(timeZone: zone, around: capturedAt),
            cap: 0
        ).deferred
        try store.updateLedger(keepingSince: nil) { ledger in
            for entry in every {
                for week in 1...4 {
                    guard let occurrence = daysEarlier(7 * week, entry.nextFire) else { continue }
                    ledger.entries.append(.init(alert: entry.id, occurrence: occurrence, notifier: 0, outcome: .delivered, at: occurrence, attempts: 1))
                }
            }
            ledger.entries.sort { $0.at < $1.at }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write a month of ledger: \(error)\n".utf8))
        exit(1)
    }
    // The ledger was written behind the plan: one tick finds the marks the plan lacks and plans
    // again with them, as a household's ticks would have all month.
    must(["tick", "--now", now], environment: env)
    return env
}
