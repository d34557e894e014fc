@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// Pauses through the binary: a week around a holiday, one schedule, the cap's window, ticks that
/// send nothing on paused days, pruning, and a daylight-saving day.
@Suite(.ownThreads) struct PauseTests {
    /// The fixture, favorites 1 and 96, and the morning preset (weekdays at 7:00), planned on
    /// Monday 23 November 2026 at 6:00 in Los Angeles.
    func sandbox(_ environment: [String: String] = [:]) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(environment) { _, new in new }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2026-11-23T06:00:00"])
        try sandbox.ok(["favorites", "add", "1", "96"])
        try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", "2026-11-23T06:00:00"])
        // The sample feed is a year old by then: health alerts would rightly say so.
        return try sandbox.withoutHealthAlerts()
    }

    func fires(_ sandbox: Sandbox, _ now: String, deferred: Bool = false) throws -> [String] {
        let json = try #require(try sandbox.json(["pending", "--json", "--now", now]) as? [String: Any])
        return (json[deferred ? "deferred" : "requests"] as? [[String: Any]] ?? []).compactMap { $0["nextFire"] as? String }
    }

    @Test func aPausedHolidayIsNeitherPlannedNorSent() throws {
        let sandbox = try sandbox()
        let monday = "2026-11-23T06:00:00"
        let added = try sandbox.ok(["pause", "--from", "2026-11-26", "--until", "2026-11-27", "--reason", "Thanksgiving", "--now", monday])
        #expect(added.stdout == "Pause 1: all schedules, Thu, Nov 26 – Fri, Nov 27 (Thanksgiving).\n5 alerts scheduled (cap 64); paused days take no place.\n")
        #expect(try fires(sandbox, monday) == [
            "2026-11-23T07:00:00-08:00", "2026-11-24T07:00:00-08:00", "2026-11-25T07:00:00-08:00",
            "2026-12-03T07:00:00-08:00", "2026-12-04T07:00:00-08:00",
        ])
        let pending = try sandbox.ok(["pending", "--now", monday]).stdout
        #expect(pending.hasPrefix("5 alerts scheduled (cap 64); 0 deferred.\nPaused: all schedules, Thu, Nov 26 – Fri, Nov 27 (Thanksgiving).\n"))
        #expect(Whole.normal(try sandbox.ok(["status", "--now", monday]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated Tue, Nov 4, 2025, 4:00 PM (383 days ago, stale)
            Refreshed:  6:00 AM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   6:00 AM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  2
            Schedules:  1 (1 enabled)
            Paused:     all schedules, Thu, Nov 26 – Fri, Nov 27 (Thanksgiving)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 6:00 AM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        #expect(try sandbox.json(["pause", "list", "--json", "--now", monday]) as? NSArray == [
            ["number": 1, "from": "2026-11-26", "until": "2026-11-27", "scheduleID": NSNull(), "reason": "Thanksgiving"],
        ] as NSArray)

        // Every minute of the week, as cron runs it around each alert: Wednesday's is sent;
        // Thursday's and Friday's are not, and are not recorded as missed either.
        for day in ["2026-11-25", "2026-11-26", "2026-11-27"] {
            for minute in ["06:59", "07:00", "07:01", "07:11"] {
                try sandbox.ok(["tick", "--quiet", "--now", "\(day)T\(minute):00"])
            }
        }
        // (Monday's and Tuesday's went by untouched: the first tick, on Wednesday, records them missed.)
        let ledger = try sandbox.store.ledger().entries
        let days = Set(ledger.map { Calendar.losAngeles.component(.day, from: $0.occurrence) })
        #expect(days == [23, 24, 25], "\(ledger)")
        #expect(ledger.contains { Calendar.losAngeles.component(.day, from: $0.occurrence) == 25 && $0.outcome == .delivered })
        // The Monday after is sent as usual.
        let after = try sandbox.run(["tick", "--now", "2026-11-30T07:00:00"])
        #expect(after.stdout == """
            Commute at 7:00 AM (Weekdays)\u{A}Everett-Seattle: 34 min (-11 min, CLEAR)\u{A}Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)\u{A}Data is 390 days old (updated Tue, Nov 4, 2025, 4:00 PM)\u{A}\u{A}
            """)
    }

    @Test func pausedDaysTakeNoPlaceUnderTheCapAndOneScheduleCanBePaused() throws {
        let sandbox = try sandbox(["TRAVELTIMES_CAP": "3"])
        let wednesday = "2026-11-25T08:00:00"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", wednesday])
        #expect(try fires(sandbox, wednesday) == ["2026-11-26T07:00:00-08:00", "2026-11-27T07:00:00-08:00", "2026-11-30T07:00:00-08:00"])
        try sandbox.ok(["pause", "--until", "2026-11-27", "--now", wednesday])
        // The window reaches further: three alerts after the pause, none deferred to make room.
        #expect(try fires(sandbox, wednesday) == ["2026-11-30T07:00:00-08:00", "2026-12-01T07:00:00-08:00", "2026-12-02T07:00:00-08:00"])
        #expect(try fires(sandbox, wednesday, deferred: true) == ["2026-12-03T07:00:00-08:00", "2026-12-04T07:00:00-08:00"])

        // One schedule: the other is not held back.
        try sandbox.ok(["pause", "clear", "--yes", "--now", wednesday])
        try sandbox.ok(["schedule", "add", "--at", "17:00", "--days", "thu", "--route", "96", "--now", wednesday])
        let evening = try #require(try sandbox.scheduleIDs().last)
        let one = try sandbox.ok(["pause", "--from", "2026-11-26", "--until", "2026-11-26", "--schedule", String(evening.prefix(6)), "--now", wednesday])
        #expect(one.stdout.hasPrefix("Pause 1: schedule \(evening.prefix(8)) (5:00 PM on Thu), Thu, Nov 26.\n"), "\(one)")
        let all = try fires(sandbox, wednesday) + (try fires(sandbox, wednesday, deferred: true))
        #expect(all.contains("2026-11-26T07:00:00-08:00") && !all.contains("2026-11-26T17:00:00-08:00") && all.contains("2026-12-03T17:00:00-08:00"))
        // Removing the schedule takes its pause with it.
        try sandbox.ok(["schedule", "remove", evening, "--yes", "--now", wednesday])
        #expect(try sandbox.store.schedules().pauses == nil)
    }

    @Test func endedPausesArePrunedAndBadInputChangesNothing() throws {
        let sandbox = try sandbox()
        let monday = "2026-11-23T06:00:00"
        try sandbox.ok(["pause", "--until", "tomorrow", "--now", monday])
        #expect(try sandbox.ok(["pause", "list", "--now", monday]).stdout == "1  all schedules, Mon, Nov 23 – Tue, Nov 24\n")
        // Once it has ended it is not listed, and the next change drops it from the file.
        #expect(try sandbox.ok(["pause", "list", "--now", "2026-11-25T06:00:00"]).stdout
            == "No pauses: `traveltimes pause --until DATE` holds alerts back for some days.\n")
        try sandbox.ok(["pause", "--from", "2026-12-24", "--until", "2027-01-01", "--reason", "holidays", "--now", "2026-11-25T06:00:00"])
        let stored = try #require(try sandbox.store.schedules().pauses)
        #expect(stored.map(\.number) == [1] && stored.first?.until == CivilDate(year: 2027, month: 1, day: 1))
        #expect(try sandbox.ok(["pause", "list", "--now", "2026-11-25T06:00:00"]).stdout == "1  all schedules, Thu, Dec 24 – Fri, Jan 1, 2027 (holidays)\n")

        let before = sandbox.bytes("schedules.json")
        for (arguments, message) in [
            (["pause"], "Missing --until DATE"),
            (["pause", "--until", "2026-13-01"], "Invalid --until '2026-13-01'"),
            (["pause", "--until", "2026-11-20"], "--until 2026-11-20 has passed"),
            (["pause", "--from", "2026-12-02", "--until", "2026-12-01"], "The pause ends (2026-12-01) before it starts (2026-12-02)"),
            (["pause", "--until", "2029-01-01"], "A pause is at most 731 days"),
            (["pause", "--until", "tomorrow", "--reason", "a\u{1B}[2Jb"], "Invalid --reason"),
            (["pause", "--until", "tomorrow", "--schedule", "ffffffff"], "No schedule ID starts with 'ffffffff'"),
            (["pause", "remove", "9"], "No pause is numbered '9'"),
            (["pause", "remove", "x1"], "No pause is numbered 'x1'"),
        ] {
            let outcome = try sandbox.run(arguments + ["--now", "2026-11-25T06:00:00"])
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(arguments): \(outcome)")
        }
        #expect(sandbox.bytes("schedules.json") == before)
        #expect(try sandbox.ok(["pause", "clear", "--yes", "--now", monday]).stdout == "Removed 1 pause; 5 alerts scheduled (cap 64).\n")
    }

    @Test func aPausedDaylightSavingDayIsPassedOverByTheWallClock() throws {
        // 1 November 2026: Los Angeles falls back at 2:00. A daily 1:30 alert paused that day
        // fires next at 1:30 on the 2nd, in standard time; the day before keeps its summer offset.
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2026-10-30T12:00:00"])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "1:30", "--days", "daily", "--now", "2026-10-30T12:00:00"])
        try sandbox.ok(["pause", "--from", "2026-11-01", "--until", "2026-11-01", "--now", "2026-10-30T12:00:00"])
        let planned = try fires(sandbox, "2026-10-30T12:00:00")
        #expect(Array(planned.prefix(3)) == ["2026-10-31T01:30:00-07:00", "2026-11-02T01:30:00-08:00", "2026-11-03T01:30:00-08:00"])
        #expect(!planned.contains { $0.hasPrefix("2026-11-01") })
    }
}

extension Calendar {
    /// The Gregorian calendar in Los Angeles, for reading test dates back.
    static var losAngeles: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles") ?? .current
        return calendar
    }
}
