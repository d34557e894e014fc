@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.ownThreads) struct PendingCommandTests {
    @Test func jsonListsRequestsSoonestFirstWithContent() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--preset", "evening", "--route", "96", "--now", Paths.capturedAt])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", Paths.capturedAt]) as? [String: Any])
        #expect(Set(pending.keys) == ["cap", "requested", "requests", "deferred", "pauses"])
        #expect(pending["cap"] as? Int == 64 && pending["requested"] as? Int == 10)
        let requests = try #require(pending["requests"] as? [[String: Any]])
        #expect(requests.count == 10)
        #expect((pending["deferred"] as? [Any])?.isEmpty == true)
        let keys: Set = ["id", "scheduleID", "weekday", "hour", "minute", "nextFire", "title", "body", "arriveBy"]
        #expect(requests.allSatisfy { Set($0.keys) == keys && $0["arriveBy"] is NSNull })
        let fires = requests.compactMap { $0["nextFire"] as? String }
        #expect(fires.prefix(3) == ["2025-11-04T16:30:00-08:00", "2025-11-05T07:00:00-08:00", "2025-11-05T16:30:00-08:00"])
        let first = requests[0]
        #expect(first["title"] as? String == "Commute at 4:30 PM (Weekdays)")
        #expect(first["body"] as? String == "Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)")
        #expect(first["weekday"] as? Int == 3 && first["hour"] as? Int == 16 && first["minute"] as? Int == 30)
        let scheduleID = try #require(first["scheduleID"] as? String)
        #expect(first["id"] as? String == "schedule.\(scheduleID).weekday.3")
    }

    @Test func overflowIsNeverSilent() throws {
        let sandbox = try Sandbox().prepared()  // 5 requests
        var last = Outcome(status: 0, stdout: "", stderr: "")
        for hour in 8...16 {  // 9 daily schedules: 63 more, 68 in all
            last = try sandbox.ok(["schedule", "add", "--at", "\(hour):00", "--days", "daily", "--now", Paths.capturedAt])
        }
        #expect(last.stderr == "traveltimes: warning: 68 alerts requested, 64 scheduled, 4 deferred (cap 64); deferred alerts are scheduled as earlier ones fire — see `traveltimes pending`\n", "\(last)")
        let pending = try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout
        #expect(pending.hasPrefix("64 alerts scheduled (cap 64); 4 deferred."))
        #expect(pending.contains("Deferred — over the cap of 64"))
        let json = try #require(try sandbox.json(["pending", "--json", "--now", Paths.capturedAt]) as? [String: Any])
        let deferred = try #require(json["deferred"] as? [[String: Any]])
        #expect(deferred.count == 4)
        #expect(deferred.allSatisfy { ($0["title"] as? String)?.hasPrefix("Commute at") == true })
        // A smaller configured cap.
        let capped = try sandbox.ok(["schedule", "disable", String(try sandbox.scheduleIDs()[0].prefix(8)), "--now", Paths.capturedAt], environment: ["TRAVELTIMES_CAP": "10"])
        #expect(capped.stderr == "traveltimes: warning: 63 alerts requested, 10 scheduled, 53 deferred (cap 10); deferred alerts are scheduled as earlier ones fire — see `traveltimes pending`\n")
    }

    @Test func emptyStoreSaysWhatToDo() throws {
        #expect(try Sandbox().ok(["pending"]).stdout == "No alerts pending: add a schedule with `traveltimes schedule add --preset morning`.\n")
    }
}

@Suite(.ownThreads) struct StoreIntegrityTests {
    @Test func aCorruptFileFailsItsCommandsUntouchedWhileOtherDomainsWork() throws {
        let sandbox = try Sandbox().prepared()
        let corrupt = Data("{\"version\": 1, \"schedules\": [tru".utf8)
        try Sandbox.write(sandbox.path("schedules.json"), corrupt)
        for command in [["schedule", "list"], ["schedule", "add", "--preset", "evening"], ["pending", "--json"]] {
            let outcome = try sandbox.run(command)
            // pending reads only pending.json when nothing is deferred; the others need schedules.
            if command[0] == "pending" { continue }
            #expect(outcome.status == 65, "\(command): \(outcome)")
            #expect(Whole.normal(outcome.stderr) == "traveltimes: $TMP/schedules.json: not valid JSON; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
        }
        #expect(sandbox.bytes("schedules.json") == corrupt)
        try sandbox.ok(["favorites", "add", "70"])
        try sandbox.ok(["routes", "--search", "auburn"])
        let status = try sandbox.run(["status"])
        #expect(status.status == 65 && Whole.normal(status.stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  4
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        #expect(sandbox.bytes("schedules.json") == corrupt)
    }

