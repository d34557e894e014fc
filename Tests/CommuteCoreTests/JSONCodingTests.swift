import Basics
import Foundation
import TestThreads
import Testing

/// The program's one JSON for Codable values (`JSONCoding`) writes what Foundation's `JSONEncoder`
/// writes, byte for byte (sorted keys, slashes as they are, compact and pretty), and reads back
/// what either wrote — on values of every kind and on random ones from a fixed seed.
@Suite(.ownThreads) struct JSONCodingTests {
    struct Sample: Codable, Equatable {
        enum Mode: String, Codable { case car, bus }
        var text: String
        var optional: String?
        var flag: Bool
        var int: Int
        var int8: Int8
        var int64: Int64
        var uint64: UInt64
        var double: Double
        var float: Float
        var numbers: [Double]
        var nested: [[Int]]
        var empty: [String]
        var emptyObject: [String: Int]
        var byName: [String: Int]
        var byNumber: [Int: String]
        var mode: Mode
        var id: UUID
        var when: Date
        var bytes: Data
        var children: [Sample]?
    }

    static func sample(_ text: String, double: Double, children: [Sample]? = nil) -> Sample {
        Sample(
            text: text, optional: nil, flag: true, int: -42, int8: .min, int64: .max, uint64: .max, double: double, float: 1.25,
            numbers: [0, 1, -1, 0.1, 1.5, 1e-7, 1e21, 123_456_789.123, 1e15, 1e16, .greatestFiniteMagnitude, .leastNonzeroMagnitude],
            nested: [[1, 2], [], [3]], empty: [], emptyObject: [:], byName: ["b": 2, "a": 1, "/": 3], byNumber: [10: "ten", 2: "two"],
            mode: .bus, id: UUID(uuidString: "5E1F7C2A-90D1-4C5B-B0A3-DEADBEEF1234") ?? UUID(), when: Date(timeIntervalSince1970: 1_762_300_800.25),
            bytes: Data([0, 1, 2, 255]), children: children)
    }

    static let controls = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }

    static func foundation(_ value: some Encodable, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // Foundation on Linux lays an empty array or object over three lines; `[]` and `{}` here.
        return text.replacing(/\[\n\n *\]/, with: "[]").replacing(/\{\n\n *\}/, with: "{}")
    }

    static func ours(_ value: some Encodable, pretty: Bool) throws -> String {
        String(decoding: try JSONCoding.encode(value, layout: pretty ? .pretty : .compact), as: UTF8.self)
    }

    @Test func everyKindIsWrittenAsFoundationWritesIt() throws {
        let text = "quote \" backslash \\ slash / é 😀 " + String(Self.controls) + "\u{7F}"
        let value = Self.sample(text, double: 47.6097, children: [Self.sample("child", double: -0.5)])
        for pretty in [false, true] {
            #expect(try Self.ours(value, pretty: pretty) == Self.foundation(value, pretty: pretty), "pretty: \(pretty)")
        }
        // Read back by both.
        let written = Data(try JSONCoding.encode(value))
        #expect(try JSONCoding.decode(Sample.self, from: written) == value)
        #expect(try JSONDecoder().decode(Sample.self, from: written) == value)
        #expect(try JSONCoding.decode(Sample.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test func randomValuesFromAFixedSeedAreWrittenAsFoundationWritesThem() throws {
        var random = FixedSeed(47)
        let alphabet = Array("aé😀\"\\/ \n") + Self.controls
        for round in 0..<300 {
            let text = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
            var double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
            if !double.isFinite { double = Double(round) / 7 }
            var value = Self.sample(text, double: double)
            value.int = Int.random(in: .min ... .max, using: &random)
            value.float = Float(Double.random(in: -1e6...1e6, using: &random))
            value.optional = round % 2 == 0 ? text : nil
            for pretty in [false, true] {
                #expect(try Self.ours(value, pretty: pretty) == Self.foundation(value, pretty: pretty), "round \(round)")
            }
            #expect(try JSONCoding.decode(Sample.self, from: Data(JSONCoding.encode(value))) == value, "round \(round)")
        }
    }

    @Test func whatDoesNotFitSaysWhere() throws {
        struct Small: Codable { var count: Int8; var names: [String] }
        func problem(_ text: String) -> String {
            let result = Result { try JSONCoding.decode(Small.self, from: Data(text.utf8)) }
            guard case .failure(let error) = result else { return "decoded" }
            switch error as? DecodingError {
            case .keyNotFound(let key, _): return "missing \(key.stringValue)"
            case .typeMismatch(_, let context): return "type at \(context.codingPath.map(\.stringValue))"
            case .valueNotFound(_, let context): return "null at \(context.codingPath.map(\.stringValue))"
            case .dataCorrupted(let context): return "corrupt at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
            case .none: return error is JSONReadError ? "not JSON" : "\(error)"
            @unknown default: return "\(error)"
            }
        }
        #expect(problem(#"{"count":1,"names":["a"]}"#) == "decoded")
        #expect(problem(#"{"count":1}"#) == "missing names")
        #expect(problem(#"{"count":"1","names":[]}"#) == "type at [\"count\"]")
        #expect(problem(#"{"count":1,"names":["a",null]}"#) == "null at [\"names\", \"Index 1\"]")
        #expect(problem(#"{"count":300,"names":[]}"#) == "corrupt at [\"count\"]: Parsed JSON number <300> does not fit in Int8.")
        #expect(problem(#"[1]"#) == "type at []")
        #expect(problem(#"{"count":1,"names":[]} x"#) == "not JSON")
        // A repeated key keeps its first value, as every JSON read here does.
        #expect(try JSONCoding.decode(Small.self, from: Data(#"{"count":1,"count":2,"names":[]}"#.utf8)).count == 1)
    }
}
