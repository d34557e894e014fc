@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.ownThreads) struct JSONReaderTests {
    /// Any JSON value, for comparing what the reader read.
    indirect enum Value: Equatable {
        case object([String: Value]), array([Value]), string(String), number(Double), bool(Bool), null
    }

    /// Reads any JSON through the reader's public API only.
    func value(_ reader: inout JSONReader) throws -> Value {
        switch try reader.peek() {
        case .object:
            try reader.beginObject()
            var object: [String: Value] = [:]
            while let key = try reader.nextKey() { object[key.description] = try value(&reader) }
            return .object(object)
        case .array:
            try reader.beginArray()
            var array: [Value] = []
            while try reader.nextElement() { array.append(try value(&reader)) }
            return .array(array)
        case .string: return .string(try reader.readString())
        case .number: return .number(try reader.readDouble())
        case .bool: return .bool(try reader.readBool())
        case .null:
            _ = try reader.readNull()
            return .null
        }
    }

    func parse(_ text: String) throws -> Value {
        try JSONReader.read(Data(text.utf8)) { try value(&$0) }
    }

    @Test func readsWhatFoundationReads() throws {
        let text = #"{"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d\"e\\f\/g\n\u00e9\ud83d\ude97"}, "": 0}"#
        #expect(try parse(text) == .object([
            "a": .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("d\"e\\f/g\né🚗")]),
            "": .number(0),
        ]))
    }

    @Test(arguments: [
        "", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{,\"a\":1}", "[01x]", "[-]", "[1.]", "[.5]", "tru",
        "\"unterminated", "\"bad \\x escape\"", "[1] [2]", "{\"a\":1}}", "\"tab\tinside\"", "nul", "[\"\\ud83d\\u0041\"]",
    ])
    func refusesMalformedJSON(text: String) {
        #expect(throws: JSONReadError.self) { try parse(text) }
    }

    @Test func typeErrorsAreDistinctFromSyntaxErrors() throws {
        do {
            _ = try JSONReader.read(Data("[\"x\"]".utf8)) { reader in
                try reader.beginArray()
                _ = try reader.nextElement()
                return try reader.readInt()
            }
            Issue.record("read a string as a number")
        } catch let error as JSONReadError {
            #expect(error.kind == .type)
            #expect(error.description == "expected a number, found a string at byte 1")
        }
        #expect(throws: JSONReadError.self) { try JSONReader.read(Data("1.5".utf8)) { try $0.readInt() } }
        #expect(try JSONReader.read(Data("12.0".utf8)) { try $0.readInt() } == 12)
        #expect(try JSONReader.read(Data(" -7 ".utf8)) { try $0.readInt() } == -7)
    }

    @Test func writerOutputReadsBackExactly() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("text")
        writer.string("quote \" backslash \\ newline \n tab \t bell \u{7} é 🚗")
        writer.key("numbers")
        writer.beginArray()
        writer.int(42)
        writer.double(-122.331759)
        writer.double(26.0)
        writer.int(nil)
        writer.endArray()
        writer.key("flag")
        writer.bool(true)
        writer.endObject()
        let data = Data(writer.bytes)
        let foundation = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(foundation?["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} é 🚗")
        #expect(String(decoding: data, as: UTF8.self).contains(#"[42,-122.331759,26,null]"#))
        guard case .object(let parsed) = try parse(String(decoding: data, as: UTF8.self)) else {
            Issue.record("not an object")
            return
        }
        #expect(parsed["flag"] == .bool(true))
        #expect(parsed["numbers"] == .array([.number(42), .number(-122.331759), .number(26), .null]))
    }
}

