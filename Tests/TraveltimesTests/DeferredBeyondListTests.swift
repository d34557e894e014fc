@_spi(Store) import CommuteStore
import CommuteModel
import Foundation
import TestThreads
import Testing

/// The plan lists the soonest 64 deferred alerts and counts the rest: at 3,000 schedules the rest
/// is 15,000 lines no command needs to rewrite every refresh. Nothing the listing left out is lost:
/// `pending` lists every one, and one that comes due while nothing ran is still sent.
@Suite(.ownThreads) struct DeferredBeyondListTests {
    let created = Date(timeIntervalSince1970: 1_762_300_800 - 86_400)

    /// 100 daily schedules, 6:00 to 7:39, under a cap of 2: 700 alerts, 698 deferred, of which the
    /// plan lists 64. `pending --json` gives all 698, at the times the calendar says.
    @Test func pendingListsEveryDeferredAlertThePlanDoesNotList() throws {
        let sandbox = Sandbox(runner: .binary)
        sandbox.environment["TRAVELTIMES_CAP"] = "2"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.store.updateSchedules { book in
            book.schedules = (0..<100).map { index in
                Schedule(routeIDs: ["1"], days: Set(Weekday.allCases), hour: 6 + index / 60, minute: index % 60, createdAt: created.addingTimeInterval(TimeInterval(index)))
            }
        }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        let plan = try sandbox.store.pending()
        #expect(plan.requested == 700 && plan.requests.count == 2 && plan.deferredCount == 698 && plan.deferred.count == 64)

        // Wednesday 5 November to Tuesday 11 November, each day 6:00 to 7:39 (PST, no change of
        // offset that week); the first two are scheduled.
        let every = (5...11).flatMap { day in
            (0..<100).map { index in String(format: "2025-11-%02dT%02d:%02d:00-08:00", day, 6 + index / 60, index % 60) }
        }
        let json = try #require(try sandbox.json(["pending", "--json"]) as? [String: Any])
        let requests = try #require(json["requests"] as? [[String: Any]])
        let deferred = try #require(json["deferred"] as? [[String: Any]])
        #expect(requests.compactMap { $0["nextFire"] as? String } == Array(every.prefix(2)))
        #expect(deferred.compactMap { $0["nextFire"] as? String } == Array(every.dropFirst(2)))
        #expect(deferred.last?["title"] as? String == "Commute at 7:39 AM (Every day)")

        let listing = try sandbox.ok(["pending", "--all"]).stdout
        #expect(listing.hasPrefix("2 alerts scheduled (cap 2); 698 deferred."))
        #expect(listing.components(separatedBy: "  schedule ").count - 1 == 698)
        #expect(listing.hasSuffix("Tue, Nov 11, 7:39 AM  schedule \(try shortForm(sandbox, hour: 7, minute: 39))\n"))
        let short = try sandbox.ok(["pending"]).stdout
        #expect(short.hasSuffix("  … and 678 more: `traveltimes pending --all` lists every one.\n"))
    }

    /// An alert beyond the listed 64 whose time comes while nothing ran (the machine slept from
    /// 4:00 PM to 6:00 PM) is sent by the first tick inside its grace window, as a listed one is.
    @Test func aDeferredAlertThePlanDoesNotListIsSentWhenItComesDue() throws {
        let sandbox = Sandbox(runner: .binary)
        sandbox.environment["TRAVELTIMES_CAP"] = "1"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        // Tuesday 4:05 PM, then 64 more from 4:10 PM to 5:13 PM, then 5:59 PM: the 66th.
        let times = [(16, 5)] + (0..<64).map { (16 + (10 + $0) / 60, (10 + $0) % 60) } + [(17, 59)]
        try sandbox.store.updateSchedules { book in
            book.schedules = times.enumerated().map { index, time in
                Schedule(routeIDs: ["1"], days: [.tuesday], hour: time.0, minute: time.1, createdAt: created.addingTimeInterval(TimeInterval(index)))
            }
        }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        let last = try #require(try sandbox.store.schedules().schedules.last)
        let plan = try sandbox.store.pending()
        #expect(plan.deferredCount == 65 && plan.deferred.count == 64 && !plan.deferred.contains { $0.scheduleID == last.id })

        let tick = try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T18:00:30-08:00"])
        #expect(tick.stdout.contains("Commute at 5:59 PM (Tue)"), "\(tick)")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        let sent = ledger.filter { ($0["requestID"] as? String)?.contains(last.id.lowercasedString) == true }
        #expect(sent.map { $0["outcome"] as? String } == ["delivered"], "\(ledger)")
    }

    /// `status` counts the schedules its plan was made from without building them; a file changed
    /// since (by hand) is read whole, and a bad value in it is named as every command names it.
    @Test func statusCountsTheSchedulesItsPlanVouchesForAndReadsAChangedFileWhole() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.store.updateSchedules { book in
            book.schedules = (0..<30).map { index in
                Schedule(routeIDs: ["1"], days: [.monday], hour: 7, minute: index, isEnabled: index % 3 != 0, createdAt: created)
            }
        }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        let vouched = try sandbox.ok(["status"]).stdout
        #expect(vouched.contains("\nSchedules:  30 (20 enabled)\n"), "\(vouched)")
        // The same bytes written again by hand: no longer the file the plan was made from.
        let path = sandbox.home + "/schedules.json"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try sandbox.ok(["status"]).stdout == vouched)
        let damaged = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""hour":7"#, with: #""hour":77"#)
        try FileManager.default.removeItem(atPath: path)
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
        let status = try sandbox.run(["status"])
        #expect(status.status != 0 && status.stderr.contains("schedules.json") && status.stderr.contains("hour is 77, outside 0–23"), "\(status)")
    }

    private func shortForm(_ sandbox: Sandbox, hour: Int, minute: Int) throws -> String {
        try #require(try sandbox.store.schedules().schedules.first { $0.hour == hour && $0.minute == minute }).id.shortForm
    }
}
