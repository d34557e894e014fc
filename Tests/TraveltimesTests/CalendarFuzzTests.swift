@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Calendars broken every way, with the fixed seed of `JSONFuzzTests`: the reader in process on
/// thousands of damaged files (never a crash, never an occurrence outside the window, always
/// bounded), and the binary on some (0, or 69 with one line; nothing hidden on the terminal).
@Suite(.ownThreads) struct CalendarFuzzTests {
    static let seeds = ["work.ics", "holidays.ics", "places.ics", "checklist/peer-failures.ics", "real/icalevents-icloud.ics", "real/recurring-issue_75_range_parameter.ics"]

    /// Grammar-aware damage: a content line of any property with any value, folds in odd places,
    /// rules with every part out of range.
    static func hostileLine(_ random: inout SeededRandom) -> String {
        let names = ["DTSTART", "DTEND", "RRULE", "EXDATE", "RDATE", "RECURRENCE-ID", "DURATION", "SUMMARY", "GEO", "BEGIN", "END", "TZID", "X-WR-TIMEZONE"]
        let values = [
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYSETPOS=-366;BYDAY=-53MO", "FREQ=DAILY;INTERVAL=0", "FREQ=WEEKLY;COUNT=99999999999999999999",
            "FREQ=MINUTELY", "FREQ=DAILY;UNTIL=99991231T235959Z", "99991231T235959", "00000101", "20251105T250000", "P99999999W", "-PT1S", "VEVENT",
            "VTIMEZONE", "VCALENDAR", "91;181", "nan;inf", "\u{1B}[2J", "../../../etc/passwd", "(UTC+99:99) Nowhere", "",
        ]
        let name = names[Int.random(in: 0..<names.count, using: &random)]
        let parameter = Bool.random(using: &random) ? ";TZID=\"\(["Europe/Berlin", "Pacific Standard Time", "/x", "\u{0}"][Int.random(in: 0..<4, using: &random)])\"" : ""
        return "\(name)\(parameter):\(values[Int.random(in: 0..<values.count, using: &random)])"
    }

    @Test func damagedCalendarsNeverCrashAndStayInTheirWindow() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 38)
        let zone = try #require(IANAZone(identifier: "America/Los_Angeles"))
        let from = 1_762_300_800
        let until = from + 30 * 86_400
        var read = 0
        for name in Self.seeds {
            let intact = try Data(contentsOf: URL(fileURLWithPath: CalendarTests.calendar(name)))
            for round in 0..<150 {
                var data: Data
                switch round % 3 {
                case 0:
                    let damages: [HostileInputFuzzTests.Damage] = [.flipped, .cut, .lengthened, .replaced, .spliced]
                    data = HostileInputFuzzTests.damaged(intact, damages[round / 3 % damages.count], using: &random)
                case 1:
                    var lines = String(decoding: intact, as: UTF8.self).components(separatedBy: "\r\n")
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        lines.insert(Self.hostileLine(&random), at: Int.random(in: 0...lines.count, using: &random))
                    }
                    data = Data(lines.joined(separator: "\r\n").utf8)
                default:
                    // Folds inserted anywhere, even inside a name or a multibyte character.
                    data = intact
                    for _ in 0..<Int.random(in: 1...20, using: &random) {
                        data.insert(contentsOf: [0x0D, 0x0A, 0x20], at: Int.random(in: 0...data.count, using: &random))
                    }
                }
                guard let expansion = try? CalendarEvents.expand(data, from: from, until: until, zone: zone) else { continue }
                read += 1
                #expect(expansion.occurrences.allSatisfy { $0.start >= from && $0.start < until }, "\(name) round \(round)")
                #expect(expansion.occurrences.count <= CalendarEvents.maximumOccurrences)
            }
        }
        #expect(read > 300, "most damaged calendars are still calendars: \(read) read")
        // Through the binary: a few, each answered in one line.
        let sandbox = Sandbox()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ics-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for round in 0..<12 {
            let intact = try Data(contentsOf: URL(fileURLWithPath: CalendarTests.calendar(Self.seeds[round % Self.seeds.count])))
            let path = "\(scratch)/\(round).ics"
            try HostileInputFuzzTests.damaged(intact, [.flipped, .cut, .spliced][round % 3], using: &random).write(to: URL(fileURLWithPath: path))
            let added = try sandbox.run(["calendar", "add", "c\(round)", "--ics", path, "--skip", "--now", Paths.capturedAt])
            #expect(added.status == 0 || added.status == 69 && added.stderr.split(separator: "\n").count == 1, "\(added)")
            let listed = try sandbox.run(["calendar", "events", "c\(round)", "--now", Paths.capturedAt])
            #expect(listed.status == (added.status == 0 ? 0 : 64), "\(listed)")
            for output in [added.stdout, added.stderr, listed.stdout] {
                #expect(output.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(output)")
            }
        }
    }
}

