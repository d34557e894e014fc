import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `delivered.json`: every decision `tick` made about an alert occurrence, newest last. Belongs to
/// the notification side and is written under the pending lock.
public struct DeliveryLedger: StoreDocument, Equatable {
    public static let fileName = "delivered.json"
    public static let domain = StoreDomain.pending
    /// Mapped: a ledger left to grow (by an older version) is read without a copy.
    public static let mapsFile = true

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

        /// The alert and its occurrence, plus the notifier: one entry per notifier.
        public var alert: AlertID
        public var occurrence: Date
        /// Nil for decisions about the occurrence as a whole (missed).
        public var notifier: Int?
        public var outcome: Outcome
        public var at: Date
        public var attempts: Int
        public var reason: String?
        /// The notification's key: one per occurrence, shared by the alerts that replace one
        /// another.
        public var key: AlertKey?
        /// The channel's handle for the notification, once it gave one.
        public var handle: String?
        /// What was done to a notification already out there; nil for a send.
        public var action: Action?
        /// The leave time an arrive-by alert said.
        public var leave: Date?
        /// For a claim: the process that holds it (`Claimant`). While it lives, no other tick
        /// takes the claim over, however long its sends take.
        public var claimant: String?

        private enum CodingKeys: String, CodingKey {
            case alert = "requestID", occurrence, notifier, outcome, at, attempts, reason, key, handle, action, leave, claimant
        }

        /// A change to a notification already sent.
        public enum Action: String, Codable, Sendable {
            /// Changed in place (or, where the channel cannot, sent anew because it mattered).
            case updated
            /// Dismissed.
            case cleared
            /// Left as it is: held back (quiet hours), or given up.
            case unchanged
        }

        public init(
            alert: AlertID, occurrence: Date, notifier: Int?, outcome: Outcome, at: Date, attempts: Int = 0, reason: String? = nil,
            key: AlertKey? = nil, handle: String? = nil, action: Action? = nil, leave: Date? = nil, claimant: String? = nil
        ) {
            self.claimant = claimant
            self.alert = alert
            self.occurrence = occurrence
            self.notifier = notifier
            self.outcome = outcome
            self.at = at
            self.attempts = attempts
            self.reason = reason
            self.key = key
            self.handle = handle
            self.action = action
            self.leave = leave
        }

        /// `sent`, `updated`, `cleared`, `unchanged` or `failed`: the last thing done, as
        /// `delivered --json` says it; nil for decisions that are not a send (missed, suppressed,
        /// claimed).
        public var lastAction: String? {
            if outcome == .failed { return "failed" }
            if let action { return action.rawValue }
            return outcome == .delivered ? "sent" : nil
        }

        public func isFor(_ occurrence: Occurrence, notifier: Int?) -> Bool {
            self.occurrence == occurrence.at && self.notifier == notifier && alert == occurrence.alert
        }

        /// The occurrence it is about.
        public var about: Occurrence { Occurrence(alert, at: occurrence) }
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

extension DeliveryLedger {
    /// One decision as `status` and the metrics count it: when, what, and which send it was about
    /// (its alert, occurrence and notifier); nil for an action on a notification already out there
    /// (an update, a dismissal), which is no alert of its own.
    public struct Decision: Sendable, Equatable {
        public var at: Date
        public var outcome: Entry.Outcome
        /// An update or a dismissal of a notification already out, not a send.
        public var isAction: Bool
        /// Which send it was about (a hash of its request, occurrence and notifier), when it was
        /// read (see `detailSince`).
        public var send: Int?
    }

    /// Each send once, by its latest decision, oldest first: an alert retried three times and then
    /// delivered is one delivered alert, not three failed and one delivered. (A decision whose send
    /// was not read stands alone.)
    public static func lastDecisions(_ decisions: [Decision]) -> [Decision] {
        var latest: [Int: Int] = [:]
        var kept: [Int] = []
        for (index, decision) in decisions.enumerated() where !decision.isAction && decision.outcome != .claimed {
            if let send = decision.send { latest[send] = index } else { kept.append(index) }
        }
        return (kept + latest.values).sorted().map { decisions[$0] }
    }
}
