@_spi(Store) import CommuteDelivery
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore

/// The life of an alert after it is sent: one notification per occurrence (`AlertKey`), changed in
/// place when a later alert of the same occurrence goes out (the leave alert after its heads-up, a
/// watch's "cleared" after its "over", a health alert's "mended"), revised when the leave time
/// moves, and cleared once the occurrence is over — on the channels that can; the others are told
/// only what matters. Every send, revision and clear is a ledger line, and `alerts.json` keeps the
/// handles a later process needs.
extension Alerts {
    /// Sends each claimed delivery through its notifier — outside any lock, so a slow notifier
    /// never holds up a refresh or another tick — and records its result in the ledger under the
    /// pending lock as soon as it is known, so that a tick killed later loses none it sent. The
    /// one path every alert takes: scheduled, watch, health and test. An alert whose occurrence
    /// already has a notification out there on that notifier changes it in place, where the
    /// channel can; a new one carries its idempotency key. Once the command's sending time is
    /// spent, the rest are recorded as failed, for the next tick.
    func deliver(_ deliveries: [Delivery], sender: some AlertSender) throws -> [SentAlert] {
        guard !deliveries.isEmpty else { return [] }
        var open = (try? store.openAlerts()) ?? .empty
        var sent: [SentAlert] = []
        for delivery in deliveries {
            let notifier = delivery.claim.notifier
            let key = key(of: delivery)
            let result: SentAlert
            if commute.isOutOfSendingTime {
                result = SentAlert(delivery: delivery, result: .failed(.outOfTime(seconds: Int(commute.sendingTime))), handle: delivery.claim.reached)
            } else if notifier.canUpdate, let handle = open.alert(key, notifier: notifier.id)?.handle {
                let receipt = sender.perform(.update(delivery.message, handle: handle), through: notifier)
                result = SentAlert(delivery: delivery, result: receipt.result, handle: receipt.handle ?? handle, replaced: true)
            } else {
                var message = delivery.message
                message.idempotencyKey = Self.idempotencyKey(key, notifier: notifier.id)
                message.reached = delivery.claim.reached
                let receipt = sender.perform(.send(message), through: notifier)
                result = SentAlert(delivery: delivery, result: receipt.result, handle: receipt.handle)
            }
            open = try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { ledger, alerts in
                ledger.record(result, key: key, at: now)
                if result.result == .delivered { keepOpen(result, key: key, in: &alerts) }
                return alerts
            }
            sent.append(result)
        }
        return sent
    }

