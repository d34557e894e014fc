import FoundationEssentials

/// Codable values as JSON through this package's own reader and writer: the store's documents,
/// `--json`, the fetch helper's lines. One JSON in the program — strict RFC 8259 on the way in
/// (`JSONReader`: a repeated key keeps its first value, nesting and numbers bounded), keys sorted
/// on the way out, so the same value is always the same bytes.
public enum JSONCoding {
    /// How the text is laid out.
    public enum Layout: Sendable {
        /// One line, no spaces: files and protocol lines.
        case compact
        /// Two-space indentation, `"key" : value`, an empty array or object as `[]` or `{}`: for
        /// people, scripts and jq.
        case pretty
    }

    /// How a `Date` is written and read.
    public enum Dates: Sendable {
        /// As `Date` itself encodes: seconds since 2001-01-01 00:00:00 UTC.
        case asNumbers
        /// As text: `write` makes it, `read` takes it back (nil: it is not a time), `expected`
        /// names the form a message asks for ("an ISO 8601 time with an offset").
        case text(write: @Sendable (Date) -> String, read: @Sendable (String) -> Date?, expected: String)
    }

    /// `value` as JSON text.
    public static func encode<T: Encodable>(_ value: T, layout: Layout = .compact, dates: Dates = .asNumbers) throws -> [UInt8] {
        let tree = try JSONTreeEncoder.tree(of: value, dates: dates)
        var text = JSONTreeText(layout: layout)
        text.write(tree, depth: 0)
        return text.bytes
    }

    /// A `T` from JSON text: the whole of `data` is one value. A value of the wrong kind, a key
    /// missing or a number that does not fit throws a `DecodingError` naming where; text that is
    /// not JSON throws `JSONReadError`; more than `largestValueCount` values, `TooManyValues`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, dates: Dates = .asNumbers) throws -> T {
        // Counted first, building nothing: a file of millions of values is refused in the memory
        // of its bytes, before a tree of them is held. A value takes two bytes at the least
        // (`0,`), so a shorter text cannot hold too many and is not counted.
        if data.count > 2 * largestValueCount {
            var budget = largestValueCount
            try JSONReader.read(data) { reader in try JSONTree.count(&reader, budget: &budget) }
        }
        let tree = try JSONReader.read(data) { reader in try JSONTree.read(&reader) }
        return try JSONTreeDecoder(tree, path: [], dates: dates).decode(T.self)
    }

    /// The most values a document read whole may hold: the value is held whole before it is
    /// read, at about 55 bytes a value at its peak, so a 64 MiB file of zeros would take 1.5 GB.
    /// The documents traveltimes writes hold far fewer; the large ones (the route cache, the plan,
    /// the ledger) are read field by field and never held whole.
    public static let largestValueCount = 1_000_000

    /// A document of more than `largestValueCount` values.
    public struct TooManyValues: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String { "more than 1,000,000 values" }
    }
}

/// A JSON value held whole: what the encoder builds and the decoder reads. A number keeps its text,
/// so that it is read as the type that asks for it, never through a `Double` first.
indirect enum JSONTree {
    case object([String: JSONTree])
    case array([JSONTree])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// Counts the values of the one at the reader against `budget`, building nothing.
    static func count(_ reader: inout JSONReader, budget: inout Int) throws {
        budget -= 1
        guard budget >= 0 else { throw JSONCoding.TooManyValues() }
        switch try reader.peek() {
        case .object:
            try reader.beginObject()
            while try reader.nextKey() != nil { try count(&reader, budget: &budget) }
        case .array:
            try reader.beginArray()
            while try reader.nextElement() { try count(&reader, budget: &budget) }
        case .string, .number, .bool, .null: try reader.skipValue()
        }
    }

    static func read(_ reader: inout JSONReader) throws -> JSONTree {
        switch try reader.peek() {
        case .object:
            try reader.beginObject()
            var members: [String: JSONTree] = [:]
            while let key = try reader.nextKey() {
                let name = key.description
                let value = try read(&reader)
                // The first of a repeated key wins, as everywhere JSON is read here.
                if members[name] == nil { members[name] = value }
            }
            return .object(members)
        case .array:
            try reader.beginArray()
            var elements: [JSONTree] = []
            while try reader.nextElement() { elements.append(try read(&reader)) }
            return .array(elements)
        case .string: return .string(try reader.readString())
        case .number: return .number(String(decoding: try reader.readRawValue(), as: UTF8.self))
        case .bool: return .bool(try reader.readBool())
        case .null:
            _ = try reader.readNull()
            return .null
        }
    }
}

/// Writes a tree as text, objects' keys sorted.
struct JSONTreeText {
    let layout: JSONCoding.Layout
    var bytes: [UInt8] = []

    init(layout: JSONCoding.Layout) { self.layout = layout }

    mutating func write(_ tree: JSONTree, depth: Int) {
        switch tree {
        case .object(let members):
            guard !members.isEmpty else { return bytes.append(contentsOf: "{}".utf8) }
            bytes.append(UInt8(ascii: "{"))
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                string(name)
                bytes.append(contentsOf: (layout == .pretty ? " : " : ":").utf8)
                write(members[name] ?? .null, depth: depth + 1)
            }
            newline(depth)
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            guard !elements.isEmpty else { return bytes.append(contentsOf: "[]".utf8) }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                write(element, depth: depth + 1)
            }
            newline(depth)
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): string(text)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }

    private mutating func newline(_ depth: Int) {
        guard layout == .pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func string(_ text: String) { JSONWriter.appendQuoted(text, to: &bytes) }
}
