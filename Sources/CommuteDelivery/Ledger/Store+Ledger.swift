import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// The ledger and the open alerts: the notification side's files, under the pending lock.
extension Store {
    /// The ledger; with `horizon`, without the entries decided before it (read and left out).
    public func ledger(keepingSince horizon: Date? = nil) throws(StoreError) -> DeliveryLedger {
        var dropped = 0
        return try ledger(keepingSince: horizon, dropped: &dropped)
    }

    /// The ledger's decisions at or after `start`, and how many it keeps from before then (since
    /// `horizon`) that were left unread: what `delivered` shows.
    public func ledger(keepingSince horizon: Date?, showingSince start: Date) throws(StoreError) -> (ledger: DeliveryLedger, older: Int) {
        var dropped = 0
        var older = 0
        let ledger = try file(DeliveryLedger.self).load {
            try DeliveryLedger.decodeDocument(from: $0, keepingSince: horizon, showingSince: start, dropped: &dropped, older: &older)
        }
        return (ledger, older)
    }

    /// When each decision in the ledger since `horizon` was made and what it was, newest last:
    /// the ledger read for `status` and the metrics, which show no more. A ledger written in order
    /// is read from its end, back to `horizon` only.
    public func ledgerDecisions(since horizon: Date?, detailSince: Date? = nil) throws(StoreError) -> [DeliveryLedger.Decision] {
        var decisions: [DeliveryLedger.Decision] = []
        _ = try file(DeliveryLedger.self).load { data in
            if let horizon, let plain = DeliveryLedger.tailDecisions(of: data, since: horizon, detailSince: detailSince) {
                decisions = plain
            } else if let horizon, let tail = DeliveryLedger.tailDocument(of: data, since: horizon),
                let read = try? DeliveryLedger.decisions(from: Data(tail), since: horizon, detailSince: detailSince)
            {
                decisions = read
            } else {
                decisions = try DeliveryLedger.decisions(from: data, since: horizon, detailSince: detailSince)
            }
            return DeliveryLedger.empty
        }
        return decisions
    }

    /// The ledger's entries decided since `cutoff` (a few more may come with them): read from the
    /// end of a ledger written in order, else whole with the older entries passed over.
    /// `keeping`, when given, says which entries are kept: only those are held in memory.
    public func ledgerTail(since cutoff: Date, keeping wanted: (DeliveryLedger.Entry) -> Bool = { _ in true }) throws(StoreError) -> DeliveryLedger {
        try file(DeliveryLedger.self).load { data in
            var dropped = 0
            var older = 0
            if let tail = DeliveryLedger.tailDocument(of: data, since: cutoff),
                let read = try? DeliveryLedger.decodeDocument(from: Data(tail), keepingSince: nil, showingSince: nil, dropped: &dropped, older: &older, keeping: wanted)
            {
                return read
            }
            return try DeliveryLedger.decodeDocument(from: data, keepingSince: nil, showingSince: cutoff, dropped: &dropped, older: &older, keeping: wanted)
        }
    }

    private func ledger(keepingSince horizon: Date?, dropped: inout Int) throws(StoreError) -> DeliveryLedger {
        try file(DeliveryLedger.self).load { try DeliveryLedger.decodeDocument(from: $0, keepingSince: horizon, dropped: &dropped) }
    }

    /// The notifications that may still change; empty (no file) most of the time.
    public func openAlerts() throws(StoreError) -> OpenAlerts { try read(OpenAlerts.self) }

    /// Read-modify-write of the ledger under the pending lock. Every write of the ledger drops
    /// the entries decided before `horizon` (the caller's moment less `DeliveryLedger.retention`),
    /// so it stays a month long whichever command writes it.
    public func updateLedger<T>(keepingSince horizon: Date?, _ body: (inout DeliveryLedger) throws -> T) throws -> T {
        try lock(.pending).withLock { try updateLedgerHeld(keepingSince: horizon, body) }
    }

    /// Read-modify-write of the ledger and the open alerts under the pending lock: how every
    /// send, update and clear is recorded, with the handle a later process needs.
    public func updateLedgerAndAlerts<T>(
        keepingSince horizon: Date?, _ body: (inout DeliveryLedger, inout OpenAlerts) throws -> T
    ) throws -> T {
        try lock(.pending).withLock {
            try file(OpenAlerts.self).update { alerts in try updateLedgerHeld(keepingSince: horizon) { try body(&$0, &alerts) } }
        }
    }

    /// Reads the scheduled requests (the deferred ones are left unread) and read-modify-writes
    /// the ledger under the pending lock: how `tick` claims occurrences so that two ticks never
    /// take the same one.
    public func updateLedgerWithPlan<T>(keepingSince horizon: Date?, _ body: (PendingBook, inout DeliveryLedger) throws -> T) throws -> T {
        try lock(.pending).withLock {
            let pending = try file(PendingBook.self).load { try PendingBook.decodeDocument(from: $0, deferred: .none) }
            return try updateLedgerHeld(keepingSince: horizon) { try body(pending, &$0) }
        }
    }

    /// Read-modify-write of the ledger, written when `body` changed it or the horizon left
    /// entries out. Not thread-safe on its own: the caller holds the pending lock.
    public func updateLedgerHeld<T>(keepingSince horizon: Date?, _ body: (inout DeliveryLedger) throws -> T) throws -> T {
        var dropped = 0
        var ledger = try ledger(keepingSince: horizon, dropped: &dropped)
        let original = ledger
        let result = try body(&ledger)
        if ledger != original || dropped > 0 { try file(DeliveryLedger.self).save(ledger) }
        return result
    }
}
