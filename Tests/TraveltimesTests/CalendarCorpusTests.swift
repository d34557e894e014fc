import Foundation
import TestThreads
import Testing

/// Every real calendar of `Fixtures/real/calendars` (the test suites of three calendar readers:
/// files Google, Outlook and Exchange, iCloud, Thunderbird, Evolution and booking systems wrote,
/// and the broken ones their users reported), read by `calendar events` and by the oracle,
/// Python's icalendar with recurring_ical_events (`Tests/Support/ics_corpus.py`), in New York over
/// 400 days from each file's first event. They agree on every occurrence but where traveltimes
/// chooses otherwise, each choice named here and in the README.
@Suite(.ownThreads) struct CalendarCorpusTests {
    static let folder = Paths.root.appendingPathComponent("Fixtures/real/calendars").path
    static let corpus = Paths.root.appendingPathComponent("Tests/Support/ics_corpus.py").path

    /// Where traveltimes reads a file otherwise than the oracle, on purpose: why, and how many
    /// occurrences only traveltimes lists and only the oracle lists.
    static let choices: [String: (reason: String, onlyMine: Int, onlyTheirs: Int)] = [
        "icalendar-issue_165_missing_event.ics": (Self.exchangeSpaces, 14, 0),
        "icalendar-issue_526_calendar_with_different_events.ics": (Self.unknownZone, 0, 2),
        "icalendar-issue_526_calendar_with_event_subset.ics": (Self.unknownZone, 0, 1),
        "icalendar-issue_526_calendar_with_events.ics": (Self.unknownZone, 0, 2),
        "icalendar-issue_526_calendar_with_shuffeled_events.ics": (Self.unknownZone, 0, 2),
        "icalendar-issue_722_missing_VTIMEZONE_custom.ics": (Self.unknownZone, 0, 1),
        "icalevents-rrule_until_only_date.ics": (Self.untilDate, 1, 0),
        "recurring-issue_75_range_parameter.ics": (Self.untilDate, 1, 0),
        "recurring-issue_201_mixed_datetime_and_date.ics": (Self.dateWithTimedEnd, 1, 0),
        "recurring-issue_201_test_matrix.ics": (Self.dateWithTimedEnd, 3, 3),
    ]
    static let exchangeSpaces = "Exchange's `BYDAY=MO, TU` (spaces after the commas) is read as Outlook means it; the oracle refuses the series"
    static let unknownZone = "a TZID that no VTIMEZONE of the file, tz database name or Windows zone defines is not guessed: the event is listed as unreadable"
    static let untilDate = "an UNTIL written as a date on a timed series includes that day; the oracle ends the series at that day's midnight UTC"
    static let dateWithTimedEnd = "a DTSTART that is a date with a DTEND that is a time is an all-day event on that date; the oracle moves it into the end's zone"

    @Test(ExternalTool.recurringICalEvents.needed) func everyOccurrenceOfEveryRealCalendarIsTheOraclesButWhereChosen() throws {
        let said = try execute(["python3", Self.corpus, Self.folder, "America/New_York", "400"], environment: ProcessInfo.processInfo.environment)
        #expect(said.status == 0, "\(said.stderr)")
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(said.stdout.utf8)) as? [String: [String: Any]])
        let formatter = ISO8601DateFormatter()
        var identical = 0, total = 0, files = 0
        var differing: Set<String> = []
        for name in oracle.keys.sorted() {
            guard let answer = oracle[name], let day = answer["start"] as? String, let theirs = answer["lines"] as? [String] else {
                // A file the oracle cannot read (a fuzzer's, a broken one): never a crash here.
                let sandbox = Sandbox(zone: "America/New_York")
                let added = try sandbox.run(["calendar", "add", "c", "--ics", "\(Self.folder)/\(name)", "--skip", "--now", "2020-01-01T00:00:00Z"])
                #expect([0, 65].contains(added.status) && !added.stderr.contains("\u{1B}"), "\(name): \(added)")
                continue
            }
            files += 1
            let sandbox = Sandbox(zone: "America/New_York")
            try sandbox.ok(["calendar", "add", "c", "--ics", "\(Self.folder)/\(name)", "--skip", "--now", "\(day)T00:00:00Z"])
            let listed = try sandbox.ok(["calendar", "events", "c", "--days", "400", "--json", "--now", "\(day)T12:00:00Z"])
            let events = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let mine = events.map { event -> String in
                let start = formatter.date(from: event["start"] as? String ?? "").map { Int($0.timeIntervalSince1970) } ?? -1
                return "\(start)\t\((event["allDay"] as? Bool) == true ? 1 : 0)\t\(event["summary"] as? String ?? "")"
            }.sorted()
            var onlyMine = mine, onlyTheirs = theirs
            for line in theirs { if let index = onlyMine.firstIndex(of: line) { onlyMine.remove(at: index) } }
            for line in mine { if let index = onlyTheirs.firstIndex(of: line) { onlyTheirs.remove(at: index) } }
            total += theirs.count
            identical += theirs.count - onlyTheirs.count
            if let choice = Self.choices[name] {
                differing.insert(name)
                #expect(onlyMine.count == choice.onlyMine && onlyTheirs.count == choice.onlyTheirs, "\(name) (\(choice.reason)): \(onlyMine) against \(onlyTheirs)")
            } else {
                #expect(mine == theirs, "\(name) in New York")
            }
        }
        // Every choice is met in the corpus; and the corpus is what it is said to be.
        #expect(differing == Set(Self.choices.keys))
        #expect(files == 191 && total == 6_503 && identical == 6_492, "\(files) files, \(identical) of \(total) occurrences identical")
    }
}