    @Test func aCorruptConfigurationFailsWhatNeedsItAndNotWhatDoesNot() throws {
        let sandbox = try Sandbox().prepared()
        let corrupt = Data("{\"version\": 1, \"source\": ".utf8)
        try Sandbox.write(sandbox.path("config.json"), corrupt)
        for command in [["config", "show"], ["pending"], ["config", "set", "grace", "5m"], ["notify", "add", "stdout"]] {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 65 && Whole.normal(outcome.stderr) == "traveltimes: $TMP/config.json: not valid JSON; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(command): \(outcome)")
        }
        // Listings that use nothing from it still list; status names it and shows the rest.
        #expect(try sandbox.ok(["favorites", "list"]).stdout == """
            1.   1  Everett-Seattle          34 min (-11 min, CLEAR)\u{A}2.  96  Seattle-Bellevue via 90  14 min (-1 min, CLEAR)\u{A}3.   4  Seattle-Everett          48 min (-9 min, CLEAR)\u{A}
            """)
        #expect(try sandbox.ok(["group", "list"]).stdout.hasPrefix("No groups yet"))
        let status = try sandbox.run(["status"])
        #expect(status.status == 65 && Whole.normal(status.stdout) == """
            Store:      $TMP
            Time zone:  unknown: config.json cannot be read (times below are in America/Los_Angeles)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """, "\(status)")
        #expect(sandbox.bytes("config.json") == corrupt)
    }

    @Test func aCorruptRouteCacheIsNeverReplacedByARefresh() throws {
        let sandbox = try Sandbox().prepared()
        // Valid JSON to the last route, whose ID is a number: found only by reading to the end.
        let text = String(decoding: try #require(sandbox.bytes("routes.json")), as: UTF8.self)
        let corrupt = Data(text.replacingOccurrences(of: #""id":"287""#, with: #""id":287"#).utf8)
        #expect(corrupt.count < text.utf8.count)
        try Sandbox.write(sandbox.path("routes.json"), corrupt)
        let pending = sandbox.bytes("pending.json")
        let outcome = try sandbox.run(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(outcome.status == 65, "\(outcome)")
        #expect(Whole.normal(outcome.stderr) == "traveltimes: refresh failed: $TMP/routes.json: wrong shape: routes[100].id has the wrong type; the file was left untouched — fix or move it aside, then try again\n", "\(outcome)")
        #expect(!outcome.stderr.contains("no routes are cached yet"), "\(outcome)")
        #expect(sandbox.bytes("routes.json") == corrupt)
        #expect(sandbox.bytes("pending.json") == pending)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home).filter { $0.contains(".tmp-") }.isEmpty)
        // Schedules are another domain.
        try sandbox.ok(["schedule", "list"])
    }

    @Test func anUnknownVersionIsRefusedNotOverwritten() throws {
        let sandbox = try Sandbox().prepared()
        let future = Data(#"{"version": 2, "routeIDs": ["1"], "groups": {}}"#.utf8)
        try Sandbox.write(sandbox.path("favorites.json"), future)
        let outcome = try sandbox.run(["favorites", "add", "70"])
        #expect(outcome.status == 65)
        #expect(Whole.normal(outcome.stderr) == "traveltimes: $TMP/favorites.json: unknown version 2 (this traveltimes reads version 1); nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
        #expect(sandbox.bytes("favorites.json") == future)
    }

    @Test func aHeldLockTimesOutWithExit75NamingIt() throws {
        let sandbox = try Sandbox().prepared()
        let lock = FileLock(name: "schedules", path: sandbox.path(".schedules.lock"), timeout: 1)
        try lock.withLock {
            let started = Date()
            let outcome = try sandbox.run(["schedule", "add", "--at", "9:00"], environment: ["TRAVELTIMES_LOCK_TIMEOUT": "0.5"])
            #expect(outcome.status == 75)
            #expect(Whole.normal(outcome.stderr) == "traveltimes: timed out after 0.5 s waiting for the schedules lock ($TMP/.schedules.lock); another traveltimes process is holding it — try again\n")
            #expect(Date().timeIntervalSince(started) < 5)
            // Favorites are another domain: no wait.
            try sandbox.ok(["favorites", "add", "70"], environment: ["TRAVELTIMES_LOCK_TIMEOUT": "0.5"])
        }
        try sandbox.ok(["schedule", "add", "--at", "9:00"])
    }

    @Test func statusReportsTheStoreAndWhatIsInstalled() throws {
        let sandbox = try Sandbox().prepared()
        let status = try sandbox.ok(["status", "--now", "2025-11-04T18:00:00-08:00"]).stdout
        #expect(Whole.normal(status) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (2 h ago, stale)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        #expect(status.hasSuffix(
            "Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`\n"))
    }

    @Test func theDemoRunsTheMainJobInAThrowawayStoreFromACopyAnywhere() throws {
        let sandbox = Sandbox()
        // A copy of the binary outside the checkout, run from the root directory: the sample
        // travels inside it.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("traveltimes-copy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.copyItem(atPath: Paths.binary, toPath: elsewhere + "/traveltimes")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: elsewhere + "/traveltimes")
        process.arguments = ["demo"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.environment = sandbox.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let demo = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(demo)")
        #expect(demo.contains("Refreshed 163 routes"))
        #expect(demo.contains("$ traveltimes pending --now 2025-11-04T16:00:00-08:00"))
        #expect(demo.contains("Renton-Auburn: 35 min (+11 min, CONGESTED)"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.home))
        // It ends on what makes it real, and the store it names is gone.
        #expect(demo.hasSuffix("""

