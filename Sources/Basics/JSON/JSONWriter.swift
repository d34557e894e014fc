/// Builds compact JSON text. The caller writes keys and values in order; the writer escapes strings
/// and places commas. Used where a document is written field by field (the route cache, the plan);
/// a Codable value is written by `JSONCoding`, in the same form.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether a member was written (so a comma is due).
    private var containers: [Bool] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Hands the bytes written so far to `sink` and forgets them, keeping the place in the
    /// document: a long document can be written out in pieces.
    public mutating func flush(_ sink: ([UInt8]) throws -> Void) rethrows {
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        containers.append(false)
    }

    public mutating func endObject() {
        containers.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        containers.append(false)
    }

    public mutating func endArray() {
        containers.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"key":`; the next call writes its value.
    public mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows belongs to this key: no comma before it.
        pendingValue = true
    }

    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        appendQuoted(value)
    }

    /// A value already encoded (by `JSONCoding`), written as it is.
    public mutating func raw(_ encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
    }

    public mutating func int(_ value: Int?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func double(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        separate()
        bytes.append(contentsOf: (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Any value `JSONReader.readAny` makes, and `Int`: objects with their keys sorted, so the
    /// same value is always the same bytes. Anything else is written as `null`.
    public mutating func any(_ value: Any) {
        switch value {
        case let text as String: string(text)
        case let flag as Bool: bool(flag)
        case let number as Int: int(number)
        case let number as Double: double(number)
        case let array as [Any]:
            beginArray()
            for element in array { any(element) }
            endArray()
        case let object as [String: Any]:
            beginObject()
            for name in object.keys.sorted() {
                key(name)
                // Sorted keys are distinct: the value is there.
                any(object[name] ?? JSONNull())
            }
            endObject()
        default: null()
        }
    }

    /// `value` as one JSON document, objects' keys sorted.
    public static func data(_ value: Any) -> Data {
        var writer = JSONWriter()
        writer.any(value)
        return Data(writer.bytes)
    }

    /// Ends the text with a newline, as text files do.
    public mutating func newline() {
        bytes.append(0x0A)
    }

    private var pendingValue = false

    private mutating func separate() {
        if pendingValue {
            pendingValue = false
            containers[containers.count - 1] = true
            return
        }
        guard let hasMembers = containers.last else { return }
        if hasMembers { bytes.append(UInt8(ascii: ",")) }
        containers[containers.count - 1] = true
    }

    private mutating func appendQuoted(_ text: String) { Self.appendQuoted(text, to: &bytes) }

    /// `text` as a JSON string: a quotation mark, a backslash and the control characters escaped
    /// (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`), everything else as it is — as Foundation's
    /// `JSONEncoder` writes them, slashes included.
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        let plain = text.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole.
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
