@_spi(Store) import CommuteCore
import Foundation
import Testing

@testable import TraveltimesCLI

extension TruthTests {
    // MARK: 10. Smaller untruths

    @Test func aRelativeStoreIsTheSameStoreToDoctorAndTheInstallers() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        let parent = (sandbox.home as NSString).deletingLastPathComponent
        let relative = ["TRAVELTIMES_HOME": (sandbox.home as NSString).lastPathComponent]
        let installed = try execute(
            ["sh", "-c", "cd \"$0\" && exec \"$1\" install cron", parent, Paths.binary],
            environment: sandbox.environment.merging(relative) { _, new in new }, in: parent)
        #expect(installed.status == 0 && Whole.normal(installed.stdout) == """
            Added to your crontab:
              # BEGIN traveltimes
              # Written by `traveltimes install cron`; `traveltimes uninstall cron` removes this block.
              */15 * * * * TRAVELTIMES_HOME='$TMP' '$BINARY' refresh --quiet
              * * * * * TRAVELTIMES_HOME='$TMP' '$BINARY' tick --quiet
              # END traveltimes

            """, "\(installed)")
        let doctor = try execute(
            ["sh", "-c", "cd \"$0\" && exec \"$1\" doctor --json --now 2025-11-04T16:10:00-08:00", parent, Paths.binary],
            environment: sandbox.environment.merging(relative) { _, new in new }, in: parent)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any], "\(doctor)")
        let scheduler = try #require((object["checks"] as? [[String: Any]])?.first { $0["check"] as? String == "scheduler" })
        #expect(scheduler["status"] as? String == "ok" && object["store"] as? String == sandbox.home, "\(scheduler)")
    }

    @Test func aZoneUnlikeTheSourcesIsSaid() throws {
        let sandbox = Sandbox(runner: .binary)
        sandbox.environment["TRAVELTIMES_TZ"] = nil
        sandbox.environment["TZ"] = "UTC"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        let added = try sandbox.run(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        let zone = try #require(try sandbox.store.configuration().timeZone)
        #expect(added.stdout.hasSuffix("Schedules are in \(zone) from now on, whatever TZ cron runs with (change it with `traveltimes config set timezone ZONE`).\n"), "\(added)")
        #expect(added.stderr == "traveltimes: warning: WSDOT's feed keeps America/Los_Angeles's clocks, not \(zone)'s: if you live by them, run `traveltimes config set timezone America/Los_Angeles`\n", "\(added)")
        let doctor = try sandbox.run(["doctor", "--now", Paths.capturedAt]).stdout
        #expect(doctor.contains("""
            warning  time zone     \(zone) (saved), but WSDOT's feed keeps America/Los_Angeles's clocks: a 7:00 alert fires at 7:00 in \(zone)
                                   → if you live by America/Los_Angeles's clocks: traveltimes config set timezone America/Los_Angeles

