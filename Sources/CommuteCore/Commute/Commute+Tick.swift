import Foundation

extension Commute {
    /// What one tick did.
    public struct TickReport: Sendable, Equatable {
        public struct Delivery: Sendable, Equatable {
            public var requestID: String
            public var occurrence: Date
            public var notifier: Int
            /// Seconds after the occurrence; 0 when on time.
            public var late: TimeInterval
            /// Nil when delivered; the failure otherwise.
            public var failure: String?
        }

        public var deliveries: [Delivery] = []
        /// Occurrences past the grace window, recorded and not delivered.
        public var missed: [(requestID: String, occurrence: Date)] = []
        /// Smart alerts whose routes were not delayed enough.
        public var suppressed: [(requestID: String, occurrence: Date)] = []
        public var rescheduled: RescheduleSummary?

        public static func == (lhs: TickReport, rhs: TickReport) -> Bool {
            lhs.deliveries == rhs.deliveries && lhs.rescheduled == rhs.rescheduled
                && lhs.missed.map(\.requestID) == rhs.missed.map(\.requestID)
                && lhs.missed.map(\.occurrence) == rhs.missed.map(\.occurrence)
                && lhs.suppressed.map(\.requestID) == rhs.suppressed.map(\.requestID)
        }

        public var isEmpty: Bool { deliveries.isEmpty && missed.isEmpty && suppressed.isEmpty }
    }

    /// A claim older than this is taken to be from a tick that died, and may be taken again.
    static let claimLifetime: TimeInterval = 120

