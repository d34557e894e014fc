import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `delivered.json` is read by every `tick` and holds a month of decisions, so it is read and
/// written with `JSONReader` and `JSONWriter`, in the format `JSONCoding` writes.
extension DeliveryLedger {
    public static func decodeDocument(from data: Data) throws -> DeliveryLedger {
        var dropped = 0
        return try decodeDocument(from: data, keepingSince: nil, dropped: &dropped)
    }

    /// The ledger without the entries decided before `horizon`: each is read and checked, and
    /// dropped, so a ledger that grew for a year costs its reading, not its keeping.
    /// `dropped` counts them.
    static func decodeDocument(from data: Data, keepingSince horizon: Date?, dropped: inout Int) throws -> DeliveryLedger {
        var older = 0
        return try decodeDocument(from: data, keepingSince: horizon, showingSince: nil, dropped: &dropped, older: &older)
    }

    /// The same, and without the entries decided before `start` either: those are kept, and
    /// counted in `older`, but not built — once an entry's `at` (written first) is read, the rest
    /// of it is skipped.
    static func decodeDocument(
        from data: Data, keepingSince horizon: Date?, showingSince start: Date?, dropped: inout Int, older: inout Int,
        keeping wanted: (Entry) -> Bool = { _ in true }
    ) throws -> DeliveryLedger {
        let leaveOut = [horizon, start].compactMap { $0 }.max().map(Cutoff.init)
        let dropBefore = horizon.map(Cutoff.init)
        return try DocumentReading.document(data, as: DeliveryLedger.self) { reader in
            var version: Int?
            var entries: [Entry]?
            try DocumentReading.object(&reader, field: "", keys: ["version", "entries"]) { key, reader in
                switch key {
                case "version":
                    try DocumentReading.version(&reader, of: DeliveryLedger.self)
                    version = currentVersion
                default:
                    var read: [Entry] = []
                    try DocumentReading.array(&reader, field: "entries") { reader, index in
                        switch try entry(&reader, index, leavingOutBefore: leaveOut, horizon: dropBefore) {
                        case .entry(let entry): if wanted(entry) { read.append(entry) }
                        case .leftOut(let beforeHorizon):
                            if beforeHorizon { dropped += 1 } else { older += 1 }
                        }
                    }
                    entries = read
                }
            }
            guard version != nil else { throw DocumentProblem("no \"version\" field") }
            return DeliveryLedger(entries: try DocumentReading.required(entries, "entries"))
        }
    }

