import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `exports.json` is read by every refresh and tick, and remembers a digest of every payload sent
/// — three for each favourite over MQTT, one over Home Assistant — so it is read with
/// `JSONReader` in the shape `JSONCoding` writes it. Anything else in it is left to the
/// `Codable` reading, which decides as it always has and names the problem.
extension ExportState {
    public static func decodeDocument(from data: Data) throws -> ExportState {
        if let state = try? JSONReader.read(data, plainState) {
            try state.validate()
            return state
        }
        return try decodeWithCodable(from: data)
    }

    /// Thrown by the plain reading at anything it leaves to `Codable`.
    private struct NotPlain: Error {}

    private static func plainState(_ reader: inout JSONReader) throws -> ExportState {
        guard try reader.peek() == .object else { throw NotPlain() }
        try reader.beginObject()
        var version: Int?
        var records: [String: Record]?
        while let key = try reader.nextKey() {
            switch key {
            case "version" where version == nil: version = try reader.readInt()
            case "records" where records == nil:
                var read: [String: Record] = [:]
                guard try reader.peek() == .object else { throw NotPlain() }
                try reader.beginObject()
                while let id = try reader.nextKey() {
                    let name = id.description
                    guard read[name] == nil else { throw NotPlain() }
                    read[name] = try record(&reader)
                }
                records = read
            case "version", "records": throw NotPlain()
            default: try reader.skipValue()
            }
        }
        guard version == currentVersion, let records else { throw NotPlain() }
        var state = ExportState()
        state.records = records
        return state
    }

    private static func record(_ reader: inout JSONReader) throws -> Record {
        guard try reader.peek() == .object else { throw NotPlain() }
        try reader.beginObject()
        var record = Record()
        var seen = Set<String>()
        while let key = try reader.nextKey() {
            guard seen.insert(key.description).inserted else { throw NotPlain() }
            switch key {
            case "lastSuccessAt": record.lastSuccessAt = try date(&reader)
            case "lastAttemptAt": record.lastAttemptAt = try date(&reader)
            case "problem": record.problem = try reader.readOptionalString()
            case "problemTold": record.problemTold = try reader.readNull() ? nil : try reader.readBool()
            case "sent":
                if try reader.readNull() { break }
                guard try reader.peek() == .object else { throw NotPlain() }
                try reader.beginObject()
                var sent: [String: String] = [:]
                while let topic = try reader.nextKey() {
                    let name = topic.description
                    guard sent[name] == nil else { throw NotPlain() }
                    sent[name] = try reader.readString()
                }
                record.sent = sent
            default: try reader.skipValue()
            }
        }
        return record
    }

    private static func date(_ reader: inout JSONReader) throws -> Date? {
        if try reader.readNull() { return nil }
        guard let date = try reader.withStringBytes({ ISO8601.parse(bytes: $0)?.instant }) else { throw NotPlain() }
        return date
    }
}
