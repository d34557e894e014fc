import FoundationEssentials

/// Builds the tree of an `Encodable` value (see `JSONCoding.encode`). Containers are boxes the
/// encoder and its nested containers share, filled in as the value encodes itself.
final class JSONTreeEncoder: Encoder {
    /// A container being filled, or a value.
    final class Box {
        enum Kind { case object, array, value }

        let kind: Kind
        var members: [String: Box] = [:]
        var elements: [Box] = []
        var value: JSONTree = .null

        init(_ kind: Kind) { self.kind = kind }

        init(_ value: JSONTree) {
            kind = .value
            self.value = value
        }

        var tree: JSONTree {
            switch kind {
            case .object: .object(members.mapValues(\.tree))
            case .array: .array(elements.map(\.tree))
            case .value: value
            }
        }
    }

    let codingPath: [any CodingKey]
    let dates: JSONCoding.Dates
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the value encoded itself as; nil until it asks for a container.
    var box: Box?

    init(path: [any CodingKey], dates: JSONCoding.Dates) {
        codingPath = path
        self.dates = dates
    }

    static func tree<T: Encodable>(of value: T, dates: JSONCoding.Dates) throws -> JSONTree {
        guard let tree = try box(value, path: [], dates: dates)?.tree else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return tree
    }

    /// The box of one value; nil when it encoded nothing.
    static func box<T: Encodable>(_ value: T, path: [any CodingKey], dates: JSONCoding.Dates) throws -> Box? {
        if let date = value as? Date, case .text(let write, _, _) = dates { return Box(.string(write(date))) }
        if let data = value as? Data { return Box(.string(data.base64EncodedString())) }
        if let url = value as? URL { return Box(.string(url.absoluteString)) }
        let encoder = JSONTreeEncoder(path: path, dates: dates)
        try value.encode(to: encoder)
        return encoder.box
    }

    /// A value nested at `path`: an object when it encodes nothing, as a container it left empty.
    static func nested<T: Encodable>(_ value: T, path: [any CodingKey], dates: JSONCoding.Dates) throws -> Box {
        try box(value, path: path, dates: dates) ?? Box(.object)
    }

    static func number<T: BinaryFloatingPoint & CustomStringConvertible>(_ value: T, path: [any CodingKey]) throws -> JSONTree {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(T.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: Box
        if let box, box.kind == .object {
            object = box
        } else {
            object = Box(.object)
            box = object
        }
        return KeyedEncodingContainer(Keyed<Key>(object: object, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: Box
        if let box, box.kind == .array {
            array = box
        } else {
            array = Box(.array)
            box = array
        }
        return Unkeyed(array: array, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct PlainKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        /// An element's place in an array: `Index 2`, as Foundation names it.
        init(intValue: Int) {
            stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }

    struct Keyed<K: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Box
        let encoder: JSONTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ box: Box, for key: K) { object.members[key.stringValue] = box }

        mutating func encodeNil(forKey key: K) throws { set(Box(.null), for: key) }
        mutating func encode(_ value: Bool, forKey key: K) throws { set(Box(.bool(value)), for: key) }
        mutating func encode(_ value: String, forKey key: K) throws { set(Box(.string(value)), for: key) }
        mutating func encode(_ value: Double, forKey key: K) throws {
            set(Box(try JSONTreeEncoder.number(value, path: codingPath + [key])), for: key)
        }
        mutating func encode(_ value: Float, forKey key: K) throws {
            set(Box(try JSONTreeEncoder.number(value, path: codingPath + [key])), for: key)
        }
        mutating func encode(_ value: Int, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: Int8, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: Int16, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: Int32, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: Int64, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: UInt, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: UInt8, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: UInt16, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: UInt32, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode(_ value: UInt64, forKey key: K) throws { set(Box(.number(String(value))), for: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: K) throws {
            set(try JSONTreeEncoder.nested(value, path: codingPath + [key], dates: encoder.dates), for: key)
        }

        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: K) -> KeyedEncodingContainer<N> {
            let nested = JSONTreeEncoder(path: codingPath + [key], dates: encoder.dates)
            let container = nested.container(keyedBy: N.self)
            if let box = nested.box { set(box, for: key) }
            return container
        }

        mutating func nestedUnkeyedContainer(forKey key: K) -> any UnkeyedEncodingContainer {
            let nested = JSONTreeEncoder(path: codingPath + [key], dates: encoder.dates)
            let container = nested.unkeyedContainer()
            if let box = nested.box { set(box, for: key) }
            return container
        }

        mutating func superEncoder() -> any Encoder { superEncoder(at: PlainKey(stringValue: "super")) }

        mutating func superEncoder(forKey key: K) -> any Encoder { superEncoder(at: key) }

        private func superEncoder(at key: any CodingKey) -> any Encoder {
            let nested = JSONTreeEncoder(path: codingPath + [key], dates: encoder.dates)
            let box = Box(.object)
            nested.box = box
            object.members[key.stringValue] = box
            return nested
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Box
        let encoder: JSONTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { array.elements.count }

        private var nextKey: PlainKey { PlainKey(intValue: count) }

        private func append(_ box: Box) { array.elements.append(box) }

        mutating func encodeNil() throws { append(Box(.null)) }
        mutating func encode(_ value: Bool) throws { append(Box(.bool(value))) }
        mutating func encode(_ value: String) throws { append(Box(.string(value))) }
        mutating func encode(_ value: Double) throws { append(Box(try JSONTreeEncoder.number(value, path: codingPath + [nextKey]))) }
        mutating func encode(_ value: Float) throws { append(Box(try JSONTreeEncoder.number(value, path: codingPath + [nextKey]))) }
        mutating func encode(_ value: Int) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: Int8) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: Int16) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: Int32) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: Int64) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: UInt) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: UInt8) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: UInt16) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: UInt32) throws { append(Box(.number(String(value)))) }
        mutating func encode(_ value: UInt64) throws { append(Box(.number(String(value)))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try JSONTreeEncoder.nested(value, path: codingPath + [nextKey], dates: encoder.dates))
        }

        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> {
            let nested = JSONTreeEncoder(path: codingPath + [nextKey], dates: encoder.dates)
            let container = nested.container(keyedBy: N.self)
            if let box = nested.box { append(box) }
            return container
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = JSONTreeEncoder(path: codingPath + [nextKey], dates: encoder.dates)
            let container = nested.unkeyedContainer()
            if let box = nested.box { append(box) }
            return container
        }

        mutating func superEncoder() -> any Encoder {
            let nested = JSONTreeEncoder(path: codingPath + [nextKey], dates: encoder.dates)
            let box = Box(.object)
            nested.box = box
            append(box)
            return nested
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: JSONTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ tree: JSONTree) { encoder.box = Box(tree) }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(try JSONTreeEncoder.number(value, path: codingPath)) }
        mutating func encode(_ value: Float) throws { set(try JSONTreeEncoder.number(value, path: codingPath)) }
        mutating func encode(_ value: Int) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.box = try JSONTreeEncoder.nested(value, path: codingPath, dates: encoder.dates)
        }
    }
}