    /// When each decision was made and what it was, newest last, at or after `horizon`: what
    /// `status` shows, read without building the rest of each entry. Which send each was about is
    /// read only for those at or after `detailSince` (a ledger writes `at` before it).
    static func decisions(from data: Data, since horizon: Date?, detailSince: Date? = nil) throws -> [Decision] {
        var decisions: [Decision] = []
        _ = try DocumentReading.document(data, as: DeliveryLedger.self) { reader in
            try DocumentReading.object(&reader, field: "", keys: ["version", "entries"]) { key, reader in
                switch key {
                case "version": try DocumentReading.version(&reader, of: DeliveryLedger.self)
                default:
                    try DocumentReading.array(&reader, field: "entries") { reader, index in
                        // Named only when something is wrong: this runs for every decision of the month.
                        func field() -> String { "entries[\(index)]" }
                        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field()) is not an object") }
                        try reader.beginObject()
                        var at: Date?
                        var outcome: Entry.Outcome?
                        var isAction = false
                        // Which send, as a hash of its request, occurrence and notifier: no string
                        // is built for each of a day's thousands.
                        var send = Hasher()
                        var detailed = true
                        while let key = try reader.nextKey() {
                            if "action" ~= key {
                                isAction = true
                                try reader.skipValue()
                            } else if "requestID" ~= key || "occurrence" ~= key {
                                if detailed {
                                    send.combine("requestID" ~= key)
                                    try reader.withStringBytes { send.combine(bytes: UnsafeRawBufferPointer($0)) }
                                } else {
                                    try reader.skipValue()
                                }
                            } else if "notifier" ~= key {
                                if detailed {
                                    send.combine(2)
                                    send.combine(try reader.readOptionalInt())
                                } else {
                                    try reader.skipValue()
                                }
                            } else if at == nil, "at" ~= key {
                                let read = try DocumentReading.date(&reader, field: "\(field()).at")
                                at = read
                                detailed = detailSince.map { read >= $0 } ?? true
                            } else if outcome == nil, "outcome" ~= key {
                                let text = try reader.readString()
                                outcome = Entry.Outcome(rawValue: text)
                                guard outcome != nil else { throw DocumentProblem("wrong shape: \(field()).outcome '\(text)' is not an outcome") }
                            } else {
                                try reader.skipValue()
                            }
                        }
                        let decided = try DocumentReading.required(at, "\(field()).at")
                        if let horizon, decided < horizon { return }
                        decisions.append(Decision(
                            at: decided, outcome: try DocumentReading.required(outcome, "\(field()).outcome"), isAction: isAction,
                            send: isAction || !detailed ? nil : send.finalize()))
                    }
                }
            }
            return DeliveryLedger.empty
        }
        return decisions
    }

    /// An instant entries are compared with, also as the text this ledger writes for a whole
    /// second (`2025-11-04T16:30:00Z`): an entry's `at` in that form is compared as bytes, without
    /// being parsed.
    struct Cutoff {
        let date: Date
        private let text: [UInt8]

        init(_ date: Date) {
            self.date = date
            text = Array(ISO8601.string(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))).utf8)
        }

        /// True when `bytes` (an `at` in the same form) is a second before the cutoff's second, so
        /// before the cutoff; false when it is a later second; nil when it is the same second or
        /// written otherwise (then it is parsed).
        func precedes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
            guard text.count == 20, bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
            for (mine, theirs) in zip(text, bytes) where mine != theirs { return theirs < mine }
            return nil
        }
    }

    /// An entry's keys, in the order they are written (sorted).
    private static let entryKeys: [StaticString] = [
        "action", "at", "attempts", "claimant", "handle", "key", "leave", "notifier", "occurrence", "outcome", "reason", "requestID",
    ]

    /// An entry read whole, or left out (before the window) as soon as its `at` was read.
    private enum Read {
        case entry(Entry)
        case leftOut(beforeHorizon: Bool)
    }

    /// An entry; one decided before `start` only as far as its `at`, the rest passed over
    /// (`skipRestOfObject`).
    private static func entry(_ reader: inout JSONReader, _ index: Int, leavingOutBefore start: Cutoff?, horizon: Cutoff?) throws -> Read {
        // Named only when something is wrong: this runs for every decision of the month.
        func field() -> String { "entries[\(index)]" }
        var alert: AlertID?
        var occurrence: Date?
        var notifier: Int?
        var outcome: Entry.Outcome?
        var at: Date?
        var attempts: Int?
        var reason: String?
        var alertKey: AlertKey?
        var handle: String?
        var claimant: String?
        var action: Entry.Action?
        var leave: Date?
        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field()) is not an object") }
        try reader.beginObject()
        // A direct loop, as for the pending file's entries: this runs for every decision of the
        // month, and an entry left out is skipped from its `at` on without matching its keys.
        var seen = JSONReader.FieldsSeen()
        /// Left out, and whether before the horizon too.
        var leftOut: Bool?
        members: while let key = try reader.nextKey() {
            guard seen.first(key, among: Self.entryKeys) else {
                try reader.skipValue()
                continue
            }
            do {
                switch key {
                case "at":
                    // Most entries of a month are before the window: told so from their text.
                    let position = reader.position
                    let verdict = try reader.withStringBytes { (start?.precedes($0), horizon?.precedes($0)) }
                    if verdict.0 == true, horizon == nil || verdict.1 != nil {
                        leftOut = .some(verdict.1 == true)
                        try reader.skipRestOfObject()
                        break members
                    }
                    reader.restore(position)
                    let decided = try DocumentReading.date(&reader, field: "\(field()).at")
                    at = decided
                    if let start, decided < start.date {
                        leftOut = .some(horizon.map { decided < $0.date } ?? false)
                        try reader.skipRestOfObject()
                        break members
                    }
                case "attempts": attempts = try reader.readInt()
                case "notifier": notifier = try reader.readOptionalInt()
                case "occurrence": occurrence = try DocumentReading.date(&reader, field: "\(field()).occurrence")
                case "outcome":
                    let text = try reader.readString()
                    guard let value = Entry.Outcome(rawValue: text) else {
                        throw DocumentProblem("wrong shape: \(field()).outcome '\(text)' is not an outcome")
                    }
                    outcome = value
                case "reason": reason = try reader.readOptionalString()
                case "requestID":
                    let position = reader.position
                    guard let id = try reader.withStringBytes(AlertID.init(utf8:)) else {
                        reader.restore(position)
                        let text = try reader.readString()
                        throw DocumentProblem("wrong shape: \(field()).requestID '\(DisplayText.line(String(text.prefix(80))))' is not an alert")
                    }
                    alert = id
                case "key":
                    if try reader.readNull() { break }
                    let position = reader.position
                    guard let value = try reader.withStringBytes(AlertKey.init(utf8:)) else {
                        reader.restore(position)
                        let text = try reader.readString()
                        throw DocumentProblem("wrong shape: \(field()).key '\(DisplayText.line(String(text.prefix(80))))' is not an alert's key")
                    }
                    alertKey = value
                case "handle": handle = try reader.readOptionalString()
                case "claimant": claimant = try reader.readOptionalString()
                case "leave": if try !reader.readNull() { leave = try DocumentReading.date(&reader, field: "\(field()).leave") }
                case "action":
                    guard let text = try reader.readOptionalString() else { break }
                    guard let value = Entry.Action(rawValue: text) else {
                        throw DocumentProblem("wrong shape: \(field()).action '\(text)' is not an action")
                    }
                    action = value
                default: try reader.skipValue()
                }
            } catch let error as JSONReadError where error.kind == .type {
                throw DocumentProblem("wrong shape: \(field()).\(key) has the wrong type")
            }
        }
        if let beforeHorizon = leftOut { return .leftOut(beforeHorizon: beforeHorizon) }
        let decided = try DocumentReading.required(at, "\(field()).at")
        return .entry(Entry(
            alert: try DocumentReading.required(alert, "\(field()).requestID"),
            occurrence: try DocumentReading.required(occurrence, "\(field()).occurrence"), notifier: notifier,
            outcome: try DocumentReading.required(outcome, "\(field()).outcome"), at: decided,
            attempts: try DocumentReading.required(attempts, "\(field()).attempts"), reason: reason, key: alertKey, handle: handle,
            action: action, leave: leave, claimant: claimant))
    }

    public func encodeDocument() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + entries.count * 200)
        writer.beginObject()
        writer.key("entries")
        writer.beginArray()
        // Keys in sorted order and absent optionals left out, as `JSONCoding` writes them.
        for entry in entries {
            writer.beginObject()
            if let action = entry.action {
                writer.key("action")
                writer.string(action.rawValue)
            }
            writer.key("at")
            writer.string(ISO8601.string(entry.at))
            writer.key("attempts")
            writer.int(entry.attempts)
            if let claimant = entry.claimant {
                writer.key("claimant")
                writer.string(claimant)
            }
            if let handle = entry.handle {
                writer.key("handle")
                writer.string(handle)
            }
            if let key = entry.key {
                writer.key("key")
                writer.string(key.description)
            }
            if let leave = entry.leave {
                writer.key("leave")
                writer.string(ISO8601.string(leave))
            }
            if let notifier = entry.notifier {
                writer.key("notifier")
                writer.int(notifier)
            }
            writer.key("occurrence")
            writer.string(ISO8601.string(entry.occurrence))
            writer.key("outcome")
            writer.string(entry.outcome.rawValue)
            if let reason = entry.reason {
                writer.key("reason")
                writer.string(reason)
            }
            writer.key("requestID")
            writer.string(entry.alert.description)
            writer.endObject()
        }
        writer.endArray()
        // Entries in the order they were decided: readers of the last hours read from the end
        // (`tailDocument`).
        if isOrdered {
            writer.key("ordered")
            writer.bool(true)
        }
        writer.key("version")
        writer.int(version)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
