import CommuteCore
import CommuteStore
import Foundation
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

@Suite struct HTTPRefreshTests {
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
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    1 h: older data, or refreshes failing that long, send a health alert
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
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
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    1 h: older data, or refreshes failing that long, send a health alert
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
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
        #expect(badKey.status == 64 && badKey.stderr == "traveltimes: Unknown setting 'sorce': use source, access-code, timezone, grace, quiet-hours, daily-cap, tomtom-key, here-key, google-key, lead, min-interval, budget.tomtom, budget.here, budget.google, budget.transitous, budget.osrm, budget.valhalla, stale-after, alert-lifetime, health-notify, history-days, typical-weeks, contact, geocoder-url, tomtom-url, here-url, google-url, transitous-url, osrm-url, valhalla-url, free-flow-margin, units. Did you mean 'source'? See 'traveltimes config set --help'.\n")
        let badTimeout = try sandbox.run(["refresh", "--source", Paths.fixture, "--timeout", "never"])
        #expect(badTimeout.status == 64 && badTimeout.stderr == "traveltimes: Invalid --timeout 'never': use seconds from 0.1 to 600. See 'traveltimes refresh --help'.\n")
    }
}

@Suite struct WebhookTests {
    /// POSTs the server received: path, headers and body.
    func posts(_ server: FeedServer) -> [(path: String, headers: [String: String], body: String)] {
        guard let text = try? String(contentsOfFile: server.log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["method"] as? String == "POST", let path = object["path"] as? String
            else { return nil }
            return (path, object["headers"] as? [String: String] ?? [:], object["body"] as? String ?? "")
        }
    }

