@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 20: every reading recorded once, typical times right against an independent computation,
/// `history`, `best-time`, alerts that know what is usual, and the guard against absurd numbers —
/// all through the real commands.
@Suite(.ownThreads) struct HistoryTests {
    static let sampleHistory = Paths.root.appendingPathComponent("Fixtures/history/sample-8-weeks.csv").path

    /// A CSV of readings, in `history export --csv`'s form.
    static func csv(_ rows: [(route: String, at: String, minutes: Int)]) -> String {
        (["route,at,minutes,source,suspicious"] + rows.map { "\($0.route),\($0.at),\($0.minutes),wsdot,false" }).joined(separator: "\n") + "\n"
    }

    /// Writes `text` to a file beside the sandbox and returns its path.
    static func file(_ sandbox: Sandbox, _ name: String, _ text: String) throws -> String {
        let path = sandbox.home + "-\(name)"
        try Sandbox.write(path, Data(text.utf8))
        return path
    }

    /// `2025-11-04T07:00:00-08:00`, `days` days earlier (Pacific, after the change on Nov 2 only).
    static func pacific(_ day: Int, _ month: Int, _ hour: Int, _ minute: Int) -> String {
        let offset = month > 11 || (month == 11 && day >= 2) ? "-08:00" : "-07:00"
        return String(format: "2025-%02d-%02dT%02d:%02d:00%@", month, day, hour, minute, offset)
    }

    /// The eight Tuesdays (and Wednesdays) before Nov 4, 2025, as (day, month).
    static let tuesdays = [(9, 9), (16, 9), (23, 9), (30, 9), (7, 10), (14, 10), (21, 10), (28, 10)]

    // MARK: Recording, and the typical times

