@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// `Tests/Support/channel_server.py` on 127.0.0.1: every notification service, as its
/// documentation gives it, and what each holds.
final class ChannelServer: @unchecked Sendable {
    let port: Int
    let log: String
    let stateFile: String
    private let server: LoopbackServer

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("channel-server-\(UUID().uuidString)").path
        log = base + ".log"
        stateFile = base + ".state"
        server = try LoopbackServer(script: "channel_server.py", arguments: [log, stateFile])
        port = server.port
    }

    deinit {
        try? FileManager.default.removeItem(atPath: log)
        try? FileManager.default.removeItem(atPath: stateFile)
    }

    var host: String { "127.0.0.1:\(port)" }
    var base: String { "http://\(host)" }

    /// What each service holds now.
    func state() throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: stateFile) else { return [:] }
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every request: method, path, headers, body.
    func requests() -> [(method: String, path: String, headers: [String: String], body: String)] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let method = object["method"] as? String, let path = object["path"] as? String
            else { return nil }
            return (method, path, object["headers"] as? [String: String] ?? [:], object["body"] as? String ?? "")
        }
    }

    /// The services' fixed hosts, replaced by this one.
    var environment: [String: String] {
        ["TRAVELTIMES_PUSHOVER_URL": base, "TRAVELTIMES_TELEGRAM_URL": base, "TRAVELTIMES_DISCORD_URL": base, "TRAVELTIMES_SLACK_URL": base]
    }
}

/// Stand-ins on PATH for sendmail, notify-send and gdbus: each records its arguments and input.
final class DesktopAndMail {
    let directory: String

