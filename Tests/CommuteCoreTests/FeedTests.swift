@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct WSDOTFeedTests {
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
        ("", "the feed is not valid JSON: unexpected end of data at byte 0"),
        ("[{\"TravelTimeID\":1,", "the feed is not valid JSON: unexpected end of data (the array is not closed) at byte 19"),
        ("<html><title>Request Error</title></html>", "the feed is not valid JSON: unexpected character '<' at byte 0"),
        ("{\"routes\":[]}", "the feed is not a WSDOT travel-times array: expected an array of routes"),
        ("[]", "the feed has no routes"),
        ("[1,2]", "route #1 in the feed cannot be read: not a route object"),
        (#"[{"Name":"x","TimeUpdated":"\/Date(0)\/"}]"#, "route #1 in the feed cannot be read: TravelTimeID is missing"),
        (#"[{"TravelTimeID":"1","TimeUpdated":"\/Date(0)\/"}]"#, "route #1 in the feed cannot be read: TravelTimeID has the wrong type (expected a number, found a string)"),
        (#"[{"TravelTimeID":1,"TimeUpdated":"yesterday"}]"#, "route #1 in the feed cannot be read: TimeUpdated 'yesterday' is not a /Date(…)/ value"),
        (#"[{"TravelTimeID":1,"TimeUpdated":"\/Date(0)\/"},{"TravelTimeID":1,"TimeUpdated":"\/Date(0)\/"}]"#, "route #2 in the feed cannot be read: TravelTimeID 1 appears twice"),
    ])
    func badFeedsAreRefusedWithAReason(body: String, reason: String) {
        do {
            _ = try WSDOTFeed.decode(Data(body.utf8))
            Issue.record("decoded \(body)")
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test func aFileIsReadInPiecesToTheSameRoutes() throws {
        // The fixture is larger than one piece: routes straddle the pieces' edges.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: fixtureURL.path)[.size] as? Int)
        #expect(size > 64 * 1_024)
        var streamed: [Route] = []
        let ids = try WSDOTFeed.forEachRoute(in: .file(path: fixtureURL.path)) { streamed.append($0) }
        let whole = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        #expect(streamed == whole)
        #expect(ids == Set(whole.map(\.id)))
    }

    @Test func aBadRouteFarIntoAFileIsNamedWithItsOffsetInTheFile() throws {
        let directory = TemporaryDirectory()
        var routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        routes += routes.map { route in
            var copy = route
            copy.id = "\(100_000 + (Int(route.id.rawValue) ?? 0))"
            return copy
        }
        var text = String(decoding: try WSDOTFeed.encode(routes), as: UTF8.self)
        let broken = try #require(text.range(of: #""TravelTimeID":100287,"#))
        // The reader stops at the second comma, where a key should be.
        let offset = text.utf8.distance(from: text.startIndex, to: broken.upperBound)
        text.replaceSubrange(broken, with: #""TravelTimeID":100287,,"#)
        try directory.write("feed.json", text)
        var seen = 0
        do {
            _ = try WSDOTFeed.forEachRoute(in: .file(path: directory.path + "/feed.json")) { _ in seen += 1 }
            Issue.record("a broken feed was read")
        } catch let error as FeedError {
            #expect(error.description.contains("not valid JSON"), "\(error)")
            #expect(error.description.hasSuffix("at byte \(offset)"), "\(error) (expected byte \(offset))")
        }
        // Routes before the broken one were handed over: the caller must not act until the end.
        #expect(seen > 163)
    }

    @Test func aRouteTooLargeToBeOneIsRefusedWithoutBeingReadWhole() throws {
        let huge = String(repeating: "x", count: 300 * 1_024)
        let feed = #"[{"TravelTimeID":1,"TimeUpdated":"\/Date(0)\/"},{"TravelTimeID":2,"Description":""#
            + huge + #"","TimeUpdated":"\/Date(0)\/"}]"#
        let directory = TemporaryDirectory()
        try directory.write("feed.json", feed)
        var seen: [RouteID] = []
        #expect(throws: FeedError.badRoute(index: 1, reason: "it is over 256 KiB, too large for a route")) {
            try WSDOTFeed.forEachRoute(in: .file(path: directory.path + "/feed.json")) { seen.append($0.id) }
        }
        #expect(seen == ["1"])
        #expect(throws: FeedError.badRoute(index: 1, reason: "it is over 256 KiB, too large for a route")) {
            try WSDOTFeed.decode(Data(feed.utf8))
        }
    }

    @Test func anUnreadableFeedFileSaysWhy() throws {
        let directory = TemporaryDirectory()
        try directory.write("feed.json", "[]")
        for (path, reason) in [(directory.path + "/missing.json", "no such file"), (directory.path, "is a directory")] {
            #expect(throws: FeedError.unreadable(path: path, reason: reason)) {
                try WSDOTFeed.forEachRoute(in: .file(path: path)) { _ in }
            }
        }
        #expect(throws: FeedError.empty) { try WSDOTFeed.forEachRoute(in: .file(path: directory.path + "/feed.json")) { _ in } }
    }

    @Test func encodeRoundTrips() throws {
        let original = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        #expect(try WSDOTFeed.decode(WSDOTFeed.encode(original)) == original)
    }
}

@Suite(.ownThreads) struct ISO8601Tests {
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
