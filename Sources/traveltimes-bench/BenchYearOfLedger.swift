import CommuteCore
@_spi(Store) import CommuteDelivery
@_spi(Store) import CommuteStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// 2c'. A year of use: the ledger an older version left (78,110 decisions: it pruned only when it
// delivered), then one tick that writes it. Every write keeps the last 30 days, so `status`,
// `delivered` and `refresh` read a month.
@MainActor
func benchYearOfLedger() {
    let year = home + "-year"
    defer { try? FileManager.default.removeItem(atPath: year) }
    var yearEnvironment = environment
    yearEnvironment["TRAVELTIMES_HOME"] = year
    must(["refresh", "--source", options.fixture, "--now", now], environment: yearEnvironment)
    must(["favorites", "add", "1", "96", "4", "70"], environment: yearEnvironment)
    for (index, time) in ["6:30", "7:00", "7:30", "8:00", "16:00", "16:30", "17:00", "17:30", "9:00"].enumerated() {
        must(["schedule", "add", "--at", time, "--days", index == 8 ? "weekends" : "weekdays", "--now", now], environment: yearEnvironment)
    }
    do {
        let store = try Store(directory: year)
        let requests = try store.pending().requests
        try store.updateLedger(keepingSince: nil) { ledger in
            // 214 decisions a day (each request, through up to six notifiers): 78,110 in the year.
            for day in 1...365 {
                for index in 0..<214 {
                    let request = requests[index % requests.count]
                    guard let occurrence = daysEarlier(day, request.nextFire) else { continue }
                    ledger.entries.append(.init(
                        alert: request.id, occurrence: occurrence, notifier: index / requests.count,
                        outcome: index % 5 == 0 ? .suppressed : .delivered, at: occurrence, attempts: 1,
                        reason: index % 5 == 0 ? "not delayed enough: 25 min, threshold 10 min" : nil))
                }
            }
        }
    } catch {
        FileHandle.standardError.write(Data("cannot write a year of ledger: \(error)\n".utf8))
        exit(1)
    }
    let yearBytes = (try? FileManager.default.attributesOfItem(atPath: year + "/delivered.json")[.size] as? Int) ?? 0
    // What an upgrade meets once: the year read, the month kept.
    let firstStatus = spawn(options.binary, ["status", "--now", now], environment: yearEnvironment)
    report("traveltimes status, first run over the year (\(yearBytes >> 20) MB; once)", milliseconds(firstStatus.seconds), "no target: reported", nil)
    // The first write of the ledger (the 4:30 PM alert delivered) keeps its last 30 days.
    must(["tick", "--now", "2025-11-04T16:30:00-08:00"], environment: yearEnvironment)
    let after = "2025-11-04T16:31:00-08:00"
    let ledgerBytes = (try? FileManager.default.attributesOfItem(atPath: year + "/delivered.json")[.size] as? Int) ?? 0
    for command in [["status"], ["delivered"]] {
        let (time, ratio) = measureAgainst(options, baseline: helloRun, options.binary, command + ["--now", after], environment: yearEnvironment)
        let peak = peakMemory(options.binary, command + ["--now", after], environment: yearEnvironment)
        report("traveltimes \(command[0]) (a year of use: ledger \(String(format: "%.1f", Double(ledgerBytes) / 1_048_576)) MB)", milliseconds(time),
               String(format: "%.2f× baseline, %@; target ≤ 2×, ≤ 30 MiB", ratio, mebibytes(peak)),
               ratio <= 2 && Double(peak ?? .max) / 1024 <= 30)
    }
    let yearRefreshPeak = peakMemory(options.binary, ["refresh", "--source", options.fixture, "--now", after], environment: yearEnvironment)
    report("traveltimes refresh (a year of ledger): peak memory", mebibytes(yearRefreshPeak), "target ≤ 30 MiB",
           Double(yearRefreshPeak ?? .max) / 1024 <= 30)
}