/// The cases real calendars showed read wrongly, each through `calendar events` as the oracle
/// reads it (or as chosen, where `CalendarCorpusTests.choices` says).
@Suite(.ownThreads) struct RealCalendarCaseTests {
    func events(_ file: String, zone: String, from day: String, days: Int) throws -> Outcome {
        let sandbox = Sandbox(zone: zone)
        try sandbox.ok(["calendar", "add", "c", "--ics", CalendarTests.calendar(file), "--skip", "--now", "\(day)T00:00:00Z"])
        return try sandbox.ok(["calendar", "events", "c", "--days", String(days), "--now", "\(day)T12:00:00Z"])
    }

    /// `RRULE:FREQ=WEEKLY;UNTL=20191023;…`: the misspelt part is not taken as "no end" (an
    /// endless series), nor dropped: the series is skipped and said, as recurring_ical_events
    /// skips a bad series.
    @Test func aMisspeltRulePartSkipsTheSeriesAndSaysSo() throws {
        #expect(try events("real/recurring-bad_rrule_missing_until_event.ics", zone: "Europe/London", from: "2019-08-01", days: 120).stdout == """
            Skipped, unreadable: line 2 (blabla): RRULE: UNTL is not a part of a rule (RFC 5545 §3.3.10)

            """)
    }

    /// X-WR-TIMEZONE:Europe/Brussels and `DTSTART:20210916T210000` (floating): 9:00 PM in
    /// Brussels, which is 3:00 PM in New York — not 9:00 PM New York time.
    @Test func xWRTimezoneIsTheZoneOfFloatingTimes() throws {
        #expect(try events("real/recurring-issue_86_x_wr_timezone_without_time_zone_in_dt.ics", zone: "America/New_York", from: "2021-09-16", days: 2).stdout == """
            Thu, Sep 16
              3:00 PM–4:45 PM     Summary

            """)
    }

    /// Exchange's all-day series "Away" (Wednesdays and Fridays) with the Friday of April 9
    /// moved to Saturday the 10th, its RECURRENCE-ID written as a zoned midnight: the Friday is
    /// gone, the Saturday is there.
    @Test func anAllDayInstanceMovedByOutlookLeavesItsDay() throws {
        #expect(try events("real/icalevents-recurrenceid_ms.ics", zone: "Europe/Berlin", from: "2021-04-05", days: 7).stdout == """
            Wed, Apr 7
              all day             Away
            Sat, Apr 10
              all day             Away

            """)
    }

    /// UID 111 sent twice: SEQUENCE 1 ("test123") and SEQUENCE 2 ("test123 - edited", with
    /// EXDATE 2024-07-15): the newer copy is the series.
    @Test func aSeriesSentAgainIsItsNewestCopy() throws {
        #expect(try events("real/recurring-issue_148_ignored_exdate.ics", zone: "America/New_York", from: "2024-07-01", days: 31).stdout == """
            Mon, Jul 1
              all day             test123 - edited
            Mon, Jul 29
              all day             test123 - edited

            """)
    }

    /// Written here (`checklist/floating-exdate-and-emoji.ics`): a floating daily series at 9:00
    /// whose EXDATE is written in UTC (`20251104T090000Z`) loses its Tuesday in Los Angeles too;
    /// emoji keep their variation selector and joiner (☕️, 👩‍💻), while a joiner or selector
    /// between letters is still shown as what it is, hidden text.
    @Test func aUTCExceptionOfAFloatingSeriesAndEmojiAsWritten() throws {
        #expect(try events("checklist/floating-exdate-and-emoji.ics", zone: "America/Los_Angeles", from: "2025-11-03", days: 4).stdout == """
            Mon, Nov 3
              9:00 AM–9:30 AM     Floating standup, its EXDATE in UTC
            Wed, Nov 5
              4:00 AM–5:00 AM     ☕️ Coffee with 👩‍💻 team
              7:00 AM–7:00 AM     Not\u{FFFD}an emoji\u{FFFD} joiner
              9:00 AM–9:30 AM     Floating standup, its EXDATE in UTC
            Thu, Nov 6
              9:00 AM–9:30 AM     Floating standup, its EXDATE in UTC

            """)
    }
}
