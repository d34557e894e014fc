import FoundationEssentials

/// The byte-level steps every read goes through: numbers' extents, digits, literals, whitespace,
/// and the errors that name where the bytes went wrong.
extension JSONReader {
    /// Checks the JSON number grammar and returns where its text is; `integral` when it has no
    /// fraction or exponent.
    mutating func numberRange() throws -> (Range<Int>, integral: Bool) {
        try expectKind(.number, "a number")
        return try numberRangeAtStart()
    }

    /// The same, for the number that starts at the next byte.
    mutating func numberRangeAtStart() throws -> (Range<Int>, integral: Bool) {
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
    func exactDecimal(_ range: Range<Int>) -> Double? {
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

    static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

    /// The value of an integral number's digits; the caller has checked the grammar and the length.
    func integer(_ range: Range<Int>) -> Int {
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

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func digits() throws -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    mutating func hex4() throws -> UInt32 {
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

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw syntaxError("unexpected end of data") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw syntaxError("unexpected character \(describe(bytes[index + offset]))")
        }
        index += count
    }

    mutating func expectKind(_ kind: Kind, _ name: String) throws {
        let actual = try peek()
        guard actual == kind else { throw typeError("expected \(name), found \(Self.name(of: actual))") }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func syntaxError(_ message: String) -> JSONReadError {
        JSONReadError(kind: .syntax, message: message, offset: index)
    }

    func typeError(_ message: String) -> JSONReadError {
        JSONReadError(kind: .type, message: message, offset: index)
    }

    func describe(_ byte: UInt8) -> String { JSONReadError.describe(byte) }

    static func name(of kind: Kind) -> String {
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
