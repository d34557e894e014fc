@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files and environments that push back (issue 34: history, doctor, zips and the rest), through
/// the built binary. Unlike the transit bombs beside them, they run alongside the other tests.
@Suite(.ownThreads) struct HostileFileTests {
    /// Readings of routes traveltimes does not know make no files; a long file is read in bounded
    /// memory; a spreadsheet's byte-order mark is no part of the first line.
    @Test(ExternalTool.gnuTime.needed) func historyImportStreamsAndSkipsUnknownRoutes() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let csv = sandbox.home + "-import.csv"
        defer { try? FileManager.default.removeItem(atPath: csv) }
        _ = try execute(["python3", "-c", """
            import sys
            with open(sys.argv[1], "w") as out:
                out.write("\\ufeffroute,at,minutes,source,suspicious\\n")
                for i in range(120000):
                    out.write("made-up-%d,2025-11-04T15:00:00-08:00,30,here,false\\n" % i)
                for i in range(60480):
                    m = i % 60; h = (i // 60) % 24; d = 1 + (i // 1440) % 14
                    out.write("1,2025-10-%02dT%02d:%02d:00-07:00,%d,wsdot,false\\n" % (d, h, m, 30 + i % 20))
            """, csv], environment: ["PATH": "/usr/bin:/bin"])
        let (imported, peak) = try HostileFeedTests().measured(sandbox, ["history", "import", csv, "--now", Paths.capturedAt])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "Imported 20160 readings; skipped 40320 already recorded; skipped 120000 of at least 100000 routes traveltimes does not know (add the route first).\n",
            "\(imported)")
        #expect(peak < 100, "history import peaked at \(peak) MiB")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("history"))
        #expect(files == ["1.tth"], "\(files.prefix(5))")
    }

    /// A history file of 200 MB of zeros: none of it is a reading, and none is counted as one.
    @Test func aSparseHistoryFileCountsOnlyWholeRecords() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        try FileManager.default.createDirectory(atPath: sandbox.path("history"), withIntermediateDirectories: true)
        let path = sandbox.path("history/1.tth")
        try Sandbox.write(path, Data(Array("TTHIST".utf8) + [0, 1] + [UInt8](repeating: 0, count: 8)))
        #expect(truncate(path, 200 << 20) == 0)
        let history = try sandbox.ok(["history", "1", "--json", "--now", Paths.capturedAt])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        #expect(json["total"] as? Int == 0, "\(json["total"] ?? "")")
    }

    /// Doctor judges each alert by the data it will carry, and gives the verdict tick acts on.
    @Test func doctorJudgesEachAlertsOwnDataAndSaysWhatTickWillDo() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["install", "cron"])
        let now = "2026-11-26T06:30:00-08:00"
        // A transit route refreshed now beside road data a year old.
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", now])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", now])
        try sandbox.ok(["refresh", "--now", now])
        let doctor = try sandbox.run(["doctor", "--now", now])
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("""
            problem  data           Commute at 7:00 AM (Weekdays) would carry travel times measured Tue, Nov 4, 2025, 4:00 PM (386 days ago): it would be sent as if current

            """), "\(doctor)")
        #expect(doctor.stdout.hasSuffix("\nAlerts will go out, but they will carry old travel times until the problems above are fixed.\n"), "\(doctor)")
        #expect(doctor.stderr == "traveltimes: 1 problem to fix before alerts carry current travel times\n", "\(doctor)")
        // And tick does send it, as doctor said.
        let tick = try sandbox.run(["tick", "--now", "2026-11-26T07:00:00-08:00"])
        #expect(tick.stdout.hasPrefix("Commute at 7:00 AM (Weekdays)\n"), "\(tick)")
    }

    /// The day after a timetable file vanished: doctor's one verdict is what tick then does —
    /// alerts go out, from the timetable kept, carrying its day-old plan.
    @Test func aVanishedTimetableGivesOneVerdictThatTickKeeps() throws {
        let sandbox = try Sandbox(runner: .binary).withoutHealthAlerts()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        let zip = sandbox.home + "-metro.zip"
        try FileManager.default.copyItem(atPath: Paths.transit("metro-gtfs.zip"), toPath: zip)
        let monday = "2026-11-23T07:00:00-08:00"
        try sandbox.ok(["transit", "add", "metro", "--static", zip, "--now", monday])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", monday])
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["schedule", "add", "--at", "8:00", "--days", "weekdays", "--route", "bus", "--now", monday])
        try sandbox.ok(["install", "cron"])
        try FileManager.default.removeItem(atPath: zip)
        let tuesday = "2026-11-24T07:30:00-08:00"
        #expect(try sandbox.run(["refresh", "--now", tuesday]).status == 75)
        let doctor = try sandbox.run(["doctor", "--now", tuesday])
        #expect(doctor.status == 1 && doctor.stdout.hasSuffix(
            "\nAlerts will go out, but they will carry old travel times until the problems above are fixed.\n"), "\(doctor)")
        let tick = try sandbox.run(["tick", "--now", "2026-11-24T08:00:00-08:00"])
        #expect(tick.stdout.hasPrefix("Commute at 8:00 AM (Weekdays)\n"), "\(tick)")
    }

    /// A schedule added while the clock was ahead: once the clock is back, its alerts fire.
    @Test func aScheduleAddedWhileTheClockWasAheadStillFires() throws {
        let sandbox = try Sandbox(runner: .binary).withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", "2025-11-07T16:00:00-08:00"])
        let tick = try sandbox.run(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        #expect(tick.status == 0 && tick.stdout.hasPrefix("Commute at 7:00 AM (Weekdays)\n"), "\(tick)")
    }

    /// Zips with entries that share their bytes, or in ZIP64, are refused, and nothing is added.
    @Test func overlappingAndZip64ArchivesAreRefused() throws {
        let sandbox = Sandbox(runner: .binary)
        let overlap = try sandbox.run(["transit", "add", "x", "--static", HostileFeedTests.input("overlap.zip"), "--now", HostileFeedTests.morning])
        #expect(overlap == Outcome(status: 1, stdout: "", stderr: """
            traveltimes: x's timetable is not a GTFS feed: agency.txt and calendar.txt overlap in the archive (a zip bomb's trick): not read; feed x was not added

            """), "\(overlap)")
        let zip64 = try sandbox.run(["transit", "add", "x", "--static", HostileFeedTests.input("zip64.zip"), "--now", HostileFeedTests.morning])
        #expect(zip64 == Outcome(status: 1, stdout: "", stderr: """
            traveltimes: x's timetable is not a GTFS feed: agency.txt is a ZIP64 entry, which traveltimes does not read (no GTFS file needs 4 GiB); feed x was not added

            """), "\(zip64)")
        #expect(sandbox.bytes("config.json") == nil)
    }

    /// A relative XDG_CONFIG_HOME, which the XDG specification says to ignore, is refused rather
    /// than taken for ~/.config.
    @Test func aRelativeXDGConfigHomeIsRefused() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let outcome = try sandbox.run(["install", "systemd"], environment: ["XDG_CONFIG_HOME": "relative/config"])
        #expect(outcome == Outcome(status: 64, stdout: "", stderr: """
            traveltimes: XDG_CONFIG_HOME 'relative/config' is not an absolute path, which the XDG specification says to ignore: set it to a full path, unset it, or pass --unit-dir DIR. See 'traveltimes install systemd --help'.

            """), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.environment["HOME", default: ""] + "/.config/systemd"))
    }

    /// A store document of millions of values (60 MB of zeros under a key traveltimes does not
    /// know) is refused, saying why, in bounded memory: the values are counted before any is held.
    /// Such a file took 1.5 GB when Foundation's decoder read it.
    @Test(ExternalTool.gnuTime.needed) func aDocumentOfMillionsOfValuesIsRefusedInBoundedMemory() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let config = sandbox.path("config.json")
        let before = try #require(sandbox.bytes("config.json"))
        _ = try execute(["python3", "-c", """
            import sys
            with open(sys.argv[1], "w") as out:
                out.write('{"version":1,"junk":[' + ",".join(["0"] * 30000000) + ']}')
            """, config], environment: ["PATH": "/usr/bin:/bin"])
        let (shown, peak) = try HostileFeedTests().measured(sandbox, ["config", "show"])
        #expect(shown.status == 65, "\(shown)")
        #expect(shown.stderr == "traveltimes: \(config): more than 1,000,000 values: no store document is so large; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")
        #expect(peak < 100, "peak \(peak) MiB")
        // Just under the count, the same key is read (and passed over) as any other.
        try Sandbox.write(config, Data(("{\"version\":1,\"junk\":[" + Array(repeating: "0", count: 999_990).joined(separator: ",") + "]," + String(decoding: before.dropFirst(), as: UTF8.self)).utf8))
        #expect(try sandbox.run(["config", "show"]).status == 0)
    }
}
