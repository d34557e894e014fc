import Foundation
import TestThreads
import Testing

import Basics
@testable import CommuteModel
@testable import CommuteSources

/// MOTIS's answers as Transitous sent them (`Fixtures/real/motis/`), read by the reader a refresh
/// uses: what each file says, and what of its service alerts is in force.
@Suite(.ownThreads) struct MOTISPlanReaderTests {
    static func real(_ name: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fixtures/real/motis/\(name)"))
    }

    /// HSL's U train from Kirkkonummi to Helsinki at 18:07 on Tuesday 27 May 2025 (a `/trip`
    /// answer: one itinerary) carries, on its first stop and every stop after, two alerts of "No
    /// train service west of Leppävaara on Thursday 29 May", in force from Wednesday 06:00Z: the
    /// ride is the day before, and nothing is in force. The same alerts for a ride on Thursday
    /// morning are, once.
    @Test func hslAlertsAreInForceOnlyOnTheirDays() throws {
        let trip = try Self.real("trip-alerts.json")
        let answer = try #require(MOTISPlanReader.read(Data("{\"itineraries\":[".utf8) + trip + Data("],\"direct\":[]}".utf8), largest: 64))
        let itinerary = try #require((answer["itineraries"] as? [[String: Any]])?.first)
        let leg = try #require((itinerary["legs"] as? [[String: Any]])?.first)
        #expect(leg["routeShortName"] as? String == "U" && leg["startTime"] as? String == "2025-05-27T15:07:00Z")
        #expect(leg["notices"] as? [String] == [])
        // The same answer, its times moved to Thursday 29 May, 08:07Z.
        let thursday = String(decoding: trip, as: UTF8.self).replacing("2025-05-27T15:", with: "2025-05-29T08:")
        let moved = try #require(MOTISPlanReader.read(Data(("{\"itineraries\":[" + thursday + "],\"direct\":[]}").utf8), largest: 64))
        let movedLeg = try #require(((moved["itineraries"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first)
        #expect(movedLeg["notices"] as? [String] == ["No train service west of Leppävaara on Thursday 29 May"])
    }

    /// The ICE from Wien Hauptbahnhof at 07:35Z on 25 May 2025 to Hamburg-Altona at 18:57Z, with
    /// live data (`realTime` true) saying it runs on time (a `/trip` answer: one itinerary): an
    /// itinerary whose times are live, not the timetable's, and 0 min late.
    @Test func aLiveRideOnTimeIsLiveAndOnTime() throws {
        let trip = try Self.real("trip-limited-entry-exit.json")
        let body = Data("{\"itineraries\":[".utf8) + trip + Data("],\"direct\":[]}".utf8)
        let measured = try RoutingAPI.interpret(HTTPResponse(status: 200, body: body), from: .transitous).get()
        let itinerary = try #require(measured.itineraries?.first)
        #expect(itinerary.line == "ICE" && itinerary.headsign == "Hamburg-Altona")
        #expect(itinerary.predicted == ISO8601.parse("2025-05-25T07:35:00Z")?.instant && itinerary.delaySeconds == 0)
        #expect(itinerary.legs?.map(\.realtime) == [true] && measured.currentMinutes == 682)
    }

    /// The RER B works notice's description, as Île-de-France Mobilités writes it in a field MOTIS
    /// calls plain text: one line of words.
    @Test func aNoticeWrittenInHTMLIsOneLineOfWords() throws {
        let pieces = try #require(try JSONSerialization.jsonObject(with: Self.real("journey-alerts-pieces.json")) as? [String: Any])
        let notice = try #require(((pieces["notices"] as? [[String: Any]])?.first?["alert"] as? [String: Any])?["descriptionText"] as? String)
        #expect(PlainText.line(notice, longest: 300) == """
            Période : en semaine à partir de 22h45. Dates : du lundi 1er juin au jeudi 31 décembre Le trafic est interrompu entre \
            Châtelet Les Halles et Aérop. C De Gaulle 2 et entre Châtelet Les Halles et Mitry - Claye. Un dispositif de bus de \
            remplacement sera mis en place au départ du Gare du Nord. Pour plu…
            """)
        #expect(PlainText.line("A <-> B &amp; C&#x27;s &bogus; <b>bold</b> <unclosed", longest: 300) == "A <-> B & C's &bogus; bold")
        #expect(PlainText.line("\u{1B}[2J<script>x</script>&#0;", longest: 300) == "\u{FFFD}[2J x \u{FFFD}")
    }

    /// Hostile answers cost only what is kept: alerts past the bounds are read and dropped, and
    /// a value of the wrong type is left for the shape's reader to refuse.
    @Test func boundsHoldOnHostileAnswers() throws {
        var alerts = ""
        for index in 0..<1_000 { alerts += (index > 0 ? "," : "") + #"{"headerText":"Notice \#(index)","descriptionText":""}"# }
        let body = #"{"itineraries":[{"startTime":"2026-01-01T08:00:00Z","legs":[{"startTime":"2026-01-01T08:00:00Z","endTime":"2026-01-01T08:10:00Z","alerts":["# + alerts + "]}]}],\"direct\":\"no\"}"
        let answer = try #require(MOTISPlanReader.read(Data(body.utf8), largest: 64))
        let leg = try #require(((answer["itineraries"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first)
        #expect((leg["notices"] as? [String])?.count == 5)
        #expect(answer["direct"] as? String == "no")
        #expect(MOTISPlanReader.read(Data("[1,2]".utf8), largest: 64) == nil)
        #expect(MOTISPlanReader.read(Data("{\"itineraries\":[".utf8), largest: 64) == nil)
    }
}
