@_spi(Store) import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteSources

extension Alerts {
    /// What one tick did.
    public struct TickReport: Sendable, Equatable {
        /// Every alert sent, and how each went.
        public var sent: [SentAlert] = []
        /// Occurrences past their window, recorded and not delivered.
        public var missed: [Occurrence] = []
        /// Why each was missed: its description is the reason the ledger records.
        public var missedReasons: [Occurrence: Miss] = [:]
        /// Occurrences held back: quiet hours, the daily cap, a smart alert with no delay.
        public var suppressed: [Occurrence] = []
        public var rescheduled: Commute.RescheduleSummary?
        /// The alerts' health, and any health alert sent; nil when health alerts are off.
        public var health: Health.HealthReport?
        /// A store file the health check could not read or write: the alerts due were handled all
        /// the same.
        public var healthError: StoreError?
        /// The notifications cleared and revised this tick.
        public var tending = AlertTending()

        public var isEmpty: Bool { sent.isEmpty && missed.isEmpty && suppressed.isEmpty }
        /// The sends that failed (they are retried while the grace window lasts).
        public var failures: [SentAlert] { sent.filter { $0.result != .delivered } }
        /// The health alert's sends that failed (not retried: the problem stays open, and its end is
        /// still told).
        public var healthFailures: [SentAlert] { (health?.sent ?? []).filter { $0.result != .delivered } }
    }

    /// Why an occurrence was recorded as missed rather than sent.
    public enum Miss: Sendable, Equatable, CustomStringConvertible {
        /// An arrive-by alert whose arrival time (local) went by before it was sent.
        case arrivalWentBy(TimeOfDay)
        /// Later than the grace window allows.
        case late(TimeInterval, grace: TimeInterval)

        public var description: String {
            switch self {
            case .arrivalWentBy(let arrival): "its arrival time, \(arrival.label), went by before it was sent"
            case .late(let late, let grace): "\(TimeFormatting.age(late)) late, past the \(TimeFormatting.age(grace)) grace window"
            }
        }
    }

    /// How long a tick may spend sending, when `TRAVELTIMES_TICK_DEADLINE` does not say: what is
    /// left unsent then is recorded as failed, and the next tick sends it.
    public static let defaultTickDeadline: TimeInterval = 45
    /// Handling alerts can let deferred ones into the window; a tick takes at most this many turns
    /// at what is due.
    static let maximumTickPasses = 16

    /// Delivers every pending occurrence that is due and not yet handled, once per occurrence and
    /// notifier while processes live, even when ticks overlap: due occurrences are claimed in the
    /// ledger under the pending lock, sent outside it, and the outcome recorded. Each alert's words
    /// are composed now, from the route cache as it is now. An occurrence more than `grace` late is
    /// recorded as missed, not delivered. A claim left by a tick that died mid-send is sent again
    /// (at least once) once `DeliveryLedger.Entry.claimLifetime` has passed, and the ledger says so. Last, the alerts'
    /// health is checked (`tickHealth`), unless `health` is nil or off.
    public func tick(
        notifiers: [Notifier], quietHours: QuietHours? = nil,
        standardDailyCap: Int = Configuration.defaultStandardDailyCap, health: Health.HealthPolicy? = nil, sender: some AlertSender,
        providers: ProviderAccessMaker? = nil
    ) throws -> TickReport {
        var report = TickReport()
        var plan: PendingBook?
        for _ in 0..<Self.maximumTickPasses {
            let (pass, planRead) = try tickPass(notifiers: notifiers, quietHours: quietHours, standardDailyCap: standardDailyCap, sender: sender)
            // A pass that re-planned after handling alerts leaves its plan behind it.
            plan = pass.rescheduled == nil ? planRead : nil
            report.sent += pass.sent
            report.missed += pass.missed
            report.missedReasons.merge(pass.missedReasons) { first, _ in first }
            report.suppressed += pass.suppressed
            if let summary = pass.rescheduled { report.rescheduled = summary }
            // Another turn only when this one handled something and the new plan may have let a
            // deferred occurrence that is due into the window.
            guard !pass.isEmpty, let summary = pass.rescheduled, summary.deferred > 0 else { break }
        }
        report.tending = try tendOpenAlerts(notifiers: notifiers, quietHours: quietHours, sender: sender, providers: providers)
        if let health, !health.isOff {
            let current = try plan ?? store.pending(deferred: .none)
            do {
                report.health = try commute.health.tickHealth(
                    plan: current, policy: health, notifiers: Notifier.chosen(configuration.healthNotify, from: notifiers),
                    quietHours: quietHours, sender: sender)
            } catch let error as StoreError {
                report.healthError = error
            }
        }
        return report
    }

