import FoundationEssentials

/// Why bytes are not the protocol buffer they claim to be.
public struct ProtobufProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The protocol-buffer wire format, read by hand: varints of at most 10 bytes, length-delimited
/// fields whose length is checked against what remains, fixed 32- and 64-bit fields, and unknown
/// fields skipped by their wire type. Groups (wire types 3 and 4, long deprecated) are refused.
/// Nesting is bounded by whoever descends (see `GTFSRealtime`).
public struct ProtobufReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = 0
    }

    public enum WireType: Int, Sendable {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    public var isAtEnd: Bool { index >= bytes.count }

    /// The next field's number and wire type, or nil at the end.
    public mutating func nextField() throws -> (number: Int, wire: WireType)? {
        guard !isAtEnd else { return nil }
        let key = try varint()
        let number = key >> 3
        guard number >= 1, number <= 536_870_911 else { throw ProtobufProblem("field number \(number) is not one") }
        guard let wire = WireType(rawValue: Int(key & 7)) else {
            throw ProtobufProblem("wire type \(key & 7) (a group, or none) in field \(number)")
        }
        return (Int(number), wire)
    }

    /// A base-128 varint: at most 10 bytes, the last one's high bit clear.
    public mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < bytes.count else { throw ProtobufProblem("a varint runs past the end") }
            let byte = bytes[index]
            index += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw ProtobufProblem("a varint is longer than 10 bytes") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// An `int32` or `int64` field: a negative one is ten bytes of two's complement.
    public mutating func signed() throws -> Int64 { Int64(bitPattern: try varint()) }

    /// A length-delimited field's bytes.
    public mutating func lengthDelimited() throws -> UnsafeBufferPointer<UInt8> {
        let length = try varint()
        guard length <= UInt64(bytes.count - index) else {
            throw ProtobufProblem("a field claims \(length) bytes where \(bytes.count - index) remain")
        }
        let start = index
        index += Int(length)
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    /// A string field, as text (invalid UTF-8 repaired), at most `limit` bytes kept.
    public mutating func string(limit: Int = 4_096) throws -> String {
        let field = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(rebasing: field[field.startIndex..<(field.startIndex + min(field.count, limit))]), as: UTF8.self)
    }

    /// Passes over a field of this wire type.
    public mutating func skip(_ wire: WireType) throws {
        switch wire {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        }
    }

    private mutating func advance(_ count: Int) throws {
        guard bytes.count - index >= count else { throw ProtobufProblem("a fixed-size field runs past the end") }
        index += count
    }
}
