@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Every kind of alert says when its data is old, by one rule; `pending` says it as of the moment
/// each alert would fire; far dates carry their year.
@Suite(.ownThreads) struct DataAgeTests {
    @Test func pendingStatesTheAgeAsOfTheFireNotAsOfThePlan() throws {
        let sandbox = try Sandbox().prepared()  // planned on Tue, Nov 4 at 4:00 PM
        let pending = try sandbox.ok(["pending", "--now", "2025-11-14T06:00:00-08:00"]).stdout
        #expect(pending.contains("""
            Fri, Nov 14, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 9 days old (updated Tue, Nov 4, 4:00 PM)

            """), "\(pending)")
        #expect(!pending.contains("Data is 15 h old"), "\(pending)")
        // What tick then sends says the same.
        let tick = try sandbox.ok(["tick", "--now", "2025-11-14T07:00:10-08:00"]).stdout
        #expect(tick.hasSuffix("Data is 9 days old (updated Tue, Nov 4, 4:00 PM)\n\n"), "\(tick)")
    }

    @Test func arriveByHeadsUpAndLeaveAlertsCarryTheAge() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "10m", "--route", "1", "--days", "wed", "--now", Paths.capturedAt])
        let headsUp = try sandbox.ok(["tick", "--now", "2025-11-05T08:11:05-08:00"]).stdout
        #expect(headsUp == """
            Leave in 10 min (8:21 AM) to arrive by 9:00 AM
            Everett-Seattle: 34 min (-11 min, CLEAR)
            Expected arrival 8:55 AM by Everett-Seattle
            Data is 16 h old (updated Tue, Nov 4, 4:00 PM)


            """, "\(headsUp)")
        let leave = try sandbox.ok(["tick", "--now", "2025-11-05T08:21:05-08:00"]).stdout
        #expect(leave.hasPrefix("Leave now to arrive by 9:00 AM\n") && leave.hasSuffix("Data is 16 h old (updated Tue, Nov 4, 4:00 PM)\n\n"), "\(leave)")
    }

    @Test func aSmartAlertCarriesTheAge() throws {
        let sandbox = Sandbox()
        let feed = try sandbox.feed("slow.json") { routes in routes[1]?["CurrentTime"] = 70 }
        try sandbox.ok(["refresh", "--source", feed, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "wed", "--only-when-delayed", "10", "--now", Paths.capturedAt])
        let smart = try sandbox.ok(["tick", "--now", "2025-11-05T07:00:05-08:00"]).stdout
        #expect(smart == """
            Delay: Everett-Seattle +25 min (7:00 AM alert)
            Everett-Seattle: 70 min (+25 min, CONGESTED)
            Data is 15 h old (updated Tue, Nov 4, 4:00 PM)


            """, "\(smart)")
    }

    @Test func aWatchAlertCarriesTheAge() throws {
        let sandbox = Sandbox()
        let feed = try sandbox.feed("slow.json") { routes in routes[96]?["CurrentTime"] = 45 }
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["watch", "add", "96", "--over", "10"])
        // The feed's readings are from 4:00 PM; refreshed at 6:30 PM, the delay is 2 h old news.
        let refresh = try sandbox.ok(["refresh", "--source", feed, "--now", "2025-11-04T18:30:00-08:00"]).stdout
        #expect(refresh.hasSuffix("""
            Seattle-Bellevue via 90 is running +30 min (usually 15)
            Seattle-Bellevue via 90: 45 min (+30 min, CONGESTED)
            Data is 2 h old (updated 4:00 PM)


            """), "\(refresh)")
    }

    @Test func aDateInAnotherYearCarriesItsYear() throws {
        let sandbox = try Sandbox().prepared()
        let id = String(try #require(try sandbox.scheduleIDs().first).prefix(8))
        let show = try sandbox.ok(["schedule", "show", id, "--now", "2027-12-31T12:00:00-08:00"]).stdout
        #expect(Whole.normal(show) == """
            Schedule $UUID
              Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes
              Time:    7:00 AM
              Days:    Weekdays
              State:   enabled
              Created: Tue, Nov 4, 2025, 4:00 PM
              Routes:
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)
              Next alerts:
                Mon, Jan 3, 2028, 7:00 AM
                Tue, Jan 4, 2028, 7:00 AM
                Wed, Jan 5, 2028, 7:00 AM
                Thu, Jan 6, 2028, 7:00 AM
                Fri, Jan 7, 2028, 7:00 AM

            """, "\(show)")
        #expect(show.contains("    Fri, Dec 31, 7:00 AM") == false)
        #expect(Whole.normal(show) == """
            Schedule $UUID
              Enabled notification at 7:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 3 routes
              Time:    7:00 AM
              Days:    Weekdays
              State:   enabled
              Created: Tue, Nov 4, 2025, 4:00 PM
              Routes:
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)
              Next alerts:
                Mon, Jan 3, 2028, 7:00 AM
                Tue, Jan 4, 2028, 7:00 AM
                Wed, Jan 5, 2028, 7:00 AM
                Thu, Jan 6, 2028, 7:00 AM
                Fri, Jan 7, 2028, 7:00 AM

            """, "\(show)")
    }
}
