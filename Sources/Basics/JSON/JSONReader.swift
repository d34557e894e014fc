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
/// faster than that, so the feed and the route cache are read with this instead.
/// Not thread-safe: one reader per thread.
public struct JSONReader {
    /// What the next value is.
    public enum Kind: Equatable, Sendable { case object, array, string, number, bool, null }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Open containers, innermost in bit `depth - 1`: whether each has had a member yet (so a
    /// comma is due). A bit mask, not an array: it is touched for every member of every object.
    private var containers: UInt64 = 0
    private var depth = 0
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

    private mutating func open() throws {
        guard depth < Self.maximumDepth else { throw syntaxError("nested more than \(Self.maximumDepth) deep") }
        index += 1
        depth += 1
        containers &= ~(1 << UInt64(depth - 1))
    }

    /// Whether another element follows; false after consuming the closing `]`.
    public mutating func nextElement() throws -> Bool {
        try nextMember(closing: UInt8(ascii: "]"))
    }

    private mutating func nextMember(closing: UInt8) throws -> Bool {
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
    /// and the repeat is skipped (and checked): one rule for every document the product reads, the
    /// one Foundation's `JSONDecoder` follows for the store files it reads.
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

    // MARK: Scalars

    /// Consumes a `null` if one is next.
    public mutating func readNull() throws -> Bool {
        guard try peek() == .null else { return false }
        try literal("null")
        return true
    }

    public mutating func readBool() throws -> Bool {
        try expectKind(.bool, "true or false")
        if bytes[index] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    public mutating func readString() throws -> String {
        try expectKind(.string, "a string")
        let start = index + 1
        var end = try plainEnd(from: start)
        // Fast path: no escapes, so the bytes (checked as UTF-8) are the string.
        if bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        while true {
            // At a backslash.
            index = end + 1
            buffer.append(contentsOf: String(try readEscape()).utf8)
            end = try plainEnd(from: index)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            if bytes[end] == UInt8(ascii: "\"") {
                index = end + 1
                return String(decoding: buffer, as: UTF8.self)
            }
        }
    }

    /// Where the unescaped run of a string that starts at `start` ends: at the closing quote or at
    /// a backslash. On the way it refuses what RFC 8259 does not allow in a string: control
    /// characters and bytes that are not UTF-8 (see `utf8SequenceEnd`).
    private func plainEnd(from start: Int) throws -> Int {
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return end }
            if byte < 0x20 {
                throw JSONReadError(kind: .syntax, message: "control character in a string", offset: end)
            }
            end = byte < 0x80 ? end + 1 : try utf8SequenceEnd(at: end)
        }
        throw JSONReadError(kind: .syntax, message: "unterminated string", offset: end)
    }

    /// The index after the UTF-8 sequence whose first byte (0x80 or more) is at `start`. Refuses
    /// what RFC 3629 forbids: a stray continuation byte, an overlong form, an encoded surrogate, a
    /// code point past U+10FFFF, a truncated sequence.
    private func utf8SequenceEnd(at start: Int) throws -> Int {
        let lead = bytes[start]
        let length: Int
        // What the second byte may be; later ones are always 0x80…0xBF.
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw JSONReadError(kind: .syntax, message: "invalid UTF-8 byte \(describe(lead))", offset: start)
        }
        guard start + length <= bytes.count, second.contains(bytes[start + 1]),
            (2..<length).allSatisfy({ (0x80...0xBF).contains(bytes[start + $0]) })
        else { throw JSONReadError(kind: .syntax, message: "invalid UTF-8 sequence", offset: start) }
        return start + length
    }

