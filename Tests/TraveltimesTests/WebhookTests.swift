@_spi(Store) import CommuteCore
import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct WebhookTests {
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
