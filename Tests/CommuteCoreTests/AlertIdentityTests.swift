@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The typed identities and reasons, and their one codec: every form the files hold reads back
/// as what wrote it, and nothing else reads at all.
@Suite(.ownThreads) struct AlertIdentityTests {
    let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF") ?? UUID()

    @Test func everyAlertReadsBackAsWritten() {
        let alerts: [(AlertID, String)] = [
            (.schedule(id, .wednesday, headsUp: false), "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.4"),
            (.schedule(id, .sunday, headsUp: true), "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.1.heads-up"),
            (.watch(routeID: "70", .over), "watch.70.over"),
            (.watch(routeID: "home.work", .clear), "watch.home.work.clear"),
            (.health(.refresh, mended: false), "health.refresh"),
            (.health(.data, mended: true), "health.data.mended"),
            (.test(1_762_300_800), "test.1762300800"),
        ]
        for (alert, text) in alerts {
            #expect(alert.description == text)
            #expect(AlertID(text) == alert, "\(text)")
        }
        #expect(AlertID("schedule.6F9619FF-8B86-D011-B42D-00CF4FC964FF.weekday.4") == .schedule(id, .wednesday, headsUp: false))
        #expect(AlertID.schedule(id, .wednesday, headsUp: false).shortDescription == "schedule.6f9619ff.weekday.4")
        #expect(AlertID.watch(routeID: "70", .over).shortDescription == "watch.70.over")
    }

    @Test func textThatIsNoAlertIsRefused() {
        for text in [
            "", "x", "schedule.", "schedule.6f9619ff.weekday.4", "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.8",
            "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.4.later", "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.day.4",
            "watch.70", "watch..over", "watch.70.under", "health.mood", "health.data.fixed", "test.", "test.1.5", "test.+1", "Health.data",
        ] {
            #expect(AlertID(text) == nil, "\(text)")
        }
    }

    @Test func theKindsKeepTheirOwnNotifications() throws {
        let calendar = ZonedCalendar(timeZone: try #require(IANAZone(identifier: "America/Los_Angeles")), around: Date(timeIntervalSince1970: 1_762_300_800))
        let at = Date(timeIntervalSince1970: 1_762_300_800)
        // A heads-up and its leave alert share one notification; a problem and its end too.
        let leave = AlertKey(.schedule(id, .tuesday, headsUp: false), occurrence: at, calendar: calendar)
        #expect(AlertKey(.schedule(id, .tuesday, headsUp: true), occurrence: at, calendar: calendar) == leave)
        #expect(leave.description == "schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.3@2025-11-05T00:00:00Z")
        #expect(AlertKey(.health(.data, mended: true), occurrence: at, calendar: calendar) == AlertKey(.health(.data, mended: false), occurrence: at, calendar: calendar))
        // A watch's over and clear share one a local day: 4:00 PM in Los Angeles is still the 4th.
        let watch = AlertKey(.watch(routeID: "70", .clear), occurrence: at, calendar: calendar)
        #expect(watch == AlertKey(.watch(routeID: "70", .over), occurrence: at.addingTimeInterval(-3_600), calendar: calendar))
        #expect(watch.description == "watch.70@2025-11-04")
        for key in [leave, watch, AlertKey(.test(7), occurrence: at, calendar: calendar)] {
            #expect(AlertKey(key.description) == key)
        }
        for text in ["k\u{7}", "schedule.x@2025-11-05T00:00:00Z", "watch.70@2025-02-30", "watch.70@yesterday", "test.1", "test.1@"] {
            #expect(AlertKey(text) == nil, "\(text)")
        }
        #expect(leave.belongs(toSchedules: try #require(ScheduleIDPrefix("6F96"))))
        #expect(!watch.belongs(toSchedules: try #require(ScheduleIDPrefix("6f96"))))
        #expect(ScheduleIDPrefix("") == nil && ScheduleIDPrefix("xyz") == nil)
    }

    @Test func holdReasonsReadBackAsTheyAreSaid() {
        let reasons: [(HoldReason, String)] = [
            (.quietHours(QuietHours(start: TimeOfDay(hour: 22, minute: 0), end: TimeOfDay(hour: 7, minute: 0))), "quiet hours (10:00 PM–7:00 AM)"),
            (.quietHours(nil), "quiet hours"),
            (.dailyCap(20, .schedule), "daily cap of 20 standard alerts reached"),
            (.dailyCap(4, .health), "daily cap of 4 health alerts reached"),
        ]
        for (reason, text) in reasons {
            #expect(reason.description == text)
            #expect(HoldReason(text) == reason, "\(text)")
        }
        #expect(HoldReason.dailyCap(4, .health).until == "tomorrow" && HoldReason.quietHours(nil).until == "when they end")
        for text in ["", "quiet", "quiet hours (late)", "daily cap of many standard alerts reached", "daily cap of 3 odd alerts reached"] {
            #expect(HoldReason(text) == nil, "\(text)")
        }
    }
}
