import Basics
import CommuteModel
import FoundationEssentials

/// Reading a store document's objects with `JSONReader`, for the files every per-minute command
/// reads (`pending.json`, `delivered.json`): Foundation's `JSONDecoder` costs a third of a `tick`.
/// The files are the ones `JSONCoding` writes; a key given twice keeps its first value, as there.
/// Not thread-safe: one reader per thread.
package struct DocumentReading {
    /// Reads one object, handing each known key's value to `member` once; other keys are skipped.
    /// `field` names the object in messages (`requests[3]`).
    package static func object(
        _ reader: inout JSONReader, field: String, keys: [StaticString],
        _ member: (JSONReader.Key, inout JSONReader) throws -> Void
    ) throws {
        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field.isEmpty ? "the file" : field) is not an object") }
        try reader.beginObject()
        var seen: UInt64 = 0
        while let key = try reader.nextKey() {
            guard let index = keys.firstIndex(where: { $0 ~= key }), index < 64, seen & (1 << UInt64(index)) == 0 else {
                try reader.skipValue()
                continue
            }
            seen |= 1 << UInt64(index)
            do {
                try member(key, &reader)
            } catch let error as JSONReadError where error.kind == .type {
                throw DocumentProblem("wrong shape: \(path(field, key)) has the wrong type")
            }
        }
    }

    /// Each element of an array, with its index.
    package static func array(_ reader: inout JSONReader, field: String, _ element: (inout JSONReader, Int) throws -> Void) throws {
        guard try reader.peek() == .array else { throw DocumentProblem("wrong shape: \(field) is not an array") }
        try reader.beginArray()
        var index = 0
        while try reader.nextElement() {
            try element(&reader, index)
            index += 1
        }
    }

    /// An ISO 8601 instant with an offset.
    package static func date(_ reader: inout JSONReader, field: @autoclosure () -> String) throws -> Date {
        let parsed = try reader.withStringBytes { ISO8601.parse(bytes: $0)?.instant }
        guard let parsed else { throw DocumentProblem("wrong shape: \(field()) is not an ISO 8601 time with an offset") }
        return parsed
    }

    static func optionalDate(_ reader: inout JSONReader, field: @autoclosure () -> String) throws -> Date? {
        if try reader.readNull() { return nil }
        return try date(&reader, field: field())
    }

    static func uuid(_ reader: inout JSONReader, field: @autoclosure () -> String) throws -> UUID {
        guard let id = try reader.withStringBytes(UUID.parse) else { throw DocumentProblem("wrong shape: \(field()) is not a UUID") }
        return id
    }

    /// A required value, or the problem of its absence.
    package static func required<T>(_ value: T?, _ field: @autoclosure () -> String) throws -> T {
        guard let value else { throw DocumentProblem("wrong shape: \(field()) is missing") }
        return value
    }

    static func path(_ field: String, _ key: JSONReader.Key) -> String {
        field.isEmpty ? key.description : "\(field).\(key)"
    }

    /// The document, read by `body`, with the reason a store error gives when it cannot be: a
    /// syntax error, else a wrong or missing version (the better reason when there is one), else
    /// the shape.
    /// Not `wholly`: `body` may stop before the end, and what follows is not read.
    package static func document<Document: VersionedDocument>(
        _ data: Data, as type: Document.Type, wholly: Bool = true, _ body: (inout JSONReader) throws -> Document
    ) throws -> Document {
        let document: Document
        do {
            document = try wholly ? JSONReader.read(data, body) : JSONReader.readPrefix(data, body)
        } catch let error as JSONReadError where error.kind == .syntax {
            throw DocumentProblem("not valid JSON (\(error.description))")
        } catch {
            try Document.checkVersion(data)
            throw error as? DocumentProblem ?? DocumentProblem("wrong shape: \(error)")
        }
        try document.validate()
        return document
    }

    /// The `version` member, which must be this build's.
    package static func version<Document: VersionedDocument>(_ reader: inout JSONReader, of type: Document.Type) throws {
        guard try reader.peek() == .number else { throw DocumentProblem("\"version\" is not a number") }
        let version = try reader.readInt()
        guard version == Document.currentVersion else {
            throw DocumentProblem("unknown version \(version) (this traveltimes reads version \(Document.currentVersion))")
        }
    }
}
