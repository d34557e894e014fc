import FoundationEssentials

extension JSONReader {
    /// Any JSON value, built as `[String: Any]`, `[Any]`, `String`, `Double`, `Bool` or `JSONNull`:
    /// for answers from outside whose every part is examined (a provider's route). Strict RFC 8259,
    /// like every read here, and a key given twice keeps its first value — as the store's files do,
    /// where `JSONSerialization` would keep the last. Nesting is bounded by `maximumDepth`.
    public mutating func readAny() throws -> Any {
        switch try peek() {
        case .object:
            try beginObject()
            var object: [String: Any] = [:]
            while let key = try nextKey() {
                let name = key.description
                let value = try readAny()
                if object[name] == nil { object[name] = value }
            }
            return object
        case .array:
            try beginArray()
            var array: [Any] = []
            while try nextElement() { array.append(try readAny()) }
            return array
        case .string: return try readString()
        case .number: return try readDouble()
        case .bool: return try readBool()
        case .null:
            _ = try readNull()
            return JSONNull()
        }
    }

    /// `data` read whole with `readAny`; nil unless it is one JSON value and nothing more.
    public static func any(_ data: Data) -> Any? {
        do {
            return try read(data) { reader -> Any in try reader.readAny() }
        } catch {
            return nil
        }
    }
}
