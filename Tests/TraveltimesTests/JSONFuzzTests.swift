@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// Thousands of mutated feeds, each read by `JSONReader` and by Python's `json` (held to the same
/// rules by `Tests/Support/json_oracle.py`): both must accept the same documents and read the same
/// values. Then the same feeds through the decoder, the cache's round trip and, for a sample, the
/// real binary: no crash, no hang, and whatever is saved reads back.
///
/// The seed is fixed, so CI runs the same cases every time. For a longer run by hand:
/// `Scripts/fuzz 100000` (or `TRAVELTIMES_FUZZ_COUNT=… TRAVELTIMES_FUZZ_SEED=… swift test --filter JSONFuzzTests`).
@Suite(.ownThreads) struct JSONFuzzTests {
    static let count = ProcessInfo.processInfo.environment["TRAVELTIMES_FUZZ_COUNT"].flatMap(Int.init) ?? 3_000
    static let seed = ProcessInfo.processInfo.environment["TRAVELTIMES_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_123

    @Test func theReaderAgreesWithTheOracleAndNothingCrashes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("traveltimes-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SeededRandom(seed: Self.seed)
        let seeds = try Mutator.seeds()
        var cases: [(path: String, data: Data, canonical: String)] = []
        for index in 0..<Self.count {
            let data = Mutator.mutate(seeds[index % seeds.count], &random)
            let path = "\(directory)/\(index).json"
            try data.write(to: URL(fileURLWithPath: path))
            cases.append((path, data, Canonical.of(data)))
            try checkDecoding(data, path: path)
        }
        let accepted = cases.filter { $0.canonical != "error" }.count
        #expect(accepted > Self.count / 10 && accepted < Self.count * 9 / 10, "a fuzz that neither mostly passes nor mostly fails: \(accepted)")

        let verdicts = try Oracle.read(cases.map(\.path))
        #expect(verdicts.count == cases.count)
        var disagreements: [String] = []
        for (item, verdict) in zip(cases, verdicts) where item.canonical != verdict {
            disagreements.append("\(item.path): reader \(item.canonical.prefix(80)), oracle \(verdict.prefix(80))")
        }
        #expect(disagreements.count == 0, "seed \(Self.seed):\n\(disagreements.prefix(10).joined(separator: "\n"))")

        // A sample through the binary: a refresh exits 0 or 65, never a crash; what it saved reads back.
        let sandbox = Sandbox()
        for (number, item) in cases.enumerated() where number % max(1, Self.count / 60) == 0 {
            let refresh = try sandbox.run(["refresh", "--source", item.path, "--now", Paths.capturedAt])
            #expect([0, 65].contains(refresh.status), "\(item.path): \(refresh)")
            guard refresh.status == 0 else { continue }
            for command in [["routes", "--json"], ["pending"]] {
                let outcome = try sandbox.run(command)
                #expect(outcome.status == 0, "\(item.path) then \(command): \(outcome)")
            }
        }
    }

    /// The feed decoder on the same bytes: a typed error or routes, and routes that round-trip
    /// through the cache's writer and reader exactly.
    private func checkDecoding(_ data: Data, path: String) throws {
        // `decode` throws only FeedError (typed): a refusal with its reason.
        guard let routes = try? WSDOTFeed.decode(data) else { return }
        let cache = RouteCache(fetchedAt: nil, source: "fuzz", routes: routes)
        let bytes = try cache.encodeDocument()
        #expect(try RouteCache.decodeDocument(from: Data(bytes)) == cache, "\(path) does not read back")
        try RouteCache.validateDocument(Data(bytes))
    }
}

/// Python's json, through `Tests/Support/json_oracle.py`, one process for every file (their paths
/// go in on stdin: tens of thousands would overflow an argument list).
enum Oracle {
    static func read(_ paths: [String]) throws -> [String] {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-list-\(UUID().uuidString)")
        try Data(paths.map { $0 + "\n" }.joined().utf8).write(to: list)
        defer { try? FileManager.default.removeItem(at: list) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.root.appendingPathComponent("Tests/Support/json_oracle.py").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = try FileHandle(forReadingFrom: list)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// A document's canonical form, read with `JSONReader` (see `json_oracle.py` for the form).
enum Canonical {
    static func of(_ data: Data) -> String {
        do {
            return try JSONReader.read(data) { reader in try value(&reader, data) }
        } catch {
            return "error"
        }
    }

    private static func value(_ reader: inout JSONReader, _ data: Data) throws -> String {
        switch try reader.peek() {
        case .null:
            _ = try reader.readNull()
            return "n"
        case .bool: return try reader.readBool() ? "t" : "f"
        case .string: return "s" + hex(Array(try reader.readString().utf8))
        case .number:
            let start = reader.offset
            let before = reader.position
            if let integer = try? reader.readInt() {
                let literal = data[start..<reader.offset]
                if !literal.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) { return "i\(integer)" }
            }
            reader.restore(before)
            return "d" + hex(withUnsafeBytes(of: try reader.readDouble().bitPattern.bigEndian, Array.init))
        case .array:
            try reader.beginArray()
            var items: [String] = []
            while try reader.nextElement() { items.append(try value(&reader, data)) }
            return "[" + items.joined(separator: ",") + "]"
        case .object:
            try reader.beginObject()
            var members: [String: String] = [:]
            while let key = try reader.nextKey() {
                let name = hex(Array(key.description.utf8))
                let item = try value(&reader, data)
                if members[name] == nil { members[name] = item }
            }
            return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",") + "}"
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// Small feeds and documents, and the ways they are broken.
enum Mutator {
    /// The fixture's first routes, and documents that reach the corners of the grammar.
    static func seeds() throws -> [[UInt8]] {
        let fixture = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture))
        let routes = try #require(try JSONSerialization.jsonObject(with: fixture) as? [[String: Any]])
        var seeds = try [1, 2, 3].map { Array(try JSONSerialization.data(withJSONObject: Array(routes.prefix($0)))) }
        seeds += [
            #"[{"TravelTimeID":1,"Name":"A\u00e9\ud83d\ude00 \"q\"","CurrentTime":10,"AverageTime":12,"Distance":1.5,"TimeUpdated":"\/Date(1762300800000-0800)\/","StartPoint":null,"EndPoint":{"Latitude":47.1,"Longitude":-122.3,"MilePost":0.5e1}}]"#,
            #"{"a":[1,-0.0,1e22,123456789012345678,"x\n\u0001\\",true,false,null],"b":{"c":{},"d":[[[]]]},"a":2}"#,
            #"[9223372036854775807,-9223372036854775808,1.7976931348623157e308,5e-324,0.1,100,1E2,-0]"#,
            "[\"caf\u{E9}\",\"\u{1F600}\",\"\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"]",
        ].map { Array($0.utf8) }
        return seeds
    }

    /// Fragments that break (or nearly break) a document: quotes, escapes, lone surrogates,
    /// numbers at and past their limits, invalid UTF-8, duplicate keys, structure.
    static let tokens: [[UInt8]] = [
        "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u00e9", "\\x", "\\/", "1e400", "-1e400", "-0",
        "12345678901234567890", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e-400",
        "NaN", "Infinity", "true", "null", "[", "]", "{", "}", ",", ":", "01", "1.", ".5", "+1", "1e", "0x10", "1.5e+3",
        "\"TravelTimeID\":2,", "\"Name\":\"dup\",", "\"CurrentTime\":999999,", "\"TimeUpdated\":\"\\/Date(253402300800000)\\/\",",
        " ", "\t", "\n", "\r",
    ].map { Array($0.utf8) } + [
        [0x00], [0x1F], [0x7F], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xEF, 0xBB, 0xBF],
        [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xFF], [0xC2, 0x9B],
    ]

