import CommuteCore
import Foundation
import Testing

@Suite struct WSDOTFeedTests {
    @Test func theRealCaptureDecodes() throws {
        let routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        #expect(routes.count == 163)
        let everett = try #require(routes.first { $0.id == "1" })
        #expect(everett.name == "Everett-Seattle")
        #expect(everett.description == "Everett to Downtown Seattle")
        #expect(everett.currentMinutes == 34 && everett.averageMinutes == 45)
        #expect(everett.status == .clear)
        #expect(everett.distanceMiles == 26.72)
        #expect(ISO8601.string(everett.updatedAt) == "2025-11-05T00:00:00Z")
        #expect(everett.startPoint?.roadName == "005")
        #expect(everett.endPoint?.description == "I-5 @ University St in Seattle")
        #expect(routes.filter { $0.status == .noData }.map(\.id).sorted() == ["287", "39", "40"])
        #expect(routes.first { $0.id == "70" }?.status == .congested)
    }

    @Test(arguments: [
        ("/Date(1762300800000-0800)/", 1_762_300_800.0),
        ("/Date(1762300800000+0530)/", 1_762_300_800.0),
        ("/Date(1762300800000)/", 1_762_300_800.0),
        ("/Date(-86400000)/", -86_400.0),
        ("/Date(0)/", 0.0),
        ("/Date(1762300800123-0700)/", 1_762_300_800.123),
    ])
    func wcfDatesAreUTCMillisecondsAndTheOffsetIsNeverAdded(text: String, seconds: Double) throws {
        let date = try #require(WCFDate.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(arguments: ["Date(1)", "/Date()/", "/Date(12a)/", "/Date(1-08)/", "/Date(1+08000)/", "/Date(1762300800000-0800)", "2025-11-04"])
    func malformedWCFDatesAreRefused(text: String) {
        #expect(WCFDate.parse(text) == nil)
    }

    @Test func theEscapedSlashesOfTheWireFormatDecode() throws {
        let json = #"[{"TravelTimeID":5,"Name":null,"Description":null,"CurrentTime":12,"AverageTime":10,"Distance":null,"TimeUpdated":"\/Date(1762300800000-0800)\/","StartPoint":null,"EndPoint":null}]"#
        let routes = try WSDOTFeed.decode(Data(json.utf8))
        #expect(routes.count == 1)
        #expect(routes[0].name == "Route 5")
        #expect(routes[0].description == nil && routes[0].startPoint == nil && routes[0].endPoint == nil)
        #expect(routes[0].distanceMiles == nil)
        #expect(routes[0].status == .slowing)
    }

    @Test func optionalFieldsMayBeAbsentAltogether() throws {
        let json = #"[{"TravelTimeID":8,"Description":"Bellevue to Seattle","TimeUpdated":"\/Date(0)\/"}]"#
        let routes = try WSDOTFeed.decode(Data(json.utf8))
        #expect(routes[0].name == "Bellevue to Seattle")
        #expect(routes[0].status == .noData)
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        ("[{\"TravelTimeID\":1,", "not valid JSON"),
        ("<html><title>Request Error</title></html>", "not valid JSON"),
        ("{\"routes\":[]}", "not a WSDOT travel-times array"),
        ("[]", "has no routes"),
        ("[1,2]", "route #1"),
        (#"[{"Name":"x","TimeUpdated":"\/Date(0)\/"}]"#, "route #1 in the feed cannot be read: TravelTimeID is missing"),
        (#"[{"TravelTimeID":"1","TimeUpdated":"\/Date(0)\/"}]"#, "TravelTimeID has the wrong type"),
        (#"[{"TravelTimeID":1,"TimeUpdated":"yesterday"}]"#, "TimeUpdated 'yesterday'"),
        (#"[{"TravelTimeID":1,"TimeUpdated":"\/Date(0)\/"},{"TravelTimeID":1,"TimeUpdated":"\/Date(0)\/"}]"#, "appears twice"),
    ])
    func badFeedsAreRefusedWithAReason(body: String, reason: String) {
        do {
            _ = try WSDOTFeed.decode(Data(body.utf8))
            Issue.record("decoded \(body)")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }

    @Test func encodeRoundTrips() throws {
        let original = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        #expect(try WSDOTFeed.decode(WSDOTFeed.encode(original)) == original)
    }
}

@Suite struct ISO8601Tests {
    @Test func writesOffsetsAndOnlyNeededFractions() {
        let date = Date(timeIntervalSince1970: 1_762_300_800)
        #expect(ISO8601.string(date) == "2025-11-05T00:00:00Z")
        #expect(ISO8601.string(date, offset: -8 * 3600) == "2025-11-04T16:00:00-08:00")
        #expect(ISO8601.string(date, offset: 5 * 3600 + 45 * 60) == "2025-11-05T05:45:00+05:45")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 0.25)) == "1970-01-01T00:00:00.250Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func readsWhatItWritesAndCommonForms() throws {
        for text in ["2025-11-04T16:00:00-08:00", "2025-11-05T00:00:00Z", "2025-11-05T05:45:00+05:45", "1970-01-01T00:00:00.250Z"] {
            let parsed = try #require(ISO8601.parse(text)?.instant)
            let offset = try #require(ISO8601.parse(text)?.offset)
            #expect(ISO8601.string(parsed, offset: offset) == text)
        }
        #expect(ISO8601.parse("2025-11-04T16:00-0800")?.instant == instant("2025-11-05T00:00:00Z"))
        #expect(ISO8601.parse("2025-11-04 16:00:00+00")?.instant == instant("2025-11-04T16:00:00Z"))
        #expect(ISO8601.parse("2025-11-04T16:00")?.offset == nil)
        for bad in ["2025-13-01T00:00Z", "2025-02-30T00:00Z", "2025-11-04", "2025-11-04T25:00Z", "yesterday", "2025-11-04T16:00:00+8", ""] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
    }
}
