@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Servers that push back (issue 34, channels and alerts), each through the built binary against
/// the loopback stand-in: numbers no arithmetic may trust, slow and dying ticks, targets that fail
/// one by one, refusals that quote a secret, URLs that decode to line breaks.
@Suite(.serialized, .ownThreads) struct HostileServerTests {
    /// The fixture, favorites, health alerts off, and the stand-in in place of every service.
    func sandbox(_ server: ChannelServer, favorites: [String] = ["1"]) throws -> Sandbox {
        let sandbox = try Sandbox(runner: .binary).withoutHealthAlerts()
        sandbox.environment.merge(server.environment) { _, new in new }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add"] + favorites)
        return sandbox
    }

    func ledger(_ sandbox: Sandbox) throws -> [DeliveryLedger.Entry] { try sandbox.store.ledger().entries }

    /// A 429 asking for 2^63 s, 1e20 s, 1e300 s or 1e30 ms: no crash, one line, and the next
    /// notifier still gets the alert.
    @Test func anEndlessRetryAfterIsClampedNeverTrapped() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        for url in ["ntfy://\(server.host)/hugewait", "tgram://123456:GOOD/4291", "discord://333/goodtoken", "matrix://goodtoken@\(server.host)/#hugewait"] {
            try sandbox.ok(["notify", "add", url])
        }
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/after"])
        let test = try sandbox.run(["notify", "test", "--delay", "0"])
        #expect(test.status == 1, "\(test)")
        for service in ["ntfy", "Telegram", "Discord", "Matrix"] {
            #expect(Whole.normal(test.stderr) == """
                Sent "Test: Commute at 4:00 PM (Tue)" to 1 of 5 notifiers (ntfy http://127.0.0.1:PORT/…). Failed: 4.
                traveltimes: failed: ntfy http://127.0.0.1:PORT/…: ntfy: rate limited (429); retry after 86400 s
                traveltimes: failed: telegram (1 chat): Telegram: rate limited (429); retry after 86400 s
                traveltimes: failed: discord webhook: Discord: rate limited (429); retry after 86400 s
                traveltimes: failed: matrix http://127.0.0.1:PORT: Matrix: rate limited (429); retry after 86400 s
                traveltimes: 4 deliveries failed; see `traveltimes delivered`

                """, "\(service): \(test)")
        }
        #expect((try server.state()["ntfy"] as? [String: [Any]])?["after"]?.count == 1)
        // A scheduled alert: the tick records each failure, and the next one tries again.
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        for minute in ["16:30", "16:31"] {
            let tick = try sandbox.run(["tick", "--now", "2025-11-04T\(minute):00-08:00"])
            #expect(tick.status == 1 && Whole.normal(tick.stderr) == """
                traveltimes: notifier 1 failed for schedule.$UUID.weekday.3: ntfy: rate limited (429); retry after 86400 s; retrying while the grace window lasts
                traveltimes: notifier 2 failed for schedule.$UUID.weekday.3: Telegram: rate limited (429); retry after 86400 s; retrying while the grace window lasts
                traveltimes: notifier 3 failed for schedule.$UUID.weekday.3: Discord: rate limited (429); retry after 86400 s; retrying while the grace window lasts
                traveltimes: notifier 4 failed for schedule.$UUID.weekday.3: Matrix: rate limited (429); retry after 86400 s; retrying while the grace window lasts
                traveltimes: 4 deliveries failed; see `traveltimes delivered`

                """, "\(tick)")
        }
        let failed = try ledger(sandbox).filter { $0.alert.kind == .schedule && $0.outcome == .failed }
        #expect(failed.map(\.attempts) == [1, 1, 1, 1, 2, 2, 2, 2], "\(failed)")
    }

    /// Four alerts through an ntfy server that answers each after a second, a tick that may send
    /// for 2 s, and another tick started meanwhile, three minutes on by its clock: nothing is sent
    /// twice, each result is in the ledger as soon as it is known, and what the slow tick could
    /// not send goes with the next.
    @Test func aSlowTickIsNeverRepeatedAndStopsAtItsDeadline() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server, favorites: ["1", "96", "4", "70"])
        for route in ["1", "96", "4", "70"] {
            try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "weekdays", "--route", route, "--now", Paths.capturedAt])
        }
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/slow"])
        let slow = try sandbox.start(["tick", "--now", "2025-11-05T07:00:00-08:00"], environment: ["TRAVELTIMES_TICK_DEADLINE": "2"])
        usleep(1_500_000)
        // One sent and recorded already, while the tick goes on.
        #expect(try ledger(sandbox).count(where: { $0.outcome == .delivered }) == 1)
        let beside = try sandbox.run(["tick", "--now", "2025-11-05T07:03:00-08:00"])
        #expect(beside.status == 0 && beside.stdout.isEmpty && beside.stderr.isEmpty, "\(beside)")
        let first = try slow.wait()
        #expect(first.status == 1 && Whole.normal(first.stderr) == """
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.4: not sent: this tick's 2 s ran out; the next tick sends it; retrying while the grace window lasts
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.4: not sent: this tick's 2 s ran out; the next tick sends it; retrying while the grace window lasts
            traveltimes: 2 deliveries failed; see `traveltimes delivered`

            """, "\(first)")
        let entries = try ledger(sandbox)
        #expect(entries.count(where: { $0.outcome == .delivered }) == 2 && entries.count(where: { $0.outcome == .failed }) == 2, "\(entries)")
        try sandbox.ok(["tick", "--now", "2025-11-05T07:04:00-08:00"])
        let held = try #require((try server.state()["ntfy"] as? [String: [[String: Any]]])?["slow"])
        #expect(held.count == 4 && held.allSatisfy { $0["versions"] as? Int == 1 }, "\(held)")
        let final = try ledger(sandbox).filter { $0.alert.kind == .schedule }
        #expect(final.map(\.outcome.rawValue) == ["delivered", "delivered", "failed", "failed", "delivered", "delivered"] && final.allSatisfy { $0.claimant == nil }, "\(final)")
    }

    /// Chat 42 takes the alert, chat 9999 does not exist: retries go to 9999 alone.
    @Test func aURLWithSeveralChatsRetriesOnlyTheChatsThatFailed() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "weekdays", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "tgram://123456:GOOD/42/9999"])
        for minute in ["00", "01", "02", "03", "04"] {
            let tick = try sandbox.run(["tick", "--now", "2025-11-05T07:\(minute):00-08:00"])
            #expect(tick.status == 1 && Whole.normal(tick.stderr) == """
                traveltimes: notifier 1 failed for schedule.$UUID.weekday.4: Telegram: chat not found (400); retrying while the grace window lasts
                traveltimes: 1 delivery failed; see `traveltimes delivered`

                """, "\(tick)")
        }
        let chat = try #require((try server.state()["telegram"] as? [String: [[String: Any]]])?["42"])
        #expect(chat.count == 1, "\(chat)")
        let sends = server.requests().filter { $0.path.hasSuffix("/sendMessage") }
        #expect(sends.filter { $0.body.contains("\"chat_id\":\"42\"") }.count == 1)
        #expect(sends.filter { $0.body.contains("\"chat_id\":\"9999\"") }.count == 5)
    }

    /// ntfy took the alert, and the tick was killed before it heard back: the next tick's resend
    /// changes the same notification (the sequence ID was chosen before sending), never a second.
    @Test func aResendAfterACrashChangesTheSameNotification() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "weekdays", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/accepthang"])
        let dying = try sandbox.start(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? server.state()["ntfy"] as? [String: [Any]])?["accepthang"]?.count != 1 { usleep(20_000) }
        kill(dying.process.processIdentifier, SIGKILL)
        _ = try dying.wait()
        try sandbox.ok(["tick", "--now", "2025-11-05T07:01:00-08:00"])
        let held = try #require((try server.state()["ntfy"] as? [String: [[String: Any]]])?["accepthang"])
        #expect(held.count == 1 && held.first?["versions"] as? Int == 2, "\(held)")
        let posts = server.requests().filter { $0.method == "POST" && $0.path == "/accepthang" }
        #expect(posts.count == 2 && Set(posts.compactMap { $0.headers["X-Sequence-ID"] }).count == 1, "\(posts.map(\.headers))")
    }

    /// Two ticks at once, a heads-up's leave time moved: one revision goes out, not two.
    @Test func aRevisionIsClaimedLikeAFirstSend() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        let log = sandbox.path("revisions.log")
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "15m", "--days", "weekdays", "--route", "1", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_TITLE\" >> \(log); sleep 0.5"])
        // The heads-up goes at 8:06 for a leave at 8:21 (34 min, 5 to spare).
        try sandbox.ok(["tick", "--now", "2025-11-05T08:06:00-08:00"])
        // Then the traffic eases: 26 minutes, a leave at 8:29.
        let eased = sandbox.home + "-eased.json"
        let text = try String(contentsOfFile: Paths.fixture, encoding: .utf8)
            .replacingOccurrences(of: "1762300800000", with: "1762358700000")
            .replacingOccurrences(of: "\"CurrentTime\":34,\"TravelTimeID\":1,", with: "\"CurrentTime\":26,\"TravelTimeID\":1,")
        try Sandbox.write(eased, Data(text.utf8))
        try sandbox.ok(["refresh", "--quiet", "--source", eased, "--now", "2025-11-05T08:07:00-08:00"])
        let ticks = try (0..<2).map { _ in try sandbox.start(["tick", "--now", "2025-11-05T08:08:00-08:00"]) }
        for tick in ticks { _ = try tick.wait() }
        let said = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(said == ["Leave in 15 min (8:21 AM) to arrive by 9:00 AM", "Leave at 8:29 AM — traffic eased; was 8:21 AM"], "\(said)")
    }

    /// A tick killed mid-send, and the next one past the grace window: the claim ends in the
    /// ledger as missed, with why.
    @Test func aClaimLeftByADeadTickEndsInTheLedger() throws {
        let sandbox = try Sandbox(runner: .binary).prepared().withoutHealthAlerts()
        let marker = sandbox.path("marker")
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo $$ > \(marker); sleep 30"])
        let dying = try sandbox.start(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        let deadline = Date().addingTimeInterval(10)
        var hung: pid_t?
        while hung == nil, Date() < deadline {
            usleep(20_000)
            hung = (try? String(contentsOfFile: marker, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        kill(dying.process.processIdentifier, SIGKILL)
        _ = try dying.wait()
        if let hung { kill(-hung, SIGKILL) }
        let late = try sandbox.run(["tick", "--now", "2025-11-05T07:15:00-08:00"])
        #expect(late.status == 0, "\(late)")
        let entry = try #require(try ledger(sandbox).last)
        #expect(entry.outcome == .missed && entry.reason == "the tick sending it died, and then 15 min late, past the 10 min grace window", "\(entry)")
        let listed = try sandbox.ok(["delivered", "--all", "--now", "2025-11-05T07:15:00-08:00"]).stdout
        #expect(listed.contains("missed") && !listed.contains("Nothing delivered yet"), "\(listed)")
    }

    /// A delay-watch alert whose first send fails is sent again by the next refresh while the
    /// route stays over, and the refresh that failed says so with 75.
    @Test func aWatchAlertThatFailedIsSentAgain() throws {
        let sandbox = try Sandbox(runner: .binary).prepared().withoutHealthAlerts()
        let marker = sandbox.path("marker")
        let log = sandbox.path("watch.log")
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "if [ ! -e \(marker) ]; then touch \(marker); exit 1; fi; echo \"$TRAVELTIMES_TITLE\" >> \(log)"])
        try sandbox.ok(["watch", "add", "70", "--over", "10"])
        let first = try sandbox.run(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00-08:00"])
        #expect(first.status == 75 && first.stderr.hasSuffix("traveltimes: a watch alert could not be sent; the next refresh sends it again\n"), "\(first)")
        let second = try sandbox.run(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:15:00-08:00"])
        #expect(second.status == 0, "\(second)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "Renton-Auburn is running +11 min (usually 24)\n")
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:30:00-08:00"])
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "Renton-Auburn is running +11 min (usually 24)\n")
    }

    /// A server's refusal that quotes the key in the URL: redacted wherever it is said or kept.
    @Test func aRefusalThatQuotesTheKeyIsRedacted() throws {
        let server = try ChannelServer()
        let sandbox = try sandbox(server)
        let added = try sandbox.run(["notify", "add", "-"], stdin: "json://\(server.host)/refuse?-apikey=SEKRITKEY123&-lang=en\n")
        #expect(added.status == 0, "\(added)")
        let test = try sandbox.run(["notify", "test", "--delay", "0"])
        #expect(test.status == 1 && Whole.normal(test.stderr) == """
            Sent "Test: Commute at 4:00 PM (Tue)" to 0 of 1 notifiers. Failed: 1.
            traveltimes: failed: json http://127.0.0.1:PORT/…: JSON endpoint: invalid api key REDACTED (401)
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """, "\(test)")
        #expect(!test.stderr.contains("SEKRITKEY123"))
        let delivered = try sandbox.ok(["delivered", "--all", "--json"]).stdout + (try sandbox.ok(["delivered", "--all"]).stdout)
        #expect(!delivered.contains("SEKRITKEY123") && delivered == """
            [
              {
                "action" : "failed",
                "at" : "2025-11-04T16:00:00-08:00",
                "attempts" : 1,
                "handle" : null,
                "key" : "test.1762300800@2025-11-05T00:00:00Z",
                "leave" : null,
                "notifier" : 1,
                "occurrence" : "2025-11-04T16:00:00-08:00",
                "outcome" : "failed",
                "reason" : "JSON endpoint: invalid api key REDACTED (401)",
                "requestID" : "test.1762300800"
              }
            ]
            DUE                  OUTCOME  ALERT            NOTIFIER  NOTE
            Tue, Nov 4, 4:00 PM  failed   test.1762300800  1         JSON endpoint: invalid api key REDACTED (401)

            """, "\(delivered)")
        #expect(!(String(data: sandbox.bytes("delivered.json") ?? Data(), encoding: .utf8) ?? "").contains("SEKRITKEY123"))
    }

    /// A token, a tag or a click URL that decodes to a line break is refused when it is added.
    @Test func aURLThatDecodesToALineBreakIsRefused() throws {
        let sandbox = Sandbox(runner: .binary)
        for url in [
            "gotify://gotify.example.com/tok%0D%0AX-Evil:%201", "ntfys://ntfy.sh/topic?tags=car%0D%0AX-Evil:1",
            "ntfys://ntfy.sh/topic?click=https://x.example%0AX-Evil:1", "tgram://123456:GOOD/42?silent=no%0D",
        ] {
            let outcome = try sandbox.run(["notify", "add", url])
            #expect(outcome == Outcome(status: 64, stdout: "", stderr: """
                traveltimes: Cannot add that URL: a part of the URL decodes to a control character (such as a line break): write it without one. See 'traveltimes notify add --help'.

                """), "\(url): \(outcome)")
        }
        #expect(sandbox.bytes("config.json") == nil)
    }
}
