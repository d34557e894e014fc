import Foundation

/// A store document: a JSON object that carries `"version": 1`.
public protocol VersionedDocument: Codable, Sendable {
    /// The version this build reads and writes.
    static var currentVersion: Int { get }
    /// The document a missing file stands for.
    static var empty: Self { get }
}

extension VersionedDocument {
    public static var currentVersion: Int { 1 }
}

/// Reads and writes one versioned JSON file. Reading never changes the file; a file that cannot be
/// read is reported with its path and reason and never overwritten (writers read before they write).
struct VersionedFile<Document: VersionedDocument>: Sendable {
    let path: String

    /// The document, or `Document.empty` when the file does not exist yet.
    func load() throws(StoreError) -> Document {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return Document.empty
        } catch {
            throw .io(path: path, reason: "cannot read: \((error as NSError).localizedDescription)")
        }
        return try decode(data)
    }

    func decode(_ data: Data) throws(StoreError) -> Document {
        guard !data.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        let probe: VersionProbe
        do {
            probe = try StoreCoding.decoder.decode(VersionProbe.self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw .unreadable(path: path, reason: "expected a JSON object")
        } catch DecodingError.typeMismatch(_, _) {
            throw .unreadable(path: path, reason: "\"version\" is not a number")
        } catch {
            throw .unreadable(path: path, reason: "not valid JSON")
        }
        guard let version = probe.version else {
            throw .unreadable(path: path, reason: "no \"version\" field")
        }
        guard version == Document.currentVersion else {
            throw .unreadable(
                path: path,
                reason: "unknown version \(version) (this traveltimes reads version \(Document.currentVersion))")
        }
        do {
            return try StoreCoding.decoder.decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw .unreadable(path: path, reason: "wrong shape: \(Self.describe(error))")
        } catch {
            throw .unreadable(path: path, reason: "wrong shape: \(error)")
        }
    }

    func save(_ document: Document) throws(StoreError) {
        let data: Data
        do {
            data = try StoreCoding.encoder.encode(document)
        } catch {
            throw .io(path: path, reason: "cannot encode: \(error)")
        }
        try AtomicFile.write(data + Data("\n".utf8), to: path)
    }

    private static func describe(_ error: DecodingError) -> String {
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

private struct VersionProbe: Decodable {
    var version: Int?
}

/// How store files encode: stable key order, dates as ISO 8601 in UTC.
enum StoreCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.parse(text)?.instant else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 time with an offset")
            }
            return date
        }
        return decoder
    }()
}