    /// A tick through the configured notifiers, with the configured quiet hours, daily cap and
    /// health policy: what `traveltimes tick` does. `providers` is asked for only when a followed
    /// trip needs its planner.
    public func tick(sender: some AlertSender, providers: ProviderAccessMaker? = nil) throws -> TickReport {
        try tick(
            notifiers: configuration.effectiveNotifiers, quietHours: configuration.quietHours,
            standardDailyCap: configuration.standardDailyCap ?? Configuration.defaultStandardDailyCap,
            health: Health.HealthPolicy(configuration), sender: sender, providers: providers)
    }

    /// Which of `failures` (by index) repeat their notifier's failure before, for the same reason:
    /// not news under `--quiet`, which says a failure when it starts or changes. An unreadable
    /// ledger makes every failure news.
    public func repeatedFailures(_ failures: [SentAlert]) -> Set<Int> {
        guard !failures.isEmpty, let ledger = try? store.ledger(keepingSince: ledgerHorizon) else { return [] }
        var repeats = Set<Int>()
        for (index, failure) in failures.enumerated() {
            let id = failure.delivery.claim.notifier.id
            let attempts = ledger.entries.filter { $0.notifier == id && ($0.outcome == .failed || $0.outcome == .delivered) }
            guard attempts.count >= 2 else { continue }
            let previous = attempts[attempts.count - 2]
            if previous.outcome == .failed, previous.reason == attempts[attempts.count - 1].reason { repeats.insert(index) }
        }
        return repeats
    }

