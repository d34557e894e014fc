import Foundation

/// `delivered.json`: every decision `tick` made about an alert occurrence, newest last. Belongs to
/// the notification side and is written under the pending lock.
public struct DeliveryLedger: VersionedDocument, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        public enum Outcome: String, Codable, Sendable {
            /// A tick has taken it and is delivering it now.
            case claimed
            case delivered
            /// Too late: past the grace window (the machine was asleep).
            case missed
            /// A notifier failed; retried on later ticks while the grace window lasts.
            case failed
            /// Decided against: a smart alert whose routes were not delayed enough.
            case suppressed
        }

        /// The request identifier and the occurrence, plus the notifier: one entry per notifier.
        public var requestID: String
        public var occurrence: Date
        /// Nil for decisions about the occurrence as a whole (missed).
        public var notifier: Int?
        public var outcome: Outcome
        public var at: Date
        public var attempts: Int
        public var reason: String?

        public init(requestID: String, occurrence: Date, notifier: Int?, outcome: Outcome, at: Date, attempts: Int = 0, reason: String? = nil) {
            self.requestID = requestID
            self.occurrence = occurrence
            self.notifier = notifier
            self.outcome = outcome
            self.at = at
            self.attempts = attempts
            self.reason = reason
        }

        public func isFor(_ requestID: String, _ occurrence: Date, notifier: Int?) -> Bool {
            self.requestID == requestID && self.occurrence == occurrence && self.notifier == notifier
        }
    }

    public var version: Int
    public var entries: [Entry]

    public init(entries: [Entry] = []) {
        version = Self.currentVersion
        self.entries = entries
    }

    public static var empty: DeliveryLedger { DeliveryLedger() }

    /// Entries kept: 30 days.
    public static let retention: TimeInterval = 30 * 86_400
}