    /// Delivers every pending occurrence that is due and not yet handled, exactly once per
    /// occurrence and notifier, even when ticks overlap: occurrences are claimed in the ledger under
    /// the pending lock, delivered outside it (a slow notifier never holds up a refresh), and the
    /// outcome recorded under the lock again. An occurrence more than `grace` late is recorded as
    /// missed, not delivered. `send` delivers one message through one notifier: nil, or why not.
    public func tick(
        grace: TimeInterval, notifiers: [Notifier], quietHours: QuietHours? = nil,
        standardDailyCap: Int = Configuration.defaultStandardDailyCap, send: (AlertMessage, Notifier) -> String?
    ) throws -> TickReport {
        // A week and a day back: the latest occurrence of any weekly trigger is in there.
        let lookback = ZonedCalendar(timeZone: timeZone, around: now, daysBefore: 9, daysAfter: 2)
        var claims: [(message: AlertMessage, occurrence: Date, notifier: Notifier, late: TimeInterval)] = []
        var report = TickReport()

        // Read only when something is due (schedules) and it is a smart alert (routes): a tick with
        // nothing due reads the pending file and the ledger, and nothing else.
        var schedules: [UUID: Schedule]?
        var cachedRoutes: [String: Route]?
        func smartThreshold(_ id: UUID) throws -> (Schedule, Int)? {
            let loaded = try schedules ?? Dictionary(
                store.schedules().schedules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            schedules = loaded
            guard let schedule = loaded[id], let threshold = schedule.onlyWhenDelayedBy else { return nil }
            return (schedule, threshold)
        }
        func routes() throws -> [String: Route] {
            let loaded = try cachedRoutes ?? store.routes().byID
            cachedRoutes = loaded
            return loaded
        }

        try store.updateLedger { pending, ledger in
            ledger.entries.removeAll { now.timeIntervalSince($0.at) > DeliveryLedger.retention }
            for entry in pending.requests {
                guard let occurrence = Self.latestOccurrence(of: entry, atOrBefore: now, calendar: lookback),
                    occurrence > (entry.since ?? pending.plannedAt ?? .distantPast)
                else { continue }
                let late = now.timeIntervalSince(occurrence)
                let history = ledger.entries.filter { $0.requestID == entry.id && $0.occurrence == occurrence }
                // The notifiers an occurrence goes to are fixed when it is first handled: a new one
                // added later does not resend an old alert, nor make a delivered one look missed.
                let open: [Notifier]
                if history.isEmpty {
                    if late > grace {
                        ledger.entries.append(.init(
                            requestID: entry.id, occurrence: occurrence, notifier: nil, outcome: .missed, at: now,
                            reason: "\(TimeFormatting.age(late)) late, past the \(TimeFormatting.age(grace)) grace window"))
                        report.missed.append((entry.id, occurrence))
                        continue
                    }
                    // The gateway: scheduled alerts are the standard bucket.
                    if let reason = gate(quietHours: quietHours, cap: standardDailyCap, ledger: ledger) {
                        ledger.entries.append(.init(
                            requestID: entry.id, occurrence: occurrence, notifier: nil, outcome: .suppressed, at: now,
                            reason: reason))
                        report.suppressed.append((entry.id, occurrence))
                        continue
                    }
                    open = notifiers
                } else {
                    // Retry what failed (or a claim whose tick died) while the grace window lasts.
                    guard late <= grace else { continue }
                    open = notifiers.filter { notifier in
                        guard let latest = history.last(where: { $0.notifier == notifier.id }) else { return false }
                        switch latest.outcome {
                        case .failed: return true
                        case .claimed: return now.timeIntervalSince(latest.at) > Self.claimLifetime
                        case .delivered, .missed, .suppressed: return false
                        }
                    }
                }
                guard !open.isEmpty else { continue }
                var title = entry.title ?? "Commute"
                var body = entry.body ?? ""
                if history.isEmpty, let (schedule, threshold) = try smartThreshold(entry.scheduleID) {
                    guard let content = AlertComposer.smartContent(for: schedule, threshold: threshold, routes: try routes())
                    else {
                        ledger.entries.append(.init(
                            requestID: entry.id, occurrence: occurrence, notifier: nil, outcome: .suppressed, at: now,
                            reason: "not delayed: no route is \(threshold) min or more over its usual time"))
                        report.suppressed.append((entry.id, occurrence))
                        continue
                    }
                    title = content.title
                    body = content.body
                }
                if late >= 60 { body += "\n(late by \(TimeFormatting.age(late)))" }
                let message = AlertMessage(id: entry.id, title: title, body: body)
                for notifier in open {
                    let attempts = ledger.entries.filter { $0.isFor(entry.id, occurrence, notifier: notifier.id) }.count
                    ledger.entries.append(.init(
                        requestID: entry.id, occurrence: occurrence, notifier: notifier.id, outcome: .claimed, at: now,
                        attempts: attempts + 1))
                    claims.append((message, occurrence, notifier, late))
                }
            }
        }
        guard !claims.isEmpty || !report.missed.isEmpty || !report.suppressed.isEmpty else { return report }

        var outcomes: [(AlertMessage, Date, Notifier, String?)] = []
        for claim in claims {
            let failure = send(claim.message, claim.notifier)
            outcomes.append((claim.message, claim.occurrence, claim.notifier, failure))
            report.deliveries.append(.init(
                requestID: claim.message.id, occurrence: claim.occurrence, notifier: claim.notifier.id,
                late: claim.late >= 60 ? claim.late : 0, failure: failure))
        }
        try store.updateLedger { _, ledger in
            for (message, occurrence, notifier, failure) in outcomes {
                guard let index = ledger.entries.lastIndex(where: { $0.isFor(message.id, occurrence, notifier: notifier.id) })
                else { continue }
                ledger.entries[index].outcome = failure == nil ? .delivered : .failed
                ledger.entries[index].reason = failure ?? (now.timeIntervalSince(occurrence) >= 60
                    ? "late by \(TimeFormatting.age(now.timeIntervalSince(occurrence)))" : nil)
                ledger.entries[index].at = now
            }
        }
        // Handled occurrences may let deferred requests into the window.
        report.rescheduled = try reschedule()
        return report
    }

    /// Why a standard alert may not go out now, or nil: quiet hours, or the day's cap reached
    /// (alerts delivered, or being delivered, through at least one notifier since local midnight).
    func gate(quietHours: QuietHours?, cap: Int, ledger: DeliveryLedger) -> String? {
        let local = calendar.local(now)
        if let quietHours, quietHours.contains(local.time) { return "quiet hours (\(quietHours))" }
        let delivered = Set(ledger.entries.filter {
            // Claims count too: two alerts due in the same tick must not both pass a cap of one.
            ($0.outcome == .delivered || $0.outcome == .claimed) && $0.requestID.hasPrefix(TriggerRequest.allSchedulesPrefix)
                && calendar.local($0.at).date == local.date
        }.map { "\($0.requestID)@\($0.occurrence.timeIntervalSince1970)" })
        if delivered.count >= cap { return "daily cap of \(cap) standard alerts reached" }
        return nil
    }

    /// The latest fire of a weekly request at or before `now`.
    static func latestOccurrence(of entry: PendingBook.Entry, atOrBefore now: Date, calendar: ZonedCalendar) -> Date? {
        var latest: Date?
        var cursor = now.addingTimeInterval(-8 * 86_400)
        while true {
            let next = calendar.nextFire(weekday: entry.weekday, hour: entry.hour, minute: entry.minute, after: cursor)
            guard next <= now else { return latest }
            latest = next
            cursor = next
        }
    }

    /// Removes ledger entries whose request identifier starts with `prefix` (one schedule, or all).
    public func clearLedger(prefix: String) throws -> Int {
        try store.updateLedger { _, ledger in
            let before = ledger.entries.count
            ledger.entries.removeAll { $0.requestID.hasPrefix(prefix) }
            return before - ledger.entries.count
        }
    }
}