    /// The character a backslash escape stands for; `index` is just past the backslash. A `\\u`
    /// surrogate must come as a high one followed by a low one: a lone half is refused.
    private mutating func readEscape() throws -> Unicode.Scalar {
        guard index < bytes.count else { throw syntaxError("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(escape)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var value = try hex4()
            switch value {
            case 0xD800...0xDBFF:
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw syntaxError("lone surrogate in a \\u escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw syntaxError("lone surrogate in a \\u escape") }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw syntaxError("lone surrogate in a \\u escape")
            default: break
            }
            guard let scalar = Unicode.Scalar(value) else { throw syntaxError("invalid \\u escape") }
            return scalar
        default:
            throw JSONReadError(kind: .syntax, message: "invalid escape \\\(describe(escape))", offset: index - 1)
        }
    }

    /// A whole number: an integer, exactly (never rounded through a double), or a whole number
    /// spelt otherwise (`12.0`, `1e2`) when a double holds it exactly (up to 2^53). Anything else,
    /// an integer past 64 bits included, is a type error.
    public mutating func readInt() throws -> Int {
        let start = index
        let (range, integral) = try numberRange()
        if integral {
            if let value = exactInteger(range) { return value }
        } else if isWhole(range), let value = Double(text(range)), abs(value) < 9_007_199_254_740_992,
            let whole = Int(exactly: value)
        {
            // A whole decimal below 2^53 is exactly its double.
            return whole
        }
        index = start
        throw typeError(integral ? "the number is out of range" : "expected a whole number")
    }

    /// A finite number. One too large for a double (`1e400`) is a type error, not infinity.
    public mutating func readDouble() throws -> Double {
        let start = index
        let (range, integral) = try numberRange()
        // Whole numbers of up to 15 digits are exact as doubles: skip the text conversion.
        if integral, range.count <= 15 { return Double(integer(range)) }
        if let value = exactDecimal(range) { return value }
        var value: Double
        // The grammar is checked, and a number inside the document is always followed by a byte
        // that ends it, so strtod can read in place (the C locale's '.' is JSON's).
        if range.upperBound < bytes.count, let base = bytes.baseAddress {
            value = base.advanced(by: range.lowerBound).withMemoryRebound(to: CChar.self, capacity: range.count) {
                strtod($0, nil)
            }
        } else {
            value = Double(text(range)) ?? .infinity
        }
        guard value.isFinite else {
            index = start
            throw typeError("the number is out of range")
        }
        return value
    }

    /// Whether a number's digits make a whole number (`12.0`, `1.5e1`, not `0.99999999999999999999`,
    /// which a double would round to 1): every digit past the decimal point, once the exponent
    /// has moved it, is zero.
    private func isWhole(_ range: Range<Int>) -> Bool {
        var digits: [UInt8] = []
        var point: Int?
        var exponent = 0
        var position = range.lowerBound
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        while position < range.upperBound {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ".") {
                point = digits.count
            } else if byte | 0x20 == UInt8(ascii: "e") {
                var negative = false
                if bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    negative = bytes[position] == UInt8(ascii: "-")
                    position += 1
                }
                while position < range.upperBound {
                    // Past ±10,000 the answer no longer changes: stop counting.
                    exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 10_000)
                    position += 1
                }
                if negative { exponent = -exponent }
            } else {
                digits.append(byte)
            }
        }
        let wholeDigits = (point ?? digits.count) + exponent
        return digits.dropFirst(max(0, min(wholeDigits, digits.count))).allSatisfy { $0 == UInt8(ascii: "0") }
    }

    /// An integer's exact value, or nil when it does not fit in 64 bits. Accumulated towards the
    /// sign, so that the most negative value fits too.
    private func exactInteger(_ range: Range<Int>) -> Int? {
        if range.count <= 18 { return integer(range) }
        var position = range.lowerBound
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var value = 0
        while position < range.upperBound {
            let digit = Int(bytes[position] - UInt8(ascii: "0"))
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAdd) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowedShift, !overflowedAdd else { return nil }
            value = next
            position += 1
        }
        return value
    }

    /// Hands a string's UTF-8 bytes to `body` without building a `String`, when it has no escapes
    /// (dates, IDs); otherwise decodes it first.
    public mutating func withStringBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) throws -> T {
        try expectKind(.string, "a string")
        let start = index + 1
        let end = try plainEnd(from: start)
        if bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        var text = try readString()
        return text.withUTF8(body)
    }

    /// Passes over a string without building it, checking it as strictly as `readString` does.
    public mutating func skipString() throws {
        try expectKind(.string, "a string")
        try skipStringAtQuote()
    }

    /// Skips the string whose opening quote is next.
    private mutating func skipStringAtQuote() throws {
        index += 1
        while true {
            index = try plainEnd(from: index)
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                return
            }
            index += 1
            _ = try readEscape()
        }
    }

    /// A string, or nil for `null`.
    public mutating func readOptionalString() throws -> String? {
        if try readNull() { return nil }
        return try readString()
    }

    /// A whole number, or nil for `null`.
    public mutating func readOptionalInt() throws -> Int? {
        if try readNull() { return nil }
        return try readInt()
    }

    /// A number, or nil for `null`.
    public mutating func readOptionalDouble() throws -> Double? {
        if try readNull() { return nil }
        return try readDouble()
    }

    /// Skips one value of any kind.
    /// The next value's bytes as they are, consumed: a part of a document that another decoder
    /// reads whole.
    public mutating func readRawValue() throws -> [UInt8] {
        skipWhitespace()
        let start = index
        try skipValue()
        return Array(bytes[start..<index])
    }

    public mutating func skipValue() throws {
        // The kind is known from here on: skipping is most of what a search does, so the checks
        // each reader repeats are left out.
        switch try peek() {
        case .object:
            try open()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try open()
            while try nextElement() { try skipValue() }
        case .string: try skipStringAtQuote()
        case .number: _ = try numberRangeAtStart()
        case .bool: try literal(bytes[index] == UInt8(ascii: "t") ? "true" : "false")
        case .null: try literal("null")
        }
    }

    /// Passes over the rest of the object being read, through its closing `}`, looking only at
    /// quotes, escapes and brackets: for members a reader has decided to leave out (a ledger entry
    /// older than what is shown), where the strict checks of `skipValue` would cost more than the
    /// reading it saves. What it passes over is not checked; a whole read of the file still is.
    public mutating func skipRestOfObject() throws {
        guard depth > 0 else { throw syntaxError("not inside an object") }
        var nesting = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard nesting == 0 else {
                    nesting -= 1
                    continue
                }
                guard byte == UInt8(ascii: "}") else { throw syntaxError("expected '}'") }
                depth -= 1
                return
            default: continue
            }
        }
        throw syntaxError("unexpected end of data")
    }

    // MARK: Helpers

    /// Checks the JSON number grammar and returns where its text is; `integral` when it has no
    /// fraction or exponent.
    private mutating func numberRange() throws -> (Range<Int>, integral: Bool) {
        try expectKind(.number, "a number")
        return try numberRangeAtStart()
    }

    /// The same, for the number that starts at the next byte.
    private mutating func numberRangeAtStart() throws -> (Range<Int>, integral: Bool) {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = try digits()
        // JSON allows no leading zero: `0`, `0.5`, but never `01`.
        guard integerDigits == 1 || integerDigits > 1 && bytes[integerStart] != UInt8(ascii: "0") else {
            throw syntaxError("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard try digits() > 0 else { throw syntaxError("invalid number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw syntaxError("invalid number") }
        }
        return (start..<index, integral)
    }

    /// `-122.331759` as 122331759 / 10^6, negated: exact and correctly rounded when the digits fit
    /// in 2^53 and the power of ten is exactly representable. Nil for exponents or longer numbers.
    private func exactDecimal(_ range: Range<Int>) -> Double? {
        var position = range.lowerBound
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while position < range.upperBound {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else { return nil }
            mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
            if inFraction { fractionDigits += 1 }
        }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

    /// The value of an integral number's digits; the caller has checked the grammar and the length.
    private func integer(_ range: Range<Int>) -> Int {
        var value = 0
        var position = range.lowerBound
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        while position < range.upperBound {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        return negative ? -value : value
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private mutating func digits() throws -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntaxError("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw syntaxError("unexpected end of data") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw syntaxError("unexpected character \(describe(bytes[index + offset]))")
        }
        index += count
    }

    private mutating func expectKind(_ kind: Kind, _ name: String) throws {
        let actual = try peek()
        guard actual == kind else { throw typeError("expected \(name), found \(Self.name(of: actual))") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func syntaxError(_ message: String) -> JSONReadError {
        JSONReadError(kind: .syntax, message: message, offset: index)
    }

    private func typeError(_ message: String) -> JSONReadError {
        JSONReadError(kind: .type, message: message, offset: index)
    }

    private func describe(_ byte: UInt8) -> String { JSONReadError.describe(byte) }

    private static func name(of kind: Kind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
