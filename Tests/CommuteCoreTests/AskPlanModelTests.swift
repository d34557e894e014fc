import Foundation
import TestThreads
import Testing

import Basics
@testable import CommuteModel

/// What a route's predictions say for a departure (`Route.predicted(leavingAt:)`,
/// `leaving(arrivingBy:)`) and when the request plan asks (`AskPlan.decide`, `converge`), for the
/// cases the end-to-end tests (`AskPlanTests`) do not reach one by one.
@Suite(.ownThreads) struct AskPlanModelTests {
    static func at(_ text: String) -> Date { ISO8601.parse("2026-11-24T\(text):00-08:00")?.instant ?? .distantPast }

    /// A TomTom route read at `read` (minutes, usual), with predictions `(departure, seconds, asked)`.
    static func route(read: (at: String, minutes: Int, usual: Int)? = nil, factor: Double? = nil, _ predictions: [(String, Double, String)]) -> Route {
        guard let from = Coordinate("47.6097,-122.3422"), let to = Coordinate("47.6712,-122.1185") else { return Route.missing }
        var custom = Route.Custom(provider: .tomtom, from: from, to: to, fetchedAt: at("05:00"), triedAt: at(read?.at ?? "05:00"))
        custom.predictions = predictions.map { Prediction(departure: at($0.0), minutes: Int(($0.1 / 60).rounded()), seconds: $0.1, askedAt: at($0.2)) }
        custom.readingFactor = factor
        return Route(
            id: "drive", name: "Drive", description: nil, currentMinutes: read?.minutes, averageMinutes: read?.usual,
            updatedAt: at(read?.at ?? "05:00"), custom: custom)
    }

    @Test func aPredictionServesItsMomentAndALineIsDrawnBetweenTwo() throws {
        let drive = Self.route([("08:00", 2_400, "06:00"), ("08:20", 3_000, "06:00")])
        #expect(drive.predicted(leavingAt: Self.at("08:01"))?.seconds == 2_400)
        // Half way: half of the 10 minutes between them.
        #expect(drive.predicted(leavingAt: Self.at("08:10"))?.seconds == 2_700)
        // Past the later one, the line carried on for a few minutes; far away, nothing.
        #expect(drive.predicted(leavingAt: Self.at("08:25"))?.seconds == 3_150)
        #expect(drive.predicted(leavingAt: Self.at("09:00")) == nil)
        // Asked when? The older of the two a line is drawn between.
        #expect(drive.predicted(leavingAt: Self.at("08:10"))?.askedAt == Self.at("06:00"))
    }

    @Test func aReadingOfNowMovesAPredictionByTodaysTraffic() throws {
        // Read at 7:50: 10% slower than usual then. The 8:00 prediction (TomTom's usual traffic,
        // its delay 0) is moved by it, and dated by the reading.
        let drive = Self.route(read: ("07:50", 44, 40), factor: 1.1, [("08:00", 2_400, "06:00"), ("08:25", 2_500, "06:00")])
        let moved = try #require(drive.predicted(leavingAt: Self.at("08:00")))
        #expect(abs((moved.seconds ?? 0) - 2_640) < 0.001 && moved.minutes == 44 && moved.askedAt == Self.at("07:50"))
        // A reading more than half an hour from the departure moves nothing.
        #expect(drive.predicted(leavingAt: Self.at("08:25"))?.seconds == 2_500)
    }

    @Test func theLeaveTimeIsWhereThePredictionLandsOnTheArrival() throws {
        // 40 min leaving 8:00, 50 leaving 8:20: to be there by 8:55, leave 8:10 (45 min: 8:55 on
        // the dot; 8:11 + 45.5 min is too late): the latest minute that arrives in time.
        let drive = Self.route([("08:00", 2_400, "06:00"), ("08:20", 3_000, "06:00")])
        let leaving = drive.leaving(arrivingBy: Self.at("08:55"))
        let departure = try #require(leaving.custom?.predictedFor)
        let minutes = try #require(leaving.currentMinutes)
        #expect(departure.addingTimeInterval(TimeInterval(minutes * 60)) <= Self.at("08:55").addingTimeInterval(60))
        #expect(Self.at("08:55").addingTimeInterval(TimeInterval(-minutes * 60)) == Self.at("08:10") && departure == Self.at("08:10"))
        // Without predictions, the route is as it is (its reading of now).
        let plain = Self.route(read: ("07:00", 30, 30), [])
        #expect(plain.leaving(arrivingBy: Self.at("08:55")) == plain)
    }

    @Test func aLaterAnswerReplacesEarlierOnesNearItAndAJumpMakesTheRouteMoving() throws {
        var drive = Self.route([("08:00", 2_400, "06:00"), ("08:10", 2_700, "06:00"), ("09:30", 2_000, "06:00")])
        drive.keep(Prediction(departure: Self.at("08:05"), minutes: 65, seconds: 3_900, askedAt: Self.at("07:50")), now: Self.at("07:50"))
        #expect(drive.custom?.predictions?.map(\.departure) == [Self.at("08:05"), Self.at("09:30")])
        #expect(drive.isMoving(at: Self.at("07:55")) && !drive.isMoving(at: Self.at("08:30")))
        // The same minute's answers (a question and its convergence) stand together.
        drive.keep(Prediction(departure: Self.at("07:45"), minutes: 64, seconds: 3_840, askedAt: Self.at("07:50")), now: Self.at("07:50"))
        #expect(drive.custom?.predictions?.count == 3)
    }