@Suite(.ownThreads) struct RouteCacheCodingTests {
    @Test func roundTripsTheFixtureAndMatchesFoundation() throws {
        let routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        let cache = RouteCache(fetchedAt: instant("2025-11-04T16:00:00.250-08:00"), source: "fixture", routes: routes)
        let bytes = Data(try cache.encodeDocument())
        #expect(try RouteCache.decodeDocument(from: bytes) == cache)
        #expect(throws: Never.self) { try RouteCache.validateDocument(bytes) }
        // The same document as Foundation's coders would read it.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return ISO8601.parse(text)?.instant ?? Date.distantPast
        }
        #expect(try decoder.decode(RouteCache.self, from: bytes) == cache)
        #expect(bytes.last == 0x0A)
    }

    @Test(arguments: [
        (#"{"version": 1, "routes": [{"id": "5"}]}"#, "wrong shape: routes[0].updatedAt is missing", "wrong shape: routes[0].updatedAt is missing"),
        (#"{"version": 1, "routes": [{"id": 5, "updatedAt": "2025-11-05T00:00:00Z"}]}"#, "wrong shape: routes[0].id has the wrong type", "wrong shape: routes[0].id has the wrong type"),
        (#"{"version": 1, "routes": [7]}"#, "wrong shape: routes[0] is not an object", "wrong shape: routes[0] is not an object"),
        (#"{"routes": [{"id": 5}], "version": 2}"#, "unknown version 2 (this traveltimes reads version 1)", "unknown version 2 (this traveltimes reads version 1)"),
        (#"{"routes": []}"#, "no \"version\" field", "no \"version\" field"),
        (#"{"version": 1}"#, "wrong shape: routes is missing", "wrong shape: routes is missing"),
        (#"{"version": "1", "routes": []}"#, "\"version\" is not a number", "\"version\" is not a number"),
        (#"[]"#, "expected a JSON object", "expected a JSON object"),
        (#"{"version": 1, "routes": [{"id": 5, "updatedAt": "2025-11-05T00:00:00Z"}]"#, "not valid JSON", "not valid JSON"),
        (#"{"version": 1, "routes": [{"id": "5", "updatedAt": "yesterday"}]}"#, "wrong shape: routes[0].updatedAt 'yesterday' is not an ISO 8601 time with an offset", nil),
    ] as [(String, String, String?)])
    func problemsAreNamedAndTheVersionComesFirst(text: String, decodeReason: String, validateReason: String?) {
        do {
            _ = try RouteCache.decodeDocument(from: Data(text.utf8))
            Issue.record("decoded \(text)")
        } catch let problem as DocumentProblem {
            #expect(problem.reason == decodeReason)
        } catch {
            Issue.record("unexpected \(error)")
        }
        guard let validateReason else { return }
        do {
            try RouteCache.validateDocument(Data(text.utf8))
            Issue.record("validated \(text)")
        } catch let problem as DocumentProblem {
            #expect(problem.reason == validateReason)
        } catch {
            Issue.record("unexpected \(error)")
        }
        // The check a refresh makes, on the mapped file, finds the same.
        let directory = TemporaryDirectory()
        do {
            try directory.write("routes.json", text)
            try RouteCache.validateFile(atPath: directory.path + "/routes.json")
            Issue.record("validated the file \(text)")
        } catch let error as CommuteStore.StoreError {
            #expect(error.description.contains(directory.path + "/routes.json"), "\(error)")
            #expect(error.description.contains(validateReason), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theMappedCheckReadsALargeCacheWholeWhilePagesAreHandedBack() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/routes.json"
        let fixture = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        var routes = (0..<5_000).map { index in
            var route = fixture[index % fixture.count]
            route.id = "\(index)"
            return route
        }
        try directory.write("routes.json", "")
        #expect(throws: CommuteStore.StoreError.unreadable(path: path, reason: "the file is empty")) { try RouteCache.validateFile(atPath: path) }
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: Never.self) { try RouteCache.validateFile(atPath: path) }
        try Data(RouteCache(fetchedAt: nil, source: nil, routes: routes).encodeDocument()).write(to: URL(fileURLWithPath: path))
        #expect(throws: Never.self) { try RouteCache.validateFile(atPath: path) }
        // A fault in the last route, long after the first pages were handed back, is still found.
        routes[4_999].id = "last"
        var text = String(decoding: try RouteCache(fetchedAt: nil, source: nil, routes: routes).encodeDocument(), as: UTF8.self)
        text = text.replacingOccurrences(of: #""id":"last""#, with: #""id":4999"#)
        try directory.write("routes.json", text)
        #expect(throws: CommuteStore.StoreError.unreadable(path: path, reason: "wrong shape: routes[4999].id has the wrong type")) {
            try RouteCache.validateFile(atPath: path)
        }
    }

    @Test func aCorruptCacheIsNeverOverwrittenByARefresh() throws {
        let directory = TemporaryDirectory()
        try directory.write("routes.json", #"{"version": 1, "routes": [{"id": "5"}]}"#)
        let before = try directory.read("routes.json")
        let commute = Commute(store: try Store(directory: directory.path), now: Date(timeIntervalSince1970: 1_762_300_800), timeZone: zone("UTC"))
        #expect(throws: CommuteStore.StoreError.self) { try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture") }
        #expect(try directory.read("routes.json") == before)
    }
}

@Suite(.ownThreads) struct JSONNumberAndDepthTests {
    @Test func decimalsReadExactlyAsFoundationReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0.1", "-122.331759", "47.609294", "26.72", "0.000001", "999999999999.999", "123456789012345.6", "1e3", "-0.0", "5.5E-2"]
        for _ in 0..<2_000 {
            let whole = Int.random(in: -999_999...999_999, using: &generator)
            let fraction = String(Int.random(in: 0...99_999_999, using: &generator))
            texts.append("\(whole).\(fraction)")
        }
        for text in texts {
            let read = try JSONReader.read(Data("[\(text)]".utf8)) { reader -> Double in
                try reader.beginArray()
                _ = try reader.nextElement()
                let value = try reader.readDouble()
                _ = try reader.nextElement()
                return value
            }
            #expect(read == Double(text), "\(text)")
        }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONReadError.self) { try JSONReader.read(Data(deep.utf8)) { try $0.skipValue() } }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONReader.read(Data(fine.utf8)) { try $0.skipValue() } }
    }

    @Test(arguments: [
        ("tru", "unexpected end of data"), ("nulL", "unexpected character 'L'"), ("fals", "unexpected end of data"), ("-", "invalid number"),
        ("1.", "invalid number"), ("1e+", "invalid number"), ("01", "invalid number"), ("-012", "invalid number"),
        (#""abc"#, "unterminated string"), ("\"a\u{01}b\"", "control character in a string"), ("[1,", "unexpected end of data"),
        (#"{"a" 1}"#, "expected ':'"), (#"{"a": 1,}"#, "expected a key"), ("[1 2]", "expected ',' or ']'"),
    ])
    func skippingStillChecksEveryValue(text: String, message: String) {
        do {
            try JSONReader.read(Data(text.utf8)) { try $0.skipValue() }
            Issue.record("skipped \(text)")
        } catch let error as JSONReadError {
            #expect(error.kind == .syntax && error.message == message, "\(text): \(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func skippingPassesOverEveryKindOfValue() throws {
        let text = #"{"a": [true, false, null, -1.5e3, 0, "x\"y", {}], "b": {"c": []}} "#
        #expect(throws: Never.self) { try JSONReader.read(Data(text.utf8)) { try $0.skipValue() } }
    }

    @Test func endPointsAreReadOnlyWhenAskedFor() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let commute = Commute(store: store, now: Date(timeIntervalSince1970: 1_762_300_800), timeZone: zone("UTC"))
        _ = try commute.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        let summary = try store.routes()
        let full = try store.routes(includingEndPoints: true)
        #expect(summary.routes.allSatisfy { $0.startPoint == nil && $0.endPoint == nil })
        #expect(full.routes.first { $0.id == "1" }?.startPoint?.roadName == "005")
        var stripped = full
        for index in stripped.routes.indices {
            stripped.routes[index].startPoint = nil
            stripped.routes[index].endPoint = nil
        }
        #expect(stripped == summary)
    }
}

@Suite(.ownThreads) struct FetchHelperTests {
    @Test func answersRoundTrip() throws {
        let response = HTTPResponse(status: 200, headers: ["ETag": "\"v1\""], body: Data("[1]\n[2]".utf8))
        #expect(try FetchHelper.read(FetchHelper.answer(.success(response))) == response)
        for error in [HTTPClientError.timedOut, .tooLarge(limit: 1024), .connection("refused")] {
            #expect(throws: error) { try FetchHelper.read(FetchHelper.answer(.failure(error))) }
        }
        #expect(throws: HTTPClientError.self) { try FetchHelper.read(Data("garbage".utf8)) }
    }

    @Test func theHelperWritesItsAnswerInPartsThatReadBack() throws {
        let directory = TemporaryDirectory()
        try directory.write("answer", "")
        let path = directory.path + "/answer"
        func written(_ result: Result<HTTPResponse, HTTPClientError>) throws -> Data {
            let descriptor = open(path, O_WRONLY | O_TRUNC)
            #expect(descriptor >= 0)
            FetchHelper.writeAnswer(result, to: descriptor)
            close(descriptor)
            return try directory.read("answer")
        }
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let response = HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)
        let read = try FetchHelper.read(written(.success(response)))
        #expect(read == response)
        // The body is the answer's tail, a slice with its own indices: it reads as a whole.
        #expect(read.body.count == body.count && read.body.first == 0 && read.body.last == 0xDF)
        #expect(throws: HTTPClientError.tooLarge(limit: 9)) { try FetchHelper.read(written(.failure(.tooLarge(limit: 9)))) }
    }

    @Test func aMissingHelperIsNamedNotRetried() {
        let client = HelperHTTPClient(helperPath: "/nonexistent/traveltimes", environment: .empty)
        #expect(throws: HTTPClientError.helperMissing(path: "/nonexistent/traveltimes")) {
            _ = try client.get(URL(string: "http://127.0.0.1:9/")!, headers: [:], timeout: 1)
        }
        #expect(FetchError.helperMissing(path: "/x/traveltimes").description.hasPrefix("the fetch helper is missing: /x/traveltimes is not an executable program"))
    }
}

@Suite(.ownThreads) struct RouteSearchTests {
    @Test func searchingTheBytesFindsWhatMatchingBuiltRoutesFinds() throws {
        let directory = TemporaryDirectory()
        var routes = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        // A nameless route (shown by its description), a route with escapes, a non-ASCII one.
        routes.append(Route(id: "9001", name: nil, description: "Tacoma to Everett", currentMinutes: 40, averageMinutes: 38,
                            updatedAt: instant("2025-11-04T16:10:00-08:00")))
        routes.append(Route(id: "9002", name: "Quote \"Everett\" Line", description: nil, currentMinutes: 5, averageMinutes: 5,
                            updatedAt: instant("2025-11-04T15:00:00-08:00")))
        routes.append(Route(id: "9003", name: "Île Route", description: "Brücke", currentMinutes: 5, averageMinutes: 5,
                            updatedAt: instant("2025-11-04T15:00:00-08:00")))
        let store = try Store(directory: directory.path)
        let commute = Commute(store: store, now: Date(timeIntervalSince1970: 1_762_300_800), timeZone: zone("UTC"))
        _ = try commute.refresh.run(feed: WSDOTFeed.encode(routes), source: "test")
        let all = try store.routes().routes
        for text in ["everett", "EVERETT", "seattle-b", "HOV", "Tacoma", "\"everett\"", "", "zzz", "brücke", "île"] {
            let found = try store.searchRoutes(text)
            // An empty search is no filter (String.contains("") would say false).
            let expected = text.isEmpty ? all : all.filter {
                $0.name.lowercased().contains(text.lowercased()) || ($0.description?.lowercased().contains(text.lowercased()) ?? false)
            }
            #expect(found.routes.map(\.id) == expected.map(\.id), "\(text)")
            #expect(found.newest == instant("2025-11-04T16:10:00-08:00"), "the newest of all routes, matched or not")
        }
        #expect(try Store(directory: TemporaryDirectory().path).searchRoutes("x").newest == nil)
    }
}

/// RFC 8259 as traveltimes reads it, for what the fuzz tests reach only by chance.
@Suite(.ownThreads) struct StrictJSONTests {
    func read(_ text: String) throws -> String {
        try JSONReader.read(Data(text.utf8)) { reader in try reader.readString() }
    }

    @Test func stringsAreUTF8WithValidEscapesEvenWhenSkipped() throws {
        #expect(try read(#""caf\u00e9 \ud83d\ude00""#) == "café 😀")
        for bad in [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\x""#, #""\u12""#] {
            #expect(throws: JSONReadError.self, "\(bad)") { try read(bad) }
            #expect(throws: JSONReadError.self, "skipped \(bad)") {
                try JSONReader.read(Data("[\(bad)]".utf8)) { reader in
                    try reader.beginArray()
                    while try reader.nextElement() { try reader.skipValue() }
                }
            }
        }
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            let document = Data([0x5B, 0x22] + bytes + [0x22, 0x5D])
            #expect(throws: JSONReadError.self, "\(bytes)") {
                try JSONReader.read(document) { reader in
                    try reader.beginArray()
                    while try reader.nextElement() { try reader.skipValue() }
                }
            }
        }
    }

    @Test func integersAreExactAndNumbersFinite() throws {
        func int(_ text: String) throws -> Int { try JSONReader.read(Data(text.utf8)) { try $0.readInt() } }
        #expect(try int("1234567890123456789") == 1_234_567_890_123_456_789)
        #expect(try int("9223372036854775807") == Int.max)
        #expect(try int("-9223372036854775808") == Int.min)
        #expect(try int("12.0") == 12)
        #expect(throws: JSONReadError.self) { try int("9223372036854775808") }
        #expect(throws: JSONReadError.self) { try int("1e19") }
        #expect(try [int("1.5e1"), int("1500e-2"), int("-0.0")] == [15, 15, 0])
        #expect(throws: JSONReadError.self) { try int("9007199254740993.0") }
        #expect(throws: JSONReadError.self) { try int("0.99999999999999999999") }
        #expect(throws: JSONReadError.self) { try int("1.5") }
        #expect(throws: JSONReadError.self) { try int("15e-1") }
        #expect(throws: JSONReadError.self) { try JSONReader.read(Data("1e400".utf8)) { try $0.readDouble() } }
    }

    @Test func theFirstOfARepeatedKeyWinsEverywhere() throws {
        let feed = #"[{"TravelTimeID":7,"TravelTimeID":8,"Name":"First","Name":"Second","CurrentTime":10,"CurrentTime":99,"AverageTime":9,"TimeUpdated":"\/Date(1762300800000)\/","TimeUpdated":"nonsense","StartPoint":{"Latitude":47.5,"Latitude":null},"EndPoint":null}]"#
        let routes = try WSDOTFeed.decode(Data(feed.utf8))
        #expect(routes.map(\.id) == ["7"])
        #expect(routes.first?.name == "First" && routes.first?.currentMinutes == 10)
        #expect(routes.first?.startPoint?.latitude == 47.5)
        // The cache, read whole and searched, follows the same rule.
        let cache = #"{"version":1,"routes":[{"id":"7","name":"First","name":"Second","updatedAt":"2025-11-05T00:00:00Z","currentMinutes":10,"currentMinutes":null}],"routes":[]}"#
        let decoded = try RouteCache.decodeDocument(from: Data(cache.utf8))
        #expect(decoded.routes.map(\.name) == ["First"] && decoded.routes.first?.currentMinutes == 10)
        let directory = TemporaryDirectory()
        try directory.write("routes.json", cache)
        let store = try Store(directory: directory.path)
        #expect(try store.searchRoutes("first").routes.map(\.id) == ["7"])
        #expect(try store.searchRoutes("second").routes.isEmpty)
    }
}