    @Test func everyFormatPostsTheRightRequestAndSecretsStayHidden() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        let secret = "/hook/T000SECRETTOKEN"
        for format in ["ntfy", "slack", "discord", "json"] {
            let added = try sandbox.ok(["notify", "add", "webhook", server.url("\(secret)-\(format)"), "--format", format])
            #expect(added.stdout.contains("webhook http://127.0.0.1:\(server.port)/… (\(format))"))
            #expect(!added.stdout.contains("SECRET"))
        }
        let list = try sandbox.ok(["notify", "list"]).stdout
        #expect(!list.contains("SECRET") && list.split(separator: "\n").count == 4)
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let received = Dictionary(posts(server).map { ($0.path.components(separatedBy: "-").last ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let title = "Commute at 4:30 PM (Tue)"
        let body = "Everett-Seattle: 34 min (-11 min, CLEAR)"
        let ntfy = try #require(received["ntfy"])
        #expect(ntfy.body == body)
        #expect(ntfy.headers["Title"] == title && ntfy.headers["Priority"] == "default" && ntfy.headers["Tags"] == "car,traveltimes")
        let slack = try JSONSerialization.jsonObject(with: Data(try #require(received["slack"]).body.utf8)) as? [String: String]
        #expect(slack == ["text": "*\(title)*\n\(body)"])
        let discord = try JSONSerialization.jsonObject(with: Data(try #require(received["discord"]).body.utf8)) as? [String: String]
        #expect(discord == ["content": "**\(title)**\n\(body)"])
        let json = try JSONSerialization.jsonObject(with: Data(try #require(received["json"]).body.utf8)) as? [String: String]
        #expect(json?["title"] == title && json?["body"] == body && json?["urgency"] == "normal")
        #expect(json?["id"]?.hasPrefix("schedule.") == true)
    }

    @Test func headersAndClickReachTheServerButNoOutputOrOtherFile() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        let token = "tk_HEADERSECRET"
        let added = try sandbox.ok([
            "notify", "add", "webhook", server.url("/hook-auth"), "--header", "Authorization: Bearer \(token)",
            "--header=X-Extra:  second\(token)", "--click", "https://example.com/traffic",
        ])
        #expect(added.stdout == "Added notifier 1: webhook http://127.0.0.1:\(server.port)/… (ntfy, header Authorization, header X-Extra, click).\n")
        // Followed to another origin (another host name), the alert goes on without the credentials.
        try sandbox.ok(["notify", "add", "webhook", server.url("/hook-307-elsewhere"), "--format", "json", "--header", "Authorization: Bearer \(token)"])
        let tick = try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let received = posts(server)
        let auth = try #require(received.first { $0.path == "/hook-auth" })
        #expect(auth.headers["Authorization"] == "Bearer \(token)" && auth.headers["X-Extra"] == "second\(token)")
        #expect(auth.headers["Click"] == "https://example.com/traffic" && auth.headers["Title"] == "Commute at 4:30 PM (Tue)")
        #expect(received.first { $0.path == "/hook-307-elsewhere" }?.headers["Authorization"] == "Bearer \(token)")
        let moved = try #require(received.first { $0.path == "/hook-final" })
        #expect(moved.headers["Authorization"] == nil && moved.headers["Host"] == "localhost:\(server.port)")
        #expect(Whole.normal(moved.body) == "{\"body\":\"Everett-Seattle: 34 min (-11 min, CLEAR)\",\"id\":\"schedule.$UUID.weekday.3\",\"title\":\"Commute at 4:30 PM (Tue)\",\"urgency\":\"normal\"}")

        var shown = [tick.stdout, tick.stderr]
        for command in [["notify", "list"], ["notify", "list", "--json"], ["config", "show"], ["config", "show", "--json"],
                        ["status"], ["status", "--json"], ["delivered", "--json"], ["notify", "test"]] {
            let outcome = try sandbox.run(command)
            shown += [outcome.stdout, outcome.stderr]
        }
        #expect(shown.allSatisfy { !$0.contains("SECRET") && !$0.contains("hook-auth") })
        let files = try FileManager.default.subpathsOfDirectory(atPath: sandbox.home)
        for file in files where file != "config.json" {
            let bytes = sandbox.bytes(file).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(!bytes.contains("SECRET"), "\(file) holds a header value")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("config.json"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aHeaderOrClickThatCannotBeSentIsRefusedWithoutRepeatingIt() throws {
        let sandbox = Sandbox()
        let url = "https://ntfy.example.invalid/commute"
        let cases: [([String], String)] = [
            (["--header", "NoColonSECRET"], "--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'."),
            (["--header", "Authorization:   "], "--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'."),
            (["--header", "X-A: one\r\nInjected: SECRET"], "--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'."),
            (["--header", "Bad Name: SECRET"], "--header takes one line 'Name: value', such as 'Authorization: Bearer tk_…'."),
            (["--format", "slack", "--click", "https://example.com/"], "--click is for ntfy (or json) webhooks; slack has no click URL."),
            (["--click", "ftp://example.com/"], "--click takes an http(s) URL."),
            (["--header"], "'--header' needs a value: --header HEADER."),
            (["--clik", "https://example.com/"], "Unknown option '--clik' for 'notify add'. Did you mean '--click'?"),
        ]
        for (words, message) in cases {
            let outcome = try sandbox.run(["notify", "add", "webhook", url] + words)
            #expect(outcome.status == 64, "\(words)")
            #expect(outcome.stderr == "traveltimes: \(message) See 'traveltimes notify add --help'.\n", "\(words)")
            #expect(!outcome.stderr.contains("SECRET"))
        }
        #expect(try sandbox.ok(["notify", "list"]).stdout == "No notifiers configured: alerts go to stdout. Add one with `traveltimes notify add`.\n")
    }

    @Test func aFailingWebhookIsLedgeredAndRetried() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "webhook", server.url("/hook-fail/SECRETPATH"), "--format", "json"])
        let first = try sandbox.run(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(first.status == 1)
        #expect(Whole.normal(first.stderr) == """
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.3: http://127.0.0.1:PORT/… answered HTTP 500; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """)
        #expect(!first.stderr.contains("SECRETPATH"))
        #expect(try sandbox.run(["tick", "--now", "2025-11-04T16:33:00-08:00"]).status == 1)
        #expect(posts(server).count == 2)
        let ledger = try sandbox.ok(["delivered", "--json"]).stdout
        #expect(Whole.normal(ledger) == """
            [
              {
                "action" : "failed",
                "at" : "2025-11-04T16:33:00-08:00",
                "attempts" : 2,
                "handle" : null,
                "key" : "schedule.$UUID.weekday.3@2025-11-05T00:30:00Z",
                "leave" : null,
                "notifier" : 1,
                "occurrence" : "2025-11-04T16:30:00-08:00",
                "outcome" : "failed",
                "reason" : "http://127.0.0.1:PORT/… answered HTTP 500",
                "requestID" : "schedule.$UUID.weekday.3"
              },
              {
                "action" : "failed",
                "at" : "2025-11-04T16:30:00-08:00",
                "attempts" : 1,
                "handle" : null,
                "key" : "schedule.$UUID.weekday.3@2025-11-05T00:30:00Z",
                "leave" : null,
                "notifier" : 1,
                "occurrence" : "2025-11-04T16:30:00-08:00",
                "outcome" : "failed",
                "reason" : "http://127.0.0.1:PORT/… answered HTTP 500",
                "requestID" : "schedule.$UUID.weekday.3"
              }
            ]

            """ && !ledger.contains("SECRETPATH"))
        let bad = try sandbox.run(["notify", "add", "webhook", "ftp://x/y"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: webhook needs one http(s) URL: notify add webhook URL [--format ntfy|slack|discord|json] [--header 'Name: value']... [--click URL]. See 'traveltimes notify add --help'.\n")
        let format = try sandbox.run(["notify", "add", "webhook", server.url("/hook"), "--format", "teams"])
        #expect(format.status == 64 && format.stderr == "traveltimes: --format takes ntfy, slack, discord or json. See 'traveltimes notify add --help'.\n")
    }
}
