import Basics
@_spi(Store) import CommuteDelivery
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore

extension Alerts {
    /// What `delivered` lists: the decisions of a window, newest first.
    public struct DeliveredReport: Sendable, Equatable {
        /// Newest first by when each alert was due; the later decision first within one. No
        /// claims: a claim is a tick at work, not a decision.
        public var entries: [DeliveryLedger.Entry]
        /// The window's start.
        public var since: Date
        /// Decisions the ledger keeps from before the window: counted, not read.
        public var older: Int
    }

    /// The ledger's decisions since `start` — by default since yesterday began, in the saved
    /// zone: what went out today and yesterday (the ledger keeps 30 days) — of one schedule when
    /// `schedules` is given, of the schedules whose IDs start so (removed ones too).
    public func delivered(since start: Date? = nil, schedules: ScheduleIDPrefix? = nil) throws -> DeliveredReport {
        let start = start ?? calendar.instant(on: CivilDate(dayNumber: today.dayNumber - 1), hour: 0, minute: 0)
        let (ledger, older) = try store.ledger(keepingSince: ledgerHorizon, showingSince: start)
        var entries = ledger.entries.filter { entry in
            entry.outcome != .claimed && (schedules.map { prefix in entry.alert.scheduleID.map(prefix.matches) ?? false } ?? true)
        }
        entries.sort { ($0.occurrence, $0.at) > ($1.occurrence, $1.at) }
        return DeliveredReport(entries: entries, since: start, older: older)
    }
}