/// `calendars.json` damaged every way: every command answers (0, doctor's 1, or 65 naming the
/// file), prints nothing hidden, and doctor says the calendars' alerts are not planned; the next
/// refresh after it is moved aside plans them again.
@Suite(.ownThreads) struct CalendarStoreFuzzTests {
    @Test func aDamagedCalendarsFileIsNamedAndNeverSilent() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 39)
        let sandbox = try CalendarTests.withWorkCalendar()
        try sandbox.ok(["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1", "--now", Paths.capturedAt])
        let intact = try #require(sandbox.bytes("calendars.json"))
        let damages: [HostileInputFuzzTests.Damage] = [.flipped, .cut, .lengthened, .replaced, .spliced]
        for round in 0..<10 {
            try Sandbox.write(sandbox.path("calendars.json"), HostileInputFuzzTests.damaged(intact, damages[round % damages.count], using: &random))
            for command in [["pending"], ["calendar", "list"], ["calendar", "events", "work"], ["doctor"], ["tick"], ["status"]] {
                // (calendar list shows no time of day: it takes no --now; the sandbox's clock is pinned.)
                let outcome = try sandbox.run(command + (command == ["calendar", "list"] ? [] : ["--now", Paths.capturedAt]))
                #expect([0, 1, 65].contains(outcome.status), "round \(round) \(command): \(outcome)")
                if outcome.status == 65 { #expect(outcome.stderr.contains(sandbox.path("calendars.json")), "\(command): \(outcome)") }
                for text in [outcome.stdout, outcome.stderr] {
                    #expect(text.unicodeScalars.allSatisfy { !DisplayText.isHidden($0) || $0 == "\n" }, "\(command): \(text)")
                }
            }
        }
        try Sandbox.write(sandbox.path("calendars.json"), Data("{\"version\":1,".utf8))
        let doctor = try sandbox.run(["doctor", "--now", Paths.capturedAt])
        #expect(Whole.normal(doctor.stdout).contains("""
            problem  calendars     unreadable: $TMP/calendars.json: not valid JSON; the file was left untouched — fix or move it aside, then try again; no calendar's departures or days off are planned
                                   → move calendars.json aside: the next refresh reads every calendar again
            """), "\(doctor)")
        try FileManager.default.removeItem(atPath: sandbox.path("calendars.json"))
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet", "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout.hasPrefix("3 alerts scheduled (cap 64); 0 deferred.\n"))
    }
}

/// Where an event is, as its writer put it: GEO (`lat;lon`), or Apple's structured location (a
/// `geo:lat,lon` URI behind quoted parameters holding colons and escaped line breaks).
@Suite(.ownThreads) struct EventPlaceTests {
    @Test func geoAndApplesStructuredLocationGiveThePoint() throws {
        let zone = try #require(IANAZone(identifier: "Europe/Zurich"))
        let apple = try Data(contentsOf: URL(fileURLWithPath: CalendarTests.calendar("real/icalendar-x_location.ics")))
        let from = 1_477_605_600  // 2016-10-28 00:00 in Zurich
        let expansion = try CalendarEvents.expand(apple, from: from, until: from + 86_400, zone: zone)
        #expect(expansion.occurrences.map(\.place) == [Coordinate(latitude: 52.382762, longitude: 7.528319)])
        let places = try Data(contentsOf: URL(fileURLWithPath: CalendarTests.calendar("places.ics")))
        let morning = 1_894_694_400  // 2030-01-15 00:00 UTC
        let dentist = try CalendarEvents.expand(places, from: morning, until: morning + 86_400, zone: zone).occurrences.first
        #expect(dentist?.summary == "Dentist" && dentist?.place == Coordinate(latitude: 47.6205, longitude: -122.3493))
    }
}
