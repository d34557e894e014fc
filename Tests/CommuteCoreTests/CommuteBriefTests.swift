@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct CommuteBriefTests {
    let routes: [RouteID: Route] = [
        "1": route("1", "Everett-Seattle", current: 25, average: 25),
        "96": route("96", "Seattle-Bellevue via 90", current: 20, average: 15),
        "70": route("70", "Renton-Auburn", current: 35, average: 24),
        "4": route("4", "Seattle-Everett", current: 50, average: 47),
        "39": route("39", "Everett-Seattle EL", current: 0, average: 0),
    ]

    @Test func theExampleSentence() {
        let brief = CommuteBrief(routeIDs: ["1", "96"], routes: routes, partOfDay: "morning")
        #expect(brief.sentence
            == "Your morning commute looks mostly clear. Everett-Seattle is on time at 25 min, and Seattle-Bellevue via 90 is running +5 min.")
        #expect(brief.assessment == .mostlyClear)
        #expect(brief.delayed.map(\.id) == ["96"])
    }

    @Test func assessments() {
        #expect(CommuteBrief(routeIDs: ["1"], routes: routes, partOfDay: "evening").sentence
            == "Your evening commute looks clear. Everett-Seattle is on time at 25 min.")
        #expect(CommuteBrief(routeIDs: ["96", "70", "1"], routes: routes, partOfDay: "morning").assessment == .congested)
        #expect(CommuteBrief(routeIDs: ["4", "1"], routes: routes, partOfDay: "morning").assessment == .mostlyClear)
        // One congested route among clear ones is not "mostly clear".
        var jammed = routes
        jammed["70"] = route("70", "Renton-Auburn", current: 53, average: 24)
        let one = CommuteBrief(routeIDs: ["1", "4", "96", "70"], routes: jammed, partOfDay: "evening")
        #expect(one.assessment == .congested)
        #expect(one.sentence == "Your evening commute is congested. Everett-Seattle is on time at 25 min, and Renton-Auburn is running +29 min.")
        let slowing = CommuteBrief(routeIDs: ["4"], routes: routes, partOfDay: "afternoon")
        #expect(slowing.sentence == "Your afternoon commute is slowing down. Seattle-Everett is running +3 min.")
        let congested = CommuteBrief(routeIDs: ["70", "96", "4"], routes: routes, partOfDay: "morning")
        #expect(congested.delayed.map(\.id) == ["70", "96", "4"])
        #expect(congested.sentence.hasSuffix("Seattle-Everett is running +3 min, and Renton-Auburn is running +11 min."))
    }

    @Test func missingAndEmptyDataAreSaid() {
        let brief = CommuteBrief(routeIDs: ["39", "1", "999"], routes: routes, partOfDay: "morning")
        #expect(brief.sentence
            == "Your morning commute looks clear. Everett-Seattle is on time at 25 min. No data for Everett-Seattle EL. Route 999 is not in the latest feed.")
        let nothing = CommuteBrief(routeIDs: ["39"], routes: routes, partOfDay: "evening")
        #expect(nothing.assessment == .noData)
        #expect(nothing.sentence == "There is no travel time data for your evening commute right now. No data for Everett-Seattle EL.")
        #expect(CommuteBrief.partOfDay(hour: 7) == "morning" && CommuteBrief.partOfDay(hour: 13) == "afternoon"
            && CommuteBrief.partOfDay(hour: 17) == "evening")
    }
}
