import Basics
import CommuteModel
import FoundationEssentials

/// A store document: a JSON object that carries `"version": 1`.
public protocol VersionedDocument: Codable, Sendable {
    /// The version this build reads and writes.
    static var currentVersion: Int { get }
    /// The document a missing file stands for.
    static var empty: Self { get }
    /// Reads a file's bytes, throwing `DocumentProblem` with the reason when they are not this
    /// document. The default checks the version, then decodes it (`JSONCoding`).
    static func decodeDocument(from data: Data) throws -> Self
    /// The file's bytes, ending in a newline. The default encodes it (`JSONCoding`).
    func encodeDocument() throws -> [UInt8]
    /// Throws `DocumentProblem` unless the bytes are a readable document; the check a writer makes
    /// before replacing a file. The default decodes it whole.
    static func validateDocument(_ data: Data) throws
    /// Throws unless the file at `path` is absent or a readable document. The default reads it
    /// whole and calls `validateDocument`.
    static func validateFile(atPath path: String) throws(StoreError)
    /// Throws `DocumentProblem` when a value that parsed is impossible (an hour of 99, a negative
    /// count): the file is refused as unreadable rather than let such a value reach arithmetic.
    /// `decodeDocument` calls it. The default accepts everything.
    func validate() throws(DocumentProblem)
}

/// Why a file's bytes are not the document: `not valid JSON`, `unknown version 2 (…)`.
public struct DocumentProblem: Error, Equatable, Sendable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }
}

extension VersionedDocument {
    public static var currentVersion: Int { 1 }

    public static func decodeDocument(from data: Data) throws -> Self { try decodeWithCodable(from: data) }

    /// The version checked, the document decoded (`JSONCoding`) and validated: the default reading,
    /// and what a document read field by field falls back to for anything not in its plain shape.
    package static func decodeWithCodable(from data: Data) throws -> Self {
        try checkVersion(data)
        let document: Self
        do {
            document = try StoreCoding.decoder.decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw DocumentProblem("wrong shape: \(StoreCoding.describe(error))")
        } catch let tooMany as JSONCoding.TooManyValues {
            throw DocumentProblem("\(tooMany): no store document is so large")
        }
        try document.validate()
        return document
    }

    public func validate() throws(DocumentProblem) {}

    public func encodeDocument() throws -> [UInt8] {
        Array(try StoreCoding.encoder.encode(self)) + [0x0A]
    }

    public static func validateDocument(_ data: Data) throws {
        _ = try decodeDocument(from: data)
    }

    public static func validateFile(atPath path: String) throws(StoreError) {
        // The reading a load does — absent, empty, unreadable — with validation for decoding.
        _ = try VersionedFile<Self>(path: path, maximumSize: RegularFile.defaultMaximumSize).load { data in
            try validateDocument(data)
            return empty
        }
    }

    /// Throws unless the bytes are a JSON object with `"version": currentVersion`. Read as a
    /// stream, holding nothing: it also names the problem of a large document (the route cache)
    /// that failed for another reason.
    static func checkVersion(_ data: Data) throws {
        let version: Int?
        do {
            version = try JSONReader.read(data) { reader -> Int? in
                guard try reader.peek() == .object else { throw DocumentProblem("expected a JSON object") }
                try reader.beginObject()
                var found: Int??
                while let key = try reader.nextKey() {
                    // The first of a repeated key, as every reader here.
                    guard key == "version", found == nil else {
                        try reader.skipValue()
                        continue
                    }
                    if try reader.readNull() {
                        found = .some(nil)
                    } else {
                        guard try reader.peek() == .number else { throw DocumentProblem("\"version\" is not a number") }
                        found = .some(try reader.readInt())
                    }
                }
                return found ?? nil
            }
        } catch let problem as DocumentProblem {
            throw problem
        } catch {
            throw DocumentProblem("not valid JSON")
        }
        guard let version else { throw DocumentProblem("no \"version\" field") }
        guard version == currentVersion else {
            throw DocumentProblem("unknown version \(version) (this traveltimes reads version \(currentVersion))")
        }
    }
}