    /// `tt` and 16 hex digits: the same for every attempt at one occurrence (its key) through one
    /// notifier, and a valid ntfy sequence ID and Matrix transaction ID.
    static func idempotencyKey(_ key: AlertKey, notifier: Int) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(key.description)#\(notifier)".utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01B3
        }
        return "tt" + String(cFormat: "%016llx", hash)
    }

    /// The key of a delivery's occurrence.
    func key(of delivery: Delivery) -> AlertKey {
        AlertKey(delivery.claim.occurrence.alert, occurrence: delivery.claim.occurrence.at, calendar: calendar)
    }

    /// Keeps a sent alert where a later process finds it: on a notifier that can change or clear
    /// it, and, on any notifier, a heads-up whose leave time may move.
    private func keepOpen(_ sent: SentAlert, key: AlertKey, in alerts: inout OpenAlerts) {
        let delivery = sent.delivery
        let notifier = delivery.claim.notifier
        guard notifier.canUpdate || notifier.canClear || delivery.isHeadsUp || delivery.follow != nil else {
            alerts.remove(key, notifier: notifier.id)
            return
        }
        let occurrence = delivery.claim.occurrence
        let clearAt: Date? = if delivery.leave != nil {
            // An arrive-by alert is over at its arrival.
            occurrence.at
        } else if case .health(_, mended: false) = occurrence.alert {
            // A health problem stays until its "mended" replaces it.
            nil
        } else {
            max(occurrence.at, now).addingTimeInterval(TimeInterval(configuration.alertLifetime))
        }
        var open = OpenAlerts.Alert(
            key: key, notifier: notifier.id, handle: sent.handle, alert: occurrence.alert, occurrence: occurrence.at,
            clearAt: clearAt, leave: delivery.leave, isHeadsUp: delivery.isHeadsUp)
        open.follow = delivery.follow
        alerts.put(open)
    }

    /// What tending the open alerts did this tick.
    public struct AlertTending: Sendable, Equatable {
        /// Clears, and their results.
        public var cleared: [Change] = []
        /// Heads-ups revised (updated in place, or sent anew where the channel cannot update).
        public var revised: [Change] = []
        /// Leave alerts updated because the trip they named changed (`Alerts+Follow.swift`).
        public var followed: [Change] = []

        public var isEmpty: Bool { cleared.isEmpty && revised.isEmpty && followed.isEmpty }
        public var failures: [Change] { (cleared + revised + followed).filter { $0.result != .delivered } }

        /// One notification changed on one notifier.
        public struct Change: Sendable, Equatable {
            public var key: AlertKey
            public var notifier: Notifier
            public var result: DeliveryResult
            /// The revision's words; nil for a clear.
            public var message: AlertMessage?
        }
    }

    /// Clears the alerts whose occurrence is over, and revises each heads-up whose leave time the
    /// traffic moved by `AlertKey.materialMove` or more: "Leave at 8:05 — traffic got worse; was
    /// 8:21". A revision waits out quiet hours (said once in the ledger) and goes when they end,
    /// if the heads-up is still open; a followed trip that changed updates its leave alert.
    /// Reads `alerts.json` only, when nothing is open or due.
    func tendOpenAlerts(
        notifiers: [Notifier], quietHours: QuietHours?, sender: some AlertSender, providers: ProviderAccessMaker? = nil
    ) throws -> AlertTending {
        let open = try store.openAlerts()
        guard !open.alerts.isEmpty else { return AlertTending() }
        let byID = Dictionary(notifiers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var tending = AlertTending()
        // The trips leave alerts named, followed until their lines leave: first, since what they
        // find is urgent (the rider is on the way). They touch only their own alerts' entries.
        tending.followed = try followTrips(open, notifiers: byID, sender: sender, providers: providers)
        var done: [(OpenAlerts.Alert, AlertTending.Change, action: DeliveryLedger.Entry.Action, handle: String?)] = []
        var heldNow: [OpenAlerts.Alert] = []
        var forgotten: [OpenAlerts.Alert] = []

        // Over: cleared where the channel can, else forgotten (nothing to tell: it said its piece).
        for alert in open.alerts {
            guard let clearAt = alert.clearAt, clearAt <= now else { continue }
            guard let notifier = byID[alert.notifier], notifier.canClear, let handle = alert.handle else {
                forgotten.append(alert)
                continue
            }
            let receipt = sender.perform(.clear(handle: handle), through: notifier)
            let change = AlertTending.Change(key: alert.key, notifier: notifier, result: receipt.result, message: nil)
            tending.cleared.append(change)
            done.append((alert, change, .cleared, handle))
        }

        // Heads-ups whose leave time moved.
        let revisable = open.alerts.filter { $0.isHeadsUp && $0.occurrence > now && ($0.clearAt.map { $0 > now } ?? true) && $0.leave != nil }
        if !revisable.isEmpty {
            var inputs = AlertInputs(store: store, current: current, calendar: calendar)
            let inQuietHours = quietHours?.contains(calendar.local(now).time) ?? false
            var revisions: [(alert: OpenAlerts.Alert, notifier: Notifier, message: AlertMessage, leave: LeaveTime)] = []
            for alert in revisable {
                guard let announced = alert.leave, let notifier = byID[alert.notifier],
                    let scheduleID = alert.alert.scheduleID,
                    let schedule = try inputs.schedule(scheduleID), schedule.isEnabled, case .arriveBy(_, _) = schedule.timing
                else { continue }
                let routes = try inputs.routes()
                let leave = LeaveTime.compute(for: schedule, routes: routes, arrival: alert.occurrence, typical: commute.history.typicalLookup, freeFlowMargin: configuration.freeFlowMarginInForce,
                    onTime: commute.history.onTimeLookup)
                let moved = leave.leave.timeIntervalSince(announced)
                // Past the leave time, the leave alert says it; a small move is no news.
                guard abs(moved) >= OpenAlerts.materialMove, leave.leave.timeIntervalSince(now) >= 60 else { continue }
                if inQuietHours {
                    if alert.held == nil { heldNow.append(alert) }
                    continue
                }
                let message = revisedHeadsUp(schedule, id: alert.alert, leave: leave, was: announced, routes: routes)
                revisions.append((alert, notifier, message, leave))
            }
            // Each revision is claimed before it is sent, as a first send is: a tick running beside
            // this one, or one that already revised it, leaves it alone.
            let claimed = revisions.isEmpty ? [] : try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { _, alerts in
                revisions.filter { revision in
                    guard var current = alerts.alert(revision.alert.key, notifier: revision.alert.notifier),
                        current.leave == revision.alert.leave, current.revising.map({ !Claimant.isAlive($0) }) ?? true
                    else { return false }
                    current.revising = Claimant.current
                    alerts.put(current)
                    return true
                }
            }
            for (alert, notifier, message, leave) in claimed {
                let operation: AlertOperation = notifier.canUpdate
                    ? alert.handle.map { .update(message, handle: $0) } ?? .send(message)
                    : .send(message)
                let receipt = sender.perform(operation, through: notifier)
                let change = AlertTending.Change(key: alert.key, notifier: notifier, result: receipt.result, message: message)
                tending.revised.append(change)
                var revised = alert
                revised.revising = nil
                if receipt.result == .delivered {
                    revised.leave = leave.leave
                    revised.held = nil
                    revised.handle = receipt.handle ?? alert.handle
                }
                done.append((revised, change, .updated, revised.handle))
            }
        }
        guard !done.isEmpty || !heldNow.isEmpty || !forgotten.isEmpty else { return tending }

        try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { ledger, alerts in
            for alert in forgotten {
                alerts.remove(alert.key, notifier: alert.notifier)
            }
            for alert in heldNow {
                guard var current = alerts.alert(alert.key, notifier: alert.notifier) else { continue }
                let reason = "the leave time moved, in quiet hours (\(quietHours.map(\.description) ?? "")); revised when they end, if still relevant"
                ledger.note(.unchanged, to: alert, outcome: .suppressed, reason: reason, at: now)
                current.held = .quietHours(quietHours)
                alerts.put(current)
            }
            for (alert, change, action, handle) in done {
                ledger.note(action, to: alert, result: change.result, handle: handle, at: now)
                switch (action, change.result) {
                case (.cleared, .delivered):
                    alerts.remove(alert.key, notifier: alert.notifier)
                case (.cleared, .failed):
                    // Tried again next tick, a few times, then given up: said so in the ledger.
                    guard var current = alerts.alert(alert.key, notifier: alert.notifier) else { continue }
                    current.clearFailures = (current.clearFailures ?? 0) + 1
                    if (current.clearFailures ?? 0) >= OpenAlerts.clearAttempts {
                        alerts.remove(alert.key, notifier: alert.notifier)
                    } else {
                        alerts.put(current)
                    }
                default:
                    if alerts.alert(alert.key, notifier: alert.notifier) != nil { alerts.put(alert) }
                }
            }
        }
        return tending
    }

    /// "Leave at 8:05 AM — traffic got worse; was 8:21 AM", then the heads-up's lines.
    private func revisedHeadsUp(_ schedule: Schedule, id: AlertID, leave: LeaveTime, was: Date, routes: [RouteID: Route]) -> AlertMessage {
        let content = AlertComposer.headsUpContent(for: schedule, routes: routes, leave: leave, now: now, calendar: calendar)
        let change = leave.leave < was ? "traffic got worse" : "traffic eased"
        let title = "Leave at \(calendar.local(leave.leave).time.label) — \(change); was \(calendar.local(was).time.label)"
        return AlertMessage(id: id, title: title, body: content.title + "\n" + content.body)
    }

    /// Dismisses, on every notifier that can, the notifications of the schedules whose IDs start
    /// with `prefix` (removed ones too; all with nil), as the Sequence app clears delivered
    /// notifications. Each is a ledger line; the others are forgotten (nothing to take back).
    public func dismissOpenAlerts(ofSchedules prefix: ScheduleIDPrefix?, sender: some AlertSender) throws -> [AlertTending.Change] {
        let isChosen = { (key: AlertKey) in prefix.map { key.belongs(toSchedules: $0) } ?? true }
        let open = try store.openAlerts()
        let byID = Dictionary(configuration.effectiveNotifiers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let matching = open.alerts.filter { isChosen($0.key) }
        guard !matching.isEmpty else { return [] }
        var changes: [(OpenAlerts.Alert, AlertTending.Change)] = []
        for alert in matching {
            guard let notifier = byID[alert.notifier], notifier.canClear, let handle = alert.handle else { continue }
            let receipt = sender.perform(.clear(handle: handle), through: notifier)
            changes.append((alert, AlertTending.Change(key: alert.key, notifier: notifier, result: receipt.result, message: nil)))
        }
        try store.updateLedgerAndAlerts(keepingSince: ledgerHorizon) { ledger, alerts in
            alerts.alerts.removeAll { isChosen($0.key) }
            for (alert, change) in changes {
                ledger.note(.cleared, to: alert, result: change.result, reason: "dismissed by `delivered clear`", at: now)
            }
        }
        return changes.map(\.1)
    }
}

extension DeliveryLedger {
    /// Records what was done to a notification already out there: its outcome (from `result`, or
    /// given), the channel's reason when it failed, else `reason`; the handle it has now.
    mutating func note(
        _ action: Entry.Action, to alert: OpenAlerts.Alert, result: DeliveryResult? = nil, outcome given: Entry.Outcome? = nil,
        handle: String? = nil, reason: String? = nil, at now: Date
    ) {
        let outcome = given ?? (result == .delivered ? .delivered : .failed)
        entries.append(Entry(
            alert: alert.alert, occurrence: alert.occurrence, notifier: alert.notifier, outcome: outcome, at: now,
            attempts: result == nil ? 0 : 1, reason: result?.failure ?? reason, key: alert.key, handle: handle ?? alert.handle,
            action: action, leave: action == .updated ? alert.leave : nil))
    }
}
