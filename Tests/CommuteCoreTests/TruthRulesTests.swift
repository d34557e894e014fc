import Foundation
import TestThreads
import Testing

@_spi(Store) @testable import CommuteCore
@testable import CommuteDelivery
@testable import CommuteModel
@testable import CommuteSources
@testable import CommuteStore

/// The pure rules behind issue 33's cases: a reading's plausibility over its distance, each
/// provider's usual time, and a loop trip's rides.
@Suite(.ownThreads) struct TruthRulesTests {
    @Test func aTimeIsImpossibleFasterThanARoadOrSlowerThanWalking() {
        // 26.72 miles = 43.0 km: at 130 km/h, 20 min; walking at 5 km/h, 516 min.
        #expect(History.isImpossible(minutes: 18, distanceMiles: 26.72))
        #expect(!History.isImpossible(minutes: 20, distanceMiles: 26.72))
        #expect(!History.isImpossible(minutes: 516, distanceMiles: 26.72))
        #expect(History.isImpossible(minutes: 520, distanceMiles: 26.72))
        #expect(!History.isImpossible(minutes: 100_000, distanceMiles: nil))
        #expect(!History.isImpossible(minutes: 1, distanceMiles: 0))
    }

    @Test func tomTomsUsualIsItsHistoricTimeElseItsTimeWithoutTraffic() throws {
        func measure(_ summary: String) throws -> RoutingAPI.Measurement {
            let body = Data(#"{"routes":[{"summary":{\#(summary)}}]}"#.utf8)
            return try RoutingAPI.interpret(HTTPResponse(status: 200, headers: [:], body: body), from: .tomtom).get()
        }
        #expect(try measure(#""travelTimeInSeconds":1800,"historicTrafficTravelTimeInSeconds":1500,"noTrafficTravelTimeInSeconds":1200"#).usualMinutes == 25)
        #expect(try measure(#""travelTimeInSeconds":1800,"noTrafficTravelTimeInSeconds":1200"#).usualMinutes == 20)
        #expect(try measure(#""travelTimeInSeconds":1800"#).usualMinutes == nil)
    }

    @Test func eachArrivalIsReachedFromTheLastBoardingBeforeIt() {
        typealias Call = (time: Int, sequence: Int)
        func rides(_ from: [Call], _ to: [Call]) -> [String] {
            TransitTimetable.boardings(from, to).map { "\($0.departure.sequence)→\($0.arrival.sequence)" }
        }
        // A 8:00, B, C, A 8:30, B: two rides.
        #expect(rides([(0, 1), (1_800, 4)], [(600, 2), (2_400, 5)]) == ["1→2", "4→5"])
        // A twice before B: one ride, from the later A; B twice after one A: one ride, to the first.
        #expect(rides([(0, 1), (600, 2)], [(1_200, 3)]) == ["2→3"])
        #expect(rides([(0, 1)], [(600, 2), (1_200, 3)]) == ["1→2"])
        // B before A only: none. Rows in any order.
        #expect(rides([(600, 2)], [(0, 1)]).isEmpty)
        #expect(rides([(1_800, 4), (0, 1)], [(2_400, 5), (600, 2)]) == ["1→2", "4→5"])
    }
}