    @Test func eightWeeksOfRefreshesAcrossTheClockChangeGiveWhatPythonsStatisticsGive() throws {
        let sandbox = Sandbox(runner: .binary)
        let out = sandbox.home + "-sim"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let generated = try execute(
            ["python3", Paths.root.appendingPathComponent("Tests/Support/history_sim.py").path, out, "2025-09-15", "2025-11-12",
             "America/Los_Angeles"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(generated.status == 0, "\(generated)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/plan.json"))) as? [[String: String]])
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/expected.json"))) as? [String: Any])
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        #expect(plan.count > 450)
        for step in plan {
            try sandbox.ok(["refresh", "--quiet", "--source", step["feed"] ?? "", "--now", step["now"] ?? ""])
        }
        let now = try #require(expected["now"] as? String)
        let readings = try #require(expected["readings"] as? [[Any]])
        // Every reading once: the feeds fetched twice added nothing.
        let exported = try sandbox.ok(["history", "export", "--csv"]).stdout.split(separator: "\n")
        #expect(exported.count == readings.count + 1)
        for route in ["1", "96"] {
            let history = try #require(try sandbox.json(["history", route, "--json", "--now", now]) as? [String: Any])
            let slots = try #require(history["slots"] as? [[String: Any]])
            let oracle = try #require((expected["slots"] as? [String: [[String: Any]]])?[route])
            #expect(slots.count == oracle.count && !oracle.isEmpty)
            for (mine, theirs) in zip(slots, oracle) {
                for key in ["weekday", "start", "readings", "weeks"] {
                    #expect("\(mine[key] ?? "")" == "\(theirs[key] ?? "")", "route \(route) \(key): \(mine) against \(theirs)")
                }
                for key in ["median", "p90"] {
                    let (ours, python) = (mine[key] as? Double ?? -1, theirs[key] as? Double ?? -2)
                    #expect(abs(ours - python) < 0.051, "route \(route) \(key): \(mine) against \(theirs)")
                }
            }
        }
    }

    @Test func concurrentRefreshesNeitherLoseNorDoubleARecord() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        // Six readings a minute apart, refreshed all at once — then all at once again.
        let feeds = try (0..<6).map { index in
            try sandbox.feed("concurrent-\(index)") { routes in
                routes[1]?["TimeUpdated"] = "/Date(\(1_762_300_800_000 + 60_000 * (index + 1))-0800)/"
                routes[1]?["CurrentTime"] = 40 + index
            }
        }
        for _ in 0..<2 {
            let running = try feeds.map { try sandbox.start(["refresh", "--quiet", "--source", $0, "--now", "2025-11-04T16:10:00-08:00"]) }
            for process in running {
                let outcome = try process.wait()
                #expect(outcome.status == 0, "\(outcome)")
            }
        }
        let lines = try sandbox.ok(["history", "export", "1", "--csv"]).stdout.split(separator: "\n").dropFirst()
        #expect(lines.map { $0.split(separator: ",")[2] } == ["40", "41", "42", "43", "44", "45"])
    }

    @Test func aRecordingKilledAtAnyMomentLosesNoEarlierRecordAndATornTailIsRepaired() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        func feed(_ index: Int) throws -> String {
            try sandbox.feed("killed-\(index)") { routes in
                routes[1]?["TimeUpdated"] = "/Date(\(1_762_300_800_000 + 60_000 * (index + 1))-0800)/"
                routes[1]?["CurrentTime"] = 30 + index
            }
        }
        for index in 0..<3 { try sandbox.ok(["refresh", "--quiet", "--source", try feed(index), "--now", "2025-11-04T16:30:00-08:00"]) }
        var generator = SeededRandom(seed: 20)
        for index in 3..<15 {
            let running = try sandbox.start(["refresh", "--quiet", "--source", try feed(index), "--now", "2025-11-04T16:30:00-08:00"])
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(running.process.processIdentifier, SIGKILL)
            _ = try running.wait()
        }
        let exported = try sandbox.ok(["history", "export", "1", "--csv"])
        #expect(exported.stderr.isEmpty, "\(exported)")
        let minutes = exported.stdout.split(separator: "\n").dropFirst().compactMap { Int($0.split(separator: ",")[2]) }
        #expect(Array(minutes.prefix(3)) == [30, 31, 32])
        #expect(minutes == minutes.sorted() && Set(minutes).count == minutes.count && minutes.allSatisfy { (30..<45).contains($0) })

        // A partial record at the end (a writer killed mid-write) is ignored, then written over.
        let path = sandbox.path("history/1.tth")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([0x01, 0x02, 0x03, 0x04, 0x05]))
        try handle.close()
        let before = try #require(try sandbox.json(["history", "1", "--json"]) as? [String: Any])
        #expect(before["total"] as? Int == minutes.count && before["damaged"] as? Int == 0)
        try sandbox.ok(["refresh", "--quiet", "--source", try feed(20), "--now", "2025-11-04T16:40:00-08:00"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size == 16 + 12 * (minutes.count + 1))
        let after = try #require(try sandbox.json(["history", "1", "--json"]) as? [String: Any])
        #expect(after["total"] as? Int == minutes.count + 1 && after["damaged"] as? Int == 0)
    }

    @Test func hostileHistoryFilesAreRefusedWithTheirPathAndARefreshStillSucceeds() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["history", "import", Self.sampleHistory])
        let path = sandbox.path("history/1.tth")

        // One record overwritten: skipped, counted, and said.
        let intact = try #require(sandbox.bytes("history/1.tth"))
        var damaged = intact
        damaged[16 + 12 * 100 + 3] ^= 0xFF
        try Sandbox.write(path, damaged)
        let view = try #require(try sandbox.json(["history", "1", "--json", "--now", "2025-11-04T16:05:00-08:00"]) as? [String: Any])
        #expect(view["damaged"] as? Int == 1)
        let export = try sandbox.ok(["history", "export", "1"])
        #expect(export.stderr == "traveltimes: warning: 1 damaged record was skipped\n")
        #expect(export.stdout.split(separator: "\n").count == (intact.count - 16) / 12 - 1)

        // Not a history file at all.
        try Sandbox.write(path, Data("{\"routes\": []}".utf8))
        let refused = try sandbox.run(["history", "1"])
        #expect(refused.status == 65 && Whole.normal(refused.stderr) == "traveltimes: $TMP/history/1.tth: wrong shape: it is not a traveltimes history file; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n" && Whole.normal(refused.stderr) == "traveltimes: $TMP/history/1.tth: wrong shape: it is not a traveltimes history file; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
        let refresh = try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:05:00-08:00"])
        #expect(Whole.normal(refresh.stderr) == "traveltimes: warning: history not recorded for route 1: $TMP/history/1.tth: wrong shape: it is not a traveltimes history file; the file was left untouched — fix or move it aside, then try again\n")
        #expect(sandbox.bytes("history/1.tth") == Data("{\"routes\": []}".utf8))

        // Huge, a FIFO: refused at once, never read.
        unlink(path)
        let created = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(created >= 0 && ftruncate(created, 300 << 20) == 0)
        close(created)
        let huge = try sandbox.run(["history", "1"])
        #expect(huge.status == 65 && Whole.normal(huge.stderr) == "traveltimes: $TMP/history/1.tth: it is 300 MiB, far larger than a store file can be (at most 256 MiB); nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        let fifo = try sandbox.run(["best-time", "1", "--arrive-by", "9:00"])
        #expect(fifo.status == 65 && Whole.normal(fifo.stderr) == "traveltimes: $TMP/history/1.tth: it is a FIFO (named pipe), not a store file; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
    }

    @Test func futureReadingsAreLeftOutAndAClockThatWentBackPutsReadingsInTheirPlace() throws {
        let sandbox = try Sandbox().prepared()
        let future = try sandbox.feed("future") { routes in routes[1]?["TimeUpdated"] = "/Date(4102444800000-0800)/" }
        let refreshed = try sandbox.ok(["refresh", "--source", future, "--now", "2025-11-04T16:10:00-08:00"])
        #expect(refreshed.stderr == "traveltimes: warning: route 1's reading is dated ahead of now: not recorded in its history\n")
        let later = try sandbox.feed("later") { routes in
            routes[1]?["TimeUpdated"] = "/Date(1762302600000-0800)/"  // 16:30
            routes[1]?["CurrentTime"] = 50
        }
        let earlier = try sandbox.feed("earlier") { routes in
            routes[1]?["TimeUpdated"] = "/Date(1762301700000-0800)/"  // 16:15
            routes[1]?["CurrentTime"] = 40
        }
        try sandbox.ok(["refresh", "--source", later, "--now", "2025-11-04T16:31:00-08:00"])
        try sandbox.ok(["refresh", "--source", earlier, "--now", "2025-11-04T16:16:00-08:00"])
        let exported = try sandbox.ok(["history", "export", "1", "--csv"]).stdout
        #expect(exported == """
            route,at,minutes,source,suspicious
            1,2025-11-04T16:15:00-08:00,40,wsdot,false
            1,2025-11-04T16:30:00-08:00,50,wsdot,false

            """)
    }

    @Test func aZoneChangeMovesTheSlotsAndAReAddedCustomRouteStartsAfresh() throws {
        let sandbox = try Sandbox().prepared()
        let rows = Self.tuesdays.map { (route: "1", at: Self.pacific($0.0, $0.1, 7, 0), minutes: 40) }
        try sandbox.ok(["history", "import", try Self.file(sandbox, "tuesdays.csv", Self.csv(rows))])
        func starts() throws -> [String] {
            let view = try #require(try sandbox.json(["history", "1", "--json", "--now", "2025-11-04T16:00:00-08:00"]) as? [String: Any])
            return (view["slots"] as? [[String: Any]] ?? []).map { "\($0["weekday"] ?? "") \($0["start"] ?? "")" }
        }
        #expect(try starts() == ["3 07:00"])
        try sandbox.ok(["config", "set", "timezone", "America/New_York"], environment: ["TRAVELTIMES_TZ": ""])
        #expect(try sandbox.ok(["history", "1", "--json"], environment: ["TRAVELTIMES_TZ": ""]).stdout == """
            {\u{A}  "damaged" : 0,\u{A}  "name" : "Everett-Seattle",\u{A}  "readings" : [],\u{A}  "recorded" : true,\u{A}  "route" : "1",\u{A}  "since" : "2025-11-04T00:00:00-05:00",\u{A}  "slots" : [\u{A}    {\u{A}      "enough" : true,\u{A}      "median" : 40,\u{A}      "p90" : 40,\u{A}      "readings" : 7,\u{A}      "start" : "10:00",\u{A}      "weekday" : 3,\u{A}      "weeks" : 7\u{A}    }\u{A}  ],\u{A}  "total" : 8,\u{A}  "weeks" : 8,\u{A}  "zone" : "America/New_York"\u{A}}\u{A}
            """)

        try sandbox.ok(["route", "add", "gym", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--provider", "here", "--no-check"])
        try sandbox.ok(["history", "import", try Self.file(sandbox, "gym.csv", Self.csv([(route: "gym", at: Self.pacific(28, 10, 7, 0), minutes: 12)]))])
        #expect(FileManager.default.fileExists(atPath: sandbox.path("history/gym.tth")))
        try sandbox.ok(["route", "remove", "gym", "--yes"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("history/gym.tth")))
        let gone = try sandbox.run(["history", "gym"])
        #expect(gone.status == 64 && gone.stderr == "traveltimes: Unknown route ID 'gym': it is not in the route cache; see `traveltimes routes`\n")
    }

    @Test func historyDaysDropsWhatIsOlderAndOffRecordsNothing() throws {
        let sandbox = try Sandbox().prepared()
        let rows = [(route: "1", at: "2025-08-01T07:00:00-07:00", minutes: 40), (route: "1", at: "2025-10-20T07:00:00-07:00", minutes: 41)]
        #expect(try sandbox.ok(["history", "import", try Self.file(sandbox, "old.csv", Self.csv(rows))]).stdout == "Imported 2 readings.\n")
        #expect(try sandbox.ok(["config", "set", "history-days", "30"]).stdout == "history-days set to 30: older travel times are dropped.\n")
        let again = try sandbox.ok(["history", "import", try Self.file(sandbox, "old.csv", Self.csv(rows))]).stdout
        #expect(again == "Imported 0 readings; skipped 1 already recorded; skipped 1 older than the 30 days kept (history-days).\n")
        // The next reading recorded drops the readings more than 30 days old (a month past them, at most).
        let next = try sandbox.feed("next") { routes in routes[1]?["TimeUpdated"] = "/Date(1762302600000-0800)/" }
        try sandbox.ok(["refresh", "--source", next, "--now", "2025-11-04T16:31:00-08:00"])
        #expect(try sandbox.ok(["history", "export", "1", "--csv"]).stdout == """
            route,at,minutes,source,suspicious
            1,2025-10-20T07:00:00-07:00,41,wsdot,false
            1,2025-11-04T16:30:00-08:00,34,wsdot,false

            """)
        try sandbox.ok(["config", "set", "history-days", "off"])
        #expect(try sandbox.ok(["config", "show"]).stdout == """
            source:         not set\u{A}access-code:    not set\u{A}timezone:       America/Los_Angeles (saved)\u{A}grace:          10 min\u{A}quiet-hours:    none\u{A}daily-cap:      20 scheduled alerts\u{A}tomtom-key:     not set\u{A}here-key:       not set\u{A}google-key:     not set\u{A}lead:           60 min before an alert, custom routes are in play\u{A}min-interval:   10 min between requests for a route\u{A}plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)\u{A}budget.tomtom:  2500 requests a day\u{A}budget.here:    1000 requests a day\u{A}budget.google:  160 requests a day\u{A}budget.transitous: 200 requests a day\u{A}budget.osrm:    100 requests a day\u{A}budget.valhalla: 100 requests a day\u{A}stale-after:    1 h: older data, or refreshes failing that long, send a health alert\u{A}alert-lifetime: 2 h after it fires, an alert is cleared where the channel can\u{A}follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min\u{A}health-notify:  every notifier\u{A}history-days:   off (no travel times are recorded)\u{A}typical-weeks:  typical times look back 8 weeks\u{A}contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)\u{A}geocoder-url:   https://nominatim.openstreetmap.org\u{A}tomtom-url:     https://api.tomtom.com\u{A}here-url:       https://router.hereapi.com\u{A}google-url:     https://routes.googleapis.com\u{A}transitous-url: https://api.transitous.org\u{A}osrm-url:       https://router.project-osrm.org\u{A}valhalla-url:   https://valhalla1.openstreetmap.de\u{A}free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times\u{A}units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)\u{A}notifiers:      stdout\u{A}
            """)
        let later = try sandbox.feed("later") { routes in routes[1]?["TimeUpdated"] = "/Date(1762304400000-0800)/" }
        try sandbox.ok(["refresh", "--source", later, "--now", "2025-11-04T17:01:00-08:00"])
        #expect(try sandbox.ok(["history", "export", "1", "--csv"]).stdout.split(separator: "\n").count == 3)
    }

    @Test func aCustomRouteIsRecordedFromItsProviderAndJudgedLikeAnyOther() throws {
        let server = try ProviderServer()
        let sandbox = try CustomRouteTests().sandbox(server)
        try sandbox.ok(["route", "add", "home-work", "--from", CustomRouteTests.home, "--to", CustomRouteTests.work, "--provider", "tomtom",
                        "--now", "2026-11-23T08:00:00"])
        try sandbox.ok(["favorites", "add", "home-work"])
        try sandbox.ok(["refresh", "--route", "home-work", "--now", "2026-11-23T08:15:00"])
        #expect(try sandbox.ok(["history", "export", "home-work", "--csv"]).stdout == """
            route,at,minutes,source,suspicious
            home-work,2026-11-23T08:00:00-08:00,25,tomtom,false
            home-work,2026-11-23T08:15:00-08:00,25,tomtom,false

            """)

        // 8.4 miles in a minute: held back, said, and marked — until the next reading says the same.
        let added = try sandbox.ok(["route", "add", "quick", "--from", "10.5,20.0", "--to", "10.6,20.1", "--provider", "tomtom",
                                    "--name", "Quick", "--now", "2026-11-23T08:20:00"])
        #expect(added.stderr == "traveltimes: warning: TomTom reported 1 min for Quick (usually 1) (held back until a second reading confirms it)\n", "\(added)")
        let held = try #require(try sandbox.json(["route", "quick", "--json", "--now", "2026-11-23T08:21:00"]) as? [String: Any])
        #expect(held["suspicious"] as? Bool == true && held["currentMinutes"] is NSNull && held["suspiciousMinutes"] as? Int == 1)
        try sandbox.ok(["refresh", "--route", "quick", "--now", "2026-11-23T08:35:00"])
        let confirmed = try #require(try sandbox.json(["route", "quick", "--json", "--now", "2026-11-23T08:36:00"]) as? [String: Any])
        #expect(confirmed["suspicious"] as? Bool == false && confirmed["currentMinutes"] as? Int == 1)
        let history = try #require(try sandbox.json(["history", "quick", "--json", "--now", "2026-11-23T08:36:00"]) as? [String: Any])
        let readings = try #require(history["readings"] as? [[String: Any]])
        #expect(readings.map { $0["suspicious"] as? Bool } == [true, false] && readings.allSatisfy { $0["source"] as? String == "tomtom" })
    }

    // MARK: The guard

    @Test func aReadingFasterThanTheRoadAllowsIsHeldBackUntilASecondConfirmsIt() throws {
        let sandbox = try Sandbox().prepared()
        // Everett-Seattle is 26.7 miles: 5 minutes would be 320 km/h.
        let first = try sandbox.feed("fast-1") { routes in
            routes[1]?["TimeUpdated"] = "/Date(1762301700000-0800)/"
            routes[1]?["CurrentTime"] = 5
        }
        let refreshed = try sandbox.ok(["refresh", "--source", first, "--now", "2025-11-04T16:16:00-08:00"])
        #expect(refreshed.stderr == "traveltimes: warning: WSDOT reported 5 min for Everett-Seattle (usually 45) (held back until a second reading confirms it)\n")
        let routes = try sandbox.ok(["routes", "--favorites", "--now", "2025-11-04T16:16:00-08:00"]).stdout
        #expect(routes == """
            Updated at 4:15 PM
               ID  NAME                        NOW     AVG   DELAY  STATUS      SOURCE  UPDATED
            *   1  Everett-Seattle              5?  45 min       -  SUSPICIOUS  wsdot   4:15 PM
            *  96  Seattle-Bellevue via 90  14 min  15 min  -1 min  CLEAR       wsdot   4:00 PM
            *   4  Seattle-Everett          48 min  57 min  -9 min  CLEAR       wsdot   4:00 PM
            ? Outside what the route can be: ignored until a second reading confirms it.

            """)
        let held = try #require(try sandbox.json(["route", "1", "--json"]) as? [String: Any])
        #expect(held["suspicious"] as? Bool == true && held["suspiciousMinutes"] as? Int == 5 && held["currentMinutes"] is NSNull)
        #expect(Whole.normal(try sandbox.ok(["route", "1"]).stdout) == """
            Everett-Seattle (route 1)  * favorite
              Everett to Downtown Seattle
              From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55
              To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83
              Distance: 26.7 mi
              Now:      - (usually 45 min)
              Held back: WSDOT reported 5 min for Everett-Seattle (usually 45); ignored until confirmed
              Delay:    -, NO DATA
              Updated:  4:15 PM (0 min ago)
              Schedules:
                $ID  7:00 AM on Weekdays

            """)
        let history = try #require(try sandbox.json(["history", "1", "--json", "--now", "2025-11-04T16:16:00-08:00"]) as? [String: Any])
        let readings = try #require(history["readings"] as? [[String: Any]])
        #expect(readings.last?["minutes"] as? Int == 5 && readings.last?["suspicious"] as? Bool == true)

        // The next reading says the same: the road really is that fast (or the distance is wrong).
        let second = try sandbox.feed("fast-2") { routes in
            routes[1]?["TimeUpdated"] = "/Date(1762302600000-0800)/"
            routes[1]?["CurrentTime"] = 5
        }
        let confirmed = try sandbox.ok(["refresh", "--source", second, "--now", "2025-11-04T16:31:00-08:00"])
        #expect(!confirmed.stderr.contains("held back"))
        let now = try #require(try sandbox.json(["route", "1", "--json"]) as? [String: Any])
        #expect(now["suspicious"] as? Bool == false && now["currentMinutes"] as? Int == 5)
    }

    @Test func anAbsurdReadingIsNeitherAlertedNorPlannedWithAndTheAlertSaysSo() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        // Eight Tuesdays of about 35 minutes at 7:00: 760 is far past four times its worst.
        let rows = Self.tuesdays.flatMap { day in
            [0, 5, 10].map { (route: "1", at: Self.pacific(day.0, day.1, 7, $0), minutes: 33 + $0 / 5 * 2) }
        }
        try sandbox.ok(["history", "import", try Self.file(sandbox, "usual.csv", Self.csv(rows))])
        try sandbox.ok(["schedule", "add", "--at", "7:05", "--days", "tue", "--route", "1", "--now", "2025-11-04T06:00:00-08:00"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "tue", "--route", "1", "--now", "2025-11-04T06:00:00-08:00"])
        let absurd = try sandbox.feed("absurd") { routes in
            routes[1]?["TimeUpdated"] = "/Date(1762268400000-0800)/"  // Nov 4, 7:00
            routes[1]?["CurrentTime"] = 760
        }
        let refreshed = try sandbox.ok(["refresh", "--source", absurd, "--now", "2025-11-04T07:01:00-08:00"])
        #expect(refreshed.stderr == """
            traveltimes: warning: WSDOT reported 760 min for Everett-Seattle (usually 45) (held back until a second reading confirms it)\u{A}traveltimes: warning: route 4's reading is dated ahead of now: not recorded in its history\u{A}traveltimes: warning: route 96's reading is dated ahead of now: not recorded in its history\u{A}
            """)
        // The leave time rests on the usual time, not on 760 minutes.
        let pending = try sandbox.ok(["pending", "--now", "2025-11-04T07:01:00-08:00"]).stdout
        #expect(pending.contains("Tue, Nov 4, 8:10 AM  Leave now to arrive by 9:00 AM"), "\(pending)")
        #expect(pending.contains("Expected arrival 8:55 AM by Everett-Seattle (no current times: its usual time)"))
        let tick = try sandbox.ok(["tick", "--now", "2025-11-04T07:05:10-08:00"])
        #expect(tick.stdout == """
            Commute at 7:00 AM (Weekdays)\u{A}WSDOT reported 760 min for Everett-Seattle (usually 35); ignored until confirmed\u{A}Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)\u{A}Seattle-Everett: 48 min (-9 min, CLEAR)\u{A}(late by 5 min)\u{A}\u{A}Commute at 7:05 AM (Tue)\u{A}WSDOT reported 760 min for Everett-Seattle (usually 35); ignored until confirmed\u{A}\u{A}
            """, "\(tick)")
    }
}