    /// One turn at what is due; with the plan it read.
    private func tickPass(
        notifiers: [Notifier], quietHours: QuietHours?, standardDailyCap: Int, sender: some AlertSender
    ) throws -> (TickReport, PendingBook) {
        // A week and a day back: the latest occurrence of any weekly trigger is in there.
        let lookback = ZonedCalendar(timeZone: timeZone, around: now, daysBefore: 9, daysAfter: 2)
        var report = TickReport()
        // Most minutes nothing new is due: the plan alone says so (its marks say what the ledger
        // had dealt with), read without the lock, and the ledger is not read at all.
        var plan = try store.pending(deferred: .none)
        // A command that died between saving the schedules and planning them left a plan older
        // than the schedules: it is made again before anything is judged due.
        if !store.planIsCurrent(plan) {
            report.rescheduled = try commute.reschedule()
            plan = try store.pending(deferred: .none)
        }
        guard plan.requests.contains(where: { entry in
            // An arrive-by alert whose leave time has come (the plan's leave time is the cache's:
            // every refresh re-plans).
            if let arrival = entry.arrival, entry.nextFire <= now, arrival > now { return true }
            return Self.latestOccurrence(of: entry, atOrBefore: now, calendar: lookback).map { at in
                at > (entry.handled ?? .distantPast) && at > (entry.since.map { Commute.since($0, now: now) } ?? .distantPast)
                    && !Self.isPaused(entry, at: at, pauses: plan.pauses, calendar: lookback)
            } ?? false
        }) else { return (report, plan) }
        var inputs = AlertInputs(store: store, current: current, calendar: calendar)

        var readLedger = false
        let deliveries: [Delivery] = try store.updateLedgerWithPlan(keepingSince: ledgerHorizon) { pending, ledger in
            // Each occurrence's history, gathered in one pass over the ledger when first needed:
            // in steady state every request that fired this week is looked up, every minute.
            var histories: [Occurrence: [DeliveryLedger.Entry]]?
            func history(of occurrence: Occurrence) -> [DeliveryLedger.Entry] {
                readLedger = true
                let index = histories ?? ledger.historiesOfRecentOccurrences(since: now.addingTimeInterval(-8 * 86_400))
                histories = index
                return index[occurrence] ?? []
            }
            var deliveries: [Delivery] = []
            for entry in pending.requests {
                if entry.arrival != nil {
                    // Arrive-by: the last arrival, if it went by unhandled, is missed; the next is
                    // due once its leave time, computed again from the cache now, has come.
                    if !entry.isHeadsUp, let previous = Self.latestOccurrence(of: entry, atOrBefore: now, calendar: lookback),
                        previous > (entry.since.map { Commute.since($0, now: now) } ?? pending.plannedAt ?? .distantPast),
                        !Self.isPaused(entry, at: previous, pauses: pending.pauses, calendar: lookback)
                    {
                        let occurrence = Occurrence(entry.id, at: previous)
                        // A leave alert's window is until its arrival: after that, leaving is moot.
                        let miss = Miss.arrivalWentBy(calendar.local(previous).time)
                        if history(of: occurrence).isEmpty {
                            ledger.decide(occurrence, .missed, reason: miss.description, at: now)
                            report.missed.append(occurrence)
                            report.missedReasons[occurrence] = miss
                        } else if ledger.endAbandonedClaims(of: occurrence, reason: Self.abandoned(miss), now: now) > 0 {
                            report.missed.append(occurrence)
                            report.missedReasons[occurrence] = miss
                        }
                    }
                    guard entry.nextFire <= now, let schedule = try inputs.schedule(entry.scheduleID), schedule.isEnabled,
                        case .arriveBy(_, let headsUp) = schedule.timing
                    else { continue }
                    // A calendar event happens once: a week on is not it.
                    let next = entry.isOnce ? (entry.arrival ?? now) : lookback.nextFire(weekday: entry.weekday, hour: entry.hour, minute: entry.minute, after: now)
                    guard next > now, !Self.isPaused(entry, at: next, pauses: pending.pauses, calendar: lookback) else { continue }
                    let routes = try inputs.routes()
                    let leave = LeaveTime.compute(
                        for: schedule, routes: routes, arrival: next, typical: commute.history.typicalLookup, memory: entry.arrival == next ? entry.memory : nil,
                        freeFlowMargin: configuration.freeFlowMarginInForce, onTime: commute.history.onTimeLookup)
                    let due = entry.isHeadsUp
                        ? leave.leave.addingTimeInterval(-TimeInterval((headsUp ?? 0) * 60))
                        : leave.leave
                    guard due <= now else { continue }
                    let occurrence = Occurrence(entry.id, at: next)
                    let history = history(of: occurrence)
                    // A heads-up overtaken by the leave time itself (the traffic jumped) has nothing
                    // left to say: the leave alert says it.
                    // A heads-up's window closes a minute before the leave time: "Leave in 0 min"
                    // would only repeat what the leave alert is about to say.
                    if entry.isHeadsUp, leave.leave.timeIntervalSince(now) < 60 {
                        if history.isEmpty {
                            ledger.decide(occurrence, .suppressed, reason: "the leave time came first", at: now)
                            report.suppressed.append(occurrence)
                        }
                        continue
                    }
                    let claims = claims(
                        for: occurrence, history: history, notifiers: Notifier.chosen(schedule.notify, from: notifiers),
                        quietHours: quietHours, cap: standardDailyCap, ledger: &ledger, report: &report)
                    guard !claims.isEmpty else { continue }
                    let composition = composeLeave(
                        schedule, id: entry.id, leave: leave, headsUp: entry.isHeadsUp, firstHandling: history.isEmpty, routes: routes)
                    record(composition, occurrence, claims: claims, late: 0, ledger: &ledger, report: &report, deliveries: &deliveries)
                    continue
                }
                guard let at = Self.latestOccurrence(of: entry, atOrBefore: now, calendar: lookback),
                    at > (entry.since.map { Commute.since($0, now: now) } ?? pending.plannedAt ?? .distantPast),
                    !Self.isPaused(entry, at: at, pauses: pending.pauses, calendar: lookback)
                else { continue }
                let occurrence = Occurrence(entry.id, at: at)
                let history = history(of: occurrence)
                let late = now.timeIntervalSince(at)
                if late > grace {
                    let miss = Miss.late(late, grace: grace)
                    if history.isEmpty {
                        ledger.decide(occurrence, .missed, reason: miss.description, at: now)
                        report.missed.append(occurrence)
                        report.missedReasons[occurrence] = miss
                    } else if ledger.endAbandonedClaims(of: occurrence, reason: Self.abandoned(miss), now: now) > 0 {
                        // A tick died while sending it: every claimed occurrence ends in the ledger.
                        report.missed.append(occurrence)
                        report.missedReasons[occurrence] = miss
                    }
                    continue
                }
                let claims = claims(
                    for: occurrence, history: history, notifiers: notifiers, quietHours: quietHours, cap: standardDailyCap,
                    ledger: &ledger, report: &report)
                guard !claims.isEmpty else { continue }
                // A schedule removed or switched off since the plan was made sends nothing; one
                // that names its notifiers sends to those.
                guard let schedule = try inputs.schedule(entry.scheduleID), schedule.isEnabled else { continue }
                let chosen = Set(Notifier.chosen(schedule.notify, from: notifiers).map(\.id))
                let chosenClaims = claims.filter { chosen.contains($0.notifier.id) }
                let composition = compose(schedule, id: entry.id, late: late, firstHandling: history.isEmpty, routes: try inputs.routes())
                record(composition, occurrence, claims: chosenClaims, late: late, ledger: &ledger, report: &report, deliveries: &deliveries)
            }
            return deliveries
        }
        report.sent = try deliver(deliveries, sender: sender)
        // Handled occurrences leave the window, which may let deferred requests in. A turn that
        // read the ledger and found nothing to do was sent there by marks the plan lacks: the plan
        // is made again, with them, so the next minute reads nothing.
        if !report.isEmpty || readLedger { report.rescheduled = try commute.reschedule() }
        return (report, plan)
    }

