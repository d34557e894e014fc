@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Transit feeds and files that push back (issue 34: bombs, deadlines, secrets in URLs), one at a
/// time through the built binary; peak memory measured with GNU time where the point is memory.
@Suite(.serialized, .ownThreads) struct HostileFeedTests {
    /// The inputs of `transit_hostile.py`, made once for the suite.
    static let inputs: String = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
        _ = try? execute(["python3", Paths.root.appendingPathComponent("Tests/Support/transit_hostile.py").path, out], environment: ["PATH": "/usr/bin:/bin"])
        return out
    }()

    static func input(_ name: String) -> String { "\(inputs)/\(name)" }

    /// Runs the binary under GNU time; returns the outcome and its peak memory in MiB.
    func measured(_ sandbox: Sandbox, _ arguments: [String]) throws -> (Outcome, Double) {
        let report = sandbox.home + "-time-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let outcome = try sandbox.run(arguments, wrapper: ["/usr/bin/time", "-o", report, "-f", "%M"])
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kilobytes = try #require(Double(text.split(separator: "\n").last.map(String.init) ?? ""), "\(text)")
        return (outcome, kilobytes / 1_024)
    }

    static let morning = "2030-01-15T07:00:00-08:00"

    /// 2,000 trips running every minute for two days, in a 21 KB zip: the route is added in bounded
    /// memory, its runs made only inside the window, and it says how far its departures go.
    @Test(ExternalTool.gnuTime.needed) func aFrequencyBombCostsWhatTheWindowHolds() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "x", "--static", Self.input("freqbomb.zip"), "--now", Self.morning])
        let (added, peak) = try measured(sandbox, ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--walk", "5m", "--now", Self.morning])
        #expect(added.status == 0 && added.stdout.hasSuffix("\nNext: 1 to Bee: 7:05 AM, then 7:05 AM, 7:05 AM; walk 5 min: leave by 7:00 AM; timetable times, no live data\n"), "\(added)")
        #expect(peak < 100, "route add peaked at \(peak) MiB")
        let (refresh, refreshPeak) = try measured(sandbox, ["refresh", "--now", Self.morning])
        #expect(refresh.status == 0 && refreshPeak < 100, "\(refresh) \(refreshPeak) MiB")
        // The plan's departures cover a few minutes only, and it says so; a moment past them is
        // answered from the timetable for that moment.
        let plan = try #require(try sandbox.store.transitState().routes.first?.transit)
        #expect(plan.departures.count == Route.Transit.largestDepartureCount)
        let later = try sandbox.ok(["route", "r", "--now", "2030-01-15T07:10:00-08:00"]).stdout
        #expect(later == """
            Alder St → Birch St (1) (route r)
              From:     Alder St (stop A)
              To:       Birch St (stop B)
              Source:   transit feed x, any line
              Next:     1 to Bee: 7:15 AM, then 7:15 AM, 7:15 AM; walk 5 min: leave by 7:10 AM; timetable times, no live data
              Trip:     15 min (walk 5 min, then the ride; timetable 15 min)
              Delay:    unknown: timetable times, no live data
              Arrive:   7:25 AM if you leave now
              Updated:  7:10 AM (0 min ago)
              Schedules: none

            """, "\(later)")
    }

    /// Two million trips in trips.txt, one of them at the stops: streamed, not held.
    @Test(ExternalTool.gnuTime.needed) func twoMillionTripsAreStreamed() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "x", "--static", Self.input("bigtrips.zip"), "--now", Self.morning])
        let (added, peak) = try measured(sandbox, ["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--now", Self.morning])
        #expect(added.status == 0 && added.stdout == """
            Added route r: Alder St → Birch St (1).\u{A}Next: 1 to Bee: 8:00 AM, then Wed, Jan 16, 8:00 AM; leave by 8:00 AM; timetable times, no live data\u{A}
            """, "\(added)")
        #expect(peak < 100, "route add peaked at \(peak) MiB")
    }

    /// A bus every minute and a five-minute walk: the departures kept are a window of time, and
    /// the next one after the walk is there.
    @Test func aBusEveryMinuteIsStillFoundAfterTheWalk() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "x", "--static", Self.input("everyminute.zip"), "--now", Self.morning])
        let added = try sandbox.ok(["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--walk", "5m", "--now", Self.morning]).stdout
        #expect(added.hasSuffix("\nNext: 1 to Bee: 7:05 AM, then 7:06 AM, 7:07 AM; walk 5 min: leave by 7:00 AM; timetable times, no live data\n"), "\(added)")
        let evening = try sandbox.ok(["route", "r", "--now", "2030-01-15T22:30:00-08:00"]).stdout
        #expect(evening == """
            Alder St → Birch St (1) (route r)
              From:     Alder St (stop A)
              To:       Birch St (stop B)
              Source:   transit feed x, any line
              Next:     1 to Bee: 10:35 PM, then 10:36 PM, 10:37 PM; walk 5 min: leave by 10:30 PM; timetable times, no live data
              Trip:     17 min (walk 5 min, then the ride; timetable 17 min)
              Delay:    unknown: timetable times, no live data
              Arrive:   10:47 PM if you leave now
              Updated:  7:00 AM (15 h ago)
              Schedules: none

            """, "\(evening)")
    }

    /// 32 MB of empty stop-time updates for one trip: the realtime refresh stays bounded.
    @Test(ExternalTool.gnuTime.needed) func aStopTimeUpdateBombIsBounded() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", Self.input("stubomb.pb"), "--now", Self.morning])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", Self.morning])
        let (refresh, peak) = try measured(sandbox, ["refresh", "--now", "2030-01-15T07:16:00-08:00"])
        #expect(refresh.status == 0 && peak < 100, "\(refresh) \(peak) MiB")
    }

    /// Three feeds whose realtime and alerts never answer: one --timeout for all of them.
    @Test func timeoutIsOneDeadlineForEveryTransitFile() throws {
        let server = try TransitServer()
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        let sandbox = Sandbox(runner: .binary)
        for name in ["one", "two", "three"] {
            try sandbox.ok(["transit", "add", name, "--static", server.url("gtfs.zip"), "--realtime", server.url("silent/rt.pb"),
                "--alerts", server.url("silent/alerts.pb"), "--now", Self.morning])
        }
        let started = Date()
        let refresh = try sandbox.run(["refresh", "--timeout", "2", "--now", "2030-01-15T07:05:00-08:00"])
        let took = Date().timeIntervalSince(started)
        #expect(refresh.status == 75 && took < 6, "took \(took) s: \(refresh)")
        #expect(Whole.normal(refresh.stderr) == """
            traveltimes: warning: one's service alerts was not fetched: the refresh's --timeout ran out first
            traveltimes: warning: one's realtime feed (http://127.0.0.1:PORT/…): timed out after 2.0 s
            traveltimes: warning: two's service alerts was not fetched: the refresh's --timeout ran out first
            traveltimes: warning: two's realtime feed was not fetched: the refresh's --timeout ran out first
            traveltimes: warning: three's service alerts was not fetched: the refresh's --timeout ran out first
            traveltimes: warning: three's realtime feed was not fetched: the refresh's --timeout ran out first
            traveltimes: transit feeds one, two, three not fully refreshed (see the warnings); what was there is kept

            """, "\(refresh)")
    }

    /// Characters that show as nothing, in stop names and headsigns, never reach the terminal.
    @Test func invisibleCharactersNeverReachTheTerminal() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "x", "--static", Self.input("invisible.zip"), "--now", Self.morning])
        let outputs = [
            try sandbox.ok(["transit", "stops", "x", "--search", "alder"]).stdout,
            try sandbox.ok(["route", "add", "r", "--transit", "x", "--from-stop", "A", "--to-stop", "B", "--now", Self.morning]).stdout,
            try sandbox.ok(["route", "r", "--now", Self.morning]).stdout,
        ]
        for output in outputs {
            let hidden = output.unicodeScalars.filter { [0x3164, 0x2800, 0x115F, 0x034F, 0x200B].contains($0.value) }
            #expect(hidden.isEmpty && output.contains("Alder\u{FFFD}"), "\(output)")
        }
        for scalar: Unicode.Scalar in ["\u{3164}", "\u{2800}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{034F}", "\u{FE0F}", "\u{180E}"] {
            #expect(DisplayText.isHidden(scalar), "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// A key in the path of a transit URL is never shown, nor kept outside config.json.
    @Test func aKeyInATransitURLPathStaysSecret() throws {
        let server = try TransitServer()
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        let sandbox = Sandbox(runner: .binary)
        let added = try sandbox.ok(["transit", "add", "metro", "--static", server.url("SEKRITPATHKEY/gtfs.zip"),
            "--realtime", server.url("SEKRITPATHKEY/missing.pb"), "--now", Self.morning])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", Self.morning])
        let refresh = try sandbox.run(["refresh", "--now", "2030-01-15T07:05:00-08:00"])
        #expect(refresh.status == 75 && Whole.normal(refresh.stderr) == """
            traveltimes: warning: metro's realtime feed (http://127.0.0.1:PORT/…): the server answered HTTP 404
            traveltimes: transit feed metro not fully refreshed (see the warnings); what was there is kept

            """, "\(refresh)")
        var said = added.stdout + added.stderr + refresh.stdout + refresh.stderr
        for command in [["transit", "list"], ["transit", "list", "--json"], ["status"], ["status", "--json"], ["route", "bus"], ["doctor"]] {
            let outcome = try sandbox.run(command + ["--now", "2030-01-15T07:05:00-08:00"])
            said += outcome.stdout + outcome.stderr
        }
        #expect(!said.contains("SEKRITPATHKEY") && said.contains("http://127.0.0.1:"), "\(said)")
        for file in ["transit.json", "refresh.json"] {
            #expect(!(String(data: sandbox.bytes(file) ?? Data(), encoding: .utf8) ?? "").contains("SEKRITPATHKEY"), "\(file)")
        }
        #expect((String(data: sandbox.bytes("config.json") ?? Data(), encoding: .utf8) ?? "").contains("SEKRITPATHKEY"))
    }
}

/// A program that hangs waits out its timeout: kept apart from the serialized suite above, so its
/// 30 seconds run beside the other tests rather than after them.
@Suite(.ownThreads) struct HangingProgramTests {
    /// sendmail that hangs and leaves a child: at its timeout both are ended.
    @Test func aSendmailThatHangsLeavesNoChildBehind() throws {
        let sandbox = try Sandbox(runner: .binary).prepared().withoutHealthAlerts()
        let tools = sandbox.home + "-mailtools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let pidFile = tools + "/child.pid"
        try Sandbox.write(tools + "/sendmail", Data("#!/bin/sh\nsleep 300 &\necho $! > \(pidFile)\nsleep 300\n".utf8))
        chmod(tools + "/sendmail", 0o755)
        try sandbox.ok(["notify", "add", "mailto:ada@example.com"], environment: ["PATH": tools + ":/usr/bin:/bin"])
        let tick = try sandbox.run(["tick", "--now", "2025-11-05T07:00:00-08:00"], environment: ["PATH": tools + ":/usr/bin:/bin"])
        #expect(tick.status == 1 && Whole.normal(tick.stderr) == """
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.4: sendmail did not finish within 30 s; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """, "\(tick)")
        let child = try #require(pid_t((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(200_000)
        // Gone, or a zombie waiting to be reaped: not running.
        let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
        #expect(state == nil || state == "Z", "sendmail's child \(child) still runs (\(state ?? ""))")
    }
}
