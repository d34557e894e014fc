import CommuteModel
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The end of the ledger without the month before it. `status`, a refresh's plan and the exports
/// want the decisions of the last hours; a month of them for 3,000 schedules is 60,000 entries
/// (11 MB). A ledger this build wrote with its entries in the order they were decided says so
/// (`"ordered":true`), and is then read from its end: back over the entries, one `at` at a time,
/// to the first decided before the cutoff, and forward from there as a document of its own.
/// Any other file (written otherwise, by hand, or damaged) is read whole.
extension DeliveryLedger {
    /// Whether every entry was decided no earlier than the one before it: what `"ordered"` says.
    var isOrdered: Bool {
        var previous = Date.distantPast
        for entry in entries {
            guard entry.at >= previous else { return false }
            previous = entry.at
        }
        return true
    }

    private static let documentStart = Array(#"{"entries":["#.utf8)
    private static let documentEnd = Array(#"],"ordered":true,"version":1}"#.utf8)

    /// The entries decided at or after `cutoff` (and perhaps a few in the same second before it)
    /// as a document in the ledger's format; nil when the file is not a ledger written in order
    /// (then it is to be read whole). Reads nothing but the tail's pages.
    static func tailDocument(of data: Data, since cutoff: Date) -> [UInt8]? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [UInt8]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let tail = tailRange(of: bytes, since: cutoff) else { return nil }
            var document = documentStart
            if tail.start < tail.arrayEnd {
                document.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[tail.start..<tail.end]))
            } else {
                document.append(contentsOf: documentEnd)
            }
            return document
        }
    }

    /// Where the entries decided since `cutoff` begin (`arrayEnd` when none was), where the array
    /// ends, and where the document does; nil when the file is not a ledger written in order, or
    /// no entry was decided before the cutoff (then all of it is wanted).
    static func tailRange(of bytes: UnsafeBufferPointer<UInt8>, since cutoff: Date) -> (start: Int, arrayEnd: Int, end: Int)? {
        let cutoffText = Array(ISO8601.string(Date(timeIntervalSince1970: cutoff.timeIntervalSince1970.rounded(.down))).utf8)
        guard cutoffText.count == 20, let base = bytes.baseAddress else { return nil }
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        let arrayEnd = end - documentEnd.count
        guard arrayEnd > documentStart.count, bytes.count >= documentStart.count,
            documentStart.indices.allSatisfy({ bytes[$0] == documentStart[$0] }),
            documentEnd.indices.allSatisfy({ bytes[arrayEnd + $0] == documentEnd[$0] })
        else { return nil }
        // Back from the end, entry by entry: an entry begins `{"a` after `[` or `,` (a raw
        // quote cannot follow `{` inside a string of valid JSON), its `at` first or after its
        // `action`. The first decided a whole second before the cutoff ends the walk.
        var start = arrayEnd
        var searched = arrayEnd
        while let position = lastBrace(in: base, from: documentStart.count, before: searched) {
            searched = position
            guard bytes[position - 1] == UInt8(ascii: ",") || bytes[position - 1] == UInt8(ascii: "["),
                position + 3 < arrayEnd, bytes[position + 1] == UInt8(ascii: "\""), bytes[position + 2] == UInt8(ascii: "a")
            else { continue }
            guard let before = decidedBefore(cutoffText, entryAt: position, in: bytes, end: arrayEnd) else { return nil }
            if before { return (start, arrayEnd, end) }
            start = position
        }
        return nil
    }

    /// The last `{` in `lower..<upper`, read eight bytes at a time where it can be: the walk back
    /// over a day of entries passes half a megabyte.
    private static func lastBrace(in base: UnsafePointer<UInt8>, from lower: Int, before upper: Int) -> Int? {
        let brace = UInt8(ascii: "{")
        var index = upper
        while index - 8 >= lower {
            let word = UnsafeRawPointer(base + index - 8).loadUnaligned(as: UInt64.self)
            // A byte of `word ^ braces` is zero where `word` has a brace.
            let marked = word ^ 0x7B7B_7B7B_7B7B_7B7B
            if (marked &- 0x0101_0101_0101_0101) & ~marked & 0x8080_8080_8080_8080 != 0 { break }
            index -= 8
        }
        while index > lower {
            index -= 1
            if base[index] == brace { return index }
        }
        return nil
    }

    /// Whether the entry beginning at `position` was decided a whole second before the cutoff (by
    /// its `at`, compared as text in the form this ledger writes); nil when its `at` is not found
    /// in that form.
    private static func decidedBefore(_ cutoff: [UInt8], entryAt position: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool? {
        let key = Array(#""at":""#.utf8)
        // `{"at":"…` or `{"action":"<a short word>","at":"…`.
        var index = position + 1
        let limit = min(end, position + 64)
        while index + key.count + 20 <= limit {
            if bytes[index] == UInt8(ascii: "\""), key.indices.allSatisfy({ bytes[index + $0] == key[$0] }) {
                let at = index + key.count
                guard bytes[at + 4] == UInt8(ascii: "-"), bytes[at + 19] == UInt8(ascii: "Z") || bytes[at + 19] == UInt8(ascii: ".") else { return nil }
                for offset in 0..<19 where bytes[at + offset] != cutoff[offset] { return bytes[at + offset] < cutoff[offset] }
                return false
            }
            index += 1
        }
        return nil
    }
}

/// `status` reads a day of decisions — 3,000 at 3,000 schedules — for their times, outcomes and
/// sends: from the tail of a ledger written in order, entry by entry in the one form this build
/// writes (no spaces, flat objects, `at` before the send's fields). Anything else gives nil, and
/// the tail is read as JSON instead.
extension DeliveryLedger {
    static func tailDecisions(of data: Data, since horizon: Date, detailSince: Date?) -> [Decision]? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Decision]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let tail = tailRange(of: bytes, since: horizon) else { return nil }
            var decisions: [Decision] = []
            var index = tail.start
            while index < tail.arrayEnd {
                guard let (decision, next) = plainDecision(bytes, at: index, end: tail.arrayEnd, detailSince: detailSince) else { return nil }
                if decision.at >= horizon { decisions.append(decision) }
                index = next
                if index < tail.arrayEnd {
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            }
            return decisions
        }
    }

    /// One entry from `{` to `}`, and where it ends; nil for anything not in the plain form.
    private static func plainDecision(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, detailSince: Date?) -> (Decision, Int)? {
        let quote = UInt8(ascii: "\"")
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        var index = start + 1
        var at: Date?
        var outcome: Entry.Outcome?
        var isAction = false
        var send = Hasher()
        var detailed = true
        while true {
            // A key: plain text in quotes.
            guard index < end, bytes[index] == quote else { return nil }
            let keyStart = index + 1
            var keyEnd = keyStart
            while keyEnd < end, bytes[keyEnd] != quote {
                guard bytes[keyEnd] != UInt8(ascii: "\\") else { return nil }
                keyEnd += 1
            }
            guard keyEnd + 1 < end, bytes[keyEnd + 1] == UInt8(ascii: ":") else { return nil }
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd])
            index = keyEnd + 2
            // A value: a string (escapes passed over), or a number or word up to `,` or `}`.
            guard index < end else { return nil }
            let value: UnsafeBufferPointer<UInt8>
            var escaped = false
            if bytes[index] == quote {
                var close = index + 1
                while close < end, bytes[close] != quote {
                    if bytes[close] == UInt8(ascii: "\\") {
                        escaped = true
                        close += 1
                    }
                    close += 1
                }
                guard close < end else { return nil }
                value = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close])
                index = close + 1
            } else {
                var close = index
                while close < end, bytes[close] != UInt8(ascii: ","), bytes[close] != UInt8(ascii: "}") {
                    guard bytes[close] != UInt8(ascii: "{"), bytes[close] != UInt8(ascii: "[") else { return nil }
                    close += 1
                }
                value = UnsafeBufferPointer(rebasing: bytes[index..<close])
                index = close
            }
            if key.spells("action") {
                isAction = true
            } else if key.spells("at"), at == nil {
                guard !escaped, let read = ISO8601.parse(bytes: value)?.instant else { return nil }
                at = read
                detailed = detailSince.map { read >= $0 } ?? true
            } else if key.spells("outcome"), outcome == nil {
                guard !escaped, let read = Entry.Outcome(rawValue: String(decoding: value, as: UTF8.self)) else { return nil }
                outcome = read
            } else if detailed, key.spells("requestID") || key.spells("occurrence") {
                guard !escaped else { return nil }
                send.combine(key.spells("requestID"))
                send.combine(bytes: UnsafeRawBufferPointer(value))
            } else if detailed, key.spells("notifier") {
                send.combine(2)
                if value.spells("null") {
                    send.combine(Int?.none)
                } else {
                    guard value.count < 19, !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
                    send.combine(Int?.some(value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }))
                }
            }
            guard index < end else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}"), let at, let outcome else { return nil }
            return (Decision(at: at, outcome: outcome, isAction: isAction, send: isAction || !detailed ? nil : send.finalize()), index + 1)
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `text`: compared in place (a generic `elementsEqual` against
    /// a string's UTF-8 view costs more than the rest of reading an entry).
    fileprivate func spells(_ text: StaticString) -> Bool {
        guard count == text.utf8CodeUnitCount else { return false }
        guard let base = baseAddress else { return true }
        return memcmp(base, text.utf8Start, count) == 0
    }
}