    init(_ sandbox: Sandbox) throws {
        directory = sandbox.home + "-tools"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write("sendmail", "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(directory)/sendmail.args'\nenv >> '\(directory)/sendmail.env'\ncat >> '\(directory)/sendmail.mail'\n")
        // notify-send 0.7.10 and later: --print-id prints the ID; --replace-id keeps it.
        try write("notify-send", """
            #!/bin/sh
            printf '%s\\n' "$*" >> '\(directory)/notify-send.args'
            id=7
            for a in "$@"; do case "$a" in --replace-id=*) id="${a#--replace-id=}" ;; esac; done
            case "$*" in *--print-id*) echo "$id" ;; esac
            """)
        try write("gdbus", "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(directory)/gdbus.args'\n")
        sandbox.environment["PATH"] = directory + ":" + (sandbox.environment["PATH"] ?? "/usr/bin:/bin")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private func write(_ name: String, _ text: String) throws {
        try Sandbox.write(directory + "/" + name, Data(text.utf8))
        chmod(directory + "/" + name, 0o755)
    }

    func read(_ name: String) -> String { (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "" }
}

@Suite(.ownThreads) struct ChannelTests {
    /// A sandbox with the fixture, favorite 1, and the channel server's hosts in place.
    func sandbox(_ server: ChannelServer) throws -> Sandbox {
        let sandbox = try Sandbox().withoutHealthAlerts()
        sandbox.environment.merge(server.environment) { _, new in new }
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        try sandbox.ok(["favorites", "add", "1"])
        return sandbox
    }

    @Test func everyChannelDeliversAsItsDocumentationSays() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        let tools = try DesktopAndMail(sandbox)
        let urls = [
            "ntfy://\(server.host)/alerts", "ntfy://tk_good@\(server.host)/private-alerts", "gotify://\(server.host)/goodtoken",
            "pover://userkey@apptoken", "tgram://123456:GOOD/42", "matrix://goodtoken@\(server.host)/#commute",
            "discord://111/goodtoken", "slack://T1/B1/GOOD", "json://ada:s3cret@\(server.host)/hook/in", "mailto:ada@example.com",
        ]
        for (index, url) in urls.enumerated() { try sandbox.ok(["notify", "add", url, "--name", "n\(index)"]) }
        let sent = try sandbox.run(["notify", "test", "--delay", "0"])
        #expect(sent.status == 0, "\(sent)")
        #expect(sent.stderr.hasPrefix("Sent \"Test: Commute at 4:00 PM (Tue)\""), "\(sent)")
        #expect(Whole.normal(sent.stderr) == "Sent \"Test: Commute at 4:00 PM (Tue)\" to 10 of 10 notifiers (n0: ntfy http://127.0.0.1:PORT/…; n1: ntfy http://127.0.0.1:PORT/… (with credentials); n2: gotify http://127.0.0.1:PORT/; n3: pushover; n4: telegram (1 chat); n5: matrix http://127.0.0.1:PORT; n6: discord webhook; n7: slack webhook; n8: json http://127.0.0.1:PORT/…; n9: mailto:ada@example.com).\n", "\(sent)")

        let state = try server.state()
        let requests = server.requests()
        // ntfy: the body as text, the title and priority in headers; a protected topic's token as a bearer.
        let ntfy = try #require(state["ntfy"] as? [String: [[String: Any]]])
        #expect(ntfy["alerts"]?.first?["title"] as? String == "Test: Commute at 4:00 PM (Tue)")
        #expect((ntfy["alerts"]?.first?["message"] as? String)?.hasPrefix("Everett-Seattle: 34 min") == true)
        #expect(ntfy["alerts"]?.first?["priority"] as? String == "3")
        #expect(ntfy["private-alerts"]?.count == 1)
        #expect(requests.contains { $0.path == "/private-alerts" && $0.headers["Authorization"] == "Bearer tk_good" })
        // Gotify: the application token in X-Gotify-Key, JSON.
        let gotify = try #require((state["gotify"] as? [[String: Any]])?.first)
        #expect(gotify["title"] as? String == "Test: Commute at 4:00 PM (Tue)" && gotify["priority"] as? Int == 5)
        #expect(requests.contains { $0.path == "/message" && $0.headers["X-Gotify-Key"] == "goodtoken" })
        // Pushover: a form, the keys in it, not in the URL.
        let pushover = try #require((state["pushover"] as? [[String: String]])?.first)
        #expect(pushover["title"] == "Test: Commute at 4:00 PM (Tue)" && pushover["priority"] == "0")
        #expect(requests.contains { $0.path == "/1/messages.json" && $0.body.contains("token=apptoken&user=userkey") })
        // Telegram: the token in the path, HTML text.
        let telegram = try #require((state["telegram"] as? [String: [[String: Any]]])?["42"]?.first)
        #expect((telegram["text"] as? String)?.hasPrefix("<b>Test: Commute at 4:00 PM (Tue)</b>\nEverett-Seattle") == true)
        #expect(telegram["parse_mode"] as? String == "HTML")
        // Matrix: the room joined (an invited user can then post; the join names the room's ID),
        // then a PUT with a transaction ID and a bearer token.
        let matrix = try #require((state["matrix"] as? [[String: Any]])?.first)
        #expect(matrix["room"] as? String == "!room1:127.0.0.1" && matrix["msgtype"] as? String == "m.text")
        #expect(requests.contains { $0.method == "POST" && $0.path == "/_matrix/client/v3/join/%23commute%3A127.0.0.1" })
        #expect(requests.contains { $0.method == "PUT" && $0.path.hasPrefix("/_matrix/client/v3/rooms/%21room1%3A127.0.0.1/send/m.room.message/tt") })
        // Discord: wait=true, for the message's ID.
        #expect(requests.contains { $0.method == "POST" && $0.path == "/api/webhooks/111/goodtoken?wait=true" })
        #expect(((state["discord"] as? [[String: Any]])?.first?["content"] as? String)?.hasPrefix("**Test: Commute at 4:00 PM (Tue)**\n") == true)
        // Slack: {"text"}.
        #expect(((state["slack"] as? [[String: String]])?.first?["text"])?.hasPrefix("*Test: Commute at 4:00 PM (Tue)*\n") == true)
        // JSON: Apprise's fields and ours; the URL's credentials as Basic authorization, not in the URL.
        let json = try #require((state["json"] as? [[String: Any]])?.first)
        #expect(json["path"] as? String == "/hook/in")
        #expect(json["authorization"] as? String == "Basic " + Data("ada:s3cret".utf8).base64EncodedString())
        let posted = try #require(json["body"] as? [String: Any])
        #expect(posted["version"] as? String == "1.0" && posted["type"] as? String == "info" && posted["title"] as? String == "Test: Commute at 4:00 PM (Tue)")
        // Mail: sendmail -t -oi, the recipients in To:.
        #expect(tools.read("sendmail.args") == "-t -oi\n")
        let mail = tools.read("sendmail.mail")
        #expect(mail.hasPrefix("To: ada@example.com\nSubject: Test: Commute at 4:00 PM (Tue)\nMIME-Version: 1.0\n"), "\(mail)")
        #expect(mail == """
            To: ada@example.com
            Subject: Test: Commute at 4:00 PM (Tue)
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: 8bit
            Auto-Submitted: auto-generated
            X-Traveltimes-Alert: test.1762300800

            Everett-Seattle: 34 min (-11 min, CLEAR)

            """)

        // Each is named and shown without its secrets.
        let list = try sandbox.ok(["notify", "list"]).stdout
        #expect(Whole.normal(list) == """
            1  n0: ntfy http://127.0.0.1:PORT/…
            2  n1: ntfy http://127.0.0.1:PORT/… (with credentials)
            3  n2: gotify http://127.0.0.1:PORT/
            4  n3: pushover
            5  n4: telegram (1 chat)
            6  n5: matrix http://127.0.0.1:PORT
            7  n6: discord webhook
            8  n7: slack webhook
            9  n8: json http://127.0.0.1:PORT/…
            10  n9: mailto:ada@example.com

            """, "\(list)")
        let json2 = try sandbox.ok(["delivered", "--json"]).stdout
        #expect(json2.contains("\"action\" : \"sent\""))
        #expect(json2.contains("\"handle\" : \"42:1\""), "\(json2)")
        for secret in ["goodtoken", "apptoken", "userkey", "123456:GOOD", "GOOD", "s3cret", "tk_good", "private-alerts"] {
            for output in [list, try sandbox.ok(["config", "show"]).stdout, try sandbox.ok(["config", "show", "--json"]).stdout,
                           try sandbox.run(["doctor"]).stdout, json2] {
                #expect(!output.contains(secret), "\(secret) shown")
            }
            // Not in the environment of a program it runs either, nor in any store file but the 0600 configuration.
            #expect(!tools.read("sendmail.env").contains(secret), "\(secret) in sendmail's environment")
            for file in try FileManager.default.contentsOfDirectory(atPath: sandbox.home) where file != "config.json" {
                let text = String(decoding: sandbox.bytes(file) ?? Data(), as: UTF8.self)
                #expect(!text.contains(secret), "\(secret) in \(file)")
            }
        }
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("config.json"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func eachChannelsRefusalIsOneLineInItsOwnWordsAndShortWaitsAreWaitedOut() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        let refused = [
            ("ntfy://\(server.host)/private-x", "ntfy: unauthorized (401)"),
            ("ntfy://\(server.host)/busy", "ntfy: rate limited (429)"),
            ("gotify://\(server.host)/badtoken", "Gotify: you need to provide a valid access token or user credentials to access this api (401)"),
            ("pover://nobody@apptoken", "Pushover: user identifier is invalid (400)"),
            ("tgram://123456:BAD/42", "Telegram: Unauthorized (401)"),
            ("tgram://123456:GOOD/77", "Telegram: chat not found (400)"),
            ("matrix://badtoken@\(server.host)/#commute", "Matrix: Invalid access token passed. (401)"),
            ("discord://111/badtoken", "Discord: Invalid Webhook Token (401)"),
            ("slack://T1/B1/BAD", "Slack: no_service (404)"),
        ]
        for (url, _) in refused { try sandbox.ok(["notify", "add", url]) }
        // Asking to wait a second, then taking it: Telegram's retry_after, Discord's Retry-After.
        try sandbox.ok(["notify", "add", "tgram://123456:GOOD/4290"])
        try sandbox.ok(["notify", "add", "discord://222/goodtoken"])
        let sent = try sandbox.run(["notify", "test", "--delay", "0"])
        #expect(sent.status == 1)
        #expect(Whole.normal(sent.stderr) == """
            Sent "Test: Commute at 4:00 PM (Tue)" to 2 of 11 notifiers (telegram (1 chat); discord webhook). Failed: 9.
            traveltimes: failed: ntfy http://127.0.0.1:PORT/…: ntfy: unauthorized (401)
            traveltimes: failed: ntfy http://127.0.0.1:PORT/…: ntfy: rate limited (429)
            traveltimes: failed: gotify http://127.0.0.1:PORT/: Gotify: you need to provide a valid access token or user credentials to access this api (401)
            traveltimes: failed: pushover: Pushover: user identifier is invalid (400)
            traveltimes: failed: telegram (1 chat): Telegram: Unauthorized (401)
            traveltimes: failed: telegram (1 chat): Telegram: chat not found (400)
            traveltimes: failed: matrix http://127.0.0.1:PORT: Matrix: Invalid access token passed. (401)
            traveltimes: failed: discord webhook: Discord: Invalid Webhook Token (401)
            traveltimes: failed: slack webhook: Slack: no_service (404)
            traveltimes: 9 deliveries failed; see `traveltimes delivered`

            """, "\(sent)")
        let ledger = try sandbox.store.ledger().entries.compactMap(\.reason)
        #expect(ledger.contains("Telegram: chat not found (400)"))
        for secret in ["badtoken", "123456:BAD", "BAD", "private-x"] { #expect(!sent.stderr.contains(secret), "\(secret)") }
    }

    @Test func aURLThatIsNotANotifierIsRefusedWithoutRepeatingIt() throws {
        let sandbox = Sandbox()
        for (url, reason) in [
            ("tgram://123456:SECRETTOKEN", "name the chat: tgram://BOT_TOKEN/CHAT_ID"),
            ("mailtos://user:SECRETPASS@smtp.example.com", "SMTP (mailto://, mailtos://) is not supported: write mailto:ADDRESS"),
            ("matrixs://user:SECRETPASS@example.com/#room", "matrix log-in with a password is not supported"),
            ("slack://xoxb-SECRETTOKEN/#general", "Slack bot tokens are not supported"),
            ("ntfys://ntfy.sh/a/b", "one topic per notifier"),
            ("pover://SECRETTOKEN", "pover://USER_KEY@APP_TOKEN"),
            ("ntfy://host/SECRET\u{1B}[2J", "a notifier URL is one line with no spaces"),
        ] {
            let outcome = try sandbox.run(["notify", "add", url])
            #expect(outcome.status == 64 && outcome.stderr.contains(reason), "\(url): \(outcome)")
            #expect(!outcome.stderr.contains("SECRET") && !outcome.stderr.contains("\u{1B}"), "\(outcome.stderr)")
        }
        // From standard input: out of argv.
        let added = try sandbox.run(["notify", "add", "-", "--name", "phone"], stdin: "ntfys://tk_SECRETTOKEN@ntfy.example.com/commute\n")
        #expect(added.status == 0 && added.stdout == "Added notifier 1: phone: ntfy https://ntfy.example.com/… (with credentials).\n", "\(added)")
        let taken = try sandbox.run(["notify", "add", "--force", "desktop", "--name", "phone"])
        #expect(taken.stderr == "traveltimes: A notifier named 'phone' already exists; pick another name or remove it with `traveltimes notify remove`\n")
    }

    /// An arrive-by morning: "arrive by 9:00" with a heads-up 15 minutes before leaving; the
    /// traffic moves the leave time from 8:21 to 8:14, then by a minute.
    func morning(_ sandbox: Sandbox) throws -> [String: String] {
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "15m", "--days", "weekdays", "--route", "1", "--now", "2025-11-05T07:00:00"])
        var said: [String: String] = [:]
        func tick(_ minute: String) throws {
            said[minute] = try sandbox.ok(["tick", "--now", "2025-11-05T\(minute):00"]).stdout
        }
        for minute in ["08:00", "08:05", "08:06", "08:07"] { try tick(minute) }
        let slower = try sandbox.feed("slower") { $0[1]?["CurrentTime"] = 41 }
        try sandbox.ok(["refresh", "--source", slower, "--now", "2025-11-05T08:08:00"])
        try tick("08:08")
        let slightly = try sandbox.feed("slightly") { $0[1]?["CurrentTime"] = 42 }
        try sandbox.ok(["refresh", "--source", slightly, "--now", "2025-11-05T08:09:00"])
        for minute in ["08:09", "08:10", "08:12", "08:13", "08:30", "08:59", "09:00", "09:01"] { try tick(minute) }
        return said
    }

    @Test func anArriveByMorningLeavesOneNotificationShowingTheFinalLeaveTimeClearedAfterTheArrival() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00"])
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/commute"])
        let said = try morning(sandbox)
        #expect(said.values.allSatisfy { $0.isEmpty }, "\(said)")
        let messages = try #require((try server.state()["ntfy"] as? [String: [[String: Any]]])?["commute"])
        #expect(messages.count == 1, "\(messages)")
        let final = try #require(messages.first)
        #expect(final["title"] as? String == "Leave now to arrive by 9:00 AM", "\(final)")
        #expect(final["cleared"] as? Bool == true && final["versions"] as? Int == 3, "\(final)")
        // Published, revised, replaced by the leave alert, cleared: each by the first message's ID.
        let requests = server.requests().filter { $0.path.hasPrefix("/commute") }
        let id = try #require(final["sequence"] as? String)
        #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /commute", "POST /commute/\(id)", "POST /commute/\(id)", "PUT /commute/\(id)/clear"])
        #expect(decodeTitle(requests[1].headers["Title"]) == "Leave at 8:14 AM — traffic got worse; was 8:21 AM")
        // The ledger says each step, with the key and the handle.
        let entries = try sandbox.store.ledger().entries.filter { $0.notifier == 1 }
        #expect(entries.map(\.lastAction) == ["sent", "updated", "sent", "cleared"], "\(entries)")
        #expect(Set(entries.compactMap(\.key)).count == 1 && entries.allSatisfy { $0.handle == id })
        let open = try sandbox.store.openAlerts().alerts
        #expect(open.isEmpty)
    }

    @Test(arguments: ["telegram", "discord", "matrix"])
    func theSameMorningOnAChatChannelEditsOneMessageAndLeavesItInTheChat(channel: String) throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00"])
        let url = ["telegram": "tgram://123456:GOOD/42", "discord": "discord://111/goodtoken", "matrix": "matrix://goodtoken@\(server.host)/#commute"]
        try sandbox.ok(["notify", "add", try #require(url[channel])])
        _ = try morning(sandbox)
        let state = try server.state()
        let held: [[String: Any]] = switch channel {
        case "telegram": (state["telegram"] as? [String: [[String: Any]]])?["42"] ?? []
        default: state[channel] as? [[String: Any]] ?? []
        }
        #expect(held.count == 1, "\(held)")
        let text = (held.first?["text"] ?? held.first?["content"] ?? held.first?["body"]) as? String
        #expect(text?.contains("Leave now to arrive by 9:00 AM") == true, "\(String(describing: text))")
        #expect(held.first?["edits"] as? Int == 2, "\(held)")
        // Nothing is taken out of the chat: the ledger says what was done, and no clear was tried.
        let actions = try sandbox.store.ledger().entries.filter { $0.notifier == 1 }.compactMap(\.lastAction)
        #expect(actions == ["sent", "updated", "sent"], "\(actions)")
    }

    @Test func theSameMorningOnStdoutSendsOnlyWhatMatters() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00"])
        try sandbox.ok(["favorites", "add", "1"])
        let said = try morning(sandbox)
        #expect(said["08:06"]?.hasPrefix("Leave in 15 min (8:21 AM) to arrive by 9:00 AM\n") == true, "\(said)")
        #expect(said["08:08"]?.hasPrefix("Leave at 8:14 AM — traffic got worse; was 8:21 AM\nLeave in 6 min (8:14 AM) to arrive by 9:00 AM\n") == true, "\(said)")
        #expect(said["08:13"]?.hasPrefix("Leave now to arrive by 9:00 AM\n") == true, "\(said)")
        // The minute's move, the minutes between, the arrival: nothing.
        let quiet = said.filter { !["08:06", "08:08", "08:13"].contains($0.key) }
        #expect(quiet.values.allSatisfy { $0.isEmpty }, "\(quiet)")
    }

    @Test func aRevisionInQuietHoursWaitsForThemToEnd() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00"])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["config", "set", "quiet-hours", "08:07-08:10"])
        let said = try morning(sandbox)
        #expect(said["08:08"]?.isEmpty == true && said["08:09"]?.isEmpty == true, "\(said)")
        #expect(said["08:10"]?.hasPrefix("Leave at 8:13 AM — traffic got worse; was 8:21 AM\n") == true, "\(said)")
        let held = try sandbox.store.ledger().entries.filter { $0.action == .unchanged }
        #expect(held.count == 1 && held.first?.reason?.hasPrefix("the leave time moved, in quiet hours (") == true, "\(held)")
    }

    @Test func theDesktopChangesItsNotificationInPlaceAndDeliveredClearClosesIt() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        let tools = try DesktopAndMail(sandbox)
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["notify", "add", "desktop"])
        try sandbox.ok(["notify", "test", "--delay", "0"])
        #expect(tools.read("notify-send.args").hasPrefix("--print-id --app-name=traveltimes --urgency=normal -- Test: Commute at 4:00 PM (Tue) Everett-Seattle: 34 min"))
        let shown = try sandbox.store.openAlerts().alerts
        #expect(shown.map(\.handle) == ["7"])
        let cleared = try sandbox.run(["delivered", "clear", "--all", "--yes"])
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("Dismissed 1 of 1 alerts still showing.\n"), "\(cleared)")
        #expect(tools.read("gdbus.args").hasSuffix("--method org.freedesktop.Notifications.CloseNotification 7\n"))
        let open = try sandbox.store.openAlerts().alerts
        #expect(open.isEmpty)
    }
}
