@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct CivilDateTests {
    @Test func dayNumbersRoundTripAndKnowTheirWeekday() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).dayNumber == 0)
        #expect(CivilDate(dayNumber: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(year: 2000, month: 2, day: 29).dayNumber == 11_016)
        #expect(CivilDate(year: 2025, month: 11, day: 4).weekday == .tuesday)
        #expect(CivilDate(year: 1969, month: 12, day: 31).weekday == .wednesday)
        for dayNumber in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(dayNumber: dayNumber).dayNumber == dayNumber)
        }
        #expect(!CivilDate(year: 2026, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2028, month: 2, day: 29).isValid)
    }
}

@Suite(.ownThreads) struct DaylightSavingTests {
    // Expected values worked out by hand from each zone's rules, and for every case that is not a
    // gap, identical to `systemd-analyze calendar` (see SystemdOracleTests).

    @Test func ordinaryWeekInLosAngeles() {
        #expect(nextFire(.wednesday, 7, 0, after: "2025-11-04T16:00:00-08:00", in: "America/Los_Angeles")
            == "2025-11-05T07:00:00-08:00")
        // Strictly after now: at exactly 7:00 the next one is a week on.
        #expect(nextFire(.wednesday, 7, 0, after: "2025-11-05T07:00:00-08:00", in: "America/Los_Angeles")
            == "2025-11-12T07:00:00-08:00")
        #expect(nextFire(.tuesday, 16, 30, after: "2025-11-04T16:00:00-08:00", in: "America/Los_Angeles")
            == "2025-11-04T16:30:00-08:00")
    }

    @Test func springForwardGapFiresAtTheFirstMinuteAfterItSameDay() {
        // 2026-03-08: 02:00 PST jumps to 03:00 PDT. 02:30 does not exist; it fires at 03:00.
        #expect(nextFire(.sunday, 2, 30, after: "2026-03-07T12:00:00-08:00", in: "America/Los_Angeles")
            == "2026-03-08T03:00:00-07:00")
        #expect(nextFire(.sunday, 2, 0, after: "2026-03-07T12:00:00-08:00", in: "America/Los_Angeles")
            == "2026-03-08T03:00:00-07:00")
        // Times either side of the gap are untouched.
        #expect(nextFire(.sunday, 1, 59, after: "2026-03-07T12:00:00-08:00", in: "America/Los_Angeles")
            == "2026-03-08T01:59:00-08:00")
        #expect(nextFire(.sunday, 3, 0, after: "2026-03-07T12:00:00-08:00", in: "America/Los_Angeles")
            == "2026-03-08T03:00:00-07:00")
        // The week after, 02:30 exists again.
        #expect(nextFire(.sunday, 2, 30, after: "2026-03-08T03:00:00-07:00", in: "America/Los_Angeles")
            == "2026-03-15T02:30:00-07:00")
    }

    @Test func fallBackRepeatFiresOnceAtTheFirstOccurrence() {
        // 2026-11-01: 02:00 PDT falls back to 01:00 PST; 01:30 happens twice.
        #expect(nextFire(.sunday, 1, 30, after: "2026-10-31T12:00:00-07:00", in: "America/Los_Angeles")
            == "2026-11-01T01:30:00-07:00")
        // Between the two occurrences the second one is not a new fire: next week.
        #expect(nextFire(.sunday, 1, 30, after: "2026-11-01T01:45:00-07:00", in: "America/Los_Angeles")
            == "2026-11-08T01:30:00-08:00")
        #expect(nextFire(.sunday, 1, 30, after: "2026-11-01T01:10:00-08:00", in: "America/Los_Angeles")
            == "2026-11-08T01:30:00-08:00")
    }

    @Test func halfHourShiftOnLordHowe() {
        // Lord Howe moves 30 minutes: 2026-10-04 02:00 +10:30 → 02:30 +11:00.
        #expect(nextFire(.sunday, 2, 15, after: "2026-10-03T12:00:00+10:30", in: "Australia/Lord_Howe")
            == "2026-10-04T02:30:00+11:00")
        // 2026-04-05 02:00 +11:00 → 01:30 +10:30: 01:45 happens twice; first one wins.
        #expect(nextFire(.sunday, 1, 45, after: "2026-04-04T12:00:00+11:00", in: "Australia/Lord_Howe")
            == "2026-04-05T01:45:00+11:00")
    }

    @Test func twoHourShiftOnTroll() {
        // Troll goes from +00:00 to +02:00 at 01:00 UTC on 2026-03-29: 01:00–03:00 does not exist.
        #expect(nextFire(.sunday, 1, 30, after: "2026-03-28T12:00:00Z", in: "Antarctica/Troll")
            == "2026-03-29T03:00:00+02:00")
        #expect(nextFire(.sunday, 2, 59, after: "2026-03-28T12:00:00Z", in: "Antarctica/Troll")
            == "2026-03-29T03:00:00+02:00")
        // And back on 2026-10-25: 01:00–03:00 local happens twice.
        #expect(nextFire(.sunday, 2, 0, after: "2026-10-24T12:00:00+02:00", in: "Antarctica/Troll")
            == "2026-10-25T02:00:00+02:00")
    }

    @Test func midnightGapInSantiagoKeepsTheDay() {
        // Chile springs forward at 24:00 on Saturday 2026-09-05: Sunday starts at 01:00.
        #expect(nextFire(.sunday, 0, 30, after: "2026-09-05T12:00:00-04:00", in: "America/Santiago")
            == "2026-09-06T01:00:00-03:00")
        #expect(nextFire(.sunday, 0, 0, after: "2026-09-05T12:00:00-04:00", in: "America/Santiago")
            == "2026-09-06T01:00:00-03:00")
        // And falls back at 24:00 on Saturday 2026-04-04: Saturday 23:30 happens twice.
        #expect(nextFire(.saturday, 23, 30, after: "2026-04-04T12:00:00-03:00", in: "America/Santiago")
            == "2026-04-04T23:30:00-03:00")
    }

    @Test func zonesWithoutDaylightSaving() {
        #expect(nextFire(.monday, 7, 0, after: "2026-03-08T12:00:00+05:30", in: "Asia/Kolkata")
            == "2026-03-09T07:00:00+05:30")
        #expect(nextFire(.friday, 23, 59, after: "2026-11-20T23:59:00+05:45", in: "Asia/Kathmandu")
            == "2026-11-27T23:59:00+05:45")
        #expect(nextFire(.sunday, 0, 0, after: "2026-06-01T00:00:00Z", in: "UTC") == "2026-06-07T00:00:00Z")
    }

    @Test func aScheduledDayIsNeverSkippedAroundAnyTransition() {
        // Every minute-of-day on the transition Sundays of several zones lands on that same Sunday.
        let cases: [(String, String, CivilDate)] = [
            ("America/Los_Angeles", "2026-03-07T12:00:00Z", CivilDate(year: 2026, month: 3, day: 8)),
            ("America/Los_Angeles", "2026-10-31T12:00:00Z", CivilDate(year: 2026, month: 11, day: 1)),
            ("Australia/Lord_Howe", "2026-10-03T00:00:00Z", CivilDate(year: 2026, month: 10, day: 4)),
            ("Antarctica/Troll", "2026-03-28T12:00:00Z", CivilDate(year: 2026, month: 3, day: 29)),
            ("America/Santiago", "2026-09-05T12:00:00Z", CivilDate(year: 2026, month: 9, day: 6)),
            ("Pacific/Chatham", "2026-09-26T00:00:00Z", CivilDate(year: 2026, month: 9, day: 27)),
            ("Europe/London", "2026-03-28T12:00:00Z", CivilDate(year: 2026, month: 3, day: 29)),
        ]
        for (identifier, now, day) in cases {
            let calendar = ZonedCalendar(timeZone: zone(identifier), around: instant(now))
            for minuteOfDay in 0..<1_440 {
                let fire = calendar.nextFire(
                    weekday: .sunday, hour: minuteOfDay / 60, minute: minuteOfDay % 60, after: instant(now))
                #expect(calendar.local(fire).date == day, "\(identifier) \(minuteOfDay / 60):\(minuteOfDay % 60)")
            }
        }
    }

    @Test func offsetTableMatchesFoundationAcrossTheWindow() {
        for identifier in ["America/Los_Angeles", "Australia/Lord_Howe", "Antarctica/Troll", "Pacific/Chatham"] {
            let timeZone = zone(identifier)
            for now in ["2026-03-08T00:00:00Z", "2026-10-04T00:00:00Z", "2026-09-27T00:00:00Z", "2026-11-01T00:00:00Z"] {
                let calendar = ZonedCalendar(timeZone: timeZone, around: instant(now))
                let start = Int(instant(now).timeIntervalSince1970) - 86_400
                for instant in stride(from: start, to: start + 8 * 86_400, by: 601) {
                    let date = Date(timeIntervalSince1970: TimeInterval(instant))
                    #expect(calendar.offset(at: instant) == timeZone.secondsFromGMT(for: date))
                }
            }
        }
    }
}