            That was the sample; the demo store is thrown away now, and nothing else was touched.
            Three steps make it real:
              1. Live times: traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson
                 with traveltimes config set access-code - (a free code: wsdot.wa.gov/traffic/api),
                 or, anywhere: traveltimes config set here-key - and traveltimes route add (see route add --help)
              2. Where alerts go: traveltimes notify add ntfys://ntfy.sh/YOUR-TOPIC --name phone (or notify add --help)
              3. Run unattended: traveltimes install systemd --enable (or install cron), then traveltimes doctor

            """), "\(demo)")
        let store = try #require(demo.firstMatch(of: /A throwaway store in (\S+),/).map { String($0.1) }, "\(demo)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}

@Suite(.ownThreads) struct ConcurrentProcessTests {
    @Test func twentyConcurrentScheduleAddsLeaveTwentySchedules() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let running = try (0..<20).map { index in
            try sandbox.start(["schedule", "add", "--at", "6:\(String(format: "%02d", index))", "--days", "daily"])
        }
        let outcomes = try running.map { try $0.wait() }
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.filter { $0.status != 0 })")
        let schedules = try sandbox.store.schedules().schedules
        #expect(schedules.count == 20)
        #expect(Set(schedules.map(\.minute)) == Set(0..<20))
        // The last reschedule saw every schedule: 20 daily schedules = 140 requests, 64 scheduled,
        // 76 deferred of which the soonest 64 are listed.
        let pending = try sandbox.store.pending()
        #expect(pending.requested == 140 && pending.requests.count == 64 && pending.deferredCount == 76 && pending.deferred.count == 64)
    }

    @Test func concurrentFavoriteChangesLoseNothing() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        let ids = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: Paths.fixture))).prefix(16).map(\.id.rawValue)
        let running = try ids.map { try sandbox.start(["favorites", "add", $0]) }
        #expect(try running.map { try $0.wait().status }.allSatisfy { $0 == 0 })
        #expect(Set(try sandbox.store.favorites().routeIDs.map(\.rawValue)) == Set(ids))
        // And removals racing additions.
        let removals = try ids.prefix(8).map { try sandbox.start(["favorites", "remove", $0, "--yes"]) }
        let others = ["70", "96", "131"]
        #expect(Set(others).isDisjoint(with: ids))
        let additions = try others.map { try sandbox.start(["favorites", "add", $0]) }
        #expect(try (removals + additions).map { try $0.wait().status }.allSatisfy { $0 == 0 })
        #expect(Set(try sandbox.store.favorites().routeIDs.map(\.rawValue)) == Set(ids.dropFirst(8) + others))
    }

    @Test func aProcessKilledMidWriteLeavesValidFiles() throws {
        let sandbox = try Sandbox().prepared()
        // A feed large enough that a refresh spends real time writing.
        let big = (1...20_000).map { index in
            Route(id: "\(index)", name: "Route \(index)", description: "Generated \(index)", currentMinutes: 10 + index % 30,
                  averageMinutes: 20, distanceMiles: 5, updatedAt: Date(timeIntervalSince1970: 1_762_300_800))
        }
        let feed = sandbox.path("big.json")
        try Sandbox.write(feed, try WSDOTFeed.encode(big))
        var killedMidway = 0
        for attempt in 0..<12 {
            let running = try sandbox.start(["refresh", "--source", attempt.isMultiple(of: 2) ? feed : Paths.fixture])
            usleep(UInt32(20_000 + attempt * 25_000))
            if running.process.isRunning {
                kill(running.process.processIdentifier, SIGKILL)
                killedMidway += 1
            }
            _ = try running.wait()
            // Whole-old or whole-new: every file still reads.
            let routes = try sandbox.store.routes().routes.count
            #expect(routes == 163 || routes == 20_000)
            #expect(try sandbox.store.schedules().schedules.count == 1)
            #expect(try sandbox.store.pending().requests.count == 5)
        }
        #expect(killedMidway > 0, "no refresh was still running when killed: the test proved nothing")
        // The store keeps working, and the next write sweeps any temporary file a kill left.
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.home).filter { $0.hasPrefix(".routes.json.tmp-") }
        #expect(leftovers.isEmpty)
    }
}
