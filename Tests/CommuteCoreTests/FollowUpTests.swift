import Foundation
import TestThreads
import Testing

import Basics
@testable import CommuteModel

/// What following a trip decides to say (`FollowUp.judge`), for the changes the end-to-end tests
/// (`FollowTests`) do not reach: early, a broken connection, a later leg late, no run left.
@Suite(.ownThreads) struct FollowUpTests {
    static let zone = IANAZone(identifier: "America/Los_Angeles")
    static func at(_ text: String) -> Date { ISO8601.parse("2026-11-24T\(text):00-08:00")?.instant ?? .distantPast }
    static var calendar: ZonedCalendar { ZonedCalendar(timeZone: zone ?? .utc, around: at("08:00")) }

    /// A door-to-door trip: a 6-minute walk, the 545 at `bus`, then (with `connection`) the B line
    /// at `connection`, arriving at `arrive`.
    static func trip(bus: String, late: Int = 0, connection: String? = nil, connectionCancelled: Bool = false, arrive: String, cancelled: Bool = false)
        -> TransitDeparture
    {
        let leaves = at(bus).addingTimeInterval(TimeInterval(late * 60))
        var legs = [
            TransitLeg(mode: "WALK", line: nil, headsign: nil, from: "START", to: "Stop A", departure: leaves.addingTimeInterval(-360), arrival: leaves,
                       scheduledDeparture: at(bus).addingTimeInterval(-360), realtime: false, cancelled: false),
            TransitLeg(mode: "BUS", line: "545", headsign: "Redmond", from: "Stop A", to: "Stop B", departure: leaves, arrival: leaves.addingTimeInterval(900),
                       scheduledDeparture: at(bus), realtime: true, cancelled: cancelled),
        ]
        if let connection {
            legs.append(TransitLeg(mode: "TRAM", line: "B", headsign: "Bellevue", from: "Stop B", to: "Stop C", departure: at(connection),
                                   arrival: at(arrive), scheduledDeparture: at(connection), realtime: true, cancelled: connectionCancelled))
        }
        var departure = TransitDeparture(
            tripID: "545-\(bus)", line: connection == nil ? "545" : "545 → B", headsign: "Redmond", scheduled: at(bus).addingTimeInterval(-360),
            predicted: leaves.addingTimeInterval(-360), delaySeconds: late * 60, canceled: cancelled || connectionCancelled, skipped: false, arrival: at(arrive),
            scheduledArrival: at(arrive))
        departure.legs = legs
        return departure
    }

    static func followed(_ departure: TransitDeparture) -> FollowedTrip {
        FollowedTrip(route: "bus", departure: departure, walkMinutes: 0, deadline: at("09:00"), at: at("08:11"))
    }

    @Test func earlyPastTheThresholdSaysWhenToLeaveOrNow() throws {
        let planned = Self.trip(bus: "08:17", arrive: "08:51")
        let early = Self.trip(bus: "08:17", late: -6, arrive: "08:45")
        let said = try #require(FollowUp.judge(Self.followed(planned), found: early, later: [], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar))
        #expect(said.title == "The 8:17 AM 545 to Redmond leaves 6 min early, at 8:11 AM: leave now")
        #expect(said.reason == "6 min early")
        let sooner = try #require(FollowUp.judge(Self.followed(planned), found: early, later: [], walkMinutes: 0, threshold: 5, at: Self.at("08:02"), calendar: Self.calendar))
        #expect(sooner.title == "The 8:17 AM 545 to Redmond leaves 6 min early, at 8:11 AM: leave by 8:05 AM")
        // Under the threshold: nothing to say.
        let slightly = Self.trip(bus: "08:17", late: 4, arrive: "08:55")
        #expect(FollowUp.judge(Self.followed(planned), found: slightly, later: [], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar) == nil)
        // Nothing known of the run: no news.
        #expect(FollowUp.judge(Self.followed(planned), found: nil, later: [], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar) == nil)
    }

    @Test func aBrokenConnectionNamesTheLegAndTheNextWay() throws {
        let planned = Self.trip(bus: "08:17", connection: "08:40", arrive: "08:52")
        let broken = Self.trip(bus: "08:17", connection: "08:40", connectionCancelled: true, arrive: "08:52")
        let next = Self.trip(bus: "08:32", connection: "08:55", arrive: "09:07")
        let said = try #require(FollowUp.judge(
            Self.followed(planned), found: broken, later: [broken, next], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar))
        #expect(said.title == "Your connection is broken: the B at 8:40 AM is cancelled: take the 8:32 AM (leave 8:26 AM)")
        #expect(said.lines == ["The 545 → B to Redmond arrives 9:07 AM, 7 min late"])
        #expect(said.next.run == next.run && said.next.followUps == 1)
        // No run left to take: said, and following stops.
        let none = try #require(FollowUp.judge(
            Self.followed(planned), found: broken, later: [broken], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar))
        #expect(none.title == "Your connection is broken: the B at 8:40 AM is cancelled: no later run is known")
        #expect(none.next.stopped != nil && none.next.nextCheck == nil)
    }

    @Test func aLaterLegLateMovesTheArrivalAndSaysSo() throws {
        let planned = Self.trip(bus: "08:17", connection: "08:40", arrive: "08:52")
        let later = Self.trip(bus: "08:17", connection: "08:40", arrive: "09:04")
        let said = try #require(FollowUp.judge(
            Self.followed(planned), found: later, later: [], walkMinutes: 0, threshold: 5, at: Self.at("08:14"), calendar: Self.calendar))
        #expect(said.title == "Your connection on the 8:17 AM 545 → B to Redmond is late: you arrive 9:04 AM, 4 min late")
        #expect(said.reason == "arrival moved +12 min")
    }

    @Test func looksComeEverySixMinutesAndStopTwoMinutesBeforeTheLineLeaves() throws {
        var trip = Self.followed(Self.trip(bus: "08:41", arrive: "09:00"))  // boards 8:41, told at 8:11
        var looks: [Date] = []
        while let next = trip.nextCheck {
            looks.append(next)
            trip.checkedAt = next
            trip.requests += 1
        }
        #expect(looks.map { Self.calendar.local($0).time.label } == ["8:17 AM", "8:23 AM", "8:29 AM", "8:35 AM", "8:38 AM"])
    }
}