            """), "\(doctor)")
        try sandbox.ok(["config", "set", "timezone", "America/Vancouver"])  // the same clocks: nothing to say
        #expect(Whole.normal(try sandbox.run(["doctor", "--now", Paths.capturedAt]).stdout) == """
            ok       store         $TMP: readable and writable
            problem  source        not set
                                   → traveltimes config set source URL (the WSDOT URL, or a file's full path)
            ok       time zone     America/Vancouver (saved)
            ok       schedules     1 enabled; 5 alerts pending, the next Wed, Nov 5, 7:00 AM
            ok       refresh       last success 4:00 PM (0 min ago)
            ok       data          Commute at 7:00 AM (Weekdays) would carry travel times measured 4:00 PM (0 min ago)
            ok       fetch helper  libcurl loads: ready
            ok       notifier      none configured: alerts go to stdout, which cron mails
            problem  scheduler     nothing runs refresh and tick
                                   → traveltimes install systemd --enable (or traveltimes install cron)

            Alerts will not go out until the problems above are fixed.

            """)
    }

    @Test func installAndStatusSayWhatIsTrueOfThisStore() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        // No crontab command: a dry run says what it would do, and succeeds.
        sandbox.environment["PATH"] = "/nonexistent"
        let dry = try sandbox.run(["install", "cron", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.hasPrefix(
            "There is no crontab command here: install cron would print these lines to add with your scheduler, and exit 69:\n  # BEGIN traveltimes\n"), "\(dry)")
        #expect(try sandbox.run(["install", "cron"]).status == 69)
        // Another store's block is not this store's.
        sandbox.environment["PATH"] = "/usr/bin:/bin"
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["install", "cron"], environment: ["TRAVELTIMES_HOME": sandbox.home + "-other"])
        let status = try sandbox.ok(["status", "--now", Paths.capturedAt]).stdout
        #expect(status.hasSuffix("Installed:  the traveltimes block in your crontab, for the store \(sandbox.home)-other, not this one\n"), "\(status)")
        // Units written but not enabled beside the block: cron alone runs tick, not "both".
        try sandbox.ok(["install", "cron"])
        try sandbox.ok(["install", "systemd"])
        let doctor = try sandbox.run(["doctor", "--now", "2025-11-04T16:10:00-08:00"]).stdout
        #expect(!doctor.contains("both run tick") && Whole.normal(doctor) == """
            ok       store         $TMP: readable and writable
            problem  source        not set
                                   → traveltimes config set source URL (the WSDOT URL, or a file's full path)
            ok       time zone     America/Los_Angeles (saved)
            ok       schedules     1 enabled; 5 alerts pending, the next Wed, Nov 5, 7:00 AM
            ok       refresh       last success 4:00 PM (10 min ago)
            ok       data          Commute at 7:00 AM (Weekdays) would carry travel times measured 4:00 PM (10 min ago)
            ok       fetch helper  libcurl loads: ready
            ok       notifier      none configured: alerts go to stdout, which cron mails
            ok       scheduler     systemd timers in $TMP-home/.config/systemd/user (not enabled: systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer); the traveltimes block in your crontab

            Alerts will not go out until the problems above are fixed.

            """, "\(doctor)")
    }

    @Test func historyShowsAsManyDaysAsItKeeps() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        try sandbox.ok(["history", "import", Paths.root.appendingPathComponent("Fixtures/history/sample-8-weeks.csv").path, "--now", "2025-11-04T16:05:00-08:00"])
        let json = try #require(try sandbox.json(["history", "1", "--days", "60", "--json", "--now", "2025-11-04T16:05:00-08:00"]) as? [String: Any])
        #expect(json["since"] as? String == "2025-09-06T00:00:00-07:00")
        // Every reading of route 1 in the file from then until now: eight weeks, all of them.
        let csv = try String(contentsOfFile: Paths.root.appendingPathComponent("Fixtures/history/sample-8-weeks.csv").path, encoding: .utf8)
        let inWindow = csv.split(separator: "\n").filter { line in
            let fields = line.split(separator: ",")
            guard fields.count == 5, fields[0] == "1", let at = ISO8601.parse(String(fields[1]))?.instant else { return false }
            return at >= (ISO8601.parse("2025-09-06T00:00:00-07:00")?.instant ?? .distantFuture) && at <= (ISO8601.parse("2025-11-04T16:05:00-08:00")?.instant ?? .distantPast)
        }
        #expect((json["readings"] as? [Any])?.count == inWindow.count && inWindow.count > 1_800)
        let bad = try sandbox.run(["history", "1", "--days", "3651"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --days '3651': use a whole number from 1 to 3650. See 'traveltimes history --help'.\n", "\(bad)")
    }

    /// One ntfy command is recommended, the same in the README, the demo and doctor.
    @Test func oneNotifierIsRecommendedEverywhere() throws {
        let readme = try String(contentsOfFile: ReadmeTests.readme, encoding: .utf8)
        #expect(readme.contains("\n\(Commands.recommendedNotifier)\n"))
        #expect(Commands.DemoCommand.nextSteps == """
            That was the sample; the demo store is thrown away now, and nothing else was touched.
            Three steps make it real:
              1. Live times: traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson
                 with traveltimes config set access-code - (a free code: wsdot.wa.gov/traffic/api),
                 or, anywhere: traveltimes config set here-key - and traveltimes route add (see route add --help)
              2. Where alerts go: traveltimes notify add ntfys://ntfy.sh/YOUR-TOPIC --name phone (or notify add --help)
              3. Run unattended: traveltimes install systemd --enable (or install cron), then traveltimes doctor
            """)
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["install", "systemd"], environment: ["PATH": "/nonexistent"])
        let doctor = try sandbox.run(["doctor", "--now", Paths.capturedAt]).stdout
        #expect(Whole.normal(doctor) == """
            ok       store         $TMP: readable and writable
            problem  source        not set
                                   → traveltimes config set source URL (the WSDOT URL, or a file's full path)
            ok       time zone     America/Los_Angeles (saved)
            ok       schedules     1 enabled; 5 alerts pending, the next Wed, Nov 5, 7:00 AM
            ok       refresh       last success 4:00 PM (0 min ago)
            ok       data          Commute at 7:00 AM (Weekdays) would carry travel times measured 4:00 PM (0 min ago)
            ok       fetch helper  libcurl loads: ready
            problem  notifier 1    stdout: under systemd timers, what tick prints goes to the journal, which nobody reads at 7:00
                                   → traveltimes notify add ntfys://ntfy.sh/YOUR-TOPIC --name phone (or notify add desktop)
            problem  scheduler     the systemd timers in $TMP-home/.config/systemd/user are not enabled
                                   → systemctl --user daemon-reload && systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer

            Alerts will not go out until the problems above are fixed.

            """, "\(doctor)")
    }
}
