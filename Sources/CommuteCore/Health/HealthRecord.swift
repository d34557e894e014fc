import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `health.json`: the problem `tick` found that makes alerts wrong (old data, failing refreshes),
/// from when it is found until its "mended" alert is sent. Belongs to the notification side:
/// written under the pending lock, with the ledger that records each health alert.
public struct HealthRecord: StoreDocument, Equatable {
    public static let fileName = "health.json"
    public static let domain = StoreDomain.pending

    public var version: Int
    /// Nil when all is well.
    public var problem: OpenProblem?

    /// A problem found and not yet seen mended.
    public struct OpenProblem: Codable, Sendable, Equatable {
        public var kind: HealthProblem.Kind
        /// When it began: the first failed refresh, or when the oldest data was measured.
        public var since: Date
        /// When `tick` first found it: with `kind`, the key of its alerts in the ledger (a problem
        /// that mends and comes back is another problem, told again).
        public var foundAt: Date
        /// When its alert went out; nil while it is held back.
        public var alertedAt: Date?
        /// Why it is held back (quiet hours, the daily cap), once ledgered: said once, not every
        /// minute it lasts.
        public var heldBecause: HoldReason?

        /// Its alert: `health.refresh` or `health.data`.
        public var alert: AlertID { .health(kind, mended: false) }
        /// Its "mended" alert.
        public var mendedAlert: AlertID { .health(kind, mended: true) }
    }

    public init(problem: OpenProblem? = nil) {
        version = Self.currentVersion
        self.problem = problem
    }

    public static var empty: HealthRecord { HealthRecord() }

    public func validate() throws(DocumentProblem) {
        guard let problem else { return }
        try DocumentProblem.date(problem.since, "problem.since")
        try DocumentProblem.date(problem.foundAt, "problem.foundAt")
        if let alertedAt = problem.alertedAt { try DocumentProblem.date(alertedAt, "problem.alertedAt") }
    }
}