    /// Who an occurrence goes to now. A first handling passes the gateway (scheduled alerts are the
    /// standard bucket: quiet hours, the daily cap) and claims every notifier; a later one takes
    /// what earlier attempts left. Empty when held back, which is recorded.
    private func claims(
        for occurrence: Occurrence, history: [DeliveryLedger.Entry], notifiers: [Notifier], quietHours: QuietHours?, cap: Int,
        ledger: inout DeliveryLedger, report: inout TickReport
    ) -> [Claim] {
        guard history.isEmpty else { return retries(of: history, occurrence: occurrence, notifiers: notifiers) }
        if let reason = Gateway(quietHours: quietHours, calendar: calendar, now: now).hold(.schedule, cap: cap, ledger: ledger) {
            ledger.decide(occurrence, .suppressed, reason: reason.description, at: now)
            report.suppressed.append(occurrence)
            return []
        }
        return notifiers.map { Claim(occurrence: occurrence, notifier: $0, attempt: 1, isResend: false) }
    }

    /// Records what was composed: a suppression, or a claim and a delivery for each notifier.
    private func record(
        _ composition: Composition, _ occurrence: Occurrence, claims: [Claim], late: TimeInterval, ledger: inout DeliveryLedger,
        report: inout TickReport, deliveries: inout [Delivery]
    ) {
        switch composition {
        case .suppress(let reason):
            ledger.decide(occurrence, .suppressed, reason: reason, at: now)
            report.suppressed.append(occurrence)
        case .send(let message, let leave, let isHeadsUp, let follow):
            for claim in claims {
                ledger.claim(claim, at: now)
                let notes = [claim.isResend ? "resent after an interrupted tick" : nil, late >= 60 ? "late by \(TimeFormatting.age(late))" : nil]
                deliveries.append(Delivery(
                    claim: claim, message: message, note: notes.compactMap { $0 }.joined(separator: "; ").nilIfEmpty, leave: leave,
                    isHeadsUp: isHeadsUp, follow: follow))
            }
        }
    }