    @Test func thePlanAsksFirstThenCloseToTheAlertThenWaits() throws {
        let alert = AskPlan.Occasion(
            send: Self.at("08:10"), departure: Self.at("08:10"), target: Self.at("08:55"), label: "the 9:00 AM arrive-by alert", opens: Self.at("06:00"))
        var drive = Self.route(read: ("05:00", 30, 30), [])
        drive.custom?.triedAt = Self.at("05:00")
        // Nothing serves 8:10 yet: asked about leaving then.
        guard case .ask(let first) = AskPlan.decide(drive, occasions: [alert], now: Self.at("06:00")) else { Issue.record("no first ask"); return }
        #expect(first.why == .first && first.query == RoutingQuery(time: Self.at("08:10"), arriveBy: false))
        // Answered: the plan waits until 12 minutes before the alert.
        drive = Self.route(read: ("05:00", 30, 30), [("08:10", 2_700, "06:00")])
        drive.custom?.triedAt = Self.at("06:00")
        #expect(AskPlan.decide(drive, occasions: [alert], now: Self.at("07:00"))
            == .wait(last: Self.at("06:00"), next: Self.at("07:58"), occasion: alert))
        // Then a reading of now: today's traffic.
        guard case .ask(let last) = AskPlan.decide(drive, occasions: [alert], now: Self.at("07:58")) else { Issue.record("no last ask"); return }
        #expect(last.why == .final && last.query == .now(Self.at("07:58")))
        // Never twice in one minute, whatever asked.
        drive.custom?.triedAt = Self.at("07:58")
        guard case .wait = AskPlan.decide(drive, occasions: [alert], now: Self.at("07:58")) else { Issue.record("asked twice in a minute"); return }
        // An answer that moves the departure far from any prediction is asked about again.
        let moved = Self.route([("08:10", 3_300, "06:00")])
        let again = AskPlan.converge(after: first, answered: moved, now: Self.at("06:00"))
        #expect(again?.why == .converge && again?.query.time == Self.at("08:00"))
        #expect(AskPlan.converge(after: try #require(again), answered: moved, now: Self.at("06:00")) == nil)
    }

    @Test func aSingleFarAnswerIsAskedAgainWhereItMovesTheDeparture() throws {
        // Tuesday at 6:01, asked about 8:18 (Monday's guess): 42 min 20 s, landing 9:00:20 for an
        // arrival at 8:55. Leaving 8:12:40 is 5 min 20 s from the only answer near it: asked again,
        // and until then the leave time rests on that answer, not on last evening's reading.
        var drive = Self.route(read: ("06:48", 31, 31), [("07:00", 1_852, "06:00"), ("08:18", 2_540, "06:01")])
        drive.updatedAt = Self.at("06:48").addingTimeInterval(-86_400)
        let alert = AskPlan.Occasion(send: Self.at("08:18"), departure: Self.at("08:18"), target: Self.at("08:55"), label: "x", opens: Self.at("06:00"))
        let first = AskPlan.Ask(query: RoutingQuery(time: Self.at("08:18"), arriveBy: false), why: .first, occasion: alert)
        #expect(AskPlan.converge(after: first, answered: drive, now: Self.at("06:01"))?.query.time == Self.at("08:12"))
        let leaving = drive.leaving(arrivingBy: Self.at("08:55"))
        #expect(leaving.custom?.predictedFor == Self.at("08:12") && leaving.currentMinutes == 43)
    }

    @Test func aMovingRouteIsAskedEveryFiveMinutesUntilItsAlert() throws {
        let alert = AskPlan.Occasion(send: Self.at("08:30"), departure: Self.at("08:30"), target: nil, label: "the 8:30 AM alert", opens: Self.at("07:30"))
        var drive = Self.route(read: ("07:40", 60, 40), [("08:30", 2_400, "07:30")])
        drive.custom?.movingSince = Self.at("07:40")
        drive.custom?.triedAt = Self.at("07:40")
        guard case .wait = AskPlan.decide(drive, occasions: [alert], now: Self.at("07:43")) else { Issue.record("asked within 5 min"); return }
        guard case .ask(let ask) = AskPlan.decide(drive, occasions: [alert], now: Self.at("07:45")) else { Issue.record("not asked again"); return }
        #expect(ask.why == .moving && ask.query.leavingNow)
    }
}

extension Route {
    /// A stand-in for a route a test could not build.
    static let missing = Route(id: "missing", name: nil, description: nil, currentMinutes: nil, averageMinutes: nil, updatedAt: .distantPast)
}