/// Reads and writes one versioned JSON file. Reading never changes the file; a file that cannot be
/// read is reported with its path and reason and never overwritten (writers read before they write).
@_spi(Store)
public struct VersionedFile<Document: VersionedDocument>: Sendable {
    public let path: String
    /// Whether reads map the file rather than copy it: for large files, which are only ever
    /// replaced by rename (see `MappedFile`).
    public var mapsFile = false
    /// A file larger than this is refused unread.
    public var maximumSize = RegularFile.defaultMaximumSize

    public init(path: String, mapsFile: Bool = false, maximumSize: Int = RegularFile.defaultMaximumSize) {
        self.path = path
        self.mapsFile = mapsFile
        self.maximumSize = maximumSize
    }

    /// The document, or `Document.empty` when the file does not exist yet.
    public func load() throws(StoreError) -> Document {
        try load(decodingWith: Document.decodeDocument)
    }

    /// The same, decoded another way (a partial read of a large document). `decode` must not keep
    /// the data: when the file is mapped, it is unmapped on return.
    public func load(decodingWith decode: (Data) throws -> Document) throws(StoreError) -> Document {
        if mapsFile {
            guard let file = try MappedFile(path: path, maximumSize: maximumSize) else { return Document.empty }
            return try file.withData { data throws(StoreError) in try decoded(data, with: decode) }
        }
        guard let data = try RegularFile.read(path, maximumSize: maximumSize) else { return Document.empty }
        return try decoded(data, with: decode)
    }

    private func decoded(_ data: Data, with decode: (Data) throws -> Document) throws(StoreError) -> Document {
        guard !data.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        do {
            return try decode(data)
        } catch let problem as DocumentProblem {
            throw .unreadable(path: path, reason: problem.reason)
        } catch {
            throw .unreadable(path: path, reason: "wrong shape: \(error)")
        }
    }

    /// Throws unless the file is absent or readable: writers call it before replacing the file.
    public func check() throws(StoreError) {
        try Document.validateFile(atPath: path)
    }

    public func save(_ document: Document) throws(StoreError) {
        let data: [UInt8]
        do {
            data = try document.encodeDocument()
        } catch {
            throw .io(path: path, reason: "cannot encode: \(error)")
        }
        try AtomicFile.write(data, to: path)
    }
}

@_spi(Store)
extension VersionedFile where Document: Equatable {
    /// Read-modify-write; nothing is written if `body` throws or leaves the document unchanged,
    /// or leaves one that would not be read back (two identities the same): a store is never
    /// written into a state that stops every command. Not thread-safe on its own: the caller
    /// holds the file's lock.
    public func update<T>(_ body: (inout Document) throws -> T) throws -> T {
        var document = try load()
        let original = document
        let result = try body(&document)
        guard document != original else { return result }
        do {
            try document.validate()
        } catch {
            throw StoreError.io(path: path, reason: "not written, as it would not be read back: \(error.reason)")
        }
        try save(document)
        return result
    }
}

/// How store files encode: stable key order, dates as ISO 8601 in UTC (read with their offset),
/// through the program's one JSON (`JSONCoding`).
package enum StoreCoding {
    /// ISO 8601: UTC written, an offset required to read.
    static let dates = JSONCoding.Dates.text(
        write: { ISO8601.string($0) }, read: { ISO8601.parse($0)?.instant }, expected: "an ISO 8601 time with an offset")

    package struct Encoder: Sendable {
        package func encode<T: Encodable>(_ value: T) throws -> Data { Data(try JSONCoding.encode(value, dates: StoreCoding.dates)) }
    }

    package struct Decoder: Sendable {
        /// Text that is not JSON is a `DecodingError` too, as every other way a document is wrong.
        package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            do {
                return try JSONCoding.decode(type, from: data, dates: StoreCoding.dates)
            } catch let error as JSONReadError {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON: \(error)"))
            }
        }
    }

    package static let encoder = Encoder()
    package static let decoder = Decoder()

    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(field(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default: return String(describing: error)
        }
    }
}