    static func mutate(_ seed: [UInt8], _ random: inout SeededRandom) -> Data {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)], at: at)
            case 4:
                if at < bytes.count { bytes[at] = UInt8.random(in: 0...255, using: &random) }
            case 5:
                if at < bytes.count { bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random) }
            case 6:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
            case 7:
                let end = min(bytes.count, at + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
            case 8:
                // Nearly always, a clean truncation breaks the document: do it rarely.
                if Int.random(in: 0..<4, using: &random) == 0 { bytes.removeSubrange(at...) }
            default:
                // A change that keeps the document valid often: a number for a number.
                if let digit = bytes.indices.filter({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }).randomElement(using: &random) {
                    bytes[digit] = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)
                }
            }
        }
        return Data(bytes)
    }
}

/// The providers' answers, mutated: whatever a routing service (or something posing as one)
/// sends, reading it gives a bounded measurement or a fault, never a crash or a trap; and a
/// mutated route cache with custom routes reads back as it was written, or is refused.
@Suite(.ownThreads) struct ProviderAnswerFuzzTests {
    static let answers: [(RouteProvider, String)] = [
        (.tomtom, #"{"formatVersion":"0.0.12","routes":[{"summary":{"lengthInMeters":13520,"travelTimeInSeconds":1510,"historicTrafficTravelTimeInSeconds":1290}}]}"#),
        (.tomtom, #"{"formatVersion":"0.0.12","detailedError":{"code":"NO_ROUTE_FOUND","message":"Unable to find a route"}}"#),
        (.here, #"{"routes":[{"sections":[{"summary":{"duration":900,"length":8000,"typicalDuration":700}},{"summary":{"duration":640,"length":6000,"typicalDuration":500}}]}]}"#),
        (.here, #"{"routes":[],"notices":[{"title":"Couldn't find a route.","code":"noRouteFound"}]}"#),
        (.google, #"{"routes":[{"distanceMeters":12000,"duration":"1800s","staticDuration":"1200s"}]}"#),
        (.google, #"{"error":{"code":403,"message":"blocked","status":"PERMISSION_DENIED"}}"#),
        (.transitous, #"{"requestParameters":{},"direct":[],"itineraries":[{"id":"a","duration":2400,"startTime":"2026-11-24T15:56:00Z","endTime":"2026-11-24T16:36:00Z","transfers":0,"legs":[{"mode":"WALK","startTime":"2026-11-24T15:56:00Z","endTime":"2026-11-24T16:02:00Z","scheduledStartTime":"2026-11-24T15:56:00Z","realTime":false,"from":{"name":"START"},"to":{"name":"Stop A"}},{"mode":"BUS","routeShortName":"545","headsign":"Redmond","startTime":"2026-11-24T16:05:00Z","endTime":"2026-11-24T16:32:00Z","scheduledStartTime":"2026-11-24T16:02:00Z","scheduledEndTime":"2026-11-24T16:32:00Z","realTime":true,"cancelled":false,"from":{"name":"Stop A"},"to":{"name":"Stop B"}}]}],"nextPageCursor":"LATER|1"}"#),
        (.transitous, #"{"error":"failed to parse timestamp \"2026-11-24T07:00:00 08:00\""}"#),
    ]

    @Test func anyAnswerIsAMeasurementOrAFault() {
        var random = SeededRandom(seed: JSONFuzzTests.seed)
        var measured = 0
        for index in 0..<JSONFuzzTests.count {
            let (provider, seed) = Self.answers[index % Self.answers.count]
            let body = Mutator.mutate(Array(seed.utf8), &random)
            let status = [200, 200, 200, 400, 401, 403, 429, 503][Int(random.next() % 8)]
            let response = HTTPResponse(status: status, headers: ["retry-after": index % 3 == 0 ? "99999999999999999999" : "1"], body: body)
            switch RoutingAPI.interpret(response, from: provider) {
            case .success(let measurement):
                measured += 1
                #expect((1...Route.longestTravelMinutes).contains(measurement.currentMinutes))
                #expect(measurement.usualMinutes.map { (1...Route.longestTravelMinutes).contains($0) } ?? true)
                #expect(measurement.distanceMiles.map { (0...Route.longestDistanceMiles).contains($0) } ?? true)
            case .failure(.rateLimited(let after)):
                #expect(after.map { (0...3_600).contains($0) } ?? true)
            case .failure(.keyRejected(let message)), .failure(.noRoute(let message)), .failure(.refused(let message)):
                #expect(message.count <= 260 && DisplayText.line(message) == message, "\(message)")
            case .failure:
                break
            }
        }
        #expect(measured > JSONFuzzTests.count / 60, "the fuzz should leave some answers readable: \(measured)")
    }

    @Test func anyGeocoderAnswerIsPlacesOnTheEarthOrAFault() {
        let seeds: [(Geocoder, String)] = [
            (.nominatim, #"[{"place_id":1,"lat":"47.6097","lon":"-122.3422","display_name":"Pike Place Market, Seattle","name":"Pike Place Market"}]"#),
            (.transitous, #"[{"type":"PLACE","name":"Redmond","id":"","lat":47.67,"lon":-122.12,"areas":[{"name":"Redmond","default":true}],"score":1}]"#),
        ]
        var random = SeededRandom(seed: JSONFuzzTests.seed)
        var found = 0
        for index in 0..<JSONFuzzTests.count {
            let (geocoder, seed) = seeds[index % seeds.count]
            let status = [200, 200, 200, 400, 429, 503][Int(random.next() % 6)]
            let response = HTTPResponse(status: status, headers: [:], body: Mutator.mutate(Array(seed.utf8), &random))
            switch geocoder.candidates(in: response) {
            case .success(let places):
                found += places.count
                for place in places {
                    #expect(place.coordinate != nil)
                    #expect(place.label.count <= Geocoder.longestLabel && DisplayText.line(place.label) == place.label)
                }
            case .failure(let fault):
                #expect(fault.description.count <= 300 && DisplayText.line(fault.description) == fault.description)
            }
        }
        #expect(found > 0)
    }

    @Test func aCacheWithCustomRoutesReadsBackOrIsRefused() throws {
        let custom = Route.Custom(
            provider: .here, from: try #require(Coordinate("47.6,-122.3")), to: try #require(Coordinate("47.7,-122.2")),
            fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), triedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let route = Route(
            id: "home-work", name: "Home", description: nil, currentMinutes: 25, averageMinutes: 20, distanceMiles: 8.7,
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000), custom: custom)
        let seed = try RouteCache(fetchedAt: nil, source: nil, routes: [route]).encodeDocument()
        #expect(try RouteCache.decodeDocument(from: Data(seed)).routes == [route])
        var random = SeededRandom(seed: JSONFuzzTests.seed)
        for _ in 0..<JSONFuzzTests.count {
            let data = Mutator.mutate(seed, &random)
            guard let cache = try? RouteCache.decodeDocument(from: data) else { continue }
            // What reads is possible, and writes back to the same.
            for route in cache.routes { #expect(route.implausibility == nil) }
            #expect(try RouteCache.decodeDocument(from: Data(try cache.encodeDocument())) == cache)
        }
    }
}
