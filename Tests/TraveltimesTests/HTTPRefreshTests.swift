@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Support/feed_server.py` on 127.0.0.1: the fixture and WSDOT's failure modes.
final class FeedServer: @unchecked Sendable {
    let port: Int
    let log: String
    private let server: LoopbackServer

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("feed-server-\(UUID().uuidString).log").path
        server = try LoopbackServer(script: "feed_server.py", arguments: [Paths.fixture, log])
        port = server.port
    }

    deinit { try? FileManager.default.removeItem(atPath: log) }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every POST the server saw: its path and body.
    func posts() -> [(path: String, body: String)] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["method"] as? String == "POST", let path = object["path"] as? String
            else { return nil }
            return (path, object["body"] as? String ?? "")
        }
    }

    /// Every request the server saw: its path (with query) and headers.
    func requests() -> [(path: String, headers: [String: String])] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String
            else { return nil }
            return (path, object["headers"] as? [String: String] ?? [:])
        }
    }

}

@Suite(.ownThreads) struct HTTPRefreshTests {
    let now = Paths.capturedAt

    @Test func theFixtureOverHTTP() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        let outcome = try sandbox.ok(["refresh", "--source", server.url("/feed"), "--now", now])
        #expect(Whole.normal(outcome.stdout) == "Refreshed 163 routes from http://127.0.0.1:PORT/feed (3 without data); 0 alerts scheduled (cap 64).\n")
        #expect(try sandbox.store.routes().routes.count == 163)
        #expect(server.requests().first?.headers["Accept"] == "application/json")
    }

    @Test func aServerErrorIsRetriedAndThenSucceeds() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        let started = Date()
        try sandbox.ok(["refresh", "--source", server.url("/flaky"), "--now", now])
        #expect(server.requests().count == 2)
        #expect(Date().timeIntervalSince(started) >= 1, "the retry waits 1 s")
        #expect(try sandbox.store.routes().routes.count == 163)
    }

    @Test func failuresChangeNothingAndSayWhatIsKept() throws {
        let server = try FeedServer()
        let sandbox = try Sandbox().prepared()
        let routes = sandbox.bytes("routes.json")
        let pending = sandbox.bytes("pending.json")
        let cases: [(String, [String], Int32, String)] = [
            ("/fail", ["--timeout", "4"], 75, "gave up after 3 attempts (last: HTTP 500)"),
            ("/html", [], 69, "the server sent an HTML page instead of the feed: \"Request Error\""),
            ("/truncated", [], 65, "the feed is not valid JSON"),
            ("/notfound", [], 69, "the server answered HTTP 404"),
            ("/big", [], 69, "the response is larger than 32 MiB; refusing it"),
        ]
        for (path, options, status, message) in cases {
            let outcome = try sandbox.run(["refresh", "--source", server.url(path), "--now", "2025-11-04T18:15:00-08:00"] + options)
            #expect(outcome.status == status, "\(path): \(outcome)")
            #expect(outcome.stderr.contains("refresh failed: \(message)"), "\(path): \(outcome)")
            #expect(outcome.stderr.contains("keeping routes updated at 4:00 PM (2 h ago)"), "\(path): \(outcome)")
            #expect(sandbox.bytes("routes.json") == routes, "\(path) changed routes.json")
            #expect(sandbox.bytes("pending.json") == pending, "\(path) changed pending.json")
        }
        let status = try sandbox.ok(["status", "--now", "2025-11-04T18:20:00-08:00"]).stdout
        #expect(Whole.normal(status) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (2 h ago, stale)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   6:15 PM: the response is larger than 32 MiB; refusing it (5 failures in a row)
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
    }

    @Test func aHangingServerMeetsTheDeadline() throws {
        let server = try FeedServer()
        let sandbox = try Sandbox().prepared()
        let routes = sandbox.bytes("routes.json")
        let started = Date()
        let outcome = try sandbox.run(["refresh", "--source", server.url("/hang"), "--timeout", "2"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(outcome.status == 75)
        #expect(outcome.stderr == "traveltimes: refresh failed: timed out after 2 s; keeping routes updated at 4:00 PM (0 min ago)\n")
        #expect(elapsed >= 2 && elapsed < 3, "took \(elapsed) s for --timeout 2")
        #expect(sandbox.bytes("routes.json") == routes)
    }

    @Test func unchangedFeedsCostA304AndStillReschedule() throws {
        let server = try FeedServer()
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["refresh", "--source", server.url("/etag"), "--now", now])
        let routes = sandbox.bytes("routes.json")
        let later = "2025-11-05T09:00:00-08:00"
        let outcome = try sandbox.ok(["refresh", "--source", server.url("/etag"), "--now", later])
        #expect(outcome.stdout == "Feed unchanged since the last refresh (HTTP 304); 163 routes kept; 5 alerts scheduled (cap 64).\n")
        #expect(server.requests().last?.headers["If-None-Match"] == "\"v1\"")
        #expect(sandbox.bytes("routes.json") == routes)
        // Rescheduled at the later moment: the next alert is now Thursday's, and its content has aged.
        let pending = try sandbox.store.pending()
        #expect(pending.plannedAt == ISO8601.parse(later)?.instant)
        // Thursday 7:00 AM is 39 h after the data's 4:00 PM on Tuesday.
        #expect(pending.requests.first?.nextFire == ISO8601.parse("2025-11-06T07:00:00-08:00")?.instant)
        #expect(pending.requests.first?.body?.hasSuffix("Data is 39 h old (updated Tue, Nov 4, 4:00 PM)") == true)
        #expect(Whole.normal(try sandbox.ok(["status", "--now", later]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated Tue, Nov 4, 4:00 PM (17 h ago, stale)
            Refreshed:  Tue, Nov 4, 4:00 PM from http://127.0.0.1:PORT/etag
            Last try:   9:00 AM: not modified
            Source:     not set — `traveltimes config set source URL`
            Favorites:  3
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 9:00 AM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
    }

    @Test func redirectsAreFollowed() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", server.url("/redirect")])
        #expect(server.requests().map(\.path) == ["/redirect", "/feed"])
        #expect(try sandbox.store.routes().routes.count == 163)
    }

    @Test func theAccessCodeIsSentButNeverShownOrStored() throws {
        let server = try FeedServer()
        let sandbox = try Sandbox().prepared()
        let code = "5e1f7c2a-90d1-4c5b-b0a3-deadbeef1234"
        var outputs: [Outcome] = []
        outputs.append(try sandbox.run(["refresh", "--source", server.url("/feed")], environment: ["WSDOT_ACCESS_CODE": code]))
        outputs.append(try sandbox.run(["refresh", "--source", server.url("/html")], environment: ["WSDOT_ACCESS_CODE": code]))
        outputs.append(try sandbox.run(["refresh", "--source", server.url("/fail"), "--timeout", "1.5"], environment: ["WSDOT_ACCESS_CODE": code]))
        // Through the configuration too, with the source there as well.
        outputs.append(try sandbox.run(["config", "set", "access-code", code]))
        outputs.append(try sandbox.run(["config", "set", "source", server.url("/feed")]))
        outputs.append(try sandbox.run(["refresh"]))
        outputs.append(try sandbox.run(["config", "show"]))
        outputs.append(try sandbox.run(["config", "show", "--json"]))
        outputs.append(try sandbox.run(["status"]))
        outputs.append(try sandbox.run(["refresh", "--source", server.url("/feed?AccessCode=\(code)"), "--timeout", "0.5"]))
        #expect(outputs[0].status == 0 && outputs[5].status == 0, "\(outputs)")
        for outcome in outputs {
            #expect(!outcome.stdout.contains(code) && !outcome.stderr.contains(code), "\(outcome)")
        }
        #expect(Whole.normal(outputs[6].stdout) == """
            source:         http://127.0.0.1:PORT/feed
            access-code:    set
            timezone:       America/Los_Angeles (saved)
            grace:          10 min
            quiet-hours:    none
            daily-cap:      20 scheduled alerts
            tomtom-key:     not set
            here-key:       not set
            google-key:     not set
            lead:           60 min before an alert, custom routes are in play
            min-interval:   10 min between requests for a route
            plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    1 h: older data, or refreshes failing that long, send a health alert
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
            follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min
            health-notify:  every notifier
            history-days:   400 days of travel times are kept
            typical-weeks:  typical times look back 8 weeks
            contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)
            geocoder-url:   https://nominatim.openstreetmap.org
            tomtom-url:     https://api.tomtom.com
            here-url:       https://router.hereapi.com
            google-url:     https://routes.googleapis.com
            transitous-url: https://api.transitous.org
            osrm-url:       https://router.project-osrm.org
            valhalla-url:   https://valhalla1.openstreetmap.de
            free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times
            units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)
            notifiers:      stdout

            """)
        // Sent on every request that had none of its own.
        #expect(server.requests().allSatisfy { $0.path.contains("AccessCode=\(code)") })
        // In no file but the configuration, which is 0600.
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.home) where name != "config.json" {
            let text = String(decoding: sandbox.bytes(name) ?? Data(), as: UTF8.self)
            #expect(!text.contains(code), "\(name) holds the access code")
        }
        #expect(String(decoding: sandbox.bytes("config.json") ?? Data(), as: UTF8.self).replacing(/127\.0\.0\.1:[0-9]+/, with: "127.0.0.1:PORT") == "{\"accessCode\":\"5e1f7c2a-90d1-4c5b-b0a3-deadbeef1234\",\"source\":\"http://127.0.0.1:PORT/feed\",\"timeZone\":\"America/Los_Angeles\",\"version\":1}\n")
        let mode = (try FileManager.default.attributesOfItem(atPath: sandbox.path("config.json"))[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
    }

    @Test func theSourceComesFromTheFlagTheEnvironmentOrTheConfiguration() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        let none = try sandbox.run(["refresh"])
        #expect(none.status == 64)
        #expect(none.stderr == "traveltimes: No feed source and no custom routes: pass --source URL|FILE, set TRAVELTIMES_SOURCE, run `traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson`, add a route of your own with `traveltimes route add`, or a transit feed with `traveltimes transit add`. See 'traveltimes refresh --help'.\n")
        try sandbox.ok(["config", "set", "source", server.url("/feed")])
        #expect(Whole.normal(try sandbox.ok(["config"]).stdout) == """
            source:         http://127.0.0.1:PORT/feed
            access-code:    not set
            timezone:       America/Los_Angeles (from TRAVELTIMES_TZ, for this command; saved: none)
            grace:          10 min
            quiet-hours:    none
            daily-cap:      20 scheduled alerts
            tomtom-key:     not set
            here-key:       not set
            google-key:     not set
            lead:           60 min before an alert, custom routes are in play
            min-interval:   10 min between requests for a route
            plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    1 h: older data, or refreshes failing that long, send a health alert
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
            follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min
            health-notify:  every notifier
            history-days:   400 days of travel times are kept
            typical-weeks:  typical times look back 8 weeks
            contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)
            geocoder-url:   https://nominatim.openstreetmap.org
            tomtom-url:     https://api.tomtom.com
            here-url:       https://router.hereapi.com
            google-url:     https://routes.googleapis.com
            transitous-url: https://api.transitous.org
            osrm-url:       https://router.project-osrm.org
            valhalla-url:   https://valhalla1.openstreetmap.de
            free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times
            units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)
            notifiers:      stdout

            """)
        try sandbox.ok(["refresh"])
        try sandbox.ok(["refresh"], environment: ["TRAVELTIMES_SOURCE": Paths.fixture])
        #expect(server.requests().count == 1, "the environment beats the configuration")
        try sandbox.ok(["config", "unset", "source", "--yes"])
        #expect(try sandbox.run(["refresh"]).status == 64)
        let badKey = try sandbox.run(["config", "set", "sorce", "x"])
        #expect(badKey.status == 64 && badKey.stderr == "traveltimes: Unknown setting 'sorce': use source, access-code, timezone, grace, quiet-hours, daily-cap, tomtom-key, here-key, google-key, lead, min-interval, plan-requests, budget.tomtom, budget.here, budget.google, budget.transitous, budget.osrm, budget.valhalla, stale-after, alert-lifetime, follow-threshold, health-notify, history-days, typical-weeks, contact, geocoder-url, tomtom-url, here-url, google-url, transitous-url, osrm-url, valhalla-url, free-flow-margin, units. Did you mean 'source'? See 'traveltimes config set --help'.\n")
        let badTimeout = try sandbox.run(["refresh", "--source", Paths.fixture, "--timeout", "never"])
        #expect(badTimeout.status == 64 && badTimeout.stderr == "traveltimes: Invalid --timeout 'never': use seconds from 0.1 to 600. See 'traveltimes refresh --help'.\n")
    }
}
