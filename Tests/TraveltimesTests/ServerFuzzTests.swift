import Foundation
import TestThreads
import Testing

@_spi(Store) @testable import CommuteCore
@testable import CommuteDelivery
@testable import CommuteModel
@testable import CommuteSources
@testable import CommuteStore

/// The generators issue 34's failures came from, with the fixed seed of `JSONFuzzTests` (the same
/// cases on every run, in CI): huge numbers in every field a notification service sends back,
/// decoded control characters in every part of a notifier URL, frequency and stop-time bombs, and
/// history imports of routes nobody knows.
@Suite(.ownThreads) struct ServerFuzzTests {
    /// An HTTP client that answers every request with the next answer a closure makes.
    final class Answering: HTTPClient, @unchecked Sendable {
        let answer: () -> HTTPResponse
        init(_ answer: @escaping () -> HTTPResponse) { self.answer = answer }
        func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse { answer() }
        func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
            answer()
        }
    }

    /// Numbers past every bound a type has, as JSON and header text carry them.
    static let numbers = [
        "9223372036854775808", "18446744073709551616", "1e20", "1e300", "-1e300", "1e400", "-5", "-0", "0.0000001", "340282366920938463463374607431768211456",
        "NaN", "Infinity", "-9223372036854775809", "4294967296", "6", "3600", "86401", "1.5e9",
    ]

    /// A body with a number from `numbers` in each field a service puts a number or an ID in.
    static func body(_ random: inout SeededRandom) -> Data {
        func number() -> String { numbers.randomElement(using: &random) ?? "1" }
        let fields = [
            "\"retry_after\": \(number())", "\"retry_after_ms\": \(number())", "\"parameters\": {\"retry_after\": \(number())}",
            "\"id\": \(number())", "\"message_id\": \(number())", "\"result\": {\"message_id\": \(number())}", "\"status\": \(number())",
            "\"event_id\": \(number())", "\"sequence_id\": \(number())", "\"ok\": false", "\"description\": \"Bad Request: \(number())\"",
            "\"error_code\": \(number())", "\"request\": \(number())",
        ]
        let chosen = fields.filter { _ in Bool.random(using: &random) }
        return Data(("{" + chosen.joined(separator: ", ") + "}").utf8)
    }

    /// Every channel, every answer: a delivery or a failure of one line, never a trap, and never a
    /// wait longer than a tick allows (a 429 asking for more fails at once).
    @Test func everyNumberAServerSendsIsClampedBeforeArithmetic() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 34)
        let channels = try [
            "ntfy://127.0.0.1/topic", "gotify://127.0.0.1/token", "pover://user@token", "tgram://123:ABC/42/43", "matrix://tok@127.0.0.1/!room:h",
            "discord://111/token", "slack://T1/B1/X1", "json://127.0.0.1/hook",
        ].map { try Channel(url: $0) }
        let started = Date()
        for index in 0..<max(300, JSONFuzzTests.count / 10) {
            let status = [200, 200, 400, 429, 429, 429, 500][Int(random.next() % 7)]
            // No wait a tick would sleep through: each asks for 6 s or more, or is not a number.
            var retry = Self.numbers.randomElement(using: &random) ?? "1"
            if let seconds = Double(retry), seconds.isFinite, seconds < ChannelSender.longestRetryWait + 1 { retry = "1e20" }
            let body = Self.body(&random)
            let response = HTTPResponse(status: status, headers: status == 429 ? ["Retry-After": retry] : [:], body: body)
            let sender = ChannelSender(client: Answering { response }, environment: [:])
            let channel = channels[index % channels.count]
            let operation: AlertOperation = index % 3 == 0
                ? .update(AlertMessage(id: .test(1), title: "t", body: "b"), handle: "42:1") : .send(AlertMessage(id: .test(1), title: "t", body: "b"))
            let receipt = sender.perform(operation, on: channel)
            if let failure = receipt.result.failure {
                #expect(DisplayText.line(failure) == failure && failure.count < 400, "\(failure)")
            }
            if let handle = receipt.handle { #expect(DisplayText.line(handle) == handle) }
        }
        #expect(Date().timeIntervalSince(started) < 60, "a 429 was waited out")
    }

    /// Percent-encoded bytes that decode to a control character or a line break
    static let hostile = ["%0A", "%0D", "%0D%0A", "%00", "%1B", "%7F", "%C2%85", "%E2%80%A8", "%E2%80%A9", "%09"]

    /// Every string inside a parsed value, found by reflection.
    static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        return Mirror(reflecting: value).children.flatMap { strings(in: $0.value) }
    }

    /// Any URL with a hostile byte in any part: refused, or read with no control character in any
    /// value it holds (so none can become a header of its own).
    @Test func everyDecodedControlCharacterInAURLPartIsRefused() {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 35)
        let templates = [
            "ntfy://USER:PASS@127.0.0.1/TOPIC?priority=3&tags=TAG&click=https://x.example/CLICK#FRAG",
            "gotify://127.0.0.1/TOKEN?priority=5", "pover://USER@TOKEN/DEVICE?sound=SOUND", "tgram://123:TOKEN/CHAT?silent=yes",
            "matrix://TOKEN@127.0.0.1/#ROOM?msgtype=notice", "discord://111/TOKEN?botname=NAME", "slack://T1/B1/TOKEN",
            "json://USER:PASS@127.0.0.1/PATH?-key=VALUE",
        ]
        let parts = ["USER", "PASS", "TOPIC", "TAG", "CLICK", "FRAG", "TOKEN", "DEVICE", "SOUND", "CHAT", "ROOM", "NAME", "PATH", "VALUE"]
        var refused = 0
        for _ in 0..<JSONFuzzTests.count {
            var url = templates.randomElement(using: &random) ?? templates[0]
            for part in parts {
                let plain = part.lowercased() + "x"
                let hostile = Bool.random(using: &random) ? plain : plain + (Self.hostile.randomElement(using: &random) ?? "%0A")
                url = url.replacingOccurrences(of: part, with: hostile)
            }
            do {
                let channel = try Channel(url: url)
                for text in Self.strings(in: channel) {
                    #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" },
                        "\(url) kept \(text.debugDescription)")
                }
            } catch {
                refused += 1
                #expect(DisplayText.line(error.description) == error.description)
            }
        }
        #expect(refused > JSONFuzzTests.count / 4)
    }

    /// Random frequency windows (headways from 1 s to a day, windows to a week, up to 2,000 trips):
    /// the departures of a window come out bounded, in order, within it.
    @Test func frequencyBombsGiveBoundedDepartures() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("freqfuzz-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let count = 16
        let made = try execute(
            ["python3", Paths.root.appendingPathComponent("Tests/Support/transit_hostile.py").path, "freqfuzz", out, String(JSONFuzzTests.seed), String(count)],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(made.status == 0, "\(made)")
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 36)
        for index in 0..<count {
            let timetable = try TransitTimetable(archive: try ZipArchive(path: "\(out)/freq-\(index).zip"), from: "A", to: "B")
            let now = Date(timeIntervalSince1970: 1_894_665_600 + Double(random.next() % (14 * 86_400)))
            let departures = timetable.departures(after: now, realtime: nil, limit: Route.Transit.largestDepartureCount)
            #expect(departures.count <= Route.Transit.largestDepartureCount)
            #expect(zip(departures, departures.dropFirst()).allSatisfy { $0.expected <= $1.expected })
            #expect(departures.allSatisfy { $0.expected >= now && $0.scheduled.timeIntervalSince(now) < TransitTimetable.lookahead })
        }
    }

    /// Realtime feeds of one trip repeated and stop-time updates by the thousand: decoded within
    /// their bound, or refused — never held whole.
    @Test func stopTimeBombsAreBoundedOrRefused() {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 37)
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                var byte = UInt8(value & 0x7F)
                value >>= 7
                if value != 0 { byte |= 0x80 }
                bytes.append(byte)
            } while value != 0
            return bytes
        }
        func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload }
        for _ in 0..<40 {
            let trips = Int(random.next() % 4) + 1
            let perUpdate = [0, 1, 100, 1_999, 2_000, 2_001][Int(random.next() % 6)]
            let entities = Int(random.next() % 400) + 1
            var feed = field(1, field(1, Array("2.0".utf8)) + varint(3 << 3) + varint(1_894_692_600))
            for index in 0..<entities {
                let trip = field(1, Array("T\(index % trips)".utf8))
                let update = field(1, trip) + Array(repeating: field(2, []), count: perUpdate).flatMap { $0 }
                feed += field(2, field(1, Array("e\(index)".utf8)) + field(3, update))
            }
            do {
                let decoded = try GTFSRealtime(decoding: Data(feed), keepingTrips: Set((0..<trips).map { "T\($0)" }))
                #expect(decoded.tripUpdates.count <= trips)
                #expect(decoded.tripUpdates.map(\.stopTimeUpdates.count).reduce(0, +) <= GTFSRealtime.largestKeptStopTimeUpdates)
            } catch {
                #expect(perUpdate > GTFSRealtime.largestInner || "\(error)".contains("stop"), "\(error)")
            }
        }
    }

    /// CSV files of readings for routes nobody knows, mixed with a known one: only the known
    /// route gets a file, and the count of what was skipped is right.
    @Test func historyImportsOfUnknownRoutesMakeNoFiles() throws {
        var random = SeededRandom(seed: JSONFuzzTests.seed &+ 38)
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        for round in 0..<6 {
            var lines = ["route,at,minutes,source,suspicious"]
            var unknown = 0
            for index in 0..<Int(random.next() % 2_000) {
                let known = random.next() % 3 == 0
                let id = known ? "1" : "nobody-\(round)-\(random.next() % 500)"
                if !known { unknown += 1 }
                lines.append("\(id),2025-10-\(String(format: "%02d", 1 + index % 28))T0\(index % 10):\(String(format: "%02d", index % 60)):00-07:00,\(1 + index % 90),wsdot,false")
            }
            let path = sandbox.home + "-fuzz-\(round).csv"
            try Sandbox.write(path, Data((lines.joined(separator: "\n") + "\n").utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let outcome = try sandbox.ok(["history", "import", path, "--now", Paths.capturedAt])
            if unknown > 0 { #expect(outcome.stdout.contains("skipped \(unknown) of "), "\(outcome)") }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path("history"))) ?? []
            #expect(files.allSatisfy { $0 == "1.tth" }, "\(files.prefix(3))")
        }
    }
}
