@_spi(Store) import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials

extension Health {
    /// What `status` shows: each part read on its own, so that one unreadable file does not hide
    /// the others. A part is nil when its file cannot be read, and `errors` says why, in the order
    /// the parts are read (the configuration's first, when the commute was opened
    /// `.readsAsDefaults`).
    public struct StoreStatus: Sendable {
        public var routes: RouteCache?
        /// How old each source's data is; nil when the routes cannot be read.
        public var sources: [Routes.SourceAge]?
        public var refreshLog: RefreshLog?
        public var favorites: Int?
        public var schedules: ScheduleSummary?
        /// The pauses in force or to come; nil when the schedules cannot be read.
        public var pauses: [Pause]?
        public var pending: PendingCounts?
        /// Each send's latest decision (claims, updates and dismissals left out), oldest first.
        public var decisions: [(at: Date, outcome: DeliveryLedger.Entry.Outcome)]?
        /// The transit feeds with what is known of each; nil when `transit.json` cannot be read.
        public var transit: [(feed: TransitFeed, state: TransitState.FeedState?, routes: [RouteID])]?
        public var errors: [any Error] = []
    }

    /// The plan in numbers.
    public struct PendingCounts: Sendable, Equatable {
        public var scheduled: Int
        public var deferred: Int
        public var cap: Int
        public var plannedAt: Date?
    }

    /// Reads every part of the store `status` shows. The plan is read without its deferred
    /// requests (counted from `requested`), and the ledger only for its decisions' times and
    /// outcomes, of the last day when there are any: the cost stays flat however many alerts are
    /// deferred or decided.
    public func storeStatus() -> StoreStatus {
        var status = StoreStatus()
        if let error = configurationError { status.errors.append(error) }
        func read<T>(_ body: () throws -> T) -> T? {
            do { return try body() } catch {
                status.errors.append(error)
                return nil
            }
        }
        status.routes = read { try store.routes() }
        status.refreshLog = read { try store.refreshLog() }
        if let routes = status.routes { status.sources = try? commute.routes.sourceAges(of: routes.routes.map(current)) }
        status.favorites = read { try store.favorites().routeIDs.count }
        // The plan vouches for the schedules it was made from; its own problem is told in its turn.
        let plan = try? store.pending(deferred: .none)
        status.schedules = read { try store.scheduleSummary(vouchedBy: plan) }
        status.pauses = status.schedules.map { summary in
            let ids = Set(summary.schedules.map(\.id))
            return (summary.pauses ?? []).filter { !$0.hasEnded(before: today) && ($0.scheduleID.map(ids.contains) ?? true) }
        }
        if let book = read({ try plan ?? store.pending(deferred: .none) }) {
            // `requested` is from a file: never trusted to be arithmetic-safe.
            let (deferred, overflow) = book.requested.subtractingReportingOverflow(book.requests.count)
            status.pending = PendingCounts(
                scheduled: book.requests.count, deferred: overflow ? 0 : max(0, deferred), cap: book.cap, plannedAt: book.plannedAt)
        }
        status.transit = read { try commute.transit.transitFeeds() }
        status.decisions = read {
            // Which send each was about matters for the last day's counts alone. The last day is
            // read from the ledger's end; the month only when nothing was decided in it.
            let dayAgo = now.addingTimeInterval(-86_400)
            var decisions = DeliveryLedger.lastDecisions(try store.ledgerDecisions(since: dayAgo, detailSince: dayAgo))
            if decisions.isEmpty {
                decisions = DeliveryLedger.lastDecisions(try store.ledgerDecisions(since: ledgerHorizon, detailSince: dayAgo))
            }
            return decisions.map { ($0.at, $0.outcome) }
        }
        return status
    }
}