    /// What an occurrence's earlier attempts leave to do: notifiers whose last attempt failed, and
    /// claims whose tick died before recording them. The notifiers an occurrence goes to are fixed
    /// when it is first handled: one added later does not resend an old alert.
    private func retries(of history: [DeliveryLedger.Entry], occurrence: Occurrence, notifiers: [Notifier]) -> [Claim] {
        notifiers.compactMap { notifier in
            let attempts = history.filter { $0.notifier == notifier.id }
            guard let latest = attempts.last else { return nil }
            switch latest.outcome {
            case .failed:
                // Targets the last attempt reached are not sent to again.
                return Claim(occurrence: occurrence, notifier: notifier, attempt: attempts.count + 1, isResend: false, reached: latest.handle)
            case .claimed where latest.isAbandoned(now: now):
                return Claim(occurrence: occurrence, notifier: notifier, attempt: attempts.count + 1, isResend: true, reached: latest.handle)
            case .claimed, .delivered, .missed, .suppressed:
                return nil
            }
        }
    }

    /// Why a claim a dead tick left is ended as missed.
    static func abandoned(_ miss: Miss) -> String { "the tick sending it died, and then \(miss.description)" }

    /// Removes the ledger entries of the alerts of the schedules whose IDs start with `prefix`
    /// (of every alert with nil).
    public func clearLedger(ofSchedules prefix: ScheduleIDPrefix?) throws -> Int {
        try store.updateLedger(keepingSince: ledgerHorizon) { ledger in
            let before = ledger.entries.count
            ledger.entries.removeAll { entry in prefix.map { prefix in entry.alert.scheduleID.map(prefix.matches) ?? false } ?? true }
            return before - ledger.entries.count
        }
    }
}

/// The schedules and routes a tick composes alerts from, each read once and only when an alert
/// is due: a tick with nothing due reads the plan — and, for `tickHealth`, the refresh log and the
/// health record — and nothing else.
struct AlertInputs {
    let store: Store
    /// A route as of when the alerts are composed (`Commute.current`).
    let current: (Route) -> Route
    /// For calendar departures' schedules, made from the calendars' plan.
    let calendar: ZonedCalendar
    private var schedulesByID: [UUID: Schedule]?
    private var routesByID: [RouteID: Route]?

    init(store: Store, current: @escaping (Route) -> Route, calendar: ZonedCalendar) {
        self.store = store
        self.current = current
        self.calendar = calendar
    }

    mutating func schedule(_ id: UUID) throws -> Schedule? {
        if let schedulesByID { return schedulesByID[id] }
        let events = Calendars.schedules((try? store.calendarState()) ?? .empty, calendar: calendar)
        let loaded = Dictionary((try store.schedules().schedules + events).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        schedulesByID = loaded
        return loaded[id]
    }

    mutating func routes() throws -> [RouteID: Route] {
        if let routesByID { return routesByID }
        let loaded = try store.routes().byID.mapValues(current)
        routesByID = loaded
        return loaded
    }
}

extension String {
    /// Nil for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
