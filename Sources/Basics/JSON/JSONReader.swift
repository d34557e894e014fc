import FoundationEssentials

/// Why bytes could not be read as the JSON expected. `offset` is a byte offset into the input.
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bytes are not JSON.
        case syntax
        /// Valid JSON so far, but not the type the reader asked for.
        case type
    }

    public var kind: Kind
    public var message: String
    public var offset: Int

    public var description: String { "\(message) at byte \(offset)" }

    /// A byte as a message shows it: `'x'`, or `0x0A` for one that does not print.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : String(cFormat: "0x%02X", byte)
    }
}

/// A strict, streaming JSON reader over UTF-8 bytes: the caller pulls exactly the values it
/// expects, and nothing is built that it does not keep.
///
/// Foundation's `JSONDecoder` reads a 10,000-route feed at about 14 MB/s on Linux; refresh must be
/// faster than that, so the feed and the route cache are read with this, field by field, and every
/// other document through it too (`JSONCoding`): one JSON reader in the program.
/// Not thread-safe: one reader per thread.
public struct JSONReader {
    /// What the next value is.
    public enum Kind: Equatable, Sendable { case object, array, string, number, bool, null }

    /// The bytes read (`JSONReader+Scalars.swift` reads them too).
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Open containers, innermost in bit `depth - 1`: whether each has had a member yet (so a
    /// comma is due). A bit mask, not an array: it is touched for every member of every object.
    var containers: UInt64 = 0
    var depth = 0
    /// Deeper nesting than any store file or feed has is refused rather than tracked.
    public static let maximumDepth = 64

    /// Reads `data` with `body`, which must consume exactly one value; only whitespace may follow.
    /// Errors from `body` (the reader's own, or the caller's) pass through unchanged.
    public static func read<T>(_ data: Data, _ body: (inout JSONReader) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in try read(raw.bindMemory(to: UInt8.self), body) }
    }

    /// Reads the start of `data` with `body`, which may stop anywhere: what follows is not read.
    public static func readPrefix<T>(_ data: Data, _ body: (inout JSONReader) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return try body(&reader)
        }
    }

    /// The same, over bytes the caller holds (a piece of a larger input, a mapped file).
    public static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONReader) throws -> T) throws -> T {
        var reader = JSONReader(bytes: bytes)
        let value = try body(&reader)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else {
            throw reader.syntaxError("unexpected text after the end of the JSON value")
        }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Inspecting

    /// The kind of the next value, without consuming it.
    public mutating func peek() throws -> Kind {
        skipWhitespace()
        guard index < bytes.count else { throw syntaxError("unexpected end of data") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw syntaxError("unexpected character \(describe(bytes[index]))")
        }
    }

    /// The byte offset of the next value, for messages.
    public var offset: Int { index }

    /// Where the reader is, to come back to (read a value twice: once to test it, once to build it).
    public struct Position: Sendable {
        fileprivate let index: Int
        fileprivate let containers: UInt64
        fileprivate let depth: Int
    }

    public var position: Position { Position(index: index, containers: containers, depth: depth) }

    public mutating func restore(_ position: Position) {
        index = position.index
        containers = position.containers
        depth = position.depth
    }

    /// How many bytes are left: lets a caller reserve room for what it will read.
    public var remainingBytes: Int { bytes.count - index }

    // MARK: Containers

    public mutating func beginObject() throws {
        try expectKind(.object, "an object")
        try open()
    }

    /// The next member's key, or nil after consuming the closing `}`. The key is a view of the
    /// input, valid while the data is: compare it with string literals (`case "Name":`) or copy it
    /// with `String(key)`; no string is built unless asked for.
    public mutating func nextKey() throws -> Key? {
        guard try nextMember(closing: UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntaxError("expected a key") }
        let start = index + 1
        let end = try plainEnd(from: start)
        let key: Key
        if bytes[end] == UInt8(ascii: "\"") {
            key = Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), escaped: nil)
            index = end + 1
        } else {
            key = Key(bytes: UnsafeBufferPointer(start: nil, count: 0), escaped: try readString())
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntaxError("expected ':'") }
        index += 1
        return key
    }

    /// The next key, a repeat of one of `fields` skipped (and its value checked): a key given
    /// twice keeps its first value (see `FieldsSeen`). Nil after the closing `}`.
    public mutating func nextKey(firstOf fields: [StaticString], seen: inout FieldsSeen) throws -> Key? {
        while let key = try nextKey() {
            if seen.first(key, among: fields) { return key }
            try skipValue()
        }
        return nil
    }

    /// An object key: a view of the input bytes, or (when it had escapes) its decoded text.
    public struct Key: CustomStringConvertible {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let escaped: String?

        public var description: String { escaped ?? String(decoding: bytes, as: UTF8.self) }

        public static func == (key: Key, text: String) -> Bool {
            if let escaped = key.escaped { return escaped == text }
            var text = text
            return text.withUTF8 { utf8 in
                guard utf8.count == key.bytes.count else { return false }
                guard let mine = key.bytes.baseAddress, let theirs = utf8.baseAddress else { return utf8.isEmpty }
                return memcmp(mine, theirs, utf8.count) == 0
            }
        }

        /// Lets `switch key { case "Name": … }` compare without building a string (or counting a
        /// reference: a literal pattern is a `StaticString`).
        public static func ~= (pattern: StaticString, key: Key) -> Bool {
            guard let escaped = key.escaped else {
                guard pattern.utf8CodeUnitCount == key.bytes.count else { return false }
                guard let bytes = key.bytes.baseAddress else { return true }
                return memcmp(pattern.utf8Start, bytes, key.bytes.count) == 0
            }
            return pattern.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } == escaped
        }
    }

    public mutating func beginArray() throws {
        try expectKind(.array, "an array")
        try open()
    }

    mutating func open() throws {
        guard depth < Self.maximumDepth else { throw syntaxError("nested more than \(Self.maximumDepth) deep") }
        index += 1
        depth += 1
        containers &= ~(1 << UInt64(depth - 1))
    }

    /// Whether another element follows; false after consuming the closing `]`.
    public mutating func nextElement() throws -> Bool {
        try nextMember(closing: UInt8(ascii: "]"))
    }

    mutating func nextMember(closing: UInt8) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count, depth > 0 else { throw syntaxError("unexpected end of data") }
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if bytes[index] == closing {
            index += 1
            depth -= 1
            return false
        }
        if containers & bit != 0 {
            guard bytes[index] == UInt8(ascii: ",") else {
                throw syntaxError("expected ',' or '\(Character(UnicodeScalar(closing)))'")
            }
            index += 1
        }
        containers |= bit
        return true
    }

    /// Which of an object's known fields have been read. A key given twice keeps its first value,
    /// and the repeat is skipped (and checked): one rule for every document the product reads,
    /// `JSONCoding`'s included.
    public struct FieldsSeen {
        private var bits: UInt64 = 0

        public init() {}

        /// Records the key if it is one of `fields` (at most 64), and returns whether this is its
        /// first appearance. A key that is none of them is always "first": it is the caller's to
        /// skip.
        public mutating func first(_ key: Key, among fields: [StaticString]) -> Bool {
            guard let field = fields.firstIndex(where: { $0 ~= key }), field < 64 else { return true }
            let bit: UInt64 = 1 << UInt64(field)
            defer { bits |= bit }
            return bits & bit == 0
        }
    }
}
