@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Cross-checks a year of weekly fires in many zones against `systemd-analyze calendar`, an
/// independent implementation. systemd skips a day whose time falls in a spring-forward gap, where
/// this product fires at the end of the gap on the same day: those are the only allowed differences.
@Suite(.ownThreads, .enabled(if: SystemdOracle.isAvailable, "needs systemd-analyze, which is not installed (apt-get install systemd); .ci/run installs it"))
struct SystemdOracleTests {
    static let zones = [
        "America/Los_Angeles", "America/New_York", "America/St_Johns", "America/Santiago", "America/Havana",
        "America/Sao_Paulo", "Europe/London", "Europe/Berlin", "Antarctica/Troll", "Asia/Kolkata",
        "Asia/Kathmandu", "Asia/Tokyo", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland",
        "Pacific/Chatham", "Pacific/Apia", "Africa/Johannesburg", "UTC",
    ]
    static let times: [(Weekday, Int, Int)] = [
        (.sunday, 0, 30), (.sunday, 1, 30), (.sunday, 2, 15), (.sunday, 2, 30), (.sunday, 2, 45),
        (.saturday, 23, 30), (.monday, 7, 0),
    ]

    @Test(arguments: zones)
    func aYearOfWeeklyFiresAgreesWithSystemd(identifier: String) throws {
        let timeZone = zone(identifier)
        let base = instant("2026-01-01T00:00:00Z")
        var answered = 0
        for (weekday, hour, minute) in Self.times {
            let expected = try SystemdOracle.fires(
                weekday: weekday, hour: hour, minute: minute, zone: identifier, after: base, count: 56)
            // systemd gives up on a few gap edges ("Resource deadlock avoided" for Chatham's 02:45,
            // the first minute of its gap): the oracle has no answer there, the unit tests do.
            guard let last = expected.last else { continue }
            answered += 1
            var ours: [Date] = []
            var now = base
            while now < last {
                let calendar = ZonedCalendar(timeZone: timeZone, around: now)
                now = calendar.nextFire(weekday: weekday, hour: hour, minute: minute, after: now)
                ours.append(now)
            }
            let theirs = Set(expected)
            for fire in expected {
                #expect(ours.contains(fire), "\(identifier) \(weekday) \(hour):\(minute): we miss \(fire)")
            }
            for fire in ours where !theirs.contains(fire) {
                // Only a gap day, which systemd skips, may differ: it must be on the right weekday,
                // at a wall time that is not the requested one (the end of the gap).
                let local = ZonedCalendar(timeZone: timeZone, around: fire).local(fire)
                #expect(local.weekday == weekday, "\(identifier): extra fire \(fire) on the wrong day")
                #expect(local.time != TimeOfDay(hour: hour, minute: minute), "\(identifier): extra fire \(fire)")
                #expect(local.time > TimeOfDay(hour: hour, minute: minute) || local.hour == 0,
                        "\(identifier): gap fire \(fire) is not after the gap")
            }
        }
        #expect(answered >= Self.times.count - 1, "systemd answered only \(answered) cases for \(identifier)")
    }
}

enum SystemdOracle {
    static let path = "/usr/bin/systemd-analyze"
    /// Installed, or required (`.ci/run` sets TRAVELTIMES_REQUIRE_TOOLS=1: a missing oracle fails).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path) || ProcessInfo.processInfo.environment["TRAVELTIMES_REQUIRE_TOOLS"] == "1"
    }

    static let dayNames: [Weekday: String] = [
        .sunday: "Sun", .monday: "Mon", .tuesday: "Tue", .wednesday: "Wed", .thursday: "Thu", .friday: "Fri",
        .saturday: "Sat",
    ]

    /// `count` successive elapses of `Sun *-*-* 02:30:00 Zone` after `after`.
    static func fires(weekday: Weekday, hour: Int, minute: Int, zone: String, after: Date, count: Int) throws -> [Date] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let spec = String(format: "%@ *-*-* %02d:%02d:00 %@", dayNames[weekday] ?? "Sun", hour, minute, zone)
        process.arguments = ["calendar", "--iterations=\(count)", "--base-time=@\(Int(after.timeIntervalSince1970))", spec]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.environment = ["TZ": "UTC", "LC_ALL": "C", "SYSTEMD_COLORS": "0"]
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Lines like "    Next elapse: Sun 2026-03-15 09:30:00 UTC" and "  Iter. #2: Sun …".
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("Next elapse:") || line.contains("Iter. #"), line.hasSuffix(" UTC") else { return nil }
            let words = line.split(separator: " ")
            guard words.count >= 3 else { return nil }
            return ISO8601.parse("\(words[words.count - 3])T\(words[words.count - 2])Z")?.instant
        }
    }
}

/// Arrive-by plans on the days the clocks change: the arrival is the product's (held against
/// systemd's next elapse for that wall time), and the leave time is that instant less a duration,
/// whatever the clock did in between.
@Suite(.ownThreads, .enabled(if: SystemdOracle.isAvailable, "needs systemd-analyze, which is not installed (apt-get install systemd); .ci/run installs it"))
struct ArriveByOracleTests {
    @Test(arguments: [
        // Fall back in Los Angeles: 1:30 happens twice; 3:00 is an hour after the change.
        ("America/Los_Angeles", "2026-10-31T12:00:00Z", Weekday.sunday, 1, 30),
        ("America/Los_Angeles", "2026-10-31T12:00:00Z", Weekday.sunday, 3, 0),
        // Spring forward in Los Angeles and in London: arrivals just after the gap.
        ("America/Los_Angeles", "2026-03-07T12:00:00Z", Weekday.sunday, 3, 30),
        ("Europe/London", "2026-03-28T12:00:00Z", Weekday.sunday, 2, 15),
        ("Australia/Lord_Howe", "2026-04-04T00:00:00Z", Weekday.sunday, 2, 0),
    ])
    func theArrivalIsSystemdsAndTheLeaveTimeADuration(identifier: String, base: String, weekday: Weekday, hour: Int, minute: Int) throws {
        let now = instant(base)
        let arrival = try #require(try SystemdOracle.fires(weekday: weekday, hour: hour, minute: minute, zone: identifier, after: now, count: 1).first)
        let schedule = Schedule(
            routeIDs: ["1", "96"], days: [weekday], hour: hour, minute: minute, createdAt: Date(timeIntervalSince1970: 0),
            timing: .arriveBy(buffer: 5, headsUp: nil))
        let routes: [RouteID: Route] = ["1": route("1", "Long", current: 95, average: 80), "96": route("96", "Short", current: 70, average: 60)]
        let plan = FanOut.plan(
            schedules: [schedule], routes: routes, now: now, calendar: ZonedCalendar(timeZone: zone(identifier), around: now), cap: 64)
        let request = try #require(plan.scheduled.first?.request)
        #expect(request.arrival == arrival, "\(identifier) \(hour):\(minute)")
        // The fastest route (70 min) and the buffer (5): 75 minutes of elapsed time.
        #expect(request.nextFire == arrival.addingTimeInterval(-75 * 60))
        #expect(plan.scheduled.first?.content.title == "Leave now to arrive by \(TimeOfDay(hour: hour, minute: minute).label)")
    }
}
