@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Calendars through the binary: their events read as an independent reader reads them (Python's
/// icalendar with recurring_ical_events, `Tests/Support/ics_oracle.py`) on calendars written by
/// Google, Outlook/Exchange, iCloud and Thunderbird and on the peer-failure checklist; a meeting
/// becoming a leave alert; a holiday calendar resting a schedule; hostile files bounded.
@Suite(.ownThreads) struct CalendarTests {
    static let oracle = Paths.root.appendingPathComponent("Tests/Support/ics_oracle.py").path
    /// A calendar of the tour (`work.ics`), of the checklist, or a real one (`real/…`: Fixtures/real/calendars).
    static func calendar(_ name: String) -> String {
        let path = name.hasPrefix("real/") ? "Fixtures/real/calendars/\(name.dropFirst(5))" : "Fixtures/calendars/\(name)"
        return Paths.root.appendingPathComponent(path).path
    }

    /// (file, zone, first day, days): each window holds events of its file.
    static let cases: [(String, String, String, Int)] = [
        ("real/icalendar-alarm_google_future.ics", "Europe/Berlin", "2024-10-01", 30),
        ("real/icalendar-x_location.ics", "Europe/Zurich", "2016-10-01", 60),
        ("real/icalevents-google_2024.ics", "Europe/Zurich", "2024-03-20", 60),
        ("real/icalevents-google_tz.ics", "Europe/Zurich", "2021-03-20", 30),
        ("real/icalevents-recurrenceid_google.ics", "Europe/Zurich", "2021-03-20", 30),
        ("real/recurring-daylight_saving_time.ics", "Europe/Berlin", "2019-02-20", 90),
        ("real/icalendar-timezone_same_start.ics", "America/Los_Angeles", "2017-02-01", 60),
        ("real/icalevents-cest.ics", "Europe/Berlin", "2020-05-01", 120),
        ("real/icalevents-ms_tz.ics", "Europe/Berlin", "2021-03-20", 30),
        ("real/icalevents-multi_exdate_same_line_ms.ics", "America/New_York", "2022-03-01", 120),
        ("real/icalevents-recurrenceid_ms.ics", "Europe/Berlin", "2021-02-01", 60),
        ("real/icalevents-rrule_until_all_day_ms.ics", "Europe/Berlin", "2021-03-15", 60),
        ("real/icalevents-transparent.ics", "Europe/Berlin", "2021-05-15", 30),
        ("real/recurring-issue_27_t1.ics", "Europe/Berlin", "2020-04-01", 60),
        ("real/icalevents-icloud.ics", "Europe/Berlin", "2021-01-01", 365),
        ("real/recurring-issue_18_cancel_status.ics", "Europe/Berlin", "2020-01-20", 60),
        ("real/recurring-Germany_Holidays.ics", "Europe/Berlin", "2019-01-01", 365),
        ("real/recurring-issue_75_range_parameter.ics", "Europe/Madrid", "2024-08-25", 60),
        ("checklist/peer-failures.ics", "Europe/Berlin", "2025-10-01", 60),
        ("checklist/peer-failures.ics", "America/Los_Angeles", "2025-10-01", 60),
        ("checklist/custom-timezone.ics", "Europe/Berlin", "2025-09-28", 50),
        ("checklist/custom-timezone.ics", "America/New_York", "2025-09-28", 50),
    ]

    @Test(ExternalTool.recurringICalEvents.needed) func everyOccurrenceIsTheOraclesOnRealCalendarsAndTheChecklist() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ics-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for (file, zone, day, days) in Self.cases {
            let path = Self.calendar(file)
            let sandbox = Sandbox(zone: zone)
            try sandbox.ok(["calendar", "add", "c", "--ics", path, "--skip", "--now", "\(day)T00:00:00Z"])
            let listed = try sandbox.ok(["calendar", "events", "c", "--days", String(days), "--json", "--now", "\(day)T12:00:00Z"])
            let events = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let formatter = ISO8601DateFormatter()
            let mine = events.map { event -> String in
                let start = formatter.date(from: event["start"] as? String ?? "").map { Int($0.timeIntervalSince1970) } ?? -1
                return "\(start)\t\((event["allDay"] as? Bool) == true ? 1 : 0)\t\(event["summary"] as? String ?? "")"
            }.sorted()
            // icalendar refuses the iCloud file's mangled LMT offset (+5328) outright: it reads a
            // copy with that one line mended (traveltimes uses the tz database for Europe/Berlin).
            var oraclePath = path
            if file.hasSuffix("icloud.ics") {
                oraclePath = scratch + "/icloud.ics"
                try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "TZOFFSETFROM:+5328", with: "TZOFFSETFROM:+0053")
                    .write(toFile: oraclePath, atomically: true, encoding: .utf8)
            }
            let said = try execute(["python3", Self.oracle, oraclePath, zone, day, String(days)], environment: ProcessInfo.processInfo.environment)
            #expect(said.status == 0, "\(file): \(said)")
            let theirs = said.stdout.split(separator: "\n").map(String.init).sorted()
            #expect(!theirs.isEmpty, "\(file): the window holds no events; nothing is compared")
            #expect(mine == theirs, "\(file) in \(zone)")
        }
    }

    /// Exchange's own spelling, which the oracle cannot read: a zone of its own (a VTIMEZONE, no
    /// tz name) and `BYDAY=MO, TU, WE, TH, FR` with spaces; a daily series until a UTC UNTIL.
    @Test func anExchangeSeriesInACustomZoneWithSpacedWeekdays() throws {
        let sandbox = Sandbox(zone: "Europe/Berlin")
        try sandbox.ok(["calendar", "add", "c", "--ics", Self.calendar("real/icalendar-issue_165_missing_event.ics"), "--skip", "--now", "2015-07-01T00:00:00Z"])
        let listed = try sandbox.ok(["calendar", "events", "c", "--days", "30", "--json", "--now", "2015-07-01T12:00:00Z"])
        let starts = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]).map { $0["start"] as? String ?? "" }
        let days = [3, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 20, 21, 22]
        #expect(starts == days.map { String(format: "2015-07-%02dT10:00:00+02:00", $0) })
    }

    /// A sandbox with the sample feed, in Seattle's zone, and the work calendar on route 1.
    static func withWorkCalendar() throws -> Sandbox {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["config", "set", "timezone", "America/Los_Angeles"])
        return sandbox
    }

    @Test func aMeetingBecomesALeaveAlertAndEveryEventSaysWhetherItIsUsed() throws {
        let sandbox = try Self.withWorkCalendar()
        let added = try sandbox.ok(["calendar", "add", "work", "--ics", Self.calendar("work.ics"), "--route", "1", "--now", Paths.capturedAt])
        #expect(added.stdout == """
            Added calendar work (work.ics): 5 events; 3 departures by route 1 in the next 14 days.
            See them: traveltimes calendar events work

            """)
        let events = try sandbox.ok(["calendar", "events", "work", "--now", Paths.capturedAt])
        #expect(events.stdout == """
            Wed, Nov 5
              9:00 AM–9:15 AM     Standup (Office, 3rd floor)
            Thu, Nov 6
              10:30 AM–11:30 AM   Design review  skipped: cancelled
            Mon, Nov 10
              all day             Team offsite  skipped: all-day
              2:00 PM–4:00 PM     Focus time  skipped: free/transparent
            Wed, Nov 12
              9:30 AM–9:45 AM     Standup (moved)
            Fri, Nov 14
              9:00 AM–9:15 AM     Standup (Office, 3rd floor)

            """)
        let json = try sandbox.ok(["calendar", "events", "work", "--json", "--now", Paths.capturedAt])
        let first = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(first as NSDictionary == [
            "uid": "standup-1@example.com", "recurrenceId": "2025-11-05T09:00:00-08:00", "summary": "Standup", "start": "2025-11-05T09:00:00-08:00",
            "end": "2025-11-05T09:15:00-08:00", "allDay": false, "location": "Office, 3rd floor", "status": NSNull(), "used": true, "skipped": NSNull(),
        ] as NSDictionary)
        // Leave 34 min (route 1) and 10 min before 9:00; the alert names the meeting.
        let tick = try sandbox.ok(["tick", "--now", "2025-11-05T08:16:00-08:00"])
        #expect(tick.stdout == """
            Leave now for Standup at 9:00 AM
            Standup at 9:00 AM (calendar work)
            Everett-Seattle: 34 min (-11 min, CLEAR)
            Expected arrival 8:50 AM by Everett-Seattle
            Data is 16 h old (updated Tue, Nov 4, 4:00 PM)


            """)
        try sandbox.ok(["calendar", "remove", "work", "--yes", "--now", "2025-11-05T08:30:00-08:00"])
        #expect(try sandbox.ok(["pending", "--now", "2025-11-05T08:30:00-08:00"]).stdout == "No alerts pending: add a schedule with `traveltimes schedule add --preset morning`.\n")
    }

    @Test func aHolidayCalendarRestsEverySchedulethatDayUntilItIsRemoved() throws {
        let sandbox = try Self.withWorkCalendar()
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "tue", "--route", "1", "--now", Paths.capturedAt])
        let added = try sandbox.ok(["calendar", "add", "holidays", "--ics", Self.calendar("holidays.ics"), "--skip", "--now", Paths.capturedAt])
        #expect(added.stdout == """
            Added calendar holidays (holidays.ics): 2 events; every schedule rests on 1 day in the next 14 days.
            See them: traveltimes calendar events holidays

            """)
        let pending = try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout
        #expect(pending.hasPrefix("""
            1 alert scheduled (cap 64); 0 deferred.
            Paused: all schedules, Tue, Nov 11 (holidays: Veterans Day).

            Tue, Nov 18, 7:00 AM  Commute at 7:00 AM (Tue)
            """), "\(pending)")
        try sandbox.ok(["calendar", "remove", "holidays", "--yes", "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout.hasPrefix("""
            1 alert scheduled (cap 64); 0 deferred.

            Tue, Nov 11, 7:00 AM  Commute at 7:00 AM (Tue)
            """))
    }

    @Test func refreshAsksAgainWithTheValidatorsAndABrokenCalendarKeepsItsLastGoodCopySaidOnce() throws {
        let server = try FeedServer()
        let sandbox = try Self.withWorkCalendar()
        // A private address: its path is the secret, never shown.
        let address = server.url("/calendar-then-fail/work.ics") + "?token=s3cr3tT0ken"
        try sandbox.ok(["calendar", "add", "work", "--ics", address, "--route", "1", "--now", Paths.capturedAt])
        let etag = try sandbox.ok(["calendar", "add", "holidays", "--ics", server.url("/calendar/holidays.ics"), "--skip", "--now", Paths.capturedAt])
        #expect(etag.stdout.hasPrefix("Added calendar holidays (http://127.0.0.1/…): 2 events;"), "\(etag)")
        let first = try sandbox.run(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(first.status == 0 && first.stderr == "traveltimes: warning: calendar work (http://127.0.0.1/…): the server answered HTTP 404; its last good copy is used\n", "\(first)")
        let second = try sandbox.run(["refresh", "--source", Paths.fixture, "--quiet", "--now", Paths.capturedAt])
        #expect(second.status == 0 && second.stdout.isEmpty && second.stderr.isEmpty, "said once: \(second)")
        let holidays = server.requests().filter { $0.path == "/calendar/holidays.ics" }
        #expect(holidays.count == 3 && holidays[0].headers["If-None-Match"] == nil, "\(holidays)")
        #expect(holidays.dropFirst().allSatisfy { $0.headers["If-None-Match"] == "\"c1\"" && $0.headers["If-Modified-Since"] == "Tue, 04 Nov 2025 12:00:00 GMT" })
        // The last good copy still plans the meeting.
        #expect(try sandbox.ok(["calendar", "events", "work", "--now", Paths.capturedAt]).stdout.hasPrefix("Wed, Nov 5\n  9:00 AM–9:15 AM     Standup"))
        let doctor = try sandbox.run(["doctor", "--now", Paths.capturedAt]).stdout
        #expect(doctor.contains(
            "warning  calendar work      3 departures by route 1 from its last good copy; the last reading failed: calendar work (http://127.0.0.1/…): the server answered HTTP 404\n"),
            "\(doctor)")
        // Its departures are alerts: no schedule is no problem.
        #expect(!doctor.contains("nothing will be sent") && doctor.contains("ok       schedules          0 enabled; 3 alerts pending"), "\(doctor)")
        let list = try sandbox.ok(["calendar", "list"]).stdout
        #expect(list == """
            work  http://127.0.0.1/…  route 1, 10 min buffer: 3 departures in 14 days
              last read failed: calendar work (http://127.0.0.1/…): the server answered HTTP 404 (its last good copy is used)
            holidays  http://127.0.0.1/…  skip: 1 day off in 14 days

            """)
        for output in [first.stdout, first.stderr, doctor, list, try sandbox.ok(["calendar", "list", "--json"]).stdout] {
            #expect(!output.contains("s3cr3tT0ken") && !output.contains("calendar-then-fail"))
        }
    }

    @Test func eachEventGetsARouteToItsPlaceFoundOnceAndOneWithoutAPlaceSaysWhy() throws {
        let places = try TransitousServer()
        let engines = try EngineServer()
        let sandbox = Sandbox()
        sandbox.environment.merge(places.environment.merging(engines.environment) { _, new in new }) { _, new in new }
        try sandbox.ok(["place", "add", "home", "47.6097,-122.3422"])
        try sandbox.ok(["place", "add", "office", "47.6101,-122.2015"])
        let morning = "2030-01-15T06:00:00-08:00"
        let added = try sandbox.ok(["calendar", "add", "day", "--ics", Self.calendar("places.ics"), "--from", "home", "--provider", "osrm", "--now", morning])
        #expect(added.stdout == """
            Added calendar day (places.ics): 5 events; 3 departures from home (OSRM) in the next 14 days.
            See them: traveltimes calendar events day

            """)
        // GEO; a saved place named as the LOCATION; a LOCATION Nominatim finds; none; one it does not.
        #expect(try sandbox.ok(["calendar", "events", "day", "--now", morning]).stdout == """
            Tue, Jan 15
              9:00 AM–9:30 AM     Dentist
              12:30 PM–1:30 PM    Lunch (Office)
            Wed, Jan 16
              10:00 AM–4:00 PM    Offsite (Redmond Town Center)
              5:00 PM–5:00 PM     Call  skipped: no location
            Thu, Jan 17
              9:00 AM–9:00 AM     Somewhere (Atlantis)  skipped: place not found

            """)
        let refreshed = try sandbox.ok(["refresh", "--now", "2030-01-15T08:00:00-08:00"])
        #expect(refreshed.stdout.hasPrefix("Fetched 3 custom routes: "), "\(refreshed)")
        #expect(try sandbox.ok(["routes", "--now", "2030-01-15T08:00:00-08:00"]).stdout == """
            Updated at 8:00 AM
                            ID  NAME                            NOW  AVG  DELAY  STATUS    SOURCE  UPDATED
              cal-day-2b2caf36  home → 47.6205,-122.3493     2 min~    -      -  ESTIMATE  osrm    8:00 AM
              cal-day-77c6679c  home → office               16 min~    -      -  ESTIMATE  osrm    8:00 AM
              cal-day-e72d8a55  home → Redmond Town Center  28 min~    -      -  ESTIMATE  osrm    8:00 AM
            ~ A free-flow estimate from an open routing engine (OSRM, Valhalla): no live traffic.

            """)
        // Each text was asked for once, naming traveltimes; later readings use the answers kept.
        try sandbox.ok(["refresh", "--now", "2030-01-15T08:05:00-08:00"])
        let searches = places.requests().filter { $0.path == "/search" }
        #expect(searches.map { $0.query["q"] ?? "" } == ["redmond town center", "atlantis"])
        #expect(searches.allSatisfy { $0.userAgent.hasPrefix("traveltimes/") })
        let tick = try sandbox.ok(["tick", "--now", "2030-01-15T08:47:00-08:00"])
        #expect(tick.stdout.hasPrefix("Leave now for Dentist at 9:00 AM\nDentist at 9:00 AM (calendar day)\n"), "\(tick)")
        // Each route names the calendar that made it. A route cache written before routes did
        // (the same file without the field) is read the same way: removing the calendar removes
        // its routes, and a route of another name stays.
        let cache = String(decoding: try #require(sandbox.bytes("routes.json")), as: UTF8.self)
        #expect(cache.components(separatedBy: #""calendar":"day""#).count == 4, "\(cache)")
        let older = cache.replacingOccurrences(of: #","calendar":"day""#, with: "")
        #expect(!older.contains(#""calendar""#))
        try Sandbox.write(sandbox.path("routes.json"), Data(older.utf8))
        try sandbox.ok(["route", "add", "gym", "--from", "47.6097,-122.3422", "--to", "47.62,-122.35", "--provider", "osrm", "--no-check"])
        try sandbox.ok(["calendar", "remove", "day", "--yes", "--now", "2030-01-15T08:50:00-08:00"])
        let left = try #require(try sandbox.json(["routes", "--json"]) as? [[String: Any]])
        #expect(left.compactMap { $0["id"] as? String } == ["gym"], "\(left)")
        try sandbox.ok(["route", "remove", "gym", "--yes"])
        #expect(try sandbox.run(["routes"]).stderr == "traveltimes: No route data yet: run `traveltimes refresh --source FILE-OR-URL` first\n")
    }

    @Test func hostileCalendarsAreRefusedOrBoundedAndOneBadEventIsSkipped() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ics-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let head = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20251105T170000Z\r\n"
        let files: [String: String] = [
            "fold.ics": head + "SUMMARY:x" + String(repeating: "\r\n y", count: 300_000) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            "nest.ics": "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 10_000) + "END:VCALENDAR\r\n",
            "second.ics": head + "RRULE:FREQ=SECONDLY\r\nSUMMARY:every second\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:00010101T170000Z\r\nRRULE:FREQ=DAILY;COUNT=1000000\r\nSUMMARY:daily since year 1\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
            "binary.ics": String(repeating: "\u{0}\u{7}PK", count: 1_000),
        ]
        for (name, text) in files { try text.write(toFile: "\(scratch)/\(name)", atomically: true, encoding: .utf8) }
        let sandbox = try Self.withWorkCalendar()
        let nested = try sandbox.run(["calendar", "add", "n", "--ics", "\(scratch)/nest.ics", "--route", "1", "--now", Paths.capturedAt])
        #expect(nested.status == 69 && nested.stderr == "traveltimes: calendar n is not readable: components nested more than 8 deep at line 9; calendar n was not added\n", "\(nested)")
        // The user's words wrong: 64, nothing saved.
        let noRoute = try sandbox.run(["calendar", "add", "r", "--ics", Self.calendar("work.ics"), "--route", "nope", "--now", Paths.capturedAt])
        #expect(noRoute.status == 64 && noRoute.stderr == "traveltimes: no route 'nope' (see `traveltimes routes`); calendar r was not added. See 'traveltimes calendar add --help'.\n", "\(noRoute)")
        let binary = try sandbox.run(["calendar", "add", "b", "--ics", "\(scratch)/binary.ics", "--route", "1", "--now", Paths.capturedAt])
        #expect(binary.status == 69 && binary.stderr == "traveltimes: calendar b is not readable: not an iCalendar file (no BEGIN:VCALENDAR); calendar b was not added\n", "\(binary)")
        // A fold a million characters long loses only its property.
        try sandbox.ok(["calendar", "add", "f", "--ics", "\(scratch)/fold.ics", "--route", "1", "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["calendar", "events", "f", "--now", Paths.capturedAt]).stdout == "Wed, Nov 5\n  9:00 AM–9:00 AM     (no title)\n")
        let second = try sandbox.ok(["calendar", "add", "s", "--ics", "\(scratch)/second.ics", "--route", "1", "--now", Paths.capturedAt])
        #expect(second.stdout == """
            Added calendar s (second.ics): 2 events; 14 departures by route 1 in the next 14 days.
              skipped, unreadable: line 2 (a): RRULE: FREQ=SECONDLY is not supported (daily, weekly, monthly and yearly are)
            See them: traveltimes calendar events s

            """)
    }
}
