import FoundationEssentials

/// Reads a `Decodable` value from a tree (see `JSONCoding.decode`). What does not fit throws the
/// `DecodingError` that names where: a value of the wrong kind, a key missing, a null where a
/// value is due, a number the type cannot hold.
struct JSONTreeDecoder: Decoder {
    let tree: JSONTree
    let codingPath: [any CodingKey]
    let dates: JSONCoding.Dates
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ tree: JSONTree, path: [any CodingKey], dates: JSONCoding.Dates) {
        self.tree = tree
        codingPath = path
        self.dates = dates
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self, case .text(_, let read, let expected) = dates {
            let text = try string()
            guard let date = read(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "'\(text)' is not \(expected)"))
            }
            return try cast(date)
        }
        if T.self == Data.self {
            let text = try string()
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return try cast(data)
        }
        if T.self == URL.self {
            let text = try string()
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return try cast(url)
        }
        return try T(from: self)
    }

    private func cast<T, V>(_ value: V) throws -> T {
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "Expected \(T.self)."))
        }
        return typed
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = tree {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(tree.kindName) instead."))
    }

    func string() throws -> String {
        guard case .string(let text) = tree else { throw mismatch(String.self) }
        return text
    }

    func bool() throws -> Bool {
        guard case .bool(let value) = tree else { throw mismatch(Bool.self) }
        return value
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = tree else { throw mismatch(T.self) }
        // Read as `JSONReader.readInt` reads (12.0 and 1.2e1 are 12; 1.5 is not a whole number).
        let whole: Int? = if let plain = Int(text) { plain } else { try? JSONReader.read(Data(text.utf8)) { try $0.readInt() } }
        if let whole, let value = T(exactly: whole) { return value }
        if let value = T(text) { return value }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."))
    }

    func floating<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard case .number(let text) = tree else { throw mismatch(T.self) }
        guard let value = T(text), value.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."))
        }
        return value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = tree else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(Keyed<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = tree else { throw mismatch([Any].self) }
        return Unkeyed(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    func child(_ tree: JSONTree, _ key: any CodingKey) -> JSONTreeDecoder {
        JSONTreeDecoder(tree, path: codingPath + [key], dates: dates)
    }

    struct Keyed<K: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONTree]
        let decoder: JSONTreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [K] { members.keys.compactMap { K(stringValue: $0) } }

        func contains(_ key: K) -> Bool { members[key.stringValue] != nil }

        private func child(_ key: K) throws -> JSONTreeDecoder {
            guard let tree = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
            }
            return decoder.child(tree, key)
        }

        func decodeNil(forKey key: K) throws -> Bool {
            guard case .null = try child(key).tree else { return false }
            return true
        }

        func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { try child(key).bool() }
        func decode(_ type: String.Type, forKey key: K) throws -> String { try child(key).string() }
        func decode(_ type: Double.Type, forKey key: K) throws -> Double { try child(key).floating(Double.self) }
        func decode(_ type: Float.Type, forKey key: K) throws -> Float { try child(key).floating(Float.self) }
        func decode(_ type: Int.Type, forKey key: K) throws -> Int { try child(key).integer(Int.self) }
        func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { try child(key).integer(Int8.self) }
        func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { try child(key).integer(Int16.self) }
        func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { try child(key).integer(Int32.self) }
        func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { try child(key).integer(Int64.self) }
        func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { try child(key).integer(UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { try child(key).integer(UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { try child(key).integer(UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { try child(key).integer(UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { try child(key).integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T { try child(key).decode(T.self) }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
            try child(key).container(keyedBy: N.self)
        }

        func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }

        func superDecoder() throws -> any Decoder {
            let key = JSONTreeEncoder.PlainKey(stringValue: "super")
            return decoder.child(members[key.stringValue] ?? .null, key)
        }

        func superDecoder(forKey key: K) throws -> any Decoder { decoder.child(members[key.stringValue] ?? .null, key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONTree]
        let decoder: JSONTreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }
        private(set) var currentIndex = 0

        init(elements: [JSONTree], decoder: JSONTreeDecoder) {
            self.elements = elements
            self.decoder = decoder
        }

        /// The next element's decoder; the index moves on only when `read` succeeds.
        private mutating func next<T>(_ type: T.Type, _ read: (JSONTreeDecoder) throws -> T) throws -> T {
            let key = JSONTreeEncoder.PlainKey(intValue: currentIndex)
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
            }
            let value = try read(decoder.child(elements[currentIndex], key))
            currentIndex += 1
            return value
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .null = elements[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool() } }
        mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string() } }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.floating(Double.self) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.floating(Float.self) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(Int.self) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(Int8.self) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(Int16.self) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(Int32.self) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(Int64.self) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(UInt.self) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(UInt8.self) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(UInt16.self) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(UInt32.self) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(UInt64.self) } }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(T.self) } }

        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            try next(KeyedDecodingContainer<N>.self) { try $0.container(keyedBy: N.self) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder { try next((any Decoder).self) { $0 } }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: JSONTreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            if case .null = decoder.tree { true } else { false }
        }

        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.floating(Double.self) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.floating(Float.self) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
    }
}

extension JSONTree {
    /// What a message calls it: "a string", "null".
    var kindName: String {
        switch self {
        case .object: "a dictionary"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "bool"
        case .null: "null"
        }
    }
}
