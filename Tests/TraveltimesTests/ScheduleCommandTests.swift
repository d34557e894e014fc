@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing
@_spi(Store) import CommuteStore

@Suite(.ownThreads) struct ScheduleCommandTests {
    let now = Paths.capturedAt

    @Test func addAcceptsTheDocumentedTimesAndDays() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", now])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let cases: [([String], String, String)] = [
            (["--preset", "morning"], "7:00 AM", "Weekdays"),
            (["--preset", "evening"], "4:30 PM", "Weekdays"),
            (["--at", "07:00", "--days", "daily"], "7:00 AM", "Every day"),
            (["--at", "16:30", "--days", "weekends"], "4:30 PM", "Weekends"),
            (["--at", "7:00am", "--days", "MON,wed,Friday"], "7:00 AM", "Mon, Wed, Fri"),
            (["--at", "4:30 PM", "--days", "sun"], "4:30 PM", "Sun"),
            (["--preset", "morning", "--at", "6:45"], "6:45 AM", "Weekdays"),
        ]
        for (options, time, days) in cases {
            let outcome = try sandbox.ok(["schedule", "add"] + options + ["--now", now])
            #expect(outcome.stdout.contains(": \(time) on \(days), 2 routes (Everett-Seattle, Seattle-Bellevue via 90)"), "\(outcome)")
        }
        let list = try sandbox.ok(["schedule", "list"]).stdout.split(separator: "\n")
        #expect(list.count == cases.count)
        #expect(list[0].hasSuffix("7:00 AM  Weekdays       2 routes  enabled"))
    }

    @Test func validationMessagesAreSpecific() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", now])
        let noRoutes = try sandbox.run(["schedule", "add", "--preset", "morning"])
        #expect(noRoutes.status == 64 && noRoutes.stderr == "traveltimes: No route given: name one or more with --route ID (or --route 1,4), as `traveltimes routes` lists them\n")
        try sandbox.ok(["favorites", "add", "1"])
        let badTime = try sandbox.run(["schedule", "add", "--at", "25:00"])
        #expect(badTime.status == 64 && badTime.stderr == "traveltimes: Invalid time '25:00': use a time such as 7:00, 07:00, 16:30, 7:00am or 4:30 PM\n")
        let badDay = try sandbox.run(["schedule", "add", "--days", "mon,funday"])
        #expect(badDay.status == 64 && badDay.stderr == "traveltimes: Invalid day 'funday': use weekdays, weekends, daily, or day names such as mon,wed,fri\n")
        let noDay = try sandbox.run(["schedule", "add", "--days", ","])
        #expect(noDay.status == 64 && noDay.stderr == "traveltimes: Invalid day ',': use weekdays, weekends, daily, or day names such as mon,wed,fri\n")
        let notFavorite = try sandbox.run(["schedule", "add", "--route", "96"])
        #expect(notFavorite.status == 64 && notFavorite.stderr == "traveltimes: Route '96' is not a favorite: add it first with `traveltimes favorites add 96`\n")
        let badPreset = try sandbox.run(["schedule", "add", "--preset", "lunch"])
        #expect(badPreset.status == 64 && badPreset.stderr == "traveltimes: Unknown preset 'lunch': use morning or evening. See 'traveltimes schedule add --help'.\n")
        #expect(try sandbox.store.schedules().schedules.isEmpty)
    }

    @Test func listVerboseJSONAndShow() throws {
        let sandbox = try Sandbox().prepared()
        let id = try #require(try sandbox.scheduleIDs().first)
        #expect(try sandbox.ok(["schedule", "list"]).stdout == "\(id.prefix(8))  7:00 AM  Weekdays  3 routes  enabled\n")
        #expect(try sandbox.ok(["schedule"]).stdout == "\(id.prefix(8))  7:00 AM  Weekdays  3 routes  enabled\n")
        let verbose = try sandbox.ok(["schedule", "list", "--verbose"]).stdout
        #expect(Whole.normal(verbose) == """
            $ID  Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)

            """)

        let json = try #require(try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])
        let keys: Set = [
            "id", "routeIDs", "days", "hour", "minute", "enabled", "createdAt", "onlyWhenDelayedBy", "onlyWhenAboveUsual", "daysLabel", "timeLabel", "kind",
            "arriveBy", "bufferMinutes", "headsUpMinutes", "onTimePercent", "notify",
        ]
        #expect(json.count == 1 && Set(json[0].keys) == keys && json[0]["kind"] as? String == "at")
        #expect(json[0]["id"] as? String == id)
        #expect(json[0]["routeIDs"] as? [String] == ["1", "96", "4"])
        #expect(json[0]["days"] as? [Int] == [2, 3, 4, 5, 6])
        #expect(json[0]["hour"] as? Int == 7 && json[0]["minute"] as? Int == 0 && json[0]["enabled"] as? Bool == true)
        #expect(json[0]["onlyWhenDelayedBy"] is NSNull)
        #expect(json[0]["createdAt"] as? String == "2025-11-04T16:00:00-08:00")
        #expect(json[0]["daysLabel"] as? String == "Weekdays" && json[0]["timeLabel"] as? String == "7:00 AM")

        let show = try sandbox.ok(["schedule", "show", String(id.prefix(4)), "--now", now]).stdout
        #expect(Whole.normal(show) == """
            Schedule $UUID
              Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes
              Time:    7:00 AM
              Days:    Weekdays
              State:   enabled
              Created: Tue, Nov 4, 4:00 PM
              Routes:
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)
              Next alerts:
                Wed, Nov 5, 7:00 AM
                Thu, Nov 6, 7:00 AM
                Fri, Nov 7, 7:00 AM
                Mon, Nov 10, 7:00 AM
                Tue, Nov 11, 7:00 AM

            """)
        let showJSON = try #require(try sandbox.json(["schedule", "show", id, "--json"]) as? [String: Any])
        #expect(showJSON["id"] as? String == id)
    }

    @Test func editEnableDisableAndRemove() throws {
        let sandbox = try Sandbox().prepared()
        let id = try #require(try sandbox.scheduleIDs().first)
        let short = String(id.prefix(8))
        let edited = try sandbox.ok(["schedule", "edit", short, "--at", "7:30", "--days", "mon,tue", "--route", "4,1", "--now", now])
        #expect(Whole.normal(edited.stdout) == "Updated schedule $ID: 7:30 AM on Mon, Tue, 2 routes (Seattle-Everett, Everett-Seattle); next alert Mon, Nov 10, 7:30 AM.\n")
        let nothing = try sandbox.run(["schedule", "edit", short])
        #expect(nothing.status == 64 && nothing.stderr == "traveltimes: Nothing to change: give --at, --arrive-by, --buffer, --heads-up, --on-time, --days, --route, --only-when-delayed or --notify. See 'traveltimes schedule edit --help'.\n")

        #expect(Whole.normal(try sandbox.ok(["schedule", "disable", short, "--now", now]).stdout) == "Disabled schedule $ID (7:30 AM on Mon, Tue): its alerts are no longer pending.\n")
        #expect(try sandbox.store.pending().requests.isEmpty)
        #expect(Whole.normal(try sandbox.ok(["schedule", "disable", short, "--now", now]).stdout) == "Schedule $ID (7:30 AM on Mon, Tue) was already disabled.\n")
        #expect(Whole.normal(try sandbox.ok(["schedule", "list"]).stdout) == "$ID  7:30 AM  Mon, Tue  2 routes  disabled\n")
        #expect(Whole.normal(try sandbox.ok(["schedule", "enable", short, "--now", now]).stdout) == "Enabled schedule $ID (7:30 AM on Mon, Tue).\n")
        #expect(try sandbox.store.pending().requests.count == 2)

        let refused = try sandbox.run(["schedule", "remove", short])
        #expect(refused.status == 64)
        #expect(refused.stderr == "traveltimes: This will stop notifications at 7:30 AM on Mon, Tue. Re-run with --yes to confirm. See 'traveltimes schedule remove --help'.\n")
        #expect(try sandbox.scheduleIDs() == [id])
        #expect(try sandbox.ok(["schedule", "remove", short, "--yes", "--now", now]).stdout == "Removed schedule \(short) (7:30 AM on Mon, Tue).\n")
        #expect(try sandbox.scheduleIDs().isEmpty)
        #expect(try sandbox.store.pending().requests.isEmpty)
    }

    @Test func idPrefixesMustBeUniqueAndKnown() throws {
        let sandbox = Sandbox()
        let commute = Commute(store: try sandbox.store, now: try #require(ISO8601.parse(Paths.capturedAt)?.instant), timeZone: zoneLA)
        _ = try commute.refresh.run(feed: Data(contentsOf: URL(fileURLWithPath: Paths.fixture)), source: "fixture")
        _ = try commute.favorites.addFavorites(["1"])
        for suffix in ["1", "2"] {
            _ = try commute.schedules.addSchedule(.init(), id: try #require(UUID(uuidString: "ABCDEF00-0000-0000-0000-00000000000\(suffix)")))
        }
        let ambiguous = try sandbox.run(["schedule", "show", "abc"])
        #expect(ambiguous.status == 64 && ambiguous.stderr == "traveltimes: 'abc' matches 2 schedules (abcdef00, abcdef00); type more of the ID\n")
        let unknown = try sandbox.run(["schedule", "disable", "ffff"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: No schedule ID starts with 'ffff'; see `traveltimes schedule list`\n")
        try sandbox.ok(["schedule", "show", "ABCDEF00-0000-0000-0000-000000000002"])
    }

    @Test func confirmationOnATerminalAsks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let sandbox = try Sandbox().prepared()
        let id = try #require(try sandbox.scheduleIDs().first)
        // `script` gives the command a pseudo-terminal; what we write to it is the typed answer.
        let command = "\(Paths.binary) schedule remove \(id.prefix(8))"
        let declined = try sandbox.run(["-qec", command, "/dev/null"], viaScript: true, stdin: "n\n")
        #expect(declined.status == 1, "\(declined)")
        #expect(declined.stdout == "This will stop notifications at 7:00 AM on Weekdays.\r\nRemove it? [y/N] n\r\ntraveltimes: Cancelled; nothing was changed.\r\n")
        #expect(try sandbox.scheduleIDs() == [id])
        let accepted = try sandbox.run(["-qec", command, "/dev/null"], viaScript: true, stdin: "y\n")
        #expect(accepted.status == 0, "\(accepted)")
        #expect(try sandbox.scheduleIDs().isEmpty)
    }
}

let zoneLA = IANAZone(identifier: "America/Los_Angeles") ?? .utc

extension Sandbox {
    /// Runs `/usr/bin/script ARGS` (a pseudo-terminal around a command) instead of the binary.
    func run(_ arguments: [String], viaScript: Bool, stdin: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = arguments
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Give the prompt a moment to appear before answering, as a person would.
        usleep(300_000)
        input.fileHandleForWriting.write(Data(stdin.utf8))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }
}

@Suite(.ownThreads) struct ScheduleWarningTests {
    @Test func anExactCopyIsSavedWithAWarningNamingTheFirst() throws {
        let sandbox = try Sandbox().prepared()
        let first = String(try #require(try sandbox.scheduleIDs().first).prefix(8))
        let copy = try sandbox.ok(["schedule", "add", "--route", "4,96,1", "--now", Paths.capturedAt])
        #expect(
            copy.stderr == "traveltimes: warning: schedule \(first) already sends these alerts (7:00 AM on Weekdays): each will come "
                + "twice — remove one with `traveltimes schedule remove ID`\n", "\(copy)")
        // Another day is not a copy.
        #expect(try sandbox.ok(["schedule", "add", "--days", "sat", "--now", Paths.capturedAt]).stderr.isEmpty)
        let doctor = try sandbox.run(["doctor", "--json", "--now", Paths.capturedAt])
        let checks = try #require((try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])?["checks"] as? [[String: Any]])
        let second = String(try #require(try sandbox.scheduleIDs().dropFirst().first).prefix(8))
        #expect(checks.contains {
            $0["status"] as? String == "warning"
                && $0["detail"] as? String == "\(second) sends the same alerts as \(first) (7:00 AM on Weekdays): each comes twice"
        }, "\(doctor)")
    }

    @Test func aScheduleInsideQuietHoursIsWarnedAboutAndPendingSaysItIsHeldBack() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["config", "set", "quiet-hours", "22:00-07:30"])
        let added = try sandbox.ok(["schedule", "add", "--at", "6:45", "--days", "wed", "--route", "1", "--now", Paths.capturedAt])
        #expect(
            added.stderr == "traveltimes: warning: 6:45 AM is inside quiet hours (10:00 PM–7:30 AM): every alert of this schedule "
                + "will be held back — change its time, or the quiet hours with `traveltimes config set quiet-hours`\n", "\(added)")
        let pending = try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout
        #expect(pending.contains("Wed, Nov 5, 6:45 AM  Commute at 6:45 AM (Wed)\n    Everett-Seattle: 34 min (-11 min, CLEAR)\n    Data is 14 h old (updated Tue, Nov 4, 4:00 PM)\n    held back: inside quiet hours (10:00 PM–7:30 AM); tick will not send it\n"), "\(pending)")
        // An arrive-by schedule whose every leave time is inside: arrival 7:30 less a 5-minute buffer.
        let arrive = try sandbox.ok(["schedule", "add", "--arrive-by", "7:30", "--days", "thu", "--route", "1", "--now", Paths.capturedAt])
        #expect(arrive.stderr == "traveltimes: warning: 7:25 AM is inside quiet hours (10:00 PM–7:30 AM): every alert of this schedule will be held back — change its time, or the quiet hours with `traveltimes config set quiet-hours`\n", "\(arrive)")
        // Moved out, no warning.
        let id = String(try #require(try sandbox.scheduleIDs().dropFirst().first).prefix(8))
        #expect(try sandbox.ok(["schedule", "edit", id, "--at", "8:00", "--now", Paths.capturedAt]).stderr.isEmpty)
    }
}
