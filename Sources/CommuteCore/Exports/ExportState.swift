import Basics
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `exports.json`: what each export last sent, so a run that changes nothing sends and writes
/// nothing; when it last succeeded; and the problem of its last attempt, told once. Part of the
/// notification side (the pending domain).
public struct ExportState: StoreDocument, Equatable {
    public static let fileName = "exports.json"
    public static let domain = StoreDomain.pending

    public struct Record: Codable, Sendable, Equatable {
        /// When it last sent or wrote something, and when it was last tried.
        public var lastSuccessAt: Date?
        public var lastAttemptAt: Date?
        /// Why the last attempt failed; nil when it did not.
        public var problem: String?
        /// Whether the problem has been said (a failure is said once; the next run retries).
        public var problemTold: Bool?
        /// What was last sent, by topic or entity: a digest of each payload.
        public var sent: [String: String]?

        public init() {}
    }

    public var version: Int
    public var records: [String: Record]

    public init() {
        version = Self.currentVersion
        records = [:]
    }

    public static let currentVersion = 1
    public static var empty: ExportState { ExportState() }

    public func validate() throws(DocumentProblem) {
        try DocumentProblem.check(records.count <= ExportTarget.largestCount * 4, "too many exports")
        for (id, record) in records {
            try DocumentProblem.check(ExportTarget.isValidID(id), "an export ID is not one")
            try DocumentProblem.check((record.sent ?? [:]).count <= 20_000, "export \(id) remembers too much")
            try DocumentProblem.check((record.problem ?? "").utf8.count <= 1_000 && DisplayText.line(record.problem ?? "") == record.problem ?? "", "export \(id)'s problem is not one line")
        }
    }

    /// A digest of a payload: FNV-1a, 64 bits, in hex (to notice a change, not to keep a secret).
    public static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Through its bytes, not `Data`'s iterator (a call a byte: a refresh digests 490 messages).
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}

extension Store {
    public func exportState() throws(StoreError) -> ExportState { try read(ExportState.self) }
}
