import FoundationEssentials

/// The scalars of a JSON text, and the byte-level helpers every read goes through.
extension JSONReader {

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
    func plainEnd(from start: Int) throws -> Int {
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
    func utf8SequenceEnd(at start: Int) throws -> Int {
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
    mutating func readEscape() throws -> Unicode.Scalar {
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
    func isWhole(_ range: Range<Int>) -> Bool {
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
    func exactInteger(_ range: Range<Int>) -> Int? {
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
    mutating func skipStringAtQuote() throws {
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
}
