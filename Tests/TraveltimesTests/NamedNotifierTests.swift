@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// ntfy's title header as sent (RFC 2047 when not ASCII).
func decodeTitle(_ header: String?) -> String? {
    guard let header, header.hasPrefix("=?UTF-8?B?"), header.hasSuffix("?=") else { return header }
    return Data(base64Encoded: String(header.dropFirst(10).dropLast(2))).map { String(decoding: $0, as: UTF8.self) }
}

@Suite(.ownThreads) struct NamedNotifierTests {
    @Test func aScheduleAndAWatchSendOnlyToTheNotifiersTheyNameAndCleardReplacesOver() throws {
        let server = try ChannelServer()
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T06:00:00"])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/phone", "--name", "phone"])
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/desk", "--name", "desk"])
        let unknown = try sandbox.run(["schedule", "add", "--at", "7:00", "--notify", "pager"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: No notifier is named 'pager'; see `traveltimes notify list`\n", "\(unknown)")
        let added = try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "weekdays", "--notify", "desk", "--now", "2025-11-05T06:00:00"])
        #expect(Whole.normal(added.stdout) == """
            Added schedule $ID: 7:00 AM on Weekdays, 1 route (Everett-Seattle), to desk; next alert Wed, Nov 5, 7:00 AM.
            Schedules are in America/Los_Angeles from now on, whatever TZ cron runs with (change it with `traveltimes config set timezone ZONE`).

            """, "\(added)")
        try sandbox.ok(["tick", "--now", "2025-11-05T07:00:00"])
        var state = try #require(try server.state()["ntfy"] as? [String: [[String: Any]]])
        #expect(state["desk"]?.count == 1 && state["phone"] == nil, "\(state)")
        // `all` sends to every notifier again.
        let listed = try #require(try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])
        #expect(listed.first?["notify"] as? [String] == ["desk"])
        let id = try #require(listed.first?["id"] as? String)
        try sandbox.ok(["schedule", "edit", String(id.prefix(8)), "--notify", "all"])
        let edited = try #require(try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])
        #expect(edited.first?["notify"] is NSNull)
        let bad = try sandbox.run(["schedule", "edit", String(id.prefix(8)), "--notify", "desk,\u{1B}[2J"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --notify 'desk,�[2J': give notifier names (notify add --name), comma-separated, or all.\n" && !bad.stderr.contains("\u{1B}"), "\(bad)")

        // A watch to the phone alone: its "cleared" takes the place of its "over".
        try sandbox.ok(["watch", "add", "1", "--over", "10", "--notify", "phone"])
        let jammed = try sandbox.feed("jammed") { $0[1]?["CurrentTime"] = 70 }
        try sandbox.ok(["refresh", "--source", jammed, "--now", "2025-11-05T07:30:00"])
        let clear = try sandbox.feed("clear") { $0[1]?["CurrentTime"] = 40 }
        try sandbox.ok(["refresh", "--source", clear, "--now", "2025-11-05T08:00:00"])
        state = try #require(try server.state()["ntfy"] as? [String: [[String: Any]]])
        let phone = try #require(state["phone"])
        #expect(phone.count == 1 && state["desk"]?.count == 1, "\(state)")
        #expect((phone.first?["title"] as? String)?.hasPrefix("Everett-Seattle has cleared: 40 min") == true, "\(phone)")
        #expect(phone.first?["versions"] as? Int == 2)
    }

    @Test func aHealthAlertsMendedTakesItsPlace() throws {
        let feed = try FeedServer()
        let server = try ChannelServer()
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "18:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "ntfy://\(server.host)/health"])
        for minute in ["16:10", "16:40", "17:10"] {
            _ = try sandbox.run(["refresh", "--quiet", "--source", feed.url("/unauthorized"), "--now", "2025-11-04T" + minute])
            try sandbox.ok(["tick", "--now", "2025-11-04T" + minute])
        }
        try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-04T17:25"])
        try sandbox.ok(["tick", "--now", "2025-11-04T17:26"])
        let held = try #require((try server.state()["ntfy"] as? [String: [[String: Any]]])?["health"])
        #expect(held.count == 1 && held.first?["title"] as? String == "Alerts are current again" && held.first?["versions"] as? Int == 2, "\(held)")
    }
}
